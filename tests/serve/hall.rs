//! A small event on a desk database: one division of four players, round 1 paired with its
//! ballots drawn, board 1 played on crossboard (its match file linked, moves written as a
//! board writes them), and a server over it.

use crossboard::director::{Command, Match, MatchSettings, Now, Player};
use crossboard::engine::Color;
use crossboard::event::{
    Action, DivisionSettings, EventInfo, Format, PlayerInfo, ScoreUnit, draw_ballots,
    match_settings, propose,
};
use crossboard::serve::{Options, Running, Source};
use crossboard::store::{Desk, Entrant, MatchStore, OpenEvent};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Instant;

/// The event every test serves, in a folder of its own: "Club Open" at Greensboro, one Swiss
/// division "Open" of `games` games a match with players `names`, round 1 paired and its
/// ballots drawn.
struct Paired {
    dir: tempfile::TempDir,
    db: PathBuf,
    desk: Desk,
    open: OpenEvent,
    /// When it was all recorded.
    at: chrono::DateTime<chrono::Utc>,
    /// The randomness that drew the ballots, drawn on.
    rng: ChaCha8Rng,
}

fn paired(names: &[String], games: u32, at: chrono::DateTime<chrono::Utc>) -> Paired {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    let mut desk = Desk::open(&db).unwrap();
    let info = EventInfo {
        name: "Club Open".into(),
        site: "Greensboro".into(),
        ..EventInfo::default()
    };
    let mut open = desk.create_event(&info, at).unwrap();
    let settings = DivisionSettings::new(
        Format::Swiss { rounds: 3 },
        games,
        crossboard::director::GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    let add = Action::AddDivision {
        name: "Open".into(),
        settings,
    };
    desk.record(&mut open, &[add], at).unwrap();
    let entries: Vec<Entrant> = names
        .iter()
        .map(|n| Entrant::New(PlayerInfo::named(n)))
        .collect();
    desk.enter_players(&mut open, 0, &entries, at).unwrap();
    let pair = propose(0, &open.event.divisions[0]).unwrap();
    desk.record(&mut open, &[pair], at).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let draws = draw_ballots(0, &open.event.divisions[0], 1, &mut rng).unwrap();
    desk.record(&mut open, &[draws], at).unwrap();
    Paired {
        dir,
        db,
        desk,
        open,
        at,
        rng,
    }
}

/// Start `crossboard serve` as `command` has it and wait until it says where it serves: the
/// process and the address of its first line (`serving at http://ADDR/`).
pub fn start_serve(mut command: std::process::Command) -> (std::process::Child, SocketAddr) {
    use std::io::BufRead;
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("serving at http://")
        .and_then(|a| a.strip_suffix('/'))
        .and_then(|a| a.parse().ok());
    match addr {
        Some(addr) => (child, addr),
        None => {
            let _ = child.kill();
            panic!("serve said {line:?}");
        }
    }
}

/// An HTTP/1.1 chunked body: its data, then the end (`Ok(0)`) at the last chunk. A read cut
/// by a timeout leaves it where it was.
pub struct Chunked<R> {
    inner: R,
    /// What is left of the chunk being read.
    left: usize,
    /// The next chunk's size line, as read so far.
    size: String,
}

impl<R> Chunked<R> {
    /// The body that `inner` reads on from, after the answer's head.
    pub fn new(inner: R) -> Chunked<R> {
        Chunked {
            inner,
            left: 0,
            size: String::new(),
        }
    }
}

impl<R: std::io::BufRead> std::io::Read for Chunked<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.left == 0 {
            if self.inner.read_line(&mut self.size)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if !self.size.ends_with('\n') {
                continue;
            }
            let size = self.size.trim().split(';').next().unwrap_or_default();
            // The line ending a chunk's data is empty.
            let size = (!size.is_empty())
                .then(|| usize::from_str_radix(size, 16))
                .transpose()
                .map_err(std::io::Error::other)?;
            self.size.clear();
            match size {
                Some(0) => return Ok(0),
                Some(n) => self.left = n,
                None => {}
            }
        }
        let take = out.len().min(self.left);
        let n = self.inner.read(&mut out[..take])?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.left -= n;
        Ok(n)
    }
}

/// The first player takes Red, the ballot is drawn and game 1 starts.
fn start_first_game(m: &mut Match, t0: Clock, rng: &mut ChaCha8Rng) {
    for c in [
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
        Command::DrawBallot,
        Command::StartGame,
    ] {
        m.apply(c, now(t0), rng).unwrap();
    }
}

pub struct Hall {
    /// Holds the files (removed when the hall is dropped).
    _dir: tempfile::TempDir,
    pub db: PathBuf,
    /// Board 1's match file.
    pub file: PathBuf,
    pub m: Match,
    store: MatchStore,
    rng: ChaCha8Rng,
    /// The clock the match is played on.
    pub clock: Clock,
}

