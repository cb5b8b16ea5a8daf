//! What a match screen may do on the network: serve its match live to browsers, report its
//! file to the desk. The screens name no server code (the server sits beside the TUI, not
//! below it): the command line hands them a [`Network`] that starts the real ones, and a
//! match screen without one says so.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// Starts the servers and reporters of the match screens.
pub trait Network: Send + Sync {
    /// Serve the match of `file` alone (as `crossboard serve --match FILE`) on `bind`: the
    /// running server, which stops when dropped; why not.
    fn serve_match(&self, file: &Path, bind: SocketAddr) -> Result<Box<dyn Serving>, String>;
    /// Report `file` to the desk at `desk` with the board's `token` (as `--desk URL
    /// --board-token T`): the reporter, which stops when dropped.
    fn report(&self, desk: &str, token: &str, file: &Path) -> Box<dyn Reporting>;
    /// This machine's addresses in the hall (not loopback), to give spectators.
    fn hall_addresses(&self) -> Vec<std::net::IpAddr>;
    /// Ask the desk at `desk` for the pairing of the board of `token` (its token or its
    /// code); why not, in words.
    fn pairing(&self, desk: &str, token: &str) -> Result<crate::store::BoardPairing, String> {
        let _ = (desk, token);
        Err("joining a board is not possible from here: no desk can be asked".into())
    }
}

/// A server of the match; dropping it stops it.
pub trait Serving: Send {
    /// The address it listens on.
    fn addr(&self) -> SocketAddr;
}

/// A reporter of the match to the desk; dropping it stops it.
pub trait Reporting: Send {
    /// The state of the link now.
    fn link(&self) -> Link;
}

/// The state of the link to the desk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Nothing heard from the desk yet.
    Connecting,
    /// The desk confirmed this many lines of the file.
    Acknowledged(usize),
    /// The last try failed in a way that may pass; tried again after a wait.
    Unreachable {
        /// The lines confirmed last, if any.
        acknowledged: Option<usize>,
        /// What went wrong.
        why: String,
    },
    /// The desk refused; nothing is sent again until the file or the desk's answer changes.
    Refused {
        /// The lines confirmed last, if any.
        acknowledged: Option<usize>,
        /// The refusal in words: which line, why, what to do.
        words: String,
    },
}

impl Link {
    /// The words of the status line: "desk: reporting, line 42 acknowledged".
    pub fn words(&self) -> String {
        match self {
            Link::Connecting => "desk: connecting".into(),
            Link::Acknowledged(n) => format!("desk: reporting, line {n} acknowledged"),
            Link::Unreachable { acknowledged, why } => {
                let had =
                    acknowledged.map_or_else(String::new, |n| format!(", line {n} acknowledged"));
                format!("desk unreachable ({why}), retrying{had}")
            }
            Link::Refused { words, .. } => words.clone(),
        }
    }

    /// How the status line shows it: the desk refused (an error), cannot be reached (a
    /// warning), or reports.
    pub fn kind(&self) -> crate::tui::widgets::StatusKind {
        use crate::tui::widgets::StatusKind;
        match self {
            Link::Refused { .. } => StatusKind::Error,
            Link::Unreachable { .. } => StatusKind::Warn,
            Link::Connecting | Link::Acknowledged(_) => StatusKind::Info,
        }
    }
}

/// The network options of the match screens.
#[derive(Clone, Default)]
pub struct NetOptions {
    /// What starts servers and reporters; `None`: neither is available.
    pub network: Option<Arc<dyn Network>>,
    /// The port a match is served on (0: any free port; the port taken falls back to any
    /// free one).
    pub port: u16,
    /// The desk's address the set-up form starts with (`--desk`).
    pub desk: String,
    /// The board's token the set-up form starts with (`--board-token`).
    pub token: String,
}

impl std::fmt::Debug for NetOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetOptions")
            .field("network", &self.network.is_some())
            .field("port", &self.port)
            .field("desk", &self.desk)
            .field("token", &(!self.token.is_empty()))
            .finish()
    }
}

/// The desk's address checked: `http://HOST[:PORT][/]`, as `crossboard serve` gives it.
pub fn check_desk_url(text: &str) -> Result<String, String> {
    let t = text.trim();
    let rest = t.strip_prefix("http://").ok_or_else(|| {
        if t.starts_with("https://") {
            "the desk speaks plain HTTP: http://HOST:PORT".to_string()
        } else {
            "an address such as http://192.168.1.10:8080".to_string()
        }
    })?;
    let authority = rest.trim_end_matches('/');
    if authority.contains(['/', '?', '#', '@', ' ']) {
        return Err("only the desk's host and port: http://HOST:PORT".into());
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (h, Some(p)),
        _ => (authority, None),
    };
    if host.is_empty()
        || !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-[]:".contains(c))
    {
        return Err(format!("{host:?} is not a host name or address"));
    }
    if let Some(p) = port
        && !p.parse::<u16>().is_ok_and(|n| n > 0)
    {
        return Err(format!("{p:?} is not a port (1-65535)"));
    }
    Ok(format!("http://{authority}"))
}

/// A board's token checked: 32 hexadecimal digits, as `crossboard event token` prints it; or
/// its code, in its written form (`K7QM-3XF0`, see [`crate::store::read_code`]).
pub fn check_token(text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.len() == 32 && t.chars().all(|c| c.is_ascii_hexdigit()) {
        Ok(t.to_ascii_lowercase())
    } else if let Some(code) = crate::store::read_code(t) {
        Ok(code)
    } else {
        Err(
            "neither a board's code (8 letters and digits, K7QM-3XF0, printed with the \
             pairings) nor its token (32 hexadecimal digits, crossboard event token prints it)"
                .into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn desk_addresses_are_checked() {
        assert_eq!(
            check_desk_url(" http://192.168.1.10:8080/ ").unwrap(),
            "http://192.168.1.10:8080"
        );
        assert_eq!(check_desk_url("http://desk").unwrap(), "http://desk");
        assert_eq!(
            check_desk_url("http://[::1]:80").unwrap(),
            "http://[::1]:80"
        );
        assert!(check_desk_url("desk:8080").unwrap_err().contains("http://"));
        assert!(
            check_desk_url("https://desk")
                .unwrap_err()
                .contains("plain HTTP")
        );
        assert!(
            check_desk_url("http://desk:99999")
                .unwrap_err()
                .contains("port")
        );
        assert!(
            check_desk_url("http://desk/push")
                .unwrap_err()
                .contains("host and port")
        );
        assert!(check_desk_url("http://").unwrap_err().contains("host"));
    }

    #[test]
    fn tokens_are_checked() {
        let t = "0123456789abcdefABCDEF0123456789";
        assert_eq!(check_token(t).unwrap(), t.to_ascii_lowercase());
        assert!(check_token("short").is_err());
        assert_eq!(check_token(" k7qm 3xfo ").unwrap(), "K7QM-3XF0");
        assert!(check_token("K7QM-3XFU").is_err());
        assert!(check_token(&"g".repeat(32)).is_err());
    }
}
