//! What the review's graph shows, from the engine's analysis of the game
//! ([`crate::tui::practice_engine::ReviewMarks`]): the evaluation of every position for the
//! side at the bottom of the board, the endgame databases' verdicts where they know the
//! position, and the biggest swings the "next mistake" key stops at. Also the review of a
//! match game, with the time of each move from the match's records.

use super::practice_engine::ReviewMarks;
use super::review::ReviewScreen;
use crate::director::{GameRecord, Match};
use crate::egdb::{Egdb, Wdl};
use crate::engine::{Color, Game, Position};
use crate::search::{Mark, Score};
use crate::tui::widgets::{Eval, EvalGraphView, Verdict, format_clock};

/// At most this many swings are stops of the "next mistake" key: the biggest.
pub(crate) const STOPS: usize = 8;

/// The analysis of `game` in `marks`, when it is of this game (same start, same moves).
pub(super) fn analysis_of<'a>(
    marks: Option<&'a ReviewMarks>,
    game: &Game,
) -> Option<&'a ReviewMarks> {
    marks.filter(|r| {
        r.start == *game.start()
            && r.reviewed.len() == game.moves().len()
            && r.reviewed
                .iter()
                .zip(game.moves())
                .all(|(a, b)| a.played == *b)
    })
}

/// A score for Red as an [`Eval`] for `side`.
fn eval_of(red: Score, side: Color) -> Eval {
    let s = if side == Color::Red { red } else { red.flip() };
    let verdict = if s.0 > 0 { Verdict::Win } else { Verdict::Loss };
    if s.is_database() {
        Eval::Database(verdict)
    } else if s.is_known() {
        Eval::Forced(verdict)
    } else {
        Eval::Men(s.0)
    }
}

/// The databases' verdict on `pos` for `side`, when they know it.
fn database(egdb: &Egdb, pos: &Position, side: Color) -> Option<Eval> {
    let wdl = egdb.probe(pos)?;
    let mover = match wdl {
        Wdl::Win => Verdict::Win,
        Wdl::Draw => Verdict::Draw,
        Wdl::Loss => Verdict::Loss,
    };
    let v = match (mover, pos.turn() == side) {
        (v, true) | (v @ Verdict::Draw, false) => v,
        (Verdict::Win, false) => Verdict::Loss,
        (Verdict::Loss, false) => Verdict::Win,
    };
    Some(Eval::Database(v))
}

/// The evaluation of every position of `game` for `side` (the start first); empty without
/// an analysis of this game.
pub(super) fn evals(
    marks: Option<&ReviewMarks>,
    game: &Game,
    side: Color,
    egdb: Option<&Egdb>,
) -> Vec<Option<Eval>> {
    let Some(r) = analysis_of(marks, game) else {
        return Vec::new();
    };
    let start = r.reviewed.first().map(|m| {
        let red = if m.mover == Color::Red {
            m.best_score
        } else {
            m.best_score.flip()
        };
        eval_of(red, side)
    });
    let after = r
        .reviewed
        .iter()
        .map(|m| Some(eval_of(m.red_score_after, side)));
    std::iter::once(start)
        .chain(after)
        .zip(game.positions())
        .map(|(e, pos)| egdb.and_then(|db| database(db, pos, side)).or(e))
        .collect()
}

/// The biggest swings (a mistake or a blunder, at most [`STOPS`] of them, the biggest first
/// chosen), as the plies they lead to, in the order of the game.
pub(super) fn stops(marks: Option<&ReviewMarks>, game: &Game) -> Vec<(usize, Mark)> {
    let Some(r) = analysis_of(marks, game) else {
        return Vec::new();
    };
    let mut big: Vec<_> = r
        .reviewed
        .iter()
        .filter_map(|m| m.mark.filter(|&k| k >= Mark::Mistake).map(|k| (m, k)))
        .collect();
    big.sort_by_key(|(m, _)| std::cmp::Reverse(m.swing));
    big.truncate(STOPS);
    let mut out: Vec<(usize, Mark)> = big.into_iter().map(|(m, k)| (m.ply + 1, k)).collect();
    out.sort_unstable();
    out
}

impl ReviewScreen {
    /// The graph as it stands: the analysis, the cursor, the times.
    pub fn graph(&self) -> EvalGraphView {
        // The side at the bottom of the board: a player who turns the board to sit behind
        // their men reads the curve as their own.
        let side = if self.flipped {
            Color::Red
        } else {
            Color::White
        };
        let egdb = self.engine.egdb();
        let marks = self.engine.review.as_ref();
        EvalGraphView {
            side: Some(side),
            evals: evals(marks, &self.game, side, egdb.as_deref()),
            plies: self.game.moves().len(),
            cursor: self.ply,
            stops: stops(marks, &self.game),
            spent: self.spent.clone(),
            first: Some(self.game.start().turn()),
            progress: self.engine.review_progress,
        }
    }

    /// The review of a game of a match: its players, result and the time of every move.
    pub fn of_match_game(m: &Match, g: &GameRecord) -> ReviewScreen {
        let title = format!(
            "Review · ballot {}, game {}: {} v {}",
            g.ballot,
            g.number,
            m.name(g.red),
            m.name(g.red.other())
        );
        let mut review = ReviewScreen::new(g.game.clone(), title);
        review.players = [g.red_name.clone(), g.white_name.clone()];
        review.info = vec![format!("Opening {}", g.opening.reference())];
        if let Some(r) = &g.result {
            review.info.push(format!("Result {r}"));
        }
        review.spent = g.moves.iter().map(|r| Some(r.spent_ms)).collect();
        review.clocks = g
            .moves
            .iter()
            .map(|r| r.remaining_ms.map(format_clock))
            .collect();
        review
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_score_is_a_verdict_for_the_side_named() {
        assert_eq!(
            eval_of(Score::win_in(3), Color::Red),
            Eval::Forced(Verdict::Win)
        );
        // Database results sit below the forced ones: 20,000 less the plies.
        let db = Score(19_990);
        assert!(db.is_database());
        assert_eq!(eval_of(db, Color::Red), Eval::Database(Verdict::Win));
        assert_eq!(eval_of(db, Color::White), Eval::Database(Verdict::Loss));
        assert_eq!(eval_of(Score(-45), Color::White), Eval::Men(45));
    }
}
