//! Headless tests of the engine in practice mode: the opponent replies, the hint, take-back
//! while the engine thinks, the post-game review marks; the practice screen with a hint shown.
//! The engine searches on its worker thread in real time; the tests poll with ticks and a
//! bounded wait.

use crossboard::engine::Position;
use crossboard::search::Level;
use crossboard::tui::PracticeScreen;
use crossboard::tui::StatusKind;
use crossboard::tui::practice_engine::{EngineSettings, Hint, Opponent, PracticeEngine};
use crossboard::tui::testing::{
    practice, practice_moves, practice_mut, render_text, test_app, tick_until, type_text,
};
use crossboard::tui::{App, FakeClock, Msg, Screen, ScreenState, TimeSource};
use std::time::{Duration, Instant};

/// Small and quick: depth-limited hints, short thinking, a shallow review, a small table.
fn quick() -> EngineSettings {
    EngineSettings {
        hint_ms: 5_000,
        hint_depth: Some(4),
        play_ms: Some(100),
        review_depth: 4,
        hash_mb: 1,
        hub_grace_ms: 5_000,
    }
}

/// Tick until the hint for the position on the board is done (at most 20 s); the hint.
pub(crate) fn await_hint(app: &mut App, clock: &FakeClock) -> Hint {
    wait_until(app, clock, |a| {
        practice(a)
            .engine
            .current_hint(&practice(a).game)
            .is_some_and(|h| h.done)
    });
    let p = practice(app);
    p.engine.current_hint(&p.game).cloned().expect("a hint")
}

/// Tick the app until `done`, at most 20 s.
fn wait_until(app: &mut App, clock: &FakeClock, done: impl Fn(&App) -> bool) {
    tick_until(app, clock, Duration::from_secs(20), done);
}

#[test]
fn set_up_chooses_the_opponent_and_the_engine_replies() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "p");
    let text = render_text(&app);
    assert!(
        text.contains("Opponent: none (both sides by hand)"),
        "{text}"
    );
    type_text(&mut app, &clock, "oc");
    let Screen::PracticeSetup(s) = &app.screen else {
        panic!("set-up expected")
    };
    assert_eq!(
        s.opponent,
        Some(Opponent::at_level(
            Level::Beginner,
            crossboard::engine::Color::Red
        ))
    );
    type_text(&mut app, &clock, "c");
    assert!(render_text(&app).contains("beginner engine plays White"));
    type_text(&mut app, &clock, "s\n");
    practice_mut(&mut app).engine.settings = quick();
    assert!(!app.screen.ticking(), "Red (the human) to move: idle");
    type_text(&mut app, &clock, "11-15\n");
    assert_eq!(practice_moves(&app), ["11-15"]);
    assert!(app.screen.ticking(), "the engine is due: the screen ticks");
    assert_eq!(practice(&app).status().0, "engine thinking…");
    assert!(render_text(&app).contains("engine thinking"));
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 2);
    let pos = Position::start().after(&practice(&app).game.moves()[0]);
    assert!(
        pos.legal_moves().contains(&practice(&app).game.moves()[1]),
        "the engine played a legal White move"
    );
    assert!(!app.screen.ticking(), "the human's turn again: idle");
    assert!(practice(&app).status().0.starts_with("Red to move"));
    assert!(render_text(&app).contains("Engine beginner plays White"));
}

#[test]
fn engine_opens_when_it_has_the_first_move() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut p = PracticeScreen::start_position();
    p.engine = PracticeEngine::new(Some(Opponent::at_level(
        Level::Club,
        crossboard::engine::Color::Red,
    )));
    p.engine.settings = quick();
    app.screen = Screen::Practice(p);
    assert!(app.screen.ticking(), "the engine must move first");
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 1);
    // Its move cannot be taken back by the human alone.
    type_text(&mut app, &clock, "u");
    assert_eq!(practice_moves(&app).len(), 1);
    assert_eq!(practice(&app).status().1, StatusKind::Error);
}

#[test]
fn hint_shows_the_move_and_score_and_plays_nothing() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n");
    practice_mut(&mut app).engine.settings = quick();
    type_text(&mut app, &clock, "t");
    assert!(app.screen.ticking());
    let hint = await_hint(&mut app, &clock);
    assert!(practice_moves(&app).is_empty(), "a hint plays nothing");
    let p = practice(&app);
    assert!(Position::start().legal_moves().contains(&hint.best));
    assert_eq!(hint.depth, Some(4));
    let (status, _) = p.status();
    assert_eq!(
        status,
        format!("hint: {} ({}, depth 4)", hint.best, hint.score.unwrap())
    );
    assert!(!app.screen.ticking(), "nothing running: idle again");
    // The hint is gone once a move is played.
    type_text(&mut app, &clock, "9-13\n");
    assert!(
        practice(&app)
            .engine
            .current_hint(&practice(&app).game)
            .is_none()
    );
    assert!(!practice(&app).status().0.starts_with("hint"));
}

