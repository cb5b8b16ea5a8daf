//! Live updates by Server-Sent Events. One watcher thread looks at the served files (the desk's
//! database and its write-ahead log, every linked match file, the standalone match file) every
//! [`POLL`], by length and modification time, and counts each change; every open stream waits
//! for the count to move, renders its page's changed parts on the server and sends them.
//!
//! Polling rather than change notification: the files are written by other processes (the
//! desk, a board's match screen, the desk's copy of a pushed board), and a stat of each every
//! 100 ms is cheap, the same on every system and file system, and shared by all spectators.
//!
//! A page is rendered once per change, not once per feed: the first feed to wake renders it
//! ([`Slots`]), the others take that rendering, and each sends only the parts that changed
//! since the rendering it sent last (serialized once for all the feeds that are up to date).

use super::pages::{self, At};
use super::routes::{Shared, picture, read};
use super::view::{Source, ViewError};
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::Hash;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};
use tokio::sync::watch;

/// How often the watcher looks at the files.
pub(super) const POLL: Duration = Duration::from_millis(100);

/// How soon a browser reconnects after a stream ends or the network drops.
const RETRY: Duration = Duration::from_secs(1);

/// The live feeds' state: the data and the watcher's change count.
#[derive(Clone)]
pub(super) struct Live {
    pub source: Shared,
    pub changes: watch::Receiver<u64>,
    /// Feeds open now.
    pub open: Arc<AtomicUsize>,
    /// The latest rendering of each page kept live.
    pub renders: Arc<Slots<Scope, Rendered>>,
    /// How long one stream lasts ([`super::Limits::feed_lifetime`]); then the browser's
    /// EventSource reconnects, after [`RETRY`].
    pub lifetime: Duration,
}

/// Values made from the served files, one slot a key, each kept until the files change: the
/// slot's lock makes the first caller make it and the others wait for it.
pub(super) struct Slots<K, V>(Mutex<HashMap<K, Slot<V>>>);

/// One key's value, once made.
type Slot<V> = Arc<tokio::sync::Mutex<Option<Arc<V>>>>;

impl<K: Eq + Hash, V> Default for Slots<K, V> {
    fn default() -> Self {
        Slots(Mutex::new(HashMap::new()))
    }
}

impl<K: Eq + Hash, V> Slots<K, V> {
    /// The slot of `key`.
    pub(super) fn slot(&self, key: K) -> Slot<V> {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(map.entry(key).or_default())
    }

    /// Drop the slot of `key` (a key that names nothing, so that asking for many such keys
    /// keeps nothing).
    pub(super) fn forget(&self, key: &K) {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.remove(key);
    }
}

/// Counts a feed as open while it lives.
struct Open(Arc<AtomicUsize>);

