//! `crossboard hub` driven over its standard input and output like a Hub GUI: the handshake,
//! a whole game (every move checked by the rules engine), ping during a search, stop, ponder,
//! errors for bad input, and quit.

use crossboard::engine::{Game, Position};
use crossboard::search::{Line, parse_hub_move, position_text};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Hub {
    /// `crossboard hub --hash 4` with `extra` arguments (`--no-egdb` by default, so that the
    /// tests never depend on what the machine's data folder holds).
    fn start() -> Hub {
        Hub::start_with(&["--no-egdb"])
    }

    fn start_with(extra: &[&str]) -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crossboard"))
            .args(["hub", "--hash", "4"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("crossboard hub starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Hub {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first whose command is `until` (30 s at most).
    fn read_until(&mut self, until: &str) -> Vec<Line> {
        let end = Instant::now() + Duration::from_secs(30);
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let text = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {until:?} after {seen:?}"));
            let line = Line::parse(&text);
            let done = line.command == until;
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_whole_game_over_standard_input_and_output() {
    let mut hub = Hub::start();
    hub.send("hub");
    let intro = hub.read_until("wait");
    let id = intro.iter().find(|l| l.command == "id").expect("id line");
    assert_eq!(id.get("name"), Some("crossboard"));
    let params: Vec<&str> = intro
        .iter()
        .filter(|l| l.command == "param")
        .filter_map(|l| l.get("name"))
        .collect();
    for p in ["threads", "hash", "variant"] {
        assert!(params.contains(&p), "{params:?}");
    }
    hub.send("set-param name=threads value=1");
    hub.send("set-param name=hash value=2");
    hub.send("init");
    hub.read_until("ready");
    hub.send("new-game");

    // The engine plays both sides from an 11-man ballot; the GUI sends the start position and
    // every move so far, as Hub does.
    let start = Position::from_fen("B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12")
        .unwrap();
    let mut game = Game::new(crossboard::engine::Rules::English, start);
    let mut sent = Vec::new();
    while game.result().is_none() && game.claimable_draw().is_none() && game.moves().len() < 160 {
        let mut pos = Line::new("pos").arg("pos", position_text(&start));
        if !sent.is_empty() {
            pos = pos.arg("moves", sent.join(" "));
        }
        hub.send(&pos.to_string());
        hub.send("level nodes=3000");
        hub.send("go think");
        let answer = hub.read_until("done");
        let done = answer.last().unwrap();
        let text = done.get("move").expect("a move").to_string();
        let mv = parse_hub_move(game.position(), &text)
            .unwrap_or_else(|e| panic!("illegal move {text} in {}: {e}", game.position()));
        assert!(
            answer.iter().any(|l| l.command == "info" && l.has("depth")),
            "info lines before done: {answer:?}"
        );
        game.play(&mv).unwrap();
        sent.push(text);
    }
    assert!(
        game.moves().len() >= 20,
        "a real game: {} plies",
        game.moves().len()
    );

    // An infinite search answers ping at once and stops on stop, with a legal move.
    hub.send("pos pos=B:W21-32:B1-12");
    hub.send("level infinite");
    hub.send("go analyze");
    std::thread::sleep(Duration::from_millis(200));
    hub.send("ping");
    let pong = hub.read_until("pong");
    assert!(pong.iter().all(|l| l.command != "done"), "still searching");
    hub.send("stop");
    let done = hub.read_until("done");
    let mv = done.last().unwrap().get("move").unwrap().to_string();
    assert!(parse_hub_move(&Position::start(), &mv).is_ok(), "{mv}");

    // Pondering waits for the hit, then keeps to the move time.
    hub.send("level move-time=0.1");
    hub.send("go ponder");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    hub.send("ponder-hit");
    hub.read_until("done");
    assert!(t.elapsed() < Duration::from_secs(10));

    // A refused position is answered with an error, and a search asked for after it is refused
    // too (never a move of the position before it), until a position is accepted.
    for bad in [
        "pos pos=Xnonsense",
        "pos pos=B:W21-32:B1-99",
        "pos pos=B:W21-32:B1-12 moves=\"11-15 11-16\"",
    ] {
        hub.send(bad);
        hub.read_until("error");
        hub.send("level depth=2");
        hub.send("go think");
        let answer = hub.read_until("done");
        assert!(
            answer.iter().any(|l| l.command == "error"),
            "{bad}: {answer:?}"
        );
        assert_eq!(
            answer.last().unwrap().get("move"),
            None,
            "{bad}: {answer:?}"
        );
    }
    hub.send("pos pos=B:W21-32:B1-12");
    hub.send("go think");
    let done = hub.read_until("done");
    let mv = done.last().unwrap().get("move").unwrap().to_string();
    assert!(parse_hub_move(&Position::start(), &mv).is_ok(), "{mv}");

    hub.send("quit");
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        if let Ok(Some(status)) = hub.child.try_wait() {
            assert!(status.success());
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("crossboard hub did not quit");
}

/// The score of the last `info` line of a search to `depth` of `fen`.
fn searched_score(hub: &mut Hub, fen: &str, depth: u32) -> f64 {
    hub.send(&format!("pos pos={fen}"));
    hub.send(&format!("level depth={depth}"));
    hub.send("go think");
    let lines = hub.read_until("done");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.command == "info")
        .unwrap_or_else(|| panic!("an info line: {lines:?}"));
    info.get("score").unwrap().parse().unwrap()
}

/// The databases' folder is a Hub parameter (`egdb-dir`, a string, announced with the
/// others): set to a folder, the search scores a won 3-piece ending as a database win;
/// emptied, it probes none; a folder without databases is refused and changes nothing.
#[test]
fn the_databases_folder_is_a_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap().to_string();
    let built = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(["egdb", "--dir", &folder, "build", "--pieces", "3"])
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    let empty = tempfile::tempdir().unwrap();
    let empty_folder = empty.path().to_str().unwrap().to_string();
    // White's two kings against one: a database win, far beyond a 4-ply horizon.
    let won = "W:WK22,K18:BK1";

    let mut hub = Hub::start();
    hub.send("hub");
    let intro = hub.read_until("wait");
    let param = intro
        .iter()
        .find(|l| l.command == "param" && l.get("name") == Some("egdb-dir"))
        .unwrap_or_else(|| panic!("an egdb-dir parameter: {intro:?}"));
    assert_eq!(param.get("type"), Some("string"));
    assert_eq!(param.get("value"), Some(""), "--no-egdb: none");
    hub.send("init");
    hub.read_until("ready");
    let without = searched_score(&mut hub, won, 4);
    assert!(without < 50.0, "no databases: an evaluation, not {without}");

    hub.send(
        &Line::new("set-param")
            .arg("name", "egdb-dir")
            .arg("value", &folder)
            .to_string(),
    );
    let with = searched_score(&mut hub, won, 4);
    assert!(
        with > 50.0,
        "with the databases: a database win, not {with}"
    );

    // A folder without databases: an error, and the databases stay.
    hub.send(
        &Line::new("set-param")
            .arg("name", "egdb-dir")
            .arg("value", &empty_folder)
            .to_string(),
    );
    let error = hub.read_until("error");
    assert!(
        error
            .last()
            .unwrap()
            .get("message")
            .unwrap()
            .contains("no endgame databases"),
        "{error:?}"
    );
    assert!(searched_score(&mut hub, won, 4) > 50.0);

    hub.send("set-param name=egdb-dir value=\"\"");
    assert!(searched_score(&mut hub, won, 4) < 50.0);
    hub.send("quit");

    // Named on the command line, the folder is announced as the parameter's value.
    let mut hub = Hub::start_with(&["--egdb", &folder]);
    hub.send("hub");
    let intro = hub.read_until("wait");
    let param = intro
        .iter()
        .find(|l| l.get("name") == Some("egdb-dir"))
        .unwrap();
    assert_eq!(param.get("value"), Some(folder.as_str()));
    hub.send("init");
    hub.read_until("ready");
    assert!(searched_score(&mut hub, won, 4) > 50.0);
    hub.send("quit");

    // engine-match hands the folder's databases to crossboard's side.
    let out = dir.path().join("games.pdn");
    let played = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args("engine-match --ballots 1 --seed 3 --nodes 500 --hash 2 --max-plies 10".split(' '))
        .args(["--egdb", &folder, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&played.stderr);
    assert!(played.status.success(), "{stderr}");
    assert!(
        stderr.contains("endgame databases: up to 3 pieces"),
        "{stderr}"
    );
}

#[test]
fn engine_match_plays_a_hub_engine() {
    // crossboard against itself through the protocol: the PDN names the Hub engine.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.pdn");
    let hub = format!(
        "\"{}\" hub --hash 2 --no-egdb",
        env!("CARGO_BIN_EXE_crossboard")
    );
    let status = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args([
            "engine-match",
            "--ballots",
            "1",
            "--seed",
            "5",
            "--nodes",
            "2000",
        ])
        .args([
            "--hash",
            "2",
            "--max-plies",
            "60",
            "--no-egdb",
            "--hub",
            &hub,
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let games: Vec<_> = crossboard::store::read_pdn(&text)
        .into_iter()
        .map(|g| g.expect("valid PDN"))
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Black"), Some("crossboard master"));
    assert_eq!(games[0].tag("White"), Some("crossboard 0.1.0"));
    assert_eq!(games[1].tag("Black"), Some("crossboard 0.1.0"));
    for g in &games {
        g.replay().expect("legal moves");
    }
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(stdout.contains("over 2 games"), "{stdout}");
    assert!(stdout.contains("ms per move"), "{stdout}");
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert!(stderr.contains("endgame databases: none"), "{stderr}");
}

/// Resident memory of process `pid` in MB, as Linux counts it.
#[cfg(target_os = "linux")]
fn resident_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .unwrap_or_else(|| panic!("{status}"));
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb / 1024
}

/// The hash table is made (and its memory touched) when the GUI says `init`, before `ready`,
/// and again when `hash` is set afterwards, before the next line is read: the first `go`
/// finds it ready instead of spending its move time making it.
#[cfg(target_os = "linux")]
#[test]
fn the_hash_table_is_made_at_init_not_at_the_first_go() {
    let mut hub = Hub::start();
    hub.send("hub");
    hub.read_until("wait");
    let pid = hub.child.id();
    let before = resident_mb(pid);
    assert!(before < 64, "{before} MB before the table");
    hub.send("set-param name=hash value=128");
    hub.send("init");
    hub.read_until("ready");
    let ready = resident_mb(pid);
    assert!(ready >= 120, "{ready} MB once ready: the table is not made");
    hub.send("set-param name=hash value=256");
    hub.send("ping");
    hub.read_until("pong");
    let resized = resident_mb(pid);
    assert!(resized >= 240, "{resized} MB after hash=256");
    // A new game clears it before the next line, and the engine still answers.
    hub.send("new-game");
    hub.send("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    hub.send("level move-time=0.05");
    hub.send("go think");
    let done = hub.read_until("done");
    assert!(done.last().unwrap().get("move").is_some(), "{done:?}");
    hub.send("quit");
}

/// Given a folder of the 6-piece databases (`--egdb DIR`), the search probes them: Second
/// Position (6 pieces, White to move wins) scores as a database win at a depth far short of
/// the win, where without databases it is an evaluation.
#[test]
#[ignore = "needs the 6-piece databases (CROSSBOARD_EGDB6_DIR, or a build of half an hour)"]
fn the_search_probes_six_piece_databases_from_a_folder() {
    let dir = crate::egdb_full::six_piece_dir();
    let second_position = "W:W30,27,K22:B21,20,K9";
    let mut without = Hub::start();
    without.send("hub");
    without.read_until("wait");
    without.send("init");
    without.read_until("ready");
    let plain = searched_score(&mut without, second_position, 6);
    assert!(plain < 50.0, "no databases: an evaluation, not {plain}");

    let mut hub = Hub::start_with(&["--egdb", dir.to_str().unwrap()]);
    hub.send("hub");
    hub.read_until("wait");
    hub.send("init");
    hub.read_until("ready");
    let with = searched_score(&mut hub, second_position, 6);
    assert!(with > 50.0, "a database win, not {with}");
    // Red to move: a database draw.
    let red = searched_score(&mut hub, "B:W30,27,K22:B21,20,K9", 6);
    assert!(red.abs() < 1.0, "a database draw, not {red}");
}

/// A Hub engine that misbehaves (`tests/fixtures/hub/stub-engine.sh MODE`) is stopped with a
/// message that names it and says what it did, within its bound: never a wait without end.
#[cfg(unix)]
#[test]
fn a_misbehaving_hub_engine_is_named_with_what_it_did() {
    use crossboard::hub::HubEngine;
    use crossboard::search::{MoveLimit, Player};
    let stub = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/hub/stub-engine.sh"
    );
    let limit = MoveLimit {
        time: Some(Duration::from_millis(10)),
        ..MoveLimit::default()
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let game = Game::new(crossboard::engine::Rules::English, Position::start());
    for (mode, said) in [
        ("crash", "Stubby 1.0: the engine quit (exit status: 3)"),
        (
            "illegal",
            "Stubby 1.0: played \"1-32\", not a legal move here",
        ),
        (
            "garbage",
            "Stubby 1.0: sent a line that is no Hub message: \"%%% <engine crashed",
        ),
        ("silent", "Stubby 1.0: silent, no answer within 0.1 s"),
    ] {
        let args = [mode.to_string(), "Stubby".into()];
        let params = [("hash".to_string(), "8".to_string())];
        let mut engine = HubEngine::spawn("stub", stub.as_ref(), &args, &params).unwrap();
        assert_eq!(engine.name(), "Stubby 1.0");
        engine.set_grace(Duration::from_millis(100));
        let started = Instant::now();
        let e = engine.choose(&game, &limit, &stop).unwrap_err();
        assert!(e.starts_with(said), "{mode}: {e}");
        assert!(started.elapsed() < Duration::from_secs(5), "{mode}");
    }
    // One that is not there is named by the config's name.
    let Err(e) = HubEngine::spawn("gone", "/nonexistent/engine".as_ref(), &[], &[]) else {
        panic!("a program that is not there started");
    };
    assert!(
        e.starts_with("gone: cannot start /nonexistent/engine: "),
        "{e}"
    );
}

/// With `--book FILE`, a position of the book is answered at once with the book's move (no
/// search, so no `info` line); another position is searched; a damaged book stops it at start.
#[test]
fn the_hub_engine_plays_from_a_book() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    let start = Position::start();
    std::fs::write(
        &book,
        format!(
            "{}\n{}\t6\t12-16=40 9-13=-60\n",
            crossboard::search::BOOK_VERSION,
            start.to_fen()
        ),
    )
    .unwrap();
    let mut hub = Hub::start_with(&["--no-egdb", "--book", book.to_str().unwrap()]);
    hub.send("hub");
    hub.read_until("wait");
    hub.send("init");
    hub.read_until("ready");
    hub.send(&format!("pos pos={}", position_text(&start)));
    hub.send("level depth=4");
    hub.send("go think");
    let lines = hub.read_until("done");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].get("move"), Some("12-16"));
    hub.send(&format!("pos pos={} moves=12-16", position_text(&start)));
    hub.send("go think");
    let lines = hub.read_until("done");
    assert!(lines.iter().any(|l| l.command == "info"), "{lines:?}");

    std::fs::write(&book, "crossboard-book 2\n").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(["hub", "--no-egdb", "--book", book.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success() && err.contains("line 1: version"),
        "{err}"
    );
}
