//! Standard move notation: reading what a person types (`11-15`, `15x24x31`, `15x31`, `11 15`)
//! against a position, and the errors that explain why a move was refused.

use super::board::Square;
use super::moves::Move;
use super::position::Position;
use thiserror::Error;

/// Why a move was not accepted. The position is never changed by a refused move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not written like a move.
    #[error("{text:?} is not a move: {why}")]
    Syntax {
        /// What was typed.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// Well formed, but not legal here.
    #[error("{text} is illegal: {reason}")]
    Illegal {
        /// The move as typed or written.
        text: String,
        /// Why it is illegal.
        reason: String,
    },
    /// The short form fits more than one legal move with different results.
    #[error("{text} is ambiguous: write one of {}", candidates.join(", "))]
    Ambiguous {
        /// What was typed.
        text: String,
        /// The full notation of each legal move that fits.
        candidates: Vec<String>,
    },
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
}

/// Characters a person may leave at the end of a move (`11-15.`, `15x24!`, `9-14,`).
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', '*', ')'];

/// Split typed text into square numbers and whether an `x` was used.
pub fn parse_squares(text: &str) -> Result<(Vec<Square>, bool), MoveError> {
    let syntax = |why: &str| MoveError::Syntax {
        text: text.to_string(),
        why: why.to_string(),
    };
    let body = text.trim().trim_end_matches(TRAILING).trim();
    if body.is_empty() {
        return Err(syntax("nothing was typed"));
    }
    if let Some(c) = body
        .chars()
        .find(|c| !(c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X' | ' ' | ':')))
    {
        return Err(syntax(&format!(
            "unexpected {c:?}; write squares 1-32 joined by - or x, like 11-15 or 15x24"
        )));
    }
    let capture = body.contains(['x', 'X']);
    let parts: Vec<&str> = body.split(['-', 'x', 'X', ' ', ':']).collect();
    if parts.iter().any(|p| p.is_empty()) && body.split_whitespace().count() < 2 {
        return Err(syntax("a square number is missing"));
    }
    let mut squares = Vec::new();
    for p in parts.into_iter().filter(|p| !p.is_empty()) {
        let n: u32 = p.parse().map_err(|_| syntax("square number too long"))?;
        let sq = u8::try_from(n)
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| syntax(&format!("there is no square {n}; squares are 1-32")))?;
        squares.push(sq);
    }
    if squares.len() < 2 {
        return Err(syntax("a move needs a start and an end square"));
    }
    Ok((squares, capture))
}

/// True when `typed` names `mv`: same start and end, and every typed intermediate square
/// appears on the move's path in order (so `15x31` and `15x24x31` both name `15x24x31`).
fn fits(typed: &[Square], mv: &Move) -> bool {
    let path: Vec<Square> = mv.path().collect();
    if typed.first() != path.first() || typed.last() != path.last() {
        return false;
    }
    let mut rest = path[1..path.len() - 1].iter();
    typed[1..typed.len() - 1]
        .iter()
        .all(|t| rest.any(|p| p == t))
}

/// Read a move typed by a person against the legal moves of `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let (typed, _capture) = parse_squares(text)?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(MoveError::GameOver);
    }
    let fitting: Vec<&Move> = legal.iter().filter(|m| fits(&typed, m)).collect();
    let shown = typed
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(if _capture { "x" } else { "-" });
    if let Some(exact) = fitting.iter().find(|m| m.path().eq(typed.iter().copied())) {
        return Ok(**exact);
    }
    match fitting.as_slice() {
        [] => Err(explain_no_fit(pos, &typed, &shown, &legal)),
        [one] => Ok(**one),
        many => {
            let first = pos.after(many[0]);
            if many.iter().all(|m| pos.after(m) == first) {
                return Ok(*many[0]);
            }
            Err(MoveError::Ambiguous {
                text: shown,
                candidates: many.iter().map(|m| m.to_string()).collect(),
            })
        }
    }
}

fn explain_no_fit(pos: &Position, typed: &[Square], shown: &str, legal: &[Move]) -> MoveError {
    let from = typed[0];
    let reason = match pos.piece_at(from) {
        None => format!("there is no piece on {from}"),
        Some(p) if p.color != pos.turn() => {
            format!(
                "the piece on {from} is {}'s; {} is to move",
                p.color,
                pos.turn()
            )
        }
        Some(_) if pos.must_capture() => {
            let caps: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
            if legal.iter().any(|m| m.from() == from) {
                format!("that is not one of the captures: {}", caps.join(", "))
            } else {
                format!("a capture is compulsory: {}", caps.join(", "))
            }
        }
        Some(_) => {
            let own: Vec<String> = legal
                .iter()
                .filter(|m| m.from() == from)
                .map(|m| m.to_string())
                .collect();
            if own.is_empty() {
                format!("the piece on {from} cannot move")
            } else {
                format!("the piece on {from} can play {}", own.join(", "))
            }
        }
    };
    MoveError::Illegal {
        text: shown.to_string(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerant_forms() {
        let p = Position::start();
        for t in ["11-15", "11 15", " 11-15. ", "11-15!", "11x15"] {
            assert_eq!(parse_move(&p, t).unwrap().to_string(), "11-15", "{t}");
        }
    }

    #[test]
    fn clear_errors() {
        let p = Position::start();
        assert!(matches!(
            parse_move(&p, "hello"),
            Err(MoveError::Syntax { .. })
        ));
        assert!(matches!(
            parse_move(&p, "11-"),
            Err(MoveError::Syntax { .. })
        ));
        assert!(matches!(
            parse_move(&p, "11-40"),
            Err(MoveError::Syntax { .. })
        ));
        let e = parse_move(&p, "22-18").unwrap_err().to_string();
        assert!(e.contains("White's"), "{e}");
        let e = parse_move(&p, "13-17").unwrap_err().to_string();
        assert!(e.contains("no piece on 13"), "{e}");
        let e = parse_move(&p, "11-14").unwrap_err().to_string();
        assert!(e.contains("11-15"), "{e}");
    }

    #[test]
    fn compulsory_capture_named() {
        let p = Position::from_fen("B:W18:B14,1").unwrap();
        let e = parse_move(&p, "1-6").unwrap_err().to_string();
        assert!(e.contains("compulsory") && e.contains("14x23"), "{e}");
    }

    #[test]
    fn short_capture_and_ambiguity() {
        // A Red man on 2 can reach 18 by two routes capturing different men.
        let p = Position::from_fen("B:W6,7,14,15:B2").unwrap();
        let e = parse_move(&p, "2x18").unwrap_err();
        match &e {
            MoveError::Ambiguous { candidates, .. } => {
                assert_eq!(candidates, &["2x9x18".to_string(), "2x11x18".to_string()])
            }
            other => panic!("{other}"),
        }
        assert_eq!(parse_move(&p, "2x11x18").unwrap().to_string(), "2x11x18");
        assert_eq!(parse_move(&p, "2x9x18").unwrap().captured().count_ones(), 2);
    }
}
