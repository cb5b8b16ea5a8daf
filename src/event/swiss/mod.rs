//! Swiss pairing after the FIDE Dutch system (C.04.3), as far as it applies to draughts.
//!
//! What is implemented, in order of priority:
//!
//! 1. **No rematch** (C1): two players who met over the board are never paired again (a
//!    whole-round forfeit is not a meeting, as in FIDE).
//! 2. **At most one bye** (C2): the bye goes only to a player who has had neither a bye nor a
//!    forfeit win.
//! 3. **Completion** (C4): the pairing of a score group must leave the rest pairable; if no
//!    pairing of the whole field exists, pairing is refused (the director pairs by hand).
//! 4. **Absolute colours** (C3, single-game rounds only): two players who must both have the
//!    same colour (colour difference beyond ±1, or the same colour twice running) are not
//!    paired. Deviation: treated as the top quality criterion rather than absolute, so a round
//!    is never refused for colours alone.
//! 5. **Score groups from the top** (C5, C6, C7): the groups are paired from the highest score
//!    down; each pairs as many of its players as possible (C5), then with the smallest
//!    pairing score difference (C6, exact as a count list: for each score of the bracket,
//!    highest first, the pairs whose higher player has it; with C5's number of pairs fixed,
//!    that list's lexicographic maximum is the PSD's minimum of A.8), then chooses its
//!    floaters so that the next group pairs as many as it can with the smallest PSD (C7).
//! 6. **Colours** (C10, then C11, single-game rounds only): fewest players without their
//!    colour preference, then fewest without a strong one. In rounds of two or more games
//!    everyone has both colours, so colour preferences do not choose opponents there.
//! 7. **Floats** (C12-C19): fewest players floated down again who floated down last round
//!    (C12), up again who floated up (C13), the same two rounds back (C14, C15); then the same
//!    four by score, highest first (C16-C19: the repeated floaters' score differences). A
//!    player paired with a lower score floats down, with a higher score up; one who scored
//!    more than a loss without playing (bye, forfeit win, a scoring absence) floated down.
//! 8. **Order** (C.04.3's sequence of transpositions and exchanges): among the pairings equally
//!    good by all of the above, the first one FIDE's sequence gives, decided a choice at a time
//!    (see `settle`): the movers paired, highest first, each with the highest resident it can
//!    have; in the remainder the fewest exchanges between S1 and S2, the smallest difference
//!    of the exchanged numbers, the lowest of S1 and the highest of S2 exchanged; then each S1
//!    player, in order, with the first S2 player for whom an optimal pairing of the rest exists.
//!
//! Each group is paired by maximum-weight matchings ([`super::matching`]) over the group and
//! every lower player, the criteria above encoded as one weight in order of priority (so
//! completion is exact, never a heuristic), the order as small bonuses below them. The bye is
//! the dummy vertex of an odd field: it falls to the lowest-scored eligible player of the last
//! group, the one FIDE's order leaves unpaired.
//!
//! Colours of a pair (the first player has Red in game 1, which moves first): both
//! preferences if compatible, else the stronger preference, else alternate from the last
//! round they had different colours, else the higher-ranked player's preference; with no
//! preference at all (round 1), the higher-ranked player has Red on odd boards and White on
//! even boards (deviation: FIDE draws the initial colour by lot). In rounds of two or more
//! games each player has both colours anyway, and the same rules only decide who starts.
//!
//! Not implemented: the last-round exception for top scorers, pairing-allocated byes for more
//! than one player, accelerated pairings.

use super::explain::{Avoided, BoardWhy, ByeWhy, Explanation, Method, Note};
use super::matching::{Weight, max_weight_matching};
use super::player::PlayerId;
use crate::director::Points;
use crate::engine::Color;
use std::collections::HashSet;

/// A float a player had in a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Float {
    /// Paired in their own score group (or not paired).
    #[default]
    None,
    /// Paired with a lower score.
    Down,
    /// Paired with a higher score.
    Up,
}

/// A player as the pairing sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPlayer {
    /// The registry id.
    pub id: PlayerId,
    /// Pairing number: 1 is the top seed.
    pub rank: u32,
    /// Score so far.
    pub score: Points,
    /// Opponents met over the board, with the round.
    pub met: Vec<(PlayerId, u32)>,
    /// May receive the bye (no bye nor forfeit win yet).
    pub bye_ok: bool,
    /// Colour of game 1 in each round played, oldest first (Red: first player).
    pub colours: Vec<Color>,
    /// The float of the last round.
    pub last_float: Float,
    /// The float of the round before the last.
    pub float_two_back: Float,
}

