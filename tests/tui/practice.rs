//! Headless tests: drive the app with key and mouse events (practice: type moves, take back,
//! flip, click, capture choice; the event loop itself on a TestBackend).

use crossboard::engine::{Position, Square};
use crossboard::tui::PracticeScreen;
use crossboard::tui::{
    App, FakeClock, Msg, Screen, ScreenState, ScriptedEvents, TimeSource, run_loop,
};
use crossboard::tui::{GameLayout, StatusKind};
use crossboard::tui::{practice, practice_moves, render_text, test_app, type_text};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};
use ratatui::layout::Rect;

fn click(app: &mut App, clock: &FakeClock, sq: u8) {
    let p = practice(app);
    let geo = GameLayout::new(Rect::new(0, 0, app.size.width, app.size.height))
        .board_geometry(p.flipped)
        .unwrap();
    let r = geo.cell_rect(Square::new(sq).unwrap());
    app.update(
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: r.x + 1,
            row: r.y,
            modifiers: KeyModifiers::NONE,
        }),
        clock.now(),
    );
}

#[test]
fn practice_game_typed_moves_take_back_and_flip() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n");
    type_text(&mut app, &clock, "11-15\n23-19\n8-11\n22-17\n");
    assert_eq!(practice_moves(&app), ["11-15", "23-19", "8-11", "22-17"]);
    type_text(&mut app, &clock, "u");
    assert_eq!(practice_moves(&app), ["11-15", "23-19", "8-11"]);
    assert_eq!(
        practice(&app).message,
        Some(("took back 22-17".into(), StatusKind::Info))
    );
    // Backspace with nothing typed also takes back; with text typed it edits.
    type_text(&mut app, &clock, "22\x08\x08");
    assert_eq!(practice_moves(&app).len(), 3);
    assert!(practice(&app).input.text.is_empty());
    type_text(&mut app, &clock, "\x08");
    assert_eq!(practice_moves(&app).len(), 2);
    type_text(&mut app, &clock, "f");
    assert!(practice(&app).flipped);
    let text = render_text(&app);
    let top = text.find("+ White -").expect("a board");
    assert!(top < text.find("+ Red -").expect("a board"), "{text}");
    type_text(&mut app, &clock, "f");
    assert!(!practice(&app).flipped);
}

#[test]
fn short_capture_form_and_illegal_input_changes_nothing() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n11-15\n22-18\n");
    let before = *practice(&app).game.position();
    type_text(&mut app, &clock, "9-14\n");
    assert_eq!(
        practice(&app).game.position(),
        &before,
        "a capture was compulsory"
    );
    let (why, kind) = practice(&app).status();
    assert_eq!(kind, StatusKind::Error);
    assert!(why.contains("capture"), "{why}");
    assert!(render_text(&app).contains("capture"));
    type_text(&mut app, &clock, "\x1b15x22\n");
    assert_eq!(practice_moves(&app).last().unwrap(), "15x22");
}

#[test]
fn candidates_narrow_on_screen_as_you_type() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n1");
    let text = render_text(&app);
    assert!(
        text.contains("fits: 10-14 10-15 11-15 11-16 12-16"),
        "{text}"
    );
    type_text(&mut app, &clock, "1-");
    let text = render_text(&app);
    assert!(text.contains("fits: 11-15 11-16"), "{text}");
    type_text(&mut app, &clock, "16");
    assert!(render_text(&app).contains("Enter plays: 11-16"));
}

#[test]
fn mouse_piece_then_destination_plays_and_cursor_keys_work() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n");
    click(&mut app, &clock, 11);
    assert_eq!(practice(&app).input.selected, Square::new(11));
    click(&mut app, &clock, 15);
    assert_eq!(practice_moves(&app), ["11-15"]);
    // Keyboard: cursor to 22 and 18, with Enter/Space.
    let p = practice(&app);
    assert!(p.input.selected.is_none());
    if let Screen::Practice(p) = &mut app.screen {
        p.input.cursor = Square::new(22).unwrap();
    }
    app.update(Msg::key(KeyCode::Enter), clock.now());
    assert_eq!(practice(&app).input.selected, Square::new(22));
    // Up-right from 22 on screen is 18.
    type_text(&mut app, &clock, "kl");
    assert_eq!(practice(&app).input.cursor.number(), 18, "k then l");
    type_text(&mut app, &clock, " ");
    assert_eq!(practice_moves(&app), ["11-15", "22-18"]);
    // Same clicks work with the board flipped.
    type_text(&mut app, &clock, "f");
    click(&mut app, &clock, 15);
    click(&mut app, &clock, 22);
    assert_eq!(practice_moves(&app), ["11-15", "22-18", "15x22"]);
}