/// The hall's clock: the wall's, `back` behind it.
#[derive(Clone, Copy)]
pub struct Clock {
    t0: Instant,
    pub back: chrono::TimeDelta,
}

fn now(c: Clock) -> Now {
    Now {
        mono_ms: c.t0.elapsed().as_millis() as u64,
        wall: chrono::Utc::now() - c.back,
    }
}

impl Hall {
    /// The event with players `names` (four), board 1's match started (no move yet).
    pub fn new(names: [&str; 4]) -> Hall {
        Hall::with(names, true)
    }

    /// The same, board 1's match file linked to the board at the desk when `linked` (else
    /// the file is the board laptop's, which reports it).
    pub fn with(names: [&str; 4], linked: bool) -> Hall {
        Hall::at(names, linked, chrono::TimeDelta::zero())
    }

    /// The same, the event and the match made on a clock `back` behind the wall's (the
    /// hall's [`Clock`], which a test may set forward).
    pub fn at(names: [&str; 4], linked: bool, back: chrono::TimeDelta) -> Hall {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let Paired {
            dir,
            db,
            mut desk,
            mut open,
            at,
            rng,
        } = paired(&names, 2, chrono::Utc::now() - back);
        let d = &open.event.divisions[0];
        let b = &d.rounds[0].boards[0];
        let s = match_settings(&MatchSettings::default(), "Club Open", d, 1, b).unwrap();
        let file = dir.path().join("board1.jsonl");
        let t0 = Clock {
            t0: Instant::now(),
            back,
        };
        let mut m = Match::new(s, now(t0)).unwrap();
        let store = MatchStore::create(&file, &m).unwrap();
        let link = Action::LinkMatch {
            division: 0,
            round: 1,
            board: 1,
            file: file.display().to_string(),
        };
        if linked {
            desk.record(&mut open, &[link], at).unwrap();
        }
        let mut hall = Hall {
            _dir: dir,
            db,
            file,
            m: m.clone(),
            store,
            rng,
            clock: t0,
        };
        start_first_game(&mut m, hall.clock, &mut hall.rng);
        hall.m = m;
        hall.store.save(&hall.m).unwrap();
        hall
    }

    /// A command of the match, written to its file.
    pub fn apply(&mut self, c: Command) {
        self.m.apply(c, now(self.clock), &mut self.rng).unwrap();
        self.store.save(&self.m).unwrap();
    }

    /// The side to move plays its first legal move, written to the match file as a board
    /// writes it; the move's text.
    pub fn play(&mut self) -> String {
        let g = self.m.playing().unwrap();
        let pos = g.game.position();
        let mv = pos.legal_moves()[0];
        let colour = pos.turn();
        let text = mv.to_string();
        self.m
            .apply(
                Command::PlayMove { colour, mv },
                now(self.clock),
                &mut self.rng,
            )
            .unwrap();
        self.store.save(&self.m).unwrap();
        text
    }

    /// A server over the event (and the match file standalone when `standalone`).
    pub fn serve(&self) -> Running {
        let source = Source {
            db: Some(self.db.clone()),
            event: None,
            match_file: Some(self.file.clone()),
        };
        crossboard::serve::start(Options::new(source, "127.0.0.1:0".parse().unwrap())).unwrap()
    }
}

/// Run `command` to its end (at most `limit`, else it is killed and the test fails): how it
/// ended and what it wrote to its standard error.
pub fn run_to_end(
    command: std::process::Command,
    limit: std::time::Duration,
) -> (std::process::ExitStatus, String) {
    let shown = format!("{command:?}");
    match run_for(command, limit) {
        (Some(status), said) => (status, said),
        (None, said) => panic!("{shown} still runs after {limit:?}: {said}"),
    }
}

/// Run `command` for at most `limit` (then it is killed): how it ended (`None`: it still ran)
/// and what it wrote to its standard error.
pub fn run_for(
    mut command: std::process::Command,
    limit: std::time::Duration,
) -> (Option<std::process::ExitStatus>, String) {
    use std::io::Read;
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let ended = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut said = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    let _ = child.wait();
    (ended, said)
}

/// An HTTP answer: status, ETag and body.
pub struct Got {
    pub status: u16,
    pub etag: Option<String>,
    pub body: String,
}

/// GET `url`: status and body.
pub fn get_url(url: &str) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut r = agent.get(url).call().unwrap();
    (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
}

