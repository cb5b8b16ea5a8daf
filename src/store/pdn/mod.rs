//! PDN 3.0 (Portable Draughts Notation) for the games crossboard plays: writing games, and
//! reading the files other programs write.
//!
//! Writing follows the PDN 3.0 recommendations: the seven-tag roster first (`Event`, `Site`,
//! `Date`, `Round`, `Black`, `White`, `Result`), then `GameType` (21 English draughts, 23
//! American pool checkers), the `Variant` tag for the two English games PDN has no number for
//! (`[Variant "huffing"]`, `[Variant "losing"]`, with `GameType "21"`), `SetUp "1"` and `FEN`
//! when the game does not start from the standard position, then any other tags in the order
//! they were given. Moves carry their full capture path and an annotator's mark (`10-14??`,
//! its note in a comment after it: [`PdnGame::annotate`]); clock readings follow a move as a
//! `{[%clock h:mm:ss]}` comment (the remaining time of the player who made it); a huffing
//! choice comes before the move of the player who made it, as `{[%huff 22]}` (the piece on 22
//! was huffed) and `{[%retracted 9-13]}` (the player's move 9-13 was taken back by the
//! opponent, who compelled the capture that follows); lines stay under 80 columns.
//!
//! Reading is lenient, as other programs write PDN in many dialects: tags in any order, `*` or a
//! result as the terminator, move numbers as `1.`, `1...` or `1. ...`, moves as `11-15`,
//! `15x24x31`, short captures `15x31`, captures written with `-`, `1115`; comments `{}` are
//! kept ([`PdnGame::comments`]), an annotator's marks `?`, `??`, `?!` (and the NAGs `$2`, `$4`,
//! `$6`) too ([`PdnGame::marks`]); `;` line comments, `%` escape lines, variations `()`, other
//! NAGs and move strengths (`!`, `!?`) are skipped; FEN with or without a trailing dot; `[Red]` for `[Black]`; tag names in any case
//! (`[fen ...]`); a value in curly quotes. Bytes that are not UTF-8 are read as Windows-1252
//! ([`decode`]). Comment text that lost its braces (a move glued to it,
//! `8-11Redoversteppedthetimecontrol`, or words that are no moves) is skipped with a warning
//! ([`PdnGame::warnings`]); so is a comment left open, read as closed before the next tag line
//! (or at the end of the file) so that it cannot swallow the games after it. A game that does not replay, or of a `GameType` crossboard
//! does not play, is reported with its number, line and move, and reading goes on with the next
//! game.

mod lexer;
mod read;
mod spent;
mod tags;
#[cfg(test)]
mod tests;
mod write;

pub use read::{decode, read_pdn};
pub use write::write_pdn;

use crate::engine::{Color, FenError, Game, Move, MoveError, Outcome, Position, Prelude, Rules};
use crate::search::{Mark, MoveReview};
use std::fmt;
use thiserror::Error;

/// Longest line written in the move text.
const LINE_WIDTH: usize = 79;

/// Tags that [`PdnGame`] represents by its own fields; a reader drops them from `tags` and a
/// writer derives them.
const DERIVED_TAGS: [&str; 5] = ["Result", "GameType", "Variant", "SetUp", "FEN"];

/// The tag that tells the English games apart under `GameType "21"`: `huffing` or `losing`
/// (absent, or `english`: English draughts). Written by crossboard, read back exactly.
pub(super) const VARIANT_TAG: &str = "Variant";

/// The seven-tag roster (without Result, which is derived), written first, in this order.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "Black", "White"];

/// The result of a game as PDN writes it. `1-0` means Red (PDN's "Black", who moves first) won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PdnResult {
    /// `1-0`: Red ("Black") won.
    RedWins,
    /// `0-1`: White won.
    WhiteWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    #[default]
    Unfinished,
}

impl PdnResult {
    /// The PDN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            PdnResult::RedWins => "1-0",
            PdnResult::WhiteWins => "0-1",
            PdnResult::Draw => "1/2-1/2",
            PdnResult::Unfinished => "*",
        }
    }

    /// Read a result as programs write it (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`, and the
    /// international `2-0`, `0-2`, `1-1`). `None` for anything else.
    pub fn parse(text: &str) -> Option<PdnResult> {
        match text.trim() {
            "1-0" | "2-0" => Some(PdnResult::RedWins),
            "0-1" | "0-2" => Some(PdnResult::WhiteWins),
            "1/2-1/2" | "½-½" | "1-1" => Some(PdnResult::Draw),
            "*" => Some(PdnResult::Unfinished),
            _ => None,
        }
    }

    /// The outcome, if the game is finished.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            PdnResult::RedWins => Some(Outcome::Win(Color::Red)),
            PdnResult::WhiteWins => Some(Outcome::Win(Color::White)),
            PdnResult::Draw => Some(Outcome::Draw),
            PdnResult::Unfinished => None,
        }
    }
}

