//! Zobrist hashing of positions, for the transposition table and repetition checks.

use crate::engine::{Bitboard, Color, Move, Position, Rules, squares};

/// Piece kinds indexing the key table.
const RED_MAN: usize = 0;
const RED_KING: usize = 1;
const WHITE_MAN: usize = 2;
const WHITE_KING: usize = 3;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    piece: [[u64; 32]; 4],
    white_to_move: u64,
    /// One key per game (English 0): the same pieces under other rules are another position.
    rules: [u64; Rules::ALL.len()],
}

const fn build_keys() -> Keys {
    let mut piece = [[0; 32]; 4];
    let mut state = 0x00C0_55B0_A4D0_2026;
    let mut k = 0;
    while k < 4 {
        let mut sq = 0;
        while sq < 32 {
            let (s, v) = splitmix(state);
            state = s;
            piece[k][sq] = v;
            sq += 1;
        }
        k += 1;
    }
    let (state, white_to_move) = splitmix(state);
    let mut rules = [0; Rules::ALL.len()];
    let mut r = 1;
    let mut state = state;
    while r < rules.len() {
        let (s, v) = splitmix(state);
        state = s;
        rules[r] = v;
        r += 1;
    }
    Keys {
        piece,
        white_to_move,
        rules,
    }
}

static KEYS: Keys = build_keys();

fn fold(kind: usize, bb: Bitboard) -> u64 {
    squares(bb).fold(0, |h, sq| h ^ KEYS.piece[kind][sq.index() as usize])
}

/// The hash of a position (pieces, side to move and game).
pub(super) fn hash(pos: &Position) -> u64 {
    let mut h = KEYS.rules[pos.rules() as usize]
        ^ fold(RED_MAN, pos.men(Color::Red))
        ^ fold(RED_KING, pos.kings_of(Color::Red))
        ^ fold(WHITE_MAN, pos.men(Color::White))
        ^ fold(WHITE_KING, pos.kings_of(Color::White));
    if pos.turn() == Color::White {
        h ^= KEYS.white_to_move;
    }
    h
}

fn kind(color: Color, king: bool) -> usize {
    match (color, king) {
        (Color::Red, false) => RED_MAN,
        (Color::Red, true) => RED_KING,
        (Color::White, false) => WHITE_MAN,
        (Color::White, true) => WHITE_KING,
    }
}

/// The hash of `pos.after(mv)` from the hash `h` of `pos`, updated incrementally.
#[inline(always)]
pub(super) fn hash_after(h: u64, pos: &Position, mv: &Move) -> u64 {
    let us = pos.turn();
    let from = mv.from().index() as usize;
    let to = mv.to();
    let was_king = pos.kings() & mv.from().bit() != 0;
    let is_king = was_king || to.bit() & us.crown_squares() != 0;
    let mut h = h ^ KEYS.white_to_move;
    h ^= KEYS.piece[kind(us, was_king)][from];
    h ^= KEYS.piece[kind(us, is_king)][to.index() as usize];
    let them = us.opponent();
    let captured = mv.captured();
    if captured != 0 {
        h ^= fold(kind(them, false), captured & !pos.kings());
        h ^= fold(kind(them, true), captured & pos.kings());
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move's incremental hash equals the full hash of the position it leads to.
    fn check_incremental(rules: Rules, fens: &[&str]) {
        for fen in fens {
            let pos = Position::from_fen_in(rules, fen).unwrap();
            let h = hash(&pos);
            for mv in pos.legal_moves() {
                assert_eq!(
                    hash_after(h, &pos, &mv),
                    hash(&pos.after(&mv)),
                    "{rules:?} {fen} {mv}"
                );
            }
        }
    }

    #[test]
    fn incremental_hash_matches_full_hash() {
        check_incremental(
            Rules::English,
            &[
                "B:W21-32:B1-12",
                "W:W18,24,K10,27:B12,16,K22,K23",
                "B:W6,K19,K26:B1,K15,27",
                "B:W18,19,26,27:B14,15,23,K2",
            ],
        );
    }

    #[test]
    fn pool_moves_hash_incrementally_and_the_game_changes_the_hash() {
        check_incremental(
            Rules::Pool,
            &[
                "B:W10,32:BK1",
                "B:W26,27,12:B22,3",
                "W:WK1,K3,21,22,25:BK30,K32,9,10,11",
            ],
        );
        let hashes: Vec<u64> = Rules::ALL
            .iter()
            .map(|&r| hash(&Position::start_in(r)))
            .collect();
        for (i, a) in hashes.iter().enumerate() {
            assert!(!hashes[i + 1..].contains(a), "{hashes:?}");
        }
    }

    #[test]
    fn side_to_move_changes_the_hash() {
        let p = Position::start();
        assert_ne!(hash(&p), hash(&p.with_turn(Color::White)));
        assert_ne!(KEYS.piece[0][0], KEYS.piece[1][0]);
    }
}
