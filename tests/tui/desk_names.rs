//! Names at the desk: a player's name is refused past the length a match on crossboard takes
//! (`NAME_MAX_CHARS`), so every board entered can be played on crossboard with `P`, even in
//! an event and division of the longest names; the files named after the event (exports,
//! match files) have no stray `-`.

use crossboard::director::NAME_MAX_CHARS;
use crossboard::event::MAX_TEXT;
use crossboard::tui::DeskScreen;
use crossboard::tui::testing::{render_text, test_app, type_text};
use crossboard::tui::{App, FakeClock, Screen};
use std::path::Path;

fn desk_app(dir: &Path, clock: &FakeClock) -> App {
    let mut app = test_app(clock, 80, 24);
    app.screen = Screen::Desk(Box::new(DeskScreen::new(Some(dir.join("desk.sqlite3")))));
    app
}

/// A name of exactly `len` characters, its end recognisable.
fn name(start: &str, len: usize) -> String {
    let fill = len - start.chars().count() - 3;
    format!("{start}{}END", "x".repeat(fill))
}

/// Typing a player's name past the limit is refused at the key, saying the limit; the name
/// as typed up to it is entered whole.
#[test]
fn a_player_name_past_the_limit_is_refused_as_it_is_typed() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock);
    type_text(&mut app, &clock, "nClub Open\ndOpen swiss:3 2\na");
    let long = name("Annabelle", NAME_MAX_CHARS);
    type_text(&mut app, &clock, &format!("{long}zz"));
    let text = render_text(&app);
    assert!(
        text.contains(&format!("at most {NAME_MAX_CHARS} characters")),
        "{text}"
    );
    type_text(&mut app, &clock, "\n\x1b");
    let desk = crossboard::store::Desk::open(&dir.path().join("desk.sqlite3")).unwrap();
    let open = desk.load(desk.events().unwrap()[0].id).unwrap();
    let entered: Vec<&str> = open.event.divisions[0]
        .entrants
        .iter()
        .map(|e| e.info.name.as_str())
        .collect();
    assert_eq!(entered, [long.as_str()]);
}

/// Players of the longest names, in an event and a division of the longest names the desk
/// takes: `P` opens the board's match, the names whole, the heading within the match's
/// limit, saying the round and board.
#[test]
fn a_board_of_the_longest_names_is_played_on_crossboard() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock);
    let event = name("Grand Open", MAX_TEXT);
    // The division's line also says its format and games.
    let division = name("Masters", MAX_TEXT - 20);
    type_text(
        &mut app,
        &clock,
        &format!("n{event}\nd{division} swiss:3 2\na"),
    );
    let players = [
        name("Annabelle", NAME_MAX_CHARS),
        name("Bartholomew", NAME_MAX_CHARS),
    ];
    for p in &players {
        type_text(&mut app, &clock, &format!("{p}\n"));
    }
    type_text(&mut app, &clock, "\x1bpP");
    let Screen::Match(s) = &app.screen else {
        panic!("not on the match screen: {}", render_text(&app));
    };
    let st = s.game_match().settings();
    let mut got = st.players.clone();
    got.sort();
    assert_eq!(got, players);
    assert!(
        st.event.chars().count() <= crossboard::director::EVENT_MAX_CHARS,
        "{}",
        st.event
    );
    assert!(st.event.starts_with("Grand Open"), "{}", st.event);
    assert!(st.event.ends_with(", round 1 board 1"), "{}", st.event);
    assert!(st.event.contains('…'), "{}", st.event);
}

/// An event named with symbols around it: its match files and exports are named from its
/// words, with no leading, trailing or doubled `-`.
#[test]
fn files_named_after_the_event_have_no_stray_dashes() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock);
    type_text(
        &mut app,
        &clock,
        "n★ #1 Spring  Open! ★\nd(Open) swiss:3 2\na",
    );
    for p in ["Ann", "Bob"] {
        type_text(&mut app, &clock, &format!("{p}\n"));
    }
    type_text(&mut app, &clock, "\x1be");
    let html = dir.path().join("exports/1-spring-open-open.html");
    assert!(html.is_file(), "{}", render_text(&app));
    type_text(&mut app, &clock, "pP");
    let file = dir.path().join(format!(
        "matches/1-spring-open-open-r1-b1.{}",
        crossboard::store::EXTENSION
    ));
    assert!(file.is_file(), "{}", render_text(&app));
}

/// The round's pairings give the names the width there is: at 80 columns, names of 26
/// characters stand whole beside the result and state columns.
#[test]
fn the_pairings_give_names_the_width_there_is() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock);
    type_text(&mut app, &clock, "nClub Open\ndOpen swiss:3 2\na");
    let players = [name("Annabelle", 26), name("Bartholomew", 26)];
    for p in &players {
        type_text(&mut app, &clock, &format!("{p}\n"));
    }
    type_text(&mut app, &clock, "\x1bp");
    let text = render_text(&app);
    let row = text
        .lines()
        .find(|l| l.contains("waiting"))
        .unwrap_or_else(|| panic!("no board row:\n{text}"));
    for p in &players {
        assert!(row.contains(p.as_str()), "{p}: {row}\n{text}");
    }
    assert!(!row.contains('…'), "{row}");
}

/// `I` imports an entry list at the desk: a list with a problem shows it, naming file, line
/// and field, and enters nobody; a clean list shows its summary and, once confirmed, enters
/// every player.
#[test]
fn an_entry_list_is_imported_at_the_desk_after_its_report() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock);
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "Name,Rating\nAnn,1500\nBob,fast\n").unwrap();
    let good = dir.path().join("good.csv");
    std::fs::write(&good, "Name;Rating\nAnn;1500\nBob;\n").unwrap();
    type_text(&mut app, &clock, "nClub Open\ndOpen swiss:3 2\nI");
    type_text(&mut app, &clock, &format!("{}\n", bad.display()));
    let shown = render_text(&app)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(shown.contains("nothing imported: 1 problem(s)"), "{shown}");
    type_text(&mut app, &clock, &format!("I{}\n", good.display()));
    let shown = render_text(&app)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(shown.contains("Import these 2 player(s) (y/n)"), "{shown}");
    type_text(&mut app, &clock, "y\n");
    let desk = crossboard::store::Desk::open(&dir.path().join("desk.sqlite3")).unwrap();
    let open = desk.load(desk.events().unwrap()[0].id).unwrap();
    let entered: Vec<(&str, Option<u32>)> = open.event.divisions[0]
        .entrants
        .iter()
        .map(|e| (e.info.name.as_str(), e.info.rating))
        .collect();
    assert_eq!(entered, [("Ann", Some(1500)), ("Bob", None)]);
}
