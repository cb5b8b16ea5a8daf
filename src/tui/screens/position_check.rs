//! What the position set-up screen accepts: a FEN read loosely (as CheckerBoard and the Open
//! Checkers Archive write it, or a whole `[FEN "..."]` tag pasted), its errors naming the field,
//! and the checks of a position put on the board by hand.
//!
//! Refused, with the reason in words: more than 12 pieces a side, a man on its own crowning row,
//! a side with no pieces. A position whose side to move has no legal move is accepted as a
//! finished game: it is said so, it opens in practice with its result, and it saves as PDN with
//! that result (a study of the final position is legitimate; there is just nothing to play).

use crate::engine::{Color, FenError, Outcome, Position, Rules};

/// What a position that passes the checks is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A game goes on from it: the side to move has this many legal moves.
    Playable(usize),
    /// The side to move has no legal move: the game is over, with this outcome on the board.
    Finished(Outcome),
}

impl Verdict {
    /// The verdict in words: "Red to move, 7 legal moves", "finished: Red to move has no
    /// legal move, White wins".
    pub fn describe(&self, pos: &Position) -> String {
        let turn = pos.turn();
        match self {
            Verdict::Playable(1) => format!("{turn} to move, 1 legal move"),
            Verdict::Playable(n) => format!("{turn} to move, {n} legal moves"),
            Verdict::Finished(Outcome::Win(c)) if *c == turn => format!(
                "a finished game: {turn} to move has no legal move, and in the losing game \
                 that wins"
            ),
            Verdict::Finished(Outcome::Win(c)) => {
                format!("a finished game: {turn} to move has no legal move, {c} wins")
            }
            Verdict::Finished(Outcome::Draw) => "a finished game: drawn".into(),
        }
    }
}

/// Check a position put on the board by hand (which may break any rule) for a game under
/// `rules`: the position as the game takes it, and what it is; or why it is refused.
pub fn check_position(board: &Position, rules: Rules) -> Result<(Position, Verdict), String> {
    let (red, white) = (board.pieces(Color::Red), board.pieces(Color::White));
    let pos = Position::from_bitboards(red, white, board.kings(), board.turn())
        .map_err(|e| e.to_string())?
        .with_rules(rules);
    for side in [Color::Red, Color::White] {
        if pos.count(side) == 0 {
            return Err(format!(
                "{side} has no pieces: there is no game (each side needs at least one)"
            ));
        }
    }
    let verdict = match pos.outcome() {
        Some(outcome) => Verdict::Finished(outcome),
        None => Verdict::Playable(pos.legal_moves().len()),
    };
    Ok((pos, verdict))
}

/// Read a FEN typed or pasted: `W:W21,22,K30:B1,2,3`, with or without a trailing dot, spaces,
/// quotes, lower case, ranges (`B1-12`), or the whole `[FEN "..."]` tag. An error names the
/// field that is wrong: `FEN field 3, Red's pieces (B): square 33 is not between 1 and 32`.
pub fn read_fen(text: &str) -> Result<Position, String> {
    let fen = loose(text);
    Position::from_fen(fen).map_err(|e| match field_of(fen, &e) {
        Some(field) => format!("FEN {field}: {e}"),
        None => format!("FEN: {e}"),
    })
}

/// The FEN inside what was pasted: the value of a `[FEN "..."]` tag, or the text itself.
fn loose(text: &str) -> &str {
    let t = text.trim();
    let Some(inner) = t.strip_prefix('[') else {
        return t;
    };
    let inner = inner.strip_suffix(']').unwrap_or(inner).trim_start();
    match inner.get(..3) {
        Some(tag) if tag.eq_ignore_ascii_case("fen") => inner[3..].trim(),
        _ => t,
    }
}

/// Which field of `fen` the error is in, in words: `field 1, the side to move`, `field 3,
/// Red's pieces (B)`; `None` when it is no one field's fault.
fn field_of(fen: &str, e: &FenError) -> Option<String> {
    let clean: String = fen.chars().filter(|c| !c.is_whitespace()).collect();
    let clean = clean.trim_matches('"');
    let clean = clean.strip_suffix('.').unwrap_or(clean);
    let fields: Vec<&str> = clean.split(':').collect();
    let name = |i: usize| {
        let f = fields.get(i).copied().unwrap_or("");
        let whose = match f.chars().next() {
            Some('W' | 'w') => "White's pieces (W)",
            Some('B' | 'b') => "Red's pieces (B)",
            _ => "a piece list, which must start with W or B",
        };
        format!("field {}, {whose}", i + 1)
    };
    let holding = |found: &dyn Fn(&str) -> bool| {
        (1..fields.len())
            .find(|&i| fields[i].get(1..).unwrap_or("").split(',').any(found))
            .map(name)
    };
    let of_colour = |c: Color| {
        let letter = if c == Color::Red { 'B' } else { 'W' };
        (1..fields.len())
            .find(|&i| fields[i].starts_with([letter, letter.to_ascii_lowercase()]))
            .map(name)
    };
    match e {
        FenError::BadTurn(_) => Some("field 1, the side to move".into()),
        FenError::BadColour(block) => fields.iter().position(|f| *f == block.as_str()).map(name),
        FenError::BadSquare(item) => holding(&|x| x == item.as_str()),
        FenError::OutOfRange(n) => holding(&|x| covers(x, *n)),
        FenError::Duplicate(n) => holding(&|x| covers(x, u32::from(*n))),
        FenError::RepeatedColour(c) | FenError::UncrownedMan(c, _) | FenError::TooMany(c, _) => {
            of_colour(*c)
        }
        FenError::BothColours(_) => Some("fields 2 and 3, both piece lists".into()),
        FenError::Empty | FenError::NoPieces | FenError::Invalid(_) => None,
    }
}

/// True if the FEN entry `item` (`14`, `K30`, `21-32`) names square number `n`.
fn covers(item: &str, n: u32) -> bool {
    let body = item.trim_start_matches(['K', 'k']);
    let (lo, hi) = body.split_once('-').unwrap_or((body, body));
    match (lo.parse::<u32>(), hi.parse::<u32>()) {
        (Ok(lo), Ok(hi)) => (lo..=hi).contains(&n) || lo == n || hi == n,
        _ => false,
    }
}
