//! The endgame databases in the search: which nodes are probed, what a probe scores, and the
//! root's own database value.
//!
//! A probed node returns at once: a database win `w` plies from the root scores
//! [`DB_WIN`]` - w` (a loss the negation, a draw 0), so among database wins the search prefers
//! the nearest, and any forced result it finds itself (a real win in `n`) ranks above them.
//!
//! When the root itself is in the databases, probing every child would end the search at ply
//! 1 and never make progress (every move keeps a win). Then only positions with fewer pieces
//! than the root are probed (a capture: the conversion the search must find), and the root's
//! moves are cut down to those that keep its value, so the search can never throw it away.
//! Its leaves are scored from the databases too: a won leaf in the band below the conversions,
//! ordered by the evaluation (the hunt for the last pieces), a drawn one 0, so the search
//! steers by the value of every line, not only of the first move.

use super::score::{DB_WIN, KNOWN, Score};
use crate::egdb::{Board, Egdb, Material, Wdl};
use crate::engine::{Move, Position};

/// Pieces on the board.
#[inline]
fn pieces(pos: &Position) -> u32 {
    pos.occupied().count_ones()
}

/// How one search uses the databases.
#[derive(Clone, Copy)]
pub(crate) struct Probe<'a> {
    db: Option<&'a Egdb>,
    /// Probe only positions with fewer pieces than this (0: never).
    below: u32,
    /// The root's database value, when the root is in the databases.
    root: Option<Wdl>,
}

impl<'a> Probe<'a> {
    /// No databases.
    pub(crate) const NONE: Probe<'static> = Probe {
        db: None,
        below: 0,
        root: None,
    };

    /// How a search from `root` probes `db`: positions with at most the databases' complete
    /// number of pieces, and fewer than the root's when the root is in them.
    pub(crate) fn new(db: Option<&'a Egdb>, root: &Position) -> Probe<'a> {
        let Some(db) = db else {
            return Probe::NONE;
        };
        let complete = db.complete_pieces();
        if complete == 0 {
            return Probe::NONE;
        }
        let n = pieces(root);
        // A root beyond the complete sets may still have its own slice loaded (a 6-piece
        // study solved with what it leads to).
        let root_value = db.probe(root);
        Probe {
            db: Some(db),
            below: if root_value.is_some() {
                n
            } else {
                n.min(complete + 1)
            },
            root: root_value,
        }
    }

    /// The score of `pos`, `ply` plies from the root, when it is probed.
    #[inline]
    pub(crate) fn score(&self, pos: &Position, ply: usize) -> Option<i32> {
        // Without databases (`below` is then 0) there is nothing to count.
        let db = self.db?;
        if pieces(pos) >= self.below {
            return None;
        }
        let value = db.probe(pos)?;
        Some(match value {
            Wdl::Win => DB_WIN - ply as i32,
            Wdl::Draw => 0,
            Wdl::Loss => -DB_WIN + ply as i32,
        })
    }

    /// The score of a leaf `pos` (no capture pending) when the root is in the databases: a
    /// database win scores between `DB_WIN - 900` and `DB_WIN - 300` by `eval` (the static
    /// evaluation for the side to move), a loss the negation, a draw 0.
    #[inline]
    pub(crate) fn leaf(&self, pos: &Position, eval: impl FnOnce() -> i32) -> Option<i32> {
        self.root?;
        let value = self.db?.probe(pos)?;
        Some(match value {
            Wdl::Win => DB_WIN - 600 + eval().clamp(-300, 300),
            Wdl::Draw => 0,
            Wdl::Loss => -DB_WIN + 600 + eval().clamp(-300, 300),
        })
    }

    /// Keep only the root moves that keep the root's database value (all of them when the
    /// root is not in the databases). In a won root whose distances to conversion are known
    /// ([`Egdb::conversion_distance`]), keep only the moves that convert at once or lead to
    /// the opponent's nearest loss: each such move shortens the way out of the material, so
    /// the win is forced through however long the manoeuvre. Order is kept.
    pub(crate) fn keep_best(&self, root: &Position, moves: &mut Vec<Move>) {
        let (Some(db), Some(value)) = (self.db, self.root) else {
            return;
        };
        let keeps = |m: &Move| db.probe(&root.after(m)).map(Wdl::negate) == Some(value);
        if moves.iter().any(keeps) {
            moves.retain(keeps);
        }
        if value == Wdl::Win {
            keep_nearest(db, root, moves);
        }
    }

    /// The root's score, given the search's: a database result the search did not resolve
    /// into a known one is reported as the database says (a win as the farthest database
    /// win, a draw as 0).
    pub(crate) fn root_score(&self, searched: Score) -> Score {
        match self.root {
            Some(Wdl::Win) if searched.0 < KNOWN => Score(KNOWN),
            Some(Wdl::Loss) if searched.0 > -KNOWN => Score(-KNOWN),
            Some(Wdl::Draw) if !searched.is_known() => Score::DRAW,
            _ => searched,
        }
    }

    /// The score of a root move whose searched score is `searched`: the child's database
    /// value when the search did not resolve it (the root is in the databases).
    pub(crate) fn move_score(&self, root: &Position, mv: &Move, searched: Score) -> Score {
        let (Some(db), Some(_)) = (self.db, self.root) else {
            return searched;
        };
        let child = match db.probe(&root.after(mv)).map(Wdl::negate) {
            Some(Wdl::Win) => Score(KNOWN),
            Some(Wdl::Loss) => Score(-KNOWN),
            Some(Wdl::Draw) => Score::DRAW,
            None => return searched,
        };
        if searched.is_known() && searched.0.signum() == child.0.signum() {
            searched
        } else {
            child
        }
    }
}

/// Among the winning root moves, those that leave the material at once (a capture or a
/// crowning) or else reach the opponent's loss nearest to conversion; `moves` is left as it
/// is when a distance is not known.
fn keep_nearest(db: &Egdb, root: &Position, moves: &mut Vec<Move>) {
    let pair = Material::of(&Board::of(root)).swapped();
    let key = |m: &Move| -> Option<u32> {
        let child = root.after(m);
        if Material::of(&Board::of(&child)) != pair {
            return Some(0);
        }
        db.conversion_distance(&child).map(|d| u32::from(d) + 1)
    };
    let keys: Option<Vec<u32>> = moves.iter().map(key).collect();
    let Some(keys) = keys else {
        return;
    };
    let Some(&nearest) = keys.iter().min() else {
        return;
    };
    let mut i = 0;
    moves.retain(|_| {
        let keep = keys[i] == nearest;
        i += 1;
        keep
    });
}
