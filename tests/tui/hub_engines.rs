//! Other engines in the terminal UI: the engines screen lists the config's Hub engines with
//! what each is (not found, the name and version it gives on start, or why it failed), using a
//! stub engine (`tests/fixtures/hub/stub-engine.sh`) that misbehaves on command.
#![cfg(unix)]

use crossboard::store::HubEngineConfig;
use crossboard::tui::EngineState;
use crossboard::tui::{App, FakeClock, Screen, ScreenState, render_text};
use crossboard::tui::{test_app, tick_until, type_text};
use std::path::PathBuf;
use std::time::Duration;

/// The stub engine, told to behave as `mode` and to call itself `name`.
pub(crate) fn stub(mode: &str, name: &str) -> HubEngineConfig {
    HubEngineConfig {
        path: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hub/stub-engine.sh"),
        arguments: vec![mode.into(), name.into()],
        options: [(
            "hash".to_string(),
            crossboard::store::ParamValue::Integer(8),
        )]
        .into(),
    }
}

fn states(app: &App) -> Vec<EngineState> {
    match &app.screen {
        Screen::Engines(s) => s.rows.iter().map(|r| r.state.clone()).collect(),
        _ => panic!("not on the engines screen:\n{}", render_text(app)),
    }
}

#[test]
fn the_engines_screen_lists_each_engine_with_what_it_says_it_is() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.engines = vec![
        ("stub".into(), stub("silent", "Stubby")),
        (
            "gone".into(),
            HubEngineConfig {
                path: "/nonexistent/engine".into(),
                arguments: vec![],
                options: Default::default(),
            },
        ),
        (
            "not hub".into(),
            HubEngineConfig {
                path: "false".into(),
                arguments: vec![],
                options: Default::default(),
            },
        ),
    ];
    type_text(&mut app, &clock, "h");
    assert!(app.screen.ticking(), "the engines start off the UI thread");
    tick_until(&mut app, &clock, Duration::from_secs(10), |a| {
        !states(a).contains(&EngineState::Starting)
    });
    let text = render_text(&app);
    assert_eq!(states(&app)[0], EngineState::Ready("Stubby 1.0".into()));
    assert!(
        text.contains("stub                     ready: Stubby 1.0"),
        "{text}"
    );
    assert!(
        text.contains("stub-engine.sh silent Stubby . hash=8"),
        "{text}"
    );
    assert!(
        text.contains("gone                     not found"),
        "{text}"
    );
    assert!(
        text.contains("not hub                  failed: not hub: the engine quit (exit status: 1)"),
        "{text}"
    );
    assert!(
        text.lines().nth(23).unwrap().contains("r check . q back"),
        "{text}"
    );
    // r starts them again; q goes back home.
    type_text(&mut app, &clock, "r");
    assert_eq!(states(&app)[0], EngineState::Starting);
    type_text(&mut app, &clock, "q");
    assert!(matches!(app.screen, Screen::Home(_)));
}

#[test]
fn with_no_engine_the_screen_says_how_to_add_one() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "h");
    let text = render_text(&app);
    assert!(
        text.contains("No engine in the config file. Add one as [engines.NAME]"),
        "{text}"
    );
    assert!(!app.screen.ticking());
}