/// The round to pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissInput {
    /// The round number.
    pub round: u32,
    /// Single-game rounds: colours matter (absolute preferences apply).
    pub single_game: bool,
    /// The last round: players with more than this score are topscorers (C.04.3 A.7), two of
    /// whom may be paired against an absolute colour preference (C3's exception; C8 and C9
    /// then keep their colour differences within ±2 and no colour three times if they can).
    pub topscorers: Option<Points>,
    /// Everyone to pair (absent and withdrawn players left out).
    pub players: Vec<SwissPlayer>,
}

/// A pairing that cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    /// No pairing avoids every rematch (or the bye rule).
    /// (The callers say how to pair it by hand: a desk key, a command.)
    #[error("no pairing of round {round} avoids every rematch ({players} players)")]
    Impossible {
        /// The round.
        round: u32,
        /// Players to pair.
        players: usize,
    },
    /// The weights would overflow (an enormous division).
    #[error("too many players for the Swiss pairing weights")]
    TooLarge,
}

/// How strongly a player wants a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    Mild,
    Strong,
    Absolute,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pref {
    colour: Color,
    strength: Strength,
}

/// Games with Red minus games with White.
fn colour_diff(colours: &[Color]) -> i64 {
    colours
        .iter()
        .map(|&c| if c == Color::Red { 1 } else { -1 })
        .sum()
}

/// The colour of the last two games, when it is the same.
fn repeated(colours: &[Color]) -> Option<Color> {
    match colours {
        [.., x, y] if x == y => Some(*y),
        _ => None,
    }
}

fn preference(colours: &[Color]) -> Option<Pref> {
    let red = colours.iter().filter(|&&c| c == Color::Red).count() as i64;
    let diff = red - (colours.len() as i64 - red);
    let n = colours.len();
    let twice = n >= 2 && colours[n - 1] == colours[n - 2];
    let pref = |colour, strength| Some(Pref { colour, strength });
    if diff > 1 || (twice && colours[n - 1] == Color::Red) {
        pref(Color::White, Strength::Absolute)
    } else if diff < -1 || (twice && colours[n - 1] == Color::White) {
        pref(Color::Red, Strength::Absolute)
    } else if diff == 1 {
        pref(Color::White, Strength::Strong)
    } else if diff == -1 {
        pref(Color::Red, Strength::Strong)
    } else {
        colours.last().map(|&c| Pref {
            colour: c.opponent(),
            strength: Strength::Mild,
        })
    }
}

/// The criteria of one edge, most important first: each a value and whether only edges
/// inside the bracket carry it (at most half the bracket's pairs then count in its bound).
/// The layout of one bracket is the same for every edge (see [`pair`] for the list).
#[derive(Default)]
struct Row {
    values: Vec<i64>,
    in_bracket: Vec<bool>,
}

impl Row {
    fn push(&mut self, value: i64, in_bracket: bool) {
        self.values.push(value);
        self.in_bracket.push(in_bracket);
    }
}

