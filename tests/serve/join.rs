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
    laptop(data, &format!("--desk http://{addr} --board-token {token}"))
}

/// The board's laptop: `crossboard ARGS` with its data in `data`.
fn laptop(data: &Path, args: &str) -> Option<Tmux> {
    let cmd = format!(
        "env XDG_DATA_HOME={} {} --no-color {args}",
        data.display(),
        bin()
    );
    Tmux::start(80, 24, &cmd)
}

/// An HTTP client that takes every answer as an answer.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
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

/// The board `k` (0-based) of `pairing` open on `t` with nothing typed, its data in `data`:
/// its first game started and a move played, its one match file named as the desk's copy,
/// which catches up with it. The file.
fn first_move_reaches_the_desk(
    t: &Tmux,
    data: &Path,
    event: &Boards,
    k: usize,
    pairing: &crossboard::store::BoardPairing,
) -> PathBuf {
    let [first, second] = &pairing.settings.players;
    let ready = t.wait_text("Enter starts");
    assert!(
        ready.contains(first) && ready.contains(second),
        "the board's players, nothing typed:\n{ready}"
    );
    t.keys(&["Enter"]);
    let screen = t.wait_text("legal: ");
    play_first_legal_move(t, &screen);
    let files = match_files(data);
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        files[0].file_name().unwrap().to_str().unwrap(),
        pairing.file,
        "the board's file is named as the desk's copy"
    );
    wait_for_copy(event, k, &files[0]);
    files[0].clone()
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
    let first = pairing.settings.players[0].clone();
    let Some(t) = board(data.path(), addr, &event.boards[1].token) else {
        return;
    };
    let files = vec![first_move_reaches_the_desk(
        &t,
        data.path(),
        &event,
        1,
        &pairing,
    )];
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
    let answer = agent()
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

/// Board `k`'s (0-based) short code, as the desk prints it.
fn code(event: &Boards, k: usize) -> String {
    crossboard::store::BoardCodes::of_desk(&event.db)
        .unwrap()
        .code("Club Open", 1, 1, k as u32 + 1)
}

/// A code no board has: `code` one character off.
fn one_off(code: &str) -> String {
    let last = if code.ends_with('Z') { 'Y' } else { 'Z' };
    format!("{}{last}", &code[..8])
}

#[test]
fn a_board_joins_with_its_short_code_and_reports_with_it() {
    let event = Boards::new(2);
    let (_desk, addr) = serve(&event);
    let code = code(&event, 1);
    let desk = format!("http://{addr}");
    let by_token = crossboard::serve::fetch_pairing(&desk, &event.boards[1].token).unwrap();
    // Typed as a player types it: small letters, a space for the dash, an O for a 0.
    let typed = code.to_lowercase().replace('-', " ").replace('0', "o");
    assert_eq!(
        crossboard::serve::fetch_pairing(&desk, &typed).unwrap(),
        by_token
    );
    let data = tempfile::tempdir().unwrap();
    let Some(t) = laptop(data.path(), &format!("--desk {desk} --board-code {code}")) else {
        return;
    };
    first_move_reaches_the_desk(&t, data.path(), &event, 1, &by_token);
    t.wait_text("desk: reporting, line");
}

#[test]
fn a_wrong_code_is_refused_in_words_and_guessing_is_slowed_down() {
    let event = Boards::new(2);
    let (_desk, addr) = serve(&event);
    let desk = format!("http://{addr}");
    let right = code(&event, 0);
    let wrong = one_off(&right);
    let e = crossboard::serve::fetch_pairing(&desk, &wrong).unwrap_err();
    assert_eq!(
        e,
        format!(
            "the desk refused the board's code (no board of this desk has the code {wrong}: \
             check it against the round's pairings, where the desk prints each board's code): \
             ask the director for this board's code"
        )
    );
    for _ in 1..10 {
        assert!(crossboard::serve::fetch_pairing(&desk, &wrong).is_err());
    }
    // Ten wrong tries from this address: the next, even the right code, waits.
    let e = crossboard::serve::fetch_pairing(&desk, &right).unwrap_err();
    assert!(
        e.contains("429: too many wrong tokens and codes from this address: wait a minute"),
        "{e}"
    );
    let push = agent()
        .get(format!("http://{addr}/push"))
        .header(
            "Authorization",
            &format!("Bearer {}", event.boards[0].token),
        )
        .call()
        .unwrap();
    assert_eq!(push.status(), 429, "a token waits too");
}

#[test]
fn a_board_joins_from_the_home_screen_with_the_desks_address_and_its_code() {
    let event = Boards::new(2);
    let (_desk, addr) = serve(&event);
    let code = code(&event, 0);
    let pairing =
        crossboard::serve::fetch_pairing(&format!("http://{addr}"), &event.boards[0].token)
            .unwrap();
    let data = tempfile::tempdir().unwrap();
    let Some(t) = laptop(data.path(), "") else {
        return;
    };
    t.wait_text("Join a board");
    t.keys(&["a"]);
    t.wait_text("Desk's address");
    // A code one character off first: refused in words, on the form.
    let wrong = one_off(&code);
    t.text(&format!("{addr}"));
    t.keys(&["Tab"]);
    t.text(&wrong);
    t.keys(&["Enter"]);
    t.wait_text("the desk refused the board's code");
    t.keys(&["C-u"]);
    t.text(&code);
    t.keys(&["Enter"]);
    first_move_reaches_the_desk(&t, data.path(), &event, 0, &pairing);
}
