//! A position: who stands where, and whose turn it is. Also FEN reading and writing.

use super::board::{Bitboard, Color, ROW_0, ROW_7, Square, squares};
use super::game::Outcome;
use super::moves::{Move, MoveList};
use super::notation::MoveError;
use super::rules::Rules;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A piece: its colour and whether it is a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Which side owns it.
    pub color: Color,
    /// Crowned pieces move and jump in all four directions.
    pub king: bool,
}

/// A position on bitboards, with the rules it is played under.
///
/// The rules travel with the position: [`Position::legal_moves`] and everything built on it
/// follow them. Positions built without naming rules (the start, FEN, bitboards) are English
/// draughts; [`Position::with_rules`] changes the game. Two positions are equal when pieces,
/// side to move and rules are.
///
/// Invariants: `red & white == 0`, `kings ⊆ red | white`, no Red man on 29-32 and no White man
/// on 1-4 (a man there would have been crowned).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) red: Bitboard,
    pub(crate) white: Bitboard,
    pub(crate) kings: Bitboard,
    pub(crate) turn: Color,
    pub(crate) rules: Rules,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The standard starting position: Red on 1-12, White on 21-32, Red to move.
    pub fn start() -> Position {
        Position {
            red: 0x0000_0FFF,
            white: 0xFFF0_0000,
            kings: 0,
            turn: Color::Red,
            rules: Rules::English,
        }
    }

    /// A position with no pieces and `turn` to move.
    pub fn empty(turn: Color) -> Position {
        Position {
            red: 0,
            white: 0,
            kings: 0,
            turn,
            rules: Rules::English,
        }
    }

    /// Build a position from bitboards, checking the invariants (the one check of every
    /// position read from text: FEN, PDN, the Hub protocol): no square held twice, no king
    /// without a piece, at most [`PIECES_A_SIDE`] pieces a side, a piece on the board, no man on
    /// its crowning row.
    pub fn from_bitboards(
        red: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        turn: Color,
    ) -> Result<Position, FenError> {
        if red & white != 0 {
            let sq = squares(red & white).next().map_or(0, Square::number);
            return Err(FenError::BothColours(sq));
        }
        if kings & !(red | white) != 0 {
            return Err(FenError::Invalid("a king on an empty square".into()));
        }
        let pos = Position {
            red,
            white,
            kings,
            turn,
            rules: Rules::English,
        };
        for (color, side) in [(Color::Red, red), (Color::White, white)] {
            let n = side.count_ones();
            if n > PIECES_A_SIDE {
                return Err(FenError::TooMany(color, n));
            }
        }
        if red | white == 0 {
            return Err(FenError::NoPieces);
        }
        if let Some(sq) = squares(red & !kings & ROW_7).next() {
            return Err(FenError::UncrownedMan(Color::Red, sq.number()));
        }
        if let Some(sq) = squares(white & !kings & ROW_0).next() {
            return Err(FenError::UncrownedMan(Color::White, sq.number()));
        }
        Ok(pos)
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The rules this position is played under.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same pieces and side to move under other rules.
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }

    /// The same pieces with the other side to move.
    pub fn with_turn(mut self, turn: Color) -> Position {
        self.turn = turn;
        self
    }

    /// All squares holding a piece of `color`.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::Red => self.red,
            Color::White => self.white,
        }
    }

    /// All kings of both sides.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// The men (uncrowned pieces) of `color`.
    #[inline]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces(color) & !self.kings
    }

    /// The kings of `color`.
    #[inline]
    pub fn kings_of(&self, color: Color) -> Bitboard {
        self.pieces(color) & self.kings
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.red | self.white
    }

    /// Every empty playing square.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard {
        !(self.red | self.white)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        let king = self.kings & b != 0;
        if self.red & b != 0 {
            Some(Piece {
                color: Color::Red,
                king,
            })
        } else if self.white & b != 0 {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else {
            None
        }
    }

    /// Put a piece on `sq` (or clear it with `None`). Does not crown men on the crown row.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let b = sq.bit();
        self.red &= !b;
        self.white &= !b;
        self.kings &= !b;
        if let Some(p) = piece {
            match p.color {
                Color::Red => self.red |= b,
                Color::White => self.white |= b,
            }
            if p.king {
                self.kings |= b;
            }
        }
    }

    /// Number of pieces (men and kings) of `color`.
    pub fn count(&self, color: Color) -> u32 {
        self.pieces(color).count_ones()
    }

    /// The strength of a side as the pool strength rule counts it (APCA rule 27A): a king 2, a
    /// man 1.
    pub fn strength(&self, color: Color) -> u32 {
        self.men(color).count_ones() + 2 * self.kings_of(color).count_ones()
    }

    /// Every legal move for the side to move under its rules, ordered by path. Under
    /// compulsory capture only the captures when one exists; under huffing every step and every
    /// capture, stopped short or not. Capture paths that differ only in route are all listed.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        super::moves::generate(self, &mut list);
        list.sort_unstable_by(|a, b| a.path().cmp(b.path()));
        list
    }

    /// Legal moves with duplicates by resulting position removed: what a person chooses from.
    pub fn distinct_moves(&self) -> MoveList {
        let mut list = self.legal_moves();
        let mut seen: Vec<Position> = Vec::with_capacity(list.len());
        list.retain(|m| {
            let after = self.after(m);
            if seen.contains(&after) {
                false
            } else {
                seen.push(after);
                true
            }
        });
        list
    }

    /// The legal move with the same path as `mv` (a move read without a position, e.g. from a
    /// file, becomes the move itself with what it captures), or `None` when it is illegal.
    pub fn resolve(&self, mv: &Move) -> Option<Move> {
        self.legal_moves().into_iter().find(|m| m == mv)
    }

    /// True when the side to move must capture: it has a capture and the rules compel it.
    pub fn must_capture(&self) -> bool {
        self.rules.capture_compulsory() && super::moves::has_capture(self)
    }

    /// True when the side to move has a capture (under huffing it may leave it).
    pub fn can_capture(&self) -> bool {
        super::moves::has_capture(self)
    }

    /// True when the side to move has no legal move (no pieces, or all blocked).
    pub fn is_stuck(&self) -> bool {
        !super::moves::has_any_move(self)
    }

    /// True when the side to move has lost on the board: it is stuck, and the rules are not
    /// the losing game's (where being stuck wins).
    pub fn is_lost(&self) -> bool {
        !self.rules.stuck_side_wins() && self.is_stuck()
    }

    /// The result on the board: `None` while the side to move has a move; otherwise a win for
    /// the opponent, or (losing game) for the stuck side.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_stuck() {
            None
        } else if self.rules.stuck_side_wins() {
            Some(Outcome::Win(self.turn))
        } else {
            Some(Outcome::Win(self.turn.opponent()))
        }
    }

    /// Play a legal move and return it as the rules see it (a move read without a position
    /// is resolved first: [`Position::resolve`]). An illegal move is an error and leaves the
    /// position unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<Move, MoveError> {
        let Some(legal) = self.resolve(mv) else {
            return Err(MoveError::Illegal {
                text: mv.to_string(),
                reason: self.why_illegal(mv),
            });
        };
        *self = self.after(&legal);
        Ok(legal)
    }

    fn why_illegal(&self, mv: &Move) -> String {
        match self.piece_at(mv.from()) {
            None => format!("there is no piece on {}", mv.from()),
            Some(p) if p.color != self.turn => {
                format!(
                    "the piece on {} is {}'s, and it is {} to move",
                    mv.from(),
                    p.color,
                    self.turn
                )
            }
            Some(_) if !mv.is_capture() && self.must_capture() => {
                "a capture is compulsory".to_string()
            }
            Some(_) => "that is not a legal move here".to_string(),
        }
    }

    /// The position after a move, assumed legal (no checking). A man is crowned when the move
    /// ends on its crown row (under every rule set).
    #[inline(always)]
    pub fn after(&self, mv: &Move) -> Position {
        self.after_parts(mv.from().bit(), mv.to().bit(), mv.captured())
    }

    /// The position after moving the piece on `from` to `to`, removing `captured`; assumed legal.
    #[inline(always)]
    pub(crate) fn after_parts(&self, from: Bitboard, to: Bitboard, captured: Bitboard) -> Position {
        let mut p = *self;
        let was_king = p.kings & from != 0;
        let crown = match p.turn {
            Color::Red => {
                p.red = (p.red & !from) | to;
                p.white &= !captured;
                ROW_7
            }
            Color::White => {
                p.white = (p.white & !from) | to;
                p.red &= !captured;
                ROW_0
            }
        };
        p.kings &= !(captured | from);
        if was_king || to & crown != 0 {
            p.kings |= to;
        }
        p.turn = p.turn.opponent();
        p
    }

    /// The position in FEN as PDN 3.0 writes it, canonical form: side to move, White's pieces,
    /// Red's pieces, men then kings, each in square order, no trailing dot: `B:W21,22:B1,2,K3`.
    pub fn to_fen(&self) -> String {
        // Men in square order, then kings in square order, as in `W18,24,K10`.
        let side = |color: Color| {
            let men = squares(self.men(color)).map(|s| s.to_string());
            let kings = squares(self.kings_of(color)).map(|s| format!("K{s}"));
            men.chain(kings).collect::<Vec<_>>().join(",")
        };
        format!(
            "{}:W{}:B{}",
            fen_letter(self.turn),
            side(Color::White),
            side(Color::Red)
        )
    }

    /// Read a FEN such as `B:W18,24,K10:B12,16,K22` or `W:B1-12:W21-32.` (English rules;
    /// [`Position::from_fen_in`] for another game).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        parse_fen(text)
    }

    /// Read a FEN for a game under `rules`: the four games share the 32-square FEN of PDN.
    pub fn from_fen_in(rules: Rules, text: &str) -> Result<Position, FenError> {
        Ok(parse_fen(text)?.with_rules(rules))
    }

    /// The standard start under `rules`.
    pub fn start_in(rules: Rules) -> Position {
        Position::start().with_rules(rules)
    }
}

