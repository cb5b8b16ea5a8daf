//! Every stage of the match screen, walked through a whole two-ballot match with the real key
//! handling and a fake clock: each stage drawn at 80x24 and 160x50, with `--ascii`, in colour
//! and with NO_COLOR (snapshots of the text in each mode, assertions on what matters:
//! prompts, the clock digits after a flag, the help lines, the NOT SAVED mark); the key tables
//! in force at each stage (every key reaches its binding and is in the help); and every key of
//! a stage does something visible.

use crossboard::tui::StageKind;
use crossboard::tui::check_chain;
use crossboard::tui::match_screen as screen;
use crossboard::tui::ticks;
use crossboard::tui::{App, Appearance, FakeClock, Msg, Screen, ScreenState};
use crossboard::tui::{feed, render_text, test_app, type_text};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;
use std::time::Duration;

fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Play the first legal move after `secs` seconds.
fn play(app: &mut App, clock: &FakeClock, secs: u64) {
    clock.advance(Duration::from_secs(secs));
    let mv = screen(app)
        .game_match()
        .playing()
        .expect("a game is on")
        .game
        .position()
        .legal_moves()[0]
        .to_string();
    type_text(app, clock, &format!("{mv}\n"));
}

/// The states of the walk, by name, in order.
const STATES: [&str; 19] = [
    "toss",
    "toss-spinning",
    "toss-choose",
    "toss-done",
    "draw",
    "draw-cards",
    "decide-white",
    "decide-red",
    "draw-again",
    "decide-accepted",
    "pre-game",
    "game",
    "director-menu",
    "resume-question",
    "game-paused",
    "over-flag",
    "results",
    "results-final",
    "log",
];

