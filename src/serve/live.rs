//! Live updates by Server-Sent Events. The watcher of the served files ([`super::watcher`])
//! counts their changes, at most one announcement an update interval; every open stream waits
//! for the count to move, renders its page's changed parts on the server and sends them, so a
//! feed wakes and writes once for all the changes of an interval.
//!
//! A page is rendered once per change, not once per feed: the first feed to wake renders it
//! ([`Slots`]), the others take that rendering, and each sends only what changed since the
//! rendering it sent last: a part's HTML (its picture left out) when it changed, and of its
//! picture the parts that changed ([`crate::publish::board_svg_parts`]), the page's script
//! redrawing them. The event's bytes are made once for all the feeds that are up to date.
//!
//! Every event has an id, the rendering it brings the page to; a stream reopened with the id
//! of the last event it got (a browser's EventSource sends it, `Last-Event-ID`) is sent what
//! changed since that rendering while it is among the few kept ([`Renderings`]), not the
//! whole page again: the page with every board's picture is some 16 kB a board, and every
//! stream ends after its lifetime.

use super::pages::{self, At, Picture};
use super::routes::{Shared, picture_parts, read};
use super::view::{Served, ViewError};

use crate::publish::SvgPart;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use futures_util::StreamExt;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::Hash;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::watch;

/// How soon a browser reconnects after a stream ends or the network drops.
const RETRY: Duration = Duration::from_secs(1);

/// The live feeds' state: the data and the watcher's change count.
#[derive(Clone)]
pub(super) struct Live {
    pub source: Shared,
    pub changes: watch::Receiver<u64>,
    /// Feeds open now.
    pub open: Arc<AtomicUsize>,
    /// The latest renderings of each page kept live.
    pub renders: Arc<Slots<Scope, Renderings>>,
    /// This server's own: the events' ids carry it, so that an id another server (or this
    /// one before a restart) gave is not taken for one of its renderings.
    pub instance: u64,
    /// How long one stream lasts ([`super::Limits::feed_lifetime`]); then the browser's
    /// EventSource reconnects, after [`RETRY`].
    pub lifetime: Duration,
}

/// How far one stream's lifetime strays from [`Live::lifetime`], either way: a tenth, so that
/// the streams a hall opened together do not all end and reopen in the same second.
const JITTER: f64 = 0.1;

/// `lifetime` strayed by `draw` (from 0 to 1) within [`JITTER`] either way.
fn jittered(lifetime: Duration, draw: f64) -> Duration {
    lifetime.mul_f64(1.0 - JITTER + 2.0 * JITTER * draw.clamp(0.0, 1.0))
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

/// Which page a feed keeps live.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Scope {
    Event,
    Board(usize, u32, u32),
    Match,
}

/// A part of a page kept live: its HTML with its picture left out (an empty `<svg>` where it
/// goes), and the picture in its parts.
#[derive(PartialEq)]
pub(super) struct Part {
    id: String,
    html: String,
    picture: Option<Arc<Drawn>>,
}

/// A position's picture in its parts, with what it was drawn from.
#[derive(PartialEq, Eq)]
pub(super) struct Drawn {
    from: Sight,
    parts: Vec<SvgPart>,
}

/// The pictures of a rendering, by what they were drawn from: the next rendering takes those
/// of the positions that did not change instead of drawing them again.
type Drawings = HashMap<Sight, Arc<Drawn>>;

/// What a picture is drawn from: a position, the move that led to it, the game's result.
type Sight = (String, Option<[u8; 2]>, Option<String>);

/// Where a live part's picture goes in its HTML.
const HOLE: &str = "<svg></svg>";

