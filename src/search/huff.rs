//! Huffing: the engine's answer to a neglected capture. Each choice the rules give the side to
//! move (let the move stand, huff one of the pieces that should have captured, or have the
//! move taken back and a capture played, the offender choosing which) is searched to the same
//! depth, and the best for the side to move is kept.

use super::alphabeta::{Engine, Limits};
use super::score::Score;
use crate::engine::{Game, Square, squares};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What the side to move does about a neglected capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HuffChoice {
    /// Remove the offender's piece on this square, then move ([`Game::huff`]).
    Huff(Square),
    /// Have the move taken back and a capture played ([`Game::compel`]).
    Compel,
    /// Let the move stand and move as usual.
    LetStand,
}

impl HuffChoice {
    /// Apply the choice to `game` (the game then awaits the side to move's move, or after
    /// [`HuffChoice::Compel`] the offender's capture).
    pub fn apply(self, game: &mut Game) -> Result<(), crate::engine::HuffError> {
        match self {
            HuffChoice::Huff(square) => game.huff(square),
            HuffChoice::Compel => game.compel(),
            HuffChoice::LetStand => Ok(()),
        }
    }
}

/// The engine's choice about the huff chance of `game` ([`Game::huff_chance`]), with its score
/// for the side to move; `None` when there is no chance to take. Every choice is searched to
/// `depth` plies (so the time is about the number of choices times one search); raising `stop`
/// ends the searches, the best found so far being kept.
pub fn choose_huff(
    engine: &mut Engine,
    game: &Game,
    depth: u32,
    stop: Arc<AtomicBool>,
) -> Option<(HuffChoice, Score)> {
    let chance = game.huff_chance()?;
    let choices = squares(chance.huffable)
        .map(HuffChoice::Huff)
        .chain([HuffChoice::Compel, HuffChoice::LetStand]);
    let mut best: Option<(HuffChoice, Score)> = None;
    for choice in choices {
        let mut after = game.clone();
        if choice.apply(&mut after).is_err() {
            continue;
        }
        let pos = *after.position();
        let history = &after.positions()[..after.positions().len() - 1];
        let found = engine.search(&pos, history, Limits::depth(depth), stop.clone(), |_| {});
        // After a take-back the offender is to move: its score is the opposite of ours.
        let score = if pos.turn() == chance.offender {
            Score(-found.score.0)
        } else {
            found.score
        };
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((choice, score));
        }
    }
    best
}
