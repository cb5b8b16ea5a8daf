//! The desk's side of boards reporting to it. A board sends the lines of its match file
//! (`POST /push`, its token in `Authorization: Bearer`), from the line number the desk last
//! acknowledged; the desk keeps a copy of each board's file, beside its database in
//! `NAME-boards/`, and answers with the lines it now has. A push is idempotent (lines the desk
//! has are checked, not added again), a gap or a line that differs from the desk's copy is
//! refused with the line count the desk has, and a push whose lines do not read back as the
//! board's match (replayed record by record, the set-up of its first line the board's pairing:
//! [`check_board_setup`]) is refused with the reason: nothing is written then. `GET /push` says how many lines the desk has.
//!
//! The copy is the board's match file on the desk, linked to the board (as `crossboard event
//! match` does), and the board's result is derived from it: on every accepted push (even one
//! that adds nothing) and when serve starts ([`catch_up_all`]), every game the copy has
//! finished whose result the event lacks is recorded, through the event's own log, so that a
//! desk stopped between writing a copy and recording its result records it later, and once.
//!
//! The last push refused from a board is kept beside its copy for the director
//! ([`crate::store::keep_refusal`]), and forgotten at the board's next accepted push.
//!
//! The event is read from the database once and kept while the database's files keep their
//! length and modification time (a push rarely changes the event: it is read again after one
//! that records).

use super::listen::Log;
use super::view::{Source, find_board};
use super::watcher::{Nudge, Stamp, db_files, stamps};
use crate::director::Match;
use crate::event::{
    Action, BoardGameResult, BoardResult, Tournament, board_result, check_board_setup,
};
use crate::store::{
    BoardCodes, BoardRefusal, Desk, MatchFile, OpenEvent, board_of_token, copy_path, load_match,
    read_code,
};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The largest push body, bytes.
pub(super) const MAX_BODY: usize = 1 << 20;
/// The most lines one push may carry.
pub const MAX_LINES: usize = 500;

/// One push: the board's match file lines from line `from` (0: the first), and how many
/// complete lines the file has (a board's reporter says; when fewer than the desk's copy, the
/// board's file was started again or is an older copy).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Push {
    from: usize,
    lines: Vec<String>,
    #[serde(default)]
    total: Option<usize>,
}