impl From<Option<Outcome>> for PdnResult {
    fn from(o: Option<Outcome>) -> PdnResult {
        match o {
            Some(Outcome::Win(Color::Red)) => PdnResult::RedWins,
            Some(Outcome::Win(Color::White)) => PdnResult::WhiteWins,
            Some(Outcome::Draw) => PdnResult::Draw,
            None => PdnResult::Unfinished,
        }
    }
}

impl fmt::Display for PdnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game as PDN holds it.
///
/// `tags` keeps every tag except the five this struct represents itself (`Result`, `GameType`,
/// `Variant`, `SetUp`, `FEN`), in file order. The rules are the start position's
/// ([`PdnGame::rules`]). `clocks[i]` is the time left, in milliseconds, on the clock of the
/// player who made `moves[i]`, just after making it, and `preludes[i]` what that player did
/// before it (huffing); both have as many entries as `moves`, and `preludes` one more when
/// the side to move has made a huffing choice after the last move. Games read by
/// [`read_pdn`] have been replayed, so their moves are legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in order, as (name, value).
    pub tags: Vec<(String, String)>,
    /// The position the moves start from (the ballot position, or the standard start), under
    /// the game's rules.
    pub start: Position,
    /// The moves, each with its full path.
    pub moves: Vec<Move>,
    /// Remaining milliseconds of the mover after each move, where known.
    pub clocks: Vec<Option<u64>>,
    /// Comments in the move text, each after that many plies (0: before the first move), in
    /// order: the director's notes at the move they were made, an annotator's notes. Read back
    /// without the clock and huffing commands, which have fields of their own.
    pub comments: Vec<(usize, String)>,
    /// The annotator's mark of each move, written after it (`11-15?`, `11-15??`, `11-15?!`);
    /// empty, or as many as `moves`. Read back from those suffixes and from the NAGs `$2`,
    /// `$4` and `$6` (other move strengths, `!`, `!!`, `!?`, are skipped).
    pub marks: Vec<Option<Mark>>,
    /// Huffing: what the mover did before each move (huffed a piece, had a move taken back),
    /// and after the last move what the side to move has done so far.
    pub preludes: Vec<Prelude>,
    /// What the reader skipped to read the game (comment text without braces), with its line;
    /// never written.
    pub warnings: Vec<String>,
    /// The result.
    pub result: PdnResult,
}

impl Default for PdnGame {
    fn default() -> Self {
        PdnGame::new(Position::start())
    }
}

impl PdnGame {
    /// A game with no tags and no moves from `start`, under the start's rules.
    pub fn new(start: Position) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            clocks: Vec::new(),
            comments: Vec::new(),
            marks: Vec::new(),
            preludes: Vec::new(),
            warnings: Vec::new(),
            result: PdnResult::Unfinished,
        }
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> Rules {
        self.start.rules()
    }

    /// The moves of an engine game, its result as the board decides it (or unfinished), no tags
    /// and no clock readings.
    pub fn from_game(game: &Game) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start: *game.start(),
            moves: game.moves().to_vec(),
            clocks: vec![None; game.moves().len()],
            comments: Vec::new(),
            marks: Vec::new(),
            preludes: preludes_of(game),
            warnings: Vec::new(),
            result: game.result().into(),
        }
    }

    /// The value of a tag, if present (first occurrence).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Set a tag, replacing its value in place or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Builder form of [`PdnGame::set_tag`].
    pub fn with_tag(mut self, name: &str, value: impl Into<String>) -> PdnGame {
        self.set_tag(name, value);
        self
    }

    /// The annotator's mark of move `ply`, if any.
    pub fn mark(&self, ply: usize) -> Option<Mark> {
        self.marks.get(ply).copied().flatten()
    }

    /// Annotate the game with the engine's review of its moves (`reviewed[i]` of `moves[i]`):
    /// each marked move gets its mark and, as a comment after it, the better move and its
    /// line ([`MoveReview::note`]), after the comments already there. The marks are replaced;
    /// a note already there (the same game annotated again) is not doubled.
    pub fn annotate(&mut self, reviewed: &[MoveReview]) {
        let notes: Vec<String> = reviewed.iter().filter_map(MoveReview::note).collect();
        self.comments
            .retain(|(_, text)| !notes.iter().any(|n| n == text));
        self.marks = vec![None; self.moves.len()];
        for (r, slot) in reviewed.iter().zip(&mut self.marks) {
            *slot = r.mark;
            if let Some(note) = r.note() {
                self.comments.push((r.ply + 1, note));
            }
        }
        self.comments.sort_by_key(|(at, _)| *at);
        if self.marks.iter().all(Option::is_none) {
            self.marks.clear();
        }
    }

    /// Append a move with what its player did before it (huffing) and its clock reading.
    pub fn push_move_after(&mut self, prelude: Prelude, mv: Move, clock_ms: Option<u64>) {
        self.moves.push(mv);
        self.clocks.push(clock_ms);
        self.preludes.push(prelude);
    }

    /// Replay the moves (and huffing choices) from the start position under the game's rules.
    /// The error names the move that failed.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut game = Game::new(self.rules(), self.start);
        for (ply, mv) in self.moves.iter().enumerate() {
            let fail = |error| ReplayError {
                label: move_label(self.start.turn(), ply),
                text: mv.to_string(),
                error,
            };
            if let Some(p) = self.preludes.get(ply) {
                game.replay_prelude(p).map_err(|why| {
                    fail(MoveError::Illegal {
                        text: mv.to_string(),
                        reason: why,
                    })
                })?;
            }
            game.play(mv).map_err(fail)?;
        }
        if let Some(p) = self.preludes.get(self.moves.len()) {
            game.replay_prelude(p).map_err(|reason| ReplayError {
                label: move_label(self.start.turn(), self.moves.len()),
                text: String::new(),
                error: MoveError::Illegal {
                    text: String::new(),
                    reason,
                },
            })?;
        }
        Ok(game)
    }
}

