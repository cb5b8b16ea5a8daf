//! A game: a start position and the moves played from it, with take-back, the draw-claim
//! bookkeeping (threefold repetition, the 40-move rule, the pool 13-count), the huffing
//! choices, and the result once the game is over, each under the game's rules.

use super::board::{Bitboard, Color, LONG_DIAGONAL, Square, squares};
use super::moves::{Move, MoveList, jumpers};
use super::notation::{MoveError, parse_move};
use super::position::Position;
use super::rules::Rules;
use serde::{Deserialize, Serialize};

/// Plies (single moves) without a man moving or a capture after which a draw may be claimed:
/// 40 moves by each player.
pub const FORTY_MOVE_PLIES: u32 = 80;

/// Moves of the lone king after which a pool 13-count ending is drawn (rule 24B / 28).
pub const THIRTEEN_COUNT: u32 = 13;

/// The shorter count when the lone king holds the long diagonal 4-29 (rule 24B).
pub(super) const LONG_LINE_COUNT: u32 = 6;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// One side won.
    Win(Color),
    /// Drawn.
    Draw,
}

/// A draw that the rules allow a player (or the director) to claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawClaim {
    /// The same position, same side to move, for the third time.
    Repetition,
    /// Each player has made 40 moves with no man moved and no capture (not in pool).
    FortyMoves,
    /// Pool: three kings have not caught the lone king within its 13 moves (6 on the long
    /// diagonal).
    ThirteenCount,
}

/// The pool 13-count while it runs: three kings against one, four kings on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoneKingCount {
    /// The side with the lone king.
    pub lone: Color,
    /// Moves the lone king has made since the ending arose (its first move counts 1).
    pub moves: u32,
    /// The count that draws: 13, or 6 while the lone king stands on the long diagonal 4-29.
    pub limit: u32,
}

impl LoneKingCount {
    /// True when the count has run out: the draw may be claimed.
    pub fn reached(&self) -> bool {
        self.moves >= self.limit
    }
}

/// What a player did before a move under huffing: huffed an opponent's piece, and/or had a
/// move of theirs taken back by the opponent, who compelled this capture instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prelude {
    /// The square of the opponent's piece this player huffed (removed) before moving.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub huffed: Option<Square>,
    /// This player's own move that the opponent had taken back, compelling a capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retracted: Option<Move>,
}

impl Prelude {
    fn is_empty(&self) -> bool {
        self.huffed.is_none() && self.retracted.is_none()
    }
}

/// Huffing: the last move ignored a capture or stopped one short, and the side to move may
/// let it stand (just move), huff one of the pieces that should have captured
/// ([`Game::huff`], then move), or have the move taken back and a capture played instead
/// ([`Game::compel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HuffChance {
    /// The player who neglected the capture (the opponent of the side to move).
    pub offender: Color,
    /// The neglectful move.
    pub offence: Move,
    /// True when the move was a capture stopped short, false when it captured nothing.
    pub stopped_short: bool,
    /// The offender's pieces that may be huffed, on the squares they stand on now.
    pub huffable: Bitboard,
    /// The complete captures the offender could have played (one is compelled on a take-back).
    pub captures: MoveList,
}

/// A game in progress or finished, under a rule set.
///
/// Serialised as its rules, start position (FEN), moves (notation) and huffing choices;
/// reading it back replays them, so a stored game with an illegal move is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "GameRecord", try_from = "GameRecord")]
pub struct Game {
    rules: Rules,
    start: Position,
    moves: Vec<Move>,
    /// `positions[i]` is the position `moves[i]` was played from; the last entry is the current
    /// one.
    positions: Vec<Position>,
    /// `quiet[i]`: plies without a man move or capture, up to and including `positions[i]`.
    quiet: Vec<u32>,
    /// `preludes[i]`: what the player of `moves[i]` did before it (huffing only).
    preludes: Vec<Prelude>,
    /// What the side to move has done so far this turn (huffing only).
    pending: Prelude,
}

impl Game {
    /// A new game from `start` under `rules` (the position takes on the rules).
    pub fn new(rules: Rules, start: Position) -> Game {
        let start = start.with_rules(rules);
        Game {
            rules,
            start,
            moves: Vec::new(),
            positions: vec![start],
            quiet: vec![0],
            preludes: Vec::new(),
            pending: Prelude::default(),
        }
    }

