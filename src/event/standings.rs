//! Standings: players ordered by score, then by the division's tie-breaks in order (see
//! [`super::tiebreak`] for the definitions). Players still level after every tie-break share
//! the place.

use super::round_points::{RoundKind, RoundRecord, records, totals};
use super::settings::Format;
use super::state::Division;
use super::tiebreak::TieBreak;
use crate::director::Points;
use crate::engine::Color;

/// A tie-break value, exact: see [`Table::text`] for the published form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TieValue(pub i64);

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Place, 1 = first; players level share the first place of their group.
    pub place: usize,
    /// The last place of the group sharing `place` (equal to `place` when not shared).
    pub place_to: usize,
    /// The entrant's position in the division.
    pub entrant: usize,
    /// Points.
    pub score: Points,
    /// One value per tie-break of the division, in order (head-to-head: within the group it
    /// was applied to; `None` when it was not needed).
    pub values: Vec<Option<TieValue>>,
}

/// What the standings are computed from: every player's rounds and final scores.
pub struct Table {
    /// Rounds per entrant.
    pub records: Vec<Vec<RoundRecord>>,
    /// Final score per entrant.
    pub scores: Vec<Points>,
    /// Each entrant's score as their opponents' tie-breaks count it (Swiss: FIDE C.07 16.3, a
    /// requested bye followed only by voluntary unplayed rounds counts as a draw).
    pub adjusted: Vec<Points>,
    /// The most points a round gives (half points).
    pub round_max: u32,
    /// Unplayed rounds managed as in a Swiss (FIDE C.07 article 16); false in a round robin.
    swiss: bool,
}

/// A voluntary unplayed round (FIDE C.07 16.1.2): a requested bye (an announced absence, the
/// rounds before a late entry or after a withdrawal) or a forfeit loss (of the whole round, or
/// of every game of it).
pub(super) fn voluntary(r: &RoundRecord) -> bool {
    matches!(
        r.kind,
        RoundKind::Absent | RoundKind::RequestedBye | RoundKind::Withdrawn | RoundKind::ForfeitLoss
    ) || (r.all_forfeited() && !r.unplayed_win())
}

/// The score of `records` as opponents' tie-breaks count it: a requested bye (absence,
/// withdrawal) followed only by voluntary unplayed rounds, or in the last round, counts as a
/// draw of the round (FIDE C.07 16.2.5, 16.3.2); every other round as scored.
pub(super) fn adjusted_score(records: &[RoundRecord], round_max: u32) -> Points {
    let draw = round_max / 2;
    let total = records
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let requested = matches!(
                r.kind,
                RoundKind::Absent | RoundKind::RequestedBye | RoundKind::Withdrawn
            );
            if requested && records[k + 1..].iter().all(voluntary) {
                draw
            } else {
                r.points.0
            }
        })
        .fold(0u32, u32::saturating_add);
    Points(total)
}

impl Table {
    /// The table of a division after round `upto`.
    pub fn new(division: &Division, upto: u32) -> Table {
        let records = records(division, upto);
        let scores = totals(&records);
        let round_max = division.settings.round_max().0.max(1);
        let swiss = matches!(division.settings.format, Format::Swiss { .. });
        let adjusted = if swiss {
            records
                .iter()
                .map(|rs| adjusted_score(rs, round_max))
                .collect()
        } else {
            scores.clone()
        };
        Table {
            records,
            scores,
            adjusted,
            round_max,
            swiss,
        }
    }

