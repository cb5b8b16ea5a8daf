//! Moves, and legal move generation on bitboards for every rule set.
//!
//! The short-king games (English, huffing, the losing game) are generated here; American pool
//! checkers (flying kings) in [`super::pool`]. The functions at the top level dispatch on the
//! position's [`Rules`], so a caller never names the game.

use super::board::{Bitboard, Color, Direction, JUMPS, Square, squares, step, step_back};
use super::pool;
use super::position::Position;
use super::rules::Rules;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};

/// Longest possible path: a start square and at most 12 landing squares.
pub const MAX_PATH: usize = 13;

/// A move with its full path (every square the piece stands on: for a flying king's capture,
/// the landing square after each piece taken) and the captured squares.
///
/// Two moves are equal when their paths are equal (and both or neither capture): on a given
/// position the path decides what is captured.
#[derive(Clone, Copy)]
pub struct Move {
    path: [u8; MAX_PATH],
    len: u8,
    captured: Bitboard,
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.len == other.len && self.path == other.path && self.is_capture() == other.is_capture()
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.path[..self.len as usize].hash(h);
    }
}

/// A list of moves.
pub type MoveList = Vec<Move>;

impl Move {
    /// A plain (non-capturing) step from `from` to `to`.
    pub fn step(from: Square, to: Square) -> Move {
        let mut path = [0; MAX_PATH];
        path[0] = from.number();
        path[1] = to.number();
        Move {
            path,
            len: 2,
            captured: 0,
        }
    }

    /// A move from its path. For a capture every hop must be a two-square diagonal jump; the
    /// captured squares are the ones jumped over. Checks geometry only, not legality.
    pub fn from_path(path: &[Square], capture: bool) -> Result<Move, String> {
        if path.len() < 2 || path.len() > MAX_PATH {
            return Err(format!("a move needs 2 to {MAX_PATH} squares"));
        }
        if !capture {
            if path.len() != 2 {
                return Err("a move without capture goes from one square to the next".into());
            }
            if !Direction::ALL
                .iter()
                .any(|&d| path[0].step(d) == Some(path[1]))
            {
                return Err(format!("{} and {} are not neighbours", path[0], path[1]));
            }
            return Ok(Move::step(path[0], path[1]));
        }
        let mut mv = Move {
            path: [0; MAX_PATH],
            len: path.len() as u8,
            captured: 0,
        };
        for (i, sq) in path.iter().enumerate() {
            mv.path[i] = sq.number();
        }
        for hop in path.windows(2) {
            let over = Direction::ALL
                .iter()
                .find(|&&d| hop[0].step(d).and_then(|o| o.step(d)) == Some(hop[1]))
                .and_then(|&d| hop[0].step(d))
                .ok_or_else(|| format!("{} to {} is not a jump", hop[0], hop[1]))?;
            mv.captured |= over.bit();
        }
        Ok(mv)
    }

    /// The square the piece starts on.
    pub fn from(&self) -> Square {
        self.square(0)
    }

    /// The square the piece ends on.
    pub fn to(&self) -> Square {
        self.square(self.len as usize - 1)
    }

    fn square(&self, i: usize) -> Square {
        Square::new(self.path[i]).unwrap_or_else(|| unreachable!("path squares are valid"))
    }

    /// Every square the piece stands on, start and end included.
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.len as usize).map(|i| self.square(i))
    }

    /// The squares of the pieces this move captures.
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// The captured squares as a list.
    pub fn captured_squares(&self) -> Vec<Square> {
        squares(self.captured).collect()
    }

    /// True for a jump.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Number of squares on the path (2 for a step or a single jump).
    pub fn path_len(&self) -> usize {
        self.len as usize
    }

    /// True when both moves go from the same square to the same square taking the same pieces
    /// (they give the same position), whatever the route.
    pub fn same_result(&self, other: &Move) -> bool {
        self.from() == other.from() && self.to() == other.to() && self.captured == other.captured
    }

    /// A move along diagonals of any length, from its path: a flying king's slide or capture as
    /// well as a short one. Without a position the pieces taken are not known: the captured set
    /// is every square passed over (exact for two-square jumps); [`Position::resolve`] gives the
    /// legal move itself. Checks geometry only.
    pub fn from_diagonal_path(path: &[Square], capture: bool) -> Result<Move, String> {
        if path.len() < 2 || path.len() > MAX_PATH || (!capture && path.len() != 2) {
            return Err(format!(
                "a move needs 2 squares, or 2 to {MAX_PATH} for a capture"
            ));
        }
        let mut mv = Move {
            path: [0; MAX_PATH],
            len: path.len() as u8,
            captured: 0,
        };
        for (i, sq) in path.iter().enumerate() {
            mv.path[i] = sq.number();
        }
        for hop in path.windows(2) {
            let between = between(hop[0], hop[1])
                .ok_or_else(|| format!("{} and {} are not on one diagonal", hop[0], hop[1]))?;
            if capture {
                if between == 0 {
                    return Err(format!("{} to {} jumps over nothing", hop[0], hop[1]));
                }
                mv.captured |= between;
            }
        }
        Ok(mv)
    }
}