    /// A new English draughts game from the standard start.
    pub fn standard() -> Game {
        Game::new(Rules::English, Position::start())
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The moves played so far (a move taken back under huffing is not among them).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position each move was played from (`positions()[moves.len()]` is the current one).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// What the player of move `i` did before it under huffing (empty otherwise).
    pub fn prelude(&self, i: usize) -> Prelude {
        self.preludes.get(i).copied().unwrap_or_default()
    }

    /// What the side to move has done this turn before moving (huffed, or compelled to
    /// capture).
    pub fn pending(&self) -> Prelude {
        self.pending
    }

    /// Plies since the last man move or capture.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet.last().copied().unwrap_or(0)
    }

    /// Play a legal move. On error nothing changes.
    pub fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        if self.result().is_some() {
            return Err(MoveError::GameOver);
        }
        let from = *self.position();
        let mut next = from;
        let mv = next.play(mv)?;
        self.moves.push(mv);
        self.quiet.push(quiet_after(self.quiet_plies(), &from, &mv));
        self.positions.push(next.with_rules(self.rules));
        self.preludes.push(std::mem::take(&mut self.pending));
        Ok(())
    }

    /// Read a move typed in standard notation and play it. On error nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        if self.result().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = parse_move(self.position(), text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    /// Take back the last move standing on the board and returns it (`None` at the start).
    /// What its player did before it (a huff) stays done; a huff the side to move made this
    /// turn is undone first, and after a compelled take-back ([`Game::compel`]) it is the
    /// retracted move that is taken back for good.
    pub fn take_back(&mut self) -> Option<Move> {
        if let Some(r) = self.pending.retracted.take() {
            let k = self.positions.len() - 1;
            self.positions[k] = self.positions[k].with_rules(self.rules);
            return Some(r);
        }
        if self.pending.huffed.take().is_some() {
            self.restore_unhuffed();
        }
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.quiet.pop();
        self.pending = self.preludes.pop().unwrap_or_default();
        Some(mv)
    }

    /// Put back the piece huffed this turn: the current position becomes the one after the
    /// last move again.
    fn restore_unhuffed(&mut self) {
        let n = self.moves.len();
        let k = self.positions.len() - 1;
        if n == 0 {
            return;
        }
        let (before, mv) = (self.positions[n - 1], self.moves[n - 1]);
        self.positions[k] = before.after(&mv).with_rules(self.rules);
        self.quiet[k] = quiet_after(self.quiet[k - 1], &before, &mv);
    }

    /// How many times the current position (same side to move) has stood on the board.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        let quiet = self.quiet_plies() as usize;
        // Only positions since the last irreversible move can repeat.
        self.positions
            .iter()
            .rev()
            .take(quiet + 1)
            .step_by(2)
            .filter(|p| *p == now)
            .count()
    }

    /// The pool 13-count, while three kings face a lone king (four kings on the board).
    pub fn thirteen_count(&self) -> Option<LoneKingCount> {
        if self.rules != Rules::Pool {
            return None;
        }
        let lone = lone_king_side(self.position())?;
        let span = self
            .positions
            .iter()
            .rev()
            .take_while(|p| lone_king_side(p) == Some(lone))
            .count();
        let first = self.positions.len() - span;
        let moves = self.positions[first..self.positions.len() - 1]
            .iter()
            .filter(|p| p.turn() == lone)
            .count() as u32;
        let king = self.position().kings_of(lone);
        let limit = if king & LONG_DIAGONAL != 0 {
            LONG_LINE_COUNT
        } else {
            THIRTEEN_COUNT
        };
        Some(LoneKingCount { lone, moves, limit })
    }

    /// The draw that may be claimed now, if any, under the game's rules.
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        if self.result().is_some() {
            None
        } else if self.repetitions() >= 3 {
            Some(DrawClaim::Repetition)
        } else if self.rules.forty_move_rule() && self.quiet_plies() >= FORTY_MOVE_PLIES {
            Some(DrawClaim::FortyMoves)
        } else if self.thirteen_count().is_some_and(|c| c.reached()) {
            Some(DrawClaim::ThirteenCount)
        } else {
            None
        }
    }

    /// The result decided on the board: the side to move has no pieces or no legal move (it
    /// has lost; in the losing game it has won).
    pub fn result(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// Huffing: the neglected capture the side to move may punish now, if the last move
    /// ignored a capture or stopped one short and no choice has been made yet this turn.
    pub fn huff_chance(&self) -> Option<HuffChance> {
        self.huff_chance_or_why().ok()
    }

    /// [`Game::huff_chance`], or why there is none: nothing neglected, or this turn's choice
    /// already made (a piece huffed, the move taken back).
    pub fn huff_chance_or_why(&self) -> Result<HuffChance, HuffError> {
        if let Some(square) = self.pending.huffed {
            return Err(HuffError::Huffed { square });
        }
        if let Some(retracted) = self.pending.retracted {
            return Err(HuffError::Compelled { retracted });
        }
        if self.rules != Rules::Huffing || !self.pending.is_empty() {
            return Err(HuffError::NoChance);
        }
        let offence = *self.moves.last().ok_or(HuffError::NoChance)?;
        let from = self.positions[self.moves.len() - 1];
        if from.rules() != Rules::Huffing {
            return Err(HuffError::NoChance); // a compelled capture is always complete
        }
        let strict = from.with_rules(Rules::English);
        if !strict.must_capture() {
            return Err(HuffError::NoChance);
        }
        let captures = strict.legal_moves();
        if captures.contains(&offence) {
            return Err(HuffError::NoChance);
        }
        let stopped_short = offence.is_capture();
        let huffable = if stopped_short {
            offence.to().bit()
        } else {
            squares(jumpers(&strict)).fold(0, |acc, sq| {
                acc | if sq == offence.from() {
                    offence.to().bit()
                } else {
                    sq.bit()
                }
            })
        };
        Ok(HuffChance {
            offender: from.turn(),
            offence,
            stopped_short,
            huffable,
            captures,
        })
    }

    /// Huffing: remove the offender's piece on `square` (one that should have captured); the
    /// side to move then moves as usual. On error nothing changes.
    pub fn huff(&mut self, square: Square) -> Result<(), HuffError> {
        let chance = self.huff_chance_or_why()?;
        if chance.huffable & square.bit() == 0 {
            return Err(HuffError::NotHuffable {
                square,
                huffable: squares(chance.huffable).collect(),
            });
        }
        let k = self.positions.len() - 1;
        self.positions[k].set_piece(square, None);
        self.quiet[k] = 0;
        self.pending.huffed = Some(square);
        Ok(())
    }

    /// Huffing: take back the offender's move; the offender must now play one of the complete
    /// captures ([`HuffChance::captures`]). On error nothing changes.
    pub fn compel(&mut self) -> Result<(), HuffError> {
        self.huff_chance_or_why()?;
        let retracted = self.moves.pop().ok_or(HuffError::NoChance)?;
        self.positions.pop();
        self.quiet.pop();
        self.pending = self.preludes.pop().unwrap_or_default();
        self.pending.retracted = Some(retracted);
        let k = self.positions.len() - 1;
        self.positions[k] = self.positions[k].with_rules(Rules::English);
        Ok(())
    }
}

