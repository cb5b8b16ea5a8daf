//! The analysis pane with a Hub engine (the stub engine, `tests/fixtures/hub/stub-engine.sh`):
//! `E` goes from crossboard's engine through the config's engines and back; the pane shows the
//! engine's name, depth, speed and its one line as it reports them, what it could not read, and
//! an engine that misbehaves named with what it did.
#![cfg(unix)]

use crate::hub_engines::stub;
use crossboard::engine::{Move, Position};
use crossboard::hub::HubInfo;
use crossboard::search::Score;
use crossboard::tui::analysis_pane::AnalysisPane;
use crossboard::tui::{App, FakeClock, PracticeScreen, Screen, ScreenState};
use crossboard::tui::{practice, render_text, test_app, tick_until, type_text};
use std::time::Duration;

fn pv(moves: &str) -> Vec<Move> {
    crate::analysis_pane::line(&Position::start(), moves)
}

#[test]
fn a_hub_engines_line_is_shown_as_it_reports_it_with_one_line_said() {
    let info = HubInfo {
        depth: Some(17),
        score: Some(Score(12)),
        nodes: Some(9_000_000),
        time: Some(Duration::from_secs(3)),
        nps: Some(3_000_000.0),
        pv: pv("11-15 23-19 8-11"),
        unread: Vec::new(),
    };
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut screen = PracticeScreen::start_position();
    screen.analysis = AnalysisPane::fed_hub(
        Position::start(),
        "Stubby 1.0",
        info,
        Duration::from_secs(3),
    );
    app.screen = Screen::Practice(screen);
    let text = render_text(&app);
    assert!(
        text.contains("Stubby 1.0 depth 17 . 3.00 M nodes/s"),
        "{text}"
    );
    assert!(text.contains("1.   +0.12 11-15 23-19 8-11"), "{text}");
    assert!(text.contains("one line: Hub has no multi-PV"), "{text}");
    assert!(text.lines().nth(23).unwrap().contains("? help"), "{text}");
}

/// `E` on practice: the stub's analysis live (its lines read off the UI thread), what it
/// could not read named; `E` again, crossboard's engine; an engine that crashes named.
#[test]
fn e_chooses_the_engine_and_the_stub_thinks_aloud_or_is_named_when_it_fails() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.engines = vec![
        ("stub".into(), stub("think", "Stubby")),
        ("odd".into(), stub("badinfo", "Odd")),
    ];
    type_text(&mut app, &clock, "ps\n");
    let hub = |a: &App| practice(a).analysis.hub_info().cloned();
    type_text(&mut app, &clock, "E");
    assert!(app.screen.ticking(), "the engine starts off the UI thread");
    tick_until(&mut app, &clock, Duration::from_secs(10), |a| {
        hub(a).is_some()
    });
    let text = render_text(&app);
    assert!(text.contains("Stubby 1.0 depth 3"), "{text}");
    assert!(text.contains("+0.12 11-15 23-19 8-11"), "{text}");
    assert!(
        app.screen.ticking(),
        "an endless analysis: the pane waits for more"
    );

    // The next engine: its line read in part, the rest named.
    type_text(&mut app, &clock, "E");
    tick_until(&mut app, &clock, Duration::from_secs(10), |a| {
        hub(a).is_some()
    });
    let text = render_text(&app);
    assert!(text.contains("Odd 1.0 depth ?"), "{text}");
    assert!(
        text.contains("not read (3): depth=\"deep\" is not a"),
        "{text}"
    );
    // Then crossboard's engine again, with its lines.
    type_text(&mut app, &clock, "E");
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        practice(a).analysis.info().is_some()
    });
    assert!(render_text(&app).contains("Engine depth"));

    // An engine that crashes on `go`: stopped, named with what it did; the game goes on.
    app.matches.engines = vec![("crash".into(), stub("crash", "Stubby"))];
    type_text(&mut app, &clock, "E");
    tick_until(&mut app, &clock, Duration::from_secs(10), |a| {
        practice(a).analysis.notice().is_some()
    });
    let text = render_text(&app);
    for row in [
        "Stubby 1.0, stopped:",
        "the engine quit (exit status: 3)",
        "e: hide . E: next engine",
    ] {
        assert!(text.contains(row), "{row}: {text}");
    }
    assert!(!app.screen.ticking(), "nothing runs");
    type_text(&mut app, &clock, "11-15\n");
    assert_eq!(practice(&app).game.moves().len(), 1, "the game goes on");
    assert!(practice(&app).analysis.notice().is_some(), "still said");
    // `e` twice: crossboard's engine.
    type_text(&mut app, &clock, "ee");
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        practice(a).analysis.info().is_some()
    });

    // No engine in the config: `E` says so.
    app.matches.engines = Vec::new();
    type_text(&mut app, &clock, "E");
    assert!(
        render_text(&app).contains("no Hub engine in the config file:"),
        "{}",
        render_text(&app)
    );
}
