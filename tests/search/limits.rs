//! Numbers past the engine's bounds on the command line are refused, naming the bound; a table
//! that cannot be allocated is an error the hub answers, not an abort.

use crate::common::cli::crossboard;

/// Run `args`, which must be refused with a message holding every one of `needles`.
fn refused(args: &[&str], needles: &[&str]) {
    let out = crossboard(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {needle:?} missing: {stderr}"
        );
    }
}

#[test]
fn depths_and_times_past_the_bounds_are_refused_naming_them() {
    for depth in ["100000", "4294967295", "40", "31"] {
        refused(&["perft", depth], &[depth, "0 to 30"]);
    }
    refused(
        &["bench", "perft", "--depth", "40"],
        &["--depth 40", "1 to 30"],
    );
    refused(
        &["bench", "search", "--depth", "1000"],
        &["--depth 1000", "1 to 64"],
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.pdn");
    let out = out.to_str().unwrap();
    refused(
        &["engine-match", "--out", out, "--ms", "18446744073709551615"],
        &["--ms 18446744073709551615", "1 to 3600000"],
    );
    refused(
        &["engine-match", "--out", out, "--opponent-depth", "1000"],
        &["--opponent-depth 1000", "1 to 64"],
    );
    assert!(!dir.path().join("m.pdn").exists());
    refused(
        &["hub", "--no-egdb", "--hash", "1000000000"],
        &["--hash", "1 to 4096"],
    );
    for threads in ["0", "10000"] {
        refused(
            &["hub", "--no-egdb", "--threads", threads],
            &["--threads", "1 to 64"],
        );
    }
}

/// With the address space held to 1 GB, `hub --hash 4096` says the table cannot be made and
/// goes on with the default one, instead of aborting under its GUI.
#[cfg(target_os = "linux")]
#[test]
fn a_table_too_big_for_memory_is_an_error_answered_to_the_gui() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 1000000 && exec "$0" hub --no-egdb --hash 4096"#)
        .arg(env!("CARGO_BIN_EXE_crossboard"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hub\ninit\nping\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {said} {stderr}", out.status);
    assert!(
        said.contains("error message=") && said.contains("4096 MB") && said.contains("16 MB"),
        "{said}"
    );
    assert!(said.contains("ready") && said.contains("pong"), "{said}");
}

#[test]
fn a_single_reply_played_at_once_reports_no_depth() {
    use crossboard::engine::{Game, Position, Rules};
    use crossboard::search::selfplay::{EnginePlayer, MoveLimit, Player};
    use crossboard::search::{Level, Options};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    // Captures are compulsory: 10x17 is Red's only move.
    let pos = Position::from_fen("B:W14,30:B10,1").expect("test FEN");
    assert_eq!(pos.legal_moves().len(), 1);
    let stop = Arc::new(AtomicBool::new(false));
    let choose = |limit: MoveLimit| {
        let mut player = EnginePlayer::new(Level::Master, Options::default(), 1);
        player.new_game().unwrap();
        player
            .choose(&Game::new(Rules::English, pos), &limit, &stop)
            .unwrap()
    };
    // Under a time limit the one move is played without a search: a match's mean depth
    // leaves it out, as it does a Hub engine's move that reports no depth.
    let timed = choose(MoveLimit {
        time: Some(Duration::from_millis(100)),
        ..MoveLimit::default()
    });
    assert_eq!(timed.mv.to_string(), "10x17");
    assert_eq!(timed.depth, None);
    // A search bounded by depth searches it and says how deep.
    let by_depth = choose(MoveLimit {
        depth: Some(3),
        ..MoveLimit::default()
    });
    assert_eq!(by_depth.depth, Some(3));
}
