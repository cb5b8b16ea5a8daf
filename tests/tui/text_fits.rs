//! Text at the edge of the screen: questions whose text wraps keep their keys, and what is too
//! long for its place is shortened with the marker (`…`), keeping the part that matters (the
//! end of a file's name); the results tables give names the width there is.

use crossboard::tui::{App, Appearance, FakeClock};
use crossboard::tui::{render_text, run_script, test_app, type_text};

/// Up to the first game: set up, toss, draw, accept, start the clock.
const GAME: &str = "n\nh<tick>r\n\n\na\n\n";

fn app(clock: &FakeClock, dir: &std::path::Path, w: u16, h: u16) -> App {
    let mut app = test_app(clock, w, h);
    app.appearance = Appearance::from_flags(false, false, None);
    app.matches.dir = Some(dir.to_path_buf());
    app.matches.defaults.ballots = 1;
    app
}

/// The screen's text on one line, its spaces collapsed.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_director_question_that_wraps_keeps_its_keys_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = app(&clock, dir.path(), 80, 24);
    let reason = "the flag fell while the clock was being fixed, END";
    assert_eq!(reason.chars().count(), 50);
    run_script(&mut app, &clock, &format!("{GAME}Dyr\t{reason}\n"));
    let text = render_text(&app);
    let all = flat(&text);
    assert!(all.contains("Record the game as Red wins"), "{text}");
    assert!(all.contains("fixed, END)?"), "the reason whole:\n{text}");
    assert!(all.contains("y yes n no (Esc)"), "the keys:\n{text}");
}

#[test]
fn leaving_a_match_saved_under_a_long_path_keeps_the_keys_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("a".repeat(60)).join("b".repeat(60));
    std::fs::create_dir_all(&deep).unwrap();
    let clock = FakeClock::new();
    let mut app = app(&clock, &deep, 80, 24);
    run_script(&mut app, &clock, &format!("{GAME}q"));
    let text = render_text(&app);
    let all = flat(&text);
    assert!(all.contains("Leave the match"), "{text}");
    assert!(all.contains("Leave now?"), "{text}");
    assert!(all.contains("y yes n no (Esc)"), "the keys:\n{text}");
}

#[test]
fn the_clock_note_of_a_paused_clock_keeps_the_moves_to_the_control_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = app(&clock, dir.path(), 80, 24);
    app.matches.defaults.time_control = "30/60".parse().unwrap();
    // The director pauses the clocks: the face of the side to move says so first.
    run_script(&mut app, &clock, &format!("{GAME}Dypa dispute\ny"));
    let text = render_text(&app);
    assert!(text.contains("paused"), "{text}");
    let notes: Vec<&str> = text.lines().filter(|r| r.contains("30 mo")).collect();
    assert_eq!(notes.len(), 2, "both faces say it:\n{text}");
    for row in notes {
        assert!(row.contains("30 moves to control"), "cut: {row:?}\n{text}");
    }
}

/// The names of the players in the export tests: long, so the match file's name is long.
const LONG_NAMES: [&str; 2] = ["Annabelle Featherstonehaugh", "Bartholomew Cholmondeley"];

/// The name of the one PDN file in `dir`.
fn exported(dir: &std::path::Path) -> String {
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdn"))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    names[0].clone()
}

#[test]
fn the_export_message_keeps_the_file_name_at_80x24() {
    for (when, script) in [
        ("in a game", format!("{GAME}e")),
        ("between games", format!("{GAME}rwy\ne")),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let clock = FakeClock::new();
        let mut app = app(&clock, dir.path(), 80, 24);
        app.matches.defaults.players = LONG_NAMES.map(String::from);
        run_script(&mut app, &clock, &script);
        let name = exported(dir.path());
        let text = render_text(&app);
        // The name is long for a status row beside the key hint: its end shows, after the
        // marker.
        let end = &name[name.len() - 40..];
        let row = text
            .lines()
            .find(|r| r.contains(end))
            .unwrap_or_else(|| panic!("{when}: the end of {name}:\n{text}"));
        assert!(row.contains('…'), "{when}: the path marked as cut:\n{text}");
    }
}

