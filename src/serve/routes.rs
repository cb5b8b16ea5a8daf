//! The server's addresses. Reading needs nothing; every path parameter is a number (anything
//! else is not found), so no path reaches the file system.

use super::pages::{self, At};
use super::view::{BoardView, Served, Source, ViewError};
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};
use std::convert::Infallible;
use std::sync::Arc;

pub(super) type Shared = Arc<Served>;

/// Every address the server answers.
pub(super) fn router(
    source: Source,
    delay: super::Delay,
    open: Arc<std::sync::atomic::AtomicUsize>,
    log: Arc<super::Log>,
    limits: &super::Limits,
) -> Router {
    let desk = Arc::new(source.clone());
    let source = Arc::new(Served { source, delay });
    let (changes, nudge) =
        super::watcher::watch_files(Arc::clone(&source), limits.look, limits.update_every);
    let live = super::live::Live {
        open,
        changes,
        source: Arc::clone(&source),
        renders: Arc::default(),
        instance: rand::random(),
        lifetime: limits.feed_lifetime,
    };
    let feeds = Router::new()
        .route("/live/event", get(super::live::event))
        .route("/live/match", get(super::live::standalone))
        .route("/live/board/{d}/{r}/{b}", get(super::live::board))
        .with_state(live);
    let guesses = Arc::new(super::guesses::Guesses::default());
    let floor = Router::new()
        .route("/result", get(super::floor::look).post(super::floor::enter))
        .route(
            "/director/overrule",
            get(super::overrule::ask).post(super::overrule::overrule),
        )
        .layer(axum::extract::DefaultBodyLimit::max(super::floor::MAX_BODY))
        .with_state(Arc::new(super::floor::FloorDesk {
            source: Arc::clone(&desk),
            guesses: Arc::clone(&guesses),
            nudge: nudge.clone(),
            turn: tokio::sync::Mutex::new(()),
        }));
    let pushes = Router::new()
        .route("/push", get(super::desk::have).post(super::desk::push))
        .route("/pairing", get(super::desk::pairing))
        .layer(axum::extract::DefaultBodyLimit::max(super::desk::MAX_BODY))
        .with_state(Arc::new(super::desk::Pushes::new(
            Arc::clone(&desk),
            nudge,
            guesses,
        )));
    let rounds = Router::new()
        .route("/round/{file}", get(round_pdn))
        .route("/board/{d}/{r}/{b}", get(board))
        .with_state(PdnState {
            source: Arc::clone(&source),
            rounds: Arc::default(),
        });
    Router::new()
        .route("/", get(home))
        .route("/hall", get(super::hall::hall))
        .route("/api/event", get(api_event))
        .route("/api/board/{d}/{r}/{b}", get(api_board))
        .route("/match", get(standalone))
        .route("/match.pdn", get(standalone_pdn))
        .route("/api/match", get(api_match))
        .route("/director", get(super::director::page))
        .fallback(|| async { missing("no such page") })
        .with_state(source)
        .merge(rounds)
        .merge(feeds)
        .merge(pushes)
        .merge(floor)
        .layer(axum::middleware::from_fn_with_state(
            log,
            super::listen::log_refusals,
        ))
}

/// The position of `fen` as a picture (the one board renderer), numbered squares, the move
/// that led to it (from and to) marked, the result `over` in place of the side to move,
/// scalable (the page's style sizes it to the screen);
/// its parts that change with the position marked, for the live pages to redraw them alone.
pub(super) fn picture(fen: &str, last: Option<[u8; 2]>, over: Option<&str>) -> Option<String> {
    Some(
        picture_parts(fen, last, over)?
            .into_iter()
            .map(|p| p.svg)
            .collect(),
    )
}

