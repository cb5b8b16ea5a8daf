//! Commands whose standard output fails: a full disk is an error message and status 1, a reader
//! that closed the pipe (`| head -1`) ends the command quietly with status 0; never a panic.

use super::cli::small_match;
use std::process::{Command, Output, Stdio};

/// The real binary run with `args`, its standard output `stdout`.
fn run_into(args: &[&str], stdout: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("run crossboard")
}

/// Commands that print, each with what it needs made in `dir`.
fn printing_commands(dir: &std::path::Path) -> Vec<Vec<String>> {
    let m = small_match(dir).display().to_string();
    let d = dir.display().to_string();
    let db = dir.join("desk.sqlite3").display().to_string();
    let made = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(["event", "--db", &db, "new", "E"])
        .output()
        .unwrap();
    assert!(made.status.success());
    [
        &["config"][..],
        &["export", &m, "--out", "-"],
        &["diagram", "--fen", "B:W21:B1", "--out", "-"],
        &["egdb", "probe", "B:WK2:BK6", "--dir", &d],
        &["perft", "3"],
        &["openings", "three-move", "--summary"],
        &["event", "--db", &db, "list"],
    ]
    .iter()
    .map(|a| a.iter().map(ToString::to_string).collect())
    .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_an_error_message_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for args in printing_commands(dir.path()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = run_into(&args, Stdio::from(full));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    for args in printing_commands(dir.path()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // The reader is gone before the command writes its first byte.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = run_into(&args, Stdio::from(writer));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}