#[test]
fn two_capture_paths_to_one_square_ask_which() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let pos = Position::from_fen("B:W7,8,15,16,24:BK12").unwrap();
    app.screen = Screen::Practice(PracticeScreen::new(pos, None));
    click(&mut app, &clock, 12);
    click(&mut app, &clock, 28);
    let choice = practice(&app).input.choice.clone().expect("asked which");
    assert_eq!(choice.len(), 2);
    assert!(practice_moves(&app).is_empty());
    let text = render_text(&app);
    assert!(text.contains("Which capture?"), "{text}");
    assert!(
        text.contains("12x19x28") && text.contains("12x3x10x19x28"),
        "{text}"
    );
    type_text(&mut app, &clock, "2");
    assert_eq!(practice_moves(&app), [choice[1].to_string()]);
    // Typed short form: ambiguous, so asked too.
    type_text(&mut app, &clock, "u12x28\n");
    assert!(practice(&app).input.choice.is_some());
    assert!(practice(&app).status().0.contains("ambiguous"));
    type_text(&mut app, &clock, "\n");
    assert_eq!(practice_moves(&app), [choice[0].to_string()]);
}

#[test]
fn a_game_won_by_taking_the_last_piece_says_no_pieces_left() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let pos = Position::from_fen("B:W16:BK12").unwrap();
    app.screen = Screen::Practice(PracticeScreen::new(pos, None));
    type_text(&mut app, &clock, "12x19\n");
    let text = render_text(&app);
    assert!(
        text.contains("Red wins: White has no pieces left."),
        "{text}"
    );
    assert!(!text.contains("cannot move"), "{text}");
}

#[test]
fn quit_from_home_and_help_toggles() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "?");
    assert!(app.help.is_some());
    type_text(&mut app, &clock, "q");
    assert!(
        app.help.is_none() && !app.should_quit(),
        "q closes the help first"
    );
    type_text(&mut app, &clock, "ps\nq");
    assert!(matches!(app.screen, Screen::Home(_)));
    type_text(&mut app, &clock, "q");
    assert!(app.should_quit());
}

#[test]
fn event_loop_runs_on_a_test_backend_and_ignores_key_releases() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let press = |c| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let release = Event::Key(KeyEvent {
        code: KeyCode::Char('q'),
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Release,
        state: KeyEventState::NONE,
    });
    let mut events = ScriptedEvents::new([
        press('p'),
        press('s'),
        Event::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        release,
        press('9'),
        press('-'),
        press('1'),
        press('4'),
        Event::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        Event::Resize(100, 30),
    ]);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    run_loop(&mut terminal, &mut app, &mut events, &clock).unwrap();
    assert_eq!(
        practice_moves(&app),
        ["9-14"],
        "the release of q did nothing"
    );
    assert_eq!((app.size.width, app.size.height), (100, 30));
    assert!(
        app.tick_interval().is_none(),
        "no clock: the loop blocks on input"
    );
}

#[test]
fn review_of_the_practice_game_and_back() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n11-15\n23-19\nv");
    let Screen::Review(r) = &app.screen else {
        panic!("review expected")
    };
    assert_eq!(r.ply, 2);
    type_text(&mut app, &clock, "hh");
    let Screen::Review(r) = &app.screen else {
        panic!()
    };
    assert_eq!(r.ply, 0);
    type_text(&mut app, &clock, "q");
    assert_eq!(
        practice_moves(&app),
        ["11-15", "23-19"],
        "back to the same practice game"
    );
}