#[test]
fn the_match_over_line_stays_after_an_export_at_100_columns() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = app(&clock, dir.path(), 100, 24);
    app.matches.defaults.players = LONG_NAMES.map(String::from);
    run_script(&mut app, &clock, &format!("{GAME}rwy\n\n\nrwy\ne"));
    let name = exported(dir.path());
    let text = render_text(&app);
    assert!(text.contains("Match over"), "{text}");
    assert!(text.contains(&name), "{name} whole:\n{text}");
    assert!(
        flat(&text).contains("The match is over: e exports every game, q goes home"),
        "{text}"
    );
}

#[test]
fn the_list_of_a_pdn_file_under_a_long_path_keeps_the_file_name_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("c".repeat(50)).join("d".repeat(50));
    std::fs::create_dir_all(&deep).unwrap();
    let file = deep.join("one_bad_game.pdn");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/pdn/one_bad_game.pdn"
        ),
        &file,
    )
    .unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.appearance = Appearance::from_flags(false, false, None);
    type_text(&mut app, &clock, &format!("o{}\n", file.display()));
    let text = render_text(&app);
    let title = text
        .lines()
        .find(|r| r.contains("Games in"))
        .unwrap_or_else(|| panic!("the list's title:\n{text}"));
    assert!(title.contains("…"), "the path marked as cut: {title:?}");
    assert!(
        title.contains("dd/one_bad_game.pdn "),
        "the file's name: {title:?}"
    );
}

/// The results between the games of the first ballot, `w` columns wide.
fn results_at(w: u16, names: [&str; 2]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = app(&clock, dir.path(), w, 24);
    app.matches.defaults.players = names.map(String::from);
    run_script(&mut app, &clock, &format!("{GAME}rwy\n"));
    render_text(&app)
}

/// The row of the tables that starts with `start` (after the border).
fn table_row<'t>(text: &'t str, start: &str) -> &'t str {
    text.lines()
        .find(|r| r.trim_start_matches('│').trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no row {start:?}:\n{text}"))
}

#[test]
fn the_results_tables_give_names_the_width_at_80_columns() {
    let text = results_at(80, LONG_NAMES);
    let game = table_row(&text, "1.1");
    // Bartholomew plays Red in game 1.1; a column for each name wider than 8.
    assert!(game.contains("Bartholom"), "{game:?}\n{text}");
    assert!(game.contains("Annabelle"), "{game:?}\n{text}");
    let ballot = text
        .lines()
        .find(|r| r.contains("│ 1  "))
        .unwrap_or_else(|| panic!("the ballot's row:\n{text}"));
    let ballot = ballot.rsplit("││").next().unwrap();
    assert!(
        ballot
            .trim_end_matches('│')
            .trim_end()
            .ends_with("unfinished"),
        "in words: {ballot:?}\n{text}"
    );
}

#[test]
fn the_results_tables_show_whole_names_at_160_columns() {
    // Names of 20 and 21 characters: past the 8 columns they once had, within the width.
    let names = ["Annabelle Fairweather", "Bartholomew Chisholm"];
    let text = results_at(160, names);
    let game = table_row(&text, "1.1");
    for name in names {
        assert!(game.contains(name), "{name} in {game:?}\n{text}");
    }
    let header = table_row(&text, "#");
    for name in names {
        assert!(header.contains(name), "{name} in {header:?}\n{text}");
    }
    let ballot = text
        .lines()
        .find(|r| r.contains("│ 1  "))
        .unwrap_or_else(|| panic!("the ballot's row:\n{text}"));
    let ballot = ballot.rsplit("││").next().unwrap();
    assert!(
        ballot
            .trim_end_matches('│')
            .trim_end()
            .ends_with("unfinished"),
        "in words: {ballot:?}\n{text}"
    );
}
