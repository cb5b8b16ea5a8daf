//! Perft: the published table from the start position, and positions with kings, crowning
//! mid-capture and king loop captures checked against an independent slow generator written
//! from the rules (tests/slow: an 8x8 array board, nothing shared with the engine but FEN text).

use crossboard::engine::{Position, perft};

const START_TABLE: [u64; 14] = [
    1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673,
    1766623630,
];

#[test]
fn start_position_depths_1_to_11() {
    let p = Position::start();
    for (depth, &expected) in START_TABLE.iter().enumerate().take(12) {
        assert_eq!(perft(&p, depth as u32), expected, "perft({depth})");
    }
}

#[test]
#[ignore = "deep perft: run with tests/run -- --ignored"]
fn start_position_depth_12() {
    assert_eq!(perft(&Position::start(), 12), START_TABLE[12]);
}

#[test]
#[ignore = "deep perft: run with tests/run -- --ignored"]
fn start_position_depth_13() {
    assert_eq!(perft(&Position::start(), 13), START_TABLE[13]);
}

use crate::reference_movegen as slow;

/// Positions chosen to exercise kings, crowning in the middle of a capture, king loops and
/// long multi-jumps, for both sides to move.
const POSITIONS: &[(&str, u32)] = &[
    // Start position, shallow.
    (
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        6,
    ),
    // A Red man jumps onto the crown row and must stop although a king could go on.
    ("B:W26,27,19,K12:B22,15,K5", 6),
    ("W:W10,11,K20:B6,7,14,K27", 6),
    // King loop: the king on 2 can capture 6, 14, 15, 7 and land on its own square again.
    ("B:W6,7,14,15,30:BK2,12", 6),
    ("W:WK31:B22,23,26,27,K9", 6),
    // Kings in the open with men about.
    ("B:W18,19,26,27,K4:B6,7,10,15,K28", 5),
    ("W:WK1,K3,21,22,25:BK30,K32,9,10,11", 5),
    // Long multi-jump choices for a man.
    ("B:W6,7,14,15,22,23,K32:B2,3", 6),
    ("W:W30,31:B26,27,18,19,10,11,K1", 6),
];

#[test]
fn special_positions_match_slow_generator() {
    for &(fen, depth) in POSITIONS {
        let fast = Position::from_fen(fen).unwrap();
        let reference = slow::from_fen(fen);
        for d in 1..=depth {
            assert_eq!(
                perft(&fast, d),
                slow::perft(&reference, slow::Game::English, d),
                "perft({d}) of {fen}"
            );
        }
    }
}

#[test]
fn king_loop_capture_returns_to_start() {
    let p = Position::from_fen("B:W6,7,14,15,30:BK2,12").unwrap();
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(moves.contains(&"2x9x18x11x2".to_string()), "{moves:?}");
    assert!(moves.contains(&"2x11x18x9x2".to_string()), "{moves:?}");
    // Two paths, same start, end and captured set: perft counts both, a person sees one.
    assert_eq!(p.distinct_moves().len(), moves.len() - 1);
}

#[test]
fn crowning_ends_the_capture() {
    let p = Position::from_fen("B:W26,27,19,K12:B22,15,K5").unwrap();
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(moves.contains(&"22x31".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("22x31x")), "{moves:?}");
    let after = p.after(&p.legal_moves()[moves.iter().position(|m| m == "22x31").unwrap()]);
    assert!(after.kings() & (1 << 30) != 0, "the man is crowned on 31");
}

/// Random playouts (a fixed linear congruential sequence): every position along them must agree
/// with the slow generator at depth 3.
#[test]
fn random_playouts_match_slow_generator() {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    let mut checked = 0;
    for _ in 0..40 {
        let mut pos = Position::start();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if next() % 4 == 0 {
                let reference = slow::from_fen(&pos.to_fen());
                assert_eq!(
                    perft(&pos, 3),
                    slow::perft(&reference, slow::Game::English, 3),
                    "{}",
                    pos.to_fen()
                );
                checked += 1;
            }
            pos = pos.after(&moves[next() % moves.len()]);
        }
    }
    assert!(checked > 500, "only {checked} positions checked");
}
