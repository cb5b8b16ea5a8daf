//! Positions read from text (a FEN, a PDN's FEN tag, the Hub protocol's position) pass one
//! check: at most 12 pieces a side, a piece on the board, no man on its crowning row.

use crossboard::engine::{Color, FenError, Position};
use crossboard::search::parse_position;
use crossboard::store::read_pdn;

/// Why `fen` is refused.
fn refused(fen: &str) -> String {
    match Position::from_fen(fen) {
        Ok(p) => panic!("{fen:?} read as {}", p.to_fen()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_fen_with_more_pieces_than_a_side_has_is_refused() {
    assert_eq!(
        refused("B:W19-32:B1-12"),
        "White has 14 pieces; a side has at most 12"
    );
    assert_eq!(
        refused("W:W32:B1-13"),
        "Red has 13 pieces; a side has at most 12"
    );
    // Kings count as men do.
    assert!(Position::from_fen("B:W21-32:B1-8,K9-12").is_ok());
    assert_eq!(
        refused("B:W21-32:B1-8,K9-13"),
        "Red has 13 pieces; a side has at most 12"
    );
}

#[test]
fn a_fen_with_no_piece_is_refused() {
    for fen in ["B", "W:W:B", "B:B:W", "W."] {
        assert_eq!(refused(fen), "the position has no pieces at all", "{fen}");
    }
    // One side without pieces is a finished game, still a position.
    assert!(Position::from_fen("W:W:B9").is_ok());
}

#[test]
fn a_man_on_its_crowning_row_is_refused() {
    assert_eq!(
        Position::from_fen("W:W21:B29"),
        Err(FenError::UncrownedMan(Color::Red, 29))
    );
    assert_eq!(
        Position::from_fen("B:W3:B12"),
        Err(FenError::UncrownedMan(Color::White, 3))
    );
}

#[test]
fn every_reader_of_a_position_refuses_the_same() {
    // The Hub protocol's 33-character form: 13 white men.
    let hub = format!("B{}{}{}", "b".repeat(12), "w".repeat(13), "e".repeat(7));
    assert_eq!(hub.len(), 33);
    let why = parse_position(&hub).unwrap_err().to_string();
    assert!(why.contains("White has 13 pieces"), "{why}");
    assert!(parse_position("W:W:B").is_err());
    // A PDN game set up from such a FEN.
    let games = read_pdn("[FEN \"B:W19-32:B1-12\"]\n\n1. 11-15 *\n");
    let why = games[0].as_ref().map(|_| ()).unwrap_err().to_string();
    assert!(why.contains("White has 14 pieces"), "{why}");
}
