//! Results from the floor, `/result`: a board not played on crossboard has its result entered
//! from a phone. Each player has a code of their own for the board (printed on the result slip
//! and the pairings sheet, [`crate::store::BoardCodes::floor_code`]); `GET /result?code=C`
//! shows that player's board, both names and what has been entered, and a form of one row a
//! game (win, draw, loss), filled in with what the opponent entered, so that confirming is one
//! tap. `POST /result` (a form: `code`, then `g1`, `g2`, ... each `1`, `=` or `2` as the desk
//! types a game, or `result` as the desk types a board's result) records the player's entry in
//! the event's log ([`crate::event::Action::FloorResult`]): the board's result once both have
//! entered the same, a conflict for the director when they differ. The page answers in words.
//!
//! No cookie, no login, no script: the code in the body is the whole authority, so a forged
//! form from another site can do nothing its author could not do with the code. Wrong codes
//! are counted with the boards' ([`super::guesses`]); bodies are small.

use super::guesses::Guesses;
use super::view::{Source, open_served};
use super::watcher::Nudge;
use crate::director::Player;
use crate::event::{Action, Board, BoardResult, Division, FloorState, Tournament};
use crate::publish::sentences::{parse_result, result_text};
use crate::store::{BoardCodes, Desk, FloorSeat, OpenEvent, copy_path, read_code};
use axum::extract::{Form, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

/// The largest form, bytes.
pub(super) const MAX_BODY: usize = 4096;

/// The floor's state: what is served, the wrong codes counted, the watcher's nudge.
pub(super) struct FloorDesk {
    pub(super) source: Arc<Source>,
    pub(super) guesses: Arc<Guesses>,
    pub(super) nudge: Nudge,
    /// One entry at a time.
    pub(super) turn: tokio::sync::Mutex<()>,
}

/// Why an entry or a look was refused; nothing was recorded.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("{0:?} is not a code: a code is 8 letters and digits, as on your result slip")]
    NotACode(String),
    #[error("no board has the code {0}: check it against your result slip")]
    Code(String),
    #[error("too many wrong codes from this phone: wait a minute, then check the code")]
    Guesses,
    #[error("the desk serves no event")]
    NoDesk,
    #[error(
        "board {0} is played on crossboard: its result comes from its match file, not from \
         the floor"
    )]
    PlayedHere(u32),
    #[error("{0}")]
    Result(String),
    #[error("{0}")]
    Event(String),
    #[error("the desk could not record it: {0}")]
    Desk(String),
}