impl serde::Serialize for Position {
    /// A position is stored as its canonical FEN; the rules are not part of it (the game that
    /// holds the position stores them once, and [`crate::engine::Game`] applies them on reading).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_fen())
    }
}

impl<'de> serde::Deserialize<'de> for Position {
    /// Read back as English draughts: see [`Position::with_rules`].
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let text = String::deserialize(d)?;
        Position::from_fen(&text).map_err(serde::de::Error::custom)
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// A small text diagram, Red at the top, followed by the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for col in 0..8 {
                let c = match Square::at(row, col) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece {
                            color: Color::Red,
                            king: false,
                        }) => 'r',
                        Some(Piece {
                            color: Color::Red,
                            king: true,
                        }) => 'R',
                        Some(Piece {
                            color: Color::White,
                            king: false,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            king: true,
                        }) => 'W',
                    },
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{}", self.to_fen())
    }
}

fn fen_letter(c: Color) -> char {
    match c {
        Color::Red => 'B',
        Color::White => 'W',
    }
}

/// What is wrong with a FEN string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// The text is empty.
    #[error("the FEN is empty")]
    Empty,
    /// The side-to-move letter is missing or not B/W.
    #[error("the FEN must start with the side to move, B or W, not {0:?}")]
    BadTurn(String),
    /// A colour block does not start with B or W.
    #[error("a FEN piece list must start with B or W, not {0:?}")]
    BadColour(String),
    /// A colour block appears twice.
    #[error("the FEN lists {0} twice")]
    RepeatedColour(Color),
    /// A square entry could not be read.
    #[error("{0:?} is not a square number, a K-square or a range like 21-32")]
    BadSquare(String),
    /// A square number outside 1-32.
    #[error("square {0} is not between 1 and 32")]
    OutOfRange(u32),
    /// The same square listed twice.
    #[error("square {0} is listed twice")]
    Duplicate(u8),
    /// A square listed for both colours.
    #[error("square {0} is given to both colours")]
    BothColours(u8),
    /// A man standing on its crowning row.
    #[error("a {0} man on {1} would already be a king")]
    UncrownedMan(Color, u8),
    /// More pieces of one colour than a side starts with.
    #[error("{0} has {1} pieces; a side has at most {PIECES_A_SIDE}")]
    TooMany(Color, u32),
    /// Not a piece on the board.
    #[error("the position has no pieces at all")]
    NoPieces,
    /// Anything else.
    #[error("{0}")]
    Invalid(String),
}