/// GET `path` of the server, with `If-None-Match: etag` when given.
pub fn get(server: &Running, path: &str, etag: Option<&str>) -> Got {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut req = agent.get(format!("http://{}{path}", server.addr()));
    if let Some(t) = etag {
        req = req.header("If-None-Match", t);
    }
    let mut r = req.call().unwrap();
    Got {
        status: r.status().as_u16(),
        etag: r
            .headers()
            .get("etag")
            .map(|v| v.to_str().unwrap().to_string()),
        body: r.body_mut().read_to_string().unwrap(),
    }
}

/// An event of two players a board, round 1 paired with its ballots drawn, each board's match
/// started on the board's own laptop (not linked at the desk: the boards report to it), each
/// board with its token. No server: the tests start one as they need.
pub struct Boards {
    /// Holds the files (removed when dropped).
    _dir: tempfile::TempDir,
    pub db: PathBuf,
    pub boards: Vec<Board>,
}

/// One board's match, written to its file as the board's crossboard writes it.
pub struct Board {
    pub file: PathBuf,
    pub token: String,
    pub m: Match,
    store: MatchStore,
    rng: ChaCha8Rng,
    t0: Clock,
}

/// A game longer than this many plies is resigned by the side to move (first legal moves can
/// shuffle kings for ever).
const LONGEST_GAME: usize = 120;

impl Boards {
    pub fn new(boards: usize) -> Boards {
        Boards::with_games(boards, 2)
    }

    /// The same with `games` games a match.
    pub fn with_games(boards: usize, games: u32) -> Boards {
        let names: Vec<String> = (0..2 * boards)
            .map(|k| format!("Player {:03}", k + 1))
            .collect();
        let Paired { dir, db, open, .. } = paired(&names, games, chrono::Utc::now());
        let d = &open.event.divisions[0];
        let boards = d.rounds[0]
            .boards
            .iter()
            .enumerate()
            .map(|(k, b)| {
                let s = match_settings(&MatchSettings::default(), "Club Open", d, 1, b).unwrap();
                let file = dir.path().join(format!("board{}.jsonl", k + 1));
                let token = format!("{:032x}", 0xb0a2d_u64 * 1000 + k as u64);
                let key = format!("Club Open/1/1/{}", k + 1);
                crossboard::store::keep_board_token(&db, &key, &token).unwrap();
                Board::start(s, file, token, k as u64)
            })
            .collect();
        Boards {
            _dir: dir,
            db,
            boards,
        }
    }

    /// The desk's copy of board `k` (0-based), as it is now ("" when it has none).
    pub fn copy(&self, k: usize) -> String {
        let path = crossboard::serve::copy_path(&self.db, "Club Open", 1, 1, k as u32 + 1);
        std::fs::read_to_string(path).unwrap_or_default()
    }
}

impl Board {
    /// Board `seed`'s match with settings `s`, game 1 started (the first player Red), written
    /// to `file`.
    pub(crate) fn start(s: MatchSettings, file: PathBuf, token: String, seed: u64) -> Board {
        let t0 = Clock {
            t0: Instant::now(),
            back: chrono::TimeDelta::zero(),
        };
        let mut m = Match::new(s, now(t0)).unwrap();
        let store = MatchStore::create(&file, &m).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        start_first_game(&mut m, t0, &mut rng);
        let mut board = Board {
            file,
            token,
            m,
            store,
            rng,
            t0,
        };
        board.store.save(&board.m).unwrap();
        board
    }

    /// The board's match file as it is now.
    pub fn text(&self) -> String {
        std::fs::read_to_string(&self.file).unwrap()
    }

    /// The next record of a legal match, written to the file: the side to move plays its first
    /// legal move (or resigns a game grown too long), the next game starts when one is over;
    /// false when the match is over.
    pub fn play(&mut self) -> bool {
        use crossboard::director::Phase;
        if self.m.phase() == Phase::Finished {
            return false;
        }
        if self.m.playing().is_none() {
            // The next game; a match of more than two games draws its next ballot first.
            let ok = self.apply(Command::StartGame)
                || self.apply(Command::DrawBallot) && self.apply(Command::StartGame);
            assert!(ok, "the next game cannot start");
            return true;
        }
        let c = match self.m.playing() {
            None => return true,
            Some(g) => {
                let pos = g.game.position();
                let colour = pos.turn();
                if g.game.moves().len() >= LONGEST_GAME {
                    Command::Resign { colour }
                } else {
                    let mv = pos.legal_moves()[0];
                    Command::PlayMove { colour, mv }
                }
            }
        };
        assert!(self.apply(c.clone()), "{c:?} refused");
        true
    }

    /// Apply `c` and write it; false when the match refuses it (nothing changes then).
    pub(crate) fn apply(&mut self, c: Command) -> bool {
        if self.m.apply(c, now(self.t0), &mut self.rng).is_err() {
            return false;
        }
        self.store.save(&self.m).unwrap();
        true
    }
}
