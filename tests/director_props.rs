//! Random command streams through the director: nothing panics, a refused command changes
//! nothing, an accepted one only appends to the log, and the match always reads back from TOML.

mod director_support;

use crossboard::director::*;
use crossboard::engine::{Color, Outcome};
use director_support::*;
use proptest::prelude::*;

/// What the match waits for, as a command (so streams get deep into matches).
fn expected(h: &H, arg: u8) -> Command {
    let colour = if arg % 2 == 0 {
        Color::Red
    } else {
        Color::White
    };
    match h.m.awaiting() {
        Awaiting::Toss(_) | Awaiting::Nothing => Command::AssignColour {
            player: Player::First,
            colour,
        },
        Awaiting::ColourChoice(player) => Command::ChooseColour { player, colour },
        Awaiting::BallotDraw(_) => Command::DrawBallot,
        Awaiting::Decision { colour, .. } if arg % 4 == 0 => Command::Reject { colour },
        Awaiting::Decision { colour, .. } => Command::Accept { colour },
        Awaiting::GameStart { .. } => Command::StartGame,
        Awaiting::Resume => Command::ResumeClocks,
        Awaiting::Move { .. } => command(h, 7, arg.wrapping_mul(31)),
    }
}

/// A command from a menu, with the move (if any) chosen among the legal ones by index.
fn command(h: &H, pick: u8, arg: u8) -> Command {
    let colour = if arg % 2 == 0 {
        Color::Red
    } else {
        Color::White
    };
    let player = if arg % 3 == 0 {
        Player::First
    } else {
        Player::Second
    };
    match pick % 22 {
        0 => Command::CallCoin {
            caller: player,
            call: if arg % 5 == 0 {
                CoinSide::Heads
            } else {
                CoinSide::Tails
            },
        },
        1 => Command::ChooseColour { player, colour },
        2 => Command::AssignColour { player, colour },
        3 => Command::DrawBallot,
        4 => Command::Accept { colour },
        5 => Command::Reject { colour },
        6 => Command::StartGame,
        7..=11 => match h.m.playing() {
            Some(g) => {
                let pos = g.game.position();
                let moves = pos.distinct_moves();
                let colour = if arg % 7 == 0 {
                    pos.turn().opponent()
                } else {
                    pos.turn()
                };
                match moves.get(arg as usize % moves.len().max(1)) {
                    Some(mv) => Command::PlayMove { colour, mv: *mv },
                    None => Command::Tick,
                }
            }
            None => Command::Move {
                colour,
                text: "11-15".into(),
            },
        },
        12 => Command::OfferDraw { colour },
        13 => Command::AcceptDraw { colour },
        14 => Command::Resign { colour },
        15 => Command::Tick,
        16 => Command::PauseClocks {
            reason: "dispute".into(),
        },
        17 => Command::ResumeClocks,
        18 => Command::TakeBack {
            moves: u32::from(arg % 4),
            reason: "mis-entry".into(),
        },
        19 => Command::AdjustTime {
            colour,
            delta_ms: i64::from(arg) * 1000 - 100_000,
            reason: "ruling".into(),
        },
        20 => Command::Adjudicate {
            outcome: if arg % 2 == 0 {
                Outcome::Draw
            } else {
                Outcome::Win(colour)
            },
            reason: "ruling".into(),
        },
        _ => Command::ClaimDraw { colour },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_streams_keep_the_invariants(
        seed in 0u64..1000,
        steps in prop::collection::vec((any::<u8>(), any::<u8>(), 0u64..90_000), 1..160),
    ) {
        let mut s = settings(2);
        s.time_control = TimeControl::sudden_death(300);
        s.tie = TieRule::ContinueInBlocks { max_blocks: Some(1) };
        let mut h = H::new(s, seed);
        let mut max_moves = 0;
        for (i, (pick, arg, wait)) in steps.into_iter().enumerate() {
            h.wait(wait);
            let c = if pick < 160 { expected(&h, arg) } else { command(&h, pick, arg) };
            let before = h.m.clone();
            let now = h.now();
            match h.m.apply(c.clone(), now, &mut h.rng) {
                Ok(entries) => {
                    prop_assert_eq!(h.m.log().len(), before.log().len() + entries.len());
                    prop_assert_eq!(&h.m.log()[..before.log().len()], before.log());
                }
                Err(e) => {
                    prop_assert!(h.m == before, "{:?} refused ({}) but changed the match", c, e);
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
        // Streams do get into games.
        prop_assert!(max_moves > 0 || h.m.log().len() < 12, "no move in {} entries", h.m.log().len());
    }
}
