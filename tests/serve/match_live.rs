//! The match screen on the network with the real server and reporter: `S` serves the match
//! being played (the server of `crossboard serve --match`) until `s` stops it, and the set-up's
//! desk fields make the match report to a desk, which keeps it only when it is the board's
//! pairing.

use crate::hall::Hall;
use crossboard::serve::copy_path;
use crossboard::tui::{App, FakeClock, NetOptions, Screen};
use crossboard::tui::{render_text, run_script, test_app};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

/// A match up to its first game (the coin; 1 ballot of 2 games, 1 minute each).
const GAME: &str = "n\nh<tick>r\n\n\na\n\n";

const TOKEN: &str = "00112233445566778899aabbccddeeff";

fn app(clock: &FakeClock, file: &Path, players: [String; 2]) -> App {
    let mut a = test_app(clock, 80, 24);
    a.matches.file = Some(file.to_path_buf());
    a.matches.defaults.players = players;
    a.matches.defaults.ballots = 1;
    a.matches.defaults.time_control = "1".parse().unwrap();
    a.matches.net = NetOptions {
        network: Some(crossboard::cli::network()),
        port: 0,
        ..NetOptions::default()
    };
    a
}

fn served_at(a: &App) -> Option<SocketAddr> {
    match &a.screen {
        Screen::Match(m) => m.served_at(),
        _ => None,
    }
}

fn get_json(addr: SocketAddr, path: &str) -> (u16, serde_json::Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut r = agent.get(format!("http://{addr}{path}")).call().unwrap();
    let status = r.status().as_u16();
    (status, r.body_mut().read_json().unwrap_or_default())
}

#[test]
fn the_serve_key_serves_the_match_on_loopback_until_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let file = dir.path().join("friends.jsonl");
    let mut a = app(&clock, &file, ["Ann Lee".into(), "Bob Ross".into()]);
    run_script(&mut a, &clock, GAME);
    run_script(&mut a, &clock, "Sl");
    let addr = served_at(&a).expect("served");
    assert!(addr.ip().is_loopback(), "{addr}");
    assert!(render_text(&a).contains(&format!("http://{addr}/")));

    let (status, m) = get_json(addr, "/api/match");
    assert_eq!(status, 200, "{m}");
    assert_eq!(m["players"], serde_json::json!(["Ann Lee", "Bob Ross"]));
    assert_eq!(
        m["games"].as_array().map(Vec::len),
        Some(1),
        "the game played: {m}"
    );

    // The box closed and opened again, then s: the server stops and its port closes.
    run_script(&mut a, &clock, "\x1bSs");
    assert_eq!(served_at(&a), None);
    assert!(
        TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_err(),
        "the port is closed once serving stops"
    );

    // Served again, then the match left: the server stops with the match screen.
    run_script(&mut a, &clock, "Sl\x1b");
    let again = served_at(&a).expect("served again");
    assert_eq!(get_json(again, "/api/match").0, 200);
    run_script(&mut a, &clock, "qy");
    assert!(matches!(a.screen, Screen::Home(_)), "left the match");
    assert!(TcpStream::connect_timeout(&again, Duration::from_secs(2)).is_err());
}

#[test]
fn the_set_up_refuses_a_bad_desk_and_the_desk_refuses_a_match_not_the_boards_pairing() {
    let hall = Hall::with(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"], false);
    crossboard::store::keep_board_token(&hall.db, "Club Open/1/1/1", TOKEN).unwrap();
    let desk = hall.serve();
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let file = dir.path().join("board1.jsonl");
    let players = hall.m.settings().players.clone();
    let mut a = app(&clock, &file, players);

    // The last rows of the form: the desk's address, then the board's token.
    run_script(
        &mut a,
        &clock,
        &format!("n<up>{TOKEN}<up>{}\n", "desk.local:8080"),
    );
    let text = render_text(&a);
    assert!(
        text.contains("Not ready: an address such as http://192.168.1.10:8080"),
        "{text}"
    );
    assert!(matches!(a.screen, Screen::MatchSetup(_)), "not started");
    assert!(!file.exists(), "nothing written");

    run_script(&mut a, &clock, &format!("\x15http://{}/\n", desk.addr()));
    assert!(matches!(a.screen, Screen::Match(_)), "started");
    // The form's match is not the board's pairing (its own ballots, drawn at the board): the
    // desk refuses it at its first lines, and the status line says so; nothing is kept.
    let copy = copy_path(&hall.db, "Club Open", 1, 1, 1);
    let start = Instant::now();
    loop {
        let shown = render_text(&a);
        if shown.contains("desk refused line 1: not this board's match") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the desk's refusal never shown:\n{shown}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!copy.exists(), "nothing kept at the desk");
}
