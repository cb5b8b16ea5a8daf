//! What the pages, the JSON API and the live feeds show, derived on each request from the
//! desk's database and the match files: only the event as read and what the boards' cards
//! show of their matches are kept between requests, and only while the files keep their
//! length and modification time, so the server can stop and start again and show the same.
//! What is kept of a match does not grow with it: its game in play and no log ([`ReadMatch`]);
//! a board's page and the JSON API read its match whole ([`whole_match`]).

use super::delay::Delay;
use super::watcher::{Stamp, db_files, stamp, stamps};
use crate::director::{Match, MatchEvent};
use crate::event::{Board, Division, Round, Tournament};
use crate::publish::Published;
use crate::publish::sentences::{ballot_text, result_text};
use crate::store::{Desk, OpenEvent, PdnGame, load_match, match_to_pdn, move_label};
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Where the server reads: the desk's database (one event of it) and/or one match file.
#[derive(Clone, Debug, Default)]
pub struct Source {
    /// The desk's database.
    pub db: Option<PathBuf>,
    /// The event's name (default: the one created last).
    pub event: Option<String>,
    /// A standalone match file.
    pub match_file: Option<PathBuf>,
}

/// The event of `desk` a server serves: the one called `name`, or the one created last.
pub(super) fn open_served(desk: &Desk, name: Option<&str>) -> Result<OpenEvent, ViewError> {
    let id = match name {
        Some(name) => desk.find_event(name)?,
        None => desk
            .events()?
            .iter()
            .map(|e| e.id)
            .max()
            .ok_or_else(|| ViewError::NotFound("the database holds no event".into()))?,
    };
    Ok(desk.load(id)?)
}

/// An event as served.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct EventView {
    pub name: String,
    pub site: String,
    pub dates: String,
    pub divisions: Vec<DivisionView>,
}

/// A division: its current round's boards and its standings (the crosstable as published).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct DivisionView {
    /// 1-based, as in the pages' addresses.
    pub number: usize,
    pub name: String,
    /// The last round paired (none yet: 0).
    pub round: u32,
    pub boards: Vec<BoardView>,
    pub standings: TableView,
}

/// The crosstable in standings order, every cell as published.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct TableView {
    /// What the table is of: "Standings after round 2 of 5; round 3 in play".
    pub heading: String,
    /// The last round whose results are all in, the one the standings are after (0: none).
    pub after: u32,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A board of a round, with its match when one is linked.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct BoardView {
    pub division: usize,
    pub round: u32,
    pub board: u32,
    /// The first player (Red in game 1) and the second.
    pub players: [String; 2],
    /// The round's ballot(s) for the board.
    pub ballots: Vec<String>,
    /// The board's result as the event has it (`-` before one).
    pub result: String,
    /// The match played on crossboard, read from its file.
    #[serde(rename = "match")]
    pub live: Option<Arc<MatchView>>,
}

/// A match read from its file.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MatchView {
    pub players: [String; 2],
    pub heading: String,
    /// Match points, first and second player.
    pub score: [String; 2],
    pub finished: bool,
    /// Records in the log (grows with every record written).
    pub records: usize,
    pub games: Vec<GameView>,
    pub log: Vec<LogLine>,
    /// Why the file could not be read, if it could not.
    pub error: Option<String>,
}

/// One game of a match.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct GameView {
    pub ballot: u32,
    pub number: u8,
    pub opening: String,
    pub red: String,
    pub white: String,
    pub moves: Vec<MoveView>,
    /// Position after each ply, as FEN, from the start (so one more than `moves`).
    pub fens: Vec<String>,
    /// `None` while it runs.
    pub result: Option<String>,
    pub clock: Option<ClockView>,
}

/// A move with its clock stamp.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MoveView {
    pub label: String,
    pub text: String,
    /// The squares it went from and to (the numbers 1-32).
    pub squares: [u8; 2],
    /// The mover's time left after it, ms.
    pub left_ms: Option<i64>,
    pub spent_ms: u64,
}

/// The clocks of a game as of its last record; the side to move's runs on from `since_ms`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ClockView {
    pub red_ms: Option<i64>,
    pub white_ms: Option<i64>,
    /// `red` or `white`.
    pub to_move: String,
    /// Running now (a game in play, not paused).
    pub running: bool,
    /// Wall-clock time of the last record, ms since 1970.
    pub since_ms: i64,
}

/// A record of the match's log.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct LogLine {
    pub at: String,
    pub kind: String,
    pub detail: String,
}