/// The part `id` as `render` makes it, its picture (a part has one at most) kept apart, taken
/// from `drawn` when it has it.
fn live_part(id: String, drawn: &Drawings, render: impl FnOnce(Picture<'_>) -> String) -> Part {
    let picture = RefCell::new(None);
    let draw = |fen: &str, last: Option<[u8; 2]>, over: Option<&str>| {
        let from = (fen.to_string(), last, over.map(str::to_string));
        let made = match drawn.get(&from) {
            Some(d) => Arc::clone(d),
            None => {
                let parts = picture_parts(fen, last, over)?;
                Arc::new(Drawn { from, parts })
            }
        };
        *picture.borrow_mut() = Some(made);
        Some(HOLE.to_string())
    };
    let html = render(Picture {
        draw: &draw,
        now: None,
        links: pages::Links::SERVED,
    });
    Part {
        id,
        html,
        picture: picture.into_inner(),
    }
}

/// What a page showing `old` of a part needs to show `now`: `{id, html?, svg?, picture?}`,
/// `html` when the part's HTML changed (its picture kept), `svg` the whole picture when the
/// page has none to redraw, `picture` the parts of the picture that changed, by name; `None`
/// when nothing changed.
fn change(old: Option<&Part>, now: &Part) -> Option<Value> {
    let mut out = Map::new();
    if old.is_none_or(|o| o.html != now.html) {
        out.insert("html".into(), now.html.clone().into());
    }
    if let Some(p) = now.picture.as_ref().map(|d| &d.parts) {
        match old.and_then(|o| o.picture.as_ref()).map(|d| &d.parts) {
            Some(before) if same_drawing(before, p) => {
                let changed: Map<String, Value> = p
                    .iter()
                    .zip(before)
                    .filter(|(a, b)| a.svg != b.svg)
                    .map(|(a, _)| (a.key.clone(), a.svg.clone().into()))
                    .collect();
                if !changed.is_empty() {
                    out.insert("picture".into(), changed.into());
                }
            }
            _ => {
                let svg: String = p.iter().map(|x| x.svg.as_str()).collect();
                out.insert("svg".into(), svg.into());
            }
        }
    }
    if out.is_empty() {
        return None;
    }
    out.insert("id".into(), now.id.clone().into());
    Some(out.into())
}

/// Whether two pictures differ only in their named parts (then those redraw one into the
/// other).
fn same_drawing(a: &[SvgPart], b: &[SvgPart]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.key == y.key && (!x.key.is_empty() || x.svg == y.svg))
}

/// How many renderings of a page are kept: a stream reopened after the id of one of them gets
/// what changed since. At the quickest pace (one a [`super::Limits::update_every`], 150 ms by
/// default) that is 2.4 s of them; a browser reopens a stream 1 s after it ended ([`RETRY`]).
const KEPT: usize = 16;

/// The latest renderings of a page: the latest, from which every feed sends, and the ones
/// before it, newest first, up to [`KEPT`] in all.
pub(super) struct Renderings {
    latest: Arc<Rendered>,
    before: Vec<Arc<Rendered>>,
    /// The whole page as an event's data after its time (`"records":..}` and the end of the
    /// event), made when a feed opens with nothing to start from. Of the latest only: it is
    /// the largest of the events.
    full: OnceLock<Bytes>,
    /// The event from each of `before` to the latest, made when a feed that sent that one
    /// asks first: shared by every feed that missed the same renderings (on a busy machine,
    /// hundreds of them), not made and held for each.
    catch_up: Vec<OnceLock<Option<Bytes>>>,
}

impl Renderings {
    /// `latest`, after the renderings of `kept`.
    fn new(latest: Arc<Rendered>, kept: Option<&Renderings>) -> Renderings {
        let before: Vec<Arc<Rendered>> = kept
            .map(|k| {
                let older = k.before.iter().take(KEPT.saturating_sub(2));
                std::iter::once(&k.latest).chain(older).cloned().collect()
            })
            .unwrap_or_default();
        let catch_up = before.iter().map(|_| OnceLock::new()).collect();
        Renderings {
            latest,
            before,
            full: OnceLock::new(),
            catch_up,
        }
    }

