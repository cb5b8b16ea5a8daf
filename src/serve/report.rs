//! A board reporting to the desk: a thread that watches the board's match file and sends the
//! desk every complete line it lacks (`POST /push`, see [`super::desk`]). The file is the
//! truth and the queue: nothing is held in memory but the count of lines the desk confirmed,
//! so an offline spell costs nothing but time, and when the link is back the desk gets what it
//! lacks, without a gap or a duplicate. The match screen never waits for it: the thread only
//! reads the file the screen writes.
//!
//! Every answer is understood. Only a 2xx with the desk's line count confirms lines, and only
//! the lines the push carried (the desk compares each with its copy): the first push of a
//! session starts at line 1, so a desk holding another file's lines is found out before the
//! screen says anything was acknowledged. A failure that may pass (no answer, a timeout, a
//! 5xx, a 429) is tried again after a capped exponential back-off with jitter. A refusal (a
//! 4xx: the token, a copy that diverged, a match the desk will not keep) is not sent again
//! unchanged: the reporter waits until the file changes or the desk's answer to `GET /push`,
//! asked again every [`RECHECK`], does (the director re-synced the board).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

/// How often the file is looked at.
const POLL: Duration = Duration::from_millis(200);
/// The first wait after a failure that may pass; doubled at each failure in a row.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// The longest wait between tries while the desk does not answer.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long one request may take.
const TIMEOUT: Duration = Duration::from_secs(10);
/// How often the desk is asked again, while it refuses, whether its answer changed.
const RECHECK: Duration = Duration::from_secs(5);

/// The state of the link to the desk, as the last exchange left it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// Nothing heard from the desk yet.
    Connecting,
    /// The desk confirmed it has this many lines of the file, each equal to the file's.
    Acknowledged(usize),
    /// The desk did not answer the last try, or answered with a failure that may pass; tried
    /// again after a wait.
    Unreachable {
        /// The lines the desk confirmed last, if it ever did.
        acknowledged: Option<usize>,
        /// What went wrong: "connection refused", "503 Service Unavailable: ...".
        why: String,
    },
    /// The desk refused: nothing is sent again until the file or the desk's answer changes.
    Refused {
        /// The lines the desk confirmed last, if it ever did.
        acknowledged: Option<usize>,
        /// What the desk said.
        refusal: Refusal,
    },
}

impl LinkState {
    /// The lines of the file the desk confirmed last; `None` until it has once.
    pub fn acknowledged(&self) -> Option<usize> {
        match self {
            LinkState::Connecting => None,
            LinkState::Acknowledged(n) => Some(*n),
            LinkState::Unreachable { acknowledged, .. }
            | LinkState::Refused { acknowledged, .. } => *acknowledged,
        }
    }
}

/// A refusal of the desk, and what the board's player is to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What was refused, and why.
    pub kind: RefusalKind,
    /// The HTTP status (0: found by the reporter itself, the desk answered 2xx).
    pub status: u16,
    /// The desk's reason, in its words (the status's name when it gave none).
    pub reason: String,
}

/// What the desk refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// No board has the token (401).
    Token,
    /// Line `line` (from 1) differs from the desk's copy (409).
    Diverged {
        /// The first line that differs.
        line: usize,
    },
    /// The desk's copy has more lines than the file (the file was started again).
    DeskAhead {
        /// The lines the desk has.
        desk: usize,
        /// The file's complete lines.
        file: usize,
    },
    /// The push from line `line` on (from 1): not the board's match, or too large (413, 422).
    Lines {
        /// The push's first line.
        line: usize,
    },
    /// Anything else the desk refused (another 4xx).
    Other,
}

impl Refusal {
    /// The refusal in words, for the board's status line and `crossboard report`: which line,
    /// why, and what to do.
    pub fn words(&self) -> String {
        let Refusal { reason, status, .. } = self;
        match self.kind {
            RefusalKind::Token => format!(
                "desk refused the board's token: ask the director for this board's token \
                 ({reason})"
            ),
            RefusalKind::Diverged { line } => format!(
                "desk refused line {line}, its copy differs: the director re-syncs the board \
                 ({reason})"
            ),
            RefusalKind::DeskAhead { desk, file } => format!(
                "desk has {desk} lines of this board, this file {file}: the director re-syncs \
                 the board"
            ),
            RefusalKind::Lines { line } => {
                format!("desk refused line {line}: {reason} (ask the director)")
            }
            RefusalKind::Other => format!("desk refused the report ({status}: {reason})"),
        }
    }
}