/// Why a page cannot be made.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ViewError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Desk(#[from] crate::store::DeskError),
}

/// The events as last read, by database, event name and whether cut by a delay, with the
/// stamps of the database's files before they were read and the time of the first action
/// after the cut (`None`: every action is in).
type Read = HashMap<(PathBuf, Option<String>, bool), (Vec<Stamp>, Due, Tournament)>;

/// When what was read under a delay's cut changes: its first record after the cut.
type Due = Option<DateTime<Utc>>;

static READ: Mutex<Option<Read>> = Mutex::new(None);

/// What the server serves: the source, and the delay of its public addresses. Every public
/// reader (the pages, the live feeds, the PDN, the JSON, the hall display) reads through
/// these methods, which show the files as they were the delay ago; the director's page and
/// the boards' pushes read the [`Source`] as it is.
#[derive(Debug)]
pub(crate) struct Served {
    pub source: Source,
    pub delay: Delay,
}

impl std::ops::Deref for Served {
    type Target = Source;

    fn deref(&self) -> &Source {
        &self.source
    }
}

impl Source {
    /// The event served as the database has it now (for the director and the watcher: not
    /// delayed).
    pub(crate) fn tournament_now(&self) -> Result<Tournament, ViewError> {
        self.tournament_at(None)
    }

    /// The event served as the database had it at `cut` (`None`: now): as read last while the
    /// database's files keep their length and modification time and no action recorded
    /// since came within the cut, else read again.
    fn tournament_at(&self, cut: Option<DateTime<Utc>>) -> Result<Tournament, ViewError> {
        let db = self
            .db
            .as_deref()
            .ok_or_else(|| ViewError::NotFound("no event database is served".into()))?;
        let now = stamps(&db_files(db));
        let key = (db.to_path_buf(), self.event.clone(), cut.is_some());
        let read = || READ.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, _, t)) = read()
            .as_ref()
            .and_then(|m| m.get(&key))
            .filter(|(was, due, _)| *was == now && still(*due, cut))
        {
            return Ok(t.clone());
        }
        let (t, due) = self.read_tournament(db, cut)?;
        read()
            .get_or_insert_with(HashMap::new)
            .insert(key, (now, due, t.clone()));
        Ok(t)
    }

    /// The event served, read from the database `db` now, as it was at `cut`.
    fn read_tournament(
        &self,
        db: &Path,
        cut: Option<DateTime<Utc>>,
    ) -> Result<(Tournament, Due), ViewError> {
        let desk = Desk::open(db)?;
        let open = open_served(&desk, self.event.as_deref())?;
        match cut {
            Some(cut) => Ok(super::delay::event_until(&desk, open.id, cut)?),
            None => Ok((open.event, None)),
        }
    }
}

/// Whether what was read with its first record after the cut at `due` is still what `cut`
/// shows.
fn still(due: Due, cut: Option<DateTime<Utc>>) -> bool {
    match (due, cut) {
        (Some(due), Some(cut)) => cut < due,
        _ => true,
    }
}

impl Served {
    /// The time the public addresses show (`None`: now, no delay).
    pub(crate) fn cut(&self) -> Option<DateTime<Utc>> {
        self.delay.cut()
    }

    /// The time the public pages' running clocks are shown at, ms since 1970.
    pub(crate) fn shown_ms(&self) -> i64 {
        self.delay.shown_ms()
    }

    /// The event as the public addresses show it.
    pub(crate) fn tournament(&self) -> Result<Tournament, ViewError> {
        self.tournament_at(self.cut())
    }

    /// The event page's data: each board's match as its card shows it (its last game, no
    /// log).
    pub(crate) fn event(&self) -> Result<EventView, ViewError> {
        let t = self.tournament()?;
        Ok(event_view(&t, false, self.cut()))
    }

    /// The event's data with every board's match whole, read now.
    pub(crate) fn event_whole(&self) -> Result<EventView, ViewError> {
        let t = self.tournament()?;
        Ok(event_view(&t, true, self.cut()))
    }

    /// Board `board` of round `round` of division `division` (1-based).
    pub(crate) fn board(
        &self,
        division: usize,
        round: u32,
        board: u32,
    ) -> Result<BoardView, ViewError> {
        let t = self.tournament()?;
        let (d, r, b) = find_board(&t, division, round, board)?;
        Ok(board_view(d, division, r, b, true, self.cut()))
    }

    /// The standalone match.
    pub(crate) fn standalone(&self) -> Result<Arc<MatchView>, ViewError> {
        Ok(whole_match(self.standalone_file()?, self.cut()))
    }

