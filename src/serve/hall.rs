//! The hall display (`/hall`): every board of the current round as a grid of live boards for a
//! projector or a TV, large type on black, sized to the screen by its script (as many boards a
//! page as fit with pictures of at least 200 pixels), the pages and the standings in turn on a
//! timer. It keeps itself live from the event page's feed (`/live/event`): on the server it
//! costs what a spectator of `/` costs. Without JavaScript it shows the round and reloads.

use super::pages::{self, Frame, Picture};
use super::routes::{Shared, failed, read, shown};
use super::view::EventView;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::html;

/// Seconds a page of the display stays before the next, unless `?every=` says otherwise.
pub(super) const EVERY: u32 = 15;
/// The shortest and longest `?every=`.
const EVERY_RANGE: std::ops::RangeInclusive<u32> = 3..=3600;
/// Without JavaScript, the display reloads after this many seconds.
const REFRESH: u32 = 30;

/// The display's script: lays the boards out and turns the pages.
const SCRIPT: &str = include_str!("hall.js");

#[derive(serde::Deserialize)]
pub(super) struct HallQuery {
    every: Option<String>,
}

/// `/hall[?every=SECONDS]`.
pub(super) async fn hall(State(s): State<Shared>, Query(q): Query<HallQuery>) -> Response {
    let every = match q.every.as_deref() {
        None => EVERY,
        Some(text) => match super::routes::number::<u32>(text) {
            Some(n) if EVERY_RANGE.contains(&n) => n,
            _ => {
                let why = format!(
                    "every: {text:?} is not a number of seconds from {} to {}",
                    EVERY_RANGE.start(),
                    EVERY_RANGE.end()
                );
                return (StatusCode::BAD_REQUEST, Html(pages::not_found(&why))).into_response();
            }
        },
    };
    match read(&s, |s| s.event()).await {
        Ok(e) => Html(page(&e, every, shown(&s))).into_response(),
        Err(e) => failed(e),
    }
}

/// The display's page: the boards of every division's current round, then each division's
/// standings.
fn page(e: &EventView, every: u32, picture: Picture<'_>) -> String {
    let rounds: Vec<String> = e
        .divisions
        .iter()
        .filter(|d| d.round > 0)
        .map(|d| match e.divisions.len() {
            1 => format!("Round {}", d.round),
            _ => format!("{} round {}", d.name, d.round),
        })
        .collect();
    let body = html! {
        header {
            h1 { (e.name) }
            span { (rounds.join(" · ")) }
            span #page {}
        }
        div.boards #boards {
            @for d in &e.divisions { @for b in &d.boards { (pages::board_card(b, picture)) } }
        }
        @for d in &e.divisions { (pages::standings(d, 2)) }
    };
    let title = format!("{}: the hall", e.name);
    let every = every.to_string();
    let frame = Frame {
        live: Some("/live/event"),
        class: Some("hall"),
        refresh: Some(REFRESH),
        script: Some(SCRIPT),
    };
    pages::framed(
        &title,
        frame,
        html! { div #hall data-every=(every) { (body) } },
    )
}