    /// The value of a group-independent criterion for entrant `i` (head-to-head: `None`).
    pub fn value(&self, t: TieBreak, i: usize) -> Option<TieValue> {
        let rs = &self.records[i];
        let v = match t {
            TieBreak::Wins => rs.iter().flat_map(|r| &r.games).filter(|g| g.won).count() as i64,
            TieBreak::WhiteWins => rs
                .iter()
                .flat_map(|r| &r.games)
                .filter(|g| g.won && g.colour == Color::White)
                .count() as i64,
            TieBreak::Buchholz {
                cut_lowest,
                cut_highest,
            } => self.buchholz(i, cut_lowest, cut_highest),
            TieBreak::SonnebornBerger => rs
                .iter()
                .filter_map(|r| {
                    let opponent = match (self.opponent_counts(r), r.opponent) {
                        (true, Some(o)) => self.adjusted[o],
                        // A Swiss round without an opponent: a dummy with the player's score.
                        _ if self.swiss => self.scores[i],
                        _ => return None,
                    };
                    Some(i64::from(r.points.0) * i64::from(opponent.0))
                })
                .sum(),
            TieBreak::Progressive => {
                let mut run = 0i64;
                rs.iter()
                    .map(|r| {
                        run += i64::from(r.points.0);
                        run
                    })
                    .sum()
            }
            TieBreak::HeadToHead | TieBreak::HeadToHeadMso => return None,
        };
        Some(TieValue(v))
    }

    /// Buchholz of `i` (half points): each round's opponent score, a round without an opponent
    /// met (a bye, an absence, a forfeit either way, every game of the round forfeited)
    /// counting as a dummy with the player's own score (FIDE C.07 16.4); the `cut_lowest`
    /// lowest values dropped, in a Swiss those of voluntary unplayed rounds first (16.5), then
    /// the `cut_highest` highest.
    fn buchholz(&self, i: usize, cut_lowest: u32, cut_highest: u32) -> i64 {
        let mut vals: Vec<(i64, bool)> = self.records[i]
            .iter()
            .map(|r| match (self.opponent_counts(r), r.opponent) {
                (true, Some(o)) => (i64::from(self.adjusted[o].0), false),
                _ => (i64::from(self.scores[i].0), self.swiss && voluntary(r)),
            })
            .collect();
        for _ in 0..cut_lowest {
            let vur = vals
                .iter()
                .enumerate()
                .filter(|(_, v)| v.1)
                .min_by_key(|(_, v)| v.0)
                .map(|(k, _)| k);
            let lowest = vals.iter().enumerate().min_by_key(|(_, v)| v.0);
            match vur.or(lowest.map(|(k, _)| k)) {
                Some(k) => {
                    vals.swap_remove(k);
                }
                None => break,
            }
        }
        vals.sort_unstable();
        let keep = vals.len().saturating_sub(cut_highest as usize);
        vals[..keep].iter().map(|v| v.0).sum()
    }

    /// Whether round `r` counts its opponent's score: in a Swiss when they met over the board
    /// (every game forfeited is an unplayed round, FIDE C.07 16.1); in a round robin whenever
    /// the round was paired and played, forfeits included.
    fn opponent_counts(&self, r: &RoundRecord) -> bool {
        if self.swiss { r.met() } else { r.kind.played() }
    }

    /// Points `i` scored against `j` in games played, and whether they met.
    fn against(&self, i: usize, j: usize) -> Option<u32> {
        let mut met = false;
        let mut pts = 0;
        for r in &self.records[i] {
            if r.opponent == Some(j) && r.met() {
                met = true;
                pts += r.points.0;
            }
        }
        met.then_some(pts)
    }

    /// Head-to-head values within `group`; none when not every two of them met (the criterion
    /// does not apply, and a published `0` would read as points lost to each other).
    fn head_to_head(&self, group: &[usize], mso: bool) -> Vec<Option<TieValue>> {
        if mso {
            return group
                .iter()
                .map(|&i| {
                    let others: Vec<usize> = group.iter().copied().filter(|&j| j != i).collect();
                    let beat = |i: usize, j: usize| match (self.against(i, j), self.against(j, i)) {
                        (Some(a), Some(b)) => a > b,
                        _ => false,
                    };
                    Some(if others.iter().all(|&j| beat(i, j)) {
                        TieValue(2)
                    } else if others.iter().all(|&j| beat(j, i)) {
                        TieValue(0)
                    } else {
                        TieValue(1)
                    })
                })
                .collect();
        }
        let all_met = group.iter().all(|&i| {
            group
                .iter()
                .all(|&j| i == j || self.against(i, j).is_some())
        });
        group
            .iter()
            .map(|&i| {
                if !all_met {
                    return None;
                }
                let s: u32 = group
                    .iter()
                    .filter(|&&j| j != i)
                    .filter_map(|&j| self.against(i, j))
                    .sum();
                Some(TieValue(i64::from(s)))
            })
            .collect()
    }