/// The squares strictly between two squares on one diagonal (`None` when they are not on one).
fn between(a: Square, b: Square) -> Option<Bitboard> {
    let (dr, dc) = (
        i16::from(b.row()) - i16::from(a.row()),
        i16::from(b.col()) - i16::from(a.col()),
    );
    if dr == 0 || dr.abs() != dc.abs() {
        return None;
    }
    let dir = match (dr > 0, dc > 0) {
        (true, false) => Direction::DownLeft,
        (true, true) => Direction::DownRight,
        (false, false) => Direction::UpLeft,
        (false, true) => Direction::UpRight,
    };
    let mut set = 0;
    let mut at = a.step(dir)?;
    while at != b {
        set |= at.bit();
        at = at.step(dir)?;
    }
    Some(set)
}

impl fmt::Display for Move {
    /// Standard notation: `11-15`, `15x24`, `15x24x31`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        for (i, sq) in self.path().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    /// Any diagonal path (a pool king's long moves included): see
    /// [`Move::from_diagonal_path`]; the game that reads it back replays it against the rules.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text = String::deserialize(d)?;
        let (squares, capture) = split_path(&text).map_err(serde::de::Error::custom)?;
        Move::from_diagonal_path(&squares, capture).map_err(serde::de::Error::custom)
    }
}

