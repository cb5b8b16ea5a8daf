//! A board reporting to the desk: a thread that watches the board's match file and sends the
//! desk every complete line it lacks (`POST /push`, see [`super::desk`]). The file is the
//! truth and the queue: nothing is held in memory but the count the desk acknowledged, so an
//! offline spell costs nothing but time, and when the link is back the desk gets what it
//! lacks, without a gap or a duplicate. The match screen never waits for it: the thread only
//! reads the file the screen writes.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the file is looked at.
const POLL: Duration = Duration::from_millis(200);
/// The longest wait between tries while the desk does not answer.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long one request may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// The state of the link to the desk, as the last exchange left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// Nothing heard from the desk yet.
    Connecting,
    /// The desk answered: it has this many lines of the file.
    Acknowledged(usize),
    /// The desk did not answer the last try (or refused it); tried again after a wait. The
    /// lines it acknowledged last, if it ever did.
    Unreachable(Option<usize>),
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
        *self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The lines of the file the desk last said it has; `None` until it has answered once.
    pub fn acknowledged(&self) -> Option<usize> {
        match self.link() {
            LinkState::Connecting => None,
            LinkState::Acknowledged(n) => Some(n),
            LinkState::Unreachable(last) => last,
        }
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
    let file = file.to_path_buf();
    let flag = Arc::clone(&stop);
    let state = Arc::new(Mutex::new(LinkState::Connecting));
    let shown = Arc::clone(&state);
    let thread = std::thread::spawn(move || watch(&link, &file, &flag, &shown));
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

/// The complete lines of the file (a line still being written is left for the next look).
fn lines(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let done = text.rfind('\n').map_or("", |end| &text[..end]);
    done.lines().map(str::to_string).collect()
}

#[derive(serde::Deserialize)]
struct Ack {
    have: Option<usize>,
}

impl Link {
    /// The lines the desk has, as it says (to a push or to a question).
    fn have(&self, body: Option<serde_json::Value>) -> Option<usize> {
        let req = self
            .agent
            .get(&self.url)
            .header("Authorization", &self.auth);
        let mut r = match body {
            Some(b) => self
                .agent
                .post(&self.url)
                .header("Authorization", &self.auth)
                .send_json(b)
                .ok()?,
            None => req.call().ok()?,
        };
        let ack: Ack = r.body_mut().read_json().ok()?;
        ack.have
    }
}

fn watch(link: &Link, file: &Path, stop: &AtomicBool, state: &Mutex<LinkState>) {
    let mut have: Option<usize> = None;
    let mut acked: Option<usize> = None;
    let mut wait = POLL;
    loop {
        let last = stop.load(Ordering::Relaxed);
        let all = lines(file);
        let synced = match have {
            None => {
                have = link.have(None);
                false
            }
            Some(h) if h >= all.len() => true,
            Some(h) => {
                let chunk: Vec<&String> = all.iter().skip(h).take(super::desk::MAX_LINES).collect();
                have = link.have(Some(serde_json::json!({ "from": h, "lines": chunk })));
                have.is_some_and(|n| n >= all.len())
            }
        };
        acked = have.or(acked);
        *state.lock().unwrap_or_else(PoisonError::into_inner) = match have {
            Some(n) => LinkState::Acknowledged(n),
            None => LinkState::Unreachable(acked),
        };
        if last {
            return;
        }
        wait = if have.is_some() {
            POLL
        } else {
            (wait * 2).min(MAX_BACKOFF)
        };
        let pause = if synced || have.is_none() {
            wait
        } else {
            Duration::ZERO
        };
        sleep_unless(stop, pause);
    }
}

/// Sleep `d`, waking early when asked to stop.
fn sleep_unless(stop: &AtomicBool, d: Duration) {
    let step = Duration::from_millis(50);
    let mut left = d;
    while !left.is_zero() && !stop.load(Ordering::Relaxed) {
        let s = left.min(step);
        std::thread::sleep(s);
        left -= s;
    }
}
