//! The desk's side of boards reporting to it. A board sends the lines of its match file
//! (`POST /push`, its token in `Authorization: Bearer`), from the line number the desk last
//! acknowledged; the desk keeps a copy of each board's file, beside its database in
//! `NAME-boards/`, and answers with the lines it now has. A push is idempotent (lines the desk
//! has are checked, not added again), a gap or a line that differs from the desk's copy is
//! refused with the line count the desk has, and a push whose lines do not read back as the
//! board's match (replayed record by record, the board's players and ballot) is refused with
//! the reason: nothing is written then. `GET /push` says how many lines the desk has.
//!
//! The copy is the board's match file on the desk: the first push links it to the board (as
//! `crossboard event match` does) and each push that finishes a game records the board's
//! result, through the event's own log.

use super::routes::Shared;
use super::view::find_board;
use crate::event::{Action, BoardResult, board_result};
use crate::store::{Desk, MatchFile, board_of_token, copy_path};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Mutex;

/// The largest push body, bytes.
pub(super) const MAX_BODY: usize = 1 << 20;
/// The most lines one push may carry.
pub const MAX_LINES: usize = 500;

/// One push: the board's match file lines from line `from` (0: the first).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Push {
    from: usize,
    lines: Vec<String>,
}

/// Why a push was refused; the desk's copy and the event are unchanged.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("no board has this token (crossboard event token gives one)")]
    Token,
    #[error("the desk serves no event database")]
    NoDesk,
    #[error("lines from {from} would leave a gap: the desk has {have}")]
    Gap { from: usize, have: usize },
    #[error("line {line} differs from the desk's copy, which has {have} lines")]
    Differs { line: usize, have: usize },
    #[error("{0} lines in one push: at most {MAX_LINES}")]
    TooMany(usize),
    #[error("{0}")]
    Bad(String),
    #[error("{0}")]
    Desk(String),
}