#[test]
fn practice_an_opening_by_number_and_by_public_id() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    // 3-move restriction (highlighted by default), opening 1.
    type_text(&mut app, &clock, "pe1\n");
    let p = practice(&app);
    let b = p.ballot.clone().expect("a ballot");
    assert_eq!(b.reference, "3-move restriction 1");
    let o = crossboard::openings::opening(crossboard::openings::System::ThreeMove, 1).unwrap();
    assert_eq!(p.game.start(), &o.position);
    assert_eq!(b.set_moves, o.set_moves);
    assert!(render_text(&app).contains("3-move restriction 1"));
    // 11-man by public id.
    type_text(&mut app, &clock, "qpmi1234\n");
    let b = practice(&app).ballot.clone().expect("a ballot");
    assert_eq!(b.public_id, Some(1234));
    assert_ne!(b.removed, 0, "the removed men are marked");
    assert!(render_text(&app).contains("public position 1234"));
    // Out of range: says why, stays on the set-up screen.
    type_text(&mut app, &clock, "qpe999\n");
    let Screen::PracticeSetup(s) = &app.screen else {
        panic!("still on set-up")
    };
    assert!(
        s.message.as_deref().unwrap().contains("174"),
        "{:?}",
        s.message
    );
}

#[test]
fn random_draws_are_seeded_and_redraw_keeps_the_system() {
    let draw = || {
        let clock = FakeClock::new();
        let mut app = test_app(&clock, 80, 24);
        type_text(&mut app, &clock, "pm\n");
        let first = practice(&app).ballot.clone().unwrap();
        type_text(&mut app, &clock, "d");
        let second = practice(&app).ballot.clone().unwrap();
        (first, second)
    };
    let (a1, a2) = draw();
    let (b1, b2) = draw();
    assert_eq!(
        (a1.reference.clone(), a2.reference.clone()),
        (b1.reference, b2.reference)
    );
    assert!(a1.reference.starts_with("11-Man Ballot"));
    assert!(a2.reference.starts_with("11-Man Ballot"));
}

#[test]
fn man_down_ballot_is_flagged() {
    use crossboard::openings::{System, all_ref};
    let o = all_ref(System::TwoMove)
        .iter()
        .find(|o| o.loses_man.is_some())
        .expect("a 2-move opening loses a man");
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.screen = Screen::Practice(PracticeScreen::from_opening(o));
    let side = o.loses_man.unwrap();
    let text = render_text(&app);
    assert!(
        text.contains(&format!("man-down check: {side} loses a man")),
        "{text}"
    );
}

#[test]
fn open_a_pdn_and_review_a_game() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 100, 30);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/pdn/one_bad_game.pdn"
    );
    type_text(&mut app, &clock, "o");
    assert!(app.screen.typing(), "the path field takes letters and ?");
    type_text(&mut app, &clock, &format!("{path}\n"));
    let text = render_text(&app);
    assert!(text.contains("A vs B"), "{text}");
    assert!(
        text.contains("cannot read"),
        "the bad game is listed with why: {text}"
    );
    // The second game does not read: choosing it says why and stays.
    type_text(&mut app, &clock, "j\n");
    assert!(matches!(app.screen, Screen::OpenPdn(_)));
    // The first reads: review it, step back, then return to the list.
    type_text(&mut app, &clock, "k\n");
    let Screen::Review(r) = &app.screen else {
        panic!("review expected")
    };
    assert_eq!(r.players, ["A".to_string(), "B".to_string()]);
    assert_eq!(r.ply, 2);
    type_text(&mut app, &clock, "h");
    let text = render_text(&app);
    assert!(text.contains("At ply 1 of 2 (move 1.)"), "{text}");
    assert!(text.contains("2 plies, 1 move"), "{text}");
    type_text(&mut app, &clock, "q");
    assert!(matches!(app.screen, Screen::OpenPdn(_)));
    // A missing file is an error on screen, not a crash.
    type_text(&mut app, &clock, "\x1b\x15/no/such/file.pdn\n");
    assert!(render_text(&app).contains("cannot read /no/such/file.pdn"));
}

#[test]
fn practice_set_up_remembers_the_system_and_the_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("practice.toml");
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.practice_file = Some(file.clone());
    type_text(&mut app, &clock, "p");
    let Screen::PracticeSetup(s) = &app.screen else {
        panic!("practice set-up expected")
    };
    assert_eq!(
        s.system(),
        Some(crossboard::openings::System::ElevenMan),
        "a first run starts on the 11-Man Ballot"
    );
    // 3-move, the engine (beginner, then casual) playing Red; draw at random.
    type_text(&mut app, &clock, "eooc\n");
    assert!(matches!(app.screen, Screen::Practice(_)));
    assert!(file.exists(), "the choices are remembered");
    type_text(&mut app, &clock, "q");
    type_text(&mut app, &clock, "p");
    let Screen::PracticeSetup(s) = &app.screen else {
        panic!("practice set-up expected")
    };
    assert_eq!(s.system(), Some(crossboard::openings::System::ThreeMove));
    let o = s.opponent.clone().expect("the opponent is remembered");
    assert_eq!(o.level, crossboard::search::Level::Casual);
    assert_eq!(o.color, crossboard::engine::Color::Red);
    assert!(render_text(&app).contains("casual engine plays Red"));
}

