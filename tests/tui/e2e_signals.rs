//! End-to-end tests of the real binary under tmux for stop signals: SIGTERM, SIGHUP and SIGINT
//! sent to a crossboard mid-game, and the terminal closed under it. Each time the terminal is
//! back to normal (alternate screen left, mouse reporting off, cooked mode: `stty -a` in the
//! same pane), the exit status is 128 + the signal with one line on stderr, the match file
//! loads with every move played, and its lock is free.

use crate::common;

use common::{Tmux, WAIT_SECS, bin, play_two_moves, start_default_match};
use crossboard::store::{WriterLock, load_match};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pid of the crossboard the pane's shell runs.
fn crossboard_pid(t: &Tmux) -> String {
    let shell = t.display("#{pane_pid}");
    let out = Command::new("pgrep")
        .args(["-P", &shell])
        .output()
        .expect("run pgrep");
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(
        !pid.is_empty() && !pid.contains('\n'),
        "one child of {shell}: {pid:?}"
    );
    pid
}

/// The match files under `dir` (the data folder), found by loading them.
fn match_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                todo.push(p);
            } else if load_match(&p).is_ok() {
                found.push(p);
            }
        }
    }
    found
}

/// The pane's shell script: crossboard, then its exit status and the terminal's modes; `after`
/// ends it. The shell ignores the hang-up it gets with crossboard (its children do not).
fn script(dir: &Path, redirect: &str, after: &str) -> String {
    let path = dir.join("run.sh");
    let text = format!(
        "trap true HUP\n\
         env XDG_DATA_HOME={0}/data XDG_CONFIG_HOME={0}/config {1} --ascii {redirect}\n\
         {after}\n",
        dir.display(),
        bin()
    );
    std::fs::write(&path, text).unwrap();
    format!("sh {}", path.display())
}

/// After crossboard: its status, then the modes `stty -a` shows.
const REPORT: &str = "echo \"EXIT=$?\"\n\
     printf 'MODES: '\n\
     stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo -e isig -e -isig \
     | tr '\\n' ' '\n\
     echo\n\
     echo DONE\n\
     exec sleep 600";

/// A match in its first game with two moves played; returns the moves.
fn mid_game(t: &Tmux) -> Vec<String> {
    start_default_match(t);
    play_two_moves(t)
}

/// The file holds the moves, loads, and nobody holds its lock.
fn assert_file_complete(dir: &Path, moves: &[String]) {
    let files = match_files(&dir.join("data"));
    assert_eq!(files.len(), 1, "one match file: {files:?}");
    let file = load_match(&files[0]).expect("the match file loads");
    let game = file.the_match.current_game().expect("a game in play");
    let played: Vec<String> = game.moves.iter().map(|r| r.mv.to_string()).collect();
    assert_eq!(played, moves, "every move shown is in the file");
    assert!(
        WriterLock::take(&files[0]).is_ok(),
        "the lock was released with the process"
    );
}

fn stop_with(signal: &str, status: u8) {
    let dir = tempfile::tempdir().unwrap();
    let Some(t) = Tmux::start(80, 24, &script(dir.path(), "", REPORT)) else {
        return;
    };
    let moves = mid_game(&t);
    assert_eq!(t.display("#{alternate_on}"), "1", "the TUI is on");
    let pid = crossboard_pid(&t);
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal} {pid}");
    let screen = t.wait_for("the shell after crossboard", WAIT_SECS, |s| {
        s.contains("DONE")
    });
    assert!(
        screen.contains(&format!("EXIT={status}")),
        "exit status 128 + SIG{signal}:\n{screen}"
    );
    assert!(
        screen.contains(&format!(
            "crossboard: stopped by SIG{signal}; the match is saved in "
        )),
        "one line on stderr says why and where the match is:\n{screen}"
    );
    let modes = screen
        .lines()
        .find_map(|l| l.strip_prefix("MODES: "))
        .unwrap_or_else(|| panic!("the modes line:\n{screen}"));
    let modes: Vec<&str> = modes.split_whitespace().collect();
    assert_eq!(
        modes,
        ["isig", "icanon", "echo"],
        "cooked mode again:\n{screen}"
    );
    assert_eq!(
        t.display("#{alternate_on}"),
        "0",
        "the normal screen is back"
    );
    assert_eq!(
        t.display("#{mouse_any_flag}"),
        "0",
        "mouse reporting is off"
    );
    assert_eq!(t.display("#{cursor_flag}"), "1", "the cursor is shown");
    assert_file_complete(dir.path(), &moves);
}

#[test]
fn sigterm_mid_game_restores_the_terminal_and_keeps_every_move() {
    stop_with("TERM", 143);
}

#[test]
fn sighup_mid_game_restores_the_terminal_and_keeps_every_move() {
    stop_with("HUP", 129);
}

#[test]
fn sigint_mid_game_restores_the_terminal_and_keeps_every_move() {
    stop_with("INT", 130);
}

/// The window closed under a running match (the pane killed: its terminal hangs up).
#[test]
fn a_closed_terminal_mid_game_keeps_every_move_and_frees_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let status = dir.path().join("status");
    let stderr = dir.path().join("stderr");
    let cmd = script(
        dir.path(),
        &format!("2>{}", stderr.display()),
        &format!("echo $? > {}", status.display()),
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    let moves = mid_game(&t);
    let pid = crossboard_pid(&t);
    // A second window keeps the tmux server up once the match's pane is gone.
    t.tmux(&["new-window", "-d", "sleep 600"]);
    t.tmux(&["kill-pane", "-t", "e2e:0"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(WAIT_SECS);
    while Path::new(&format!("/proc/{pid}")).exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "crossboard {pid} still runs"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_file_complete(dir.path(), &moves);
    if let Ok(s) = std::fs::read_to_string(&status) {
        let said = std::fs::read_to_string(&stderr).unwrap_or_default();
        assert_eq!(s.trim(), "129", "stopped by the hang-up; stderr:\n{said}");
    }
}