/// Why a push was refused; the desk's copy and the event are unchanged.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("no board has this token (crossboard event token gives one)")]
    Token,
    #[error(
        "no board of this desk has the code {0}: check it against the round's pairings, \
         where the desk prints each board's code"
    )]
    Code(String),
    #[error(
        "too many wrong tokens and codes from this address: wait a minute, then check the \
         board's code or token with the director"
    )]
    Guesses,
    #[error("the desk serves no event database")]
    NoDesk,
    #[error("lines from {from} would leave a gap: the desk has {have}")]
    Gap { from: usize, have: usize },
    #[error("line {line} differs from the desk's copy, which has {have} lines")]
    Differs { line: usize, have: usize },
    #[error(
        "the board's file has {file} lines, all of them the desk's copy's first, and the \
         copy has {have}: the board was started again from a new file (or an older copy); \
         re-sync the board from the desk screen, and it sends its file from the start"
    )]
    Ahead { file: usize, have: usize },
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
            Refusal::Token | Refusal::Code(_) => StatusCode::UNAUTHORIZED,
            Refusal::Guesses => StatusCode::TOO_MANY_REQUESTS,
            Refusal::NoDesk => StatusCode::NOT_FOUND,
            Refusal::Gap { .. } | Refusal::Differs { .. } | Refusal::Ahead { .. } => {
                StatusCode::CONFLICT
            }
            Refusal::TooMany(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::Bad(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Refusal::Desk(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The line of the board's file the refusal is about (from 1), when it names one.
    fn line(&self) -> Option<usize> {
        match self {
            Refusal::Gap { from, .. } => Some(from + 1),
            Refusal::Differs { line, .. } => Some(*line),
            // The first line the desk has and the board's file lacks.
            Refusal::Ahead { file, .. } => Some(file + 1),
            _ => None,
        }
    }

    fn have(&self) -> Option<usize> {
        match self {
            Refusal::Gap { have, .. }
            | Refusal::Differs { have, .. }
            | Refusal::Ahead { have, .. } => Some(*have),
            _ => None,
        }
    }
}

/// The pushes' state: what is served, the event as last read, behind the lock that lets one
/// push at a time read the desk's copy, add to it and record in the event, and the nudge that
/// has the files looked at as soon as a push is written.
pub(super) struct Pushes {
    source: Arc<Source>,
    /// Taken before a push is given a blocking thread, so that pushes waiting for their turn
    /// do not hold threads of the runtime's small pool.
    turn: tokio::sync::Mutex<()>,
    held: Mutex<Held>,
    nudge: Nudge,
    /// The wrong tokens and codes each address tried (the floor's too).
    guesses: Arc<super::guesses::Guesses>,
}

impl Pushes {
    pub(super) fn new(
        source: Arc<Source>,
        nudge: Nudge,
        guesses: Arc<super::guesses::Guesses>,
    ) -> Pushes {
        // The boards' codes made now if the desk has none, for the desk screen to show them;
        // failing, the first code asked for says why.
        if let Some(db) = &source.db {
            let _ = BoardCodes::of_desk(db);
        }
        Pushes {
            source,
            turn: tokio::sync::Mutex::new(()),
            held: Mutex::default(),
            nudge,
            guesses,
        }
    }
}

/// The database open and its events as read, while its files keep `stamps`.
#[derive(Default)]
struct Held {
    /// The database's files as they were before it was read; `None`: to be read again.
    stamps: Option<Vec<Stamp>>,
    desk: Option<Desk>,
    /// By the event's name in the board's token.
    events: HashMap<String, OpenEvent>,
    /// The board (`EVENT/D/R/B`) of each code, every board of every event: made when a code
    /// is first asked for.
    codes: Option<HashMap<String, String>>,
}

impl Held {
    /// The database and event `name`, read again only when the database changed.
    fn event(&mut self, db: &Path, name: &str) -> Result<(&mut Desk, &mut OpenEvent), Refusal> {
        self.fresh(db)?;
        let Held { desk, events, .. } = self;
        let desk = desk.as_mut().ok_or(Refusal::NoDesk)?;
        let open = match events.entry(name.to_string()) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let id = desk.find_event(name).map_err(desk_err)?;
                e.insert(desk.load(id).map_err(desk_err)?)
            }
        };
        Ok((desk, open))
    }

    /// Read the database again if it changed.
    fn fresh(&mut self, db: &Path) -> Result<(), Refusal> {
        let now = stamps(&db_files(db));
        if self.stamps.as_ref() != Some(&now) || self.desk.is_none() {
            *self = Held::default();
            self.desk = Some(Desk::open(db).map_err(desk_err)?);
            self.stamps = Some(now);
        }
        Ok(())
    }

    /// The board (`EVENT/D/R/B`) whose token or code `credential` is.
    fn board_of(&mut self, db: &Path, credential: &str) -> Result<String, Refusal> {
        let Some(code) = read_code(credential) else {
            return board_of_token(db, credential).ok_or(Refusal::Token);
        };
        self.fresh(db)?;
        if self.codes.is_none() {
            self.codes = Some(self.every_code(db)?);
        }
        let codes = self.codes.as_ref().ok_or(Refusal::NoDesk)?;
        codes.get(&code).cloned().ok_or(Refusal::Code(code))
    }

    /// The code of every board of every round paired in every event, and its board.
    fn every_code(&mut self, db: &Path) -> Result<HashMap<String, String>, Refusal> {
        let codes = BoardCodes::of_desk(db).map_err(desk_err)?;
        let desk = self.desk.as_ref().ok_or(Refusal::NoDesk)?;
        let names: Vec<String> = desk
            .events()
            .map_err(desk_err)?
            .into_iter()
            .map(|e| e.name)
            .collect();
        let mut all = HashMap::new();
        for name in names {
            let (_, open) = self.event(db, &name)?;
            let event = &open.event.info.name;
            for (d, division) in open.event.divisions.iter().enumerate() {
                for round in &division.rounds {
                    for board in &round.boards {
                        let key = format!("{event}/{}/{}/{}", d + 1, round.number, board.number);
                        all.insert(codes.code_of(&key), key);
                    }
                }
            }
        }
        Ok(all)
    }
}