#[test]
fn huffing_c_after_a_huff_says_the_choice_was_made() {
    use crossboard::engine::{Game, Rules};
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut p = PracticeScreen::start_position_in(Rules::Huffing);
    let mut game = Game::new(Rules::Huffing, *p.game.start());
    // Red's 9-13 neglects 15x22: White may huff the man on 15.
    for mv in ["11-15", "22-18", "9-13"] {
        game.play_text(mv).unwrap();
    }
    p.game = game;
    p.input = crossboard::tui::MoveInput::new(p.game.position());
    app.screen = Screen::Practice(p);
    type_text(&mut app, &clock, "15H");
    assert!(practice(&app).game.pending().huffed.is_some());
    type_text(&mut app, &clock, "C");
    let (text, kind) = practice(&app).message.clone().unwrap();
    assert_eq!(kind, StatusKind::Error);
    assert!(text.contains("already huffed the piece on 15"), "{text}");
    type_text(&mut app, &clock, "H");
    let (text, _) = practice(&app).message.clone().unwrap();
    assert!(text.contains("already huffed the piece on 15"), "{text}");
}

/// The games saved in `dir`'s practice games file.
fn kept_games(dir: &std::path::Path) -> Vec<crossboard::store::PdnGame> {
    let path = dir.join("practice-games.pdn");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    crossboard::store::read_pdn(&text)
        .into_iter()
        .map(|g| g.unwrap())
        .collect()
}

#[test]
fn leaving_a_game_in_progress_asks_and_can_keep_it_as_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.practice_file = Some(dir.path().join("practice.toml"));
    type_text(&mut app, &clock, "ps\n11-15\n23-19\nq");
    // Not left: the question names the game and its keys stay whole at 80x24.
    assert!(matches!(app.screen, Screen::Practice(_)));
    let text = render_text(&app);
    assert!(text.contains("Leave practice"), "{text}");
    assert!(text.contains("This game (2 plies) is not saved."), "{text}");
    for keys in ["save, then leave", "leave without saving", "stay (Esc)"] {
        assert!(text.contains(keys), "{keys}: {text}");
    }
    // n (or Esc) stays with the game as it was.
    type_text(&mut app, &clock, "n");
    assert_eq!(practice_moves(&app), ["11-15", "23-19"]);
    assert!(!render_text(&app).contains("Leave practice"));
    // s saves it, then leaves.
    type_text(&mut app, &clock, "qs");
    assert!(matches!(app.screen, Screen::Home(_)));
    let games = kept_games(dir.path());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.moves.len(), 2);
    assert_eq!(g.tag("Event"), Some("Practice"));
    assert_eq!(g.result, crossboard::store::PdnResult::Unfinished);
    assert!(
        g.tag("Date").is_some_and(|d| d != "????.??.??"),
        "{:?}",
        g.tags
    );
}

#[test]
fn leaving_without_saving_keeps_nothing_and_a_saved_game_leaves_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.practice_file = Some(dir.path().join("practice.toml"));
    type_text(&mut app, &clock, "ps\n11-15\nqy");
    assert!(matches!(app.screen, Screen::Home(_)));
    assert!(kept_games(dir.path()).is_empty());
    // w keeps the game and says where; unchanged since, q leaves without asking.
    type_text(&mut app, &clock, "ps\n11-15\nw");
    let (said, _) = practice(&app).message.clone().unwrap();
    assert!(
        said.contains("game 1 of") && said.contains("practice-games.pdn"),
        "{said}"
    );
    type_text(&mut app, &clock, "23-19\nw");
    let (said, _) = practice(&app).message.clone().unwrap();
    assert!(said.contains("game 2 of"), "{said}");
    type_text(&mut app, &clock, "q");
    assert!(matches!(app.screen, Screen::Home(_)));
    assert_eq!(kept_games(dir.path()).len(), 2);
    // Nothing played: q leaves at once as before.
    type_text(&mut app, &clock, "ps\nq");
    assert!(matches!(app.screen, Screen::Home(_)));
}