/// A new app walked from the home screen to the state `upto`; `not_saved`: the match file's
/// folder is removed after the start, so every save from then on fails.
fn walk(upto: &str, not_saved: bool) -> (FakeClock, App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.fixed_wall = Some("2026-11-30T12:00:00Z".parse().unwrap());
    app.matches.dir = Some(dir.path().join("matches"));
    app.matches.defaults.players = ["Ann".into(), "Bob".into()];
    app.matches.defaults.ballots = 2;
    app.matches.defaults.time_control = "1".parse().unwrap();
    let at = |name: &str, _app: &App| name == upto;
    type_text(&mut app, &clock, "n\n");
    if not_saved {
        std::fs::remove_dir_all(dir.path().join("matches")).unwrap();
    }
    if at("toss", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "h");
    ticks(&mut app, &clock, 3);
    if at("toss-spinning", &app) {
        return (clock, app, dir);
    }
    ticks(&mut app, &clock, 20);
    if at("toss-choose", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "r");
    if at("toss-done", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\n");
    if at("draw", &app) {
        return (clock, app, dir);
    }
    // Card by card (the default): two cards turned, the third waits for its key.
    type_text(&mut app, &clock, "\n  ");
    ticks(&mut app, &clock, 7);
    if at("draw-cards", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\n");
    if at("decide-white", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "r");
    if at("decide-red", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "r");
    if at("draw-again", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\n\na");
    if at("decide-accepted", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\n");
    if at("pre-game", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\n");
    play(&mut app, &clock, 7);
    play(&mut app, &clock, 11);
    clock.advance(Duration::from_secs(3));
    if at("game", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "Dy");
    if at("director-menu", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\x1b");
    if at("resume-question", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "n");
    if at("game-paused", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\ny");
    // Red thinks past the end of the minute: the flag falls at the next tick.
    clock.advance(Duration::from_secs(61));
    feed(&mut app, &clock, [Msg::Tick]);
    if at("over-flag", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "\n");
    if at("results", &app) {
        return (clock, app, dir);
    }
    // Game 2: White resigns; ballot 2: one resignation each, with a note.
    type_text(&mut app, &clock, "\n\nrwy\n\n");
    type_text(&mut app, &clock, "\n\n\n");
    ticks(&mut app, &clock, 40);
    type_text(&mut app, &clock, "a\n\n");
    type_text(&mut app, &clock, "Dyn");
    type_text(
        &mut app,
        &clock,
        "both players agreed to play on after a dispute\ny",
    );
    type_text(&mut app, &clock, "y");
    type_text(&mut app, &clock, "rry\n\n\nrwy\n\n");
    if at("results-final", &app) {
        return (clock, app, dir);
    }
    type_text(&mut app, &clock, "L");
    assert!(at("log", &app));
    (clock, app, dir)
}

/// The three display modes: `--ascii`, colour, NO_COLOR.
fn modes() -> [(&'static str, Appearance); 3] {
    [
        ("ascii", Appearance::from_flags(true, false, None)),
        ("colour", Appearance::from_flags(false, false, None)),
        ("no-color", Appearance::from_flags(false, false, Some("1"))),
    ]
}

/// The app drawn in a mode at a size.
fn drawn(app: &mut App, look: Appearance, w: u16, h: u16) -> (String, ratatui::buffer::Buffer) {
    let (old_look, old_size) = (app.appearance.clone(), app.size);
    app.appearance = look;
    app.size = Size::new(w, h);
    let buf = crossboard::tui::render_buffer(app);
    let text = crossboard::tui::buffer_text(&buf);
    app.appearance = old_look;
    app.size = old_size;
    (text, buf)
}

/// What must be on the screen at each state (any size, any mode).
fn must_show(state: &str) -> &'static [&'static str] {
    match state {
        "toss" => &["calls the coin: h heads, t tails"],
        "toss-spinning" => &["the coin is in the air"],
        "toss-choose" => &["won the toss", "chooses a colour: r Red, w White"],
        "toss-done" => &["has Red in game 1", "Enter goes on to the ballot draw"],
        "draw" => &["Ballot 1: Enter draws the ballot card by card"],
        "draw-cards" => &["card 3 of", "waits for a key", "Space next card"],
        "decide-white" => &["White decides first", "a accepts, r rejects"],
        "decide-red" => &["White rejected; now Red"],
        "draw-again" => &["Both players rejected", "Enter draws a new ballot 1"],
        "decide-accepted" => &["Ballot accepted: Enter goes to the board"],
        "pre-game" => &["Enter starts Red's clock", "paused"],
        "game" => &["to move", "game 1 of 2"],
        "director-menu" => &[
            "Undo the last decision",
            "Both clocks are paused while the director menu is open",
        ],
        "resume-question" => &["clock again?"],
        "game-paused" => &["Clocks paused: Enter resumes them", "paused"],
        "over-flag" => &["FLAG FELL", "on time", "Enter: results and score"],
        "results" => &["Between games", "By game", "By ballot", "plies"],
        "results-final" => &["Match over", "Notes: 1", "both players agreed"],
        "log" => &[
            "Event log",
            "NOTE: both players agreed",
            "director: clocks paused",
        ],
        _ => &[],
    }
}

#[test]
fn every_stage_at_both_sizes_in_every_mode() {
    for state in STATES {
        let (_clock, mut app, _dir) = walk(state, false);
        let mut snapshot = String::new();
        for (w, h) in [(80u16, 24u16), (160, 50)] {
            let mut texts = Vec::new();
            for (mode, look) in modes() {
                let (text, buf) = drawn(&mut app, look.clone(), w, h);
                // Words only: a status wrapped over two rows still reads as one.
                let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
                for needed in must_show(state) {
                    let needed = if look.ascii {
                        crossboard::tui::ascii_text(needed)
                    } else {
                        needed.to_string()
                    };
                    assert!(
                        flat.contains(&needed),
                        "{state} {w}x{h} {mode}: {needed:?} missing:\n{text}"
                    );
                }
                if look.ascii {
                    assert!(text.is_ascii(), "{state} {w}x{h} --ascii:\n{text}");
                }
                let coloured = buf.content.iter().any(|c| {
                    c.fg != ratatui::style::Color::Reset || c.bg != ratatui::style::Color::Reset
                });
                assert_eq!(coloured, look.color, "{state} {w}x{h} {mode}: colours");
                texts.push((mode, text));
            }
            for (mode, text) in &texts {
                snapshot.push_str(&format!("==== {w}x{h} {mode} ====\n{text}"));
            }
        }
        insta::assert_snapshot!(format!("stage_{state}"), snapshot);
    }
}

#[test]
fn the_flagged_clock_reads_zero_not_the_time_at_the_start_of_the_turn() {
    let (clock, mut app, _dir) = walk("over-flag", false);
    let s = screen(&app);
    assert_eq!(s.stage(), StageKind::Over);
    // Red had 53 s at the start of the turn; its face reads 0 and says the flag fell.
    let panel = s
        .session
        .clock_view(crossboard::tui::TimeSource::now(&clock))
        .unwrap();
    assert_eq!(panel.red.remaining_ms, 0, "{panel:?}");
    assert!(panel.red.flagged);
    assert!(!panel.white.flagged);
    // Drawn small, the digits are text: 0.0 on the flagged face.
    let (text, _) = drawn(&mut app, Appearance::from_flags(true, false, None), 80, 24);
    assert!(text.contains("FLAG FELL"), "{text}");
}

#[test]
fn the_not_saved_mark_is_on_every_stage() {
    // From the first save after the folder went away (the toss) to the end.
    for state in &STATES[1..] {
        let (_clock, mut app, _dir) = walk(state, true);
        for (w, h) in [(80u16, 24u16), (160, 50)] {
            let (text, _) = drawn(&mut app, Appearance::from_flags(true, false, None), w, h);
            assert!(
                text.lines().next().unwrap_or("").contains("NOT SAVED"),
                "{state} {w}x{h}:\n{text}"
            );
        }
    }
}

#[test]
fn at_every_stage_every_key_reaches_its_binding_and_is_in_the_help() {
    for state in STATES {
        let (_clock, app, _dir) = walk(state, false);
        let s = screen(&app);
        if s.popup.is_some() {
            continue;
        }
        check_chain(&s.chain(), &s.keys()).unwrap_or_else(|e| panic!("{state}: {e}"));
        // The help fits the smallest screen.
        let h = crossboard::tui::menu::help_height(&s.keys(), 80);
        assert!(h <= 24, "{state}: the help needs {h} rows");
    }
}

#[test]
fn every_key_of_a_stage_does_something_visible() {
    // Keys that change nothing in the state they are tried in (an empty move field, the
    // tables already at their end).
    let quiet = |state: &str, key: &str| {
        ["Backspace", "Ctrl-U", "Esc", "↓"].contains(&key)
            || (state.starts_with("toss") && key == "1")
            || (state.starts_with("results") && key == "↑")
    };
    for state in STATES {
        let (clock, mut app, dir) = walk(state, false);
        if screen(&app).popup.is_some() {
            // A popup takes the keys: its own tables are checked with its widget.
            continue;
        }
        let chain = screen(&app).chain();
        drop((clock, dir));
        let before = {
            app.size = Size::new(80, 24);
            render_text(&app)
        };
        drop(app);
        for table in &chain {
            for (keys, help) in table {
                for k in keys.iter() {
                    if quiet(state, &k.label()) {
                        continue;
                    }
                    let (clock, mut app, _dir) = walk(state, false);
                    feed(&mut app, &clock, [Msg::Key(k.event())]);
                    let after = render_text(&app);
                    let gone = !matches!(app.screen, Screen::Match(_));
                    assert!(
                        gone || after != before,
                        "{state}: {} ({help}) changed nothing:\n{after}",
                        k.label()
                    );
                }
            }
        }
    }
}

#[test]
fn ctrl_c_in_a_running_game_asks_first() {
    let (clock, mut app, _dir) = walk("game", false);
    let effects = app.update(ctrl('c'), crossboard::tui::TimeSource::now(&clock));
    assert!(effects.is_empty(), "not quit yet");
    assert!(render_text(&app).contains("Quit now?"));
    type_text(&mut app, &clock, "n");
    assert!(!app.should_quit());
    feed(&mut app, &clock, [ctrl('c'), ctrl('c')]);
    assert!(app.should_quit(), "Ctrl-C twice quits");
}

#[test]
fn the_move_field_clears_on_ctrl_u_esc_and_a_refused_move() {
    let (clock, mut app, _dir) = walk("game", false);
    let field = |app: &App| {
        render_text(app)
            .lines()
            .find(|l| l.contains("Move:"))
            .unwrap_or_default()
            .to_string()
    };
    for clear in ["\x15", "\x1b"] {
        type_text(&mut app, &clock, "11-1");
        assert!(field(&app).contains("Move: 11-1_"), "{}", field(&app));
        type_text(&mut app, &clock, clear);
        assert!(
            field(&app).contains("Move: _"),
            "{clear:?}: {}",
            field(&app)
        );
    }
    // A refused move is named in the message and cleared: the next one does not append.
    type_text(&mut app, &clock, "9-99\n");
    let text = render_text(&app);
    assert!(text.contains("9-99"), "{text}");
    assert!(field(&app).contains("Move: _"), "{}", field(&app));
    let before = screen(&app).game_match().log().len();
    play(&mut app, &clock, 1);
    assert!(
        screen(&app).game_match().log().len() > before,
        "the next move plays"
    );
    // The game's help lists these keys.
    let help = screen(&app).keys();
    assert!(
        help.iter()
            .any(|l| l.keys.contains("Ctrl-U") && l.keys.contains("Esc")),
        "{help:?}"
    );
}

#[test]
fn a_note_ending_in_a_full_stop_is_confirmed_without_a_stray_question_mark() {
    let (clock, mut app, _dir) = walk("director-menu", false);
    type_text(&mut app, &clock, "nplay on until the end.\n");
    let text = render_text(&app);
    assert!(
        text.contains("Add the note: play on until the end."),
        "{text}"
    );
    assert!(text.contains("Confirm?"), "{text}");
    assert!(!text.contains("end.?"), "{text}");
}
