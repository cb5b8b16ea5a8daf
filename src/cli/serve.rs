//! `crossboard serve`: the event and its boards on the network, until Ctrl-C.

use super::CliResult;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;

/// Arguments of `crossboard serve`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The desk's database (default: desk.sqlite3 in the data folder, unless only --match is
    /// given).
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// The event to serve (default: the one created last).
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// The address to listen on: an IP (0.0.0.0: every interface, to open it to the hall) or
    /// IP:PORT.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    bind: String,
    /// The port (when --bind gives none; 0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// No QR code of the hall's address under it (when open to the hall).
    #[arg(long)]
    no_qr: bool,
    /// How long one live stream lasts, in seconds, before the browser opens it again (a proxy
    /// that cuts long answers may want less).
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    feed_lifetime: u64,
    /// Every public address (pages, live updates, PDN, JSON, the hall display) shows the games
    /// as they were this many seconds ago, for a broadcast; the director's page and the
    /// boards' pushes are not delayed.
    #[arg(long, value_name = "SECONDS", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=86_400))]
    delay: u32,
}

/// The address of `--bind` and `--port`.
fn address(bind: &str, port: u16) -> Result<SocketAddr, String> {
    if let Ok(a) = bind.parse::<SocketAddr>() {
        return Ok(a);
    }
    // An IPv6 address may come in brackets, as in a URL: `[::]`.
    let bare = bind
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .unwrap_or(bind);
    let ip: IpAddr = bare.parse().map_err(|_| {
        format!(
            "--bind {bind:?}: not an IP address (such as 0.0.0.0, [::], 127.0.0.1:8080 or \
             [::1]:8080)"
        )
    })?;
    Ok(SocketAddr::new(ip, port))
}

/// What `serve` prints about where it listens on `addr`: the address to give (on every
/// interface: each of `hall`, this machine's addresses it listens on, then this machine's own,
/// `own`), and, when `qr` and the address is not this machine's only, the QR code of the first
/// to give, drawn with half blocks (light on a dark terminal).
fn where_served(addr: SocketAddr, hall: &[IpAddr], own: IpAddr, qr: bool) -> Vec<String> {
    let port = addr.port();
    let given: Vec<String> = if addr.ip().is_unspecified() {
        hall.iter()
            .map(|&ip| format!("http://{}/", SocketAddr::new(ip, port)))
            .collect()
    } else {
        vec![format!("http://{addr}/")]
    };
    let mut out = Vec::new();
    let own = format!("http://{}/", SocketAddr::new(own, port));
    match (addr.ip().is_unspecified(), given.is_empty()) {
        (true, true) => out.push(format!(
            "serving at {own} (and this machine's address in the hall, port {port})"
        )),
        (true, false) => {
            out.push(format!("serving at {} (the hall)", given.join(" ")));
            out.push(format!("        and {own} (this machine)"));
        }
        _ => out.push(format!("serving at {}", given[0])),
    }
    if qr
        && !addr.ip().is_loopback()
        && let Some(first) = given.first()
        && let Some(code) = qr_code(first)
    {
        out.push(code);
    }
    out
}

/// What the director must know of where the server listens: IPv6 alone where IPv4 was asked
/// for too, and open beyond this machine.
fn cautions(running: &crate::serve::Running) -> Vec<String> {
    let ip = running.addr().ip();
    let mut out = Vec::new();
    if ip.is_unspecified() && ip.is_ipv6() && !running.dual_stack() {
        out.push(
            "IPv6 only: this system does not let one socket take IPv4 too (--bind 0.0.0.0 in \
             another serve takes IPv4)"
                .to_string(),
        );
    }
    if !ip.is_loopback() {
        out.push(
            "warning: open beyond this machine: anyone on the network can read the pages and \
             reach the desk's push endpoint (a board's token is all it asks)"
                .to_string(),
        );
    }
    out
}