/// [`picture`] in its parts ([`crate::publish::board_svg_parts`]).
pub(super) fn picture_parts(
    fen: &str,
    last: Option<[u8; 2]>,
    over: Option<&str>,
) -> Option<Vec<crate::publish::SvgPart>> {
    use crate::engine::Square;
    let position = crate::engine::Position::from_fen(fen).ok()?;
    let last_move = last.and_then(|[a, b]| Some((Square::new(a)?, Square::new(b)?)));
    let options = crate::publish::BoardSvgOptions {
        numbers: true,
        size: 320,
        last_move,
        over: over.map(str::to_string),
        ..crate::publish::BoardSvgOptions::default()
    };
    Some(crate::publish::board_svg_parts(&position, &options))
}

/// How a public page draws: the one board renderer, its running clocks at the time it shows
/// (the delay ago, under `--delay`).
pub(super) fn shown(s: &Served) -> pages::Picture<'static> {
    pages::Picture {
        draw: &picture,
        now: Some(s.shown_ms()),
        links: pages::Links::SERVED,
    }
}

pub(super) fn missing(what: &str) -> Response {
    let reason = super::listen::Reason(what.to_string());
    let page = Html(pages::not_found(what));
    (StatusCode::NOT_FOUND, axum::Extension(reason), page).into_response()
}

/// What a reading error answers: not found, or the server's own failure.
pub(super) fn failed(e: ViewError) -> Response {
    match e {
        ViewError::NotFound(what) => missing(&what),
        ViewError::Desk(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Html(pages::not_found(&e.to_string())),
        )
            .into_response(),
    }
}

/// Run a reading of the files off the async threads.
pub(super) async fn read<T: Send + 'static>(
    s: &Shared,
    f: impl FnOnce(&Served) -> Result<T, ViewError> + Send + 'static,
) -> Result<T, ViewError> {
    let s = Arc::clone(s);
    tokio::task::spawn_blocking(move || f(&s))
        .await
        .map_err(|e| ViewError::NotFound(e.to_string()))?
}

/// The ETag of a body: the start of its SHA-256 digest.
pub(super) fn etag(body: &str) -> String {
    etag_of(&[body.as_bytes()])
}

/// [`etag`] of the body made of `parts`, one after the other.
pub(super) fn etag_of(parts: &[impl AsRef<[u8]>]) -> String {
    let mut hash = Sha256::new();
    for p in parts {
        hash.update(p.as_ref());
    }
    let digest = hash.finalize();
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// A body with its ETag; `304 Not Modified` when the client has it already.
pub(super) fn tagged(headers: &HeaderMap, body: String, content_type: &'static str) -> Response {
    let etag = etag(&body);
    tagged_as(headers, body, &etag, content_type)
}

/// A body with its ETag `etag`, made already; `304 Not Modified` when the client has it.
fn tagged_as(
    headers: &HeaderMap,
    body: impl Into<axum::body::Body>,
    etag: &str,
    content_type: &'static str,
) -> Response {
    let matches = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| {
            let t = t.trim();
            t == "*" || t.trim_start_matches("W/") == etag
        });
    let mut r = if matches {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, content_type)], body.into()).into_response()
    };
    if let Ok(v) = HeaderValue::from_str(etag) {
        r.headers_mut().insert(header::ETAG, v);
    }
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

const PDN: &str = "application/x-pdn; charset=utf-8";
const JSON: &str = "application/json";