    /// The event that brings a page showing `last` to the latest; `None` when nothing
    /// changed. Its time is the server's, `lag` ms ago (the delay).
    fn since(&self, last: &Arc<Rendered>, lag: i64) -> Option<Bytes> {
        let kept = self.before.iter().position(|b| Arc::ptr_eq(b, last));
        match kept {
            Some(k) => self.catch_up[k]
                .get_or_init(|| self.latest.since(last, lag))
                .clone(),
            None => self.latest.since(last, lag),
        }
    }

    /// The rendering whose event id is `id`, if kept.
    fn find(&self, id: &str) -> Option<&Arc<Rendered>> {
        std::iter::once(&self.latest)
            .chain(&self.before)
            .find(|r| r.id == id)
    }

    /// A stream's first event: the whole page, and how soon to reconnect; its time is the
    /// server's, `lag` ms ago (the delay).
    fn first(&self, lag: i64) -> Vec<Bytes> {
        let r = &self.latest;
        let at = chrono::Utc::now().timestamp_millis() - lag;
        let full = self.full.get_or_init(|| {
            let all: Vec<Value> = r.parts.iter().filter_map(|p| change(None, p)).collect();
            Bytes::from(body(r.records, &all))
        });
        let head = format!(
            "retry: {}\nevent: update\nid: {}\ndata: {{\"now\":{at},",
            RETRY.as_millis(),
            r.id
        );
        // Two chunks: the page itself, the largest event, is the same bytes for every feed.
        vec![Bytes::from(head), full.clone()]
    }
}

/// One rendering of a page, shared by its feeds.
pub(super) struct Rendered {
    /// The watcher's change count it was made at.
    version: u64,
    /// Its events' id: the server's instance and the version.
    id: String,
    /// The change count of the rendering before it (0: none).
    previous: u64,
    /// The parts; one that did not change is the very one of the rendering before.
    parts: Vec<Arc<Part>>,
    records: usize,
    /// The event from the rendering before, the same bytes for every feed; `None` when nothing
    /// changed.
    delta: Option<Bytes>,
}

impl Rendered {
    /// Rendering `version` of parts `now`, the parts that did not change since `before`
    /// shared with it.
    fn new(
        (instance, version): (u64, u64),
        now: Vec<Part>,
        records: usize,
        before: Option<&Rendered>,
        lag: i64,
    ) -> Rendered {
        let id = format!("{instance:x}-{version}");
        let old: HashMap<&str, &Arc<Part>> = before
            .map(|b| b.parts.iter().map(|p| (p.id.as_str(), p)).collect())
            .unwrap_or_default();
        let mut changes = Vec::new();
        let parts = now
            .into_iter()
            .map(|part| {
                let o = old.get(part.id.as_str()).copied();
                match o {
                    Some(o) if **o == part => Arc::clone(o),
                    _ => {
                        changes.extend(change(o.map(|o| &**o), &part));
                        Arc::new(part)
                    }
                }
            })
            .collect();
        let delta = (!changes.is_empty()).then(|| update(&id, records, &changes, lag));
        Rendered {
            version,
            id,
            previous: before.map_or(0, |b| b.version),
            parts,
            records,
            delta,
        }
    }

    /// The event that brings a page showing `last` to this one; `None` when nothing changed.
    /// Its time is the server's, `lag` ms ago (the delay).
    fn since(&self, last: &Rendered, lag: i64) -> Option<Bytes> {
        if last.version == self.version {
            return None;
        }
        if last.version == self.previous {
            return self.delta.clone();
        }
        // A feed that missed renderings: what changed since the one it sent.
        let old: HashMap<&str, &Arc<Part>> =
            last.parts.iter().map(|p| (p.id.as_str(), p)).collect();
        let changes: Vec<Value> = self
            .parts
            .iter()
            .filter(|p| !old.get(p.id.as_str()).is_some_and(|o| Arc::ptr_eq(o, p)))
            .filter_map(|p| change(old.get(p.id.as_str()).map(|o| &***o), p))
            .collect();
        (!changes.is_empty()).then(|| update(&self.id, self.records, &changes, lag))
    }
}