#[test]
fn practice_screen_renders_the_hint() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n");
    practice_mut(&mut app).engine.settings = quick();
    type_text(&mut app, &clock, "t");
    let hint = await_hint(&mut app, &clock);
    let text = render_text(&app);
    let line = format!("hint: {} ({}, depth 4)", hint.best, hint.score.unwrap());
    assert!(text.contains(&line), "status line shows {line}:\n{text}");
    // The board marks the hinted destination (one square), as for a selection of the
    // player's own; without the hint, none.
    let marks = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with('|'))
            .map(|l| l.chars().take(40).filter(|&c| c == '+').count())
            .sum::<usize>()
    };
    assert_eq!(marks(&text), 1, "{text}");
    let mut plain = practice(&app).clone();
    plain.engine = PracticeEngine::default();
    let mut twin = test_app(&clock, 80, 24);
    twin.screen = Screen::Practice(plain);
    assert_eq!(marks(&render_text(&twin)), 0);
    // At a larger size too.
    app.update(Msg::Resize(120, 40), clock.now());
    assert!(render_text(&app).contains(&line));
}

#[test]
fn take_back_while_the_engine_thinks_cancels_and_restores_the_humans_turn() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut p = PracticeScreen::start_position();
    p.engine = PracticeEngine::new(Some(Opponent::at_level(
        Level::Master,
        crossboard::engine::Color::White,
    )));
    p.engine.settings = EngineSettings {
        play_ms: Some(60_000),
        ..quick()
    };
    app.screen = Screen::Practice(p);
    type_text(&mut app, &clock, "11-15\n");
    clock.advance(Duration::from_millis(100));
    app.update(Msg::Tick, clock.now());
    assert!(practice(&app).engine.thinking(), "a long search runs");
    // A move typed for the engine's side is refused while it thinks.
    type_text(&mut app, &clock, "23-19\n");
    assert_eq!(practice_moves(&app), ["11-15"]);
    assert!(practice(&app).status().0.contains("engine is thinking"));
    type_text(&mut app, &clock, "u");
    assert!(practice_moves(&app).is_empty());
    assert!(!practice(&app).engine.thinking());
    assert_eq!(
        practice(&app).message,
        Some(("took back 11-15".into(), StatusKind::Info))
    );
    assert!(!app.screen.ticking(), "the human's turn: nothing runs");
    // The cancelled search plays nothing, and the worker is free at once for a hint.
    type_text(&mut app, &clock, "t");
    let t = Instant::now();
    wait_until(&mut app, &clock, |a| {
        practice(a)
            .engine
            .current_hint(&practice(a).game)
            .is_some_and(|h| h.done)
    });
    assert!(t.elapsed() < Duration::from_secs(20));
    assert!(
        practice_moves(&app).is_empty(),
        "the cancelled search played nothing"
    );
    // After the engine's reply, u takes back both moves.
    practice_mut(&mut app).engine.settings = quick();
    type_text(&mut app, &clock, "11-15\n");
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 2);
    type_text(&mut app, &clock, "u");
    assert!(practice_moves(&app).is_empty(), "back to the human's turn");
}

#[test]
fn review_marks_the_move_that_drops_a_man() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    // Red men on 1 and 10, a White man on 18: 10-15 (or 10-14) hangs a man, 1-5 does not.
    let pos = Position::from_fen("B:W18:B1,10").unwrap();
    let mut p = PracticeScreen::new(pos, None);
    p.engine.settings = quick();
    app.screen = Screen::Practice(p);
    type_text(&mut app, &clock, "10-15\n18x11\n1-5\n");
    assert_eq!(practice_moves(&app), ["10-15", "18x11", "1-5"]);
    type_text(&mut app, &clock, "a");
    assert!(practice(&app).engine.review_progress.is_some());
    assert!(render_text(&app).contains("analysing the game"));
    wait_until(&mut app, &clock, |a| practice(a).engine.review.is_some());
    let p = practice(&app);
    let mark = p.engine.mark(&p.game, 0).expect("10-15 is marked");
    assert!(mark >= crossboard::search::Mark::Mistake, "{mark:?}");
    let text = render_text(&app);
    assert!(text.contains(&format!("10-15{}", mark.symbol())), "{text}");
    assert!(text.contains("Analysis"), "{text}");
    // Taking the marked move back drops its mark.
    type_text(&mut app, &clock, "uuu");
    assert!(practice_moves(&app).is_empty());
    assert!(
        practice(&app)
            .engine
            .mark(&practice(&app).game, 0)
            .is_none()
    );
}

