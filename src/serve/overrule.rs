//! The director's overrule of a board's result entered from the floor, `POST
//! /director/overrule`: a form of the director's page (the event's director token in the
//! body, as the page has it in its address), the board, its result as the desk types it
//! (`1 =`, `forfeit 2`) and the reason, recorded in the event's log as
//! [`crate::event::Action::Overrule`]. A wrong token is counted as a wrong code is and answered
//! as any address that is not one; a refused overrule says why and records nothing.

use super::floor::{FloorDesk, Peer, admitted};
use super::routes::missing;
use super::view::open_served;
use crate::event::{Action, Board, Division};
use crate::publish::hall::floor_text;
use crate::publish::sentences::{parse_result, result_text};
use crate::store::{Desk, OpenEvent, board_of_token, director_key};
use axum::extract::{Form, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{Markup, html};
use std::sync::Arc;
use std::time::Instant;

/// The overrule form.
#[derive(serde::Deserialize)]
pub(super) struct Overrule {
    key: String,
    division: usize,
    round: u32,
    board: u32,
    result: String,
    reason: String,
}

/// Why an overrule was not recorded.
enum Refused {
    /// Not the director's token: the address is not found.
    Key,
    /// The overrule does not hold (status, why).
    No(StatusCode, String),
}

/// `POST /director/overrule`.
pub(super) async fn overrule(
    State(f): State<Arc<FloorDesk>>,
    peer: Peer,
    form: Result<Form<Overrule>, axum::extract::rejection::FormRejection>,
) -> Response {
    let peer = match admitted(&f.guesses, peer) {
        Ok(peer) => peer,
        Err(answer) => return answer,
    };
    let Ok(Form(o)) = form else {
        return missing("no such page");
    };
    let held = Arc::clone(&f);
    let _turn = held.turn.lock().await;
    let done = tokio::task::spawn_blocking(move || {
        let done = record(&f, &o);
        match &done {
            Err(Refused::Key) => f.guesses.missed(peer, Instant::now()),
            Ok(_) => f.nudge.look_now(),
            Err(_) => {}
        }
        done.map(|()| format!("/director?key={}#b{}", o.key, o.board))
    })
    .await;
    match done {
        Ok(Ok(back)) => Redirect::to(&back).into_response(),
        Ok(Err(Refused::Key)) => missing("no such page"),
        Ok(Err(Refused::No(status, why))) => {
            let body = html! { h1 { "Not overruled" } p { (why) } };
            let page = super::pages::page("Not overruled", None, body);
            (status, [(header::CACHE_CONTROL, "no-store")], Html(page)).into_response()
        }
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    }
}

/// The desk and the served event, when `key` is its director's token.
fn director_event(f: &FloorDesk, key: &str) -> Result<(Desk, OpenEvent), Refused> {
    let db = f.source.db.as_deref().ok_or(Refused::Key)?;
    let holder = board_of_token(db, key).ok_or(Refused::Key)?;
    let unavailable = |e: String| Refused::No(StatusCode::SERVICE_UNAVAILABLE, e);
    let desk = Desk::open(db).map_err(|e| unavailable(e.to_string()))?;
    let open =
        open_served(&desk, f.source.event.as_deref()).map_err(|e| unavailable(e.to_string()))?;
    if holder != director_key(&open.event.info.name) {
        return Err(Refused::Key);
    }
    Ok((desk, open))
}

/// Division `division` (from 1) of `open`.
fn division_of(open: &OpenEvent, division: usize) -> Result<&Division, Refused> {
    division
        .checked_sub(1)
        .and_then(|k| open.event.divisions.get(k))
        .ok_or_else(|| Refused::No(StatusCode::NOT_FOUND, "no such division".into()))
}

/// Check the key and record the overrule.
fn record(f: &FloorDesk, o: &Overrule) -> Result<(), Refused> {
    let (mut desk, mut open) = director_event(f, &o.key)?;
    let games = division_of(&open, o.division)?.settings.games_per_round;
    let result = parse_result(&o.result, games)
        .map_err(|e| Refused::No(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    let action = Action::Overrule {
        division: o.division - 1,
        round: o.round,
        board: o.board,
        result,
        reason: o.reason.trim().to_string(),
    };
    desk.record(&mut open, &[action], chrono::Utc::now())
        .map_err(|e| Refused::No(StatusCode::CONFLICT, e.to_string()))
}

/// The board an overrule is asked for: `GET /director/overrule?key=K&division=D&round=R&board=B`.
#[derive(serde::Deserialize)]
pub(super) struct Ask {
    key: String,
    division: usize,
    round: u32,
    board: u32,
}

/// `GET /director/overrule`: the form for one board, on a page of its own (the director's
/// page reloads itself, which would lose what is typed).
pub(super) async fn ask(
    State(f): State<Arc<FloorDesk>>,
    peer: Peer,
    query: Result<Query<Ask>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let peer = match admitted(&f.guesses, peer) {
        Ok(peer) => peer,
        Err(answer) => return answer,
    };
    let Ok(Query(a)) = query else {
        return missing("no such page");
    };
    let done = tokio::task::spawn_blocking(move || {
        let page = ask_page(&f, &a);
        if matches!(page, Err(Refused::Key)) {
            f.guesses.missed(peer, Instant::now());
        }
        page
    })
    .await;
    match done {
        Ok(Ok(page)) => ([(header::CACHE_CONTROL, "no-store")], Html(page)).into_response(),
        Ok(Err(Refused::Key)) => missing("no such page"),
        Ok(Err(Refused::No(status, why))) => (status, Html(why)).into_response(),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    }
}

fn ask_page(f: &FloorDesk, a: &Ask) -> Result<String, Refused> {
    let (_, open) = director_event(f, &a.key)?;
    let d = division_of(&open, a.division)?;
    let b = d
        .round(a.round)
        .and_then(|r| r.board(a.board))
        .ok_or_else(|| Refused::No(StatusCode::NOT_FOUND, "no such board".into()))?;
    let title = format!("Overrule round {} board {}", a.round, b.number);
    let body = html! {
        h1 { (title) }
        p { (d.name(b.first)) " (first player, Red in game 1) against " (d.name(b.second)) }
        p { (floor_text(d, b, true).unwrap_or_else(|| "Nothing entered from the floor.".into())) }
        (form(&a.key, a.division, a.round, d, b))
        p { a href={ "/director?key=" (a.key) } { "Back to the hall" } }
    };
    Ok(super::pages::page(&title, None, body))
}

/// The form that overrules board `b` of round `round` of division `d` (number `number`, from
/// 1) on the director's page `key` opened.
pub(super) fn form(key: &str, number: usize, round: u32, d: &Division, b: &Board) -> Markup {
    let first = result_text(b.floor.first.as_ref().or(b.floor.second.as_ref()));
    html! {
        form.overrule method="post" action="/director/overrule" {
            input type="hidden" name="key" value=(key);
            input type="hidden" name="division" value=(number);
            input type="hidden" name="round" value=(round);
            input type="hidden" name="board" value=(b.number);
            p {
                strong { (d.name) ", board " (b.number) ": " }
                label { "Result (as the desk types it: 1, = or 2 a game, from the first player's side) "
                    input type="text" name="result" value=(first) size="8" required; }
                " "
                label { "Reason " input type="text" name="reason" required; }
                " "
                button type="submit" { "Overrule" }
            }
        }
    }
}