/// Pair a Swiss round.
#[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
pub fn pair(input: &SwissInput) -> Result<super::state::Pairing, SwissError> {
    let mut players: Vec<&SwissPlayer> = input.players.iter().collect();
    players.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
    let n = players.len();
    let prefs: Vec<Option<Pref>> = players.iter().map(|p| preference(&p.colours)).collect();
    let met: HashSet<(PlayerId, PlayerId)> = players
        .iter()
        .flat_map(|p| p.met.iter().map(move |&(o, _)| (p.id, o)))
        .collect();
    let dummy = n % 2 == 1;
    let any_bye_ok = players.iter().any(|p| p.bye_ok);
    let bye_ok = |i: usize| players[i].bye_ok || !any_bye_ok;
    let compatible = |i: usize, j: usize| !met.contains(&(players[i].id, players[j].id));
    let topscorer = |i: usize| input.topscorers.is_some_and(|t| players[i].score > t);
    let absolute_clash = |i: usize, j: usize| {
        input.single_game
            && !topscorer(i)
            && !topscorer(j)
            && matches!((prefs[i], prefs[j]), (Some(a), Some(b))
                if a.strength == Strength::Absolute && b.strength == Strength::Absolute
                    && a.colour == b.colour)
    };

    let mut remaining: Vec<usize> = (0..n).collect();
    let mut movers: Vec<usize> = Vec::new(); // moved down into the next group
    let mut pairs: Vec<(usize, usize, Points)> = Vec::new(); // (i, j, group score)
    let mut bye: Option<usize> = None;
    let mut natural_notes: Vec<(usize, usize, Avoided)> = Vec::new();
    let scores: Vec<Points> = {
        let mut s: Vec<Points> = players.iter().map(|p| p.score).collect();
        s.dedup();
        s
    };
    // The bye goes to an eligible player of the lowest score a complete pairing allows (FIDE:
    // the PAB's score as low as possible, before any bracket's quality).
    let bye_score = if dummy {
        lowest_bye_score(&players, &scores, &compatible, &bye_ok)
    } else {
        None
    };
    let bye_ok = |i: usize| bye_ok(i) && bye_score.is_none_or(|s| players[i].score <= s);
    for (gi, &group_score) in scores.iter().enumerate() {
        let last = gi + 1 == scores.len();
        let mut bracket: Vec<usize> = movers.clone();
        bracket.extend(
            remaining
                .iter()
                .copied()
                .filter(|&i| players[i].score == group_score && !movers.contains(&i)),
        );
        if bracket.is_empty() {
            continue;
        }
        let in_bracket: HashSet<usize> = bracket.iter().copied().collect();
        let lower: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|i| !in_bracket.contains(i))
            .collect();
        // Vertices: the bracket, then the lower players, then the dummy (the bye).
        let next_score = scores.get(gi + 1).copied().unwrap_or(group_score);
        let mut verts: Vec<usize> = bracket.clone();
        verts.extend(&lower);
        let dummy_v = dummy.then_some(verts.len());
        let nv = verts.len() + usize::from(dummy);
        let m = bracket.len();
        // The distinct scores of the bracket, highest first (movers' scores, then the group's).
        let mut bracket_scores: Vec<Points> = bracket.iter().map(|&i| players[i].score).collect();
        bracket_scores.sort_by(|x, y| y.cmp(x));
        bracket_scores.dedup();
        let has_next = !last && lower.iter().any(|&i| players[i].score == next_score);
        // The edges' criteria, then one weight each with room below for the order.
        let mut raw: Vec<(usize, usize, Row)> = Vec::new();
        for a in 0..verts.len() {
            for b in a + 1..verts.len() {
                let (i, j) = (verts[a], verts[b]);
                if !compatible(i, j) {
                    continue;
                }
                let inb = b < bracket.len();
                let row = edge_row(&EdgeCtx {
                    players: &players,
                    prefs: &prefs,
                    single_game: input.single_game,
                    i,
                    j,
                    in_bracket: inb,
                    next_pair: has_next
                        && !inb
                        && players[i].score.min(players[j].score) == next_score,
                    clash: absolute_clash(i, j),
                    bracket_scores: &bracket_scores,
                });
                raw.push((a, b, row));
            }
            if let Some(d) = dummy_v
                && bye_ok(verts[a])
            {
                raw.push((a, d, Row::default()));
            }
        }
        // Too many criteria for one weight (a big field with many scores in one bracket): the
        // least criteria are dropped.
        let reserve = order_reserve(bracket.len());
        let edges = loop {
            if let Some(e) = encode(&raw, nv, m, reserve) {
                break e;
            }
            if raw.iter().all(|(_, _, r)| r.values.len() <= 1) {
                return Err(SwissError::TooLarge);
            }
            for (_, _, r) in &mut raw {
                r.values.truncate(r.values.len().saturating_sub(1).max(1));
                r.in_bracket.truncate(r.values.len());
            }
        };
        let mut graph = Graph::new(nv, edges);
        let first = graph.solve(&|_, _| 0);
        if first.iter().any(Option::is_none) {
            return Err(SwissError::Impossible {
                round: input.round,
                players: n,
            });
        }
        let bracket_score: Vec<Points> = bracket.iter().map(|&i| players[i].score).collect();
        let mate = settle(&mut graph, first, movers.len(), &bracket_score);
        let mut next_movers = Vec::new();
        for (a, &i) in bracket.iter().enumerate() {
            let Some(b) = mate[a] else { continue };
            if b < bracket.len() {
                if a < b {
                    pairs.push((i, verts[b], group_score));
                }
            } else if Some(b) == dummy_v && last {
                bye = Some(i);
            } else {
                next_movers.push(i);
            }
        }
        // Natural opponents not given: movers against the top residents, then the remaining
        // residents top half against bottom half.
        let mv = movers.len().min(bracket.len() - movers.len());
        let rest = &bracket[2 * mv..];
        let naturals = (0..mv)
            .map(|k| (k, mv + k))
            .chain((0..rest.len() / 2).map(|k| (2 * mv + k, 2 * mv + k + rest.len() / 2)));
        for (k, nk) in naturals {
            let (i, nat) = (bracket[k], bracket[nk]);
            let got = mate[k].map(|b| {
                if b < verts.len() {
                    verts[b]
                } else {
                    usize::MAX
                }
            });
            if got != Some(nat) {
                let why = if let Some(&(_, r)) =
                    players[i].met.iter().find(|(o, _)| *o == players[nat].id)
                {
                    Avoided::Rematch { round: r }
                } else if absolute_clash(i, nat) {
                    Avoided::Colour
                } else {
                    Avoided::Elsewhere
                };
                natural_notes.push((i, nat, why));
            }
        }
        let done: HashSet<usize> = pairs
            .iter()
            .flat_map(|&(i, j, _)| [i, j])
            .chain(bye)
            .collect();
        remaining.retain(|i| !done.contains(i) && !next_movers.contains(i));
        remaining.extend(&next_movers);
        movers = next_movers;
    }
    if !movers.is_empty() || (dummy && bye.is_none()) {
        return Err(SwissError::Impossible {
            round: input.round,
            players: n,
        });
    }
    Ok(finish(input, &players, &prefs, pairs, bye, natural_notes))
}

