//! The opening book: positions with each move's minimaxed score and the depth its leaves were
//! searched to, built by dropout expansion ([`super::dropout`]) and consulted by the engine's
//! players before they search.
//!
//! The asset is text, one position a line after a version line:
//!
//! ```text
//! crossboard-book 1
//! # comments
//! FEN<TAB>depth<TAB>move=score move=score ...
//! ```
//!
//! The score of a move is from the side to move's view, in hundredths of a man (a forced
//! result is `±(30000 - plies)`), the moves best first. A book is read with the file, line and
//! field of its first fault, and never trusted blindly: every move must be legal from its
//! position.

use super::zobrist;
use crate::engine::{Move, Position, parse_move};
use rand::{Rng, RngExt};
use std::collections::HashMap;
use std::fmt::Write as _;
use thiserror::Error;

/// The first line of a book: the format and its version.
pub const BOOK_VERSION: &str = "crossboard-book 1";

/// Moves within this many hundredths of a man of the book's best are chosen among at random.
pub const BOOK_MARGIN: i32 = 5;

/// One position of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position.
    pub position: Position,
    /// The depth the book's leaves were searched to.
    pub depth: u32,
    /// Each move with its minimaxed score (side to move's view), best first.
    pub moves: Vec<(Move, i32)>,
}

impl BookEntry {
    /// The asset line (no newline).
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(mv, score)| format!("{mv}={score}"))
            .collect();
        format!(
            "{}\t{}\t{}",
            self.position.to_fen(),
            self.depth,
            moves.join(" ")
        )
    }
}

/// A malformed book.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{source_name} line {line}: {field}: {reason}")]
pub struct BookError {
    /// The file read.
    pub source_name: String,
    /// Its line, from 1.
    pub line: usize,
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

/// An opening book, its positions found by the position hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<BookEntry>,
    index: HashMap<u64, usize>,
}

impl Book {
    /// A book of `entries` (a position given twice keeps its first entry).
    pub fn new(entries: Vec<BookEntry>) -> Book {
        let mut book = Book::default();
        for e in entries {
            book.push(e);
        }
        book
    }

    /// Add `entry` unless its position is in already; true when added.
    fn push(&mut self, entry: BookEntry) -> bool {
        let key = zobrist::hash(&entry.position);
        if self.index.contains_key(&key) {
            return false;
        }
        self.index.insert(key, self.entries.len());
        self.entries.push(entry);
        true
    }

    /// The positions, in the order read or built.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `pos`, if the book has it.
    pub fn get(&self, pos: &Position) -> Option<&BookEntry> {
        let &i = self.index.get(&zobrist::hash(pos))?;
        let e = &self.entries[i];
        (e.position == *pos).then_some(e)
    }

    /// The book's move in `pos`: one of the moves within `margin` of the best, chosen by `rng`
    /// (the best alone when `margin` is 0); `None` out of book.
    pub fn choose(
        &self,
        pos: &Position,
        margin: i32,
        rng: &mut (impl Rng + ?Sized),
    ) -> Option<Move> {
        let e = self.get(pos)?;
        let best = e.moves.iter().map(|&(_, s)| s).max()?;
        let near: Vec<Move> = e
            .moves
            .iter()
            .filter(|&&(_, s)| s >= best.saturating_sub(margin.max(0)))
            .map(|&(mv, _)| mv)
            .collect();
        let pick = if near.len() > 1 {
            rng.random_range(0..near.len())
        } else {
            0
        };
        near.get(pick).copied()
    }

    /// The asset's text: the version line, `comments` (each made a `#` line), the positions.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut out = String::new();
        out.push_str(BOOK_VERSION);
        out.push('\n');
        for c in comments {
            let _ = writeln!(out, "# {c}");
        }
        for e in &self.entries {
            out.push_str(&e.to_line());
            out.push('\n');
        }
        out
    }

    /// Read a book (`source_name` names it in errors): the version line first, then `#`
    /// comments, blank lines and positions, each position once, each move legal from it.
    pub fn parse(source_name: &str, text: &str) -> Result<Book, BookError> {
        let err = |line: usize, field: &'static str, reason: String| BookError {
            source_name: source_name.to_string(),
            line,
            field,
            reason,
        };
        let mut lines = text.lines();
        match lines.next() {
            Some(v) if v == BOOK_VERSION => {}
            Some(v) if v.starts_with("crossboard-book ") => {
                return Err(err(
                    1,
                    "version",
                    format!("{v:?}: this crossboard reads {BOOK_VERSION:?}"),
                ));
            }
            _ => {
                return Err(err(
                    1,
                    "version",
                    format!("not a crossboard book (its first line is not {BOOK_VERSION:?})"),
                ));
            }
        }
        let mut book = Book::default();
        for (i, raw) in lines.enumerate() {
            let n = i + 2;
            if raw.starts_with('#') || raw.trim().is_empty() {
                continue;
            }
            let entry = parse_line(raw, &|field, reason| err(n, field, reason))?;
            if !book.push(entry) {
                return Err(err(n, "position", "given twice".to_string()));
            }
        }
        Ok(book)
    }
}

/// Read one position line.
fn parse_line(
    raw: &str,
    err: &dyn Fn(&'static str, String) -> BookError,
) -> Result<BookEntry, BookError> {
    let f: Vec<&str> = raw.split('\t').collect();
    if f.len() != 3 {
        return Err(err("line", format!("{} fields, not 3", f.len())));
    }
    let position = Position::from_fen(f[0]).map_err(|e| err("position", e.to_string()))?;
    let depth: u32 = f[1]
        .parse()
        .ok()
        .filter(|d| (1..=super::MAX_DEPTH).contains(d))
        .ok_or_else(|| err("depth", format!("{:?} is not a depth", f[1])))?;
    let mut moves: Vec<(Move, i32)> = Vec::new();
    for (k, token) in f[2].split_whitespace().enumerate() {
        let at = |reason: String| err("moves", format!("move {} ({token}): {reason}", k + 1));
        let (text, score) = token
            .split_once('=')
            .ok_or_else(|| at("give MOVE=SCORE".to_string()))?;
        let mv = parse_move(&position, text).map_err(|e| at(e.to_string()))?;
        let score: i32 = score
            .parse()
            .ok()
            .filter(|s: &i32| s.unsigned_abs() <= 30_000)
            .ok_or_else(|| at(format!("{score:?} is not a score")))?;
        if moves.iter().any(|(m, _)| *m == mv) {
            return Err(at("given twice".to_string()));
        }
        moves.push((mv, score));
    }
    if moves.is_empty() {
        return Err(err("moves", "none".to_string()));
    }
    Ok(BookEntry {
        position,
        depth,
        moves,
    })
}