/// An update event (after the feed's first) with the server's time `lag` ms ago (the delay),
/// bringing the page to the rendering of `id`.
fn update(id: &str, records: usize, changes: &[Value], lag: i64) -> Bytes {
    let at = chrono::Utc::now().timestamp_millis() - lag;
    let data = body(records, changes);
    Bytes::from(format!(
        "event: update\nid: {id}\ndata: {{\"now\":{at},{data}"
    ))
}

/// An update's data after its time, and the end of the event: `"records":N,"parts":[..]}`.
fn body(records: usize, parts: &[Value]) -> String {
    let parts = serde_json::to_string(parts).unwrap_or_else(|_| "[]".into());
    format!("\"records\":{records},\"parts\":{parts}}}\n\n")
}

/// The renderings of `scope`, the latest at change `version` or later: the shared ones, or
/// the latest made now (the other feeds of the page wait for it).
async fn rendering(live: &Live, scope: Scope, version: u64) -> Option<Arc<Renderings>> {
    let slot = live.renders.slot(scope);
    let mut held = slot.lock().await;
    if let Some(k) = held.as_ref().filter(|k| k.latest.version >= version) {
        return Some(Arc::clone(k));
    }
    let drawn: Drawings = held
        .iter()
        .flat_map(|k| &k.latest.parts)
        .filter_map(|p| p.picture.as_ref())
        .map(|d| (d.from.clone(), Arc::clone(d)))
        .collect();
    let Ok((now, records)) = read(&live.source, move |s| parts(s, scope, &drawn)).await else {
        drop(held);
        live.renders.forget(&scope);
        return None;
    };
    let before = held.as_ref().map(|k| &*k.latest);
    let lag = live.source.delay.lag_ms();
    let r = Rendered::new((live.instance, version), now, records, before, lag);
    let kept = Arc::new(Renderings::new(Arc::new(r), held.as_deref()));
    *held = Some(Arc::clone(&kept));
    Some(kept)
}

/// The parts of the page of `scope` as they are now, and the records they show; the pictures
/// of `drawn` taken again.
fn parts(s: &Served, scope: Scope, drawn: &Drawings) -> Result<(Vec<Part>, usize), ViewError> {
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
                .map(|b| live_part(pages::card_id(b), drawn, |p| pages::card(b, p)))
                .collect();
            Ok((parts, records))
        }
        Scope::Board(d, r, n) => {
            let b = s.board(d, r, n)?;
            let records = b.live.as_ref().map_or(0, |m| m.records);
            let main = live_part("main".into(), drawn, |p| {
                pages::board_main(&b, whole, &pages::board_href(&b), p).into_string()
            });
            Ok((vec![main], records))
        }
        Scope::Match => {
            let m = s.standalone()?;
            let main = live_part("main".into(), drawn, |p| {
                pages::match_main(&m, whole, p).into_string()
            });
            Ok((vec![main], m.records))
        }
    }
}

/// How often a stream with nothing to send sends a comment, so that the connection is seen
/// alive (and one that is not is found and closed).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A feed: the page's parts at once (or, reopened after event `after`, what changed since),
/// then what changes, until its lifetime (jittered) is over. Each event's bytes are made once
/// per change and shared by every feed that sends them.
fn feed(live: Live, scope: Scope, after: Option<String>) -> axum::response::Response {
    let deadline = tokio::time::Instant::now() + jittered(live.lifetime, rand::random::<f64>());
    let mut rx = live.changes.clone();
    rx.mark_changed();
    let open = Open::new(&live.open);
    let state = (live, rx, None::<Arc<Rendered>>, open, after);
    let stream = futures_util::stream::unfold(
        state,
        move |(live, mut rx, mut last, open, mut after)| async move {
            loop {
                let wake = deadline.min(tokio::time::Instant::now() + KEEP_ALIVE);
                match tokio::time::timeout_at(wake, rx.changed()).await {
                    Ok(Ok(())) => {}
                    Err(_) if wake < deadline => {
                        let alive = vec![Bytes::from_static(b":\n\n")];
                        return Some((alive, (live, rx, last, open, after)));
                    }
                    _ => return None,
                }
                let version = *rx.borrow_and_update();
                let Some(kept) = rendering(&live, scope, version).await else {
                    continue;
                };
                if let Some(id) = after.take() {
                    last = kept.find(&id).cloned();
                }
                let event = match &last {
                    Some(last) => kept
                        .since(last, live.source.delay.lag_ms())
                        .map(|e| vec![e]),
                    None => Some(kept.first(live.source.delay.lag_ms())),
                };
                last = Some(Arc::clone(&kept.latest));
                if let Some(event) = event {
                    return Some((event, (live, rx, last, open, after)));
                }
            }
        },
    )
    .flat_map(|chunks| futures_util::stream::iter(chunks.into_iter().map(Ok::<_, Infallible>)));
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}

