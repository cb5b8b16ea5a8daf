//! Every key of every binding table of the screens outside the match (the match's stages have
//! theirs in `tui_match_stages.rs`): each screen, reached with the real keys, declares the
//! tables it looks keys up in ([`ScreenState::chain`]); every key of them reaches its binding,
//! is in the `?` help with its text, and does something visible when pressed.

use crossboard::tui::keys::check_chain;
use crossboard::tui::testing::{feed, render_buffer, render_text, test_app, type_text};
use crossboard::tui::{App, FakeClock, Msg, ScreenState};

/// The screens, by name, and the keys that reach each from the home screen.
const SCREENS: [(&str, &str); 9] = [
    ("home", ""),
    ("practice set-up", "p"),
    ("practice", "p\n"),
    ("review", "otests/fixtures/pdn/loy_chinook_1991.pdn\n\nh"),
    ("open a PDN: path", "o"),
    (
        "open a PDN: games",
        "otests/fixtures/pdn/loy_chinook_1991.pdn\n",
    ),
    ("match set-up: a name", "n"),
    ("match set-up: a choice", "n\t\t\t"),
    ("resume list", "r"),
];

/// A fresh app (its own match folder, one saved match in it) taken to `screen`.
fn reach(keys: &str) -> (FakeClock, App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.dir = Some(dir.path().join("matches"));
    app.matches.defaults.players = ["Ann".into(), "Bob".into()];
    app.practice_file = Some(dir.path().join("practice.toml"));
    // One match started and left, for the resume list.
    type_text(&mut app, &clock, "n\nqy");
    type_text(&mut app, &clock, keys);
    (clock, app, dir)
}

/// Keys that change nothing in the state they are tried in (an empty field, the first entry
/// of a list already highlighted, the only saved match).
fn quiet(screen: &str, key: &str) -> bool {
    match screen {
        // Nothing typed or played; the cursor starts on the top row (square 4).
        "practice" => ["Backspace", "Ctrl-U", "Esc", "u", "↑", "k"].contains(&key),
        "open a PDN: path" => ["Backspace", "Ctrl-U"].contains(&key),
        "match set-up: a name" => ["Ctrl-U"].contains(&key),
        "resume list" => ["↑", "↓", "k", "j"].contains(&key),
        // Nothing typed; the 11-Man Ballot already chosen.
        "practice set-up" => ["Backspace", "m"].contains(&key),
        "home" => key == "Home",
        // The file has one game.
        "open a PDN: games" => ["↑", "↓", "k", "j", "Tab", "Home", "End"].contains(&key),
        _ => false,
    }
}

#[test]
fn every_screen_declares_its_key_tables_and_each_key_is_in_its_help() {
    for (name, keys) in SCREENS {
        let (_clock, app, _dir) = reach(keys);
        let chain = app.screen.chain();
        assert!(
            !chain.is_empty(),
            "{name}: no key tables declared:\n{}",
            render_text(&app)
        );
        // A key two tables share on purpose: the later one has it only when the earlier
        // lets it through; both are in the help.
        let shared = |key: &str| name == "practice" && key == "Backspace";
        let help = app.screen.keys();
        let mut seen = Vec::new();
        let chain: Vec<_> = chain
            .into_iter()
            .map(|table| {
                table
                    .into_iter()
                    .map(|(keys, text)| {
                        let keys = keys
                            .into_iter()
                            .filter(|k| {
                                let later = seen.contains(&k.label()) && shared(&k.label());
                                if later {
                                    assert!(
                                        help.iter()
                                            .any(|l| l.keys.contains(&k.label()) && l.text == text),
                                        "{name}: {} ({text}) not in the help",
                                        k.label()
                                    );
                                }
                                seen.push(k.label());
                                !later
                            })
                            .collect();
                        (keys, text)
                    })
                    .collect()
            })
            .collect();
        check_chain(&chain, &help).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The help of every screen fits the smallest terminal.
        let h = crossboard::tui::widgets::menu::help_height(&app.screen.keys(), 80);
        assert!(h <= 24, "{name}: the help needs {h} rows");
    }
}

#[test]
fn every_key_of_every_screen_does_something_visible() {
    for (name, keys) in SCREENS {
        let (_clock, app, _dir) = reach(keys);
        // The cells with their styles: a cursor is drawn reversed, not with a character.
        let before = render_buffer(&app);
        let title = app.screen.title();
        for table in app.screen.chain() {
            for (keys_of, help) in table {
                for k in keys_of {
                    if quiet(name, &k.label()) {
                        continue;
                    }
                    let (clock, mut app, _dir) = reach(keys);
                    feed(&mut app, &clock, [Msg::Key(k.event())]);
                    let after = render_buffer(&app);
                    assert!(
                        app.should_quit() || app.screen.title() != title || after != before,
                        "{name}: {} ({help}) changed nothing:\n{}",
                        k.label(),
                        render_text(&app)
                    );
                }
            }
        }
    }
}