impl Refusal {
    fn status(&self) -> StatusCode {
        match self {
            Refusal::Token => StatusCode::UNAUTHORIZED,
            Refusal::NoDesk => StatusCode::NOT_FOUND,
            Refusal::Gap { .. } | Refusal::Differs { .. } => StatusCode::CONFLICT,
            Refusal::TooMany(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::Bad(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Refusal::Desk(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn have(&self) -> Option<usize> {
        match self {
            Refusal::Gap { have, .. } | Refusal::Differs { have, .. } => Some(*have),
            _ => None,
        }
    }
}

/// One push at a time: each reads the desk's copy, adds to it and records in the event.
static PUSHES: Mutex<()> = Mutex::new(());

fn answer(result: Result<usize, Refusal>) -> Response {
    match result {
        Ok(have) => axum::Json(serde_json::json!({ "have": have })).into_response(),
        Err(r) => {
            let body = serde_json::json!({ "refused": r.to_string(), "have": r.have() });
            let reason = super::listen::Reason(r.to_string());
            (r.status(), axum::Extension(reason), axum::Json(body)).into_response()
        }
    }
}

fn token(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    Some(v.strip_prefix("Bearer ")?.trim().to_string())
}

async fn run(s: Shared, headers: HeaderMap, push: Option<Push>) -> Response {
    let Some(token) = token(&headers) else {
        return answer(Err(Refusal::Token));
    };
    let done = tokio::task::spawn_blocking(move || {
        let _one = PUSHES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        accept(&s, &token, push)
    })
    .await;
    answer(done.unwrap_or_else(|e| Err(Refusal::Desk(e.to_string()))))
}

/// `GET /push`: the lines the desk has of the board.
pub(super) async fn have(State(s): State<Shared>, headers: HeaderMap) -> Response {
    run(s, headers, None).await
}

/// `POST /push`: lines of the board's match file.
pub(super) async fn push(State(s): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    match serde_json::from_slice::<Push>(&body) {
        Ok(p) => run(s, headers, Some(p)).await,
        Err(e) => answer(Err(Refusal::Bad(format!("not a push: {e}")))),
    }
}

/// The board a token is for: event, division (1-based), round, board.
fn board_key(key: &str) -> Option<(String, usize, u32, u32)> {
    let mut parts = key.rsplitn(4, '/');
    let b = parts.next()?.parse().ok()?;
    let r = parts.next()?.parse().ok()?;
    let d = parts.next()?.parse().ok()?;
    Some((parts.next()?.to_string(), d, r, b))
}

fn desk_err(e: impl std::fmt::Display) -> Refusal {
    Refusal::Desk(e.to_string())
}

fn accept(s: &super::Source, token: &str, push: Option<Push>) -> Result<usize, Refusal> {
    let db = s.db.as_deref().ok_or(Refusal::NoDesk)?;
    let key = board_of_token(db, token).ok_or(Refusal::Token)?;
    let (event, d, r, b) = board_key(&key).ok_or(Refusal::Token)?;
    let copy = copy_path(db, &event, d, r, b);
    let held = std::fs::read_to_string(&copy).unwrap_or_default();
    let have = held.lines().count();
    let Some(push) = push else {
        return Ok(have);
    };
    let new = new_lines(&held, have, &push)?;
    if new.is_empty() {
        return Ok(have);
    }
    let text = held.clone() + &new.concat();
    let after =
        MatchFile::from_bytes(text.as_bytes(), &copy).map_err(|e| Refusal::Bad(e.to_string()))?;
    if after.dropped.is_some() {
        return Err(Refusal::Bad("the last record is cut short".into()));
    }
    let mut desk = Desk::open(db).map_err(desk_err)?;
    let id = desk.find_event(&event).map_err(desk_err)?;
    let mut open = desk.load(id).map_err(desk_err)?;
    let (division, _, board) =
        find_board(&open.event, d, r, b).map_err(|e| Refusal::Bad(e.to_string()))?;
    let games = board_result(&after.the_match, division, r, board)
        .map_err(|e| Refusal::Bad(e.to_string()))?;
    let before = MatchFile::from_bytes(held.as_bytes(), &copy)
        .ok()
        .and_then(|f| board_result(&f.the_match, division, r, board).ok())
        .map_or(0, |g| g.len());
    let mut actions = Vec::new();
    let file = copy.display().to_string();
    if board.match_file.as_deref() != Some(file.as_str()) {
        actions.push(Action::LinkMatch {
            division: d - 1,
            round: r,
            board: b,
            file,
        });
    }
    if games.len() > before {
        let result = BoardResult::Games { games };
        actions.push(Action::Result {
            division: d - 1,
            round: r,
            board: b,
            result,
        });
    }
    if let Some(dir) = copy.parent() {
        std::fs::create_dir_all(dir).map_err(desk_err)?;
    }
    crate::store::write_atomic(&copy, text.as_bytes()).map_err(desk_err)?;
    if !actions.is_empty() {
        desk.record(&mut open, &actions, chrono::Utc::now())
            .map_err(desk_err)?;
    }
    Ok(have + new.len())
}

/// The lines of `push` the desk's copy (`held`, `have` lines) lacks, each with its newline;
/// refused when they would leave a gap or the lines both have differ.
fn new_lines(held: &str, have: usize, push: &Push) -> Result<Vec<String>, Refusal> {
    if push.lines.len() > MAX_LINES {
        return Err(Refusal::TooMany(push.lines.len()));
    }
    if push.from > have {
        return Err(Refusal::Gap {
            from: push.from,
            have,
        });
    }
    if let Some(k) = push
        .lines
        .iter()
        .position(|l| l.contains('\n') || l.contains('\r'))
    {
        return Err(Refusal::Bad(format!(
            "line {} holds a line break",
            push.from + k + 1
        )));
    }
    for (k, (mine, theirs)) in held.lines().skip(push.from).zip(&push.lines).enumerate() {
        if mine != theirs {
            return Err(Refusal::Differs {
                line: push.from + k + 1,
                have,
            });
        }
    }
    let skip = have - push.from;
    Ok(push
        .lines
        .iter()
        .skip(skip)
        .map(|l| format!("{l}\n"))
        .collect())
}
