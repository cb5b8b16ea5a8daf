//! Live updates by Server-Sent Events. One watcher thread looks at the served files (the desk's
//! database and its write-ahead log, every linked match file, the standalone match file) every
//! [`POLL`], by length and modification time, and counts each change; every open stream waits
//! for the count to move, renders its page's changed parts on the server and sends them.
//!
//! Polling rather than change notification: the files are written by other processes (the
//! desk, a board's match screen, the desk's copy of a pushed board), and a stat of each every
//! 100 ms is cheap, the same on every system and file system, and shared by all spectators.

use super::pages::{self, At};
use super::routes::{Shared, picture, read};
use super::view::{Source, ViewError};
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};
use tokio::sync::watch;

/// How often the watcher looks at the files.
pub(super) const POLL: Duration = Duration::from_millis(100);

/// How long one stream lasts: then it ends, and the browser's EventSource reconnects (after
/// [`RETRY`]), so no stream is held for ever by a client that has gone.
const LIFETIME: Duration = Duration::from_secs(300);

/// How soon a browser reconnects after a stream ends or the network drops.
const RETRY: Duration = Duration::from_secs(1);

/// The live feeds' state: the data and the watcher's change count.
#[derive(Clone)]
pub(super) struct Live {
    pub source: Shared,
    pub changes: watch::Receiver<u64>,
    /// Feeds open now.
    pub open: Arc<AtomicUsize>,
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
            let db = stamps(&db_files(&source));
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

type Stamp = Option<(u64, SystemTime)>;

fn stamps(files: &[PathBuf]) -> Vec<Stamp> {
    files
        .iter()
        .map(|f| {
            let m = std::fs::metadata(f).ok()?;
            Some((m.len(), m.modified().ok()?))
        })
        .collect()
}

/// The database and its write-ahead log (a commit in WAL mode changes the log only).
fn db_files(s: &Source) -> Vec<PathBuf> {
    let Some(db) = &s.db else {
        return Vec::new();
    };
    let mut wal = db.clone().into_os_string();
    wal.push("-wal");
    vec![db.clone(), wal.into()]
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
#[derive(Clone, Copy)]
enum Scope {
    Event,
    Board(usize, u32, u32),
    Match,
}

#[derive(serde::Serialize, PartialEq)]
struct Part {
    id: String,
    html: String,
}

#[derive(serde::Serialize)]
struct Update<'a> {
    /// The server's time, ms since 1970 (the page's clocks count from it).
    now: i64,
    /// Records of the matches shown.
    records: usize,
    parts: &'a [Part],
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

/// A feed: the page's parts at once, then each time they change, until [`LIFETIME`].
fn feed(live: Live, scope: Scope) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let deadline = tokio::time::Instant::now() + LIFETIME;
    let mut rx = live.changes.clone();
    rx.mark_changed();
    let state = (live.source, rx, None::<Vec<Part>>, Open::new(&live.open));
    let stream =
        futures_util::stream::unfold(state, move |(source, mut rx, last, open)| async move {
            loop {
                let changed = tokio::time::timeout_at(deadline, rx.changed()).await;
                if !matches!(changed, Ok(Ok(()))) {
                    return None;
                }
                let Ok((now, records)) = read(&source, move |s| parts(s, scope)).await else {
                    continue;
                };
                if last.as_ref() == Some(&now) {
                    continue;
                }
                let update = Update {
                    now: chrono::Utc::now().timestamp_millis(),
                    records,
                    parts: &now,
                };
                let data = serde_json::to_string(&update).unwrap_or_default();
                let event = Event::default().event("update").retry(RETRY).data(data);
                return Some((Ok(event), (source, rx, Some(now), open)));
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