fn split_path(text: &str) -> Result<(Vec<Square>, bool), String> {
    let capture = text.contains(['x', 'X']);
    let squares = text
        .split(['x', 'X', '-'])
        .map(|t| {
            t.trim()
                .parse::<u8>()
                .ok()
                .and_then(Square::new)
                .ok_or_else(|| format!("{text:?} is not a move"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((squares, capture))
}

impl Move {
    /// Read a move of short pieces written as its full path (`11-15`, `15x24x31`) without a
    /// position (English geometry: steps to a neighbour, jumps over one square).
    pub fn from_notation_path(text: &str) -> Result<Move, String> {
        let (squares, capture) = split_path(text)?;
        Move::from_path(&squares, capture)
    }
}

// ---------------------------------------------------------------------------------------------
// Generation: the entry points, dispatching on the position's rules.

/// Pieces of the side to move that have at least one capture (compulsory or not).
#[inline]
pub fn jumpers(pos: &Position) -> Bitboard {
    match pos.rules {
        Rules::Pool => pool::jumpers(pos),
        Rules::English | Rules::Huffing | Rules::Losing => short_jumpers(pos),
    }
}

/// True when the side to move has a capture (under huffing it need not take it).
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    jumpers(pos) != 0
}

/// True when the side to move has any legal move.
pub fn has_any_move(pos: &Position) -> bool {
    // A flying king can move at all exactly when it could step: the quiet test is shared.
    has_step(pos) || has_capture(pos)
}

/// Append every legal move of the side to move to `out`: under compulsory capture the captures
/// when there is one, else the steps; under huffing the steps and every capture, including
/// each one stopped short.
pub fn generate(pos: &Position, out: &mut MoveList) {
    match pos.rules {
        Rules::English | Rules::Losing => generate_compulsory(pos, out),
        Rules::Huffing => {
            generate_steps(pos, out);
            let jumpers = short_jumpers(pos);
            if jumpers != 0 {
                generate_short_captures(pos, jumpers, true, out);
            }
        }
        Rules::Pool => pool::generate(pos, out),
    }
}

/// Number of legal moves (every capture path counted), without building the list where the
/// rules allow.
pub fn count_moves(pos: &Position) -> u64 {
    match pos.rules {
        Rules::English | Rules::Losing => count_compulsory(pos),
        Rules::Huffing => {
            let jumpers = short_jumpers(pos);
            count_steps(pos)
                + squares(jumpers)
                    .map(|from| CaptureSearch::new(pos, from, true).count(from.index() as usize, 0))
                    .sum::<u64>()
        }
        Rules::Pool => {
            let mut list = MoveList::new();
            pool::generate(pos, &mut list);
            list.len() as u64
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Short pieces: men one step forward, kings one step any way, jumps over a neighbour.

/// Directions a piece may move in, as a bitboard of movers per direction.
#[inline(always)]
fn movers(pos: &Position, dir: Direction) -> Bitboard {
    let us = pos.pieces(pos.turn);
    let forward = match pos.turn {
        Color::Red => matches!(dir, Direction::DownLeft | Direction::DownRight),
        Color::White => matches!(dir, Direction::UpLeft | Direction::UpRight),
    };
    if forward { us } else { us & pos.kings }
}

/// Pieces of the side to move with a short jump (men forward, kings any way).
#[inline(always)]
pub(crate) fn short_jumpers(pos: &Position) -> Bitboard {
    let opp = pos.pieces(pos.turn.opponent());
    let empty = pos.empty_squares();
    let mut out = 0;
    for dir in Direction::ALL {
        let landing = step(step(movers(pos, dir), dir) & opp, dir) & empty;
        out |= step_back(step_back(landing, dir), dir);
    }
    out
}

/// True when some piece of the side to move can step to a neighbouring square.
#[inline(always)]
fn has_step(pos: &Position) -> bool {
    let empty = pos.empty_squares();
    Direction::ALL
        .iter()
        .any(|&d| step(movers(pos, d), d) & empty != 0)
}

/// Number of one-square steps of the side to move.
fn count_steps(pos: &Position) -> u64 {
    let empty = pos.empty_squares();
    Direction::ALL
        .iter()
        .map(|&d| u64::from((step(movers(pos, d), d) & empty).count_ones()))
        .sum()
}

/// English and the losing game: the captures when there is one, else the steps.
fn generate_compulsory(pos: &Position, out: &mut MoveList) {
    let jumpers = short_jumpers(pos);
    if jumpers != 0 {
        generate_short_captures(pos, jumpers, false, out);
    } else {
        generate_steps(pos, out);
    }
}

/// Every one-square step of the side to move (men forward, kings any way).
pub(crate) fn generate_steps(pos: &Position, out: &mut MoveList) {
    let empty = pos.empty_squares();
    for dir in Direction::ALL {
        let targets = step(movers(pos, dir), dir) & empty;
        for to in squares(targets) {
            let from = Square::from_index(step_back(to.bit(), dir).trailing_zeros());
            out.push(Move::step(from, to));
        }
    }
}

/// State shared by the recursive capture search of one short piece.
struct CaptureSearch {
    opp: Bitboard,
    empty: Bitboard,
    crown: Bitboard,
    king: bool,
    color: Color,
    /// Huffing: every capture stopped short is a move of its own.
    prefixes: bool,
}

impl CaptureSearch {
    fn new(pos: &Position, from: Square, prefixes: bool) -> CaptureSearch {
        let color = pos.turn;
        CaptureSearch {
            opp: pos.pieces(color.opponent()),
            // The moving piece leaves its square: a king may pass over or land on it again.
            empty: pos.empty_squares() | from.bit(),
            crown: color.crown_squares(),
            king: pos.kings & from.bit() != 0,
            color,
            prefixes,
        }
    }

    fn dirs(&self) -> &'static [Direction] {
        const RED: [Direction; 2] = [Direction::DownLeft, Direction::DownRight];
        const WHITE: [Direction; 2] = [Direction::UpLeft, Direction::UpRight];
        if self.king {
            &Direction::ALL
        } else if self.color == Color::Red {
            &RED
        } else {
            &WHITE
        }
    }

    /// Extend `mv` (standing on its last square) by every jump sequence; push finished moves.
    fn extend(&self, mv: &mut Move, out: &mut MoveList) {
        let at = mv.path[mv.len as usize - 1] as usize - 1;
        let mut extended = false;
        for &dir in self.dirs() {
            let over = JUMPS.over[at][dir.idx()];
            let land = JUMPS.land[at][dir.idx()];
            if over & self.opp & !mv.captured == 0 || land & self.empty == 0 {
                continue;
            }
            extended = true;
            let saved = (mv.len, mv.captured);
            mv.path[mv.len as usize] = land.trailing_zeros() as u8 + 1;
            mv.len += 1;
            mv.captured |= over;
            if !self.king && land & self.crown != 0 {
                out.push(*mv); // a man that crowns ends its move
            } else {
                if self.prefixes {
                    out.push(*mv);
                }
                self.extend(mv, out);
            }
            (mv.len, mv.captured) = saved;
            mv.path[mv.len as usize] = 0;
        }
        if !extended && mv.len > 1 && !self.prefixes {
            out.push(*mv);
        }
    }

    /// Count the jump sequences from square index `at` without building moves.
    fn count(&self, at: usize, captured: Bitboard) -> u64 {
        let mut total = 0;
        let mut extended = false;
        for &dir in self.dirs() {
            let over = JUMPS.over[at][dir.idx()];
            let land = JUMPS.land[at][dir.idx()];
            if over & self.opp & !captured == 0 || land & self.empty == 0 {
                continue;
            }
            extended = true;
            if !self.king && land & self.crown != 0 {
                total += 1;
            } else {
                total += u64::from(self.prefixes)
                    + self.count(land.trailing_zeros() as usize, captured | over);
            }
        }
        if extended || self.prefixes || captured == 0 {
            total
        } else {
            1
        }
    }
}

/// Every capture of the short pieces in `jumpers`; with `prefixes`, also every capture stopped
/// short of its end (huffing).
pub(crate) fn generate_short_captures(
    pos: &Position,
    jumpers: Bitboard,
    prefixes: bool,
    out: &mut MoveList,
) {
    for from in squares(jumpers) {
        let search = CaptureSearch::new(pos, from, prefixes);
        let mut mv = Move {
            path: [0; MAX_PATH],
            len: 1,
            captured: 0,
        };
        mv.path[0] = from.number();
        search.extend(&mut mv, out);
    }
}

/// English counting: every capture path, or every step when there is no capture.
pub(crate) fn count_compulsory(pos: &Position) -> u64 {
    let jumpers = short_jumpers(pos);
    if jumpers != 0 {
        return squares(jumpers)
            .map(|from| CaptureSearch::new(pos, from, false).count(from.index() as usize, 0))
            .sum();
    }
    count_steps(pos)
}

/// A move from its parts (used by the pool generator).
pub(crate) fn raw_move(path: [u8; MAX_PATH], len: u8, captured: Bitboard) -> Move {
    Move {
        path,
        len,
        captured,
    }
}

/// The raw parts of a move (used by the pool generator).
pub(crate) fn raw_parts(mv: &mut Move) -> (&mut [u8; MAX_PATH], &mut u8, &mut Bitboard) {
    (&mut mv.path, &mut mv.len, &mut mv.captured)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves() {
        let moves = Position::start().legal_moves();
        let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves.len(), 7, "{text:?}");
        for m in ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"] {
            assert!(text.contains(&m.to_string()), "{m} missing from {text:?}");
        }
    }

    #[test]
    fn move_serde_round_trip() {
        let m = Move::from_notation_path("15x24x31").unwrap();
        assert_eq!(m.to_string(), "15x24x31");
        assert_eq!(
            m.captured_squares()
                .iter()
                .map(|s| s.number())
                .collect::<Vec<_>>(),
            vec![19, 27]
        );
        assert!(Move::from_notation_path("15x25").is_err());
        assert!(Move::from_notation_path("11-16").is_ok());
        assert!(Move::from_notation_path("11-18").is_err());
    }

    #[test]
    fn shallow_perft() {
        use crate::engine::perft;
        let p = Position::start();
        let expected = [1, 7, 49, 302, 1469, 7361, 36768];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&p, d as u32), n, "depth {d}");
        }
    }
}
