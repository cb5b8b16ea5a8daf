//! The watcher of the served files and the pace of the live pages' updates. One thread looks
//! at the files (the desk's database and its write-ahead log, every linked match file, the
//! standalone match file) every [`Limits::look`], by length and modification time, and at
//! once when a push at the desk has written a board's copy ([`Nudge`]). It announces what it
//! finds (moves the count the live feeds wait on) at most once every
//! [`Limits::update_every`]: a change after a quiet spell at once, the changes that come
//! within the interval after an announcement together at its end, so that a feed wakes and
//! writes once for all of them ([`Pacer`]).
//!
//! Polling rather than change notification: the files are written by other processes (the
//! desk, a board's match screen), and a stat of each every 100 ms is cheap, the same on every
//! system and file system, and shared by all spectators.
//!
//! [`Limits::look`]: super::Limits::look
//! [`Limits::update_every`]: super::Limits::update_every

use super::view::{Served, Source};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::watch;

/// A file's length and modification time (`None`: no such file).
pub(super) type Stamp = Option<(u64, SystemTime)>;

pub(super) fn stamps(files: &[PathBuf]) -> Vec<Stamp> {
    files.iter().map(|f| stamp(f)).collect()
}

/// The stamp of one file.
pub(super) fn stamp(file: &std::path::Path) -> Stamp {
    let m = std::fs::metadata(file).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// The database and its write-ahead log (a commit in WAL mode changes the log only).
pub(super) fn db_files(db: &std::path::Path) -> Vec<PathBuf> {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    vec![db.to_path_buf(), wal.into()]
}

/// Asks the watcher to look at the files now (a push wrote a board's copy), rather than at its
/// next look.
#[derive(Clone)]
pub(super) struct Nudge(mpsc::Sender<()>);

impl Nudge {
    pub(super) fn look_now(&self) {
        // The watcher is gone only when the server stops.
        let _ = self.0.send(());
    }
}

/// When to look at the files and when to announce their changes, at the times it is given: a
/// look every `look`; changes announced at once when the last announcement is `every` old or
/// more, else when it is.
#[derive(Debug)]
pub(super) struct Pacer {
    look: Duration,
    every: Duration,
    next_look: Instant,
    /// The last announcement.
    last: Option<Instant>,
    /// Changes found and not announced yet.
    pending: bool,
}

impl Pacer {
    /// A pacer whose first look is due at `now`.
    pub(super) fn new(look: Duration, every: Duration, now: Instant) -> Pacer {
        Pacer {
            look,
            every,
            next_look: now,
            last: None,
            pending: false,
        }
    }

    /// Whether a look at the files is due at `now`.
    pub(super) fn look_due(&self, now: Instant) -> bool {
        now >= self.next_look
    }

    /// The files were looked at `now` and found `changed` since the look before.
    pub(super) fn looked(&mut self, now: Instant, changed: bool) {
        self.next_look = now + self.look;
        self.pending |= changed;
    }

    /// Whether to announce the changes found at `now` (then they count as announced).
    pub(super) fn announce(&mut self, now: Instant) -> bool {
        let due = self.last.is_none_or(|l| now >= l + self.every);
        if !(self.pending && due) {
            return false;
        }
        self.pending = false;
        self.last = Some(now);
        true
    }

    /// When something is due next: a look, or the announcement of changes held back.
    pub(super) fn next(&self) -> Instant {
        match self.last.filter(|_| self.pending) {
            Some(last) => self.next_look.min(last + self.every),
            None => self.next_look,
        }
    }
}

/// The files served as last looked at.
#[derive(Default)]
struct Files {
    /// The match files, listed again when the database changes.
    files: Vec<PathBuf>,
    db_seen: Option<Vec<Stamp>>,
    last: Option<(Vec<Stamp>, Vec<Stamp>)>,
}

impl Files {
    /// Whether a file changed since the look before (the first look counts as a change).
    fn changed(&mut self, source: &Source) -> bool {
        let db = stamps(&source.db.as_deref().map(db_files).unwrap_or_default());
        if self.db_seen.as_ref() != Some(&db) {
            self.files = linked_files(source);
            self.db_seen = Some(db.clone());
        }
        let now = (db, stamps(&self.files));
        if self.last.as_ref() == Some(&now) {
            return false;
        }
        self.last = Some(now);
        true
    }
}

/// How soon the watcher sees that the server stopped, however seldom it looks at the files.
const STOPPING: Duration = Duration::from_millis(100);

/// Start the watcher of `source`'s files, looking every `look` and announcing at most every
/// `every` (under a delay, each change the delay after it was seen): the count of announcements, and the nudge that makes it look at once. The thread
/// ends when no feed can listen any more (the server stopped).
pub(super) fn watch_files(
    source: Arc<Served>,
    look: Duration,
    every: Duration,
) -> (watch::Receiver<u64>, Nudge) {
    let (tx, rx) = watch::channel(0u64);
    let (nudge, nudges) = mpsc::channel();
    std::thread::spawn(move || {
        let mut files = Files::default();
        let mut pacer = Pacer::new(look, every, Instant::now());
        // Under a delay, a change reaches the public feeds the delay after it was seen.
        let mut held = super::delay::Held::new(source.delay);
        while !tx.is_closed() {
            let wait = pacer.next().saturating_duration_since(Instant::now());
            let nudged = match nudges.recv_timeout(wait) {
                Ok(()) => {
                    while nudges.try_recv().is_ok() {}
                    true
                }
                Err(RecvTimeoutError::Timeout) => false,
                // The pushes' side is gone: the server is stopping.
                Err(RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(wait.clamp(Duration::from_millis(1), STOPPING));
                    false
                }
            };
            let now = Instant::now();
            if nudged || pacer.look_due(now) {
                let changed = files.changed(&source);
                pacer.looked(now, held.due(now, changed));
            }
            if pacer.announce(now) {
                tx.send_modify(|n| *n += 1);
            }
        }
    });
    (rx, Nudge(nudge))
}

/// The match files served: every board's linked file, and the standalone one.
fn linked_files(s: &Source) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = s.match_file.iter().cloned().collect();
    if let Ok(t) = s.tournament_now() {
        for d in &t.divisions {
            for r in &d.rounds {
                out.extend(
                    r.boards
                        .iter()
                        .filter_map(|b| b.match_file.as_ref().map(PathBuf::from)),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOK: Duration = Duration::from_millis(100);
    const EVERY: Duration = Duration::from_millis(150);

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_change_after_a_quiet_spell_is_announced_at_once() {
        let t0 = Instant::now();
        let mut p = Pacer::new(LOOK, EVERY, t0);
        assert!(p.look_due(t0));
        p.looked(t0, false);
        assert!(!p.announce(t0), "nothing changed");
        assert_eq!(p.next(), t0 + LOOK);
        // A nudge between two looks: looked at and announced then.
        p.looked(t0 + ms(30), true);
        assert!(p.announce(t0 + ms(30)));
        assert_eq!(p.next(), t0 + ms(130), "the next look, nothing held");
    }

    #[test]
    fn changes_within_the_interval_are_announced_together_at_its_end() {
        let t0 = Instant::now();
        let mut p = Pacer::new(LOOK, EVERY, t0);
        p.looked(t0, true);
        assert!(p.announce(t0));
        p.looked(t0 + ms(20), true);
        assert!(!p.announce(t0 + ms(20)), "too soon after the last");
        p.looked(t0 + ms(60), true);
        assert!(!p.announce(t0 + ms(60)));
        // Due at the interval's end, before the next look.
        assert_eq!(p.next(), t0 + EVERY);
        assert!(!p.look_due(t0 + EVERY));
        assert!(p.announce(t0 + EVERY), "both at once");
        assert!(!p.announce(t0 + EVERY), "announced once");
        assert_eq!(p.next(), t0 + ms(160));
    }
}