impl Open {
    fn new(count: &Arc<AtomicUsize>) -> Open {
        count.fetch_add(1, Ordering::Relaxed);
        Open(Arc::clone(count))
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Start the watcher of `source`'s files: a thread that ends when no feed can listen any more
/// (the server stopped).
pub(super) fn watch_files(source: Shared) -> watch::Receiver<u64> {
    let (tx, rx) = watch::channel(0u64);
    std::thread::spawn(move || {
        let mut files = Vec::new();
        let mut db_seen = None;
        let mut last = None;
        while !tx.is_closed() {
            let db = stamps(&source.db.as_deref().map(db_files).unwrap_or_default());
            if db_seen.as_ref() != Some(&db) {
                files = linked_files(&source);
                db_seen = Some(db.clone());
            }
            let now = (db, stamps(&files));
            if last.as_ref() != Some(&now) {
                last = Some(now);
                tx.send_modify(|n| *n += 1);
            }
            std::thread::sleep(POLL);
        }
    });
    rx
}

/// A file's length and modification time (`None`: no such file).
pub(super) type Stamp = Option<(u64, SystemTime)>;

pub(super) fn stamps(files: &[PathBuf]) -> Vec<Stamp> {
    files
        .iter()
        .map(|f| {
            let m = std::fs::metadata(f).ok()?;
            Some((m.len(), m.modified().ok()?))
        })
        .collect()
}

/// The database and its write-ahead log (a commit in WAL mode changes the log only).
pub(super) fn db_files(db: &std::path::Path) -> Vec<PathBuf> {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    vec![db.to_path_buf(), wal.into()]
}

/// The match files served: every board's linked file, and the standalone one.
fn linked_files(s: &Source) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = s.match_file.iter().cloned().collect();
    if let Ok(t) = s.tournament() {
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

/// Which page a feed keeps live.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Scope {
    Event,
    Board(usize, u32, u32),
    Match,
}

#[derive(serde::Serialize, PartialEq)]
struct Part {
    id: String,
    html: String,
}

/// A part as rendered, with its JSON (`{"id":..,"html":..}`) made once for every feed.
pub(super) struct Shown {
    part: Part,
    json: String,
}

/// One rendering of a page, shared by its feeds.
pub(super) struct Rendered {
    /// The watcher's change count it was made at.
    version: u64,
    /// The change count of the rendering before it (0: none).
    previous: u64,
    /// The parts; one that did not change is the very one of the rendering before.
    parts: Vec<Arc<Shown>>,
    records: usize,
    /// The update from the rendering before: the parts that changed; `None` when none did.
    delta: Option<String>,
    /// The whole page as an update, made when a feed opens.
    full: OnceLock<String>,
}

impl Rendered {
    /// Rendering `version` of parts `now`, the parts that did not change since `before`
    /// shared with it.
    fn new(version: u64, now: Vec<Part>, records: usize, before: Option<&Rendered>) -> Rendered {
        let old: HashMap<&str, &Arc<Shown>> = before
            .map(|b| b.parts.iter().map(|p| (p.part.id.as_str(), p)).collect())
            .unwrap_or_default();
        let mut changed = Vec::new();
        let parts = now
            .into_iter()
            .map(|part| match old.get(part.id.as_str()) {
                Some(o) if o.part == part => Arc::clone(o),
                _ => {
                    let json = serde_json::to_string(&part).unwrap_or_default();
                    let p = Arc::new(Shown { part, json });
                    changed.push(Arc::clone(&p));
                    p
                }
            })
            .collect();
        let delta = (!changed.is_empty()).then(|| update(records, &changed));
        Rendered {
            version,
            previous: before.map_or(0, |b| b.version),
            parts,
            records,
            delta,
            full: OnceLock::new(),
        }
    }

    /// The update that brings a page showing `last` (or nothing) to this one; `None` when
    /// nothing changed.
    fn since(&self, last: Option<&Rendered>) -> Option<String> {
        let Some(last) = last else {
            return Some(
                self.full
                    .get_or_init(|| update(self.records, &self.parts))
                    .clone(),
            );
        };
        if last.version == self.version {
            return None;
        }
        if last.version == self.previous {
            return self.delta.clone();
        }
        // A feed that missed renderings: the parts that are not the ones it sent.
        let changed: Vec<Arc<Shown>> = self
            .parts
            .iter()
            .enumerate()
            .filter(|&(k, p)| {
                let same = |o: &Arc<Shown>| Arc::ptr_eq(o, p);
                !(last.parts.get(k).is_some_and(same) || last.parts.iter().any(same))
            })
            .map(|(_, p)| Arc::clone(p))
            .collect();
        (!changed.is_empty()).then(|| update(self.records, &changed))
    }
}

/// An update's data, its time left out (each feed puts it first as it sends).
fn update(records: usize, parts: &[Arc<Shown>]) -> String {
    let mut out = format!("{{\"records\":{records},\"parts\":[");
    for (k, p) in parts.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&p.json);
    }
    out.push_str("]}");
    out
}

