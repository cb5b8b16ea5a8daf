//! A match file written by the Windows build is read by the Linux build, and the other way
//! round: each build resumes the other's match with every move, and both export the same
//! PDN from it, byte for byte. The match is played through each build's own terminal UI.

use super::console::{Tui, windows_command};
use super::support::{Wine, linux_bin, linux_ok, windows_path, wine};
use std::path::Path;

/// Both builds' PDN export of `file`: the same bytes, with `moves` in them.
fn same_export(w: &Wine, file: &Path, moves: &[String]) -> String {
    let linux = linux_ok([
        "export".as_ref(),
        file.as_os_str(),
        "--out".as_ref(),
        "-".as_ref(),
    ]);
    let windows = w.ok([
        "export".to_string(),
        windows_path(file),
        "--out".into(),
        "-".into(),
    ]);
    assert_eq!(windows, linux, "the same PDN from both builds");
    for mv in moves {
        assert!(linux.contains(mv.as_str()), "{mv} in:\n{linux}");
    }
    linux
}

/// The file as both builds write it: UTF-8 with `\n` line ends.
fn written_alike(file: &Path) {
    let bytes = std::fs::read(file).unwrap();
    assert!(std::str::from_utf8(&bytes).is_ok(), "UTF-8");
    assert!(!bytes.contains(&b'\r'), "no \\r\\n line ends");
}

/// A UI resuming a match shows `moves`; then it leaves and quits.
fn resumed_with(t: &Tui, moves: &[String]) {
    let screen = t.wait_text("clocks paused at the last move");
    for mv in moves {
        assert!(screen.contains(mv.as_str()), "{mv}:\n{screen}");
    }
    t.leave_and_quit();
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn a_match_played_on_windows_is_read_and_resumed_on_linux() {
    let Some(w) = wine() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("played on Windows.jsonl");
    let windows = windows_command(w, &format!("--match '{}'", windows_path(&file)));
    let Some(t) = Tui::start(&windows) else {
        return;
    };
    let moves = t.start_match_and_play_two_moves(&file);
    t.leave_and_quit();
    written_alike(&file);
    let before = same_export(w, &file, &moves);
    // The Linux build resumes it with both moves on the board.
    let linux = format!("'{}' --ascii resume '{}'", linux_bin(), file.display());
    resumed_with(&Tui::start(&linux).expect("tmux"), &moves);
    written_alike(&file);
    assert_eq!(same_export(w, &file, &moves), before);
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn a_match_played_on_linux_is_read_and_resumed_on_windows() {
    let Some(w) = wine() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("played on Linux.jsonl");
    let linux = format!(
        "env XDG_DATA_HOME='{0}/data' XDG_CONFIG_HOME='{0}/config' '{1}' --ascii --match '{2}'",
        dir.path().display(),
        linux_bin(),
        file.display()
    );
    let Some(t) = Tui::start(&linux) else { return };
    let moves = t.start_match_and_play_two_moves(&file);
    t.leave_and_quit();
    written_alike(&file);
    let before = same_export(w, &file, &moves);
    let windows = windows_command(w, &format!("--ascii resume '{}'", windows_path(&file)));
    resumed_with(&Tui::start(&windows).expect("tmux"), &moves);
    written_alike(&file);
    assert_eq!(same_export(w, &file, &moves), before);
}
