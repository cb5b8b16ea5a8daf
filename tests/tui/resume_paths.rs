//! Every path of the home screen's Resume, rendered on a `TestBackend`: the `--match` file and
//! the data folder's matches listed, a match file opened by a path typed, a file another
//! crossboard has open refused and then looked at read-only (nothing written), a damaged file
//! started over (moved aside, a new match in its place). The real binary does the locked and
//! damaged paths under tmux in `e2e_resume_paths.rs`.

use crossboard::director::{ColourMethod, RejectionPolicy};
use crossboard::store::load_match;
use crossboard::tui::StageKind;
use crossboard::tui::match_screen as screen;
use crossboard::tui::{App, FakeClock, Screen};
use crossboard::tui::{render_text, test_app, type_text};
use std::path::{Path, PathBuf};

/// An app whose matches go to `dir`, the director assigning colours.
fn app_in(clock: &FakeClock, dir: &Path) -> App {
    let mut app = test_app(clock, 80, 24);
    app.matches.dir = Some(dir.to_path_buf());
    app.matches.defaults.players = ["Ann".into(), "Bob".into()];
    app.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    app.matches.defaults.rejection = RejectionPolicy::AllPlayed;
    app
}

/// A legal move in the game `app` shows.
fn first_move(app: &App) -> String {
    let g = screen(app).game_match().current_game().unwrap();
    g.game.position().legal_moves()[0].to_string()
}

/// Start a match and play one move in the first game; the app keeps it open (and locked).
fn open_match_with_a_move(app: &mut App, clock: &FakeClock) -> PathBuf {
    type_text(app, clock, "n\n1\n\n\n\n\n");
    assert_eq!(screen(app).stage(), StageKind::Game);
    let mv = first_move(app);
    type_text(app, clock, &format!("{mv}\n"));
    screen(app).session.saver.path().unwrap().to_path_buf()
}

#[test]
fn the_match_file_given_is_listed_first_and_any_file_opens_by_its_path() {
    let data = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let given = elsewhere.path().join("final.toml");
    {
        let mut first = app_in(&clock, data.path());
        first.matches.file = Some(given.clone());
        first.matches.defaults.players = ["Cy".into(), "Di".into()];
        open_match_with_a_move(&mut first, &clock);
    }
    let in_data = {
        let mut second = app_in(&clock, data.path());
        open_match_with_a_move(&mut second, &clock)
    };
    // The --match file first, then the data folder's.
    let mut app = app_in(&clock, data.path());
    app.matches.file = Some(given.clone());
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    let at = |s: &str| {
        text.find(s)
            .unwrap_or_else(|| panic!("{s} on screen:\n{text}"))
    };
    assert!(at("final.toml") < at("Ann v Bob"), "{text}");
    assert!(text.contains("Cy v Di"), "{text}");
    assert!(
        text.contains("o open a file"),
        "the footer offers it:\n{text}"
    );
    // o: a path field, filled with the --match file; another path typed opens that match.
    type_text(&mut app, &clock, "o");
    let text = render_text(&app);
    assert!(text.contains("Open a match file"), "{text}");
    assert!(text.contains("final.toml"), "{text}");
    type_text(&mut app, &clock, "\x15/no/such/match.toml\n");
    let text = render_text(&app);
    assert!(
        text.contains("Open a match file"),
        "the field stays:\n{text}"
    );
    assert!(text.contains("cannot read"), "with the reason:\n{text}");
    type_text(&mut app, &clock, &format!("\x15{}\n", in_data.display()));
    assert_eq!(screen(&app).session.saver.path(), Some(in_data.as_path()));
    assert!(render_text(&app).contains("clocks paused"));
}

#[test]
fn a_match_open_in_another_crossboard_is_refused_and_can_be_looked_at_read_only() {
    let data = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut first = app_in(&clock, data.path());
    let path = open_match_with_a_move(&mut first, &clock);
    let before = std::fs::read(&path).unwrap();
    // A second crossboard (the first still has the match open, and its lock).
    let mut app = app_in(&clock, data.path());
    type_text(&mut app, &clock, "r\n");
    let text = render_text(&app);
    assert!(
        matches!(app.screen, Screen::MatchList(_)),
        "refused:\n{text}"
    );
    assert!(text.contains("Open in another crossboard"), "{text}");
    assert!(
        text.contains(&format!("pid {} since", std::process::id())),
        "{text}"
    );
    assert!(text.contains("v view read-only"), "{text}");
    type_text(&mut app, &clock, "v");
    let text = render_text(&app);
    assert!(text.contains("READ-ONLY"), "said on screen:\n{text}");
    let shown = screen(&app)
        .game_match()
        .current_game()
        .unwrap()
        .moves
        .len();
    assert_eq!(shown, 1, "the move saved is shown");
    // Nothing it is asked to do changes anything: the director's resume of the clocks, a move.
    type_text(&mut app, &clock, "\ny");
    let text = render_text(&app);
    assert!(text.contains("READ-ONLY"), "{text}");
    let mv = first_move(&app);
    type_text(&mut app, &clock, &format!("{mv}\n"));
    assert_eq!(
        screen(&app)
            .game_match()
            .current_game()
            .unwrap()
            .moves
            .len(),
        1
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing written");
    // Leaving writes nothing either, and the first crossboard goes on saving.
    type_text(&mut app, &clock, "q");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    drop(app);
    let mv = first_move(&first);
    type_text(&mut first, &clock, &format!("{mv}\n"));
    let on_disk = load_match(&path).unwrap().the_match;
    assert_eq!(on_disk.current_game().unwrap().moves.len(), 2);
}

#[test]
fn a_damaged_match_file_is_started_over_from_the_list_and_kept_aside() {
    let data = tempfile::tempdir().unwrap();
    let path = data.path().join("club-night.toml");
    let damaged = "format-version = 1\n[match]\nthis is not a match\n";
    std::fs::write(&path, damaged).unwrap();
    let clock = FakeClock::new();
    let mut app = app_in(&clock, data.path());
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    assert!(text.contains("club-night.toml"), "{text}");
    assert!(text.contains("cannot be read"), "{text}");
    type_text(&mut app, &clock, "\n");
    let text = render_text(&app);
    assert!(text.contains("The match file cannot be read"), "{text}");
    assert!(text.contains("s start over"), "{text}");
    assert!(text.contains("moved aside"), "{text}");
    // Esc: nothing done.
    type_text(&mut app, &clock, "\x1b");
    assert!(!render_text(&app).contains("The match file cannot be read"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
    // s: the set-up form; nothing is moved until the match starts.
    type_text(&mut app, &clock, "\ns");
    assert!(
        matches!(app.screen, Screen::MatchSetup(_)),
        "{}",
        render_text(&app)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
    type_text(&mut app, &clock, "\n");
    let text = render_text(&app);
    assert!(
        text.contains("moved aside as club-night.toml.damaged-"),
        "{text}"
    );
    assert_eq!(screen(&app).session.saver.path(), Some(path.as_path()));
    // The new match is in its place; the damaged file is kept beside it, unchanged.
    assert!(load_match(&path).is_ok());
    let aside: Vec<PathBuf> = std::fs::read_dir(data.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains(".damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), damaged);
}
