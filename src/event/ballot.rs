//! Ballots per round, drawn with the openings module: one for every board of the round (the
//! usual practice) or one per board; a round of four games has two ballots per board. The
//! division's [`DrawSettings`](crate::openings::DrawSettings) say the system, deck and
//! exclusions (man-down, KingsRow-lost); with no-repeat, openings drawn in earlier rounds of the
//! division are not drawn again. Every card is kept in the [`Draw`].

use super::settings::BallotMode;
use super::state::{Action, Division, DivisionId, EventError};
use crate::openings::{Draw, Opening, draw};

/// One ballot as drawn (the opening and every card).
pub(super) type BallotDraw = Draw;

/// Which ballot a board plays in its `game` (0-based), from the round's draws.
pub fn ballot_for(division: &Division, round: u32, board: u32, game: u32) -> Option<&BallotDraw> {
    let r = division.round(round)?;
    let per_board = division.settings.games_per_round.div_ceil(2) as usize;
    let base = match division.settings.ballots {
        BallotMode::OnePerRound => 0,
        BallotMode::OnePerBoard => (board as usize).checked_sub(1)? * per_board,
    };
    r.ballots.get(base + (game / 2) as usize)
}

/// Openings drawn in the division's rounds before `round`.
fn drawn_before(division: &Division, round: u32) -> Vec<Opening> {
    division
        .rounds
        .iter()
        .filter(|r| r.number < round)
        .flat_map(|r| r.ballots.iter().map(|d| d.opening.clone()))
        .collect()
}

/// Draw the ballots of a paired round: the action to log.
pub fn draw_ballots<R: rand::Rng + ?Sized>(
    division_id: DivisionId,
    division: &Division,
    round: u32,
    rng: &mut R,
) -> Result<Action, EventError> {
    let r = division.round(round).ok_or(EventError::NoRound(round))?;
    let sets = match division.settings.ballots {
        BallotMode::OnePerRound => 1,
        BallotMode::OnePerBoard => r.boards.len(),
    };
    let per_board = division.settings.games_per_round.div_ceil(2) as usize;
    let mut already = drawn_before(division, round);
    let mut draws = Vec::with_capacity(sets * per_board);
    let mut settings = division.settings.openings.clone();
    settings.rules = division.settings.game;
    for _ in 0..sets * per_board {
        let d = draw(&settings, &already, rng)
            .map_err(|e| EventError::Pairing(format!("ballot draw: {e}")))?;
        already.push(d.opening.clone());
        draws.push(d);
    }
    Ok(Action::Ballots {
        division: division_id,
        round,
        draws,
    })
}
