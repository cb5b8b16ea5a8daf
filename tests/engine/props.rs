//! Property tests of the rules engine over positions reached by random play, in every game.

use crossboard::engine::{Game, Move, Position, Rules, parse_move, parse_squares, perft, squares};
use proptest::prelude::*;

/// A position reached from the start by `choices` (each picks one legal move by index).
fn playout(choices: &[usize]) -> Game {
    playout_in(Rules::English, choices)
}

/// The same under `rules`.
fn playout_in(rules: Rules, choices: &[usize]) -> Game {
    let mut game = Game::new(rules, Position::start());
    for &c in choices {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(&moves[c % moves.len()])
            .expect("generated moves are legal");
    }
    game
}

fn choices() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 0..160)
}

fn any_rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(Rules::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fen_round_trips(c in choices(), rules in any_rules()) {
        let pos = *playout_in(rules, &c).position();
        let fen = pos.to_fen();
        prop_assert_eq!(Position::from_fen_in(rules, &fen).unwrap(), pos);
        prop_assert_eq!(Position::from_fen_in(rules, &format!("{fen}.")).unwrap(), pos);
    }

    #[test]
    fn fen_reads_any_order(c in choices(), rot in 0usize..32) {
        let pos = *playout(&c).position();
        // Write each colour's squares in a rotated (unsorted) order, White block last.
        let list = |bb: u32| {
            let mut items: Vec<String> = squares(bb)
                .map(|s| if pos.kings() & s.bit() != 0 { format!("K{s}") } else { s.to_string() })
                .collect();
            if !items.is_empty() {
                let k = rot % items.len();
                items.rotate_left(k);
            }
            items.join(",")
        };
        let turn = if pos.turn() == crossboard::engine::Color::Red { "B" } else { "W" };
        let fen = format!(
            "{turn}:B{}:W{}",
            list(pos.pieces(crossboard::engine::Color::Red)),
            list(pos.pieces(crossboard::engine::Color::White))
        );
        prop_assert_eq!(Position::from_fen(&fen).unwrap(), pos);
    }

    #[test]
    fn play_then_take_back_restores(c in choices(), pick in any::<usize>()) {
        let mut game = playout(&c);
        let before = game.clone();
        let moves = game.position().legal_moves();
        prop_assume!(!moves.is_empty());
        let mv = moves[pick % moves.len()];
        game.play(&mv).unwrap();
        prop_assert_ne!(game.position(), before.position());
        prop_assert_eq!(game.take_back(), Some(mv));
        prop_assert_eq!(game, before);
    }

    #[test]
    fn every_move_parses_back_from_its_notation(c in choices(), rules in any_rules()) {
        let game = playout_in(rules, &c);
        let pos = game.position();
        for mv in pos.legal_moves() {
            let text = mv.to_string();
            let parsed = parse_move(pos, &text).unwrap();
            prop_assert_eq!(parsed, mv, "{}", text);
            if !rules.flying_kings() {
                prop_assert_eq!(Move::from_notation_path(&text).unwrap(), mv);
            }
            // Read without a position (as from a file), the move resolves to itself.
            let (path, capture) = parse_squares(&text).unwrap();
            let read = Move::from_diagonal_path(&path, capture).unwrap();
            prop_assert_eq!(pos.resolve(&read), Some(mv));
            prop_assert_eq!(pos.after(&read), pos.after(&mv));
        }
    }

    #[test]
    fn playing_a_move_keeps_the_rules(c in choices(), rules in any_rules(), pick in any::<usize>()) {
        let mut game = playout_in(rules, &c);
        let moves = game.position().legal_moves();
        prop_assume!(!moves.is_empty());
        game.play(&moves[pick % moves.len()]).unwrap();
        prop_assert_eq!(game.position().rules(), rules);
        prop_assert!(game.positions().iter().all(|p| p.rules() == rules));
    }

    #[test]
    fn illegal_play_changes_nothing(c in choices(), from in 1u8..=32, to in 1u8..=32) {
        let game = playout(&c);
        let mut pos = *game.position();
        let before = pos;
        let text = format!("{from}-{to}");
        match parse_move(&pos, &text) {
            Ok(mv) => prop_assert!(pos.legal_moves().contains(&mv)),
            Err(_) => {
                if let Ok(mv) = Move::from_notation_path(&text)
                    && !pos.legal_moves().contains(&mv) {
                        prop_assert!(pos.play(&mv).is_err());
                    }
                prop_assert_eq!(pos, before);
            }
        }
    }

    #[test]
    fn distinct_moves_have_distinct_results(c in choices(), rules in any_rules()) {
        let game = playout_in(rules, &c);
        let pos = game.position();
        let distinct = pos.distinct_moves();
        let mut results: Vec<Position> = distinct.iter().map(|m| pos.after(m)).collect();
        let n = results.len();
        results.sort_by_key(|p| p.to_fen());
        results.dedup();
        prop_assert_eq!(results.len(), n);
        // Every legal move's result is among them.
        for m in pos.legal_moves() {
            prop_assert!(results.contains(&pos.after(&m)));
        }
    }

    #[test]
    fn game_serde_round_trips(c in choices(), rules in any_rules()) {
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Wrap { game: Game }
        let game = playout_in(rules, &c);
        let text = toml::to_string(&Wrap { game: game.clone() }).unwrap();
        let back: Wrap = toml::from_str(&text).unwrap();
        prop_assert_eq!(back.game.rules(), rules);
        prop_assert_eq!(back.game, game);
    }

    /// Perft's bulk counting and its capture descent agree with the moves a game is offered
    /// (pool counts each capture's routes once, as distinct_moves does).
    #[test]
    fn perft_counts_the_legal_moves(c in choices(), rules in any_rules()) {
        let game = playout_in(rules, &c);
        let pos = game.position();
        let offered = |p: &Position| if rules == Rules::Pool {
            p.distinct_moves().len() as u64
        } else {
            p.legal_moves().len() as u64
        };
        prop_assert_eq!(perft(pos, 1), offered(pos));
        prop_assert_eq!(crossboard::engine::count_moves(pos), pos.legal_moves().len() as u64);
        let two: u64 = if rules == Rules::Pool { pos.distinct_moves() } else { pos.legal_moves() }
            .iter()
            .map(|m| offered(&pos.after(m)))
            .sum();
        prop_assert_eq!(perft(pos, 2), two);
    }

    #[test]
    fn outcome_follows_the_rules(c in choices(), rules in any_rules()) {
        let game = playout_in(rules, &c);
        let pos = game.position();
        match game.result() {
            None => prop_assert!(!pos.legal_moves().is_empty()),
            Some(outcome) => {
                prop_assert!(pos.legal_moves().is_empty());
                let winner = if rules == Rules::Losing { pos.turn() } else { pos.turn().opponent() };
                prop_assert_eq!(outcome, crossboard::engine::Outcome::Win(winner));
            }
        }
    }
}
