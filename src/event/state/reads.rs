//! What an action reads of the event: [`Tournament::reads_same`], so that an action prepared
//! from an event another desk has changed since can still be recorded when nothing it relies
//! on changed (a result on another board, an entry in another division), and is refused when
//! something did (the same board, the division's pairing).

use super::{Action, Division, DivisionId, Tournament};
use crate::event::player::PlayerId;

impl Tournament {
    /// True when `action` finds in `now` everything it relied on in `self` (the event as it
    /// was read when the action was prepared):
    ///
    /// - a board's result, PDN or match: the division's settings, its number of rounds (a
    ///   round paired since changes what the result means), and in the board's round the
    ///   board itself, the ballots and the overrides;
    /// - an entry, a withdrawal, an absence, a requested bye: the division's settings, its number of rounds
    ///   and the player's entry;
    /// - a new division: nothing (its name is checked again against the event as it is);
    /// - the heading: the heading;
    /// - the prize list: the division's prize list;
    /// - a pairing, an override, an unpairing, ballots, settings: the whole division.
    pub fn reads_same(&self, now: &Tournament, action: &Action) -> bool {
        match action {
            Action::SetInfo { .. } => self.info == now.info,
            Action::AddDivision { .. } => true,
            Action::Result {
                division,
                round,
                board,
                ..
            }
            | Action::AttachPdn {
                division,
                round,
                board,
                ..
            }
            | Action::LinkMatch {
                division,
                round,
                board,
                ..
            }
            | Action::FloorResult {
                division,
                round,
                board,
                ..
            }
            | Action::Overrule {
                division,
                round,
                board,
                ..
            } => same(self, now, *division, |a, b| {
                same_board(a, b, *round, *board)
            }),
            Action::Enter {
                division, player, ..
            }
            | Action::Withdraw {
                division, player, ..
            }
            | Action::Absent {
                division, player, ..
            }
            | Action::ByeRequest {
                division, player, ..
            } => same(self, now, *division, |a, b| same_entry(a, b, *player)),
            Action::SetPrizes { division, .. } => {
                same(self, now, *division, |a, b| a.prizes == b.prizes)
            }
            Action::SetSettings { division, .. }
            | Action::Pair { division, .. }
            | Action::PairByHand { division, .. }
            | Action::Override { division, .. }
            | Action::Unpair { division, .. }
            | Action::Ballots { division, .. } => same(self, now, *division, |a, b| a == b),
        }
    }
}

/// True when division `id` is in both events and `part` finds it the same.
fn same(
    then: &Tournament,
    now: &Tournament,
    id: DivisionId,
    part: impl Fn(&Division, &Division) -> bool,
) -> bool {
    match (then.divisions.get(id), now.divisions.get(id)) {
        (Some(a), Some(b)) => part(a, b),
        _ => false,
    }
}

/// The settings and the number of rounds: what every action on a division relies on.
fn same_frame(a: &Division, b: &Division) -> bool {
    a.settings == b.settings && a.rounds.len() == b.rounds.len()
}

fn same_board(a: &Division, b: &Division, round: u32, board: u32) -> bool {
    same_frame(a, b)
        && match (a.round(round), b.round(round)) {
            (Some(x), Some(y)) => {
                x.board(board) == y.board(board)
                    && x.ballots == y.ballots
                    && x.overrides == y.overrides
            }
            (None, None) => true,
            _ => false,
        }
}

fn same_entry(a: &Division, b: &Division, player: PlayerId) -> bool {
    same_frame(a, b) && a.entrant(player) == b.entrant(player)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{BoardGameResult, BoardResult, DivisionSettings, PlayerInfo, propose};

    fn result(board: u32) -> Action {
        Action::Result {
            division: 0,
            round: 1,
            board,
            result: BoardResult::Games {
                games: vec![BoardGameResult::Draw],
            },
        }
    }

    /// A paired round of four players in one division, and an empty second division.
    fn event() -> Tournament {
        let mut e = Tournament::new();
        for name in ["Open", "Reserves"] {
            e.apply(&Action::AddDivision {
                name: name.into(),
                settings: DivisionSettings::default(),
            })
            .unwrap();
        }
        for (p, name) in (1..).zip(["Ann", "Bob", "Cid", "Dee"]) {
            e.apply(&Action::Enter {
                division: 0,
                player: p,
                info: PlayerInfo::named(name),
            })
            .unwrap();
        }
        let pair = propose(0, &e.divisions[0]).unwrap();
        e.apply(&pair).unwrap();
        e
    }

    #[test]
    fn a_result_relies_on_its_board_not_the_others() {
        let then = event();
        let mut now = then.clone();
        now.apply(&result(2)).unwrap();
        assert!(then.reads_same(&now, &result(1)));
        assert!(!then.reads_same(&now, &result(2)));
        // A pairing relies on every board of the division.
        let unpair = Action::Unpair {
            division: 0,
            round: 1,
            reason: "x".into(),
        };
        assert!(!then.reads_same(&now, &unpair));
    }

    #[test]
    fn an_entry_elsewhere_changes_nothing_a_result_relies_on() {
        let then = event();
        let mut now = then.clone();
        let enter = Action::Enter {
            division: 1,
            player: 9,
            info: PlayerInfo::named("Eve"),
        };
        now.apply(&enter).unwrap();
        assert!(then.reads_same(&now, &result(1)));
        let other = Action::Enter {
            division: 1,
            player: 10,
            info: PlayerInfo::named("Fay"),
        };
        assert!(then.reads_same(&now, &other));
        let withdraw = Action::Withdraw {
            division: 1,
            player: 9,
            reason: "ill".into(),
        };
        assert!(!then.reads_same(&now, &withdraw));
    }
}
