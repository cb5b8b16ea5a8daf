//! End-to-end tests of the real binary under tmux for the match flow: a match started with
//! the defaults and moves played; SIGKILL mid-game, then `crossboard resume` shows every move and
//! clock reading. Same harness as `e2e_tui.rs` (own tmux server per test, polling with a
//! deadline, skipped only when tmux is absent).

use crate::common;

use common::{Tmux, WAIT_SECS, bin, play_two_moves, start_default_match};
use std::process::Command;

#[test]
fn a_match_on_the_defaults_starts_and_moves_are_played() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!(
        "XDG_DATA_HOME={} {} --ascii; echo EXITED; sleep 30",
        dir.path().display(),
        bin()
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    start_default_match(&t);
    let moves = play_two_moves(&t);
    let screen = t.capture();
    assert!(
        screen.contains(&format!("1. {} 59:", moves[0]))
            || screen.contains(&format!("1. {} 1:00:00", moves[0]))
            || screen.contains(&format!("... {}", moves[0])),
        "the move list has the move and its clock reading:\n{screen}"
    );
    assert!(screen.contains("game 1 of 2"), "{screen}");
    // Ctrl-C in a running game asks first (the match is saved either way); y quits.
    t.keys(&["C-c"]);
    t.wait_text("Quit now?");
    t.keys(&["y"]);
    t.wait_text("EXITED");
}

/// The move list rows ("1. 11-15 59:58  23-19 59:55") of a screen.
fn move_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|l| {
            let start = l.find("1. ")?;
            let row: String = l[start..].trim_end_matches(['|', ' ']).to_string();
            row.contains(':').then_some(row)
        })
        .collect()
}

#[test]
fn sigkill_mid_game_then_resume_shows_every_move_and_clock_reading() {
    let dir = tempfile::tempdir().unwrap();
    let env = format!(
        "XDG_DATA_HOME={0}/data XDG_CONFIG_HOME={0}/config",
        dir.path().display()
    );
    let cmd = format!("exec env {env} {} --ascii", bin());
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    start_default_match(&t);
    let moves = play_two_moves(&t);
    let before = t.capture();
    let rows = move_rows(&before);
    assert_eq!(rows.len(), 1, "one row of two moves:\n{before}");
    assert!(
        rows[0].contains(&moves[0]) && rows[0].contains(&moves[1]),
        "{before}"
    );
    // SIGKILL the binary (the pane's process): no chance to save anything more.
    let pid = String::from_utf8_lossy(
        &t.tmux(&["display", "-p", "-t", "e2e", "#{pane_pid}"])
            .stdout,
    )
    .trim()
    .to_string();
    let killed = Command::new("kill").args(["-9", &pid]).status().unwrap();
    assert!(killed.success(), "kill -9 {pid}");
    t.wait_for("the pane to die", WAIT_SECS, |_| {
        String::from_utf8_lossy(
            &t.tmux(&["display", "-p", "-t", "e2e", "#{pane_dead}"])
                .stdout,
        )
        .trim()
            == "1"
    });
    // `crossboard resume` with no argument: the most recent unfinished match.
    t.tmux(&[
        "respawn-pane",
        "-k",
        "-t",
        "e2e",
        &format!("exec env {env} {} --ascii resume", bin()),
    ]);
    let after = t.wait_text("clocks paused at the last move");
    assert_eq!(
        move_rows(&after),
        rows,
        "every move and clock reading is back:\nbefore:\n{before}\nafter:\n{after}"
    );
    assert!(after.contains("paused"), "{after}");
    // The director resumes the clocks and play goes on.
    t.keys(&["Enter"]);
    t.wait_text("Start ");
    t.keys(&["y"]);
    t.wait_for("clocks running", WAIT_SECS, |s| {
        !s.contains("Clocks paused") && s.contains("to move")
    });
    // Ctrl-C twice quits at once.
    t.keys(&["C-c"]);
    t.wait_text("Quit now?");
    t.keys(&["C-c"]);
}
