//! Round robin by the standard Berger tables.
//!
//! For `n` players (an odd number gets a dummy `n + 1`, whose opponent has the bye), numbered
//! 1..=n in pairing order, round `r` (1-based) of the first cycle is: board 1 pairs player `n`
//! with `t = ((r - 1) * n/2) mod (n - 1) + 1`, `t` first in odd rounds and `n` first in even
//! rounds; board `k + 1` pairs `t + k` (first) with `t - k`, counted cyclically over 1..=n-1.
//! This reproduces the published tables (FIDE Handbook C.05, Annex 1), checked for 3 to 16
//! players in `tests/event/pairing.rs`: for 6 players round 1 is 1-6 2-5 3-4, round 2 is 6-4
//! 5-3 1-2, round 3 is 2-6 3-1 4-5.
//!
//! A double round robin plays the first cycle with its last two rounds exchanged, as the
//! Annex recommends so that no player has the same colour three times running across the
//! cycles, then the table again in its own order with the colours reversed.

/// One round: (first, second) pairs of 1-based player numbers; a number above the player count
/// is the bye.
pub(super) type BergerRound = Vec<(u32, u32)>;

/// The first cycle's rounds for `players` players (at least 2).
pub fn berger(players: u32) -> Vec<BergerRound> {
    let n = players + players % 2;
    if n < 2 {
        return Vec::new();
    }
    let m = n - 1;
    let half = n / 2;
    // 1-based cyclic position over 1..=m.
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(m)) + 1) as u32 };
    (1..=m)
        .map(|r| {
            let t = ((r - 1) * half) % m + 1;
            let mut round = Vec::with_capacity(half as usize);
            round.push(if r % 2 == 1 { (t, n) } else { (n, t) });
            for k in 1..half {
                let a = wrap(i64::from(t) + i64::from(k));
                let b = wrap(i64::from(t) - i64::from(k));
                round.push((a, b));
            }
            round
        })
        .collect()
}

/// Which round of the table round `round` (1-based) of a round robin of `cycles` cycles plays,
/// and whether with the colours reversed; `None` past the end.
pub(super) fn table_round(players: u32, cycles: u32, round: u32) -> Option<(u32, bool)> {
    let n = players + players % 2;
    let per_cycle = n.saturating_sub(1);
    if round == 0 || per_cycle == 0 || round > per_cycle.saturating_mul(cycles) {
        return None;
    }
    let cycle = (round - 1) / per_cycle;
    let mut r = (round - 1) % per_cycle + 1;
    if cycles > 1 && cycle == 0 && per_cycle >= 2 && r + 1 >= per_cycle {
        // The first cycle's last two rounds exchanged.
        r = if r == per_cycle {
            per_cycle - 1
        } else {
            per_cycle
        };
    }
    Some((r, cycle % 2 == 1))
}

/// Round `round` (1-based) of a round robin of `cycles` cycles, or `None` past the end.
pub fn berger_round(players: u32, cycles: u32, round: u32) -> Option<BergerRound> {
    let (r, reversed) = table_round(players, cycles, round)?;
    let pairs = berger(players).into_iter().nth(r as usize - 1)?;
    Some(if reversed {
        pairs.into_iter().map(|(a, b)| (b, a)).collect()
    } else {
        pairs
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_players_match_the_published_table() {
        let t = berger(6);
        assert_eq!(t[0], vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(t[1], vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(t[2], vec![(2, 6), (3, 1), (4, 5)]);
        assert_eq!(t[3], vec![(6, 5), (1, 4), (2, 3)]);
        assert_eq!(t[4], vec![(3, 6), (4, 2), (5, 1)]);
    }

    #[test]
    fn second_cycle_reverses_colours() {
        assert_eq!(berger_round(4, 2, 4), Some(vec![(4, 1), (3, 2)]));
        assert_eq!(berger_round(4, 2, 7), None);
        // The first cycle's last two rounds exchanged; a single cycle keeps its order.
        assert_eq!(berger_round(4, 2, 2), Some(vec![(2, 4), (3, 1)]));
        assert_eq!(berger_round(4, 2, 3), Some(vec![(4, 3), (1, 2)]));
        assert_eq!(berger_round(4, 1, 2), Some(vec![(4, 3), (1, 2)]));
        assert_eq!(table_round(6, 2, 4), Some((5, false)));
        assert_eq!(table_round(6, 2, 10), Some((5, true)));
    }
}
