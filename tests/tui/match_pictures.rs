//! The match as pictures: the "who led" chart beside (or under) the by-ballot table of the
//! results, at 80x24 and 160x48, the table never cut for it; and a match game in review with
//! the time each side spent per move, from the match file's clock stamps.

use crossboard::director::{ColourMethod, RejectionPolicy, TieRule};
use crossboard::tui::StageKind;
use crossboard::tui::match_screen as screen;
use crossboard::tui::{App, FakeClock, Msg, ReviewScreen, Screen};
use crossboard::tui::{feed, render_text, test_app, type_text};
use std::path::Path;
use std::time::Duration;

/// A match of `ballots` ballots between Ann and Bob, saved in `dir`, at its first game.
fn match_app(clock: &FakeClock, w: u16, h: u16, ballots: u32, dir: &Path) -> App {
    match_of(["Ann", "Bob"], clock, (w, h), ballots, dir)
}

/// A match of `ballots` ballots between `names`, saved in `dir`, at its first game.
fn match_of(
    names: [&str; 2],
    clock: &FakeClock,
    (w, h): (u16, u16),
    ballots: u32,
    dir: &Path,
) -> App {
    let mut a = test_app(clock, w, h);
    a.matches.fixed_wall = Some("2026-11-30T12:00:00Z".parse().unwrap());
    a.matches.dir = Some(dir.to_path_buf());
    a.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    a.matches.defaults.rejection = RejectionPolicy::AllPlayed;
    a.matches.defaults.players = names.map(String::from);
    a.matches.defaults.ballots = ballots;
    type_text(&mut a, clock, "n\n1\n");
    to_game(&mut a, clock);
    a
}

/// Enter until a game is on (the draw, the ballot accepted, the game about to start).
fn to_game(a: &mut App, clock: &FakeClock) {
    for _ in 0..10 {
        if screen(a).stage() == StageKind::Game {
            return;
        }
        type_text(a, clock, "\n");
        feed(a, clock, [Msg::Tick]);
    }
    panic!("no game:\n{}", render_text(a));
}

/// Play the games: in each, the side named (`r` Red, `w` White) resigns at once; then the
/// results, and on to the next game but after the last.
fn play(a: &mut App, clock: &FakeClock, resigns: &str) {
    for (i, side) in resigns.chars().enumerate() {
        if i > 0 {
            to_game(a, clock);
        }
        type_text(a, clock, &format!("r{side}y\n"));
    }
}

#[test]
fn who_led_beside_or_under_the_table_at_80x24_and_160x48() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut a = match_app(&clock, 80, 24, 3, dir.path());
    // Ballot 1 to Ann 2-0, ballot 2 to Bob 0-2, ballot 3 to Bob 0-2: Ann led, then they
    // were level, then Bob led.
    play(&mut a, &clock, "wrwrrw");
    let text = render_text(&a);
    assert!(text.contains("Bob wins the match 4-2"), "{text}");
    assert!(text.contains("Who led"), "{text}");
    assert!(text.contains("^ Ann") && text.contains("v Bob"), "{text}");
    // The table keeps every row.
    for row in [" 1  11-Man", " 2  11-Man", " 3  11-Man"] {
        assert!(text.contains(row), "{row}:\n{text}");
    }
    insta::assert_snapshot!("results_who_led_80x24", text);
    let mut unicode = a.appearance.clone();
    unicode.ascii = false;
    a.appearance = unicode;
    super::review_graph::doc_screen("who-led", &render_text(&a));
    a.appearance = crossboard::tui::Appearance::plain();
    a.update(
        Msg::Resize(160, 48),
        crossboard::tui::TimeSource::now(&clock),
    );
    let text = render_text(&a);
    // Beside the table: on the table's header row.
    let header = text.lines().find(|l| l.contains("By ballot")).unwrap();
    assert!(header.contains("Who led"), "{text}");
    insta::assert_snapshot!("results_who_led_160x48", text);
}

#[test]
fn the_chart_gives_way_to_the_table_when_the_rows_need_the_room() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut a = match_app(&clock, 80, 24, 8, dir.path());
    play(&mut a, &clock, "wrrwrrwrwrwrwrw");
    let text = render_text(&a);
    assert!(!text.contains("Who led"), "{text}");
    for b in 1..=8 {
        assert!(
            text.contains(&format!(" {b}  11-Man")),
            "ballot {b}:\n{text}"
        );
    }
}

