//! `crossboard serve`: the event and its boards on the network, until Ctrl-C.

use super::CliResult;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
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
}

/// The address of `--bind` and `--port`.
fn address(bind: &str, port: u16) -> Result<SocketAddr, String> {
    if let Ok(a) = bind.parse::<SocketAddr>() {
        return Ok(a);
    }
    let ip: IpAddr = bind.parse().map_err(|_| {
        format!("--bind {bind:?}: not an IP address (such as 0.0.0.0 or 127.0.0.1:8080)")
    })?;
    Ok(SocketAddr::new(ip, port))
}

/// Run `crossboard serve`; `match_file` is the global `--match`.
pub(super) fn run(args: Args, match_file: Option<PathBuf>) -> CliResult {
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
    let options = crate::serve::Options {
        echo: true,
        ..crate::serve::Options::new(source, bind)
    };
    let running = crate::serve::start(options)?;
    let addr = running.addr();
    let url = if addr.ip().is_unspecified() {
        let local = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port());
        format!(
            "http://{local}/ (and this machine's address in the hall, port {})",
            addr.port()
        )
    } else {
        running.url()
    };
    {
        // A closed standard output (the terminal gone) does not stop the server.
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "serving at {url}");
        let _ = writeln!(out, "Ctrl-C stops the server.");
        let _ = out.flush();
    }
    running.wait_for_interrupt()?;
    Ok(())
}
