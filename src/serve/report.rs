//! A board reporting to the desk: a thread that watches the board's match file and sends the
//! desk every complete line it lacks (`POST /push`, see [`super::desk`]). The file is the
//! truth and the queue: nothing is held in memory but the count the desk acknowledged, so an
//! offline spell costs nothing but time, and when the link is back the desk gets what it
//! lacks, without a gap or a duplicate. The match screen never waits for it: the thread only
//! reads the file the screen writes.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the file is looked at.
const POLL: Duration = Duration::from_millis(200);
/// The longest wait between tries while the desk does not answer.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long one request may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// The reporting thread; dropping it stops it (after one last try to send what is left).
pub struct Reporter {
    stop: Arc<AtomicBool>,
    /// The lines the desk last said it has ([`UNKNOWN`] before it has answered).
    acknowledged: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

/// The desk has not answered yet.
const UNKNOWN: usize = usize::MAX;

impl Reporter {
    /// The lines of the file the desk last said it has; `None` until it has answered once.
    pub fn acknowledged(&self) -> Option<usize> {
        let n = self.acknowledged.load(Ordering::Relaxed);
        (n != UNKNOWN).then_some(n)
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
    let acknowledged = Arc::new(AtomicUsize::new(UNKNOWN));
    let (flag, told) = (Arc::clone(&stop), Arc::clone(&acknowledged));
    let thread = std::thread::spawn(move || watch(&link, &file, &flag, &told));
    Reporter {
        stop,
        acknowledged,
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

fn watch(link: &Link, file: &Path, stop: &AtomicBool, told: &AtomicUsize) {
    let mut have: Option<usize> = None;
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
        if let Some(h) = have {
            told.store(h, Ordering::Relaxed);
        }
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
