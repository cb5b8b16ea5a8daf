//! How many wrong tokens and codes an address may try: a board's code is short (40 bits), so
//! guessing one is slowed down. Each address (an IPv6 address by its /64, the part one
//! machine is given) may be wrong [`FREE`] times at once; after that one more try is allowed
//! every [`EVERY`]: at most 14,410 tries a day. Until then its tries are refused with `429`
//! before any token or code is looked at.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Wrong tries an address may make at once.
pub(super) const FREE: u32 = 10;
/// One wrong try is forgotten after this long.
pub(super) const EVERY: Duration = Duration::from_secs(6);
/// Addresses remembered before those that have nothing left against them are forgotten.
const REMEMBERED: usize = 4096;

/// The wrong tries of each address.
#[derive(Default)]
pub(super) struct Guesses {
    by: Mutex<HashMap<u128, Tries>>,
}

/// An address's wrong tries not yet forgotten, as of `at`.
#[derive(Clone, Copy)]
struct Tries {
    count: u32,
    at: Instant,
}

impl Tries {
    /// The tries left against the address at `now`.
    fn at(self, now: Instant) -> Tries {
        let gone = now.saturating_duration_since(self.at).as_millis() / EVERY.as_millis();
        let gone = u32::try_from(gone).unwrap_or(u32::MAX);
        if gone == 0 {
            return self;
        }
        Tries {
            count: self.count.saturating_sub(gone),
            at: self.at + EVERY * gone.min(self.count),
        }
        .settled(now)
    }

    /// With nothing left against it, counted from `now`.
    fn settled(self, now: Instant) -> Tries {
        if self.count == 0 {
            Tries { count: 0, at: now }
        } else {
            self
        }
    }
}

/// The address as counted: IPv4 whole, IPv6 by its first 64 bits.
fn key(peer: SocketAddr) -> u128 {
    match peer.ip().to_canonical() {
        IpAddr::V4(a) => u128::from(u32::from(a)),
        IpAddr::V6(a) => (u128::from(a) >> 64 << 64) | 1,
    }
}

impl Guesses {
    /// Whether `peer` may try a token or a code at `now`.
    pub(super) fn allowed(&self, peer: Option<SocketAddr>, now: Instant) -> bool {
        let Some(peer) = peer else { return true };
        let by = self.by.lock().unwrap_or_else(PoisonError::into_inner);
        by.get(&key(peer)).is_none_or(|t| t.at(now).count < FREE)
    }

    /// `peer` tried a token or a code no board has, at `now`.
    pub(super) fn missed(&self, peer: Option<SocketAddr>, now: Instant) {
        let Some(peer) = peer else { return };
        let mut by = self.by.lock().unwrap_or_else(PoisonError::into_inner);
        if by.len() >= REMEMBERED {
            by.retain(|_, t| t.at(now).count > 0);
        }
        let t = by.entry(key(peer)).or_insert(Tries { count: 0, at: now });
        let mut now_t = t.at(now);
        now_t.count = now_t.count.saturating_add(1);
        *t = now_t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_wrong_tries_then_one_every_six_seconds() {
        let g = Guesses::default();
        let t0 = Instant::now();
        let a: SocketAddr = "192.168.1.23:50000".parse().unwrap();
        let other: SocketAddr = "192.168.1.24:50000".parse().unwrap();
        for _ in 0..FREE {
            assert!(g.allowed(Some(a), t0));
            g.missed(Some(a), t0);
        }
        assert!(!g.allowed(Some(a), t0));
        // Another port of the same machine is the same address; another machine is not.
        assert!(!g.allowed(Some("192.168.1.23:1".parse().unwrap()), t0));
        assert!(g.allowed(Some(other), t0));
        assert!(!g.allowed(Some(a), t0 + EVERY - Duration::from_millis(1)));
        assert!(g.allowed(Some(a), t0 + EVERY));
        g.missed(Some(a), t0 + EVERY);
        assert!(!g.allowed(Some(a), t0 + EVERY * 2 - Duration::from_millis(1)));
        // Everything forgotten after ten quiet periods.
        assert!(g.allowed(Some(a), t0 + EVERY * 12));
        g.missed(Some(a), t0 + EVERY * 12);
        let at = g.by.lock().unwrap()[&key(a)].at(t0 + EVERY * 12);
        assert_eq!(at.count, 1);
    }

    #[test]
    fn an_ipv6_machine_is_counted_by_its_prefix() {
        let a: SocketAddr = "[fd00::1:2]:1".parse().unwrap();
        let b: SocketAddr = "[fd00::ffff:3]:1".parse().unwrap();
        let c: SocketAddr = "[fd00:0:0:1::1]:1".parse().unwrap();
        assert_eq!(key(a), key(b));
        assert_ne!(key(a), key(c));
        let mapped: SocketAddr = "[::ffff:10.0.0.1]:1".parse().unwrap();
        assert_eq!(key(mapped), key("10.0.0.1:1".parse().unwrap()));
    }
}
