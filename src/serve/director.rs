//! The director's page, `/director?key=TOKEN`: the hall as the desk screen shows it, for the
//! director's second laptop or tablet. For every board of each division's current round:
//! joined or not, the last push and its age, game and move, both clocks, the result pending or
//! recorded, and the last push the desk refused with its reason ([`crate::store::board_hall`],
//! the same reading as the desk screen's); who entered a board's result from the floor, a
//! conflict, and under the table a form to overrule it with a reason ([`super::overrule`]). It reloads itself every few seconds (`Refresh`).
//!
//! The key is the event's director token (`crossboard event token EVENT --director`); without
//! it, or with another, the address is not found, as any address that is not one: nothing is
//! said of the event. The page is neither cached nor indexed, and sends no referrer.

use super::routes::{Shared, missing, read};
use super::view::{Source, ViewError};
use crate::event::{Board, Division};
use crate::publish::hall::{
    clocks_text, floor_text, pushed_age, refusal_text, stand_text, time_of_day,
};
use crate::publish::sentences::result_text;
use crate::store::{BoardHall, Stand, board_hall, board_of_token, director_key};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};
use std::path::Path;
use std::time::SystemTime;

/// How often the page reloads itself, seconds.
const REFRESH: &str = "5";

/// The page's query: `key`, the director's token.
#[derive(serde::Deserialize)]
pub(super) struct Key {
    key: Option<String>,
}

/// `GET /director?key=TOKEN`.
pub(super) async fn page(
    State(s): State<Shared>,
    query: Result<Query<Key>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Some(key) = query.ok().and_then(|Query(k)| k.key) else {
        return missing("no such page");
    };
    match read(&s, move |s| director_page(s, &key)).await {
        Ok(Some(html)) => (
            [
                (header::CACHE_CONTROL, "no-store"),
                (header::REFERRER_POLICY, "no-referrer"),
                (header::HeaderName::from_static("x-robots-tag"), "noindex"),
                (header::REFRESH, REFRESH),
            ],
            Html(html),
        )
            .into_response(),
        Ok(None) => missing("no such page"),
        Err(e) => missing(&e.to_string()),
    }
}

/// The page, when `key` is the served event's director token (`None`: it is not).
pub(super) fn director_page(s: &Source, key: &str) -> Result<Option<String>, ViewError> {
    let Some(db) = s.db.as_deref() else {
        return Ok(None);
    };
    // The key is checked before anything of the event is read.
    let Some(holder) = board_of_token(db, key) else {
        return Ok(None);
    };
    // The director sees the desk's files as they are, whatever the public's delay.
    let t = s.tournament_now()?;
    if holder != director_key(&t.info.name) {
        return Ok(None);
    }
    let now = SystemTime::now();
    let body = html! {
        h1 { (t.info.name) ": the hall" }
        p { "As the desk's files say at " (time_of_day(now)) "; this page reloads every "
            (REFRESH) " seconds." }
        @for (k, d) in t.divisions.iter().enumerate() {
            (division(db, (&t.info.name, key), k + 1, d, now))
        }
    };
    let title = format!("{}: the hall", t.info.name);
    Ok(Some(super::pages::page(&title, None, body)))
}

/// Division `d` (number `number`, from 1): its current round's boards.
fn division(
    db: &Path,
    (event, key): (&str, &str),
    number: usize,
    d: &Division,
    now: SystemTime,
) -> Markup {
    let g = d.settings.games_per_round;
    let Some(r) = d.round(d.paired_rounds()) else {
        return html! { h2 { (d.name) } p { "No round paired yet." } };
    };
    html! {
        h2 { (d.name) ", round " (r.number) }
        div.scroll { table {
            thead { tr {
                th { "Bd" } th { "First" } th { "Second" } th { "Joined" } th { "Last push" }
                th { "Game, move" } th { "Clocks" } th { "Result" } th { "Last refusal" }
                th { "From the floor" }
            } }
            tbody {
                @for b in &r.boards {
                    (row(d, b, g, board_hall(db, event, number, r.number, b, g), now))
                }
            }
        } }
        @for b in r.boards.iter().filter(|b| !b.floor.is_empty()) {
            p { a href={ "/director/overrule?key=" (key) "&division=" (number) "&round=" (r.number)
                "&board=" (b.number) } { "Overrule board " (b.number) "'s result from the floor" } }
        }
    }
}

/// Board `b`'s row (`g` games a board), `hall` as the desk's files tell it.
fn row(d: &Division, b: &Board, g: u32, hall: Option<BoardHall>, now: SystemTime) -> Markup {
    let hall = hall.unwrap_or(BoardHall {
        stand: Stand::NotJoined,
        pushed: None,
        clocks: None,
        refusal: None,
    });
    let joined = if hall.stand == Stand::NotJoined {
        "no"
    } else {
        "yes"
    };
    let pushed = hall.pushed.map_or_else(
        || "-".to_string(),
        |p| format!("{} ({} ago)", time_of_day(p), pushed_age(p, now)),
    );
    let stand = match hall.stand {
        Stand::NotJoined => "-".to_string(),
        s => stand_text(&s, true),
    };
    let clocks = hall
        .clocks
        .map_or_else(|| "-".into(), |c| clocks_text(c, true));
    let state = if b.is_complete(g) {
        " (recorded)"
    } else if matches!(hall.stand, Stand::Pending { .. }) {
        " (pending)"
    } else {
        ""
    };
    html! {
        tr id={ "b" (b.number) } {
            td { (b.number) }
            td { (d.name(b.first)) }
            td { (d.name(b.second)) }
            td { (joined) }
            td { (pushed) }
            td { (stand) }
            td { (clocks) }
            td { (result_text(b.result.as_ref())) (state) }
            @if let Some(r) = &hall.refusal {
                td.refused { (refusal_text(r)) }
            } @else {
                td { "-" }
            }
            td { (floor_text(d, b, true).unwrap_or_else(|| "-".into())) }
        }
    }
}
