//! Random command streams through the director: nothing panics, a refused command changes
//! nothing, an accepted one only appends to the log, and the match always reads back from TOML.

use crate::director_support;

use crossboard::director::*;
use director_support::*;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::cell::Cell;

/// Runs the director through one random stream, checking the invariants at every step; tells
/// whether the stream got as far as a move.
fn run_stream(seed: u64, steps: Vec<(u8, u8, u64)>) -> Result<bool, TestCaseError> {
    let mut s = settings(2);
    s.time_control = TimeControl::sudden_death(300);
    s.tie = TieRule::ContinueInBlocks {
        max_blocks: Some(1),
    };
    let mut h = H::new(s, seed);
    let mut max_moves = 0;
    for (i, (pick, arg, wait)) in steps.into_iter().enumerate() {
        h.wait(wait);
        let c = if pick < 160 {
            expected(&h, arg)
        } else {
            command(&h, pick, arg)
        };
        let before = h.m.clone();
        let now = h.now();
        match h.m.apply(c.clone(), now, &mut h.rng) {
            Ok(entries) => {
                prop_assert_eq!(h.m.log().len(), before.log().len() + entries.len());
                prop_assert_eq!(&h.m.log()[..before.log().len()], before.log());
            }
            Err(e) => {
                prop_assert!(
                    h.m == before,
                    "{:?} refused ({}) but changed the match",
                    c,
                    e
                );
            }
        }
        // Scores never exceed what the games played allow.
        let score = h.m.score();
        let games = score.games.iter().filter(|g| g.result.is_some()).count() as u32;
        prop_assert!(score.total[0].0 + score.total[1].0 <= 2 * games);
        if let Some(g) = h.m.current_game() {
            prop_assert_eq!(g.moves.len(), g.game.moves().len());
            max_moves = max_moves.max(h.m.games().map(|g| g.moves.len()).sum::<usize>());
        }
        if i % 25 == 0 {
            let log = h.m.log().to_vec();
            let phase = h.m.phase();
            h.reload(i as u64);
            prop_assert_eq!(&h.m.log()[..log.len()], &log[..]);
            prop_assert_eq!(h.m.phase(), phase);
        }
    }
    Ok(max_moves > 0)
}

#[test]
fn random_streams_keep_the_invariants() {
    const CASES: u32 = 48;
    let mut runner = TestRunner::new(ProptestConfig {
        cases: CASES,
        ..ProptestConfig::default()
    });
    let streams = (
        0u64..1000,
        prop::collection::vec((any::<u8>(), any::<u8>(), 0u64..90_000), 1..160),
    );
    let reached_a_move = Cell::new(0u32);
    let outcome = runner.run(&streams, |(seed, steps)| {
        if run_stream(seed, steps)? {
            reached_a_move.set(reached_a_move.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
    // The streams get into games: a stream may end before its first move (a short one, or one
    // that keeps rejecting ballots), but most must not, or the invariants above are only ever
    // checked on set-up.
    let reached = reached_a_move.get();
    assert!(
        reached >= CASES / 2,
        "only {reached} of {CASES} random streams reached a move"
    );
}