/// The rendering of `scope` at change `version` or later: the shared one, or made now (the
/// other feeds of the page wait for it).
async fn rendering(live: &Live, scope: Scope, version: u64) -> Option<Arc<Rendered>> {
    let slot = live.renders.slot(scope);
    let mut held = slot.lock().await;
    if let Some(r) = held.as_ref().filter(|r| r.version >= version) {
        return Some(Arc::clone(r));
    }
    let Ok((now, records)) = read(&live.source, move |s| parts(s, scope)).await else {
        drop(held);
        live.renders.forget(&scope);
        return None;
    };
    let r = Arc::new(Rendered::new(version, now, records, held.as_deref()));
    *held = Some(Arc::clone(&r));
    Some(r)
}

/// The parts of the page of `scope` as they are now, and the records they show.
fn parts(s: &Source, scope: Scope) -> Result<(Vec<Part>, usize), ViewError> {
    let whole = At {
        game: None,
        ply: None,
    };
    match scope {
        Scope::Event => {
            let e = s.event()?;
            let boards = e.divisions.iter().flat_map(|d| &d.boards);
            let records = boards
                .clone()
                .filter_map(|b| b.live.as_ref())
                .map(|m| m.records)
                .sum();
            let parts = boards
                .map(|b| Part {
                    id: pages::card_id(b),
                    html: pages::card(b, &picture),
                })
                .collect();
            Ok((parts, records))
        }
        Scope::Board(d, r, n) => {
            let b = s.board(d, r, n)?;
            let html = pages::board_main(&b, whole, &pages::board_href(&b), &picture);
            let records = b.live.as_ref().map_or(0, |m| m.records);
            Ok((
                vec![Part {
                    id: "main".into(),
                    html: html.into_string(),
                }],
                records,
            ))
        }
        Scope::Match => {
            let m = s.standalone()?;
            let html = pages::match_main(&m, whole, &picture).into_string();
            Ok((
                vec![Part {
                    id: "main".into(),
                    html,
                }],
                m.records,
            ))
        }
    }
}

/// A feed: the page's parts at once, then the parts that change, until its lifetime is over.
fn feed(live: Live, scope: Scope) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let deadline = tokio::time::Instant::now() + live.lifetime;
    let mut rx = live.changes.clone();
    rx.mark_changed();
    let open = Open::new(&live.open);
    let state = (live, rx, None::<Arc<Rendered>>, open);
    let stream =
        futures_util::stream::unfold(state, move |(live, mut rx, last, open)| async move {
            let mut last = last;
            loop {
                let changed = tokio::time::timeout_at(deadline, rx.changed()).await;
                if !matches!(changed, Ok(Ok(()))) {
                    return None;
                }
                let version = *rx.borrow_and_update();
                let Some(now) = rendering(&live, scope, version).await else {
                    continue;
                };
                let data = now.since(last.as_deref());
                last = Some(now);
                let Some(data) = data else {
                    continue;
                };
                let at = chrono::Utc::now().timestamp_millis();
                let data = format!("{{\"now\":{at},{}", data.get(1..).unwrap_or_default());
                let event = Event::default().event("update").retry(RETRY).data(data);
                return Some((Ok(event), (live, rx, last, open)));
            }
        });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

pub(super) async fn event(State(l): State<Live>) -> impl axum::response::IntoResponse {
    feed(l, Scope::Event)
}

pub(super) async fn standalone(State(l): State<Live>) -> impl axum::response::IntoResponse {
    feed(l, Scope::Match)
}

pub(super) async fn board(
    State(l): State<Live>,
    Path((d, r, b)): Path<(String, String, String)>,
) -> axum::response::Response {
    use super::routes::number;
    use axum::response::IntoResponse;
    match (number(&d), number(&r), number(&b)) {
        (Some(d), Some(r), Some(b)) => feed(l, Scope::Board(d, r, b)).into_response(),
        _ => super::routes::missing("a board's feed is /live/board/DIVISION/ROUND/BOARD"),
    }
}
