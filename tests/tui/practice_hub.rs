//! A Hub engine of the config file in practice: chosen on the set-up forms with its time a
//! move, playing the opponent's moves and giving hints off the UI thread (crossboard's own
//! `crossboard hub` as the engine), ended with practice (no process left), and stopped with the
//! game kept when it misbehaves (the stub engine, `tests/fixtures/hub/stub-engine.sh`, crashing,
//! playing an illegal move, staying silent or writing garbage).
#![cfg(unix)]

use crate::hub_engines::stub;
use crate::practice_engine::await_hint;
use crossboard::engine::{Color, Position};
use crossboard::search::Level;
use crossboard::store::HubEngineConfig;
use crossboard::tui::practice_engine::{EngineSettings, Opponent, PracticeEngine};
use crossboard::tui::practice_hub::{HubRival, SeatState};
use crossboard::tui::testing::{practice, practice_moves, render_text, tick_until, type_text};
use crossboard::tui::{App, FakeClock, PracticeScreen, Screen, ScreenState, test_app};
use std::time::Duration;

/// crossboard's own engine over the Hub protocol.
fn crossboard_hub() -> HubEngineConfig {
    HubEngineConfig {
        path: env!("CARGO_BIN_EXE_crossboard").into(),
        arguments: vec!["hub".into(), "--no-egdb".into()],
        options: Default::default(),
    }
}

/// Short thinking and a short bound: a silent engine is found out in well under a second.
fn quick() -> EngineSettings {
    EngineSettings {
        hint_ms: 100,
        hint_depth: None,
        play_ms: Some(100),
        review_depth: 4,
        hash_mb: 1,
        hub_grace_ms: 300,
    }
}

/// Practice from the start, the Hub engine `name` (`config`) playing White at 0.1 s a move.
fn against(clock: &FakeClock, name: &str, config: &HubEngineConfig) -> App {
    let mut app = test_app(clock, 80, 24);
    let mut p = PracticeScreen::start_position();
    let mut o = Opponent::at_level(Level::Club, Color::White);
    o.hub = Some(HubRival {
        move_ms: 100,
        ..HubRival::new(name, config)
    });
    p.engine = PracticeEngine::new(Some(o));
    p.engine.settings = quick();
    app.screen = Screen::Practice(p);
    app
}

fn wait_until(app: &mut App, clock: &FakeClock, done: impl Fn(&App) -> bool) {
    tick_until(app, clock, Duration::from_secs(20), done);
}

fn hub_state(app: &App) -> Option<SeatState> {
    practice(app).engine.hub.state()
}

#[test]
fn the_set_up_forms_offer_each_configured_engine_with_its_time_a_move() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.engines = vec![
        ("stub".into(), stub("silent", "Stubby")),
        ("cb".into(), crossboard_hub()),
    ];
    type_text(&mut app, &clock, "p");
    // None, five levels, then each engine of the config, then none again.
    type_text(&mut app, &clock, "oooooo");
    let text = render_text(&app);
    assert!(
        text.contains("Opponent: stub (Hub) plays White  (o: opponent, c: colour)"),
        "{text}"
    );
    assert!(
        text.contains("Time: 1.0 s a move  (+: next time)"),
        "{text}"
    );
    type_text(&mut app, &clock, "c++");
    let text = render_text(&app);
    assert!(text.contains("Opponent: stub (Hub) plays Red"), "{text}");
    assert!(text.contains("Time: 5.0 s a move"), "{text}");
    type_text(&mut app, &clock, "o");
    assert!(render_text(&app).contains("Opponent: cb (Hub) plays Red "));
    assert!(render_text(&app).contains("Time: 5.0 s a move"));
    // Another game than English draughts is refused with a Hub engine.
    type_text(&mut app, &clock, "r\n");
    let text = render_text(&app);
    assert!(
        text.contains("the Hub engine cb plays English draughts only"),
        "{text}"
    );
    type_text(&mut app, &clock, "rrro");
    assert!(render_text(&app).contains("Opponent: none (both sides by hand)"));
    type_text(&mut app, &clock, "+");
    assert!(render_text(&app).contains("the time a move is a Hub engine's: o chooses one"));
    // The position set-up screen's play on offers them too.
    type_text(&mut app, &clock, "q");
    let setup = crossboard::tui::PositionSetupScreen::default();
    app.screen = Screen::PositionSetup(Box::new(setup));
    type_text(&mut app, &clock, "oooooo+");
    let text = render_text(&app);
    assert!(text.contains("Opponent  stub (Hub) plays White"), "{text}");
    assert!(text.contains("Time      2.0 s a move (+)"), "{text}");
    assert!(text.contains("stub: 2.0 s a move"), "{text}");
    type_text(&mut app, &clock, "\n");
    let o = practice(&app).engine.opponent.clone().expect("an opponent");
    assert_eq!(
        o.hub.map(|h| (h.name, h.move_ms)),
        Some(("stub".into(), 2_000))
    );
}

