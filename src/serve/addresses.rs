//! This machine's addresses in the hall: the ones to give spectators when the server listens
//! on every interface (0.0.0.0).

use std::net::IpAddr;

/// Every address of this machine's interfaces that are up, loopback and link-local IPv6 left
/// out (IPv4 first); where the interfaces cannot be listed, the address of the default route.
pub fn hall_addresses() -> Vec<IpAddr> {
    let mut all = interfaces();
    if all.is_empty() {
        all.extend(default_route());
    }
    all.retain(|ip| !ip.is_loopback() && !ip.is_unspecified() && !link_local_v6(ip));
    all.sort_by_key(|ip| (ip.is_ipv6(), *ip));
    all.dedup();
    all
}

fn link_local_v6(ip: &IpAddr) -> bool {
    matches!(ip, IpAddr::V6(v6) if (v6.segments()[0] & 0xffc0) == 0xfe80)
}

/// The address this machine would send from to reach another network (no packet is sent).
fn default_route() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    Some(socket.local_addr().ok()?.ip())
}

#[cfg(unix)]
fn interfaces() -> Vec<IpAddr> {
    let mut out = Vec::new();
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list` with a linked list it allocates, freed below.
    if unsafe { libc::getifaddrs(&mut list) } != 0 {
        return out;
    }
    let mut at = list;
    while !at.is_null() {
        // SAFETY: `at` is a node of the list getifaddrs returned, not yet freed.
        let node = unsafe { &*at };
        let up = node.ifa_flags & (libc::IFF_UP as libc::c_uint) != 0;
        if up && !node.ifa_addr.is_null() {
            // SAFETY: `ifa_addr` points to a sockaddr whose family says its real type.
            out.extend(unsafe { address(node.ifa_addr) });
        }
        at = node.ifa_next;
    }
    // SAFETY: `list` came from getifaddrs and is freed once.
    unsafe { libc::freeifaddrs(list) };
    out
}

/// The IP address of a socket address of family IPv4 or IPv6.
///
/// # Safety
/// `sa` must point to a valid socket address of the size its family implies.
#[cfg(unix)]
unsafe fn address(sa: *const libc::sockaddr) -> Option<IpAddr> {
    // SAFETY: the caller gives a valid sockaddr; its family is read first.
    match i32::from(unsafe { (*sa).sa_family }) {
        libc::AF_INET => {
            // SAFETY: an AF_INET address is a sockaddr_in.
            let v4 = unsafe { &*(sa.cast::<libc::sockaddr_in>()) };
            Some(IpAddr::from(u32::from_be(v4.sin_addr.s_addr).to_be_bytes()))
        }
        libc::AF_INET6 => {
            // SAFETY: an AF_INET6 address is a sockaddr_in6.
            let v6 = unsafe { &*(sa.cast::<libc::sockaddr_in6>()) };
            Some(IpAddr::from(v6.sin6_addr.s6_addr))
        }
        _ => None,
    }
}

#[cfg(not(unix))]
fn interfaces() -> Vec<IpAddr> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_hall_addresses_leave_loopback_out() {
        let all = super::hall_addresses();
        assert!(
            all.iter()
                .all(|ip| !ip.is_loopback() && !ip.is_unspecified())
        );
    }
}
