//! Tests of the Swiss pairing: rematches, byes, floats, the pairing score difference, colours.

use super::*;
use crate::engine::Color;
use crate::event::explain::{Avoided, Note};

fn player(id: u32, score: u32, met: &[u32]) -> SwissPlayer {
    SwissPlayer {
        id,
        rank: id,
        score: Points(score),
        met: met.iter().map(|&o| (o, 1)).collect(),
        bye_ok: true,
        unplayed: 0,
        colours: Vec::new(),
        last_float: Float::None,
        float_two_back: Float::None,
    }
}

#[test]
fn round_one_pairs_top_half_against_bottom_half() {
    let input = SwissInput {
        round: 1,
        single_game: true,
        topscorers: None,
        players: (1..=6).map(|i| player(i, 0, &[])).collect(),
    };
    let p = pair(&input).unwrap();
    // 1-4, 5-2, 3-6: the higher seed alternates Red and White down the boards.
    assert_eq!(p.boards, vec![(1, 4), (5, 2), (3, 6)]);
    assert_eq!(p.bye, None);
}

#[test]
fn odd_field_gives_the_bye_to_the_lowest_eligible() {
    let mut players: Vec<SwissPlayer> = (1..=5).map(|i| player(i, 0, &[])).collect();
    players[4].bye_ok = false;
    let input = SwissInput {
        round: 2,
        single_game: false,
        topscorers: None,
        players,
    };
    let p = pair(&input).unwrap();
    assert_eq!(p.bye, Some(4));
    assert_eq!(p.explanation.bye.as_ref().unwrap().skipped, vec![5]);
}

#[test]
fn rematches_are_avoided_and_explained() {
    // 1 and 3 met, 2 and 4; natural pairing of four level players is 1-3, 2-4. The Dutch
    // sequence tries S2's transpositions before any exchange: 1-4, 2-3 (not 1-2, 3-4).
    let input = SwissInput {
        round: 2,
        single_game: false,
        topscorers: None,
        players: vec![
            player(1, 2, &[3]),
            player(2, 2, &[4]),
            player(3, 2, &[1]),
            player(4, 2, &[2]),
        ],
    };
    let p = pair(&input).unwrap();
    let mut boards: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    boards.sort();
    assert_eq!(boards, vec![(1, 4), (2, 3)]);
    let why = p.explanation.board_of(1).unwrap();
    assert!(why.notes.contains(&Note::NaturalAvoided {
        player: 1,
        natural: 3,
        why: Avoided::Rematch { round: 1 }
    }));
}

#[test]
fn an_odd_group_floats_its_lowest_player_down() {
    // Three on 2 points, three on 0: player 3 floats to meet 4.
    let input = SwissInput {
        round: 2,
        single_game: false,
        topscorers: None,
        players: vec![
            player(1, 2, &[]),
            player(2, 2, &[]),
            player(3, 2, &[]),
            player(4, 0, &[]),
            player(5, 0, &[]),
            player(6, 0, &[]),
        ],
    };
    let p = pair(&input).unwrap();
    let b = p.explanation.board_of(3).unwrap();
    assert!(
        b.notes
            .iter()
            .any(|n| matches!(n, Note::Floated { player: 3, .. }))
    );
    let opp = if b.first == 3 { b.second } else { b.first };
    assert_eq!(opp, 4, "the floater meets the top of the next group");
}

/// The opponents of `id` in the pairing.
fn opponent(p: &crate::event::Pairing, id: u32) -> Option<u32> {
    p.boards.iter().find_map(|&(a, b)| {
        if a == id {
            Some(b)
        } else if b == id {
            Some(a)
        } else {
            None
        }
    })
}

#[test]
fn psd_pairs_the_highest_mover_first() {
    // C6: 1 (3 points) and 2 (2½), who met, both come down to the 2-point group of player 3:
    // 1-3 with 2 floating gives the PSD [2, 2], 2-3 with 1 floating [3, 1].
    let input = SwissInput {
        round: 4,
        single_game: false,
        topscorers: None,
        players: vec![
            player(1, 6, &[2]),
            player(2, 5, &[1]),
            player(3, 4, &[]),
            player(4, 0, &[]),
            player(5, 0, &[]),
            player(6, 0, &[]),
        ],
    };
    let p = pair(&input).unwrap();
    assert_eq!(opponent(&p, 1), Some(3));
    assert_eq!(opponent(&p, 2), Some(4));
}

/// Round 3: players 1-3 on 2 points, 4-6 on none, none of them met; player `id` floated
/// `last` in the round before.
fn three_level_over_three(id: u32, last: Float) -> SwissInput {
    let mut players: Vec<_> = (1..=6)
        .map(|i| player(i, if i <= 3 { 2 } else { 0 }, &[]))
        .collect();
    players[id as usize - 1].last_float = last;
    SwissInput {
        round: 3,
        single_game: false,
        topscorers: None,
        players,
    }
}

#[test]
fn a_player_who_floated_down_last_round_does_not_float_again() {
    // C12: of three level players the lowest (3) would float; it floated down last round,
    // so 2 floats instead and 3 meets 1.
    let input = three_level_over_three(3, Float::Down);
    let p = pair(&input).unwrap();
    assert_eq!(opponent(&p, 3), Some(1));
    assert_eq!(opponent(&p, 2), Some(4));
}

#[test]
fn a_player_who_floated_up_last_round_does_not_float_up_again() {
    // C13: 3 floats down to the group of 4, 5, 6; its natural opponent 4 floated up last
    // round, so 3 meets 5 and 4 stays in its group.
    let input = three_level_over_three(4, Float::Up);
    let p = pair(&input).unwrap();
    assert_eq!(opponent(&p, 3), Some(5));
    assert_eq!(opponent(&p, 4), Some(6));
}

#[test]
fn impossible_rounds_are_refused() {
    let input = SwissInput {
        round: 2,
        single_game: false,
        topscorers: None,
        players: vec![player(1, 2, &[2]), player(2, 0, &[1])],
    };
    assert!(matches!(pair(&input), Err(SwissError::Impossible { .. })));
}

#[test]
fn colour_preferences() {
    use Color::{Red, White};
    assert_eq!(preference(&[]), None);
    assert_eq!(
        preference(&[Red]),
        Some(Pref {
            colour: White,
            strength: Strength::Strong
        })
    );
    assert_eq!(
        preference(&[Red, White]),
        Some(Pref {
            colour: Red,
            strength: Strength::Mild
        })
    );
    assert_eq!(
        preference(&[White, Red, Red]),
        Some(Pref {
            colour: White,
            strength: Strength::Absolute
        })
    );
}