/// Why a huffing choice was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HuffError {
    /// The last move neglected no capture, or not huffing.
    #[error("no neglected capture to punish: the last move captured or had none to make")]
    NoChance,
    /// This turn's choice was made: a piece was huffed.
    #[error("already huffed the piece on {square} this turn: now move")]
    Huffed {
        /// The square huffed.
        square: Square,
    },
    /// This turn's choice was made: the neglecting move was taken back.
    #[error("{retracted} was already taken back this turn: the capture must be played")]
    Compelled {
        /// The move taken back.
        retracted: Move,
    },
    /// The square holds no piece that should have captured.
    #[error("the piece on {square} cannot be huffed; huffable: {}", list(huffable))]
    NotHuffable {
        /// The square asked for.
        square: Square,
        /// The squares that may be huffed.
        huffable: Vec<Square>,
    },
}

fn list(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The quiet-ply count after `mv` is played from `before` (with `quiet` plies before it).
fn quiet_after(quiet: u32, before: &Position, mv: &Move) -> u32 {
    let moved_man = before.kings() & mv.from().bit() == 0;
    if moved_man || mv.is_capture() {
        0
    } else {
        quiet + 1
    }
}

/// The side with a lone king against three kings (four kings and nothing else on the board).
fn lone_king_side(pos: &Position) -> Option<Color> {
    if pos.occupied() != pos.kings() || pos.kings().count_ones() != 4 {
        return None;
    }
    Color::ALL.into_iter().find(|&c| pos.count(c) == 1)
}

/// The stored form of a [`Game`].
#[derive(Clone, Serialize, Deserialize)]
struct GameRecord {
    rules: Rules,
    start: Position,
    moves: Vec<Move>,
    /// Huffing choices: before which move (its index; the number of moves for the turn in
    /// progress) and what was done.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    huffs: Vec<HuffRecord>,
}

#[derive(Clone, Serialize, Deserialize)]
struct HuffRecord {
    before: usize,
    #[serde(flatten)]
    prelude: Prelude,
}

impl From<Game> for GameRecord {
    fn from(g: Game) -> GameRecord {
        let mut huffs: Vec<HuffRecord> = g
            .preludes
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_empty())
            .map(|(before, &prelude)| HuffRecord { before, prelude })
            .collect();
        if !g.pending.is_empty() {
            huffs.push(HuffRecord {
                before: g.moves.len(),
                prelude: g.pending,
            });
        }
        GameRecord {
            rules: g.rules,
            start: g.start,
            moves: g.moves,
            huffs,
        }
    }
}