#[test]
fn a_match_game_in_review_shows_each_sides_time_from_the_match_file() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut a = match_app(&clock, 80, 24, 1, dir.path());
    // Red thinks 95 s, White 130 s, Red 20 s; then Red resigns.
    for secs in [95, 130, 20] {
        clock.advance(Duration::from_secs(secs));
        let g = screen(&a).game_match().playing().unwrap();
        let mv = g.game.position().legal_moves()[0].to_string();
        type_text(&mut a, &clock, &format!("{mv}\n"));
    }
    type_text(&mut a, &clock, "rry\nv");
    let text = render_text(&a);
    assert!(
        text.contains("Review . ballot 1, game 1: Ann v Bob"),
        "{text}"
    );
    assert!(text.contains("time Red 1:55  White 2:10"), "{text}");
    // A row a side, under the curve: Red's two moves, White's one, in their columns.
    let row = |glyph: char| {
        text.lines()
            .find(|l| l.contains(&format!("|{glyph}  ")))
            .unwrap_or_else(|| panic!("{glyph}'s row:\n{text}"))
            .to_string()
    };
    let (red, white) = (row('r'), row('w'));
    let cols = |l: &str| -> Vec<usize> {
        let start = l.rfind("|r  ").or_else(|| l.rfind("|w  ")).unwrap() + 4;
        let end = l.rfind('|').unwrap();
        l[start..end]
            .char_indices()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(i, _)| i)
            .collect()
    };
    assert_eq!(cols(&red), [1, 3], "{red}");
    assert_eq!(cols(&white), [2], "{white}");
    // The same from the file the match was saved in.
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .unwrap();
    let m = crossboard::store::load_match(&file).unwrap().the_match;
    let g = m.current_game().unwrap();
    let mut b = test_app(&clock, 80, 24);
    b.screen = Screen::Review(ReviewScreen::of_match_game(&m, g));
    assert_eq!(render_text(&b), text);
    // A game without clock stamps says so.
    b.screen = Screen::Review(ReviewScreen::new(g.game.clone(), "Review".into()));
    assert!(render_text(&b).contains("no clock stamps"));
}

/// With "continue ballot by ballot until decided", a tied match says when and why an extra
/// ballot is drawn, on the results screen and in the match log, as it does for "retains".
#[test]
fn an_extra_ballot_of_a_tie_block_is_announced_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut a = test_app(&clock, 80, 24);
    a.matches.fixed_wall = Some("2026-11-30T12:00:00Z".parse().unwrap());
    a.matches.dir = Some(dir.path().to_path_buf());
    a.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    a.matches.defaults.rejection = RejectionPolicy::AllPlayed;
    a.matches.defaults.players = ["Ann".into(), "Bob".into()];
    a.matches.defaults.ballots = 1;
    a.matches.defaults.tie = TieRule::ContinueInBlocks { max_blocks: None };
    type_text(&mut a, &clock, "n\n1\n");
    to_game(&mut a, &clock);
    // Red resigns both games: one win each, 1-1 after ballot 1.
    play(&mut a, &clock, "rr");
    let said = "Tied 1-1 after ballot 1: ballot 2 is drawn to decide the match";
    let text = render_text(&a);
    assert!(text.contains(said), "{text}");
    type_text(&mut a, &clock, "L");
    let log = render_text(&a);
    assert!(
        log.contains("Tied 1-1 after ballot 1: ballot 2 is drawn"),
        "{log}"
    );
}

/// The row of the results holding both tables' headers.
fn table_header(text: &str) -> &str {
    text.lines()
        .find(|l| l.contains("result") && l.contains("opening"))
        .unwrap_or_else(|| panic!("no header row:\n{text}"))
}

#[test]
fn names_sharing_a_start_keep_what_tells_them_apart() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut a = match_of(["Player 1", "Player 2"], &clock, (80, 24), 3, dir.path());
    play(&mut a, &clock, "wrwrrw");
    let text = render_text(&a);
    // The points columns, headed by the names, keep their ends: never "Play. Play.".
    let header = table_header(&text);
    assert!(header.contains("Pla.1 Pla.2"), "{header}\n{text}");
    assert!(header.contains("Playe.1 Playe.2"), "{header}\n{text}");
    // An opening cut keeps its number.
    assert!(text.contains(".553 "), "{text}");
    // Long names sharing their start: each table tells them apart.
    let dir = tempfile::tempdir().unwrap();
    let mut a = match_of(
        ["Alexander Montgomery 1", "Alexander Montgomery 2"],
        &clock,
        (80, 24),
        3,
        dir.path(),
    );
    play(&mut a, &clock, "wrwrrw");
    let text = render_text(&a);
    for table in table_header(&text).split("||") {
        let words: Vec<&str> = table.split_whitespace().collect();
        let names = &words[words.len() - 2..];
        assert_ne!(names[0], names[1], "{table}\n{text}");
    }
    // The chart's title stays whole beside the first player's name, cut to fit.
    assert!(
        text.contains("+ Who led  ^ Alexander Montgom.1 +"),
        "{text}"
    );
    insta::assert_snapshot!("results_names_sharing_a_start_80x24", text);
}
