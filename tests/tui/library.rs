//! The library screen at 80x24, drawn in ASCII as the tests draw it: the games of a folder of
//! PDN files listed (a cut shows `…`, `.` in ASCII; the skipped game in the notes), searched
//! from the search line, sorted; a game opened in review, the games through review's position,
//! a game's last position played on.

use crossboard::tui::{App, FakeClock, Screen, render_text, test_app, type_text};
use std::path::Path;

/// An app at 80x24 whose data folder is `dir` (no match files) and whose config names a copy
/// of the library fixture folder, on the library screen.
fn library_app(clock: &FakeClock, dir: &Path) -> App {
    let pdn = dir.join("pdn");
    std::fs::create_dir_all(pdn.join("club")).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/library");
    for name in ["championship.pdn", "club/club-night.pdn"] {
        std::fs::copy(fixtures.join(name), pdn.join(name)).unwrap();
    }
    let mut app = test_app(clock, 80, 24);
    app.practice_file = Some(dir.join("data").join("practice.toml"));
    app.matches.dir = Some(dir.join("data").join("matches"));
    app.library_folders = vec![pdn];
    type_text(&mut app, clock, "l");
    assert!(
        matches!(app.screen, Screen::Library(_)),
        "{}",
        render_text(&app)
    );
    app
}

#[test]
fn the_list_fits_80x24_with_its_cuts_marked_and_the_skipped_game_noted() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = library_app(&clock, dir.path());
    let text = render_text(&app);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 24, "{text}");
    assert!(
        lines[0].starts_with("Game library . 6 of 6 games . by date (ascending)"),
        "{text}"
    );
    assert!(
        lines[2].contains("Date") && lines[2].contains("Opening"),
        "{text}"
    );
    // Oldest first: the 1948 games with their unknown days, then 1949, then 1992.
    assert!(
        lines[3].starts_with("> 1948.??.?? Walter Hellman"),
        "{text}"
    );
    assert!(lines[5].contains("1949.03.05 Marion Tinsley"), "{text}");
    // A long opening name is cut with the marker, never silently.
    assert!(text.contains("3-move 5: Dreaded Edin."), "{text}");
    // The highlighted game's details, the note about the skipped game, the keys.
    assert!(
        lines[20].starts_with("Club Night . Walter Hellman vs Asa Long"),
        "{text}"
    );
    assert!(
        lines[21].ends_with("club-night.pdn, game 1 . 7 plies"),
        "{text}"
    );
    assert_eq!(
        lines[22], "6 games; 2 files read, 0 kept, 0 dropped",
        "{text}"
    );
    assert!(
        lines[23].contains("/ search") && lines[23].contains("? help"),
        "{text}"
    );
    // The next key clears what the refresh said: the notes are counted.
    type_text(&mut app, &clock, "jk");
    let text = render_text(&app);
    assert_eq!(
        text.lines().nth(22).unwrap(),
        "1 note: n shows it",
        "{text}"
    );
    type_text(&mut app, &clock, "n");
    let text = render_text(&app);
    // The note wraps where the folder's path (the test's temporary folder) puts it.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("club-night.pdn: 1 game skipped; game 3"),
        "{text}"
    );
    assert!(text.contains("11-16"), "{text}");
    // Sorted by the next field (player), then reversed.
    type_text(&mut app, &clock, "noO");
    let text = render_text(&app);
    assert!(
        text.starts_with("Game library . 6 of 6 games . by player (descending)"),
        "{text}"
    );
    assert!(
        text.lines().nth(3).unwrap().contains("Walter Hellman"),
        "{text}"
    );
}

#[test]
fn the_search_line_filters_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = library_app(&clock, dir.path());
    type_text(&mut app, &clock, "/player:tinsley result:draw");
    let text = render_text(&app);
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("Search: player:tinsley result:draw_"),
        "{text}"
    );
    assert!(
        text.lines().last().unwrap().contains("Enter done"),
        "{text}"
    );
    type_text(&mut app, &clock, "\n");
    let text = render_text(&app);
    assert!(text.starts_with("Game library . 2 of 6 games"), "{text}");
    assert!(text.contains("1949.03.05 Marion Tinsley"), "{text}");
    assert!(
        text.contains("1992.08.17 Marion Tinsley  Chinook"),
        "{text}"
    );
    // Nothing found says how to go on; a bad term is refused with its reason.
    type_text(&mut app, &clock, "/\x15event:nowhere\n");
    let text = render_text(&app);
    assert!(text.starts_with("Game library . 0 of 6 games"), "{text}");
    assert!(
        text.contains("No game matches: / changes the search, x clears it."),
        "{text}"
    );
    type_text(&mut app, &clock, "/\x15moves:many\n");
    assert!(
        render_text(&app).contains("moves \"many\": a number"),
        "{}",
        render_text(&app)
    );
    // x: every game again.
    type_text(&mut app, &clock, "x");
    assert!(render_text(&app).starts_with("Game library . 6 of 6 games"));
}

#[test]
fn a_game_opens_in_review_and_review_finds_the_games_through_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = library_app(&clock, dir.path());
    // The 1992.08.17 game: 11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14.
    type_text(&mut app, &clock, "/from:1992.08.17 to:1992.08.17\n\n");
    let Screen::Review(review) = &app.screen else {
        panic!("review expected:\n{}", render_text(&app));
    };
    assert_eq!(review.game.moves().len(), 8);
    assert_eq!(
        review.players,
        ["Marion Tinsley".to_string(), "Chinook".to_string()]
    );
    let text = render_text(&app);
    assert!(text.contains("World Championship"), "{text}");
    // Back to the third position (after 11-15 23-19 8-11): both games of 3-move 126.
    type_text(&mut app, &clock, "ghhh");
    type_text(&mut app, &clock, "lll/");
    let text = render_text(&app);
    assert!(matches!(app.screen, Screen::Library(_)), "{text}");
    assert!(
        text.starts_with("Game library . 2 of 6 games through the position from review"),
        "{text}"
    );
    assert!(text.contains("1992.08.18 Chinook"), "{text}");
    // p: the highlighted game's last position on the set-up screen, to play on.
    type_text(&mut app, &clock, "p");
    let Screen::PositionSetup(setup) = &app.screen else {
        panic!("set-up expected:\n{}", render_text(&app));
    };
    assert_eq!(
        setup.board.to_fen(),
        "B:W14,19,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,11,12,13,15"
    );
}