fn json<T: serde::Serialize>(headers: &HeaderMap, v: &T) -> Response {
    match serde_json::to_string_pretty(v) {
        Ok(text) => tagged(headers, text, JSON),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

async fn home(State(s): State<Shared>) -> Response {
    if s.db.is_none() {
        return Redirect::to("/match").into_response();
    }
    match read(&s, |s| s.event()).await {
        Ok(e) => Html(pages::event_page(&e, shown(&s))).into_response(),
        Err(e) => failed(e),
    }
}

async fn api_event(State(s): State<Shared>, headers: HeaderMap) -> Response {
    match read(&s, |s| s.event_whole()).await {
        Ok(e) => json(&headers, &e),
        Err(e) => failed(e),
    }
}

/// A number of a path, or not found.
pub(super) fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
}

/// The PDN addresses' state: the data, and each PDN as made last.
#[derive(Clone)]
struct PdnState {
    source: Shared,
    rounds: Arc<super::rounds::Rounds>,
}

/// `/round/N.pdn`: every game of round N in every division, `*` while one runs.
async fn round_pdn(State(p): State<PdnState>, Path(file): Path<String>, h: HeaderMap) -> Response {
    let Some(round) = file.strip_suffix(".pdn").and_then(number::<u32>) else {
        return missing("a round's PDN is /round/N.pdn");
    };
    pdn_answer(p, (round, None), &h).await
}

/// The PDN of `key`, as made last unless its files changed since.
async fn pdn_answer(p: PdnState, key: super::rounds::Key, h: &HeaderMap) -> Response {
    let rounds = Arc::clone(&p.rounds);
    let made = read(&p.source, move |s| rounds.get(s, key)).await;
    match made {
        Ok(m) => {
            // The boards' texts as kept, one after the other, with their length.
            let length: usize = m.parts.iter().map(axum::body::Bytes::len).sum();
            let parts = m.parts.clone().into_iter().map(Ok::<_, Infallible>);
            let body = axum::body::Body::from_stream(futures_util::stream::iter(parts));
            let mut r = tagged_as(h, body, &m.etag, PDN);
            if r.status() == StatusCode::OK {
                r.headers_mut()
                    .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
            }
            r
        }
        Err(e) => failed(e),
    }
}

#[derive(serde::Deserialize)]
struct StepQuery {
    game: Option<usize>,
    ply: Option<usize>,
}

impl StepQuery {
    fn at(&self) -> At {
        At {
            game: self.game,
            ply: self.ply,
        }
    }
}

type BoardPath = Path<(String, String, String)>;

/// Division, round and board of a path, the board maybe ending in `.pdn`.
fn board_key(d: &str, r: &str, b: &str) -> Option<(usize, u32, u32, bool)> {
    let (b, pdn) = match b.strip_suffix(".pdn") {
        Some(b) => (b, true),
        None => (b, false),
    };
    Some((number(d)?, number(r)?, number(b)?, pdn))
}

async fn board(
    State(p): State<PdnState>,
    Path((d, r, b)): BoardPath,
    Query(q): Query<StepQuery>,
    h: HeaderMap,
) -> Response {
    let Some((d, r, b, pdn)) = board_key(&d, &r, &b) else {
        return missing("a board is /board/DIVISION/ROUND/BOARD");
    };
    if pdn {
        return pdn_answer(p, (r, Some((d, b))), &h).await;
    }
    match read(&p.source, move |s| s.board(d, r, b)).await {
        Ok(v) => Html(pages::board_page(&v, q.at(), &base(&v), shown(&p.source))).into_response(),
        Err(e) => failed(e),
    }
}

/// A board's address without the leading `/api` or `/live`.
pub(super) fn base(b: &BoardView) -> String {
    pages::board_href(b)
}

async fn api_board(State(s): State<Shared>, Path((d, r, b)): BoardPath, h: HeaderMap) -> Response {
    let Some((d, r, b, false)) = board_key(&d, &r, &b) else {
        return missing("a board is /api/board/DIVISION/ROUND/BOARD");
    };
    match read(&s, move |s| s.board(d, r, b)).await {
        Ok(v) => json(&h, &v),
        Err(e) => failed(e),
    }
}

async fn standalone(State(s): State<Shared>, Query(q): Query<StepQuery>) -> Response {
    match read(&s, |s| s.standalone()).await {
        Ok(m) => Html(pages::match_page(&m, q.at(), shown(&s))).into_response(),
        Err(e) => failed(e),
    }
}

async fn api_match(State(s): State<Shared>, h: HeaderMap) -> Response {
    match read(&s, |s| s.standalone()).await {
        Ok(m) => json(&h, &m),
        Err(e) => failed(e),
    }
}

async fn standalone_pdn(State(s): State<Shared>, h: HeaderMap) -> Response {
    match read(&s, |s| s.standalone_pdn()).await {
        Ok(text) => tagged(&h, text, PDN),
        Err(e) => failed(e),
    }
}