#[test]
fn a_game_against_the_engine_is_analysed_when_it_ends() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    // Red (the human) takes White's last man: the game ends on Red's move.
    let pos = Position::from_fen("B:W14:B1,10").unwrap();
    let capture = pos.legal_moves()[0];
    assert!(capture.is_capture());
    let mut p = PracticeScreen::new(pos, None);
    p.engine = PracticeEngine::new(Some(Opponent::at_level(
        Level::Casual,
        crossboard::engine::Color::White,
    )));
    p.engine.settings = quick();
    app.screen = Screen::Practice(p);
    type_text(&mut app, &clock, &format!("{capture}\n"));
    assert!(practice(&app).game.result().is_some());
    assert!(app.screen.ticking(), "the review is due");
    wait_until(&mut app, &clock, |a| practice(a).engine.review.is_some());
    let p = practice(&app);
    assert_eq!(p.engine.review.as_ref().unwrap().moves.len(), 1);
    assert_eq!(
        p.engine.mark(&p.game, 0),
        None,
        "the winning capture is not marked"
    );
    assert!(!app.screen.ticking(), "reviewed once, then idle");
    assert!(render_text(&app).contains("Analysis 0 ??  0 ?  0 ?!"));
}

#[test]
fn the_engines_move_interrupts_an_analysis() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut p = PracticeScreen::start_position();
    p.engine = PracticeEngine::new(Some(Opponent::at_level(
        Level::Beginner,
        crossboard::engine::Color::White,
    )));
    p.engine.settings = EngineSettings {
        review_depth: 30,
        ..quick()
    };
    app.screen = Screen::Practice(p);
    type_text(&mut app, &clock, "11-15\n");
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 2);
    // A deep analysis runs; the next move still gets the engine's reply promptly.
    type_text(&mut app, &clock, "a");
    assert!(practice(&app).engine.review_progress.is_some());
    let mine = practice(&app).game.position().legal_moves()[0];
    type_text(&mut app, &clock, &format!("{mine}\n"));
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 4);
    assert!(practice(&app).engine.review_progress.is_none());
}

#[test]
fn help_lists_the_engine_keys() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 100, 40);
    type_text(&mut app, &clock, "p?");
    let text = render_text(&app);
    assert!(text.contains("opponent: none, or the engine"), "{text}");
    type_text(&mut app, &clock, "?s\n?");
    let text = render_text(&app);
    assert!(text.contains("hint: the engine's move"), "{text}");
    assert!(text.contains("analyse the game"), "{text}");
}

#[test]
fn in_huffing_the_engine_answers_a_neglected_capture_before_it_moves() {
    use crossboard::engine::{Color, Game, Rules};
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut p = PracticeScreen::start_position_in(Rules::Huffing);
    let mut game = Game::new(Rules::Huffing, *p.game.start());
    for mv in ["11-15", "22-18"] {
        game.play_text(mv).unwrap();
    }
    p.game = game;
    p.input = crossboard::tui::MoveInput::new(p.game.position());
    p.engine = PracticeEngine::new(Some(Opponent::at_level(Level::Club, Color::White)));
    p.engine.settings = quick();
    app.screen = Screen::Practice(p);
    // Red neglects 15x22: White, the engine, may let it stand, huff 15, or compel the capture.
    type_text(&mut app, &clock, "9-13\n");
    assert_eq!(practice_moves(&app), ["11-15", "22-18", "9-13"]);
    wait_until(&mut app, &clock, |a| {
        let p = practice(a);
        p.game.moves().len() == 4 || p.game.position().turn() == Color::Red
    });
    // Huffing 15 wins a man for nothing (letting it stand or compelling the capture trades):
    // the engine huffs, then moves, and the note says both.
    let p = practice(&app);
    let status = p.status().0;
    assert_eq!(p.game.moves().len(), 4, "{status}");
    assert_eq!(
        p.game.prelude(3).huffed.map(|s| s.to_string()),
        Some("15".into()),
        "{status}"
    );
    assert!(
        status.starts_with(&format!(
            "the engine huffed your piece on 15, then played {}",
            p.game.moves()[3]
        )),
        "{status}"
    );
    // Red's man on 15 is gone (the engine's own move may have come to 15 since).
    assert!(
        p.game
            .position()
            .piece_at(crossboard::engine::Square::new(15).unwrap())
            .is_none_or(|piece| piece.color == Color::White),
        "{status}"
    );
    // Its move is an ordinary one: no new huff chance for Red unless it neglected a capture.
    assert_eq!(p.game.position().turn(), Color::Red);
}
