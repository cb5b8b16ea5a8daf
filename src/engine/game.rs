//! A game: a start position and the moves played from it, with take-back, the draw-claim
//! bookkeeping (threefold repetition, 40-move rule) and the result once the game is over.

use super::board::Color;
use super::moves::Move;
use super::notation::{MoveError, parse_move};
use super::position::Position;
use super::rules::Rules;
use serde::{Deserialize, Serialize};

/// Plies (single moves) without a man moving or a capture after which a draw may be claimed:
/// 40 moves by each player.
pub const FORTY_MOVE_PLIES: u32 = 80;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// One side won.
    Win(Color),
    /// Drawn.
    Draw,
}

/// A draw that the rules allow a player to claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawClaim {
    /// The same position, same side to move, for the third time.
    Repetition,
    /// Each player has made 40 moves with no man moved and no capture.
    FortyMoves,
}

/// A game in progress or finished, under a rule set.
///
/// Serialised as its rules, start position (FEN) and moves (notation); reading it back replays
/// the moves, so a stored game with an illegal move is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "GameRecord", try_from = "GameRecord")]
pub struct Game {
    rules: Rules,
    start: Position,
    moves: Vec<Move>,
    /// positions[i] is the position before moves[i]; the last entry is the current one.
    positions: Vec<Position>,
    /// quiet[i]: plies without a man move or capture, up to and including positions[i].
    quiet: Vec<u32>,
}

impl Game {
    /// A new game from `start` under `rules`.
    pub fn new(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            start,
            moves: Vec::new(),
            positions: vec![start],
            quiet: vec![0],
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

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before move `i` (and `positions()[moves.len()]` is the current one).
    pub fn positions(&self) -> &[Position] {
        &self.positions
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
        let mut next = *self.position();
        let moved_man = next.kings() & mv.from().bit() == 0;
        next.play(mv)?;
        let quiet = if moved_man || mv.is_capture() {
            0
        } else {
            self.quiet_plies() + 1
        };
        self.moves.push(*mv);
        self.positions.push(next);
        self.quiet.push(quiet);
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

    /// Take back the last move; returns it, or `None` at the start.
    pub fn take_back(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.quiet.pop();
        Some(mv)
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

    /// The draw the side to move may claim now, if any.
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        if self.result().is_some() {
            None
        } else if self.repetitions() >= 3 {
            Some(DrawClaim::Repetition)
        } else if self.quiet_plies() >= FORTY_MOVE_PLIES {
            Some(DrawClaim::FortyMoves)
        } else {
            None
        }
    }

    /// The result decided on the board: the side to move has no pieces or no legal move.
    pub fn result(&self) -> Option<Outcome> {
        let pos = self.position();
        pos.is_lost().then(|| Outcome::Win(pos.turn().opponent()))
    }
}

/// The stored form of a [`Game`].
#[derive(Clone, Serialize, Deserialize)]
struct GameRecord {
    rules: Rules,
    start: Position,
    moves: Vec<Move>,
}

impl From<Game> for GameRecord {
    fn from(g: Game) -> GameRecord {
        GameRecord {
            rules: g.rules,
            start: g.start,
            moves: g.moves,
        }
    }
}

impl TryFrom<GameRecord> for Game {
    type Error = String;
    fn try_from(r: GameRecord) -> Result<Game, String> {
        let mut g = Game::new(r.rules, r.start);
        for (i, mv) in r.moves.iter().enumerate() {
            g.play(mv)
                .map_err(|e| format!("move {} ({mv}) does not replay: {e}", i + 1))?;
        }
        Ok(g)
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