impl Refused {
    fn status(&self) -> StatusCode {
        match self {
            Refused::NotACode(_) | Refused::Code(_) => StatusCode::UNAUTHORIZED,
            Refused::Guesses => StatusCode::TOO_MANY_REQUESTS,
            Refused::NoDesk => StatusCode::NOT_FOUND,
            Refused::PlayedHere(_) | Refused::Event(_) => StatusCode::CONFLICT,
            Refused::Result(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Refused::Desk(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// A player's board as the page shows it: the event as it is now, and the seat.
struct Seen {
    event: Tournament,
    seat: FloorSeat,
    code: String,
    /// What the entry just did, in words (none: only a look).
    said: Option<String>,
}

impl Seen {
    fn division(&self) -> Option<&Division> {
        self.event.divisions.get(self.seat.division.checked_sub(1)?)
    }

    fn board(&self) -> Option<&Board> {
        self.division()?
            .round(self.seat.round)?
            .board(self.seat.board)
    }
}

/// The query of `GET /result`: the code, from the slip's QR code or typed.
#[derive(serde::Deserialize)]
pub(super) struct Ask {
    code: Option<String>,
}

/// The client's address, as the listener put it on the request.
pub(super) type Peer = Option<axum::Extension<SocketAddr>>;

/// `GET /result`: the form asking for a code, or with `?code=` the player's board.
pub(super) async fn look(
    State(f): State<Arc<FloorDesk>>,
    peer: Peer,
    query: Result<Query<Ask>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let code = query.ok().and_then(|Query(a)| a.code);
    let Some(code) = code.filter(|c| !c.trim().is_empty()) else {
        return answer(StatusCode::OK, ask_page(None));
    };
    run(f, peer, code, None).await
}

/// `POST /result`: a player's entry.
pub(super) async fn enter(
    State(f): State<Arc<FloorDesk>>,
    peer: Peer,
    form: Result<Form<HashMap<String, String>>, axum::extract::rejection::FormRejection>,
) -> Response {
    let mut fields = match form {
        Ok(Form(fields)) => fields,
        Err(rejection) => {
            let why = format!("not a result form ({rejection}): send code, then g1, g2, ...");
            return answer(rejection.status(), ask_page(Some(&why)));
        }
    };
    let code = fields.remove("code").unwrap_or_default();
    run(f, peer, code, Some(fields)).await
}

async fn run(
    f: Arc<FloorDesk>,
    peer: Peer,
    code: String,
    entry: Option<HashMap<String, String>>,
) -> Response {
    let peer = match admitted(&f.guesses, peer) {
        Ok(peer) => peer,
        Err(_) => return refused(&Refused::Guesses),
    };
    let held = Arc::clone(&f);
    let _turn = held.turn.lock().await;
    let done = tokio::task::spawn_blocking(move || {
        let writes = entry.is_some();
        let done = seat(&f.source, &code, entry.as_ref());
        if matches!(done, Err(Refused::NotACode(_) | Refused::Code(_))) {
            f.guesses.missed(peer, Instant::now());
        }
        if writes && done.as_ref().is_ok_and(|s| s.said.is_some()) {
            f.nudge.look_now();
        }
        done
    })
    .await;
    match done.unwrap_or_else(|e| Err(Refused::Desk(e.to_string()))) {
        Ok(seen) => answer(StatusCode::OK, board_page(&seen)),
        Err(r) => refused(&r),
    }
}

/// The client's address, or the answer when it has made too many wrong tries.
pub(super) fn admitted(guesses: &Guesses, peer: Peer) -> Result<Option<SocketAddr>, Response> {
    let peer = peer.map(|axum::Extension(a)| a);
    if guesses.allowed(peer, Instant::now()) {
        Ok(peer)
    } else {
        Err((
            StatusCode::TOO_MANY_REQUESTS,
            "too many wrong tries: wait a minute",
        )
            .into_response())
    }
}

fn answer(status: StatusCode, page: String) -> Response {
    let headers = [
        (header::CACHE_CONTROL, "no-store"),
        (header::REFERRER_POLICY, "no-referrer"),
    ];
    (status, headers, Html(page)).into_response()
}

fn refused(r: &Refused) -> Response {
    let reason = super::listen::Reason(r.to_string());
    let mut response = answer(r.status(), ask_page(Some(&r.to_string())));
    response.extensions_mut().insert(reason);
    response
}

/// The board of `code` and, with `entry`, the player's entry recorded.
fn seat(s: &Source, code: &str, entry: Option<&HashMap<String, String>>) -> Result<Seen, Refused> {
    let db = s.db.as_deref().ok_or(Refused::NoDesk)?;
    let code = read_code(code).ok_or_else(|| Refused::NotACode(shorten(code)))?;
    let mut desk = Desk::open(db).map_err(desk_err)?;
    let mut open = open_served(&desk, s.event.as_deref()).map_err(desk_err)?;
    let codes = BoardCodes::of_desk(db).map_err(desk_err)?;
    let seat = codes
        .floor_board(&open.event, &code)
        .ok_or_else(|| Refused::Code(code.clone()))?;
    let said = match entry {
        Some(fields) => Some(record(db, &mut desk, &mut open, seat, fields)?),
        None => None,
    };
    Ok(Seen {
        event: open.event,
        seat,
        code,
        said,
    })
}

/// Record `seat`'s entry, read from the form's `fields`; what it did, in words.
fn record(
    db: &std::path::Path,
    desk: &mut Desk,
    open: &mut OpenEvent,
    seat: FloorSeat,
    fields: &HashMap<String, String>,
) -> Result<String, Refused> {
    let FloorSeat {
        division: d,
        round,
        board,
        side,
    } = seat;
    if copy_path(db, &open.event.info.name, d, round, board).is_file() {
        return Err(Refused::PlayedHere(board));
    }
    let division = &open.event.divisions[d - 1];
    let games = division.settings.games_per_round;
    let result = parse_result(&typed(fields, games), games).map_err(Refused::Result)?;
    let b = division
        .round(round)
        .and_then(|r| r.board(board))
        .ok_or(Refused::NoDesk)?;
    if b.floor.entry(side) == Some(&result) && b.result.as_ref() != Some(&result) {
        return Ok("You had entered this result already: nothing changed.".into());
    }
    let action = Action::FloorResult {
        division: d - 1,
        round,
        board,
        side,
        result,
    };
    desk.record(open, &[action], chrono::Utc::now())
        .map_err(|e| match e {
            crate::store::DeskError::Refused(e) => Refused::Event(e.to_string()),
            e => desk_err(e),
        })?;
    Ok("Entered.".into())
}

/// The board's result as the desk types it, from the form: `result`, or `g1`, `g2`, ...
fn typed(fields: &HashMap<String, String>, games: u32) -> String {
    if let Some(text) = fields.get("result") {
        return text.clone();
    }
    (1..=games)
        .map_while(|g| fields.get(&format!("g{g}")).filter(|v| !v.is_empty()))
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ")
}

/// At most 20 characters of what was typed, for a message.
fn shorten(text: &str) -> String {
    text.trim().chars().take(20).collect()
}

fn desk_err(e: impl std::fmt::Display) -> Refused {
    Refused::Desk(e.to_string())
}

/// The page's own few rules: big targets for a thumb, nothing wider than the phone.
const STYLE: &str = "form.floor{max-width:26em}form.floor label{display:block}\
.floor input[type=text]{font-size:1.4em;width:100%;padding:.3em;letter-spacing:.1em}\
.game{border:1px solid #999;margin:.5em 0;padding:.3em}.game label{padding:.5em .2em;\
font-size:1.1em}.floor button{font-size:1.2em;padding:.6em 1em;width:100%;margin:.5em 0}\
.said{font-weight:bold}.conflict{color:#a00;font-weight:bold}";

/// The form asking for a code, with `why` the last one was refused.
fn ask_page(why: Option<&str>) -> String {
    let body = html! {
        style { (STYLE) }
        h1 { "Enter a result" }
        @if let Some(why) = why { p.conflict { (why) } }
        form.floor method="get" action="/result" {
            label for="code" { "Your code, from your result slip" }
            input #code type="text" name="code" autocomplete="off" autocapitalize="characters"
                spellcheck="false" required;
            button type="submit" { "Open my board" }
        }
    };
    super::pages::page("Enter a result", None, body)
}

/// The player's board: who plays whom, what was entered, and the form.
fn board_page(seen: &Seen) -> String {
    let (Some(d), Some(b)) = (seen.division(), seen.board()) else {
        return ask_page(Some("the board is no longer paired"));
    };
    let FloorSeat { round, side, .. } = seen.seat;
    let me = d.name(b.player(side));
    let title = format!("Round {round} board {}: {me}", b.number);
    let body = html! {
        style { (STYLE) }
        h1 { (title) }
        p { (seen.event.info.name) ", " (d.name) }
        p { "Red in game 1: " strong { (d.name(b.first)) } br;
            "White in game 1: " strong { (d.name(b.second)) } }
        @if let Some(said) = &seen.said { p.said { (said) } }
        (state_text(d, b, side))
        @if b.result.is_none() && b.match_file.is_none() {
            (form(d, b, seen))
        }
    };
    super::pages::page(&title, None, body)
}

/// Where the board's result stands, as its player `side` reads it.
fn state_text(d: &Division, b: &Board, side: Player) -> Markup {
    let name = |s: Player| d.name(b.player(s));
    let words = |r: &BoardResult| result_words(d, b, r);
    match b.floor.state(b.result.as_ref()) {
        _ if b.match_file.is_some() => html! {
            p { "This board is played on crossboard: its result comes from its match file." }
        },
        FloorState::Overruled(reason) => html! {
            p.said { "The director recorded " (b.result.as_ref().map(words).unwrap_or_default())
                ": " (reason) }
        },
        FloorState::Agreed => html! {
            p.said { "Recorded, as both players entered it: " (b.result.as_ref().map(words).unwrap_or_default()) ". The standings follow." }
        },
        FloorState::Conflict => html! {
            p.conflict { (name(Player::First)) " entered " (b.floor.first.as_ref().map(words).unwrap_or_default())
                "; " (name(Player::Second)) " entered " (b.floor.second.as_ref().map(words).unwrap_or_default())
                ". The director decides; either of you may enter the result again." }
        },
        FloorState::Waiting { by, result } if by == side => html! {
            p { "You entered: " (words(result)) ". " (name(side.other()))
                " confirms it with their own code." }
        },
        FloorState::Waiting { by, result } => html! {
            p { (name(by)) " entered: " (words(result))
                ". If that is right, confirm it below; if not, enter what was played." }
        },
        FloorState::Empty => match &b.result {
            Some(r) => html! { p.said { "The desk recorded " (words(r)) "." } },
            None => {
                html! { p { "Nothing entered yet. Enter the result; " (name(side.other())) " confirms it with their own code." } }
            }
        },
    }
}

/// A board's result in words: `Ann won game 1; game 2 drawn`.
fn result_words(d: &Division, b: &Board, r: &BoardResult) -> String {
    let name = |s: Player| d.name(b.player(s)).to_string();
    match r {
        BoardResult::Forfeit { present: Some(s) } => format!("{} won by forfeit", name(*s)),
        BoardResult::Forfeit { present: None } => "both forfeited".into(),
        BoardResult::Games { games } => {
            let text = result_text(Some(r));
            let each: Vec<String> = games
                .iter()
                .zip(1..)
                .map(|(g, n)| match g {
                    crate::event::BoardGameResult::Draw => format!("game {n} drawn"),
                    crate::event::BoardGameResult::Win { winner } => {
                        format!("{} won game {n}", name(*winner))
                    }
                    crate::event::BoardGameResult::Forfeit { winner } => {
                        format!("{} won game {n} by forfeit", name(*winner))
                    }
                })
                .collect();
            format!("{} ({text})", each.join("; "))
        }
    }
}

/// The entry form: one row a game, filled in with the opponent's entry (or the player's own).
fn form(d: &Division, b: &Board, seen: &Seen) -> Markup {
    let side = seen.seat.side;
    let shown = b.floor.entry(side.other()).or(b.floor.entry(side));
    let chosen: Vec<String> = match shown {
        Some(r @ BoardResult::Games { .. }) => result_text(Some(r))
            .split(' ')
            .map(|g| g.trim_end_matches('f').to_string())
            .collect(),
        _ => Vec::new(),
    };
    let games = d.settings.games_per_round;
    let choices = [
        ("1", d.name(b.first).to_string() + " won"),
        ("=", "Drawn".to_string()),
        ("2", d.name(b.second).to_string() + " won"),
    ];
    let button = if b.floor.entry(side.other()).is_some() {
        "Confirm this result"
    } else {
        "Enter this result"
    };
    html! {
        form.floor method="post" action="/result" {
            input type="hidden" name="code" value=(seen.code);
            @for g in 1..=games {
                fieldset.game {
                    legend { "Game " (g) }
                    @for (value, label) in &choices {
                        label {
                            input type="radio" name={ "g" (g) } value=(value) required
                                checked[chosen.get(g as usize - 1).map(String::as_str) == Some(*value)];
                            " " (label)
                        }
                    }
                }
            }
            button type="submit" { (button) }
        }
    }
}