/// The id of the last event a reopened stream got (`Last-Event-ID`), if any.
fn last_event_id(headers: &HeaderMap) -> Option<String> {
    let id = headers.get("last-event-id")?.to_str().ok()?;
    Some(id.to_string())
}

pub(super) async fn event(State(l): State<Live>, headers: HeaderMap) -> axum::response::Response {
    if l.source.db.is_none() {
        return super::routes::missing("no event database is served");
    }
    feed(l, Scope::Event, last_event_id(&headers))
}

pub(super) async fn standalone(
    State(l): State<Live>,
    headers: HeaderMap,
) -> axum::response::Response {
    if l.source.match_file.is_none() {
        return super::routes::missing("no match file is served");
    }
    feed(l, Scope::Match, last_event_id(&headers))
}

pub(super) async fn board(
    State(l): State<Live>,
    Path((d, r, b)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> axum::response::Response {
    use super::routes::number;
    let (Some(d), Some(r), Some(b)) = (number(&d), number(&r), number(&b)) else {
        return super::routes::missing("a board's feed is /live/board/DIVISION/ROUND/BOARD");
    };
    // A board that does not exist has no feed (rather than one that never says anything).
    match read(&l.source, move |s| s.board(d, r, b).map(drop)).await {
        // The database unreadable for a moment: the feed says so when it can.
        Ok(()) | Err(ViewError::Desk(_)) => feed(l, Scope::Board(d, r, b), last_event_id(&headers)),
        Err(ViewError::NotFound(what)) => super::routes::missing(&what),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(id: &str, html: &str) -> Part {
        Part {
            id: id.into(),
            html: html.into(),
            picture: None,
        }
    }

    #[test]
    fn feeds_that_missed_the_same_renderings_are_sent_the_same_bytes() {
        let page = |html: [&str; 2]| vec![part("b1", html[0]), part("b2", html[1])];
        let one = Arc::new(Rendered::new((1, 1), page(["a", "a"]), 1, None, 0));
        let first = Renderings::new(Arc::clone(&one), None);
        let two = Arc::new(Rendered::new((1, 2), page(["b", "a"]), 2, Some(&one), 0));
        let second = Renderings::new(Arc::clone(&two), Some(&first));
        let three = Arc::new(Rendered::new((1, 3), page(["b", "c"]), 3, Some(&two), 0));
        let third = Renderings::new(Arc::clone(&three), Some(&second));
        // Two feeds that sent rendering 1 and missed 2: one event, made once, for both.
        let a = third.since(&one, 0).unwrap();
        let b = third.since(&one, 0).unwrap();
        assert_eq!(a.as_ptr(), b.as_ptr(), "made for each feed");
        let text = String::from_utf8_lossy(&a);
        assert!(text.contains(r#""records":3"#), "{text}");
        assert!(text.contains(r#""html":"b""#) && text.contains(r#""html":"c""#));
        // A feed in step is sent the rendering's own change; one up to date, nothing.
        let step = third.since(&two, 0).unwrap();
        assert_eq!(
            Some(step.as_ptr()),
            three.delta.as_ref().map(|d| d.as_ptr())
        );
        assert!(third.since(&three, 0).is_none());
    }
}
