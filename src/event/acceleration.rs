//! Accelerated pairings for a Swiss: the Baku Acceleration Method (FIDE Handbook C.04.5.1).
//!
//! Before round 1 the field, in pairing order, is split in two: group A, the first half rounded
//! up to an even number (2·⌈n/4⌉ players), and group B, the rest. The first half of the rounds,
//! rounded up, are accelerated: before pairing each of them every player of group A is given
//! virtual points, a won round's points in the first half of those rounds (rounded up), half
//! of that in the others. The pairing score (score groups, floats, the bye) is the points plus
//! the virtual points; the standings, tie-breaks and every export count the points alone. A
//! late entry takes the place their rating gives: group A is everyone down to the same last
//! player as before the first round (so it may become odd), as C.04.5.1 has it.

use super::pair::pairing_order;
use super::settings::Acceleration;
use super::state::Division;
use crate::director::Points;

/// The virtual points of each entrant (in entry order) for pairing `round`: nothing unless the
/// division is accelerated and `round` is one of its accelerated rounds.
pub fn virtual_points(division: &Division, round: u32) -> Vec<Points> {
    let mut out = vec![Points::ZERO; division.entrants.len()];
    let worth = group_a_points(division, round);
    if worth > Points::ZERO {
        for i in group_a(division) {
            out[i] = worth;
        }
    }
    out
}

/// What each player of group A is given before pairing `round`: a won round in the first
/// half (rounded up) of the accelerated rounds, half a won round in the rest, then nothing.
fn group_a_points(division: &Division, round: u32) -> Points {
    if division.settings.acceleration != Acceleration::Baku {
        return Points::ZERO;
    }
    let accelerated = division.planned_rounds().div_ceil(2);
    let full = accelerated.div_ceil(2);
    let won = division.settings.round_max();
    if round == 0 || round > accelerated {
        Points::ZERO
    } else if round <= full {
        won
    } else {
        Points(won.0 / 2)
    }
}

/// Group A, as entrant positions in pairing order: the first 2·⌈n/4⌉ of the n players entered
/// before round 1, and any later entry placed above the last of them.
fn group_a(division: &Division) -> Vec<usize> {
    let order = pairing_order(division);
    let initial: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| division.entrants[i].from_round <= 1)
        .collect();
    let size = (2 * initial.len().div_ceil(4)).min(initial.len());
    let Some(last) = size.checked_sub(1).map(|k| initial[k]) else {
        return Vec::new();
    };
    let end = order.iter().position(|&i| i == last).unwrap_or(0);
    order[..=end].to_vec()
}
