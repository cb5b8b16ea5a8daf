//! Multi-PV: the best few root moves, each with its exact score, by searching the root again
//! at each depth without the moves already found.

use super::{ASPIRATION_DEPTH, Search};
use crate::engine::{Move, Position};
use crate::search::alphabeta::ordering::search_moves;
use crate::search::alphabeta::{MAX_DEPTH, MultiInfo, PvLine};
use crate::search::score::Score;
use crate::search::zobrist;
use std::time::Instant;

impl Search<'_> {
    /// Iterative deepening of the best `lines` root moves (at least one, at most all): at each
    /// depth the first line is the ordinary root search, each next one the root searched
    /// without the moves of the lines before it. `progress` is called after each completed
    /// depth; an unfinished depth is dropped.
    pub(in crate::search::alphabeta) fn iterate_lines(
        &mut self,
        pos: &Position,
        lines: usize,
        mut progress: impl FnMut(&MultiInfo),
    ) -> MultiInfo {
        let root_hash = zobrist::hash(pos);
        let all: Vec<Move> = search_moves(pos).to_vec();
        let mut info = MultiInfo::default();
        let wanted = lines.clamp(1, all.len().max(1));
        // The moves in the order to try them: the last depth's lines first.
        let mut order = all.clone();
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in (1..=max_depth).take_while(|_| !all.is_empty()) {
            self.began = Instant::now();
            let found = self.lines_at(pos, root_hash, &order, wanted, depth, &info);
            self.root_subset = false;
            if self.aborted {
                break;
            }
            let firsts: Vec<Move> = found.iter().map(|l| l.pv[0]).collect();
            order = firsts.clone();
            order.extend(all.iter().filter(|m| !firsts.contains(m)));
            info = MultiInfo {
                depth,
                lines: found,
                nodes: self.nodes,
            };
            progress(&info);
            // Forced results inside the horizon will not change with more depth.
            let decided = info.lines.iter().all(|l| {
                l.score
                    .plies_to_end()
                    .is_some_and(|p| p.unsigned_abs() <= depth)
            });
            if decided || self.out_of_budget() {
                break;
            }
        }
        info
    }

    /// The best `wanted` lines at `depth`, best first (fewer when aborted); `last` is the
    /// previous depth's, whose scores centre the aspiration windows.
    fn lines_at(
        &mut self,
        pos: &Position,
        root_hash: u64,
        order: &[Move],
        wanted: usize,
        depth: u32,
        last: &MultiInfo,
    ) -> Vec<PvLine> {
        let mut rest = order.to_vec();
        let mut found: Vec<PvLine> = Vec::with_capacity(wanted);
        while found.len() < wanted && !rest.is_empty() {
            self.root_subset = !found.is_empty();
            let guess = last
                .lines
                .get(found.len())
                .map(|l| l.score.0)
                .filter(|_| self.options.aspiration && depth >= ASPIRATION_DEPTH);
            let score = self.aspirate(pos, root_hash, &mut rest, depth as i32, guess);
            let pv = self.w.pv[0].clone();
            let Some(&first) = pv.first().filter(|_| !self.aborted) else {
                break;
            };
            let score = self.probe.move_score(pos, &first, Score(score));
            found.push(PvLine { score, pv });
            rest.retain(|m| *m != first);
        }
        // Each line's best is at most the one before's; the databases' values may reorder.
        found.sort_by_key(|l| std::cmp::Reverse(l.score));
        found
    }
}