#[test]
fn the_form_remembers_the_hub_engine_and_its_time() {
    let clock = FakeClock::new();
    let dir = tempfile::tempdir().unwrap();
    let mut app = test_app(&clock, 80, 24);
    app.practice_file = Some(dir.path().join("practice.toml"));
    app.matches.engines = vec![("stub".into(), stub("silent", "Stubby"))];
    type_text(&mut app, &clock, "poooooo+s\n");
    assert!(matches!(app.screen, Screen::Practice(_)));
    type_text(&mut app, &clock, "qp");
    let text = render_text(&app);
    assert!(text.contains("Opponent: stub (Hub) plays White"), "{text}");
    assert!(text.contains("Time: 2.0 s a move"), "{text}");
    // An engine no longer in the config: its level stays, crossboard plays.
    type_text(&mut app, &clock, "q");
    app.matches.engines.clear();
    type_text(&mut app, &clock, "p");
    let text = render_text(&app);
    assert!(
        text.contains("Opponent: master engine plays White"),
        "{text}"
    );
}

#[test]
fn a_hub_engine_plays_the_opponents_moves_and_hints_off_the_ui_thread() {
    let clock = FakeClock::new();
    let mut app = against(&clock, "cb", &crossboard_hub());
    assert!(app.screen.ticking(), "the engine starts off the UI thread");
    assert!(
        render_text(&app).contains("starting the Hub engine cb"),
        "{}",
        render_text(&app)
    );
    wait_until(&mut app, &clock, |a| {
        matches!(hub_state(a), Some(SeatState::Ready(_)))
    });
    let Some(SeatState::Ready(name)) = hub_state(&app) else {
        unreachable!()
    };
    assert!(name.starts_with("crossboard"), "{name}");
    assert!(!app.screen.ticking(), "Red (the human) to move: idle");
    assert!(render_text(&app).contains(&format!("Engine {name} plays White")));
    // The hint: asked of the Hub engine, the board untouched.
    type_text(&mut app, &clock, "t");
    assert_eq!(practice(&app).status().0, format!("hint: {name} thinking…"));
    wait_until(&mut app, &clock, |a| {
        practice(a).engine.current_hint(&practice(a).game).is_some()
    });
    let hint = practice(&app)
        .engine
        .current_hint(&practice(&app).game)
        .unwrap()
        .clone();
    assert!(Position::start().legal_moves().contains(&hint.best));
    assert_eq!(hint.engine.as_deref(), Some(name.as_str()));
    assert!(
        render_text(&app).contains(&format!("hint from {name}: {}", hint.best)),
        "{}",
        render_text(&app)
    );
    assert!(practice_moves(&app).is_empty(), "a hint plays nothing");
    // Its moves: keys are taken while it thinks.
    type_text(&mut app, &clock, "11-15\n");
    assert!(app.screen.ticking());
    assert!(
        practice(&app)
            .status()
            .0
            .starts_with(&format!("{name} thinking… (0.1 s a move)")),
        "{}",
        practice(&app).status().0
    );
    type_text(&mut app, &clock, "f");
    assert!(practice(&app).flipped, "a key while it thinks");
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 2);
    let after = Position::start().after(&practice(&app).game.moves()[0]);
    assert!(
        after
            .legal_moves()
            .contains(&practice(&app).game.moves()[1])
    );
    // Take-back: the engine is asked about the position on the board again.
    type_text(&mut app, &clock, "u");
    assert!(practice_moves(&app).is_empty());
    type_text(&mut app, &clock, "9-14\n");
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 2);
    assert_eq!(practice_moves(&app)[0], "9-14");
    // A new game: the engine is told, and plays on.
    type_text(&mut app, &clock, "r10-15\n");
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 2);
    assert_eq!(practice_moves(&app)[0], "10-15");
    assert!(matches!(hub_state(&app), Some(SeatState::Ready(_))));
}