/// The most pieces a side can have: those it starts with.
pub const PIECES_A_SIDE: u32 = 12;

fn parse_fen(text: &str) -> Result<Position, FenError> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let text = text.trim_matches('"');
    let text = text.strip_suffix('.').unwrap_or(text);
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut parts = text.split(':');
    let turn = match parts.next().unwrap_or("") {
        "B" | "b" => Color::Red,
        "W" | "w" => Color::White,
        other => return Err(FenError::BadTurn(other.to_string())),
    };
    let mut pos = Position::empty(turn);
    let mut seen = [false; 2];
    for block in parts {
        let (color, rest) = match block.chars().next() {
            Some('B' | 'b') => (Color::Red, &block[1..]),
            Some('W' | 'w') => (Color::White, &block[1..]),
            _ => return Err(FenError::BadColour(block.to_string())),
        };
        let slot = &mut seen[color as usize];
        if *slot {
            return Err(FenError::RepeatedColour(color));
        }
        *slot = true;
        parse_block(rest, color, &mut pos)?;
    }
    Position::from_bitboards(pos.red, pos.white, pos.kings, pos.turn)
}

fn parse_block(rest: &str, color: Color, pos: &mut Position) -> Result<(), FenError> {
    for item in rest.split(',').filter(|s| !s.is_empty()) {
        let (king, body) = match item.strip_prefix(['K', 'k']) {
            Some(b) => (true, b),
            None => (false, item),
        };
        let (lo, hi) = match body.split_once('-') {
            Some((a, b)) => (parse_sq(a, item)?, parse_sq(b, item)?),
            None => {
                let n = parse_sq(body, item)?;
                (n, n)
            }
        };
        if lo > hi {
            return Err(FenError::BadSquare(item.to_string()));
        }
        for n in lo..=hi {
            let sq = Square::new(n).ok_or(FenError::OutOfRange(u32::from(n)))?;
            if pos.occupied() & sq.bit() != 0 {
                return Err(match pos.piece_at(sq) {
                    Some(p) if p.color == color => FenError::Duplicate(n),
                    _ => FenError::BothColours(n),
                });
            }
            pos.set_piece(sq, Some(Piece { color, king }));
        }
    }
    Ok(())
}

