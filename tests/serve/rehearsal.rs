//! A rehearsal of a whole event as a director runs it, every part its own process: an
//! 8-player, 3-round Swiss of two games a board, set up and paired with `crossboard event`
//! (the real binary, as docs/tournament-desk.md says), the desk's `crossboard serve`, and four
//! boards, each a `crossboard report` with the board's token (`crossboard event token`) on a
//! match file the test writes record by record as the board's crossboard does. The boards are
//! hosts of their own in network namespaces where the machine allows (tests/serve/netns.rs),
//! else processes on loopback. The games are scripted: a number of plies of first legal moves,
//! then a resignation or an agreed draw, so the standings are not trivial. In round 2 board 3's
//! link is cut for its first game and the board catches up when it is back (on loopback its
//! reporter is stopped and started again). In round 3 board 2's laptop restarts mid-game from a
//! new match file: the desk refuses it, `crossboard report` ends saying why, the director sees
//! the refusal on the director's page, re-syncs the board with `crossboard event resync`, and
//! the board reports its new file from the start. After each round the standings of
//! `crossboard event standings` and of /api/event are the figures worked out by hand below, and
//! every move and result of the round's games is in /round/N.pdn; at the end every game is in
//! the event's PDN export with its moves and result.

use crate::hall::{Board, get_url, run_to_end, start_serve};
use crossboard::director::{Command, MatchSettings, Phase};
use crossboard::engine::Color;
use crossboard::event::match_settings;
use crossboard::store::{PdnGame, PdnResult, read_pdn};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

const EVENT: &str = "Hall Rehearsal";
const DIVISION: &str = "Open";
const NAMES: [&str; 8] = [
    "Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox", "Eve Hart", "Fay Lund", "Gus Park", "Hal Reid",
];
const BOARDS: usize = 4;
/// Between one record of each board still playing and the next: a board's pace, so that its
/// reporter sends a game in several pushes, as in a hall.
const PACE: Duration = Duration::from_millis(10);
/// The longest wait for a board's reporter or the desk's copy to catch up (a reporter that
/// could not reach the desk waits twice as long each time, up to 30 s).
const CATCH_UP: Duration = Duration::from_secs(45);
/// The round in which a board's link is cut for a game, and the board (0-based).
const CUT: (u32, usize) = (2, 2);
/// The round in which a board's laptop restarts from a new match file, and the board
/// (0-based).
const RESTART: (u32, usize) = (3, 1);

/// How a game ends, from the board's first player (Red in game 1, White in game 2).
#[derive(Clone, Copy, Debug)]
enum End {
    /// The first player wins (the second resigns).
    First,
    /// The second player wins (the first resigns).
    Second,
    Draw,
}
use End::{Draw, First, Second};

/// Each round's boards as the desk pairs them (first player, second player) and how their two
/// games end. With 2 points a win and 1 a draw, per game:
///
/// Round 1: Ann 4 (beats Eve twice), Fay 1 - Bob 3, Cid 2 - Gus 2, Hal 1 - Dee 3.
/// Round 2: Bob 3 - Ann 1, Dee 0 - Cid 4, Gus 2 - Fay 2, Eve 2 - Hal 2.
/// Round 3: Cid 2 - Bob 2, Ann 4 - Gus 0, Fay 2 - Hal 2, Eve 3 - Dee 1.
const SCRIPT: [[(&str, &str, End, End); BOARDS]; 3] = [
    [
        ("Ann Lee", "Eve Hart", First, First),
        ("Fay Lund", "Bob Ross", Draw, Second),
        ("Cid Moe", "Gus Park", Draw, Draw),
        ("Hal Reid", "Dee Fox", Second, Draw),
    ],
    [
        ("Bob Ross", "Ann Lee", First, Draw),
        ("Dee Fox", "Cid Moe", Second, Second),
        ("Gus Park", "Fay Lund", First, Second),
        ("Eve Hart", "Hal Reid", Draw, Draw),
    ],
    [
        ("Cid Moe", "Bob Ross", Draw, Draw),
        ("Ann Lee", "Gus Park", First, First),
        ("Fay Lund", "Hal Reid", Second, First),
        ("Eve Hart", "Dee Fox", First, Draw),
    ],
];