/// The reporting thread; dropping it stops it (after one last try to send what is left).
pub struct Reporter {
    stop: Arc<AtomicBool>,
    state: Arc<Mutex<LinkState>>,
    thread: Option<JoinHandle<()>>,
}

impl Reporter {
    /// The state of the link now.
    pub fn link(&self) -> LinkState {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The lines of the file the desk confirmed last; `None` until it has once.
    pub fn acknowledged(&self) -> Option<usize> {
        self.link().acknowledged()
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Report `file` to the desk at `desk` (`http://HOST:PORT`) with the board's `token`.
pub fn report(desk: &str, token: &str, file: &Path) -> Reporter {
    let stop = Arc::new(AtomicBool::new(false));
    let link = Link {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(TIMEOUT))
            .build()
            .into(),
        url: format!("{}/push", desk.trim_end_matches('/')),
        auth: format!("Bearer {token}"),
    };
    let state = Arc::new(Mutex::new(LinkState::Connecting));
    let mut watch = Watch {
        link,
        file: file.to_path_buf(),
        stop: Arc::clone(&stop),
        state: Arc::clone(&state),
        confirmed: 0,
        acknowledged: None,
        chunk: super::desk::MAX_LINES,
        failures: 0,
    };
    let thread = std::thread::spawn(move || watch.run());
    Reporter {
        stop,
        state,
        thread: Some(thread),
    }
}

struct Link {
    agent: ureq::Agent,
    url: String,
    auth: String,
}

/// The desk's answer to a push or a question, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    /// A 2xx with the desk's line count.
    Have(usize),
    /// A failure that may pass: tried again after a wait.
    Transient(String),
    /// A 4xx: the status, the desk's reason and the lines it says it has.
    Refused {
        status: u16,
        reason: String,
        have: Option<usize>,
    },
}

/// The body of the desk's answers: `{have}` or `{refused, have}`.
#[derive(serde::Deserialize, Default)]
struct Said {
    have: Option<usize>,
    refused: Option<String>,
}

impl Link {
    /// Ask the desk how many lines it has (`body` `None`) or push lines to it.
    fn ask(&self, body: Option<&serde_json::Value>) -> Answer {
        let sent = match body {
            Some(b) => self
                .agent
                .post(&self.url)
                .header("Authorization", &self.auth)
                .send_json(b),
            None => self
                .agent
                .get(&self.url)
                .header("Authorization", &self.auth)
                .call(),
        };
        let mut r = match sent {
            Ok(r) => r,
            Err(e) => return Answer::Transient(e.to_string()),
        };
        let status = r.status();
        let said: Option<Said> = r.body_mut().read_json().ok();
        understand(status.as_u16(), status.canonical_reason(), said)
    }
}

/// An answer of the desk understood: only a 2xx with a count is one.
fn understand(status: u16, name: Option<&str>, said: Option<Said>) -> Answer {
    let said = said.unwrap_or_default();
    let named = format!("{status} {}", name.unwrap_or(""));
    let named = named.trim().to_string();
    match status {
        200..=299 => said.have.map_or_else(
            || Answer::Transient(format!("{named}, without a line count")),
            Answer::Have,
        ),
        408 | 429 | 500..=599 => Answer::Transient(
            said.refused
                .map_or_else(|| named.clone(), |r| format!("{named}: {r}")),
        ),
        _ => Answer::Refused {
            status,
            reason: said.refused.unwrap_or(named),
            have: said.have,
        },
    }
}

/// The wait after `failures` failures in a row: doubled each time from [`FIRST_BACKOFF`], at
/// most [`MAX_BACKOFF`], then drawn between half of it and all of it (`jitter` in 0..1), so
/// that boards cut off together do not come back together.
fn backoff(failures: u32, jitter: f64) -> Duration {
    let doubled = FIRST_BACKOFF.saturating_mul(1 << failures.saturating_sub(1).min(16));
    let full = doubled.min(MAX_BACKOFF);
    full / 2 + full.mul_f64(jitter.clamp(0.0, 1.0) / 2.0)
}

/// The complete lines of the file (a line still being written is left for the next look).
fn lines(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let done = text.rfind('\n').map_or("", |end| &text[..end]);
    done.lines().map(str::to_string).collect()
}

/// The file's length and modification time: it changed when they do.
fn stamp(file: &Path) -> Option<(u64, SystemTime)> {
    let m = std::fs::metadata(file).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// The reporting thread's state.
struct Watch {
    link: Link,
    file: std::path::PathBuf,
    stop: Arc<AtomicBool>,
    state: Arc<Mutex<LinkState>>,
    /// The lines of the file the desk confirmed equal to its copy's, this session.
    confirmed: usize,
    /// What the screen is told was acknowledged (the same, once the desk answered once).
    acknowledged: Option<usize>,
    /// The most lines one push carries (halved when the desk finds a push too large).
    chunk: usize,
    /// Failures that may pass, in a row.
    failures: u32,
}

/// What one step of the reporter leads to.
enum Next {
    /// Look at the file again after [`POLL`].
    Poll,
    /// Send more at once.
    Now,
    /// Wait this long (a failure that may pass).
    Wait(Duration),
    /// Wait until the file or the desk's answer changes.
    Stuck(Refusal),
}

impl Watch {
    fn run(&mut self) {
        loop {
            let last = self.stop.load(Ordering::Relaxed);
            let before = stamp(&self.file);
            let next = self.step();
            if last {
                return;
            }
            match next {
                Next::Poll => self.sleep(POLL),
                Next::Now => {}
                Next::Wait(d) => self.sleep(d),
                Next::Stuck(refusal) => {
                    self.show(LinkState::Refused {
                        acknowledged: self.acknowledged,
                        refusal,
                    });
                    self.wait_for_change(before);
                }
            }
        }
    }

    fn show(&self, state: LinkState) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = state;
    }

    /// Send the desk what it has not confirmed (from line 1 in a new session, so that every
    /// line is compared with its copy), or ask it whether it is there.
    fn step(&mut self) -> Next {
        let all = lines(&self.file);
        let from = self.confirmed.min(all.len());
        if from == all.len() && self.acknowledged.is_some() {
            return Next::Poll;
        }
        let chunk: Vec<&String> = all.iter().skip(from).take(self.chunk).collect();
        let sent = chunk.len();
        let answer = if sent == 0 {
            self.link.ask(None)
        } else {
            let body = serde_json::json!({ "from": from, "lines": chunk, "total": all.len() });
            self.link.ask(Some(&body))
        };
        match answer {
            Answer::Have(have) => self.confirm(from + sent, have, all.len()),
            Answer::Transient(why) => {
                self.failures = self.failures.saturating_add(1);
                self.show(LinkState::Unreachable {
                    acknowledged: self.acknowledged,
                    why,
                });
                Next::Wait(backoff(self.failures, rand::random::<f64>()))
            }
            Answer::Refused {
                status,
                reason,
                have,
            } => self.refused(status, reason, have, (from, all.len())),
        }
    }

    /// The desk has `have` lines after confirming the file's first `upto` (of `file`).
    fn confirm(&mut self, upto: usize, have: usize, file: usize) -> Next {
        self.failures = 0;
        self.confirmed = upto;
        if have > file && upto == file {
            return Next::Stuck(Refusal {
                kind: RefusalKind::DeskAhead { desk: have, file },
                status: 0,
                reason: format!("the desk has {have} lines, the file {file}"),
            });
        }
        self.acknowledged = Some(upto);
        self.show(LinkState::Acknowledged(upto));
        if upto < file { Next::Now } else { Next::Poll }
    }

    /// The desk refused the push from line `from` (0: the first) of the file's `file` lines.
    fn refused(
        &mut self,
        status: u16,
        reason: String,
        have: Option<usize>,
        (from, file): (usize, usize),
    ) -> Next {
        self.failures = 0;
        let kind = match (status, have) {
            // The desk has fewer lines than were confirmed (its copy was archived, or it was
            // restored from a copy): send from where it is.
            (409, Some(h)) if h < from => {
                self.confirmed = h;
                return Next::Now;
            }
            (413, _) if self.chunk > 1 => {
                self.chunk /= 2;
                return Next::Now;
            }
            (401, _) => RefusalKind::Token,
            // Every line of the file is the desk's, and the desk has more.
            (409, Some(desk)) if desk > file && differing_line(&reason).is_none() => {
                RefusalKind::DeskAhead { desk, file }
            }
            (409, _) => RefusalKind::Diverged {
                line: differing_line(&reason).unwrap_or(from + 1),
            },
            (413 | 422, _) => RefusalKind::Lines { line: from + 1 },
            _ => RefusalKind::Other,
        };
        Next::Stuck(Refusal {
            kind,
            status,
            reason,
        })
    }

    /// After a refusal: wait until the file changes from `before`, or the desk's answer to a
    /// question, asked every [`RECHECK`], changes from its first; or until asked to stop.
    fn wait_for_change(&mut self, before: Option<(u64, SystemTime)>) {
        let first = self.link.ask(None);
        let mut asked = Instant::now();
        while !self.stop.load(Ordering::Relaxed) {
            self.sleep(POLL);
            if stamp(&self.file) != before {
                return;
            }
            if asked.elapsed() >= RECHECK {
                asked = Instant::now();
                let now = self.link.ask(None);
                if !matches!(now, Answer::Transient(_)) && now != first {
                    return;
                }
            }
        }
    }

    /// Sleep `d`, waking early when asked to stop.
    fn sleep(&self, d: Duration) {
        let step = Duration::from_millis(50);
        let mut left = d;
        while !left.is_zero() && !self.stop.load(Ordering::Relaxed) {
            let s = left.min(step);
            std::thread::sleep(s);
            left -= s;
        }
    }
}

/// The line a 409's reason names ("line 13 differs ...").
fn differing_line(reason: &str) -> Option<usize> {
    let after = reason.split("line ").nth(1)?;
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_2xx_with_a_count_confirms() {
        let said = |have, refused: Option<&str>| {
            Some(Said {
                have,
                refused: refused.map(str::to_string),
            })
        };
        assert_eq!(
            understand(200, Some("OK"), said(Some(7), None)),
            Answer::Have(7)
        );
        assert!(matches!(
            understand(200, Some("OK"), None),
            Answer::Transient(_)
        ));
        let conflict = understand(
            409,
            Some("Conflict"),
            said(Some(17), Some("line 3 differs")),
        );
        assert_eq!(
            conflict,
            Answer::Refused {
                status: 409,
                reason: "line 3 differs".into(),
                have: Some(17)
            }
        );
        for transient in [408, 429, 500, 502, 503] {
            assert!(matches!(
                understand(transient, None, None),
                Answer::Transient(_)
            ));
        }
        for refused in [400, 401, 404, 413, 422] {
            assert!(matches!(
                understand(refused, None, None),
                Answer::Refused { .. }
            ));
        }
    }

    #[test]
    fn the_back_off_doubles_up_to_its_cap_with_jitter() {
        assert_eq!(backoff(1, 1.0), FIRST_BACKOFF);
        assert_eq!(backoff(1, 0.0), FIRST_BACKOFF / 2);
        assert_eq!(backoff(3, 1.0), FIRST_BACKOFF * 4);
        assert_eq!(backoff(40, 1.0), MAX_BACKOFF);
        assert_eq!(backoff(u32::MAX, 0.0), MAX_BACKOFF / 2);
    }

    #[test]
    fn the_line_a_conflict_names_is_read() {
        let r = "line 13 differs from the desk's copy, which has 17 lines";
        assert_eq!(differing_line(r), Some(13));
        assert_eq!(differing_line("409 Conflict"), None);
    }
}