    /// The published form of a value: points with halves ("12½"), Sonneborn-Berger with two
    /// decimals, counts as integers.
    pub fn text(&self, t: TieBreak, v: TieValue) -> String {
        match t {
            TieBreak::Wins | TieBreak::WhiteWins | TieBreak::HeadToHeadMso => v.0.to_string(),
            TieBreak::Buchholz { .. } | TieBreak::Progressive | TieBreak::HeadToHead => {
                Points(v.0.clamp(0, i64::from(u32::MAX)) as u32).to_string()
            }
            TieBreak::SonnebornBerger => {
                // points (halves) x score (halves) / round max (halves) / 2.
                let den = 2 * i64::from(self.round_max);
                let hundredths = (v.0 * 100 + den / 2) / den;
                format!("{}.{:02}", hundredths / 100, hundredths % 100)
            }
        }
    }
}

/// The standings of a division after round `upto` (all rounds: `u32::MAX`).
pub fn standings(division: &Division, upto: u32) -> (Table, Vec<Standing>) {
    let table = Table::new(division, upto);
    let list = rank(&table, &division.settings.tiebreaks, |i| {
        // Display order inside a shared place: pairing order (rating, then entry).
        (
            std::cmp::Reverse(division.entrants[i].info.rating.unwrap_or(0)),
            i,
        )
    });
    (table, list)
}

/// Rank every entrant of `table` by score, then `tiebreaks`; ties broken for display by `key`.
pub(super) fn rank<K: Ord>(
    table: &Table,
    tiebreaks: &[TieBreak],
    key: impl Fn(usize) -> K,
) -> Vec<Standing> {
    let n = table.scores.len();
    let mut values: Vec<Vec<Option<TieValue>>> = (0..n)
        .map(|i| tiebreaks.iter().map(|&t| table.value(t, i)).collect())
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| table.scores[b].cmp(&table.scores[a]));
    // Groups of players still level, as ranges of `order`.
    let mut groups: Vec<(usize, usize)> = split(&order, |i| table.scores[i].0 as i64);
    for (k, &t) in tiebreaks.iter().enumerate() {
        let mut next = Vec::new();
        for (start, end) in groups {
            if end - start < 2 {
                next.push((start, end));
                continue;
            }
            if matches!(t, TieBreak::HeadToHead | TieBreak::HeadToHeadMso) {
                let group = &order[start..end];
                let h = table.head_to_head(group, t == TieBreak::HeadToHeadMso);
                for (&i, v) in group.iter().zip(h) {
                    values[i][k] = v;
                }
            }
            let slice = &mut order[start..end];
            slice.sort_by(|&a, &b| values[b][k].cmp(&values[a][k]));
            for (s, e) in split(slice, |i| values[i][k].map_or(i64::MIN, |v| v.0)) {
                next.push((start + s, start + e));
            }
        }
        groups = next;
    }
    let mut out = Vec::with_capacity(n);
    for (start, end) in groups {
        let slice = &mut order[start..end];
        slice.sort_by_key(|&i| key(i));
        for &i in slice.iter() {
            out.push(Standing {
                place: start + 1,
                place_to: end,
                entrant: i,
                score: table.scores[i],
                values: std::mem::take(&mut values[i]),
            });
        }
    }
    out
}

/// Runs of equal `value` in `order`, as (start, end) ranges.
fn split(order: &[usize], value: impl Fn(usize) -> i64) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..=order.len() {
        if k == order.len() || value(order[k]) != value(order[start]) {
            out.push((start, k));
            start = k;
        }
    }
    out
}