    /// The standalone match's games as PDN.
    pub(crate) fn standalone_pdn(&self) -> Result<String, ViewError> {
        let read = read_match(self.standalone_file()?, self.cut());
        match read.take_pdn() {
            Some(games) => Ok(crate::store::write_pdn(&games)),
            None => Err(ViewError::NotFound(
                read.view.error.clone().unwrap_or_default(),
            )),
        }
    }

    fn standalone_file(&self) -> Result<&Path, ViewError> {
        self.match_file
            .as_deref()
            .ok_or_else(|| ViewError::NotFound("no match file is served".into()))
    }
}

/// Division, round and board by their numbers, or what is missing.
pub(crate) fn find_board(
    t: &Tournament,
    division: usize,
    round: u32,
    board: u32,
) -> Result<(&Division, &Round, &Board), ViewError> {
    let d = division
        .checked_sub(1)
        .and_then(|k| t.divisions.get(k))
        .ok_or_else(|| ViewError::NotFound(format!("no division {division}")))?;
    let r = d
        .round(round)
        .ok_or_else(|| ViewError::NotFound(format!("no round {round} in {}", d.name)))?;
    let b = r
        .boards
        .iter()
        .find(|b| b.number == board)
        .ok_or_else(|| ViewError::NotFound(format!("no board {board} in round {round}")))?;
    Ok((d, r, b))
}

/// The event `t` as served, each board's match whole or as its card shows it.
fn event_view(t: &Tournament, whole: bool, cut: Option<DateTime<Utc>>) -> EventView {
    let info = &t.info;
    let dates = match (info.start_date.as_str(), info.end_date.as_str()) {
        (a, b) if b.is_empty() || a == b => a.to_string(),
        (a, b) => format!("{a} to {b}"),
    };
    EventView {
        name: info.name.clone(),
        site: info.site.clone(),
        dates,
        divisions: t
            .divisions
            .iter()
            .enumerate()
            .map(|(k, d)| division_view(t, d, k + 1, whole, cut))
            .collect(),
    }
}

fn division_view(
    t: &Tournament,
    d: &Division,
    number: usize,
    whole: bool,
    cut: Option<DateTime<Utc>>,
) -> DivisionView {
    let round = d.paired_rounds();
    let boards = d
        .round(round)
        .map(|r| {
            r.boards
                .iter()
                .map(|b| board_view(d, number, r, b, whole, cut))
                .collect()
        })
        .unwrap_or_default();
    let published = Published::new(t, d, u32::MAX);
    DivisionView {
        number,
        name: d.name.clone(),
        round,
        boards,
        standings: TableView {
            heading: published.heading(),
            after: published.after,
            header: published.header(),
            rows: published.rows(),
        },
    }
}

/// Board `b` of round `r` of division `d`, its match whole (read now) or as its card shows it
/// (as kept), as they were at `cut`.
fn board_view(
    d: &Division,
    division: usize,
    r: &Round,
    b: &Board,
    whole: bool,
    cut: Option<DateTime<Utc>>,
) -> BoardView {
    let per_board = d.settings.games_per_round.div_ceil(2);
    let ballots = (0..per_board)
        .filter_map(|k| crate::event::ballot_for(d, r.number, b.number, 2 * k))
        .map(|draw| ballot_text(&draw.opening))
        .collect();
    BoardView {
        division,
        round: r.number,
        board: b.number,
        players: [d.name(b.first).to_string(), d.name(b.second).to_string()],
        ballots,
        result: result_text(b.result.as_ref()),
        live: (b.match_file.as_deref()).map(|f| {
            if whole {
                whole_match(Path::new(f), cut)
            } else {
                Arc::clone(&read_match(Path::new(f), cut).view)
            }
        }),
    }
}

/// A match file as read and kept: what a board's card shows of it (its last game alone and
/// no log, so that what is kept of a long match is no more than of a short one), and its
/// games as PDN until they are taken to write the board's PDN text ([`ReadMatch::take_pdn`]),
/// so that a board's games are kept once, as that text; under a delay, as they were at its cut.
pub(crate) struct ReadMatch {
    pub view: Arc<MatchView>,
    /// `None` once taken, or when the file does not read.
    pdn: Mutex<Option<Vec<PdnGame>>>,
    /// The file and the cut it was read at, to read its games again when asked again.
    path: PathBuf,
    cut: Option<DateTime<Utc>>,
    /// The time of its first record after the cut (`None`: every record is shown).
    due: Due,
}