fn answer(result: Result<usize, Refusal>) -> Response {
    match result {
        Ok(have) => axum::Json(serde_json::json!({ "have": have })).into_response(),
        Err(r) => refused(&r),
    }
}

/// A refusal's answer: its status, `{refused, have}`, and the reason for the log.
fn refused(r: &Refusal) -> Response {
    let body = serde_json::json!({ "refused": r.to_string(), "have": r.have() });
    let reason = super::listen::Reason(r.to_string());
    (r.status(), axum::Extension(reason), axum::Json(body)).into_response()
}

fn token(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    Some(v.strip_prefix("Bearer ")?.trim().to_string())
}

async fn run(
    p: Arc<Pushes>,
    peer: Option<SocketAddr>,
    headers: HeaderMap,
    push: Option<Push>,
) -> Response {
    let Some(token) = token(&headers) else {
        return answer(Err(Refusal::Token));
    };
    if !p.guesses.allowed(peer, Instant::now()) {
        return answer(Err(Refusal::Guesses));
    }
    let turn = Arc::clone(&p);
    let _turn = turn.turn.lock().await;
    let done = tokio::task::spawn_blocking(move || {
        let mut held = p
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let writes = push.is_some();
        let done = accept(&p.source, &mut held, &token, push);
        if writes && done.is_ok() {
            // The live pages show it now, not at the watcher's next look.
            p.nudge.look_now();
        }
        p.count_miss(peer, &done);
        done
    })
    .await;
    answer(done.unwrap_or_else(|e| Err(Refusal::Desk(e.to_string()))))
}

impl Pushes {
    /// Count a wrong token or code `peer` tried, if `done` refused one.
    fn count_miss<T>(&self, peer: Option<SocketAddr>, done: &Result<T, Refusal>) {
        if matches!(done, Err(Refusal::Token | Refusal::Code(_))) {
            self.guesses.missed(peer, Instant::now());
        }
    }
}

/// The client's address, as the listener put it on the request.
type Peer = Option<axum::Extension<SocketAddr>>;

fn peer_of(peer: Peer) -> Option<SocketAddr> {
    peer.map(|axum::Extension(a)| a)
}

/// `GET /push`: the lines the desk has of the board.
pub(super) async fn have(State(p): State<Arc<Pushes>>, peer: Peer, headers: HeaderMap) -> Response {
    run(p, peer_of(peer), headers, None).await
}

/// `POST /push`: lines of the board's match file.
pub(super) async fn push(
    State(p): State<Arc<Pushes>>,
    peer: Peer,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    match serde_json::from_slice::<Push>(&body) {
        Ok(push) => run(p, peer_of(peer), headers, Some(push)).await,
        Err(e) => answer(Err(Refusal::Bad(format!("not a push: {e}")))),
    }
}

/// `GET /pairing`: the pairing of the board whose token is given, for a board's laptop that
/// joins with its token alone: `{event, division, round, board, file, settings}`, `settings`
/// being the match settings the desk's own match for the board has
/// ([`crate::event::match_settings`]: players and colours, the round's ballots, games, rules,
/// time control, the event's heading) and `file` the name the desk keeps its copy under.
/// Refused as a push is, with the reason.
pub(super) async fn pairing(
    State(p): State<Arc<Pushes>>,
    peer: Peer,
    headers: HeaderMap,
) -> Response {
    let Some(token) = token(&headers) else {
        return refused(&Refusal::Token);
    };
    let peer = peer_of(peer);
    if !p.guesses.allowed(peer, Instant::now()) {
        return refused(&Refusal::Guesses);
    }
    let done = tokio::task::spawn_blocking(move || {
        let mut held = p
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let done = board_pairing(&p.source, &mut held, &token);
        p.count_miss(peer, &done);
        done
    })
    .await;
    match done.unwrap_or_else(|e| Err(Refusal::Desk(e.to_string()))) {
        Ok(pairing) => axum::Json(pairing).into_response(),
        Err(r) => refused(&r),
    }
}