/// The processes whose command line holds `marker`.
#[cfg(target_os = "linux")]
fn processes_with(marker: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(marker))
        .collect()
}

/// Wait (at most 10 s) until no process holds `marker`.
#[cfg(target_os = "linux")]
fn until_gone(marker: &str) {
    let start = std::time::Instant::now();
    while !processes_with(marker).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "left running: {:?}",
            processes_with(marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_engine_process_ends_with_practice_even_while_it_thinks() {
    let clock = FakeClock::new();
    let marker = format!("orphan-check-{}", std::process::id());
    // Idle: told to quit when practice ends.
    let mut app = against(&clock, "stub", &stub("silent", &format!("{marker}-a")));
    wait_until(&mut app, &clock, |a| {
        matches!(hub_state(a), Some(SeatState::Ready(_)))
    });
    assert_eq!(processes_with(&format!("{marker}-a")).len(), 1);
    type_text(&mut app, &clock, "q");
    assert!(matches!(app.screen, Screen::Home(_)));
    until_gone(&format!("{marker}-a"));
    // Thinking (and silent): ended too, not left to its bound.
    let mut app = against(&clock, "stub", &stub("silent", &format!("{marker}-b")));
    crossboard::tui::testing::practice_mut(&mut app)
        .engine
        .settings
        .hub_grace_ms = 60_000;
    type_text(&mut app, &clock, "11-15\n");
    wait_until(&mut app, &clock, |a| practice(a).engine.hub.thinking());
    wait_until(&mut app, &clock, |a| {
        matches!(hub_state(a), Some(SeatState::Ready(_)))
    });
    assert_eq!(processes_with(&format!("{marker}-b")).len(), 1);
    type_text(&mut app, &clock, "qy");
    assert!(
        matches!(app.screen, Screen::Home(_)),
        "{}",
        render_text(&app)
    );
    until_gone(&format!("{marker}-b"));
}

/// Practice against the stub misbehaving as `mode`: Red plays 11-15, the engine is asked and
/// misbehaves. Returns the app once the engine is stopped.
fn misbehaving(clock: &FakeClock, mode: &str, dir: &std::path::Path) -> App {
    let mut app = against(clock, "stub", &stub(mode, "Stubby"));
    app.practice_file = Some(dir.join("practice.toml"));
    type_text(&mut app, clock, "11-15\n");
    wait_until(&mut app, clock, |a| {
        matches!(hub_state(a), Some(SeatState::Stopped(_)))
    });
    app
}

/// The engine stopped as `mode` made it, said in words (`said`); the game kept on the board;
/// crossboard's engine plays on with `o`, and `w` keeps the game as PDN.
fn stopped_and_kept(mode: &str, said: &str) {
    let clock = FakeClock::new();
    let dir = tempfile::tempdir().unwrap();
    let mut app = misbehaving(&clock, mode, dir.path());
    let text = render_text(&app);
    let status = practice(&app).status().0;
    assert!(
        status.starts_with(&format!("Stubby 1.0: {said}")),
        "{mode}: {status}"
    );
    assert!(status.ends_with("stopped, the game is kept"), "{status}");
    assert!(text.contains("Engine stub stopped"), "{text}");
    assert!(text.contains("o: crossboard club plays on"), "{text}");
    assert!(text.contains("w: keep the game (PDN)"), "{text}");
    assert_eq!(practice_moves(&app), ["11-15"], "the game is kept");
    assert!(!app.screen.ticking(), "nothing runs now: {text}");
    // Kept as PDN with the engine named.
    type_text(&mut app, &clock, "w");
    let (said, _) = practice(&app).status();
    let path = said.split(" of ").nth(1).expect("saved").to_string();
    let pdn = std::fs::read_to_string(&path).unwrap();
    assert!(
        pdn.contains("[White \"stub\"]") && pdn.contains("11-15"),
        "{pdn}"
    );
    // crossboard's engine at the level of the form plays on from the position on the board.
    type_text(&mut app, &clock, "o");
    assert_eq!(
        practice(&app).status().0,
        "crossboard's club engine plays White from here"
    );
    wait_until(&mut app, &clock, |a| practice_moves(a).len() == 2);
    assert_eq!(practice_moves(&app)[0], "11-15");
    assert!(render_text(&app).contains("Engine club plays White"));
}

#[test]
fn a_crashing_hub_engine_is_stopped_and_the_game_kept() {
    stopped_and_kept("crash", "the engine quit (exit status: 3)");
}

#[test]
fn a_hub_engine_playing_an_illegal_move_is_stopped_and_the_game_kept() {
    stopped_and_kept("illegal", "played \"1-32\", not a legal move here");
}

#[test]
fn a_silent_hub_engine_is_stopped_past_its_bound_and_the_game_kept() {
    stopped_and_kept("silent", "silent, no answer within");
}

#[test]
fn a_hub_engine_writing_garbage_is_stopped_and_the_game_kept() {
    stopped_and_kept("garbage", "sent a line that is no Hub message");
}

#[test]
fn an_engine_that_cannot_start_is_said_and_both_sides_play_by_hand() {
    let clock = FakeClock::new();
    let gone = HubEngineConfig {
        path: "/nonexistent/engine".into(),
        arguments: vec![],
        options: Default::default(),
    };
    let mut app = against(&clock, "gone", &gone);
    wait_until(&mut app, &clock, |a| {
        matches!(hub_state(a), Some(SeatState::Stopped(_)))
    });
    let status = practice(&app).status().0;
    assert!(
        status.starts_with("gone: its program /nonexistent/engine is not found"),
        "{status}"
    );
    type_text(&mut app, &clock, "11-15\n22-18\n");
    assert_eq!(practice_moves(&app), ["11-15", "22-18"]);
}

/// Practice from the start against crossboard's beginner, the config's engines `engines`.
fn with_engines(clock: &FakeClock, engines: Vec<(String, HubEngineConfig)>) -> App {
    let mut app = test_app(clock, 80, 24);
    app.matches.engines = engines;
    let mut p = PracticeScreen::start_position();
    p.engine = PracticeEngine::new(Some(Opponent::at_level(Level::Beginner, Color::White)));
    p.engine.settings = quick();
    app.screen = Screen::Practice(p);
    app
}

#[test]
fn hints_from_a_hub_engine_while_crossboard_plays() {
    let clock = FakeClock::new();
    let mut app = with_engines(&clock, vec![("cb".into(), crossboard_hub())]);
    type_text(&mut app, &clock, "T");
    assert_eq!(practice(&app).status().0, "hints from cb (Hub)");
    assert!(
        app.screen.ticking(),
        "the hints' engine starts off the UI thread"
    );
    type_text(&mut app, &clock, "t");
    let hint = await_hint(&mut app, &clock);
    let name = hint.engine.clone().expect("a Hub engine's hint");
    assert!(name.starts_with("crossboard"), "{name}");
    assert!(Position::start().legal_moves().contains(&hint.best));
    assert!(render_text(&app).contains(&format!("hint from {name}: {}", hint.best)));
    // T again: crossboard's own hints.
    type_text(&mut app, &clock, "T");
    assert_eq!(practice(&app).status().0, "hints from crossboard");
    assert!(practice(&app).engine.hinter.is_none());
}

#[test]
fn a_hints_engine_that_crashes_is_stopped_and_crossboard_hints() {
    let clock = FakeClock::new();
    let mut app = with_engines(&clock, vec![("stub".into(), stub("crash", "Stubby"))]);
    type_text(&mut app, &clock, "Tt");
    wait_until(&mut app, &clock, |a| {
        matches!(
            practice(a).engine.hint_hub.state(),
            Some(SeatState::Stopped(_))
        )
    });
    assert_eq!(
        practice(&app).status().0,
        "Stubby 1.0: the engine quit (exit status: 3): stopped; hints from crossboard"
    );
    type_text(&mut app, &clock, "t");
    assert_eq!(await_hint(&mut app, &clock).engine, None);
    assert!(practice_moves(&app).is_empty());
}
