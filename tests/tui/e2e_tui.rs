//! End-to-end tests of the real binary under tmux: practice mode (and a position set up from a
//! FEN), a window too small, `?` help, and the terminal restored on exit. Each test runs on its
//! own tmux server (`-L`), polls `capture-pane` with a deadline, and is skipped (with a message)
//! only when tmux is absent.

use crate::common;

use common::{Tmux, WAIT_SECS, bin};

/// Run the binary, then report the terminal mode and a marker once it exits.
fn wrapped(data: &std::path::Path, args: &str) -> String {
    // Its own data folder: practice set-up memory is written there, not in the user's.
    format!(
        "XDG_DATA_HOME={} {} {args}; echo; stty -a | grep -o -- '-\\?icanon' | head -1; echo EXITED; sleep 30",
        data.display(),
        bin()
    )
}

#[test]
fn practice_mode_plays_takes_back_flips_and_restores_the_terminal() {
    let data = tempfile::tempdir().unwrap();
    let Some(t) = Tmux::start(80, 24, &wrapped(data.path(), "")) else {
        return;
    };
    t.wait_text("New match");
    t.keys(&["p"]);
    t.wait_text("choose an opening system");
    t.keys(&["s", "Enter"]);
    t.wait_text("Practice · start position");
    t.text("11-15");
    t.wait_text("Enter plays: 11-15");
    t.keys(&["Enter"]);
    t.wait_text("1. 11-15");
    t.text("22-18");
    t.keys(&["Enter"]);
    t.wait_text("1. 11-15  22-18");
    // Illegal: says why and changes nothing.
    t.text("9-13");
    t.keys(&["Enter"]);
    let screen = t.wait_text("capture");
    assert!(screen.contains("1. 11-15  22-18"), "{screen}");
    assert!(!screen.contains("2. "), "{screen}");
    // A refused move is cleared at once; Escape (clear) must not run into the next key, which
    // would read as Alt+key: give the terminal time to deliver it alone.
    t.keys(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(400));
    t.wait_text("Move: _ ");
    t.text("15x22");
    t.keys(&["Enter"]);
    t.wait_text("2. 15x22");
    t.keys(&["u"]);
    t.wait_text("took back 15x22");
    let before = t.capture();
    let red_top = before.find("Red ─").or(before.find("Red -")).unwrap();
    let white_bottom = before.find("White ─").or(before.find("White -")).unwrap();
    assert!(red_top < white_bottom, "{before}");
    t.keys(&["f"]);
    let flipped = t.wait_for("the board flipped", WAIT_SECS, |s| {
        let w = s.find("╭ White").or(s.find("+ White"));
        let r = s.find("╰ Red").or(s.find("+ Red"));
        matches!((w, r), (Some(w), Some(r)) if w < r)
    });
    assert!(flipped.contains("1. 11-15  22-18"), "{flipped}");
    // Leaving a game in progress asks; s keeps it as PDN in the data folder.
    t.keys(&["q"]);
    t.wait_text("Leave practice");
    t.keys(&["s"]);
    t.wait_text("New match");
    let kept = std::fs::read_to_string(data.path().join("crossboard/practice-games.pdn"))
        .expect("the practice game kept");
    assert!(
        kept.contains("[Event \"Practice\"]") && kept.contains("1. 11-15 22-18"),
        "{kept}"
    );
    // A ballot by number: 3-move opening 1, its set moves already on the board.
    t.keys(&["p"]);
    t.wait_text("choose an opening system");
    t.keys(&["e"]);
    t.text("1");
    t.keys(&["Enter"]);
    let ballot = t.wait_text("3-move restriction 1");
    assert!(ballot.contains("man-down check"), "{ballot}");
    t.keys(&["q"]);
    t.wait_text("New match");
    // A position from a FEN pasted into the set-up screen, played on and kept with its FEN.
    t.keys(&["s"]);
    t.wait_text("Set up a position");
    t.keys(&["e"]);
    t.text("[FEN \"W:W21,22,K30:B1,2,3.\"]");
    t.keys(&["Enter"]);
    t.wait_text("FEN  W:W21,22,K30:B1,2,3");
    t.keys(&["Enter"]);
    t.wait_text("Practice · set-up position");
    t.text("30-26");
    t.keys(&["Enter", "w"]);
    t.wait_text("saved as game 2 of");
    t.keys(&["q"]);
    t.wait_text("New match");
    let kept = std::fs::read_to_string(data.path().join("crossboard/practice-games.pdn")).unwrap();
    assert!(
        kept.contains("[SetUp \"1\"]\n[FEN \"W:W21,22,K30:B1,2,3\"]") && kept.contains("30-26"),
        "{kept}"
    );
    t.keys(&["q"]);
    let after = t.wait_text("EXITED");
    assert!(
        after.lines().any(|l| l.trim() == "icanon"),
        "raw mode is off again:\n{after}"
    );
    assert!(
        !after.contains("New match"),
        "the alternate screen is gone:\n{after}"
    );
}

