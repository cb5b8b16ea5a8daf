//! A board's laptop joins the round as docs/serve.md says, with the real binaries: the desk's
//! `crossboard serve` on loopback, and `crossboard --desk URL --board-token T` in tmux, from a
//! clean data folder. The board's match opens ready for its first game with nothing typed, it
//! reports from its first move, the same command again resumes it, and a refusal of the desk
//! is shown on the board's status line in words.

use crate::common::{Tmux, WAIT_SECS, bin, play_first_legal_move};
use crate::hall::{Boards, start_serve};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// The desk's server; killed when dropped.
struct Desk(Child);

impl Drop for Desk {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(event: &Boards) -> (Desk, SocketAddr) {
    let mut command = Command::new(bin());
    command
        .args(["serve", "--db", event.db.to_str().unwrap()])
        .args(["--port", "0", "--no-qr"]);
    let (child, addr) = start_serve(command);
    (Desk(child), addr)
}

/// The board's laptop: `crossboard --desk URL --board-token TOKEN` with its data in `data`.
fn board(data: &Path, addr: SocketAddr, token: &str) -> Option<Tmux> {
    let cmd = format!(
        "env XDG_DATA_HOME={} {} --no-color --desk http://{addr} --board-token {token}",
        data.display(),
        bin()
    );
    Tmux::start(80, 24, &cmd)
}

/// The match files in the board's data folder.
fn match_files(data: &Path) -> Vec<PathBuf> {
    let dir = data.join("crossboard/matches");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
                .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Wait until the desk's copy of board `k` equals `file`.
fn wait_for_copy(event: &Boards, k: usize, file: &Path) {
    let start = Instant::now();
    while std::fs::read_to_string(file).ok().as_deref() != Some(event.copy(k).as_str()) {
        assert!(
            start.elapsed() < Duration::from_secs(WAIT_SECS),
            "the desk's copy never caught up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_board_joins_with_its_token_alone_reports_and_resumes() {
    let event = Boards::new(2);
    let (_desk, addr) = serve(&event);
    let data = tempfile::tempdir().unwrap();
    // Board 2's laptop has nothing yet but its token.
    let pairing =
        crossboard::serve::fetch_pairing(&format!("http://{addr}"), &event.boards[1].token)
            .unwrap();
    let [first, second] = pairing.settings.players.clone();
    let Some(t) = board(data.path(), addr, &event.boards[1].token) else {
        return;
    };
    let ready = t.wait_text("Enter starts");
    assert!(
        ready.contains(&first) && ready.contains(&second),
        "the board's players, nothing typed:\n{ready}"
    );
    t.keys(&["Enter"]);
    let screen = t.wait_text("legal: ");
    play_first_legal_move(&t, &screen);
    let files = match_files(data.path());
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        files[0].file_name().unwrap().to_str().unwrap(),
        pairing.file,
        "the board's file is named as the desk's copy"
    );
    wait_for_copy(&event, 1, &files[0]);
    t.wait_text("desk: reporting, line");
    // The laptop's terminal closed (the match is saved at every record), then the same
    // command again: the same match, resumed.
    drop(t);
    std::thread::sleep(Duration::from_secs(1));
    let lines = std::fs::read_to_string(&files[0]).unwrap().lines().count();
    let Some(t) = board(data.path(), addr, &event.boards[1].token) else {
        return;
    };
    let again = t.wait_text("desk: reporting, line");
    assert!(again.contains(&first), "{again}");
    assert_eq!(match_files(data.path()), files, "no second match");
    assert!(std::fs::read_to_string(&files[0]).unwrap().lines().count() >= lines);
    wait_for_copy(&event, 1, &files[0]);
}

#[test]
fn a_board_the_desk_refuses_is_told_why_on_its_status_line() {
    let event = Boards::new(2);
    let (_desk, addr) = serve(&event);
    // The desk has board 1's lines from another file: the board's laptop starts afresh.
    let first = event.boards[0].text();
    let lines: Vec<&str> = first.lines().collect();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let answer = agent
        .post(format!("http://{addr}/push"))
        .header(
            "Authorization",
            &format!("Bearer {}", event.boards[0].token),
        )
        .send_json(serde_json::json!({ "from": 0, "lines": lines }))
        .unwrap();
    assert_eq!(answer.status(), 200);
    let data = tempfile::tempdir().unwrap();
    let Some(t) = board(data.path(), addr, &event.boards[0].token) else {
        return;
    };
    // The laptop's new file differs from the desk's copy at its first timed line, or (made
    // within the same second) is a shorter copy of it: the desk is ahead. Either way, told
    // where the player sits.
    let told = t.wait_text("the director re-syncs");
    assert!(
        told.contains("desk refused line 3, its copy differs")
            || told.contains("desk has 7 lines of this board, this file"),
        "{told}"
    );
    assert_eq!(event.copy(0), first, "the desk's copy is unchanged");
}