#[test]
fn a_kept_ballot_game_carries_the_ballot_and_the_result() {
    use crossboard::engine::{Color, Outcome};
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.practice_file = Some(dir.path().join("practice.toml"));
    type_text(&mut app, &clock, "p\n");
    let ballot = practice(&app).ballot.clone().expect("a ballot drawn");
    // Play on until the game is decided (the first legal move each time, both sides).
    for _ in 0..400 {
        let p = practice(&app);
        if p.game.result().is_some() {
            break;
        }
        let mv = p.game.position().legal_moves()[0].to_string();
        type_text(&mut app, &clock, &format!("{mv}\n"));
    }
    let outcome = practice(&app).game.result().expect("decided");
    type_text(&mut app, &clock, "qs");
    assert!(matches!(app.screen, Screen::Home(_)));
    let g = &kept_games(dir.path())[0];
    assert_eq!(g.tag("Opening"), Some(ballot.name.as_str()));
    assert!(
        g.tag("Ballot")
            .is_some_and(|b| b.starts_with(&ballot.reference)),
        "{:?}",
        g.tags
    );
    assert_eq!(g.result, crossboard::store::PdnResult::from(Some(outcome)));
    assert!(matches!(outcome, Outcome::Win(Color::Red | Color::White)));
    g.replay()
        .expect("the moves replay from the ballot position");
}

#[test]
fn the_engines_colour_survives_the_level_passing_through_none() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    // An opponent, given Red; then the levels round to "none" and on to the first again.
    type_text(&mut app, &clock, "poc");
    assert!(render_text(&app).contains("engine plays Red"));
    for _ in 0..20 {
        type_text(&mut app, &clock, "o");
        if render_text(&app).contains("Opponent: none") {
            break;
        }
    }
    assert!(render_text(&app).contains("Opponent: none"));
    type_text(&mut app, &clock, "o");
    let text = render_text(&app);
    assert!(text.contains("engine plays Red"), "{text}");
}

#[test]
fn the_practice_set_up_has_a_key_line_from_its_table() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "p");
    let text = render_text(&app);
    let last = text.lines().last().unwrap_or_default();
    for k in [
        "Enter start",
        "d draw",
        "o opponent",
        "r game",
        "q back",
        "? help",
    ] {
        assert!(last.contains(k), "{k}: {last:?}\n{text}");
    }
}

#[test]
fn the_review_of_a_practice_game_keeps_the_board_turned() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n11-15\nfv");
    let Screen::Review(r) = &app.screen else {
        panic!("review expected")
    };
    assert!(r.flipped, "{}", render_text(&app));
    assert!(render_text(&app).contains("Red's view"));
}

#[test]
fn a_kept_practice_game_carries_the_analysis_marks_and_better_moves() {
    use crossboard::engine::{Game, Rules};
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.practice_file = Some(dir.path().join("practice.toml"));
    // Red men on 1 and 10, a White man on 18: 10-15 hangs a man.
    let start = Position::from_fen("B:W18:B1,10").unwrap();
    let mut p = PracticeScreen::new(start, None);
    let mut game = Game::new(Rules::English, start);
    for mv in ["10-15", "18x11", "1-5"] {
        game.play_text(mv).unwrap();
    }
    p.game = game;
    p.input = crossboard::tui::MoveInput::new(p.game.position());
    p.engine.settings.review_depth = 4;
    app.screen = Screen::Practice(p);
    type_text(&mut app, &clock, "a");
    crossboard::tui::tick_until(&mut app, &clock, std::time::Duration::from_secs(30), |a| {
        practice(a).engine.review.is_some()
    });
    type_text(&mut app, &clock, "w");
    let games = kept_games(dir.path());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.mark(0).is_some(), "10-15 is marked: {:?}", g.marks);
    assert_eq!(g.marks.iter().flatten().count(), 1, "{:?}", g.marks);
    let (at, note) = g.comments.first().expect("the better move as a comment");
    assert_eq!(*at, 1, "after the move it corrects");
    assert!(note.starts_with("better "), "{note}");
    let text = std::fs::read_to_string(dir.path().join("practice-games.pdn")).unwrap();
    assert!(text.contains("1. 10-15?"), "{text}");
}
