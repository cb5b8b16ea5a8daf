//! One bracket at a time: a score group with the players floated down into it, paired by a
//! maximum-weight matching over it and every lower player.

use super::criteria::{EdgeCtx, Row, bye_row, edge_row, weights};
use super::settle::{Graph, settle};
use super::{Field, SwissError};
use crate::director::Points;
use crate::event::explain::Avoided;
use std::collections::HashSet;

/// A bracket and the graph it is paired over.
pub(super) struct Bracket {
    /// The bracket's players: the movers (floated down into it), then the score group's.
    players: Vec<usize>,
    /// How many of them are movers.
    movers: usize,
    /// The graph's vertices: the bracket, then the lower players (then the bye's dummy).
    verts: Vec<usize>,
    /// The bye's vertex, in an odd field.
    dummy: Option<usize>,
    /// The score group's score.
    group_score: Points,
    /// The next score group's score (the group's own for the last).
    next_score: Points,
    /// The lowest score group: only here does a player get the bye.
    last: bool,
    /// The distinct scores of the bracket, highest first (movers' scores, then the group's).
    scores: Vec<Points>,
    /// A next score group has players left.
    has_next: bool,
}

/// What a bracket's pairing gives.
pub(super) struct Paired {
    /// The pairs, each with the group's score.
    pub(super) pairs: Vec<(usize, usize, Points)>,
    /// The bye, in the lowest group.
    pub(super) bye: Option<usize>,
    /// The players floated down into the next bracket.
    pub(super) movers: Vec<usize>,
    /// Natural opponents not given, and why.
    pub(super) notes: Vec<(usize, usize, Avoided)>,
    /// Every player floated down is paired in the next score group or has the bye (the
    /// next bracket then decides who has the bye: C9 counts there).
    pub(super) single: bool,
}