/// What each player did before each move of `game` (huffing), and the choice made after the
/// last move if any.
fn preludes_of(game: &Game) -> Vec<Prelude> {
    let mut out: Vec<Prelude> = (0..game.moves().len()).map(|i| game.prelude(i)).collect();
    if game.pending() != Prelude::default() {
        out.push(game.pending());
    }
    out
}

/// The label of a move for messages and move text: `12.` for Red's move, `12...` for White's.
pub fn move_label(start_turn: Color, ply: usize) -> String {
    // Count full moves: Red's move opens a number, White's closes it.
    let offset = usize::from(start_turn == Color::White);
    let n = (ply + offset) / 2 + 1;
    if (ply + offset).is_multiple_of(2) {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

/// Clock reading as `h:mm:ss`, whole seconds (rounded down, as a clock shows it).
pub(super) fn format_clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Read a clock time: `h:mm:ss`, `m:ss` or `ss`, each with optional decimals; milliseconds.
fn parse_clock(text: &str) -> Option<u64> {
    let mut ms: u64 = 0;
    let parts: Vec<&str> = text.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let (whole, frac) = match part.split_once('.') {
            Some((w, f)) if last => (w, f),
            Some(_) => return None,
            None => (*part, ""),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: u64 = whole.parse().ok()?;
        ms = ms.checked_mul(60)?.checked_add(v.checked_mul(1000)?)?;
        if last && !frac.is_empty() {
            let digits = &frac[..frac.len().min(3)];
            let scale = 10u64.pow(3 - digits.len() as u32);
            ms += digits.parse::<u64>().ok()? * scale;
        }
    }
    Some(ms)
}

// ---------------------------------------------------------------------------------------------
// Errors

/// A move of a game that does not replay.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("move {label} {text}: {error}")]
pub struct ReplayError {
    /// `12.` or `12...`.
    pub label: String,
    /// The move as written.
    pub text: String,
    /// Why it was refused.
    pub error: MoveError,
}

/// Why one game of a PDN file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PdnErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    #[error("bad tag {0}")]
    Tag(String),
    /// The FEN tag does not describe a position.
    #[error("bad FEN {fen:?}: {error}")]
    Fen {
        /// The tag value.
        fen: String,
        /// What is wrong.
        error: FenError,
    },
    /// The game is of a draughts game crossboard does not play.
    #[error(
        "GameType {0:?} is not a game crossboard plays: it reads 21 (English draughts, with \
         [Variant \"huffing\"] or [Variant \"losing\"] for those games) and 23 (American pool \
         checkers)"
    )]
    GameType(String),
    /// A `Variant` tag crossboard does not know, or one that does not fit the `GameType`.
    #[error(
        "[Variant {value:?}] with GameType {game_type}: crossboard knows english, huffing and \
         losing under GameType 21, and none under 23"
    )]
    Variant {
        /// The tag's value.
        value: String,
        /// The game type it came with.
        game_type: u32,
    },
    /// A huffing choice (`{[%huff 22]}`, `{[%retracted 9-13]}`) that does not replay.
    #[error("{0}")]
    Huff(String),
    /// A move that does not replay.
    #[error("{0}")]
    Move(ReplayError),
    /// Something else in the move text.
    #[error("{0}")]
    Syntax(String),
}

/// One game of a PDN file that could not be read, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct PdnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line (from 1) where the problem is.
    pub line: usize,
    /// "Black vs White" from the tags, when known.
    pub players: Option<String>,
    /// What is wrong.
    pub kind: Box<PdnErrorKind>,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(p) = &self.players {
            write!(f, " ({p})")?;
        }
        write!(f, ", line {}: {}", self.line, self.kind)
    }
}
