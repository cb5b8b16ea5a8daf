//! The criteria as weights: each edge's row of criteria in order of priority, and one weight
//! per edge that keeps that order over any matching.

use super::Float;
use super::SwissError;
use super::SwissPlayer;
use super::colour::{Pref, Strength, colour_diff, repeated};
use crate::director::Points;
use crate::event::matching::Weight;

/// The criteria of one edge, most important first: each a value and whether only edges
/// inside the bracket carry it (at most half the bracket's pairs then count in its bound).
/// The layout of one bracket is the same for every edge (see [`edge_row`] for the list).
#[derive(Default)]
pub(super) struct Row {
    values: Vec<i64>,
    in_bracket: Vec<bool>,
    /// The tier of the bye receiver's unplayed rounds (C9).
    bye_tier: usize,
}

impl Row {
    fn push(&mut self, value: i64, in_bracket: bool) {
        self.values.push(value);
        self.in_bracket.push(in_bracket);
    }
}

/// What the weight of one edge depends on.
pub(super) struct EdgeCtx<'a> {
    pub(super) players: &'a [&'a SwissPlayer],
    pub(super) prefs: &'a [Option<Pref>],
    pub(super) single_game: bool,
    /// The two players (`i` before `j` in the bracket, or the bracket before the lower ones).
    pub(super) i: usize,
    pub(super) j: usize,
    /// Both in the bracket being paired.
    pub(super) in_bracket: bool,
    /// A pair of the next bracket: the lower player from the next score group (C7).
    pub(super) next_pair: bool,
    /// Both must have the same colour (C3).
    pub(super) clash: bool,
    /// The bracket's distinct scores, highest first.
    pub(super) bracket_scores: &'a [Points],
}

/// The criteria of one edge, most important first (FIDE C.04.3 criteria in brackets):
///
/// - completion (C4): 1 for every edge, so the matching pairs everyone it can;
/// - absolute colours (C3, as a quality criterion): -1 for two players who must have the same
///   colour;
/// - pairs in the bracket (C5);
/// - the pairing score difference (C6): for each score of the bracket but its lowest, highest
///   first, the pairs whose higher player has that score. With the number of pairs fixed by
///   C5, the lexicographically largest count list is the smallest PSD: a mover paired has the
///   difference to the residents' score, a mover floated one point more (A.8);
/// - the next bracket (C7): its pairs (the lower player from the next score group), then its
///   PSD the same way;
/// - the bye (C9 of the 2025 rules): on the bye's edge, the receiver's unplayed rounds, fewest
///   first ([`bye_row`]);
/// - colours (single-game rounds): -1 for a pair whose preferences cannot both be granted
///   (C10), -1 more when a strong one is refused (C11);
/// - floats: the players paired here who floated down last round without floating down again
///   (C12), -1 for a pair that floats up again a player who floated up last round (C13), the
///   same for two rounds back (C14, C15); then the same counts by score, highest first
///   (C16-C19: the repeated floaters' score differences, smallest first).
///
/// Among the pairings equally good by all of these, [`settle`](super::settle::settle) takes
/// FIDE's first.
pub(super) fn edge_row(c: &EdgeCtx) -> Row {
    let p = c.players;
    let (hi, lo) = if p[c.i].score >= p[c.j].score {
        (c.i, c.j)
    } else {
        (c.j, c.i)
    };
    let (sh, sl) = (p[hi].score, p[lo].score);
    let inb = c.in_bracket;
    let b = |x: bool| i64::from(x);
    let mut row = Row::default();
    row.push(1, false);
    row.push(-b(c.clash), false);
    row.push(b(inb), true);
    let (_, upper) = c.bracket_scores.split_last().unwrap_or((&Points(0), &[]));
    for &s in upper {
        row.push(b(inb && sh == s), true);
    }
    row.push(b(c.next_pair), false);
    for &s in c.bracket_scores {
        row.push(b(c.next_pair && sh == s), false);
    }
    // The bye receiver's unplayed rounds (C9): on the bye's edge only (see `bye_row`).
    row.bye_tier = row.values.len();
    row.push(0, false);
    let colours = inb && c.single_game;
    let (a, z) = (c.prefs[c.i], c.prefs[c.j]);
    let same = matches!((a, z), (Some(a), Some(z)) if a.colour == z.colour);
    let strong = |x: Option<Pref>| x.is_some_and(|x| x.strength >= Strength::Strong);
    let absolute = |x: Option<Pref>| x.is_some_and(|x| x.strength == Strength::Absolute);
    // Two absolute preferences for the same colour (the topscorers' exception): C8, C9.
    let both_absolute = colours && same && absolute(a) && absolute(z);
    let (ci, cj) = (&p[c.i].colours, &p[c.j].colours);
    let (di, dj) = (colour_diff(ci).abs(), colour_diff(cj).abs());
    row.push(-b(both_absolute && di > 1 && dj > 1), true);
    let thrice = match di.cmp(&dj) {
        // Either may have to take the colour again: both repeated the same one.
        std::cmp::Ordering::Equal => repeated(ci).is_some() && repeated(ci) == repeated(cj),
        // The one with the smaller difference yields.
        std::cmp::Ordering::Less => repeated(ci).is_some(),
        std::cmp::Ordering::Greater => repeated(cj).is_some(),
    };
    row.push(-b(both_absolute && thrice), true);
    row.push(-b(colours && same), true);
    row.push(
        -b(colours && same && strong(a) && strong(z) && !(absolute(a) && absolute(z))),
        true,
    );
    fn last(x: &SwissPlayer) -> Float {
        x.last_float
    }
    fn two_back(x: &SwissPlayer) -> Float {
        x.float_two_back
    }
    // A player paired with a lower score floats down, with a higher score up (A.4).
    let down_kept = |back: fn(&SwissPlayer) -> Float, s: Option<Points>| {
        let lo_kept = back(p[lo]) == Float::Down && s.is_none_or(|s| sl == s);
        let hi_kept = sh == sl && back(p[hi]) == Float::Down && s.is_none_or(|s| sh == s);
        // C16/C18: a mover who floated down before, paired here, floats no further.
        let hi_mover = sh > sl && back(p[hi]) == Float::Down && s.is_some_and(|s| sh == s);
        b(inb) * (b(lo_kept) + b(hi_kept) + b(hi_mover))
    };
    let up_again = |back: fn(&SwissPlayer) -> Float, s: Option<Points>| {
        -b(inb && sh > sl && back(p[lo]) == Float::Up && s.is_none_or(|s| sh == s))
    };
    row.push(down_kept(last, None), true);
    row.push(up_again(last, None), true);
    row.push(down_kept(two_back, None), true);
    row.push(up_again(two_back, None), true);
    for back in [last as fn(&SwissPlayer) -> Float, two_back] {
        for &s in c.bracket_scores {
            row.push(down_kept(back, Some(s)), true);
        }
        for &s in c.bracket_scores {
            row.push(up_again(back, Some(s)), true);
        }
    }
    row
}