fn parse_sq(s: &str, item: &str) -> Result<u8, FenError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::BadSquare(item.to_string()));
    }
    let n: u32 = s
        .parse()
        .map_err(|_| FenError::BadSquare(item.to_string()))?;
    if !(1..=32).contains(&n) {
        return Err(FenError::OutOfRange(n));
    }
    Ok(n as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen() {
        assert_eq!(
            Position::start().to_fen(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(
            Position::from_fen("B:W21-32:B1-12").unwrap(),
            Position::start()
        );
    }

    #[test]
    fn fen_variants_read() {
        let p = Position::from_fen("W:B12,16,K22:W24,18,K10.").unwrap();
        assert_eq!(p.to_fen(), "W:W18,24,K10:B12,16,K22");
        assert_eq!(p.turn(), Color::White);
        let q = Position::from_fen(" b : w k1 : b 32k ").err();
        assert!(q.is_some());
    }

    #[test]
    fn fen_errors_say_what_is_wrong() {
        assert_eq!(Position::from_fen(""), Err(FenError::Empty));
        assert!(matches!(
            Position::from_fen("X:W1:B2"),
            Err(FenError::BadTurn(_))
        ));
        assert_eq!(
            Position::from_fen("B:W33:B1"),
            Err(FenError::OutOfRange(33))
        );
        assert_eq!(Position::from_fen("B:W5:B5"), Err(FenError::BothColours(5)));
        assert_eq!(Position::from_fen("B:W5,5:B1"), Err(FenError::Duplicate(5)));
        assert!(matches!(
            Position::from_fen("B:W5:W6"),
            Err(FenError::RepeatedColour(_))
        ));
        assert!(matches!(
            Position::from_fen("B:Wx:B1"),
            Err(FenError::BadSquare(_))
        ));
        assert!(matches!(
            Position::from_fen("B:Q5:B1"),
            Err(FenError::BadColour(_))
        ));
        assert_eq!(
            Position::from_fen("B:W1:B9"),
            Err(FenError::UncrownedMan(Color::White, 1))
        );
    }
}
