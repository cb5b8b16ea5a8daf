//! Whether a match's set-up is the one the event gives a board: the players in the board's
//! order, the first player Red in game 1 (the director assigns colours), the division's rules
//! and openings, the round's games per board and its ballots for the board. The set-up is on
//! a match file's first line, so a desk that keeps a board's match only when this holds stops
//! a wrong board before its first move, not in the middle of a game.

use super::BoardMatchError;
use super::board_match::match_settings;
use super::state::{Board, Division};
use crate::director::{ColourMethod, Match, MatchSettings, Player};

/// How a match's set-up differs from its board's pairing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupMismatch {
    /// The board cannot be played on crossboard, or the players differ.
    #[error(transparent)]
    Board(#[from] BoardMatchError),
    /// Another game's rules.
    #[error("the match is played under {played} rules, the division under {division}")]
    Rules {
        /// The match's.
        played: String,
        /// The division's.
        division: String,
    },
    /// Another opening system.
    #[error("the match draws its openings from {played}, the division from {division}")]
    Openings {
        /// The match's.
        played: String,
        /// The division's.
        division: String,
    },
    /// Another number of games.
    #[error("the match has {played} games, the round {round} per board")]
    Games {
        /// The match's (two per ballot).
        played: u64,
        /// The round's.
        round: u64,
    },
    /// Other ballots than the round's for the board.
    #[error("the match plays ballots {played}, the round gives this board {round}")]
    Ballots {
        /// The match's given ballots, by number ("none" when drawn at the board).
        played: String,
        /// The round's, by number and name.
        round: String,
    },
    /// Colours not assigned as at a board of the event.
    #[error(
        "the match's colours are not the director's: the board's first player, {first}, has Red in game 1"
    )]
    Colours {
        /// The board's first player.
        first: String,
    },
}

/// Check that match `m`'s set-up is the one `board` of `round` of `division` plays (the
/// settings the desk's own match for the board has, [`match_settings`]).
pub fn check_board_setup(
    m: &Match,
    division: &Division,
    round: u32,
    board: &Board,
) -> Result<(), SetupMismatch> {
    let played = m.settings();
    let wanted = match_settings(played, "", division, round, board)?;
    if played.players != wanted.players {
        return Err(BoardMatchError::OtherPlayers {
            match_first: played.players[0].clone(),
            match_second: played.players[1].clone(),
            first: wanted.players[0].clone(),
            second: wanted.players[1].clone(),
        }
        .into());
    }
    if played.game != wanted.game {
        return Err(SetupMismatch::Rules {
            played: played.game.to_string(),
            division: wanted.game.to_string(),
        });
    }
    if played.openings.system != wanted.openings.system {
        return Err(SetupMismatch::Openings {
            played: played.openings.system.to_string(),
            division: wanted.openings.system.to_string(),
        });
    }
    if played.ballots != wanted.ballots {
        return Err(SetupMismatch::Games {
            played: 2 * u64::from(played.ballots),
            round: u64::from(division.settings.games_per_round),
        });
    }
    if played.given_ballots != wanted.given_ballots {
        return Err(SetupMismatch::Ballots {
            played: numbers(&played.given_ballots),
            round: round_ballots(division, round, board, &wanted),
        });
    }
    let first_red = m.games().next().is_none_or(|g| g.red == Player::First);
    if played.colour_method != ColourMethod::DirectorAssigns || !first_red {
        return Err(SetupMismatch::Colours {
            first: wanted.players[0].clone(),
        });
    }
    Ok(())
}

/// Ballot numbers in words: "3, 17", or "none" (drawn at the board).
fn numbers(given: &[u32]) -> String {
    if given.is_empty() {
        return "none (drawn at the board)".into();
    }
    let list: Vec<String> = given.iter().map(u32::to_string).collect();
    list.join(", ")
}

/// The round's ballots for the board, by number and name.
fn round_ballots(division: &Division, round: u32, board: &Board, wanted: &MatchSettings) -> String {
    if wanted.given_ballots.is_empty() {
        return "none (drawn at the board)".into();
    }
    let named: Vec<String> = (0..wanted.ballots)
        .filter_map(|b| super::ballot_for(division, round, board.number, 2 * b))
        .map(|d| format!("{} ({})", d.opening.number, d.opening.name))
        .collect();
    named.join(", ")
}