/// The standings after each round: place, name, points and the first tie-break (ICAONA's:
/// opponents' points), worked out by hand from [`SCRIPT`].
const STANDINGS: [[(&str, &str, u32, u32); 8]; 3] = [
    // Opponents' points are the opponent's round-1 points. Bob and Dee (3, opponents 1) stay
    // level on every tie-break (they did not meet, one game won each), as do Cid and Gus
    // (2, opponents 2: they drew each other, no game won), and Fay and Hal (1, opponents 3).
    [
        ("1", "Ann Lee", 4, 0),
        ("2-3", "Bob Ross", 3, 1),
        ("2-3", "Dee Fox", 3, 1),
        ("4-5", "Cid Moe", 2, 2),
        ("4-5", "Gus Park", 2, 2),
        ("6-7", "Fay Lund", 1, 3),
        ("6-7", "Hal Reid", 1, 3),
        ("8", "Eve Hart", 0, 4),
    ],
    // Points: Ann 4+1, Bob 3+3, Cid 2+4, Dee 3+0, Eve 0+2, Fay 1+2, Gus 2+2, Hal 1+2.
    // Opponents: Bob Fay 3 + Ann 5 = 8, Cid Gus 4 + Dee 3 = 7, Ann Eve 2 + Bob 6 = 8,
    // Gus Cid 6 + Fay 3 = 9, Fay Bob 6 + Gus 4 = 10, Dee Hal 3 + Cid 6 = 9, Hal Dee 3 + Eve 2
    // = 5, Eve Ann 5 + Hal 3 = 8.
    [
        ("1", "Bob Ross", 6, 8),
        ("2", "Cid Moe", 6, 7),
        ("3", "Ann Lee", 5, 8),
        ("4", "Gus Park", 4, 9),
        ("5", "Fay Lund", 3, 10),
        ("6", "Dee Fox", 3, 9),
        ("7", "Hal Reid", 3, 5),
        ("8", "Eve Hart", 2, 8),
    ],
    // Points: Ann 5+4, Bob 6+2, Cid 6+2, Dee 3+1, Eve 2+3, Fay 3+2, Gus 4+0, Hal 3+2.
    // Opponents: Ann Eve 5 + Bob 8 + Gus 4 = 17, Bob Fay 5 + Ann 9 + Cid 8 = 22,
    // Cid Gus 4 + Dee 4 + Bob 8 = 16, Eve Ann 9 + Hal 5 + Dee 4 = 18, Fay Bob 8 + Gus 4 +
    // Hal 5 = 17, Hal Dee 4 + Eve 5 + Fay 5 = 14, Gus Cid 8 + Fay 5 + Ann 9 = 22, Dee Hal 5 +
    // Cid 8 + Eve 5 = 18.
    [
        ("1", "Ann Lee", 9, 17),
        ("2", "Bob Ross", 8, 22),
        ("3", "Cid Moe", 8, 16),
        ("4", "Eve Hart", 5, 18),
        ("5", "Fay Lund", 5, 17),
        ("6", "Hal Reid", 5, 14),
        ("7", "Gus Park", 4, 22),
        ("8", "Dee Fox", 4, 18),
    ],
];

/// Where the processes run: boards on hosts of their own, or all on loopback.
enum Floor {
    #[cfg(target_os = "linux")]
    Network(crate::netns::Hosts),
    Loopback(Loopback),
}

/// The desk's server and the boards' reporters on 127.0.0.1; dropping it ends them.
struct Loopback {
    server: Child,
    url: String,
    /// Each board's reporter, by board.
    reporters: Vec<Option<Child>>,
}