/// The QR code of `text` in Unicode half blocks, dark modules left blank.
fn qr_code(text: &str) -> Option<String> {
    use qrcode::render::unicode::Dense1x2;
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<Dense1x2>()
            .dark_color(Dense1x2::Light)
            .light_color(Dense1x2::Dark)
            .build(),
    )
}

/// Run `crossboard serve`; `match_file` is the global `--match`, `ascii` the global `--ascii`.
pub(super) fn run(args: Args, match_file: Option<PathBuf>, ascii: bool) -> CliResult {
    let db = match (args.db, &match_file) {
        (Some(db), _) => Some(db),
        (None, Some(_)) => None,
        (None, None) => Some(
            crate::store::default_db_path()
                .ok_or("no data folder on this machine: pass --db FILE")?,
        ),
    };
    let source = crate::serve::Source {
        db,
        event: args.event,
        match_file,
    };
    let bind = address(&args.bind, args.port)?;
    let mut options = crate::serve::Options {
        echo: true,
        ..crate::serve::Options::new(source, bind)
    };
    options.limits.feed_lifetime = std::time::Duration::from_secs(args.feed_lifetime);
    options.delay = crate::serve::Delay::seconds(args.delay);
    let running = crate::serve::start(options)?;
    let addr = running.addr();
    // Only the addresses it listens on: IPv4's for 0.0.0.0, IPv6's too for a dual-stack [::].
    let hall: Vec<IpAddr> = if addr.ip().is_unspecified() {
        let all = crate::serve::hall_addresses();
        all.into_iter().filter(|&ip| running.takes(ip)).collect()
    } else {
        Vec::new()
    };
    let own = [
        IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(Ipv6Addr::LOCALHOST),
    ]
    .into_iter()
    .find(|&ip| running.takes(ip))
    .unwrap_or(addr.ip());
    {
        // A closed standard output (the terminal gone) does not stop the server.
        for line in where_served(addr, &hall, own, !args.no_qr && !ascii) {
            super::stdout::write_lossy(format_args!("{line}\n"));
        }
        for line in cautions(&running) {
            super::stdout::write_lossy(format_args!("{line}\n"));
        }
        super::stdout::write_lossy(format_args!("Ctrl-C stops the server.\n"));
    }
    running.wait_for_interrupt()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

    #[test]
    fn the_hall_is_given_each_address_and_the_qr_code_of_the_first() {
        let hall: Vec<IpAddr> = vec!["192.168.1.5".parse().unwrap(), "10.0.0.2".parse().unwrap()];
        let all: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let lines = where_served(all, &hall, LOCAL, true);
        assert_eq!(
            lines[0],
            "serving at http://192.168.1.5:8080/ http://10.0.0.2:8080/ (the hall)"
        );
        assert_eq!(
            lines[1],
            "        and http://127.0.0.1:8080/ (this machine)"
        );
        let code = &lines[2];
        assert_eq!(Some(code.clone()), qr_code("http://192.168.1.5:8080/"));
        // A version 2 code (25 modules) and its quiet zone (4 each side): 33 wide, two
        // modules a row.
        let rows: Vec<&str> = code.lines().collect();
        assert_eq!(rows.len(), 17, "{code}");
        assert!(rows.iter().all(|r| r.chars().count() == 33), "{code}");
        assert!(
            code.contains('\u{2580}') || code.contains('\u{2584}'),
            "half blocks"
        );
        // --no-qr (and --ascii): the addresses alone.
        assert_eq!(where_served(all, &hall, LOCAL, false).len(), 2);
    }

    #[test]
    fn this_machine_only_gets_no_qr_code() {
        let here: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert_eq!(
            where_served(here, &[], LOCAL, true),
            ["serving at http://127.0.0.1:8080/"]
        );
        let nowhere: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert_eq!(where_served(nowhere, &[], LOCAL, true).len(), 1);
        let one: SocketAddr = "192.168.1.5:8000".parse().unwrap();
        let lines = where_served(one, &[], LOCAL, true);
        assert_eq!(lines[0], "serving at http://192.168.1.5:8000/");
        assert_eq!(lines.len(), 2, "its QR code");
    }
}
