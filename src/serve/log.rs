//! The server's log of what it refused: one line each, with the time, the client's address and
//! the reason, kept in memory (the last [`Log::KEEP`]) and written to the standard error when
//! asked. A client that is refused again and again (a stuck board, a flood on one keep-alive
//! connection) gets at most one line a second: what comes within the second after a line is
//! counted, not written, and the count goes out as one line when the second is over
//! (`... and 238 more refused from 127.0.0.5 in the last second`).

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The lines the server keeps of what it refused, the last [`Log::KEEP`]; written to the
/// standard error too when `echo`.
#[derive(Debug, Default)]
pub struct Log {
    echo: bool,
    /// The least time between two lines about one address ([`super::Limits::log_every`]).
    every: Duration,
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    lines: VecDeque<String>,
    /// The addresses given a line lately, with what was folded since.
    quiet: HashMap<IpAddr, Quiet>,
}

/// An address's last line written, and the lines folded since.
#[derive(Debug)]
struct Quiet {
    since: Instant,
    folded: u64,
}

impl Log {
    /// How many lines are kept.
    pub const KEEP: usize = 1000;

    pub(super) fn new(echo: bool, every: Duration) -> Log {
        Log {
            echo,
            every,
            kept: Mutex::default(),
        }
    }

    /// Log `what` about the client at `peer`, with the time; folded into a count when the
    /// client's address had a line less than the least time between two ago. The server's own lines
    /// (`peer` none) are never folded.
    pub(super) fn note(&self, peer: Option<SocketAddr>, what: &str) {
        let now = Instant::now();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(ip) = peer.map(|p| p.ip()) {
            match kept.quiet.get_mut(&ip) {
                Some(q) if now.duration_since(q.since) < self.every => {
                    q.folded += 1;
                    return;
                }
                Some(q) => {
                    let folded = std::mem::replace(
                        q,
                        Quiet {
                            since: now,
                            folded: 0,
                        },
                    )
                    .folded;
                    self.fold_line(&mut kept, ip, folded);
                }
                None => {
                    kept.quiet.insert(
                        ip,
                        Quiet {
                            since: now,
                            folded: 0,
                        },
                    );
                }
            }
        }
        let peer = peer.map_or_else(|| "-".to_string(), |p| p.to_string());
        self.write(&mut kept, &format!("{peer} {what}"));
    }

    /// Write the counts of the addresses whose quiet second is over, and forget them.
    pub(super) fn flush(&self) {
        let now = Instant::now();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let over: Vec<(IpAddr, u64)> = kept
            .quiet
            .iter()
            .filter(|(_, q)| now.duration_since(q.since) >= self.every)
            .map(|(ip, q)| (*ip, q.folded))
            .collect();
        for (ip, folded) in over {
            kept.quiet.remove(&ip);
            self.fold_line(&mut kept, ip, folded);
        }
    }

    /// The line that says how many lines about `ip` were folded, when any were.
    fn fold_line(&self, kept: &mut Kept, ip: IpAddr, folded: u64) {
        if folded > 0 {
            let line = format!("{ip} ... and {folded} more refused from {ip} in the last second");
            self.write(kept, &line);
        }
    }

    fn write(&self, kept: &mut Kept, line: &str) {
        let at = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ");
        let line = format!("{at} {line}");
        if self.echo {
            // A closed standard error (the terminal gone) does not stop the server.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "{line}");
        }
        if kept.lines.len() == Log::KEEP {
            kept.lines.pop_front();
        }
        kept.lines.push_back(line);
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> Vec<String> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.lines.iter().cloned().collect()
    }
}

/// Why a request was refused, for the log: set on the answer by the handler that knows.
#[derive(Clone, Debug)]
pub(super) struct Reason(pub String);
