//! End-to-end test of the real binary under tmux: practice against the engine. The event loop
//! must wake for the engine's reply, the hint and the analysis pane with no key pressed.

use crate::common;

use common::{Tmux, WAIT_SECS, bin};

/// Red plays 11-15 on the practice screen; the reply appears by itself ("1. 11-15  22-18":
/// some White move after Red's). Returns the screen.
fn play_and_await_reply(t: &Tmux, what: &str) -> String {
    t.text("11-15");
    t.keys(&["Enter"]);
    t.wait_for(what, WAIT_SECS, |s| {
        s.lines().any(|l| {
            l.split("1. 11-15")
                .nth(1)
                .is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        })
    })
}

/// Leave practice without keeping the game, then quit from the home screen.
fn leave_and_quit(t: &Tmux) {
    t.keys(&["q"]);
    t.wait_text("Leave practice");
    t.keys(&["y"]);
    t.wait_text("New match");
    t.keys(&["q"]);
    t.wait_text("EXITED");
}

#[test]
fn practice_against_the_engine_replies_and_hints_without_input() {
    // Its own data folder: practice set-up memory is written there, not in the user's.
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!(
        "XDG_DATA_HOME={} {}; echo EXITED; sleep 30",
        dir.path().display(),
        bin()
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    t.wait_text("New match");
    t.keys(&["p"]);
    t.wait_text("choose an opening system");
    t.keys(&["o"]);
    t.wait_text("beginner engine plays White");
    t.keys(&["s", "Enter"]);
    t.wait_text("Practice · start position");
    let screen = play_and_await_reply(&t, "the engine's reply");
    assert!(screen.contains("Engine beginner plays White"), "{screen}");
    t.keys(&["t"]);
    let screen = t.wait_for("the hint", WAIT_SECS, |s| {
        s.lines()
            .any(|l| l.contains("hint: ") && l.contains("depth"))
    });
    assert!(screen.contains("1. 11-15"), "{screen}");
    assert!(!screen.contains("2. "), "the hint played nothing: {screen}");
    // The analysis pane: the engine thinks aloud, live (as many lines as Red has moves, up
    // to three); hidden again at once.
    t.keys(&["e"]);
    t.wait_for("the analysis pane", WAIT_SECS, |s| {
        s.contains("Engine depth") && s.contains("nodes/s") && s.contains(" 1.  ")
    });
    t.keys(&["e"]);
    t.wait_for("the pane hidden", WAIT_SECS, |s| {
        !s.contains("Engine depth")
    });
    leave_and_quit(&t);
}

#[test]
fn practice_against_crossboard_hub_configured_as_a_hub_engine() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[engines.cb]\npath = {:?}\narguments = [\"hub\", \"--no-egdb\"]\n",
            bin()
        ),
    )
    .unwrap();
    let cmd = format!(
        "XDG_DATA_HOME={} {} --config {}; echo EXITED; sleep 30",
        dir.path().display(),
        bin(),
        config.display()
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    t.wait_text("New match");
    t.keys(&["p"]);
    t.wait_text("choose an opening system");
    // None, the five levels, then the engine of the config.
    t.keys(&["o", "o", "o", "o", "o", "o"]);
    t.wait_text("cb (Hub) plays White");
    t.wait_text("Time: 1.0 s a move");
    // The time a move: 1.0 s, then 2, 5, 10, 30 and 0.5 s.
    t.keys(&["+", "+", "+", "+", "+"]);
    t.wait_text("cb: 0.5 s a move");
    t.keys(&["s", "Enter"]);
    t.wait_text("Practice · start position");
    t.wait_text("Hub engine, 0.5 s a move");
    let screen = play_and_await_reply(&t, "the Hub engine's reply");
    assert!(screen.contains("Engine crossboard"), "{screen}");
    leave_and_quit(&t);
}