#[test]
fn window_too_small_says_so_and_recovers_on_resize() {
    let data = tempfile::tempdir().unwrap();
    let Some(t) = Tmux::start(60, 20, &wrapped(data.path(), "--ascii")) else {
        return;
    };
    t.wait_text("window too small (need 80x24)");
    t.tmux(&["resize-window", "-t", "e2e", "-x", "100", "-y", "30"]);
    let screen = t.wait_text("New match");
    assert!(!screen.contains("too small"), "{screen}");
    t.tmux(&["resize-window", "-t", "e2e", "-x", "79", "-y", "30"]);
    t.wait_text("window too small");
    t.keys(&["C-c"]);
    t.wait_text("EXITED");
}

#[test]
fn question_mark_shows_the_keys_of_the_current_screen() {
    let data = tempfile::tempdir().unwrap();
    let Some(t) = Tmux::start(80, 24, &wrapped(data.path(), "--no-color")) else {
        return;
    };
    t.wait_text("New match");
    t.keys(&["?"]);
    t.wait_text("Help: Home");
    t.keys(&["Escape"]);
    t.wait_for("help closed", WAIT_SECS, |s| !s.contains("Help: Home"));
    t.keys(&["p", "s", "Enter"]);
    t.wait_text("Practice · start position");
    t.keys(&["?"]);
    let help = t.wait_text("Help: Practice");
    assert!(
        help.contains("take back a move") && help.contains("flip the board"),
        "{help}"
    );
    t.keys(&["?"]);
    t.wait_for("help closed", WAIT_SECS, |s| !s.contains("Help: Practice"));
    t.keys(&["C-c"]);
    t.wait_text("EXITED");
}

/// Not a test of its own: run inside tmux by `terminal_restored_after_a_panic`, it enters the
/// TUI's terminal mode (raw, alternate screen, mouse) and panics. Does nothing elsewhere.
#[test]
#[ignore = "run inside tmux by terminal_restored_after_a_panic"]
fn panic_inside_the_tui() {
    if std::env::var_os("CROSSBOARD_E2E_PANIC").is_none() {
        return;
    }
    let _guard = crossboard::tui::TerminalGuard::enter(true).expect("a terminal");
    print!("drawn on the alternate screen");
    panic!("deliberate panic inside the TUI");
}

#[test]
fn terminal_restored_after_a_panic() {
    let exe = std::env::current_exe().expect("test binary");
    let cmd = format!(
        "CROSSBOARD_E2E_PANIC=1 RUST_BACKTRACE=0 {} e2e_tui::panic_inside_the_tui --exact --ignored --nocapture \
         --test-threads=1; stty -a | grep -o -- '-\\?icanon' | head -1; echo EXITED; sleep 30",
        exe.display()
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    let after = t.wait_text("EXITED");
    assert!(
        after.contains("deliberate panic inside the TUI"),
        "the panic message is readable on the normal screen:\n{after}"
    );
    assert!(
        after.lines().any(|l| l.trim() == "icanon"),
        "raw mode is off again:\n{after}"
    );
    assert!(!after.contains("drawn on the alternate screen"), "{after}");
}