/// The bye's edge to a player with `unplayed` rounds not played, in the layout of `pair` (an
/// edge of the same bracket): completion, then, when `counted` (a bracket that decides who
/// has the bye), the fewest unplayed rounds for the receiver (C9 of the 2025 rules).
pub(super) fn bye_row(pair: &Row, unplayed: u32, counted: bool) -> Row {
    let mut values = vec![0; pair.values.len()];
    values[0] = 1;
    if counted {
        values[pair.bye_tier] = -i64::from(unplayed);
    }
    Row {
        values,
        in_bracket: pair.in_bracket.clone(),
        bye_tier: pair.bye_tier,
    }
}

/// Room below the criteria for the order of one bracket of `m` players: the largest sum of the
/// order's bonuses over a matching in [`settle`](super::settle::settle) stays under it.
fn order_reserve(m: usize) -> Weight {
    let m = m as Weight;
    (m + 1).pow(3) + m + 2
}

/// One weight per edge of a bracket of `m` players ([`encode`]), with room below for the order;
/// while they would not fit (a big field with many scores in one bracket), the least criteria
/// are dropped.
pub(super) fn weights(
    mut raw: Vec<(usize, usize, Row)>,
    nv: usize,
    m: usize,
) -> Result<Vec<(usize, usize, Weight)>, SwissError> {
    let reserve = order_reserve(m);
    loop {
        if let Some(e) = encode(&raw, nv, m, reserve) {
            return Ok(e);
        }
        if raw.iter().all(|(_, _, r)| r.values.len() <= 1) {
            return Err(SwissError::TooLarge);
        }
        for (_, _, r) in &mut raw {
            r.values.truncate(r.values.len().saturating_sub(1).max(1));
            r.in_bracket.truncate(r.values.len());
        }
    }
}

/// One weight per edge: the tiers in order of priority, each scaled above everything the
/// lower tiers can add up to over a matching (a tier's values may be negative: penalties).
/// `None` when the weights would not fit.
fn encode(
    raw: &[(usize, usize, Row)],
    nv: usize,
    m: usize,
    reserve: Weight,
) -> Option<Vec<(usize, usize, Weight)>> {
    let pairs_in = m / 2;
    let only_byes = Row {
        values: vec![1],
        in_bracket: vec![false],
        bye_tier: 0,
    };
    let layout = raw
        .iter()
        .map(|(_, _, r)| r)
        .find(|r| !r.values.is_empty())
        .unwrap_or(&only_byes);
    let tiers = layout.values.len();
    let mut min = vec![0i64; tiers];
    let mut max = vec![0i64; tiers];
    // The players an edge with a non-zero value of the tier touches: at most half of them are
    // paired by such edges.
    let mut touched = vec![vec![false; nv]; tiers];
    for (a, b, r) in raw {
        for (k, &v) in r.values.iter().enumerate() {
            min[k] = min[k].min(v);
            max[k] = max[k].max(v);
            if v != 0 {
                touched[k][*a] = true;
                touched[k][*b] = true;
            }
        }
    }
    // scale[k]: the multiplier of tier k, the last tier least.
    let mut scale = vec![0i128; tiers];
    let mut s: i128 = 1;
    for k in (0..tiers).rev() {
        scale[k] = s;
        let mut bound = touched[k].iter().filter(|&&t| t).count() / 2;
        if layout.in_bracket[k] {
            bound = bound.min(pairs_in);
        }
        s = s.checked_mul(bound as i128 * i128::from(max[k] - min[k]) + 1)?;
    }
    // The matching works with twice the weights: keep a margin, and the order's room.
    if s > i128::MAX / 8 / reserve {
        return None;
    }
    Some(
        raw.iter()
            .map(|(a, b, r)| {
                let w: i128 = r
                    .values
                    .iter()
                    .zip(&scale)
                    .map(|(&v, &k)| k * i128::from(v))
                    .sum();
                // The bye's edge: completion only.
                let w = if r.values.is_empty() { scale[0] } else { w };
                (*a, *b, w * reserve)
            })
            .collect(),
    )
}
