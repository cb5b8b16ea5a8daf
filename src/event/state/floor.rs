//! Results from the floor: a board not played on crossboard has its result entered by its
//! players, each with their own code, as both sign a paper slip. Each entry is an
//! [`Action::FloorResult`] in the event's log; the board's result is recorded when the second
//! player enters the same result as the first (the standings follow, as for a result typed at
//! the desk). Two different entries are a conflict for the director, who settles it (or any
//! entry) with [`Action::Overrule`] and a reason. Who entered what, the conflict and the
//! overrule are the board's [`Floor`], derived from those actions: nothing is stored twice.

use super::{Action, Board, BoardResult, Division, EventError, Tournament};
use crate::director::Player;
use serde::{Deserialize, Serialize};

/// What the players and the director entered of a board from the floor.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Floor {
    /// The first player's last entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<BoardResult>,
    /// The second player's last entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<BoardResult>,
    /// The director's reason, when the director overruled the entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overruled: Option<String>,
}

/// Where a board's result from the floor stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorState<'a> {
    /// Nobody entered anything.
    Empty,
    /// One player entered a result; the other has not confirmed it.
    Waiting {
        /// Who entered it.
        by: Player,
        /// What.
        result: &'a BoardResult,
    },
    /// Both entered the same result: it is the board's.
    Agreed,
    /// The players entered different results and nothing is recorded: the director decides.
    Conflict,
    /// The director overruled, for this reason.
    Overruled(&'a str),
}

impl Floor {
    /// True when nothing was entered from the floor.
    pub fn is_empty(&self) -> bool {
        *self == Floor::default()
    }

    /// The entry of `side`.
    pub fn entry(&self, side: Player) -> Option<&BoardResult> {
        match side {
            Player::First => self.first.as_ref(),
            Player::Second => self.second.as_ref(),
        }
    }

    /// Where it stands, `recorded` being the board's result.
    pub fn state(&self, recorded: Option<&BoardResult>) -> FloorState<'_> {
        if let Some(reason) = &self.overruled {
            return FloorState::Overruled(reason);
        }
        match (&self.first, &self.second) {
            (Some(a), Some(b)) if a == b => FloorState::Agreed,
            (Some(_), Some(_)) if recorded.is_none() => FloorState::Conflict,
            (Some(result), None) => FloorState::Waiting {
                by: Player::First,
                result,
            },
            (None, Some(result)) => FloorState::Waiting {
                by: Player::Second,
                result,
            },
            _ => FloorState::Empty,
        }
    }
}

impl Division {
    /// An entry from the floor or an overrule (any other action: nothing to check here).
    pub(super) fn check_floor_action(&self, action: &Action) -> Result<(), EventError> {
        match action {
            Action::FloorResult {
                round,
                board,
                result,
                ..
            } => self.check_floor(*round, *board, result),
            Action::Overrule {
                round,
                board,
                result,
                reason,
                ..
            } => self.check_overrule(*round, *board, result, reason),
            _ => Ok(()),
        }
    }

    /// A player's entry from the floor: the whole board's result (every game, or a forfeit),
    /// on a board not played on crossboard whose result is not recorded yet.
    fn check_floor(&self, round: u32, board: u32, result: &BoardResult) -> Result<(), EventError> {
        self.check_result(round, board, result)?;
        let b = self.board_at(round, board)?;
        if b.match_file.is_some() {
            return Err(EventError::FloorPlayedHere { board });
        }
        if b.result.is_some() {
            return Err(EventError::FloorRecorded { board });
        }
        let games = self.settings.games_per_round;
        if let BoardResult::Games { games: g } = result
            && (g.len() as u32) < games
        {
            return Err(EventError::FloorIncomplete { games });
        }
        Ok(())
    }

    /// The director's overrule: a reason, a result that holds, on a board with an entry from
    /// the floor (any other result is typed at the desk).
    fn check_overrule(
        &self,
        round: u32,
        board: u32,
        result: &BoardResult,
        reason: &str,
    ) -> Result<(), EventError> {
        super::check::check_reason(reason)?;
        self.check_result(round, board, result)?;
        if self.board_at(round, board)?.floor.is_empty() {
            return Err(EventError::NothingToOverrule { board });
        }
        Ok(())
    }

    fn board_at(&self, round: u32, board: u32) -> Result<&Board, EventError> {
        self.paired_round(round)?
            .board(board)
            .ok_or(EventError::NoBoard { round, board })
    }
}

impl Tournament {
    /// Apply a checked entry from the floor or an overrule (any other action: nothing).
    pub(super) fn evolve_floor(&mut self, action: &Action) {
        match action {
            Action::FloorResult {
                division,
                round,
                board,
                side,
                result,
            } => self.on_board(*division, *round, *board, |b| {
                let other = b.floor.entry(side.other()).cloned();
                match side {
                    Player::First => b.floor.first = Some(result.clone()),
                    Player::Second => b.floor.second = Some(result.clone()),
                }
                if other.as_ref() == Some(result) {
                    b.result = Some(result.clone());
                }
            }),
            Action::Overrule {
                division,
                round,
                board,
                result,
                reason,
            } => self.on_board(*division, *round, *board, |b| {
                b.result = Some(result.clone());
                b.floor.overruled = Some(reason.clone());
            }),
            _ => {}
        }
    }
}
