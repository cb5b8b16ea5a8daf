//! Dropout expansion (Lincke, "Strategies for the automatic construction of opening books",
//! 2000): a tree of positions from a set of roots, each leaf scored by a fixed-depth search, the
//! interior minimaxed, grown one leaf at a time where the expansion priority is least, so that
//! the book goes deep on the main lines and shallow on bad moves.
//!
//! The priority of a leaf is the sum along its path from the root of [`DROPOUT_PLY`] per ply
//! and each move's drop: how far its score falls short of the best move's. Every quantity is an
//! integer and every tie goes to the first root or move in order, so the tree depends only on
//! the scores: a scorer that searches each position alone from a cleared table makes a tree
//! that is the same bit for bit on any number of threads.
//!
//! Pure: positions are scored through the caller's scorer (the search, a journal, a test's
//! table), which is given each batch of new positions at once so that it can search them side
//! by side.

use super::book::{Book, BookEntry};
use crate::engine::{Move, Position};

/// The priority one ply adds, in hundredths of a man: a move a man worse than the best is
/// followed five plies less deep.
pub const DROPOUT_PLY: i64 = 20;

/// A leaf that cannot be expanded (the side to move has no move).
const NEVER: i64 = i64::MAX;

/// Scores a batch of positions, each from its side to move's view in hundredths of a man.
pub type Scorer<'a> = dyn FnMut(&[Position]) -> Result<Vec<i32>, String> + 'a;

#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    parent: Option<usize>,
    /// The score from the side to move's view: the search's at a leaf, minimaxed above.
    value: i32,
    /// Each move and its child, once expanded.
    children: Vec<(Move, usize)>,
    /// The least priority of a leaf below, counted from this node ([`NEVER`]: none).
    least: i64,
}

/// A dropout-expansion tree.
#[derive(Clone, Debug)]
pub struct Dropout {
    nodes: Vec<Node>,
    roots: usize,
    depth: u32,
}

impl Dropout {
    /// The tree of `roots`, each scored (one batch) by `score`; `depth` is the depth the scorer
    /// searches to, written in the book.
    pub fn new(roots: &[Position], depth: u32, score: &mut Scorer) -> Result<Dropout, String> {
        let mut tree = Dropout {
            nodes: Vec::new(),
            roots: roots.len(),
            depth,
        };
        tree.add(roots, None, score)?;
        Ok(tree)
    }

    /// Grow the tree until it holds `max_nodes` positions or no leaf can be expanded, telling
    /// `progress` the count after each expansion.
    pub fn grow(
        &mut self,
        max_nodes: usize,
        score: &mut Scorer,
        progress: &mut dyn FnMut(usize),
    ) -> Result<(), String> {
        while self.nodes.len() < max_nodes && self.expand_next(score)? {
            progress(self.nodes.len());
        }
        Ok(())
    }

    /// The positions in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the tree has no roots.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Push a node for each position of `positions` below `parent`, scored in one batch.
    fn add(
        &mut self,
        positions: &[Position],
        parent: Option<usize>,
        score: &mut Scorer,
    ) -> Result<(), String> {
        let scores = score(positions)?;
        if scores.len() != positions.len() {
            return Err(format!(
                "{} scores for {} positions",
                scores.len(),
                positions.len()
            ));
        }
        for (pos, value) in positions.iter().zip(scores) {
            let least = if pos.distinct_moves().is_empty() {
                NEVER
            } else {
                0
            };
            self.nodes.push(Node {
                pos: *pos,
                parent,
                value,
                children: Vec::new(),
                least,
            });
        }
        Ok(())
    }

    /// What following child `c` of `n` adds to a path's priority.
    fn cost(&self, n: usize, c: usize) -> i64 {
        let drop = i64::from(self.nodes[n].value) + i64::from(self.nodes[c].value);
        let below = self.nodes[c].least;
        if below == NEVER {
            return NEVER;
        }
        (DROPOUT_PLY + drop.max(0)).saturating_add(below)
    }

    /// Expand the leaf of least priority; false when none is left.
    fn expand_next(&mut self, score: &mut Scorer) -> Result<bool, String> {
        let Some(mut n) = (0..self.roots)
            .filter(|&r| self.nodes[r].least != NEVER)
            .min_by_key(|&r| self.nodes[r].least)
        else {
            return Ok(false);
        };
        while !self.nodes[n].children.is_empty() {
            let children = &self.nodes[n].children;
            n = children
                .iter()
                .map(|&(_, c)| c)
                .min_by_key(|&c| self.cost(n, c))
                .unwrap_or(n);
        }
        let pos = self.nodes[n].pos;
        let moves: Vec<Move> = pos.distinct_moves().to_vec();
        let after: Vec<Position> = moves.iter().map(|m| pos.after(m)).collect();
        let first = self.nodes.len();
        self.add(&after, Some(n), score)?;
        self.nodes[n].children = moves.into_iter().zip(first..).collect();
        let mut up = Some(n);
        while let Some(u) = up {
            self.update(u);
            up = self.nodes[u].parent;
        }
        Ok(true)
    }

    /// Minimax node `n`'s value and least priority from its children.
    fn update(&mut self, n: usize) {
        let node = &self.nodes[n];
        let value = node
            .children
            .iter()
            .map(|&(_, c)| -self.nodes[c].value)
            .max()
            .unwrap_or(node.value);
        self.nodes[n].value = value;
        let least = self.nodes[n]
            .children
            .iter()
            .map(|&(_, c)| self.cost(n, c))
            .min()
            .unwrap_or(NEVER);
        self.nodes[n].least = least;
    }

    /// The book: every expanded position with its moves' minimaxed scores, best first (a
    /// position reached twice keeps its first node's moves).
    pub fn book(&self) -> Book {
        let entries = self
            .nodes
            .iter()
            .filter(|n| !n.children.is_empty())
            .map(|n| {
                let mut moves: Vec<(Move, i32)> = n
                    .children
                    .iter()
                    .map(|&(mv, c)| (mv, -self.nodes[c].value))
                    .collect();
                moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
                BookEntry {
                    position: n.pos,
                    depth: self.depth,
                    moves,
                }
            })
            .collect();
        Book::new(entries)
    }
}