impl TryFrom<GameRecord> for Game {
    type Error = String;
    fn try_from(r: GameRecord) -> Result<Game, String> {
        let mut g = Game::new(r.rules, r.start);
        let mut huffs = r.huffs.iter().peekable();
        for i in 0..=r.moves.len() {
            while let Some(h) = huffs.next_if(|h| h.before == i) {
                g.replay_prelude(&h.prelude)
                    .map_err(|e| format!("before move {}: {e}", i + 1))?;
            }
            if let Some(mv) = r.moves.get(i) {
                g.play(mv)
                    .map_err(|e| format!("move {} ({mv}) does not replay: {e}", i + 1))?;
            }
        }
        if let Some(h) = huffs.next() {
            return Err(format!(
                "a huffing choice before move {} is out of order",
                h.before + 1
            ));
        }
        Ok(g)
    }
}

impl Game {
    /// Replay a recorded prelude (what the side to move did before its move, as
    /// [`Game::prelude`] gives it): the huff first, then the retracted move and its take-back.
    /// The one replay of huffing choices, for the match file and PDN.
    pub fn replay_prelude(&mut self, p: &Prelude) -> Result<(), String> {
        if let Some(sq) = p.huffed {
            self.huff(sq).map_err(|e| e.to_string())?;
        }
        if let Some(r) = p.retracted {
            self.play(&r)
                .map_err(|e| format!("the retracted move {r} does not replay: {e}"))?;
            self.compel().map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_and_take_back() {
        let mut g = Game::standard();
        g.play_text("11-15").unwrap();
        g.play_text("23-19").unwrap();
        assert_eq!(g.moves().len(), 2);
        assert!(g.play_text("9-13x").is_err() || g.moves().len() == 3);
        while g.take_back().is_some() {}
        assert_eq!(g.position(), &Position::start());
        assert_eq!(g.moves().len(), 0);
    }

    #[test]
    fn repetition_with_kings() {
        let pos = Position::from_fen("B:WK32:BK1").unwrap();
        let mut g = Game::new(Rules::English, pos);
        for m in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"] {
            assert_eq!(g.claimable_draw(), None, "before {m}");
            g.play_text(m).unwrap();
        }
        g.play_text("28-32").unwrap();
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.claimable_draw(), Some(DrawClaim::Repetition));
    }

    #[test]
    fn forty_move_rule() {
        let pos = Position::from_fen("B:WK32,K31:BK1,K2").unwrap();
        let mut g = Game::new(Rules::English, pos);
        // Shuffle kings without repeating too often: move along a cycle of four positions.
        let cycle = [
            "1-5", "32-28", "2-6", "31-27", "5-1", "28-32", "6-2", "27-31",
        ];
        let mut i = 0;
        while g.quiet_plies() < FORTY_MOVE_PLIES {
            g.play_text(cycle[i % cycle.len()]).unwrap();
            i += 1;
        }
        assert_eq!(g.quiet_plies(), 80);
        assert!(g.claimable_draw().is_some());
    }

    #[test]
    fn blocked_side_loses() {
        let g = Game::new(Rules::English, Position::from_fen("B:W9,10:B5").unwrap());
        assert_eq!(g.result(), None);
        let g = Game::new(
            Rules::English,
            Position::from_fen("B:W13,14,17,18:B9").unwrap(),
        );
        assert_eq!(g.result(), Some(Outcome::Win(Color::White)));
        let g = Game::new(Rules::English, Position::from_fen("W:W:B9").unwrap());
        assert_eq!(g.result(), Some(Outcome::Win(Color::Red)));
    }

    #[test]
    fn serde_replays_moves() {
        #[derive(Serialize, Deserialize)]
        struct Wrap {
            game: Game,
        }
        let mut g = Game::standard();
        for m in ["11-15", "24-20", "15-19", "23x16", "12x19"] {
            g.play_text(m).unwrap();
        }
        let text = toml::to_string(&Wrap { game: g.clone() }).unwrap();
        assert!(text.contains("12x19"), "{text}");
        let back: Wrap = toml::from_str(&text).unwrap();
        assert_eq!(back.game, g);
        let bad = text.replace("12x19", "12-16");
        assert!(toml::from_str::<Wrap>(&bad).is_err());
    }
}