impl ReadMatch {
    /// Its games as PDN (`None`: the file does not read), handed over and kept no longer:
    /// asked for again, they are read again from the file (as it was at the cut).
    pub(crate) fn take_pdn(&self) -> Option<Vec<PdnGame>> {
        let taken = self
            .pdn
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match taken {
            Some(games) => Some(games),
            None if self.view.error.is_some() => None,
            None => load_cut(&self.path, self.cut)
                .ok()
                .map(|(m, _)| match_to_pdn(&m)),
        }
    }

    /// Whether it still holds its games as PDN (not taken yet).
    #[cfg(test)]
    pub(crate) fn holds_pdn(&self) -> bool {
        self.pdn
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }
}

/// The match files as last read, by path and whether cut by a delay, with their stamps
/// before they were read.
type Matches = HashMap<(PathBuf, bool), (Stamp, Arc<ReadMatch>)>;

static MATCHES: Mutex<Option<Matches>> = Mutex::new(None);

/// The most match files kept as read (more, and all are forgotten).
const MATCHES_KEPT: usize = 4096;

/// The match file `path` as it is now (as it was at `cut`): as read last while the file keeps
/// its length and modification time and no record after the cut came within it, else read
/// again (a live page's rendering reads only the files that changed).
pub(crate) fn read_match(path: &Path, cut: Option<DateTime<Utc>>) -> Arc<ReadMatch> {
    let now = stamp(path);
    let key = (path.to_path_buf(), cut.is_some());
    let kept = || MATCHES.lock().unwrap_or_else(PoisonError::into_inner);
    let known = kept()
        .as_ref()
        .and_then(|m| m.get(&key))
        .filter(|(was, read)| now.is_some() && *was == now && still(read.due, cut))
        .map(|(_, read)| Arc::clone(read));
    if let Some(read) = known {
        return read;
    }
    let (view, pdn, due) = match load_cut(path, cut) {
        Ok((m, due)) => (from_match(&m, false), Some(match_to_pdn(&m)), due),
        Err(e) => (unreadable(&e), None, None),
    };
    let read = Arc::new(ReadMatch {
        view: Arc::new(view),
        pdn: Mutex::new(pdn),
        path: path.to_path_buf(),
        cut,
        due,
    });
    let mut kept = kept();
    let map = kept.get_or_insert_with(HashMap::new);
    if map.len() >= MATCHES_KEPT {
        map.clear();
    }
    map.insert(key, (now, Arc::clone(&read)));
    read
}

/// The match file `path` whole, read now (as it was at `cut`): every game and the log.
pub(crate) fn whole_match(path: &Path, cut: Option<DateTime<Utc>>) -> Arc<MatchView> {
    Arc::new(match load_cut(path, cut) {
        Ok((m, _)) => from_match(&m, true),
        Err(e) => unreadable(&e),
    })
}

/// The match of the file `path` as it was at `cut`, and when that changes next.
fn load_cut(path: &Path, cut: Option<DateTime<Utc>>) -> Result<(Match, Due), String> {
    let f = load_match(path).map_err(|e| e.to_string())?;
    super::delay::cut_match(f.the_match, cut).map_err(|why| format!("{}: {why}", path.display()))
}

/// A match file that does not read, as served: it says why (the board keeps its place).
fn unreadable(e: &dyn std::fmt::Display) -> MatchView {
    MatchView {
        players: [String::new(), String::new()],
        heading: String::new(),
        score: [String::new(), String::new()],
        finished: false,
        records: 0,
        games: Vec::new(),
        log: Vec::new(),
        error: Some(e.to_string()),
    }
}

/// Match `m` as served: whole, or as a board's card shows it (its last game alone, no log).
fn from_match(m: &Match, whole: bool) -> MatchView {
    let s = m.settings();
    let score = m.score().total;
    let since = m.log().last().map_or(0, |e| e.at.timestamp_millis());
    let paused = clocks_paused(m);
    let before = if whole {
        0
    } else {
        m.games().count().saturating_sub(1)
    };
    let games: Vec<GameView> = m
        .games()
        .skip(before)
        .map(|g| game_view(g, since, paused))
        .collect();
    let log = if whole { log_lines(m) } else { Vec::new() };
    MatchView {
        players: s.players.clone(),
        heading: s.event.clone(),
        score: [score[0].to_string(), score[1].to_string()],
        finished: m.phase() == crate::director::Phase::Finished,
        records: m.log().len(),
        games,
        log,
        error: None,
    }
}

