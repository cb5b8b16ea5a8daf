//! Boards report to the desk: the desk's copy of a board's match file, acknowledged by line,
//! idempotent, refused with a reason when wrong, and the result landing in the event.

use crate::hall::{Hall, get};
use crossboard::director::Command;
use crossboard::engine::Color;
use crossboard::serve::{Options, Running, Source, copy_path, report};
use std::time::{Duration, Instant};

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];
const TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn desk(hall: &Hall, bind: &str) -> Running {
    crossboard::store::keep_board_token(&hall.db, "Club Open/1/1/1", TOKEN).unwrap();
    let source = Source {
        db: Some(hall.db.clone()),
        ..Default::default()
    };
    let mut options = Options::new(source, bind.parse().unwrap());
    // Every refusal logged, none folded into a count: the tests read each one's reason.
    options.limits.log_every = Duration::ZERO;
    crossboard::serve::start(options).unwrap()
}

fn copy(hall: &Hall) -> std::path::PathBuf {
    copy_path(&hall.db, "Club Open", 1, 1, 1)
}

/// Wait (at most 10 s) until the desk's copy equals the board's file byte for byte.
fn wait_for_copy(hall: &Hall) {
    let start = Instant::now();
    while std::fs::read(copy(hall)).ok() != std::fs::read(&hall.file).ok() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the copy never caught up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The event page shows board 1's result as `result`.
fn the_event_page_shows_the_result(server: &Running, result: &str) {
    let page = get(server, "/", None);
    assert!(
        page.body
            .contains(&format!("<span class=\"result\">{result}</span>")),
        "{}",
        page.body
    );
}

/// POST a push; status and answer.
pub(crate) fn push(server: &Running, token: &str, body: &str) -> (u16, serde_json::Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut r = agent
        .post(format!("http://{}/push", server.addr()))
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .send(body)
        .unwrap();
    let status = r.status().as_u16();
    (status, r.body_mut().read_json().unwrap_or_default())
}

fn lines(hall: &Hall) -> Vec<String> {
    std::fs::read_to_string(&hall.file)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

pub(crate) fn body(from: usize, lines: &[String]) -> String {
    serde_json::json!({ "from": from, "lines": lines }).to_string()
}

#[test]
fn a_reporting_board_is_copied_at_the_desk_byte_for_byte_and_served_live() {
    let mut hall = Hall::with(NAMES, false);
    let server = desk(&hall, "127.0.0.1:0");
    let reporter = report(&format!("http://{}", server.addr()), TOKEN, &hall.file);
    let moves: Vec<String> = (0..4).map(|_| hall.play()).collect();
    wait_for_copy(&hall);
    wait_for_acknowledged(&reporter, &hall);
    // The copy is linked to the board: the board's page shows the moves.
    let page = get(&server, "/board/1/1/1", None);
    for mv in &moves {
        assert!(
            page.body.contains(&format!(">{mv}</a>")),
            "{mv}: {}",
            page.body
        );
    }
    drop(reporter);
}

#[test]
fn a_board_offline_sends_what_the_desk_lacks_when_the_link_is_back() {
    let mut hall = Hall::with(NAMES, false);
    let first = desk(&hall, "127.0.0.1:0");
    let addr = first.addr();
    let reporter = report(&format!("http://{addr}"), TOKEN, &hall.file);
    hall.play();
    wait_for_copy(&hall);
    // The desk goes down; the board plays on.
    first.stop();
    for _ in 0..3 {
        hall.play();
    }
    std::thread::sleep(Duration::from_millis(500));
    // The desk is back on the same address: the board sends the rest, nothing twice.
    let _back = desk(&hall, &addr.to_string());
    wait_for_copy(&hall);
    drop(reporter);
}

#[test]
fn a_push_is_idempotent_and_a_wrong_one_is_refused_with_its_reason_and_changes_nothing() {
    let mut hall = Hall::with(NAMES, false);
    for _ in 0..3 {
        hall.play();
    }
    let server = desk(&hall, "127.0.0.1:0");
    let all = lines(&hall);
    let (status, ack) = push(&server, TOKEN, &body(0, &all[..4]));
    assert_eq!((status, ack["have"].as_u64()), (200, Some(4)), "{ack}");
    let held = std::fs::read(copy(&hall)).unwrap();
    // The same lines again: acknowledged, nothing added.
    let (status, ack) = push(&server, TOKEN, &body(0, &all[..4]));
    assert_eq!((status, ack["have"].as_u64()), (200, Some(4)));
    assert_eq!(std::fs::read(copy(&hall)).unwrap(), held);
    let refused = |status: u16, body: String, why: &str| {
        let (s, answer) = push(&server, TOKEN, &body);
        assert_eq!(s, status, "{why}: {answer}");
        assert!(
            answer["refused"].as_str().unwrap().contains(why),
            "{answer}"
        );
        assert_eq!(std::fs::read(copy(&hall)).unwrap(), held, "{why}");
    };
    // A gap: lines from 6 when the desk has 4.
    refused(409, body(6, &all[6..]), "gap");
    // A line that differs from the desk's copy.
    let mut other = all.clone();
    other[2].push(' ');
    refused(409, body(0, &other), "line 3 differs");
    // A record that does not follow (a move played twice), a torn line, not JSON.
    let mut twice = all[4..].to_vec();
    twice.push(all.last().unwrap().clone());
    refused(422, body(4, &twice), "is refused here");
    refused(422, body(4, &[all[4][..10].to_string()]), "jsonl:5");
    // Records out of order: the next two swapped.
    refused(
        422,
        body(4, &[all[5].clone(), all[4].clone()]),
        "does not follow",
    );
    refused(422, "{\"from\":4".into(), "not a push");
    refused(
        422,
        "{\"from\":4,\"lines\":[],\"extra\":1}".into(),
        "not a push",
    );
    // Too many lines in one push.
    refused(413, body(4, &vec![all[4].clone(); 501]), "at most 500");
    // A wrong token changes nothing either.
    let (s, _) = push(&server, "wrong", &body(4, &all[4..]));
    assert_eq!(s, 401);
    assert_eq!(std::fs::read(copy(&hall)).unwrap(), held);
    // An oversized body is refused before it is read.
    let big = format!("{{\"from\":4,\"lines\":[\"{}\"]}}", "x".repeat(2 << 20));
    // (413, or the connection closed on the client still sending it.)
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let sent = agent
        .post(format!("http://{}/push", server.addr()))
        .header("Authorization", &format!("Bearer {TOKEN}"))
        .send(&big);
    assert!(
        sent.as_ref().map_or(true, |r| r.status() == 413),
        "{sent:?}"
    );
    assert_eq!(std::fs::read(copy(&hall)).unwrap(), held);
    // Each refusal is logged with its reason.
    let log = server.log();
    for why in [
        "409 Conflict: lines from 6 would leave a gap",
        "409 Conflict: line 3 differs",
        "422 Unprocessable Entity: not a push",
        "401 Unauthorized: no board has this token",
        "413 Payload Too Large",
    ] {
        assert!(
            log.iter()
                .any(|l| l.contains("refused POST /push: ") && l.contains(why)),
            "{why}: {log:?}"
        );
    }
    // The rest, after all that: accepted.
    let (status, ack) = push(&server, TOKEN, &body(4, &all[4..]));
    assert_eq!(
        (status, ack["have"].as_u64()),
        (200, Some(all.len() as u64))
    );
    assert_eq!(
        std::fs::read(copy(&hall)).unwrap(),
        std::fs::read(&hall.file).unwrap()
    );
}

#[test]
fn a_finished_board_result_reaches_the_event_without_typing() {
    let mut hall = Hall::with(NAMES, false);
    let server = desk(&hall, "127.0.0.1:0");
    let reporter = report(&format!("http://{}", server.addr()), TOKEN, &hall.file);
    hall.play();
    // Game 1: White resigns; game 2: Red resigns (the board's first player has White).
    hall.apply(Command::Resign {
        colour: Color::White,
    });
    hall.apply(Command::StartGame);
    hall.apply(Command::Resign { colour: Color::Red });
    wait_for_copy(&hall);
    wait_for_acknowledged(&reporter, &hall);
    drop(reporter);
    let desk = crossboard::store::Desk::open(&hall.db).unwrap();
    let id = desk.find_event("Club Open").unwrap();
    let event = desk.load(id).unwrap().event;
    let board = &event.divisions[0].rounds[0].boards[0];
    assert_eq!(
        crossboard::publish::sentences::result_text(board.result.as_ref()),
        "1 1",
        "{:?}",
        board.result
    );
    let log = desk.log(id).unwrap();
    assert!(
        log.iter().any(|(_, _, a)| a.contains("link-match")),
        "{log:?}"
    );
    the_event_page_shows_the_result(&server, "1 1");
}

#[test]
fn the_desk_gives_a_board_its_token_and_keeps_only_its_digest() {
    let hall = Hall::with(NAMES, false);
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"))
            .args(["event", "--db"])
            .arg(&hall.db)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["token", "Club Open", "Open", "1", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(token.len(), 32, "{token}");
    let kept = std::fs::read_to_string(crossboard::store::tokens_path(&hall.db)).unwrap();
    assert!(!kept.contains(&token), "{kept}");
    assert_eq!(
        crossboard::store::board_of_token(&hall.db, &token).as_deref(),
        Some("Club Open/1/1/1")
    );
    // A new token for the board replaces the old one; no board has no token.
    let again = run(&["token", "Club Open", "Open", "1", "1"]);
    let second = String::from_utf8(again.stdout).unwrap().trim().to_string();
    assert_ne!(second, token);
    assert_eq!(crossboard::store::board_of_token(&hall.db, &token), None);
    let none = run(&["token", "Club Open", "Open", "1", "9"]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no board 9"));
}

#[test]
fn crossboard_report_sends_a_finished_match_and_ends_when_the_desk_has_it_all() {
    // The board's laptop was offline when its match ended: the director sends its file.
    let mut event = crate::hall::Boards::new(2);
    while event.boards[0].play() {}
    let source = Source {
        db: Some(event.db.clone()),
        ..Default::default()
    };
    let server =
        crossboard::serve::start(Options::new(source, "127.0.0.1:0".parse().unwrap())).unwrap();
    let board = &event.boards[0];
    let report = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"))
            .args(args)
            .arg(&board.file)
            .output()
            .unwrap()
    };
    let url = format!("http://{}", server.addr());
    let out = report(&["report", "--desk", &url, "--board-token", &board.token]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    let lines = board.text().lines().count();
    assert!(
        said.contains(&format!(
            "the match is over and the desk has all {lines} lines"
        )),
        "{said}"
    );
    assert_eq!(event.copy(0), board.text());
    // Without the desk's address, or with a file that is no match, nothing is sent.
    let out = report(&["report"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--desk"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(["report", "--desk", &url, "--board-token", &board.token])
        .arg(&event.db)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("desk.sqlite3"));
    assert_eq!(event.copy(0), board.text());
}

/// Board 1 of a hall that has played a move and two games, both finished: White resigns
/// game 1, Red resigns game 2 (the board's first player has White): 1 1.
fn two_games_finished() -> Hall {
    let mut hall = Hall::with(NAMES, false);
    hall.play();
    hall.apply(Command::Resign {
        colour: Color::White,
    });
    hall.apply(Command::StartGame);
    hall.apply(Command::Resign { colour: Color::Red });
    hall
}

/// The desk's copy as a desk killed after writing it would leave it: the board's lines, the
/// event told nothing.
fn copy_left_by_a_killed_desk(hall: &Hall) {
    let copy = copy(hall);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&hall.file, &copy).unwrap();
}

/// Board 1's result as the event has it, and how many results were recorded for it.
fn result_and_records(hall: &Hall) -> (String, usize) {
    let desk = crossboard::store::Desk::open(&hall.db).unwrap();
    let id = desk.find_event("Club Open").unwrap();
    let event = desk.load(id).unwrap().event;
    let board = &event.divisions[0].rounds[0].boards[0];
    let results = desk
        .log(id)
        .unwrap()
        .iter()
        .filter(|(_, _, a)| a.contains("\"action\":\"result\""))
        .count();
    (
        crossboard::publish::sentences::result_text(board.result.as_ref()),
        results,
    )
}

#[test]
fn a_result_in_the_copy_the_event_lacks_is_recorded_at_the_next_push_and_only_once() {
    let hall = two_games_finished();
    let server = desk(&hall, "127.0.0.1:0");
    assert_eq!(result_and_records(&hall), ("-".to_string(), 0));
    copy_left_by_a_killed_desk(&hall);
    // The board sends its lines again: nothing new for the copy, but the result is recorded.
    let all = lines(&hall);
    let (status, ack) = push(&server, TOKEN, &body(0, &all));
    assert_eq!(
        (status, ack["have"].as_u64()),
        (200, Some(all.len() as u64))
    );
    assert_eq!(result_and_records(&hall), ("1 1".to_string(), 1));
    // Again, and an empty push: recorded once.
    push(&server, TOKEN, &body(0, &all));
    push(&server, TOKEN, &body(all.len(), &[]));
    assert_eq!(result_and_records(&hall), ("1 1".to_string(), 1));
    the_event_page_shows_the_result(&server, "1 1");
}

#[test]
fn a_result_in_the_copy_the_event_lacks_is_recorded_when_serve_starts_and_only_once() {
    let hall = two_games_finished();
    copy_left_by_a_killed_desk(&hall);
    let server = desk(&hall, "127.0.0.1:0");
    assert_eq!(result_and_records(&hall), ("1 1".to_string(), 1));
    // The copy is linked to the board, as a push would have.
    let db = crossboard::store::Desk::open(&hall.db).unwrap();
    let log = db.log(db.find_event("Club Open").unwrap()).unwrap();
    let links = log.iter().filter(|(_, _, a)| a.contains("link-match"));
    assert_eq!(links.count(), 1, "{log:?}");
    server.stop();
    let _again = desk(&hall, "127.0.0.1:0");
    assert_eq!(result_and_records(&hall), ("1 1".to_string(), 1));
}

/// Wait (at most 10 s) until the desk has acknowledged every line of the board's file: it has
/// then also recorded what the copy brings to the event (the link, a result), which it does
/// after writing the copy, so the copy alone may be seen a moment before.
fn wait_for_acknowledged(reporter: &crossboard::serve::Reporter, hall: &Hall) {
    let lines = std::fs::read_to_string(&hall.file).unwrap().lines().count();
    let start = Instant::now();
    while reporter.acknowledged() != Some(lines) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the desk never acknowledged the {lines} lines: {:?}",
            reporter.link()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