impl Bracket {
    /// The bracket of score group `gi` (of the field's distinct `scores`, highest first): the
    /// `movers` and the group's players still `remaining`; `None` when it is empty.
    pub(super) fn new(
        field: &Field,
        scores: &[Points],
        gi: usize,
        movers: &[usize],
        remaining: &[usize],
    ) -> Option<Bracket> {
        let players = &field.players;
        let group_score = scores[gi];
        let last = gi + 1 == scores.len();
        let mut bracket: Vec<usize> = movers.to_vec();
        bracket.extend(
            remaining
                .iter()
                .copied()
                .filter(|&i| players[i].score == group_score && !movers.contains(&i)),
        );
        if bracket.is_empty() {
            return None;
        }
        let in_bracket: HashSet<usize> = bracket.iter().copied().collect();
        let lower: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|i| !in_bracket.contains(i))
            .collect();
        let next_score = scores.get(gi + 1).copied().unwrap_or(group_score);
        let mut verts: Vec<usize> = bracket.clone();
        verts.extend(&lower);
        let dummy = field.odd().then_some(verts.len());
        let mut bracket_scores: Vec<Points> = bracket.iter().map(|&i| players[i].score).collect();
        bracket_scores.sort_by(|x, y| y.cmp(x));
        bracket_scores.dedup();
        let has_next = !last && lower.iter().any(|&i| players[i].score == next_score);
        Some(Bracket {
            players: bracket,
            movers: movers.len(),
            verts,
            dummy,
            group_score,
            next_score,
            last,
            scores: bracket_scores,
            has_next,
        })
    }

    /// Pair the bracket: its pairs, the bye if it falls here, the players floated down. With
    /// `counts_bye`, the bracket decides who has the bye: the fewest unplayed rounds (C9).
    pub(super) fn pair(&self, field: &Field, counts_bye: bool) -> Result<Paired, SwissError> {
        let mate = self.matching(field, counts_bye)?;
        let mut out = Paired {
            pairs: Vec::new(),
            bye: None,
            movers: Vec::new(),
            notes: Vec::new(),
            single: self.single(field, &mate),
        };
        for (a, &i) in self.players.iter().enumerate() {
            let Some(b) = mate[a] else { continue };
            if b < self.players.len() {
                if a < b {
                    out.pairs.push((i, self.verts[b], self.group_score));
                }
            } else if Some(b) == self.dummy && self.last {
                out.bye = Some(i);
            } else {
                out.movers.push(i);
            }
        }
        out.notes = self.naturals_avoided(field, &mate);
        Ok(out)
    }

    /// Every player of the next bracket (floated down from here, or of the next score group)
    /// is paired in it or has the bye, by the matching `mate`: the one player it may float
    /// further down is the bye's (C9 counts there, as bbpPairings reads the 2025 rules).
    fn single(&self, field: &Field, mate: &[Option<usize>]) -> bool {
        let score = |a: usize| field.players[self.verts[a]].score;
        let n = self.players.len();
        (0..self.verts.len()).all(|a| {
            let next = match mate[a] {
                Some(b) if a < n => b >= n,
                _ => a >= n && score(a) == self.next_score,
            };
            !next || mate[a].is_none_or(|b| Some(b) == self.dummy || score(b) >= self.next_score)
        })
    }

    /// The edges' criteria (see [`edge_row`]); the bye's edges carry completion and, in a
    /// bracket that decides who has the bye, the receiver's unplayed rounds ([`bye_row`]).
    fn rows(&self, field: &Field, counts_bye: bool) -> Vec<(usize, usize, Row)> {
        let players = &field.players;
        let mut raw = Vec::new();
        let mut byes = Vec::new();
        for a in 0..self.verts.len() {
            for b in a + 1..self.verts.len() {
                let (i, j) = (self.verts[a], self.verts[b]);
                if !field.compatible(i, j) {
                    continue;
                }
                let inb = b < self.players.len();
                let row = edge_row(&EdgeCtx {
                    players,
                    prefs: &field.prefs,
                    single_game: field.input.single_game,
                    i,
                    j,
                    in_bracket: inb,
                    next_pair: self.has_next
                        && !inb
                        && players[i].score.min(players[j].score) == self.next_score,
                    clash: field.absolute_clash(i, j),
                    bracket_scores: &self.scores,
                });
                raw.push((a, b, row));
            }
            if let Some(d) = self.dummy
                && field.bye_ok(self.verts[a])
            {
                byes.push((a, d, players[self.verts[a]].unplayed));
            }
        }
        let bye_rows: Vec<(usize, usize, Row)> = byes
            .into_iter()
            .map(|(a, d, unplayed)| {
                let row = raw
                    .first()
                    .map_or_else(Row::default, |(_, _, l)| bye_row(l, unplayed, counts_bye));
                (a, d, row)
            })
            .collect();
        raw.extend(bye_rows);
        raw
    }

    /// The bracket's matching: optimal by the criteria, and FIDE's first of the equally good
    /// ([`settle`]).
    fn matching(&self, field: &Field, counts_bye: bool) -> Result<Vec<Option<usize>>, SwissError> {
        let nv = self.verts.len() + usize::from(self.dummy.is_some());
        let edges = weights(self.rows(field, counts_bye), nv, self.players.len())?;
        let mut graph = Graph::new(nv, edges);
        let first = graph.solve(&|_, _| 0);
        if first.iter().any(Option::is_none) {
            return Err(SwissError::Impossible {
                round: field.input.round,
                players: field.players.len(),
            });
        }
        let score: Vec<Points> = self
            .players
            .iter()
            .map(|&i| field.players[i].score)
            .collect();
        Ok(settle(&mut graph, first, self.movers, &score))
    }

    /// Natural opponents not given: movers against the top residents, then the remaining
    /// residents top half against bottom half.
    fn naturals_avoided(
        &self,
        field: &Field,
        mate: &[Option<usize>],
    ) -> Vec<(usize, usize, Avoided)> {
        let (bracket, players) = (&self.players, &field.players);
        let mv = self.movers.min(bracket.len() - self.movers);
        let rest = &bracket[2 * mv..];
        let naturals = (0..mv)
            .map(|k| (k, mv + k))
            .chain((0..rest.len() / 2).map(|k| (2 * mv + k, 2 * mv + k + rest.len() / 2)));
        let mut notes = Vec::new();
        for (k, nk) in naturals {
            let (i, nat) = (bracket[k], bracket[nk]);
            let got = mate[k].map(|b| {
                if b < self.verts.len() {
                    self.verts[b]
                } else {
                    usize::MAX
                }
            });
            if got != Some(nat) {
                let why = if let Some(&(_, r)) =
                    players[i].met.iter().find(|(o, _)| *o == players[nat].id)
                {
                    Avoided::Rematch { round: r }
                } else if field.absolute_clash(i, nat) {
                    Avoided::Colour
                } else {
                    Avoided::Elsewhere
                };
                notes.push((i, nat, why));
            }
        }
        notes
    }
}
