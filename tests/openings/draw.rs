//! Drawing openings: the faithful 11-man deck (four draws, cards returned, blank move card
//! redrawn), uniform draws, exclusions, no-repeat, decks, seeds.

use crossboard::engine::{Color, Position};
use crossboard::openings::{
    self, Ballot, Draw, DrawMode, DrawSettings, Opening, OpeningError, Refusal, Roll, StepKind,
    System, ThreeMoveDeck, describe_steps, draw,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};

fn settings(system: System) -> DrawSettings {
    DrawSettings {
        system,
        ..DrawSettings::default()
    }
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn draws(s: &DrawSettings, seed: u64, n: usize) -> Vec<Draw> {
    let mut r = rng(seed);
    (0..n).map(|_| draw(s, &[], &mut r).unwrap()).collect()
}

/// The four cards of the accepted ballot: the card steps after the last "Redraw", blanks skipped.
fn accepted_cards(d: &Draw) -> Vec<(String, u32)> {
    let last = d.steps.iter().rposition(|s| s.kind == StepKind::Redraw);
    d.steps[last.map_or(0, |i| i + 1)..]
        .iter()
        .filter(|s| !s.is_blank())
        .map(|s| (s.kind.label().to_string(), s.card))
        .collect()
}

fn is_move_draw(kind: StepKind) -> bool {
    kind == StepKind::RedMoves || kind == StepKind::WhiteMoves
}

#[test]
fn default_settings_are_faithful_eleven_man() {
    let s = DrawSettings::default();
    assert_eq!(s.system, System::ElevenMan);
    assert_eq!(s.mode, DrawMode::Faithful);
    assert_eq!(s.three_move_deck, ThreeMoveDeck::Current156);
    assert!(!s.exclude_man_down && !s.exclude_kingsrow_lost && !s.no_repeat);
}

#[test]
fn a_faithful_eleven_man_draw_is_four_cards_in_order() {
    for d in draws(&DrawSettings::default(), 1, 300) {
        let cards = accepted_cards(&d);
        let whats: Vec<&str> = cards.iter().map(|(w, _)| w.as_str()).collect();
        assert_eq!(
            whats,
            ["Red removes", "Red moves", "White removes", "White moves"]
        );
        let b = Ballot::new(
            cards[0].1 as u8,
            cards[2].1 as u8,
            cards[1].1 as u8,
            cards[3].1 as u8,
        )
        .unwrap();
        assert_eq!(b.number(), d.opening.number);
        assert_eq!(b.opening(), d.opening);
        // Removal cards run 1-8; a move card 8 is blank and followed by a redraw.
        let meanings = describe_steps(&DrawSettings::default(), &d.steps);
        for (i, s) in d.steps.iter().enumerate() {
            assert!((1..=8).contains(&s.card));
            if is_move_draw(s.kind) && s.card == 8 {
                assert_eq!(meanings[i], "blank card: redraw");
                assert_eq!(d.steps[i + 1].kind, s.kind);
            }
        }
        let (red_removed, _) = b.removed();
        assert_eq!(meanings[0], format!("remove the man on {red_removed}"));
    }
}

#[test]
fn substituted_moves_are_explained() {
    let all = draws(&DrawSettings::default(), 5, 2000);
    let sub = all
        .iter()
        .flat_map(|d| describe_steps(&DrawSettings::default(), &d.steps))
        .find(|m| m.contains("removed:"))
        .expect("2,000 draws include a substitution");
    assert!(sub.ends_with("instead)"), "{sub}");
}

#[test]
fn the_same_seed_gives_the_same_draw() {
    let s = DrawSettings::default();
    assert_eq!(draws(&s, 42, 20), draws(&s, 42, 20));
    assert_ne!(draws(&s, 42, 20), draws(&s, 43, 20));
}

#[test]
fn faithful_draws_follow_the_deck_not_the_positions() {
    // Cards are returned, so every ballot is equally likely: a position given by k ballots comes
    // up k times as often. Count draws landing on positions with 2+ ballots.
    let n = 10_000;
    let multi: HashSet<u32> = openings::eleven_man_positions()
        .iter()
        .filter(|p| p.ballots.len() > 1)
        .map(|p| p.id)
        .collect();
    let ballots_on_multi: usize = openings::eleven_man_positions()
        .iter()
        .filter(|p| multi.contains(&p.id))
        .map(|p| p.ballots.len())
        .sum();
    let expected_faithful = ballots_on_multi as f64 / 3136.0;
    let expected_uniform = multi.len() as f64 / 2500.0;
    let share = |mode| {
        let s = DrawSettings {
            mode,
            ..DrawSettings::default()
        };
        let hits = draws(&s, 9, n)
            .iter()
            .filter(|d| multi.contains(&d.opening.public_id.unwrap()))
            .count();
        hits as f64 / n as f64
    };
    assert!((share(DrawMode::Faithful) - expected_faithful).abs() < 0.015);
    assert!((share(DrawMode::Uniform) - expected_uniform).abs() < 0.015);
    assert!((expected_faithful - expected_uniform).abs() > 0.05);

    // About one move draw in eight is the blank card.
    let d = draws(&DrawSettings::default(), 10, 4000);
    let move_draws = d
        .iter()
        .flat_map(|d| d.steps.iter())
        .filter(|s| is_move_draw(s.kind))
        .count();
    let blanks = d
        .iter()
        .flat_map(|d| d.steps.iter())
        .filter(|s| s.card == 8 && is_move_draw(s.kind))
        .count();
    let rate = blanks as f64 / move_draws as f64;
    assert!((rate - 0.125).abs() < 0.02, "blank rate {rate}");
}

#[test]
fn uniform_draws_give_one_ballot_per_position() {
    let s = DrawSettings {
        mode: DrawMode::Uniform,
        ..DrawSettings::default()
    };
    for d in draws(&s, 3, 500) {
        let p = openings::eleven_man_position(d.opening.public_id.unwrap()).unwrap();
        assert_eq!(d.opening.number, p.ballots[0]);
        assert_eq!(d.steps.len(), 1);
        assert_eq!(d.steps[0].card, p.id);
    }
}

#[test]
fn exclusions_redraw_and_say_why() {
    for mode in [DrawMode::Faithful, DrawMode::Uniform] {
        let s = DrawSettings {
            mode,
            exclude_man_down: true,
            ..DrawSettings::default()
        };
        assert!(
            draws(&s, 4, 3000)
                .iter()
                .all(|d| d.opening.loses_man.is_none())
        );
        let s = DrawSettings {
            mode,
            exclude_kingsrow_lost: true,
            ..DrawSettings::default()
        };
        assert!(draws(&s, 4, 3000).iter().all(|d| !d.opening.kingsrow_lost));
    }
    // Faithful: a rejected ballot is shown with its reason, then drawn again from scratch.
    let s = DrawSettings {
        exclude_man_down: true,
        ..DrawSettings::default()
    };
    let redraw = draws(&s, 4, 3000)
        .into_iter()
        .flat_map(|d| d.steps)
        .find(|st| st.kind == StepKind::Redraw)
        .expect("3,000 draws meet a man-down ballot");
    assert_eq!(redraw.why, Some(Refusal::WhiteLosesMan));
    let text = describe_steps(&s, std::slice::from_ref(&redraw));
    assert!(text[0].contains("White loses a man at once"), "{text:?}");
    assert_eq!(
        openings::opening(System::ElevenMan, redraw.card)
            .unwrap()
            .loses_man,
        Some(Color::White)
    );
    // Without exclusion the same ballots are played.
    assert!(
        draws(&DrawSettings::default(), 4, 3000)
            .iter()
            .any(|d| d.opening.loses_man.is_some())
    );
}

#[test]
fn no_repeat_within_a_match_until_none_left() {
    for mode in [DrawMode::Faithful, DrawMode::Uniform] {
        let s = DrawSettings {
            system: System::TwoMove,
            mode,
            exclude_man_down: true,
            no_repeat: true,
            ..DrawSettings::default()
        };
        let mut r = rng(11);
        let mut played: Vec<Opening> = Vec::new();
        for _ in 0..47 {
            let d = draw(&s, &played, &mut r).unwrap();
            assert!(played.iter().all(|o| o.position != d.opening.position));
            assert!(d.opening.loses_man.is_none());
            played.push(d.opening);
        }
        assert!(matches!(
            draw(&s, &played, &mut r),
            Err(OpeningError::NoneLeft {
                system: System::TwoMove,
                ..
            })
        ));
    }
}

#[test]
fn no_repeat_counts_transpositions_as_the_same_position() {
    let s = DrawSettings {
        no_repeat: true,
        ..DrawSettings::default()
    };
    // Play one ballot of every position given by two or more ballots: none of them comes again.
    let played: Vec<Opening> = openings::eleven_man_positions()
        .iter()
        .filter(|p| p.ballots.len() > 1)
        .map(|p| openings::opening(System::ElevenMan, p.ballots[1]).unwrap())
        .collect();
    let mut r = rng(12);
    for _ in 0..200 {
        let d = draw(&s, &played, &mut r).unwrap();
        assert_eq!(d.opening.transpositions(), Vec::<u32>::new());
    }
}

#[test]
fn three_move_draws_come_from_the_chosen_deck() {
    for deck in ThreeMoveDeck::ALL {
        for mode in [DrawMode::Faithful, DrawMode::Uniform] {
            let s = DrawSettings {
                system: System::ThreeMove,
                three_move_deck: deck,
                mode,
                ..DrawSettings::default()
            };
            let got: HashSet<u32> = draws(&s, 6, 3000)
                .iter()
                .map(|d| d.opening.number)
                .collect();
            let want: HashSet<u32> = (1..=174).filter(|&n| deck.contains(n)).collect();
            assert_eq!(got, want, "{deck:?} {mode:?}");
        }
    }
}

#[test]
fn roll_your_own_rolls_four_dice() {
    for d in draws(&settings(System::RollYourOwn), 8, 500) {
        let faces: Vec<u32> = d.steps.iter().map(|s| s.card).collect();
        assert_eq!(faces.len(), 4);
        let whats: Vec<&str> = d.steps.iter().map(|s| s.kind.label()).collect();
        assert_eq!(
            whats,
            ["Red removes", "Red places", "White removes", "White places"]
        );
        let r = Roll::new(
            faces[0] as u8,
            faces[1] as u8,
            faces[2] as u8,
            faces[3] as u8,
        )
        .unwrap();
        assert_eq!(r.number(), d.opening.number);
    }
    // All twelve d12 faces and four d4 faces turn up.
    let d = draws(&settings(System::RollYourOwn), 8, 500);
    let faces = |i: usize| {
        d.iter()
            .map(|d| d.steps[i].card)
            .collect::<HashSet<_>>()
            .len()
    };
    assert_eq!((faces(0), faces(1), faces(2), faces(3)), (12, 4, 12, 4));
}

#[test]
fn gayp_always_draws_the_start() {
    let s = DrawSettings {
        system: System::Gayp,
        no_repeat: true,
        ..DrawSettings::default()
    };
    let first = draw(&s, &[], &mut rng(1)).unwrap();
    assert_eq!(first.opening.position, Position::start());
    // GAYP has one opening: no-repeat does not apply.
    let again = draw(&s, std::slice::from_ref(&first.opening), &mut rng(2)).unwrap();
    assert_eq!(again.opening, first.opening);
}

#[test]
fn two_move_faithful_draws_cover_the_deck_evenly() {
    let d = draws(&settings(System::TwoMove), 13, 4900);
    let mut count: HashMap<u32, usize> = HashMap::new();
    for x in &d {
        *count.entry(x.opening.number).or_default() += 1;
        assert_eq!(x.steps[0].kind, StepKind::Ballot);
        assert_eq!(x.steps[0].card, x.opening.number);
    }
    assert_eq!(count.len(), 49);
    assert!(count.values().all(|&c| (60..=140).contains(&c)));
}

#[test]
fn draws_and_settings_survive_serialisation() {
    let s = DrawSettings {
        system: System::ThreeMove,
        three_move_deck: ThreeMoveDeck::Tough50,
        mode: DrawMode::Uniform,
        exclude_man_down: true,
        exclude_kingsrow_lost: false,
        no_repeat: true,
        rules: Default::default(),
    };
    let text = toml::to_string(&s).unwrap();
    assert!(text.contains("system = \"three-move\""), "{text}");
    assert!(text.contains("three-move-deck = \"tough50\""), "{text}");
    assert_eq!(toml::from_str::<DrawSettings>(&text).unwrap(), s);

    for d in draws(&DrawSettings::default(), 21, 5) {
        let text = toml::to_string(&d).unwrap();
        assert_eq!(toml::from_str::<Draw>(&text).unwrap(), d);
    }
}

#[test]
fn names_of_modes_and_decks_parse() {
    assert_eq!("uniform".parse::<DrawMode>().unwrap(), DrawMode::Uniform);
    assert_eq!(
        "tough50".parse::<ThreeMoveDeck>().unwrap(),
        ThreeMoveDeck::Tough50
    );
    assert_eq!(
        "current-156".parse::<ThreeMoveDeck>().unwrap(),
        ThreeMoveDeck::Current156
    );
    assert!("random".parse::<DrawMode>().is_err());
    assert!("deck7".parse::<ThreeMoveDeck>().is_err());
}

#[test]
fn recorded_draws_replay() {
    use crossboard::openings::replay;
    for system in System::ALL {
        for mode in [DrawMode::Faithful, DrawMode::Uniform] {
            let s = DrawSettings {
                system,
                mode,
                exclude_man_down: true,
                no_repeat: true,
                ..DrawSettings::default()
            };
            let mut r = rng(77);
            let mut played: Vec<Opening> = Vec::new();
            for _ in 0..30 {
                let Ok(d) = draw(&s, &played, &mut r) else {
                    break;
                };
                assert_eq!(
                    replay(&s, &played, &d.steps).unwrap(),
                    d,
                    "{system} {mode:?}"
                );
                played.push(d.opening);
            }
        }
    }
}

#[test]
fn a_wrong_record_does_not_replay() {
    use crossboard::openings::replay;
    let s = DrawSettings {
        exclude_man_down: true,
        ..DrawSettings::default()
    };
    // A draw with a redraw in it.
    let d = draws(&s, 4, 3000)
        .into_iter()
        .find(|d| d.steps.iter().any(|st| st.kind == StepKind::Redraw))
        .unwrap();
    assert_eq!(replay(&s, &[], &d.steps).unwrap(), d);
    // Without the exclusion the first ballot stands: the redraw is not called for.
    assert!(matches!(
        replay(&DrawSettings::default(), &[], &d.steps),
        Err(OpeningError::BadRecord(_))
    ));
    let mut bad = d.steps.clone();
    bad[0].card = 9;
    assert!(matches!(
        replay(&s, &[], &bad),
        Err(OpeningError::BadRecord(_))
    ));
    let mut bad = d.steps.clone();
    bad.swap(0, 1);
    assert!(replay(&s, &[], &bad).is_err());
    assert!(replay(&s, &[], &d.steps[..3]).is_err());
    let mut bad = d.steps.clone();
    let redraw = bad
        .iter_mut()
        .find(|st| st.kind == StepKind::Redraw)
        .unwrap();
    redraw.why = Some(Refusal::AlreadyPlayed);
    assert!(replay(&s, &[], &bad).is_err());
}

#[test]
fn every_system_is_drawn_in_every_game_with_its_own_man_down_check() {
    use crossboard::engine::Rules;
    use crossboard::openings::{all_in, playable_in};
    for system in System::ALL {
        for rules in Rules::ALL {
            let openings = all_in(system, rules);
            assert_eq!(openings.len() as u32, system.count());
            for o in openings
                .iter()
                .filter(|o| playable_in(system, o.number, rules))
            {
                assert_eq!(o.position.rules(), rules, "{} in {rules:?}", o.reference());
                let judged = if rules == Rules::Huffing {
                    o.position.with_rules(Rules::English)
                } else {
                    o.position
                };
                assert_eq!(o.loses_man, crossboard::openings::man_down(&judged));
            }
            let s = DrawSettings {
                rules,
                exclude_man_down: true,
                ..settings(system)
            };
            for d in draws(&s, 7, 4) {
                assert_eq!(d.opening.position.rules(), rules);
                assert!(d.opening.loses_man.is_none());
                assert!(playable_in(system, d.opening.number, rules));
            }
        }
    }
    // GAYP is the standard start in every game.
    for rules in Rules::ALL {
        assert_eq!(
            all_in(System::Gayp, rules)[0].position,
            crossboard::engine::Position::start_in(rules)
        );
    }
}
