//! Pairing a division's next round: the Berger table of a round robin or the Swiss engine,
//! and the director's overrides.

use super::acceleration::virtual_points;
use super::berger::{berger_round, table_round};
use super::explain::{BoardWhy, Explanation, Method, Note};
use super::player::PlayerId;
use super::round_points::{RoundKind, RoundRecord, records, totals};
use super::settings::Format;
use super::state::{Action, Division, DivisionId, EventError, Pairing};
use super::swiss::{self, Float, SwissInput, SwissPlayer};
use crate::director::{Player, Points};
use crate::engine::Color;

/// Pairing numbers: entrants by rating (highest first), then entry order. Returns the entrant
/// positions in pairing order.
pub fn pairing_order(division: &Division) -> Vec<usize> {
    let mut order: Vec<usize> = (0..division.entrants.len()).collect();
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(division.entrants[i].info.rating.unwrap_or(0)),
            i,
        )
    });
    order
}

/// The pairing of the division's next round, as the engine proposes it (not yet applied).
pub fn propose(division_id: DivisionId, division: &Division) -> Result<Action, EventError> {
    let round = division.next_round()?;
    let pairing = match division.settings.format {
        Format::RoundRobin { cycles } => round_robin(division, cycles, round)?,
        Format::Swiss { .. } => {
            let mut pairing = swiss::pair(&swiss_input(division, round))
                .map_err(|e| EventError::Pairing(e.to_string()))?;
            pairing.explanation.virtual_points = virtual_points(division, round)
                .into_iter()
                .zip(&division.entrants)
                .filter(|(v, e)| *v > Points::ZERO && e.available(round))
                .map(|(v, e)| (e.player, v))
                .collect();
            pairing
        }
    };
    Ok(Action::Pair {
        division: division_id,
        pairing,
    })
}

/// The Swiss engine's view of the division before `round`: each player's score is their
/// pairing score, their points plus the virtual points of an accelerated round.
pub fn swiss_input(division: &Division, round: u32) -> SwissInput {
    let recs = records(division, round - 1);
    let scores = totals(&recs);
    // The virtual points of every round so far: a float is by the pairing scores of its round.
    let virtuals: Vec<Vec<Points>> = (1..=round).map(|k| virtual_points(division, k)).collect();
    let order = pairing_order(division);
    let mut rank = vec![0u32; division.entrants.len()];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k as u32 + 1;
    }
    let players = division
        .entrants
        .iter()
        .enumerate()
        .filter(|(_, e)| e.available(round))
        .map(|(i, e)| {
            let rs = &recs[i];
            let met = rs
                .iter()
                .filter(|r| r.met())
                .filter_map(|r| Some((division.entrants[r.opponent?].player, r.round)))
                .collect();
            let bye_ok = !rs.iter().any(RoundRecord::unplayed_win);
            let colours = rs
                .iter()
                .filter(|r| r.met())
                .filter_map(|r| {
                    r.side.map(|s| {
                        if s == Player::First {
                            Color::Red
                        } else {
                            Color::White
                        }
                    })
                })
                .collect();
            let float_back = |k: usize| {
                rs.len()
                    .checked_sub(k)
                    .map_or(Float::None, |at| float_of(&recs, &virtuals, i, &rs[at]))
            };
            SwissPlayer {
                id: e.player,
                rank: rank[i],
                score: scores[i] + virtuals[round as usize - 1][i],
                met,
                bye_ok,
                unplayed: rs.iter().filter(|r| !r.met()).count() as u32,
                colours,
                last_float: float_back(1),
                float_two_back: float_back(2),
            }
        })
        .collect();
    let last = division.settings.planned_rounds(division.entrants.len()) == round;
    SwissInput {
        round,
        single_game: division.settings.games_per_round == 1,
        // A.7: more than half the points of the rounds played.
        topscorers: last.then(|| Points((round - 1) * division.settings.round_max().0 / 2)),
        players,
    }
}

/// The float entrant `i` had in round record `r` (FIDE C.04.3 A.4; 2025: 1.4): down when
/// paired with a lower score, or when scoring more than a loss without playing (a bye, a
/// forfeit win, an absence that scores); up when paired with a higher score; none for an
/// unplayed round that scored nothing (a forfeit loss, an absence worth no points). Scores are
/// the pairing scores of that round (`virtuals`: each round's virtual points, by entrant).
fn float_of(
    recs: &[Vec<super::round_points::RoundRecord>],
    virtuals: &[Vec<Points>],
    i: usize,
    r: &super::round_points::RoundRecord,
) -> Float {
    let Some(o) = r.opponent.filter(|_| r.met()) else {
        return if r.points > Points::ZERO {
            Float::Down
        } else {
            Float::None
        };
    };
    let before = |k: usize| {
        let points: u32 = recs[k]
            .iter()
            .filter(|x| x.round < r.round)
            .map(|x| x.points.0)
            .sum();
        points + virtuals[r.round as usize - 1][k].0
    };
    match before(i).cmp(&before(o)) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}