/// The lowest score of an eligible player who can have the bye with everyone else paired
/// (`None`: no complete pairing at all). One matching over the field (the last vertex is the
/// bye): every pair weighs the same, the bye's edge a little more the lower its player's score.
fn lowest_bye_score(
    players: &[&SwissPlayer],
    scores: &[Points],
    compatible: &dyn Fn(usize, usize) -> bool,
    bye_ok: &dyn Fn(usize) -> bool,
) -> Option<Points> {
    let n = players.len();
    let pair = 2 * scores.len() as Weight + 2;
    let mut edges = Vec::new();
    for (i, p) in players.iter().enumerate() {
        for j in i + 1..n {
            if compatible(i, j) {
                edges.push((i, j, pair));
            }
        }
        if bye_ok(i) {
            let level = scores.iter().filter(|&&s| s > p.score).count();
            edges.push((i, n, pair + level as Weight));
        }
    }
    let mate = max_weight_matching(n + 1, &edges);
    if mate.iter().any(Option::is_none) {
        return None;
    }
    mate[n].map(|v| players[v].score)
}

/// What the weight of one edge depends on.
struct EdgeCtx<'a> {
    players: &'a [&'a SwissPlayer],
    prefs: &'a [Option<Pref>],
    single_game: bool,
    /// The two players (`i` before `j` in the bracket, or the bracket before the lower ones).
    i: usize,
    j: usize,
    /// Both in the bracket being paired.
    in_bracket: bool,
    /// A pair of the next bracket: the lower player from the next score group (C7).
    next_pair: bool,
    /// Both must have the same colour (C3).
    clash: bool,
    /// The bracket's distinct scores, highest first.
    bracket_scores: &'a [Points],
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
/// - colours (single-game rounds): -1 for a pair whose preferences cannot both be granted
///   (C10), -1 more when a strong one is refused (C11);
/// - floats: the players paired here who floated down last round without floating down again
///   (C12), -1 for a pair that floats up again a player who floated up last round (C13), the
///   same for two rounds back (C14, C15); then the same counts by score, highest first
///   (C16-C19: the repeated floaters' score differences, smallest first).
///
/// Among the pairings equally good by all of these, [`settle`] takes FIDE's first.
fn edge_row(c: &EdgeCtx) -> Row {
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

/// Room below the criteria for the order of one bracket of `m` players: the largest sum of the
/// order's bonuses over a matching in [`settle`] stays under it.
fn order_reserve(m: usize) -> Weight {
    let m = m as Weight;
    (m + 1).pow(3) + m + 2
}

/// A bracket's graph while its pairs are settled one by one: the criteria's weights (already
/// scaled by [`order_reserve`]), edges cut as decisions rule them out, vertices fixed in pairs.
struct Graph {
    n: usize,
    edges: Vec<(usize, usize, Weight)>,
    alive: Vec<bool>,
    /// Each vertex's edges.
    at: Vec<Vec<usize>>,
    fixed: Vec<Option<usize>>,
}

impl Graph {
    fn new(n: usize, edges: Vec<(usize, usize, Weight)>) -> Graph {
        let mut at = vec![Vec::new(); n];
        for (k, &(a, b, _)) in edges.iter().enumerate() {
            at[a].push(k);
            at[b].push(k);
        }
        Graph {
            n,
            alive: vec![true; edges.len()],
            edges,
            at,
            fixed: vec![None; n],
        }
    }

    /// A maximum-weight matching of the vertices not fixed, each edge `(a, b)` (`a < b`) weighing
    /// its criteria plus `bonus(a, b)`; the fixed vertices keep their partners.
    fn solve(&self, bonus: &dyn Fn(usize, usize) -> Weight) -> Vec<Option<usize>> {
        let mut index = vec![usize::MAX; self.n];
        let mut back = Vec::new();
        for (v, slot) in index.iter_mut().enumerate() {
            if self.fixed[v].is_none() {
                *slot = back.len();
                back.push(v);
            }
        }
        let edges: Vec<(usize, usize, Weight)> = self
            .edges
            .iter()
            .zip(&self.alive)
            .filter(|&(&(a, b, _), &alive)| {
                alive && self.fixed[a].is_none() && self.fixed[b].is_none()
            })
            .map(|(&(a, b, w), _)| (index[a], index[b], w + bonus(a, b)))
            .collect();
        let mate = max_weight_matching(back.len(), &edges);
        let mut out = self.fixed.clone();
        for (k, m) in mate.into_iter().enumerate() {
            out[back[k]] = m.map(|j| back[j]);
        }
        out
    }

    /// Cut `v`'s edges to the vertices `keep` refuses.
    fn cut(&mut self, v: usize, keep: impl Fn(usize) -> bool) {
        for &k in &self.at[v] {
            let (a, b, _) = self.edges[k];
            if !keep(if a == v { b } else { a }) {
                self.alive[k] = false;
            }
        }
    }

    fn has_edge(&self, v: usize, u: usize) -> bool {
        self.at[v].iter().any(|&k| {
            let (a, b, _) = self.edges[k];
            self.alive[k] && (a == u || b == u)
        })
    }

    fn fix(&mut self, a: usize, b: usize) {
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
    }

    fn free(&self, v: usize) -> bool {
        self.fixed[v].is_none()
    }
}

/// Of the pairings of a bracket equally good by every criterion, FIDE's first (C.04.3: the
/// first candidate in the sequence of S2 transpositions and S1-S2 exchanges), decided one
/// choice at a time, each kept only if an optimal pairing with it (and the choices before it)
/// exists: a small bonus below the criteria on the edges of the choice tried, and one
/// matching. Vertices: the bracket's `mv` movers (highest score first), its residents, then
/// the lower players and the bye's dummy; `mate` is an optimal matching by the criteria alone.
///
/// 1. The movers paired in the bracket: of each score, the highest-ranked for whom it can be.
/// 2. Their opponents, in order: each the highest-ranked resident that can be.
/// 3. The remainder (the residents left): S1 its first P players (P the pairs it makes), S2
///    the rest. Fewest exchanges (S1 players not heading a pair), then the smallest sum of the
///    heads' numbers (the smallest difference of the exchanged players' numbers); then the S1
///    players moved to S2 the lowest possible, those of S2 moved to S1 the highest possible.
/// 4. Each head in order: the highest-ranked partner among the others that can be. Whoever is
///    left floats down (or has the bye).
///
/// A choice the matching already makes is not tried again (it is then the best there is).
#[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
fn settle(
    g: &mut Graph,
    mut mate: Vec<Option<usize>>,
    mv: usize,
    score: &[Points],
) -> Vec<Option<usize>> {
    let m = score.len();
    let resident = |v: usize| (mv..m).contains(&v);
    let in_resident = |mate: &[Option<usize>], v: usize| mate[v].is_some_and(resident);
    // 1. Which movers are paired.
    let mut paired = Vec::new();
    let mut k = 0;
    while k < mv {
        let end = (k..mv).find(|&v| score[v] != score[k]).unwrap_or(mv);
        let mut can = (k..end).filter(|&v| in_resident(&mate, v)).count();
        let mut left = end - k;
        for v in k..end {
            if can == 0 {
                break;
            }
            if left > can && !in_resident(&mate, v) {
                mate = g.solve(&|a, b| Weight::from(a == v && resident(b)));
            }
            left -= 1;
            if in_resident(&mate, v) {
                can -= 1;
                g.cut(v, resident);
                paired.push(v);
            }
        }
        k = end;
    }
    // 2. Their opponents.
    for &v in &paired {
        let best = (mv..m).find(|&u| g.free(u) && g.has_edge(v, u));
        if mate[v] != best {
            mate = g.solve(&|a, b| {
                if a == v && resident(b) {
                    (m - b) as Weight
                } else {
                    0
                }
            });
        }
        if let Some(u) = mate[v] {
            g.fix(v, u);
        }
    }
    // 3. The remainder's exchanges.
    let rest: Vec<usize> = (mv..m).filter(|&v| g.free(v)).collect();
    let r = rest.len();
    let mut pos = vec![None; g.n];
    for (i, &v) in rest.iter().enumerate() {
        pos[v] = Some(i);
    }
    let head = |mate: &[Option<usize>], v: usize| mate[v].is_some_and(|u| u > v && u < m);
    let pairs = rest.iter().filter(|&&v| head(&mate, v)).count();
    // A head in S1 outweighs any sum of the numbers' part (at most 2r a pair).
    let unit = pairs as Weight * (2 * r as Weight + 2) + 1;
    let exchange = |a: usize, b: usize| match (pos[a], pos[b]) {
        (Some(i), Some(_)) => (if i < pairs { unit } else { 0 }) + 2 * (r - i) as Weight,
        _ => 0,
    };
    let pos = &pos;
    let later = |i: usize| move |u: usize| pos[u].is_some_and(|j| j > i);
    if !rest[..pairs].iter().all(|&v| head(&mate, v)) {
        mate = g.solve(&exchange);
    }
    let exchanges = rest[..pairs].iter().filter(|&&v| !head(&mate, v)).count();
    let mut left = exchanges;
    for i in (0..pairs).rev() {
        if left == 0 {
            break;
        }
        let x = rest[i];
        if head(&mate, x) {
            mate = g.solve(&|a, b| exchange(a, b) - Weight::from(a == x && pos[b].is_some()));
        }
        if !head(&mate, x) {
            left -= 1;
            let after = later(i);
            g.cut(x, |u| !after(u));
        }
    }
    let mut left = exchanges;
    for (i, &y) in rest.iter().enumerate().skip(pairs) {
        if left <= 1 {
            break;
        }
        if !head(&mate, y) {
            mate = g.solve(&|a, b| exchange(a, b) + Weight::from(a == y && pos[b].is_some()));
        }
        if head(&mate, y) {
            left -= 1;
            g.cut(y, later(i));
        }
    }
    // 4. Heads with the others only, then each head's partner.
    let heads: Vec<bool> = (0..g.n)
        .map(|v| pos[v].is_some() && head(&mate, v))
        .collect();
    for (i, &x) in rest.iter().enumerate() {
        let after = later(i);
        g.cut(x, |u| !(after(u) && (!heads[x] || heads[u])));
    }
    for &x in &rest {
        if !heads[x] {
            continue;
        }
        let best = rest
            .iter()
            .copied()
            .find(|&u| u > x && g.free(u) && g.has_edge(x, u));
        if mate[x] != best {
            mate = g.solve(&|a, b| {
                if a == x && pos[b].is_some() {
                    (m - b) as Weight
                } else {
                    0
                }
            });
        }
        if let Some(u) = mate[x] {
            g.fix(x, u);
        }
    }
    mate
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

fn finish(
    input: &SwissInput,
    players: &[&SwissPlayer],
    prefs: &[Option<Pref>],
    mut pairs: Vec<(usize, usize, Points)>,
    bye: Option<usize>,
    natural_notes: Vec<(usize, usize, Avoided)>,
) -> super::state::Pairing {
    // Board order: the higher score of the pair, then the pair's total, then the better rank.
    let better = |i: usize, j: usize| {
        if (players[i].score, std::cmp::Reverse(players[i].rank))
            >= (players[j].score, std::cmp::Reverse(players[j].rank))
        {
            (i, j)
        } else {
            (j, i)
        }
    };
    pairs.sort_by(|&(a1, b1, _), &(a2, b2, _)| {
        let (h1, l1) = better(a1, b1);
        let (h2, l2) = better(a2, b2);
        let key = |h: usize, l: usize| {
            (
                std::cmp::Reverse(players[h].score),
                std::cmp::Reverse(players[h].score.0 + players[l].score.0),
                players[h].rank,
            )
        };
        key(h1, l1).cmp(&key(h2, l2))
    });
    let mut boards = Vec::new();
    let mut whys = Vec::new();
    for (k, &(i, j, group)) in pairs.iter().enumerate() {
        let (hi, lo) = better(i, j);
        let (first, second, granted) = allocate(input, players, prefs, hi, lo, k as u32 + 1);
        let mut notes = Vec::new();
        if players[hi].score == players[lo].score {
            notes.push(Note::SameGroup);
        } else {
            notes.push(Note::Floated {
                player: players[hi].id,
                from: players[hi].score,
                to: group,
            });
        }
        for &(a, nat, why) in &natural_notes {
            if a == i || a == j {
                notes.push(Note::NaturalAvoided {
                    player: players[a].id,
                    natural: players[nat].id,
                    why,
                });
            }
        }
        notes.push(Note::Colours {
            granted: granted.map(|g| players[g].id),
        });
        boards.push((players[first].id, players[second].id));
        whys.push(BoardWhy {
            first: players[first].id,
            second: players[second].id,
            scores: (players[first].score, players[second].score),
            notes,
        });
    }
    let bye_why = bye.map(|b| ByeWhy {
        player: players[b].id,
        score: players[b].score,
        skipped: players
            .iter()
            .filter(|p| {
                !p.bye_ok
                    && (p.score, std::cmp::Reverse(p.rank))
                        < (players[b].score, std::cmp::Reverse(players[b].rank))
            })
            .map(|p| p.id)
            .collect(),
    });
    super::state::Pairing {
        round: input.round,
        boards,
        bye: bye.map(|b| players[b].id),
        explanation: Explanation {
            method: Method::Swiss,
            boards: whys,
            bye: bye_why,
            rematches: Vec::new(),
        },
    }
}

/// Who is first (Red in game 1) on a board: (first, second, whose preference decided).
fn allocate(
    input: &SwissInput,
    players: &[&SwissPlayer],
    prefs: &[Option<Pref>],
    hi: usize,
    lo: usize,
    board: u32,
) -> (usize, usize, Option<usize>) {
    let as_first = |p: usize, c: Color| if c == Color::Red { p } else { other(p, hi, lo) };
    match (prefs[hi], prefs[lo]) {
        (Some(a), Some(b)) if a.colour != b.colour => (
            as_first(hi, a.colour),
            other(as_first(hi, a.colour), hi, lo),
            None,
        ),
        (Some(a), None) => (
            as_first(hi, a.colour),
            other(as_first(hi, a.colour), hi, lo),
            Some(hi),
        ),
        (None, Some(b)) => (
            as_first(lo, b.colour),
            other(as_first(lo, b.colour), hi, lo),
            Some(lo),
        ),
        (Some(a), Some(b)) => {
            let winner = if a.strength != b.strength {
                if a.strength > b.strength { hi } else { lo }
            } else if let Some(c) = last_difference(&players[hi].colours, &players[lo].colours) {
                // Alternate from the last round they had different colours: hi had `c`.
                let f = as_first(hi, c.opponent());
                return (f, other(f, hi, lo), None);
            } else {
                hi
            };
            let c = prefs[winner].map_or(Color::Red, |p| p.colour);
            let f = as_first(winner, c);
            (f, other(f, hi, lo), Some(winner))
        }
        (None, None) => {
            let _ = input;
            let c = if board % 2 == 1 {
                Color::Red
            } else {
                Color::White
            };
            let f = as_first(hi, c);
            (f, other(f, hi, lo), None)
        }
    }
}

fn other(p: usize, a: usize, b: usize) -> usize {
    if p == a { b } else { a }
}

/// The colour `a` had in the latest round (counting back from each one's last) where the two
/// had different colours.
fn last_difference(a: &[Color], b: &[Color]) -> Option<Color> {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(&x, _)| x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: u32, score: u32, met: &[u32]) -> SwissPlayer {
        SwissPlayer {
            id,
            rank: id,
            score: Points(score),
            met: met.iter().map(|&o| (o, 1)).collect(),
            bye_ok: true,
            colours: Vec::new(),
            last_float: Float::None,
            float_two_back: Float::None,
        }
    }

    #[test]
    fn round_one_pairs_top_half_against_bottom_half() {
        let input = SwissInput {
            round: 1,
            single_game: true,
            topscorers: None,
            players: (1..=6).map(|i| player(i, 0, &[])).collect(),
        };
        let p = pair(&input).unwrap();
        // 1-4, 5-2, 3-6: the higher seed alternates Red and White down the boards.
        assert_eq!(p.boards, vec![(1, 4), (5, 2), (3, 6)]);
        assert_eq!(p.bye, None);
    }

    #[test]
    fn odd_field_gives_the_bye_to_the_lowest_eligible() {
        let mut players: Vec<SwissPlayer> = (1..=5).map(|i| player(i, 0, &[])).collect();
        players[4].bye_ok = false;
        let input = SwissInput {
            round: 2,
            single_game: false,
            topscorers: None,
            players,
        };
        let p = pair(&input).unwrap();
        assert_eq!(p.bye, Some(4));
        assert_eq!(p.explanation.bye.as_ref().unwrap().skipped, vec![5]);
    }

    #[test]
    fn rematches_are_avoided_and_explained() {
        // 1 and 3 met, 2 and 4; natural pairing of four level players is 1-3, 2-4. The Dutch
        // sequence tries S2's transpositions before any exchange: 1-4, 2-3 (not 1-2, 3-4).
        let input = SwissInput {
            round: 2,
            single_game: false,
            topscorers: None,
            players: vec![
                player(1, 2, &[3]),
                player(2, 2, &[4]),
                player(3, 2, &[1]),
                player(4, 2, &[2]),
            ],
        };
        let p = pair(&input).unwrap();
        let mut boards: Vec<(u32, u32)> = p
            .boards
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        boards.sort();
        assert_eq!(boards, vec![(1, 4), (2, 3)]);
        let why = p.explanation.board_of(1).unwrap();
        assert!(why.notes.contains(&Note::NaturalAvoided {
            player: 1,
            natural: 3,
            why: Avoided::Rematch { round: 1 }
        }));
    }

    #[test]
    fn an_odd_group_floats_its_lowest_player_down() {
        // Three on 2 points, three on 0: player 3 floats to meet 4.
        let input = SwissInput {
            round: 2,
            single_game: false,
            topscorers: None,
            players: vec![
                player(1, 2, &[]),
                player(2, 2, &[]),
                player(3, 2, &[]),
                player(4, 0, &[]),
                player(5, 0, &[]),
                player(6, 0, &[]),
            ],
        };
        let p = pair(&input).unwrap();
        let b = p.explanation.board_of(3).unwrap();
        assert!(
            b.notes
                .iter()
                .any(|n| matches!(n, Note::Floated { player: 3, .. }))
        );
        let opp = if b.first == 3 { b.second } else { b.first };
        assert_eq!(opp, 4, "the floater meets the top of the next group");
    }

    /// The opponents of `id` in the pairing.
    fn opponent(p: &crate::event::Pairing, id: u32) -> Option<u32> {
        p.boards.iter().find_map(|&(a, b)| {
            if a == id {
                Some(b)
            } else if b == id {
                Some(a)
            } else {
                None
            }
        })
    }

    #[test]
    fn psd_pairs_the_highest_mover_first() {
        // C6: 1 (3 points) and 2 (2½), who met, both come down to the 2-point group of player 3:
        // 1-3 with 2 floating gives the PSD [2, 2], 2-3 with 1 floating [3, 1].
        let input = SwissInput {
            round: 4,
            single_game: false,
            topscorers: None,
            players: vec![
                player(1, 6, &[2]),
                player(2, 5, &[1]),
                player(3, 4, &[]),
                player(4, 0, &[]),
                player(5, 0, &[]),
                player(6, 0, &[]),
            ],
        };
        let p = pair(&input).unwrap();
        assert_eq!(opponent(&p, 1), Some(3));
        assert_eq!(opponent(&p, 2), Some(4));
    }

    /// Round 3: players 1-3 on 2 points, 4-6 on none, none of them met; player `id` floated
    /// `last` in the round before.
    fn three_level_over_three(id: u32, last: Float) -> SwissInput {
        let mut players: Vec<_> = (1..=6)
            .map(|i| player(i, if i <= 3 { 2 } else { 0 }, &[]))
            .collect();
        players[id as usize - 1].last_float = last;
        SwissInput {
            round: 3,
            single_game: false,
            topscorers: None,
            players,
        }
    }

    #[test]
    fn a_player_who_floated_down_last_round_does_not_float_again() {
        // C12: of three level players the lowest (3) would float; it floated down last round,
        // so 2 floats instead and 3 meets 1.
        let input = three_level_over_three(3, Float::Down);
        let p = pair(&input).unwrap();
        assert_eq!(opponent(&p, 3), Some(1));
        assert_eq!(opponent(&p, 2), Some(4));
    }

    #[test]
    fn a_player_who_floated_up_last_round_does_not_float_up_again() {
        // C13: 3 floats down to the group of 4, 5, 6; its natural opponent 4 floated up last
        // round, so 3 meets 5 and 4 stays in its group.
        let input = three_level_over_three(4, Float::Up);
        let p = pair(&input).unwrap();
        assert_eq!(opponent(&p, 3), Some(5));
        assert_eq!(opponent(&p, 4), Some(6));
    }

    #[test]
    fn impossible_rounds_are_refused() {
        let input = SwissInput {
            round: 2,
            single_game: false,
            topscorers: None,
            players: vec![player(1, 2, &[2]), player(2, 0, &[1])],
        };
        assert!(matches!(pair(&input), Err(SwissError::Impossible { .. })));
    }

    #[test]
    fn colour_preferences() {
        use Color::{Red, White};
        assert_eq!(preference(&[]), None);
        assert_eq!(
            preference(&[Red]),
            Some(Pref {
                colour: White,
                strength: Strength::Strong
            })
        );
        assert_eq!(
            preference(&[Red, White]),
            Some(Pref {
                colour: Red,
                strength: Strength::Mild
            })
        );
        assert_eq!(
            preference(&[White, Red, Red]),
            Some(Pref {
                colour: White,
                strength: Strength::Absolute
            })
        );
    }
}