/// The director paused the clocks and has not resumed them.
fn clocks_paused(m: &Match) -> bool {
    m.log()
        .iter()
        .rev()
        .find_map(|e| match e.event {
            MatchEvent::ClocksPaused { .. } => Some(true),
            MatchEvent::ClocksResumed | MatchEvent::GameStarted { .. } => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

fn game_view(g: &crate::director::GameRecord, since_ms: i64, paused: bool) -> GameView {
    let start = g.game.start().turn();
    let moves = g
        .moves
        .iter()
        .enumerate()
        .map(|(k, mv)| MoveView {
            label: move_label(start, k),
            text: mv.mv.to_string(),
            squares: [mv.mv.from().number(), mv.mv.to().number()],
            left_ms: mv.remaining_ms,
            spent_ms: mv.spent_ms,
        })
        .collect();
    let reading = g.clock.reading(0);
    let has_clock = reading.red.remaining_ms.is_some() || reading.white.remaining_ms.is_some();
    let clock = has_clock.then(|| ClockView {
        red_ms: reading.red.remaining_ms,
        white_ms: reading.white.remaining_ms,
        to_move: colour_word(g.game.position().turn()).into(),
        running: g.result.is_none() && !paused,
        since_ms,
    });
    GameView {
        ballot: g.ballot,
        number: g.number,
        opening: ballot_text(&g.opening),
        red: g.red_name.clone(),
        white: g.white_name.clone(),
        moves,
        fens: g.game.positions().iter().map(|p| p.to_fen()).collect(),
        result: g.result.as_ref().map(ToString::to_string),
        clock,
    }
}

fn colour_word(c: crate::engine::Color) -> &'static str {
    match c {
        crate::engine::Color::Red => "red",
        crate::engine::Color::White => "white",
    }
}

/// The match's log, each record in words (a note as the director wrote it).
fn log_lines(m: &Match) -> Vec<LogLine> {
    m.log()
        .iter()
        .zip(crate::publish::match_log_words(m))
        .map(|(e, (words, _))| LogLine {
            at: e.at.format("%H:%M:%S").to_string(),
            kind: crate::director::event_name(&e.event).into(),
            detail: words,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::director::{Command, MatchSettings, Now, Player};
    use crate::engine::Color;
    use crate::store::MatchStore;
    use rand::SeedableRng;

    fn now() -> Now {
        Now {
            mono_ms: 0,
            wall: chrono::Utc::now(),
        }
    }

    /// A match whose first game was played (two moves, then resigned) and whose second has
    /// one move, written to `file`.
    fn second_game_begun(file: &Path) -> Match {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut m = Match::new(MatchSettings::default(), now()).unwrap();
        let mut store = MatchStore::create(file, &m).unwrap();
        let mut apply = |m: &mut Match, c: Command| m.apply(c, now(), &mut rng).unwrap();
        let assign = Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        };
        apply(&mut m, assign);
        apply(&mut m, Command::DrawBallot);
        apply(
            &mut m,
            Command::Accept {
                colour: Color::White,
            },
        );
        apply(&mut m, Command::StartGame);
        for moves in [2, 1] {
            for _ in 0..moves {
                let pos = *m.playing().unwrap().game.position();
                let mv = pos.legal_moves()[0];
                apply(
                    &mut m,
                    Command::PlayMove {
                        colour: pos.turn(),
                        mv,
                    },
                );
            }
            if moves == 2 {
                let colour = m.playing().unwrap().game.position().turn();
                apply(&mut m, Command::Resign { colour });
                apply(&mut m, Command::StartGame);
            }
        }
        store.save(&m).unwrap();
        m
    }

    #[test]
    fn what_is_kept_of_a_match_is_its_last_game_without_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("board.jsonl");
        let m = second_game_begun(&file);
        let kept = read_match(&file, None);
        let card = &kept.view;
        assert_eq!(card.games.len(), 1, "the last game alone");
        assert_eq!((card.games[0].number, card.games[0].moves.len()), (2, 1));
        assert_eq!(card.games[0].fens.len(), 2);
        assert!(card.log.is_empty(), "no log");
        assert_eq!(card.records, m.log().len());
        // Read whole, it has every game and the log; its last game is the card's.
        let whole = whole_match(&file, None);
        assert_eq!(whole.games.len(), 2);
        assert_eq!(
            (whole.log.len(), whole.records),
            (m.log().len(), m.log().len())
        );
        let json = |g: &GameView| serde_json::to_string(g).unwrap();
        assert_eq!(json(&whole.games[1]), json(&card.games[0]));
    }
}