/// The pairing of the board of `token`, as [`pairing`] answers it.
fn board_pairing(s: &Source, held: &mut Held, token: &str) -> Result<serde_json::Value, Refusal> {
    let db = s.db.as_deref().ok_or(Refusal::NoDesk)?;
    let key = held.board_of(db, token)?;
    let (event, d, r, b) = board_key(&key).ok_or(Refusal::Token)?;
    let (_, open) = held.event(db, &event)?;
    let (division, _, board) = find_board(&open.event, d, r, b).map_err(bad)?;
    let settings = crate::event::match_settings(
        &crate::director::MatchSettings::default(),
        &open.event.info.name,
        division,
        r,
        board,
    )
    .map_err(bad)?;
    let copy = copy_path(db, &event, d, r, b);
    let file = copy.file_name().unwrap_or_default().to_string_lossy();
    Ok(serde_json::json!({
        "event": event,
        "division": d,
        "round": r,
        "board": b,
        "file": file,
        "settings": settings,
    }))
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

fn bad(e: impl std::fmt::Display) -> Refusal {
    Refusal::Bad(e.to_string())
}

fn accept(s: &Source, held: &mut Held, token: &str, push: Option<Push>) -> Result<usize, Refusal> {
    let db = s.db.as_deref().ok_or(Refusal::NoDesk)?;
    let key = held.board_of(db, token)?;
    let (event, d, r, b) = board_key(&key).ok_or(Refusal::Token)?;
    let from = push.as_ref().map(|p| p.from);
    let done = accept_board(db, held, &event, (d, r, b), push);
    keep_last_refusal(db, &event, (d, r, b), from, &done);
    done
}

/// Keep what the desk answered a push (`from`: its first line, 0-based; `None`: no push) from
/// board `at` where the director sees it (the desk screen, the director's page): a refusal of
/// the board's lines is kept beside its copy, and forgotten once a push is accepted. The
/// desk's own failures are not the board's and are not kept; nor is the same refusal twice
/// within a second. A note that cannot be written changes nothing of the push's answer.
fn keep_last_refusal(
    db: &Path,
    event: &str,
    at: (usize, u32, u32),
    from: Option<usize>,
    done: &Result<usize, Refusal>,
) {
    let Some(from) = from else { return };
    let refusal = match done {
        Ok(_) => {
            let _ = crate::store::clear_refusal(db, event, at);
            return;
        }
        Err(Refusal::Token | Refusal::NoDesk | Refusal::Desk(_)) => return,
        Err(r) => r,
    };
    let kept = BoardRefusal {
        at: chrono::Utc::now(),
        status: refusal.status().as_u16(),
        reason: refusal.to_string(),
        line: Some(refusal.line().unwrap_or(from + 1)),
    };
    let again = crate::store::board_refusal(db, event, at).is_some_and(|was| {
        let recent = (kept.at - was.at) < chrono::TimeDelta::seconds(1);
        recent && (was.status, &was.reason, was.line) == (kept.status, &kept.reason, kept.line)
    });
    if !again && super::desk_files::check_boards_folder(db).is_ok() {
        let _ = crate::store::keep_refusal(db, event, at, &kept);
    }
}

/// [`accept`] for board `at` (division, round, board) of `event`, its token checked.
fn accept_board(
    db: &Path,
    held: &mut Held,
    event: &str,
    at: (usize, u32, u32),
    push: Option<Push>,
) -> Result<usize, Refusal> {
    let (d, r, b) = at;
    let copy = copy_path(db, event, d, r, b);
    super::desk_files::check_boards_folder(db).map_err(Refusal::Desk)?;
    let kept = std::fs::read_to_string(&copy).unwrap_or_default();
    let have = kept.lines().count();
    let Some(push) = push else {
        return Ok(have);
    };
    let new = new_lines(&kept, have, &push)?;
    if let Some(file) = push.total.filter(|&t| t < have) {
        return Err(Refusal::Ahead { file, have });
    }
    if have + new.len() == 0 {
        return Ok(0);
    }
    let text = kept + &new.concat();
    let after = MatchFile::from_bytes(text.as_bytes(), &copy).map_err(bad)?;
    if after.dropped.is_some() {
        return Err(Refusal::Bad("the last record is cut short".into()));
    }
    let (desk, open) = held.event(db, event)?;
    let actions = catch_up(&open.event, (d, r, b), &after.the_match, &copy)?;
    if !new.is_empty() {
        if let Some(dir) = copy.parent() {
            std::fs::create_dir_all(dir).map_err(desk_err)?;
        }
        crate::store::write_atomic(&copy, text.as_bytes()).map_err(desk_err)?;
    }
    if !actions.is_empty() {
        let recorded = desk.record(open, &actions, chrono::Utc::now());
        // The database changed (or may have): read it again at the next push.
        held.stamps = None;
        recorded.map_err(desk_err)?;
    }
    Ok(have + new.len())
}

/// What event `t` lacks of the board's copy at `copy` (division, round and board `at`,
/// its match `m`): the link to the copy, and the games the copy has finished that the event
/// has no result for (a result the event has is kept; a forfeit stands).
fn catch_up(
    t: &Tournament,
    at: (usize, u32, u32),
    m: &Match,
    copy: &Path,
) -> Result<Vec<Action>, Refusal> {
    let (d, r, b) = at;
    let (division, _, board) = find_board(t, d, r, b).map_err(bad)?;
    check_board_setup(m, division, r, board)
        .map_err(|e| Refusal::Bad(format!("not this board's match: {e}")))?;
    let games = board_result(m, division, r, board).map_err(bad)?;
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
    let had: &[BoardGameResult] = match &board.result {
        None => &[],
        Some(BoardResult::Games { games }) => games,
        Some(BoardResult::Forfeit { .. }) => return Ok(actions),
    };
    if let Some(lacked) = games.get(had.len()..).filter(|l| !l.is_empty()) {
        let games = had.iter().chain(lacked).copied().collect();
        actions.push(Action::Result {
            division: d - 1,
            round: r,
            board: b,
            result: BoardResult::Games { games },
        });
    }
    Ok(actions)
}

/// Record, for every event of the database `db`, what it lacks of the desk's copies of its
/// boards: serve does this as it starts, for a desk stopped after writing a copy and before
/// recording what it finished. What cannot be recorded is logged.
pub(super) fn catch_up_all(db: &Path, log: &Log) {
    if !db.is_file() {
        return;
    }
    let note = |e: &dyn std::fmt::Display| log.note(None, &format!("desk's copies: {e}"));
    let mut desk = match Desk::open(db) {
        Ok(d) => d,
        Err(e) => return note(&e),
    };
    let ids: Vec<_> = desk.events().map_or_else(
        |e| {
            note(&e);
            Vec::new()
        },
        |list| list.iter().map(|e| e.id).collect(),
    );
    for id in ids {
        let mut open = match desk.load(id) {
            Ok(o) => o,
            Err(e) => {
                note(&e);
                continue;
            }
        };
        let actions = event_catch_up(db, &open.event, &note);
        if !actions.is_empty()
            && let Err(e) = desk.record(&mut open, &actions, chrono::Utc::now())
        {
            note(&e);
        }
    }
}

/// What event `t` lacks of the desk's copies of its boards.
fn event_catch_up(db: &Path, t: &Tournament, note: &dyn Fn(&dyn std::fmt::Display)) -> Vec<Action> {
    let mut actions = Vec::new();
    for (k, division) in t.divisions.iter().enumerate() {
        for round in &division.rounds {
            for board in &round.boards {
                let at = (k + 1, round.number, board.number);
                let copy = copy_path(db, &t.info.name, at.0, at.1, at.2);
                if !copy.is_file() {
                    continue;
                }
                let lacked = load_match(&copy)
                    .map_err(bad)
                    .and_then(|f| catch_up(t, at, &f.the_match, &copy));
                match lacked {
                    Ok(a) => actions.extend(a),
                    Err(e) => note(&format!("{}: {e}", copy.display())),
                }
            }
        }
    }
    actions
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
