//! The bye: how low a score it can go to with the rest of the field still pairable.

use super::SwissPlayer;
use crate::director::Points;
use crate::event::matching::{Weight, max_weight_matching};

/// The lowest score of an eligible player who can have the bye with everyone else paired
/// (`None`: no complete pairing at all), and whether in that pairing no one of the top score
/// is paired lower (then, the bye being of the top score, the first bracket decides who has
/// it). One matching over the field (the last vertex is the bye): every pair weighs the same,
/// the bye's edge a little more the lower its player's score.
pub(super) fn lowest_bye_score(
    players: &[&SwissPlayer],
    scores: &[Points],
    compatible: &dyn Fn(usize, usize) -> bool,
    bye_ok: &dyn Fn(usize) -> bool,
) -> Option<(Points, bool)> {
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
    let top = scores.first().copied().unwrap_or_default();
    let single = (0..n).all(|i| {
        players[i].score < top || mate[i].is_none_or(|j| j == n || players[j].score == top)
    });
    mate[n].map(|v| (players[v].score, single))
}