impl Drop for Loopback {
    fn drop(&mut self) {
        for c in std::iter::once(&mut self.server).chain(self.reporters.iter_mut().flatten()) {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// `crossboard ARGS` on this host.
fn crossboard(args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"));
    c.args(args);
    c
}

impl Floor {
    /// The desk's server over `db`, on the hall's network when the machine allows it.
    fn open(db: &Path) -> Floor {
        #[cfg(target_os = "linux")]
        match crate::netns::unavailable() {
            None => {
                let mut hosts = crate::netns::Hosts::up('r', BOARDS);
                hosts.serve(db);
                return Floor::Network(hosts);
            }
            Some(why) => eprintln!("the rehearsal runs on loopback: {why}"),
        }
        let mut command = crossboard(&["serve", "--db", db.to_str().unwrap(), "--port", "0"]);
        command.stderr(Stdio::null());
        let (server, addr) = start_serve(command);
        Floor::Loopback(Loopback {
            server,
            url: format!("http://{addr}"),
            reporters: (0..BOARDS).map(|_| None).collect(),
        })
    }

    /// Start board `k`'s `crossboard report` on `file` with `token`.
    fn report(&mut self, k: usize, token: &str, file: &Path) {
        match self {
            #[cfg(target_os = "linux")]
            Floor::Network(hosts) => hosts.report_file(k, token, file),
            Floor::Loopback(l) => {
                let child = crossboard(&["report", "--desk", &l.url, "--board-token", token])
                    .arg(file)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap();
                assert!(l.reporters[k].replace(child).is_none());
            }
        }
    }

    /// Board `k` cut off from the desk (`up`: false) or back (on loopback its reporter is
    /// stopped, and started again on `file` with `token`).
    fn link(&mut self, k: usize, up: bool, token: &str, file: &Path) {
        match self {
            #[cfg(target_os = "linux")]
            Floor::Network(hosts) => hosts.set_link(k, up),
            Floor::Loopback(_) if up => self.report(k, token, file),
            Floor::Loopback(l) => {
                let mut c = l.reporters[k].take().unwrap();
                c.kill().unwrap();
                c.wait().unwrap();
            }
        }
    }

    /// Board `k`'s laptop stops dead: its reporter killed.
    fn stop(&mut self, k: usize) {
        match self {
            #[cfg(target_os = "linux")]
            Floor::Network(hosts) => hosts.stop_reporter(k),
            Floor::Loopback(l) => {
                let mut c = l.reporters[k].take().unwrap();
                c.kill().unwrap();
                c.wait().unwrap();
            }
        }
    }

    /// `crossboard report` on board `k`'s `file` with `token`, to its end (at most
    /// [`CATCH_UP`]): how it ended and what it said on its standard error.
    fn report_to_end(&mut self, k: usize, token: &str, file: &Path) -> (ExitStatus, String) {
        match self {
            #[cfg(target_os = "linux")]
            Floor::Network(hosts) => hosts.report_to_end(k, token, file, CATCH_UP),
            Floor::Loopback(l) => {
                let _ = k; // on loopback every board reports from this host
                let mut command = crossboard(&["report", "--desk", &l.url, "--board-token"]);
                command.arg(token).arg(file);
                run_to_end(command, CATCH_UP)
            }
        }
    }

    /// Wait until every board's reporter has ended by itself, successfully: its match over
    /// and the desk holding every line.
    fn reporters_done(&mut self, round: u32) {
        match self {
            #[cfg(target_os = "linux")]
            Floor::Network(hosts) => hosts.reporters_done(CATCH_UP, &format!("round {round}")),
            Floor::Loopback(l) => {
                let start = Instant::now();
                for (k, c) in l.reporters.iter_mut().enumerate() {
                    let child = c.as_mut().unwrap();
                    let status = loop {
                        if let Some(status) = child.try_wait().unwrap() {
                            break status;
                        }
                        assert!(
                            start.elapsed() < CATCH_UP,
                            "round {round}, board {}: its reporter still runs",
                            k + 1
                        );
                        std::thread::sleep(Duration::from_millis(20));
                    };
                    assert!(status.success(), "round {round}, board {}: {status}", k + 1);
                    *c = None;
                }
            }
        }
    }

    /// GET `path` from the desk's server, as a browser on the hall's network: the body (the
    /// status must be 200).
    fn get(&self, path: &str) -> String {
        let (status, body) = match self {
            #[cfg(target_os = "linux")]
            Floor::Network(hosts) => hosts.get(path),
            Floor::Loopback(l) => get_url(&format!("{}{path}", l.url)),
        };
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }
}

/// The event at the desk, in a folder of its own.
struct Desk {
    dir: tempfile::TempDir,
    db: PathBuf,
    /// The director's page: `/director?key=TOKEN`.
    director: String,
}

impl Desk {
    /// `crossboard event --db DB ARGS`, which must succeed: what it printed.
    fn event(&self, args: &[&str]) -> String {
        let out: Output = crossboard(&["event", "--db", self.db.to_str().unwrap()])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "crossboard event {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// The event and its division set up, the players entered, as docs/tournament-desk.md says.
    fn new() -> Desk {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("desk.sqlite3");
        let mut desk = Desk {
            dir,
            db,
            director: String::new(),
        };
        desk.event(&["new", EVENT, "--site", "Greensboro"]);
        let key = desk.event(&["token", EVENT, "--director"]);
        desk.director = format!("/director?key={}", key.trim());
        desk.event(&[
            "division", EVENT, DIVISION, "--format", "swiss:3", "--games", "2", "--win", "2",
        ]);
        let mut enter = vec!["enter", EVENT, DIVISION];
        enter.extend(NAMES);
        desk.event(&enter);
        desk
    }

    /// The desk's copy of board `k` (0-based) of `round` ("" when it has none).
    fn copy(&self, round: u32, k: usize) -> String {
        let path = crossboard::serve::copy_path(&self.db, EVENT, 1, round, k as u32 + 1);
        std::fs::read_to_string(path).unwrap_or_default()
    }
}

/// One board of a round: its match written as the board's crossboard writes it, played by its
/// script.
struct Seat {
    round: u32,
    /// The board, 0-based.
    k: usize,
    board: Board,
    /// The match's settings, as the desk pairs the board.
    settings: MatchSettings,
    ends: [End; 2],
    /// The game being played (0-based) and the plies played in it.
    game: usize,
    plies: usize,
    /// A draw offered by the other colour, accepted at the next record by this one.
    accept: Option<Color>,
    /// Each game's moves as the match has them when it ends.
    games: Vec<Vec<String>>,
}

/// Board `k` (0-based) of `round` starts, as a board's laptop does: its token from the desk,
/// its match set up as the event pairs it (players and colours, the round's ballot, rules),
/// its reporter started.
fn start_board(desk: &Desk, floor: &mut Floor, round: u32, k: usize) -> Seat {
    let (r, b) = (round.to_string(), (k + 1).to_string());
    let token = desk.event(&["token", EVENT, DIVISION, &r, &b]);
    let token = token.trim();
    let store = crossboard::store::Desk::open(&desk.db).unwrap();
    let event = store.load(store.find_event(EVENT).unwrap()).unwrap().event;
    let d = &event.divisions[0];
    let board = &d.rounds[round as usize - 1].boards[k];
    let (first, second, one, two) = SCRIPT[round as usize - 1][k];
    assert_eq!(
        [d.name(board.first), d.name(board.second)],
        [first, second],
        "round {round}, board {b}: the desk paired another board than the script's"
    );
    let settings = match_settings(&MatchSettings::default(), EVENT, d, round, board).unwrap();
    let file = desk.dir.path().join(format!("r{round}b{b}.jsonl"));
    let seed = u64::from(round) * 10 + k as u64;
    let board = Board::start(settings.clone(), file, token.to_string(), seed);
    floor.report(k, token, &board.file);
    Seat {
        round,
        k,
        board,
        settings,
        ends: [one, two],
        game: 0,
        plies: 0,
        accept: None,
        games: Vec::new(),
    }
}

impl Seat {
    /// How many plies the game being played has before it ends: 6 to 15, a different length
    /// for each board and game.
    fn length(&self) -> usize {
        6 + 2 * self.k + 3 * self.game
    }

    /// The board writes its next record: a move, the game's end or the next game's start;
    /// false when the match is over.
    fn step(&mut self) -> bool {
        let m = &self.board.m;
        if m.phase() == Phase::Finished {
            return false;
        }
        let c = if let Some(colour) = self.accept.take() {
            Command::AcceptDraw { colour }
        } else if let Some(g) = m.playing() {
            let pos = g.game.position();
            let turn = pos.turn();
            if self.plies < self.length() {
                self.plies += 1;
                let mv = pos.legal_moves()[0];
                Command::PlayMove { colour: turn, mv }
            } else {
                let moves = g.game.moves().iter().map(ToString::to_string).collect();
                self.games.push(moves);
                // The first player has Red in game 1, White in game 2.
                let first = [Color::Red, Color::White][self.game];
                match self.ends[self.game] {
                    First => Command::Resign {
                        colour: first.opponent(),
                    },
                    Second => Command::Resign { colour: first },
                    Draw => {
                        self.accept = Some(turn.opponent());
                        Command::OfferDraw { colour: turn }
                    }
                }
            }
        } else {
            self.game += 1;
            self.plies = 0;
            Command::StartGame
        };
        assert!(
            self.board.apply(c.clone()),
            "round {}, board {}, game {}: the match refused {c:?}",
            self.round,
            self.k + 1,
            self.game + 1
        );
        true
    }

    /// The PDN result of game `g` (0-based) by the script.
    fn result(&self, g: usize) -> PdnResult {
        match (self.ends[g], g) {
            (Draw, _) => PdnResult::Draw,
            (First, 0) | (Second, 1) => PdnResult::RedWins,
            _ => PdnResult::WhiteWins,
        }
    }
}

/// Wait (at most [`CATCH_UP`]) until the desk's copy of `seat`'s board is its file.
fn caught_up(desk: &Desk, seat: &Seat, when: &str) {
    let start = Instant::now();
    loop {
        let (copy, file) = (desk.copy(seat.round, seat.k), seat.board.text());
        if copy == file {
            return;
        }
        assert!(
            start.elapsed() < CATCH_UP,
            "round {}, board {} ({when}): the desk's copy has {} of {} lines after {CATCH_UP:?}",
            seat.round,
            seat.k + 1,
            copy.lines().count(),
            file.lines().count()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `seat`'s laptop restarts in the middle of its first game and its match starts again from
/// a new file: the desk refuses it (its copy holds the old file's lines), `crossboard report`
/// ends saying why, the director's page shows the refusal, the director re-syncs the board,
/// and the board reports its new file from the first line, the refusal gone.
fn restart(desk: &Desk, floor: &mut Floor, seat: &mut Seat) {
    let (round, k) = (seat.round, seat.k);
    let at = format!("round {round}, board {}", k + 1);
    caught_up(desk, seat, "before its laptop restarts");
    floor.stop(k);
    let file = desk
        .dir
        .path()
        .join(format!("r{round}b{}-restarted.jsonl", k + 1));
    let token = seat.board.token.clone();
    // A match file records its creation to the second: a laptop restarted within the same
    // second as the old file was made would write the same first lines, a file the desk's copy
    // begins with (the board then finds the desk ahead of it, a refusal of its own that the
    // desk never sees). A restart is later than that: the next second, at most one away.
    let second = chrono::Utc::now().timestamp();
    while chrono::Utc::now().timestamp() == second {
        std::thread::sleep(Duration::from_millis(10));
    }
    seat.board = Board::start(seat.settings.clone(), file, token.clone(), 99);
    (seat.game, seat.plies, seat.accept) = (0, 0, None);
    seat.games.clear();
    let (status, said) = floor.report_to_end(k, &token, &seat.board.file);
    assert!(
        !status.success(),
        "{at}: the new file was not refused: {said}"
    );
    assert!(said.contains("differs"), "{at}: {said}");
    assert!(said.contains("re-sync"), "{at}: {said}");
    // The director sees it on the director's page, with the reason.
    let page = floor.get(&desk.director);
    let row = board_row(&page, k);
    assert!(row.contains("refused line "), "{at}: {row}");
    assert!(row.contains("(409)"), "{at}: {row}");
    assert!(row.contains("differs from the desk"), "{at}: {row}");
    let (r, b) = (round.to_string(), (k + 1).to_string());
    let said = desk.event(&["resync", EVENT, DIVISION, &r, &b]);
    assert!(
        said.contains("the board sends its file again"),
        "{at}: {said}"
    );
    floor.report(k, &token, &seat.board.file);
    caught_up(desk, seat, "re-synced");
    let row = board_row(&floor.get(&desk.director), k);
    assert!(!row.contains("refused"), "{at}: {row}");
    assert!(row.contains("game 1 move "), "{at}: {row}");
}

/// Board `k`'s (0-based) row of the director's page.
fn board_row(page: &str, k: usize) -> String {
    let start = page
        .find(&format!("<tr id=\"b{}\">", k + 1))
        .unwrap_or_else(|| panic!("no board {}: {page}", k + 1));
    let row = &page[start..];
    row[..row.find("</tr>").unwrap()].to_string()
}

/// Round `round` is played: every board starts, plays its script to the end and reports it
/// all (in round [`CUT`]'s, that board's link is down for its first game).
fn play_round(desk: &Desk, floor: &mut Floor, round: u32) -> Vec<Seat> {
    let mut seats: Vec<Seat> = (0..BOARDS)
        .map(|k| start_board(desk, floor, round, k))
        .collect();
    let (mut cut, mut back, mut restarted) = (false, false, false);
    loop {
        // Every board writes its next record (all of them, not only up to the first still
        // playing).
        let playing = seats.iter_mut().map(Seat::step).collect::<Vec<bool>>();
        if !playing.contains(&true) {
            break;
        }
        if round == CUT.0 {
            let seat = &seats[CUT.1];
            let (token, file) = (seat.board.token.clone(), seat.board.file.clone());
            if !cut && seat.plies == 2 {
                caught_up(desk, seat, "before its link is cut");
                floor.link(CUT.1, false, &token, &file);
                cut = true;
            } else if cut && !back && seat.game == 1 {
                let (copy, text) = (desk.copy(round, CUT.1), seat.board.text());
                assert!(
                    text.starts_with(&copy) && copy.len() < text.len(),
                    "round {round}, board {}: the desk had its moves while its link was cut",
                    CUT.1 + 1
                );
                floor.link(CUT.1, true, &token, &file);
                caught_up(desk, seat, "its link back after a game");
                back = true;
            }
        }
        if round == RESTART.0 && !restarted && seats[RESTART.1].plies == 4 {
            restart(desk, floor, &mut seats[RESTART.1]);
            restarted = true;
        }
        std::thread::sleep(PACE);
    }
    assert!(round != CUT.0 || back, "the link was never cut");
    assert!(round != RESTART.0 || restarted, "the board never restarted");
    floor.reporters_done(round);
    for seat in &seats {
        caught_up(desk, seat, "the round over");
    }
    seats
}

/// The standings' rows as `crossboard event standings` prints them: place, name, points, and
/// opponents' points.
fn printed_standings(text: &str) -> Vec<(String, String, u32, u32)> {
    text.lines()
        .skip_while(|l| !l.contains("Pts"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = w.len();
            let number = |s: &str| s.parse().unwrap_or_else(|_| panic!("{s}: {text}"));
            (
                w[0].to_string(),
                format!("{} {}", w[1], w[2]),
                number(w[n - 4]),
                number(w[n - 3]),
            )
        })
        .collect()
}

/// The same rows from /api/event's standings (`{header, rows}`).
fn api_standings(json: &str) -> Vec<(String, String, u32, u32)> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let table = &v["divisions"][0]["standings"];
    let header: Vec<&str> = (table["header"].as_array().unwrap().iter())
        .map(|h| h.as_str().unwrap())
        .collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}: {header:?}"))
    };
    let (place, name, pts, buch) = (column("#"), column("Name"), column("Pts"), column("Buch"));
    let cells = table["rows"].as_array().unwrap().iter().map(|r| {
        let cell = |i: usize| r[i].as_str().unwrap().to_string();
        let number = |i: usize| cell(i).parse().unwrap_or_else(|_| panic!("{r}"));
        (cell(place), cell(name), number(pts), number(buch))
    });
    cells.collect()
}

/// After `round`, the desk's standings and the server's are the figures worked out by hand.
fn standings_are_the_hand_figures(desk: &Desk, floor: &Floor, round: u32) {
    let want: Vec<(String, String, u32, u32)> = STANDINGS[round as usize - 1]
        .iter()
        .map(|&(place, name, pts, buch)| (place.into(), name.into(), pts, buch))
        .collect();
    let printed = desk.event(&["standings", EVENT, DIVISION]);
    assert_eq!(
        printed_standings(&printed),
        want,
        "round {round}: `crossboard event standings`\n{printed}"
    );
    until(&format!("round {round}: /api/event's standings"), || {
        let got = api_standings(&floor.get("/api/event"));
        (got == want)
            .then_some(())
            .ok_or(format!("{got:?}\nnot {want:?}"))
    });
}

/// Whether `pdn` has every game of `rounds` and nothing else, each with the result its board
/// played and, when `moves`, its moves; else what differs first.
fn pdn_differs(pdn: &str, rounds: &[Vec<Seat>]) -> Result<(), String> {
    let games = (read_pdn(pdn).into_iter())
        .collect::<Result<Vec<PdnGame>, _>>()
        .map_err(|e| e.to_string())?;
    let tag = |g: &PdnGame| {
        let round = g.tags.iter().find(|(k, _)| k == "Round");
        round.map(|(_, v)| v.clone()).unwrap_or_default()
    };
    for seat in rounds.iter().flatten() {
        for (g, played) in seat.games.iter().enumerate() {
            let at = format!("{}.{}.{}", seat.round, seat.k + 1, g + 1);
            let Some(game) = games.iter().find(|p| tag(p) == at) else {
                return Err(format!("no game {at} (round.board.game)"));
            };
            let result = seat.result(g);
            if game.result != result {
                return Err(format!("game {at}: {:?}, not {result:?}", game.result));
            }
            let got: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
            if &got != played {
                return Err(format!("game {at}: the moves {got:?}, not {played:?}"));
            }
        }
    }
    let scripted = rounds.len() * BOARDS * 2;
    match games.len() {
        n if n == scripted => Ok(()),
        n => Err(format!("{n} games, not the {scripted} played")),
    }
}

/// Wait (at most [`CATCH_UP`]) until `check` holds: the server's pages follow the files it
/// serves within a moment, not at once. Panics with `what` and the last difference.
fn until(what: &str, mut check: impl FnMut() -> Result<(), String>) {
    let start = Instant::now();
    loop {
        match check() {
            Ok(()) => return,
            Err(e) if start.elapsed() > CATCH_UP => panic!("{what}: {e}"),
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

#[test]
fn rehearsal_a_three_round_swiss_with_the_desk_serve_and_four_boards_as_processes() {
    let desk = Desk::new();
    let mut rounds: Vec<Vec<Seat>> = Vec::new();
    let mut floor = None;
    for round in 1..=3 {
        desk.event(&["pair", EVENT, DIVISION]);
        // The server starts once the first round is paired, as a director does.
        let floor = floor.get_or_insert_with(|| Floor::open(&desk.db));
        rounds.push(play_round(&desk, floor, round));
        standings_are_the_hand_figures(&desk, floor, round);
        let path = format!("/round/{round}.pdn");
        let this = &rounds[round as usize - 1..];
        until(&path, || pdn_differs(&floor.get(&path), this));
    }
    // At the end, each round's PDN still has every game of its round, moves and results.
    let floor = floor.as_ref().unwrap();
    for (r, seats) in rounds.iter().enumerate() {
        let path = format!("/round/{}.pdn", r + 1);
        let round = std::slice::from_ref(seats);
        until(&format!("{path} at the end"), || {
            pdn_differs(&floor.get(&path), round)
        });
    }
    let out = desk.dir.path().join("event.pdn");
    let out = out.to_str().unwrap();
    desk.event(&["export", EVENT, DIVISION, "--format", "pdn", "--out", out]);
    let export = std::fs::read_to_string(out).unwrap();
    // Every game of the event with its moves and result, as the boards pushed them.
    if let Err(e) = pdn_differs(&export, &rounds) {
        panic!("the event's PDN export: {e}\n{export}");
    }
}
