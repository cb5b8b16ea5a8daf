//! The network of the match screens: the server of `crossboard serve --match` and the reporter
//! of `--desk`, handed to the TUI (which sits beside the server and names none of it).

use crate::tui::{Link, Network, Reporting, Serving};
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;

/// The real network: servers and reporters of [`crate::serve`].
struct Live;

struct Served(crate::serve::Running);

impl Serving for Served {
    fn addr(&self) -> SocketAddr {
        self.0.addr()
    }
}

struct Reported(crate::serve::Reporter);

impl Reporting for Reported {
    fn link(&self) -> Link {
        use crate::serve::LinkState;
        match self.0.link() {
            LinkState::Connecting => Link::Connecting,
            LinkState::Acknowledged(n) => Link::Acknowledged(n),
            LinkState::Unreachable { acknowledged, why } => Link::Unreachable { acknowledged, why },
            LinkState::Refused {
                acknowledged,
                refusal,
            } => Link::Refused {
                acknowledged,
                words: refusal.words(),
            },
        }
    }
}

impl Network for Live {
    fn serve_match(&self, file: &Path, bind: SocketAddr) -> Result<Box<dyn Serving>, String> {
        let source = crate::serve::Source {
            db: None,
            event: None,
            match_file: Some(file.to_path_buf()),
        };
        let running = crate::serve::start(crate::serve::Options::new(source, bind))
            .map_err(|e| e.to_string())?;
        Ok(Box::new(Served(running)))
    }

    fn report(&self, desk: &str, token: &str, file: &Path) -> Box<dyn Reporting> {
        Box::new(Reported(crate::serve::report(desk, token, file)))
    }

    fn hall_addresses(&self) -> Vec<IpAddr> {
        crate::serve::hall_addresses()
    }

    fn pairing(&self, desk: &str, token: &str) -> Result<crate::store::BoardPairing, String> {
        crate::serve::fetch_pairing(desk, token)
    }
}

/// The network the match screens use: servers and reporters of `crossboard serve`.
pub fn network() -> Arc<dyn Network> {
    Arc::new(Live)
}
