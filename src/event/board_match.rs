//! A board played on crossboard: the match settings the division gives it, and the board's
//! game results read back from the match (its event log is the one source of truth; the
//! event only keeps the match file's path).

use super::ballot::ballot_for;
use super::settings::ScoreUnit;
use super::state::{Board, BoardGameResult, Division};
use crate::director::limits::{EVENT_MAX_CHARS, chars};
use crate::director::{ColourMethod, EndReason, Match, MatchSettings, Scoring, TieRule};
use crate::engine::{self, Color};

/// Why a board cannot be played on crossboard.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardMatchError {
    /// A match is ballots of two games; a round of an odd number of games is entered by key.
    #[error(
        "a match on crossboard plays ballots of two games: enter this division's {0}-game rounds by key"
    )]
    OddGames(u32),
    /// The match was not played by the board's players (in the board's order).
    #[error("the match is {match_first} v {match_second}, the board is {first} v {second}")]
    OtherPlayers {
        /// The match's first player.
        match_first: String,
        /// The match's second player.
        match_second: String,
        /// The board's first player.
        first: String,
        /// The board's second player.
        second: String,
    },
    /// The match played another opening than the round's ballot for the board.
    #[error("ballot {ballot} of the match is {played}, the round's ballot is {drawn}")]
    OtherOpening {
        /// The match's ballot (1-based).
        ballot: usize,
        /// The opening it played.
        played: String,
        /// The round's ballot for this board.
        drawn: String,
    },
    /// More games finished in the match than the round has.
    #[error("the match has {games} games finished, a round has {max}")]
    TooManyGames {
        /// Finished in the match.
        games: usize,
        /// Games per round.
        max: u32,
    },
}

/// The settings of the match that plays `board` of `division`: the division's game, the
/// players' names (the board's first player Red in game 1, assigned by the director), the
/// event, division, round and board in the heading ([`heading`]), the division's openings,
/// time control and game points, one ballot per two games of the round, each given as the
/// round drew it for the board (no draw, no rejection), and no play-off of a tied score (the
/// round has its games). Everything else as in `defaults`.
pub fn match_settings(
    defaults: &MatchSettings,
    event: &str,
    division: &Division,
    round: u32,
    board: &Board,
) -> Result<MatchSettings, BoardMatchError> {
    let s = &division.settings;
    if s.games_per_round % 2 == 1 {
        return Err(BoardMatchError::OddGames(s.games_per_round));
    }
    Ok(MatchSettings {
        game: s.game,
        players: [
            division.name(board.first).to_string(),
            division.name(board.second).to_string(),
        ],
        event: heading(event, &division.name, round, board.number),
        openings: s.openings.clone(),
        ballots: s.games_per_round / 2,
        given_ballots: (0..s.games_per_round / 2)
            .map_while(|b| ballot_for(division, round, board.number, 2 * b))
            .map(|d| d.opening.number)
            .collect(),
        tie: TieRule::StaysTied,
        time_control: s.time_control.clone(),
        scoring: Scoring {
            game: s.scoring.game,
            per_ballot: s.scoring.unit == ScoreUnit::Round,
        },
        colour_method: ColourMethod::DirectorAssigns,
        ..defaults.clone()
    })
}

/// The match's event heading, "EVENT, DIVISION, round R board B", within the match's limit
/// ([`EVENT_MAX_CHARS`]): the round and board always whole, the event's name then the
/// division's shortened with the marker `…` when the whole would be longer (the event's
/// own record keeps them whole).
fn heading(event: &str, division: &str, round: u32, board: u32) -> String {
    let place = format!(", round {round} board {board}");
    let room = EVENT_MAX_CHARS.saturating_sub(chars(&place));
    let division = shorten(
        division,
        (room / 2).max(room.saturating_sub(chars(event) + 2)),
    );
    let event = shorten(event, room.saturating_sub(chars(&division) + 2));
    format!("{event}, {division}{place}")
}

/// `text` whole when it has at most `max` characters, else its first `max - 1` and `…`.
fn shorten(text: &str, max: usize) -> String {
    if chars(text) <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// The results of the match's finished games in order, as the board's games (players as in
/// the match: first and second). A game forfeited by the director's decision is a forfeit
/// (scores, but is not a game played for the tie-breaks).
pub(super) fn board_games(m: &Match) -> Vec<BoardGameResult> {
    m.games()
        .filter_map(|g| {
            let r = g.result.as_ref()?;
            let winner = |c: Color| {
                if c == Color::Red {
                    g.red
                } else {
                    g.red.other()
                }
            };
            Some(match (r.outcome, &r.reason) {
                (engine::Outcome::Draw, _) => BoardGameResult::Draw,
                (engine::Outcome::Win(c), EndReason::Forfeit { .. }) => {
                    BoardGameResult::Forfeit { winner: winner(c) }
                }
                (engine::Outcome::Win(c), _) => BoardGameResult::Win { winner: winner(c) },
            })
        })
        .collect()
}

/// The board's result from match `m` played on crossboard for `board` of `round`: its
/// finished games, checked to be the board's players (first and second in the board's order),
/// each ballot the round's for the board (when the round drew ballots) and no more games than
/// the round has.
pub fn board_result(
    m: &Match,
    division: &Division,
    round: u32,
    board: &Board,
) -> Result<Vec<BoardGameResult>, BoardMatchError> {
    let players = &m.settings().players;
    let (first, second) = (division.name(board.first), division.name(board.second));
    if players[0] != first || players[1] != second {
        return Err(BoardMatchError::OtherPlayers {
            match_first: players[0].clone(),
            match_second: players[1].clone(),
            first: first.to_string(),
            second: second.to_string(),
        });
    }
    for (k, played) in m.ballots().iter().enumerate() {
        let Some(drawn) = ballot_for(division, round, board.number, 2 * k as u32) else {
            continue;
        };
        if played.opening.system != drawn.opening.system
            || played.opening.number != drawn.opening.number
        {
            return Err(BoardMatchError::OtherOpening {
                ballot: k + 1,
                played: played.opening.name.clone(),
                drawn: drawn.opening.name.clone(),
            });
        }
    }
    let games = board_games(m);
    let max = division.settings.games_per_round;
    if games.len() > max as usize {
        return Err(BoardMatchError::TooManyGames {
            games: games.len(),
            max,
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heading_keeps_the_round_and_board_within_the_limit() {
        assert_eq!(
            heading("Club Open", "Open", 1, 2),
            "Club Open, Open, round 1 board 2"
        );
        for (event, division) in [(200, 200), (200, 5), (5, 200), (60, 30)] {
            let h = heading(&"e".repeat(event), &"d".repeat(division), 99, 500);
            assert_eq!(chars(&h), EVENT_MAX_CHARS, "{h}");
            assert!(h.ends_with(", round 99 board 500"), "{h}");
            assert_eq!(
                h.matches('…').count(),
                1 + usize::from(division > 40 && event > 40),
                "{h}"
            );
        }
    }
}
