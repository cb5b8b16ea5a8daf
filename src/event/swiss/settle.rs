//! The order among equally good pairings: a bracket's graph and FIDE's sequence of
//! transpositions and exchanges, settled one choice at a time.

use crate::director::Points;
use crate::event::matching::{Weight, max_weight_matching};

/// A bracket's graph while its pairs are settled one by one: the criteria's weights (already
/// scaled by `criteria::order_reserve`), edges cut as decisions rule them out, vertices fixed in
/// pairs.
pub(super) struct Graph {
    n: usize,
    edges: Vec<(usize, usize, Weight)>,
    alive: Vec<bool>,
    /// Each vertex's edges.
    at: Vec<Vec<usize>>,
    fixed: Vec<Option<usize>>,
}

impl Graph {
    pub(super) fn new(n: usize, edges: Vec<(usize, usize, Weight)>) -> Graph {
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
    pub(super) fn solve(&self, bonus: &dyn Fn(usize, usize) -> Weight) -> Vec<Option<usize>> {
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
pub(super) fn settle(
    g: &mut Graph,
    mut mate: Vec<Option<usize>>,
    mv: usize,
    score: &[Points],
) -> Vec<Option<usize>> {
    let m = score.len();
    let paired = movers_paired(g, &mut mate, mv, score);
    opponents(g, &mut mate, &paired, mv, m);
    let rest = Remainder::new(g, mv, m);
    rest.exchanges(g, &mut mate);
    rest.partners(g, mate)
}

/// 1. Which movers are paired in the bracket: of each score, the highest-ranked for whom it
///    can be. Their edges to the lower players and the bye are cut.
fn movers_paired(
    g: &mut Graph,
    mate: &mut Vec<Option<usize>>,
    mv: usize,
    score: &[Points],
) -> Vec<usize> {
    let m = score.len();
    let resident = |v: usize| (mv..m).contains(&v);
    let in_resident = |mate: &[Option<usize>], v: usize| mate[v].is_some_and(resident);
    let mut paired = Vec::new();
    let mut k = 0;
    while k < mv {
        let end = (k..mv).find(|&v| score[v] != score[k]).unwrap_or(mv);
        let mut can = (k..end).filter(|&v| in_resident(mate, v)).count();
        let mut left = end - k;
        for v in k..end {
            if can == 0 {
                break;
            }
            if left > can && !in_resident(mate, v) {
                *mate = g.solve(&|a, b| Weight::from(a == v && resident(b)));
            }
            left -= 1;
            if in_resident(mate, v) {
                can -= 1;
                g.cut(v, resident);
                paired.push(v);
            }
        }
        k = end;
    }
    paired
}

/// 2. The paired movers' opponents, in order: each the highest-ranked resident that can be.
fn opponents(g: &mut Graph, mate: &mut Vec<Option<usize>>, paired: &[usize], mv: usize, m: usize) {
    let resident = |v: usize| (mv..m).contains(&v);
    for &v in paired {
        let best = (mv..m).find(|&u| g.free(u) && g.has_edge(v, u));
        if mate[v] != best {
            *mate = g.solve(&|a, b| {
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
}

/// The remainder: the residents left once the movers are paired, in order (S1, then S2).
struct Remainder {
    rest: Vec<usize>,
    /// Each vertex's place in `rest`, if in it.
    pos: Vec<Option<usize>>,
    /// The bracket's size.
    m: usize,
}

impl Remainder {
    fn new(g: &Graph, mv: usize, m: usize) -> Remainder {
        let rest: Vec<usize> = (mv..m).filter(|&v| g.free(v)).collect();
        let mut pos = vec![None; g.n];
        for (i, &v) in rest.iter().enumerate() {
            pos[v] = Some(i);
        }
        Remainder { rest, pos, m }
    }

    /// `v` heads a pair of the bracket (its partner has a higher number).
    fn head(&self, mate: &[Option<usize>], v: usize) -> bool {
        mate[v].is_some_and(|u| u > v && u < self.m)
    }

    /// Whether a vertex comes after place `i` of the remainder.
    fn later(&self, i: usize) -> impl Fn(usize) -> bool + '_ {
        move |u: usize| self.pos[u].is_some_and(|j| j > i)
    }

    /// 3. The remainder's exchanges: fewest (S1 players not heading a pair), then the smallest
    ///    sum of the heads' numbers; then the S1 players moved to S2 the lowest possible, those
    ///    of S2 moved to S1 the highest possible.
    fn exchanges(&self, g: &mut Graph, mate: &mut Vec<Option<usize>>) {
        let (rest, pos) = (&self.rest, &self.pos);
        let r = rest.len();
        let pairs = rest.iter().filter(|&&v| self.head(mate, v)).count();
        // A head in S1 outweighs any sum of the numbers' part (at most 2r a pair).
        let unit = pairs as Weight * (2 * r as Weight + 2) + 1;
        let exchange = |a: usize, b: usize| match (pos[a], pos[b]) {
            (Some(i), Some(_)) => (if i < pairs { unit } else { 0 }) + 2 * (r - i) as Weight,
            _ => 0,
        };
        if !rest[..pairs].iter().all(|&v| self.head(mate, v)) {
            *mate = g.solve(&exchange);
        }
        let exchanges = rest[..pairs]
            .iter()
            .filter(|&&v| !self.head(mate, v))
            .count();
        self.exchange_from_s1(g, mate, pairs, exchanges, &exchange);
        self.exchange_from_s2(g, mate, pairs, exchanges, &exchange);
    }

    /// The S1 players moved to S2, the lowest possible: from the bottom of S1, each kept as a
    /// head if an optimal pairing allows it.
    fn exchange_from_s1(
        &self,
        g: &mut Graph,
        mate: &mut Vec<Option<usize>>,
        pairs: usize,
        exchanges: usize,
        exchange: &dyn Fn(usize, usize) -> Weight,
    ) {
        let mut left = exchanges;
        for i in (0..pairs).rev() {
            if left == 0 {
                break;
            }
            let x = self.rest[i];
            if self.head(mate, x) {
                *mate =
                    g.solve(&|a, b| exchange(a, b) - Weight::from(a == x && self.pos[b].is_some()));
            }
            if !self.head(mate, x) {
                left -= 1;
                let after = self.later(i);
                g.cut(x, |u| !after(u));
            }
        }
    }

    /// The S2 players moved to S1, the highest possible: from the top of S2, each made a head
    /// if an optimal pairing allows it.
    fn exchange_from_s2(
        &self,
        g: &mut Graph,
        mate: &mut Vec<Option<usize>>,
        pairs: usize,
        exchanges: usize,
        exchange: &dyn Fn(usize, usize) -> Weight,
    ) {
        let mut left = exchanges;
        for (i, &y) in self.rest.iter().enumerate().skip(pairs) {
            if left <= 1 {
                break;
            }
            if !self.head(mate, y) {
                *mate =
                    g.solve(&|a, b| exchange(a, b) + Weight::from(a == y && self.pos[b].is_some()));
            }
            if self.head(mate, y) {
                left -= 1;
                g.cut(y, self.later(i));
            }
        }
    }

    /// 4. Heads with the others only, then each head in order with the highest-ranked partner
    ///    that can be. Whoever is left floats down (or has the bye).
    fn partners(&self, g: &mut Graph, mut mate: Vec<Option<usize>>) -> Vec<Option<usize>> {
        let m = self.m;
        let heads: Vec<bool> = (0..g.n)
            .map(|v| self.pos[v].is_some() && self.head(&mate, v))
            .collect();
        for (i, &x) in self.rest.iter().enumerate() {
            let after = self.later(i);
            g.cut(x, |u| !(after(u) && (!heads[x] || heads[u])));
        }
        for &x in &self.rest {
            if !heads[x] {
                continue;
            }
            let best = self
                .rest
                .iter()
                .copied()
                .find(|&u| u > x && g.free(u) && g.has_edge(x, u));
            if mate[x] != best {
                mate = g.solve(&|a, b| {
                    if a == x && self.pos[b].is_some() {
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
}