/// The Berger round: players numbered in pairing order; boards with a player who cannot play
/// that round are still paired (the director records the forfeit).
fn round_robin(division: &Division, cycles: u32, round: u32) -> Result<Pairing, EventError> {
    let order = pairing_order(division);
    let n = order.len() as u32;
    if n < 2 {
        return Err(EventError::Pairing(
            "a round robin needs at least two players".into(),
        ));
    }
    let table = berger_round(n, cycles, round).ok_or(EventError::AllRoundsPaired(round - 1))?;
    let (table_round, _) =
        table_round(n, cycles, round).ok_or(EventError::AllRoundsPaired(round - 1))?;
    let id = |k: u32| division.entrants[order[k as usize - 1]].player;
    let mut boards = Vec::new();
    let mut whys = Vec::new();
    let mut bye = None;
    let mut byes = Vec::new();
    for (a, b) in table {
        if a > n || b > n {
            let p = id(a.min(b));
            bye = Some(p);
            byes.push(p);
            continue;
        }
        boards.push((id(a), id(b)));
        whys.push(BoardWhy {
            first: id(a),
            second: id(b),
            scores: Default::default(),
            notes: vec![Note::Berger {
                table_round,
                first: a,
                second: b,
            }],
        });
    }
    Ok(Pairing {
        round,
        boards,
        bye,
        explanation: Explanation {
            method: Method::RoundRobin,
            boards: whys,
            bye: None,
            rematches: Vec::new(),
            virtual_points: Vec::new(),
        },
    })
}

/// The director's pairing of the next round, by hand (boards in order, first player Red in game
/// 1), with the reason logged; checked when applied (everyone available placed once).
pub fn by_hand(
    division_id: DivisionId,
    division: &Division,
    boards: Vec<(PlayerId, PlayerId)>,
    bye: Option<PlayerId>,
    reason: &str,
) -> Result<Action, EventError> {
    let round = division.next_round()?;
    let whys = boards
        .iter()
        .map(|&(first, second)| BoardWhy {
            first,
            second,
            scores: Default::default(),
            notes: vec![Note::Director],
        })
        .collect();
    Ok(Action::PairByHand {
        division: division_id,
        pairing: director_pairing(round, boards, bye, whys),
        reason: reason.to_string(),
    })
}

/// The director's pairing of the last round: `boards` replace the engine's, the bye as given.
/// The explanation keeps the engine's reasons for boards left as they were.
pub(super) fn override_pairing(
    division_id: DivisionId,
    division: &Division,
    boards: Vec<(PlayerId, PlayerId)>,
    bye: Option<PlayerId>,
    reason: &str,
) -> Result<Action, EventError> {
    let last = division.paired_rounds();
    let old = division.round(last).ok_or(EventError::NoRound(1))?;
    let whys = boards
        .iter()
        .map(|&(a, b)| {
            old.explanation
                .boards
                .iter()
                .find(|w| w.first == a && w.second == b)
                .cloned()
                .unwrap_or(BoardWhy {
                    first: a,
                    second: b,
                    scores: Default::default(),
                    notes: vec![Note::Director],
                })
        })
        .collect();
    Ok(Action::Override {
        division: division_id,
        pairing: director_pairing(last, boards, bye, whys),
        reason: reason.to_string(),
    })
}

/// A round's pairing as the director set it, with each board's reasons.
fn director_pairing(
    round: u32,
    boards: Vec<(PlayerId, PlayerId)>,
    bye: Option<PlayerId>,
    whys: Vec<BoardWhy>,
) -> Pairing {
    Pairing {
        round,
        boards,
        bye,
        explanation: Explanation {
            method: Method::Director,
            boards: whys,
            bye: None,
            rematches: Vec::new(),
            virtual_points: Vec::new(),
        },
    }
}

/// Exchange two players of the last round's pairing (each takes the other's board and side, or
/// the bye): the director's most common override.
pub fn swap(
    division_id: DivisionId,
    division: &Division,
    a: PlayerId,
    b: PlayerId,
    reason: &str,
) -> Result<Action, EventError> {
    let last = division.paired_rounds();
    let old = division.round(last).ok_or(EventError::NoRound(1))?;
    let sw = |p: PlayerId| {
        if p == a {
            b
        } else if p == b {
            a
        } else {
            p
        }
    };
    let boards = old
        .boards
        .iter()
        .map(|x| (sw(x.first), sw(x.second)))
        .collect();
    override_pairing(division_id, division, boards, old.bye.map(sw), reason)
}

/// What a director's pairing repeats that the engine avoids: a pair that met before, or an
/// unplayed point (the bye) to a player who already had one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// `first` and `second` (as on their new board) met over the board in `round`.
    Rematch {
        /// The new board's first player.
        first: PlayerId,
        /// Its second player.
        second: PlayerId,
        /// The round they met.
        round: u32,
    },
    /// The bye to `player`, who had a bye (or a forfeit win) in `round`.
    SecondBye {
        /// Who.
        player: PlayerId,
        /// The round of the earlier one.
        round: u32,
        /// That one was a forfeit win, not a bye.
        forfeit_win: bool,
    },
}

/// The repeats of `pairing` against the rounds before it (each once, in board order, the bye
/// last).
pub fn repeats(division: &Division, pairing: &Pairing) -> Vec<Repeat> {
    let recs = records(division, pairing.round.saturating_sub(1));
    let at = |id: PlayerId| division.position(id);
    let mut out = Vec::new();
    for &(first, second) in &pairing.boards {
        let (Some(i), Some(j)) = (at(first), at(second)) else {
            continue;
        };
        if let Some(r) = recs[i].iter().find(|r| r.met() && r.opponent == Some(j)) {
            out.push(Repeat::Rematch {
                first,
                second,
                round: r.round,
            });
        }
    }
    if let Some((player, i)) = pairing.bye.and_then(|p| Some((p, at(p)?)))
        && let Some(r) = recs[i].iter().find(|r| r.unplayed_win())
    {
        out.push(Repeat::SecondBye {
            player,
            round: r.round,
            forfeit_win: r.kind != RoundKind::Bye,
        });
    }
    out
}

/// The repeats an exchange of `a` and `b` in the last round's pairing would add (those of the
/// pairing as it stands left aside), with its action.
pub fn swap_repeats(
    division_id: DivisionId,
    division: &Division,
    a: PlayerId,
    b: PlayerId,
    reason: &str,
) -> Result<(Action, Vec<Repeat>), EventError> {
    let action = swap(division_id, division, a, b, reason)?;
    let last = division.paired_rounds();
    let old = division.round(last).ok_or(EventError::NoRound(1))?;
    let before = repeats(
        division,
        &Pairing {
            round: last,
            boards: old.boards.iter().map(|x| (x.first, x.second)).collect(),
            bye: old.bye,
            explanation: Explanation::default(),
        },
    );
    let Action::Override { pairing, .. } = &action else {
        return Ok((action, Vec::new()));
    };
    let same = |x: &Repeat, y: &Repeat| match (x, y) {
        (
            Repeat::Rematch {
                first: a1,
                second: b1,
                ..
            },
            Repeat::Rematch {
                first: a2,
                second: b2,
                ..
            },
        ) => (a1, b1) == (a2, b2) || (a1, b1) == (b2, a2),
        (Repeat::SecondBye { player: p, .. }, Repeat::SecondBye { player: q, .. }) => p == q,
        _ => false,
    };
    let added = repeats(division, pairing)
        .into_iter()
        .filter(|r| !before.iter().any(|o| same(r, o)))
        .collect();
    Ok((action, added))
}

/// `reason; note`, the note shortened (ending `...`) to keep within the limit of a logged text.
fn noted(reason: String, note: &str) -> String {
    let room = super::settings::MAX_TEXT.saturating_sub(reason.chars().count() + 2);
    if note.chars().count() <= room {
        format!("{reason}; {note}")
    } else if room > 3 {
        let cut: String = note.chars().take(room - 3).collect();
        format!("{reason}; {cut}...")
    } else {
        reason
    }
}

/// `action` (a director's pairing) with `note` added to its logged reason (shortened to keep
/// within the limit); a reason left empty stays empty (the note is no reason: the action is
/// refused for want of one).
pub fn with_reason_note(action: Action, note: &str) -> Action {
    match action {
        Action::Override { ref reason, .. } | Action::PairByHand { ref reason, .. }
            if reason.trim().is_empty() =>
        {
            action
        }
        Action::Override {
            division,
            pairing,
            reason,
        } => Action::Override {
            division,
            pairing,
            reason: noted(reason, note),
        },
        Action::PairByHand {
            division,
            pairing,
            reason,
        } => Action::PairByHand {
            division,
            pairing,
            reason: noted(reason, note),
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_shortened_to_keep_the_reason_within_the_limit() {
        assert_eq!(noted("late".into(), "repeats: x"), "late; repeats: x");
        let long = "y".repeat(300);
        let r = noted("late".into(), &long);
        assert_eq!(r.chars().count(), super::super::settings::MAX_TEXT);
        assert!(r.starts_with("late; yyy") && r.ends_with("..."), "{r}");
        let full = "z".repeat(199);
        assert_eq!(noted(full.clone(), "note"), full);
    }
}
