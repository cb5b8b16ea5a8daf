//! PDN of the four games (GameType 23 for pool, 21 with a Variant tag for huffing and the
//! losing game, huffing choices as comments), read back exactly; games crossboard does not
//! play reported; the leniency real files need (Windows-1252, comment text without braces,
//! Red tags).

use crate::common;

use crossboard::engine::{Game, Position, Rules, Square};
use crossboard::store::{PdnErrorKind, PdnGame, PdnResult, decode, read_pdn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn read_one(text: &str) -> PdnGame {
    let mut games = read_pdn(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A random game under `rules`; under huffing, the opponent of a neglected capture huffs or
/// compels now and then.
fn random_game(rng: &mut ChaCha8Rng, rules: Rules, start: Position, plies: usize) -> Game {
    let mut game = Game::new(rules, start);
    while game.moves().len() < plies && game.result().is_none() {
        if let Some(chance) = game.huff_chance() {
            match rng.random_range(0..3) {
                0 => {
                    let sq = crossboard::engine::squares(chance.huffable).next().unwrap();
                    game.huff(sq).unwrap();
                }
                1 => game.compel().unwrap(),
                _ => {}
            }
            if game.result().is_some() || rng.random_range(0..20) == 0 {
                break; // a game may end with a choice made and no move after it
            }
        }
        let moves = game.position().distinct_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        game.play(&mv).unwrap();
    }
    game
}

#[test]
fn every_game_is_written_with_its_type_and_read_back_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut games = Vec::new();
    let mut huffs = 0;
    for rules in Rules::ALL {
        for i in 0..12 {
            let start = if i % 3 == 2 {
                Position::from_fen_in(rules, "W:WK30,K31,21,22,23:BK2,K3,10,11").unwrap()
            } else {
                Position::start_in(rules)
            };
            let g = random_game(&mut rng, rules, start, 30 + i * 9);
            huffs += (0..g.moves().len())
                .filter(|&k| g.prelude(k) != Default::default())
                .count();
            let mut p = PdnGame::from_game(&g).with_tag("Event", format!("{} {i}", rules.key()));
            if p.result == PdnResult::Unfinished {
                p.result = PdnResult::Draw;
            }
            games.push(p);
        }
    }
    assert!(
        huffs > 5,
        "the huffing games hold few huffing choices: {huffs}"
    );
    let text = common::pdn::assert_round_trip(&games);
    assert!(text.contains("[GameType \"23\"]"));
    assert!(text.contains("[Variant \"huffing\"]"));
    assert!(text.contains("[Variant \"losing\"]"));
    assert!(text.contains("{[%huff "), "{text}");
    assert!(text.contains("{[%retracted "), "{text}");
}

#[test]
fn a_pool_king_capture_is_written_with_its_landing_squares() {
    // A flying king on 1 takes 10 and 19 (landing on 15 then 24, or beyond): the path names
    // every landing square, so the move reads back as the same capture.
    let start = Position::from_fen_in(Rules::Pool, "B:W10,19,32:BK1,3").unwrap();
    let mut g = Game::new(Rules::Pool, start);
    let mv = g.position().legal_moves()[0];
    g.play(&mv).unwrap();
    let text = PdnGame::from_game(&g).to_pdn();
    assert!(text.contains("[GameType \"23\"]"), "{text}");
    let back = read_one(&text);
    assert_eq!(back.rules(), Rules::Pool);
    assert_eq!(back.moves, vec![mv]);
}

#[test]
fn games_crossboard_does_not_play_are_reported_not_misread() {
    let games = read_pdn(concat!(
        "[GameType \"20\"]\n1. 32-28 *\n",
        "[GameType \"25\"]\n1. 11-15 *\n",
        "[GameType \"21\"]\n[Variant \"giveaway\"]\n1. 11-15 *\n",
        "[GameType \"23\"]\n[Variant \"huffing\"]\n1. 11-15 *\n",
        "[GameType \"23,W,8,8,A0,0\"]\n1. 11-15 *\n",
        "[GameType \"21\"]\n[Variant \"losing\"]\n1. 11-15 *\n",
    ));
    assert_eq!(games.len(), 6);
    for g in &games[..2] {
        let e = g.as_ref().unwrap_err();
        assert!(matches!(*e.kind, PdnErrorKind::GameType(_)), "{e}");
        assert!(e.to_string().contains("not a game crossboard plays"), "{e}");
    }
    for g in &games[2..4] {
        let e = g.as_ref().unwrap_err();
        assert!(matches!(*e.kind, PdnErrorKind::Variant { .. }), "{e}");
    }
    assert_eq!(games[4].as_ref().unwrap().rules(), Rules::Pool);
    assert_eq!(games[5].as_ref().unwrap().rules(), Rules::Losing);
}

#[test]
fn a_huffing_choice_that_does_not_replay_is_reported() {
    let games = read_pdn(concat!(
        "[Variant \"huffing\"]\n1. 11-15 22-18 {[%huff 9]} 2. 9-13 *\n",
        "[Variant \"huffing\"]\n1. 11-15 22-18 2. 9-13 {[%retracted 9-13]} 2... 15x22 *\n",
        "[Variant \"huffing\"]\n1. 11-15 22-18 {[%retracted 9-13]} 2. 15x22 26x17 *\n",
        "[Variant \"huffing\"]\n1. 11-15 22-18 2. 9-13 {[%huff 15]} 2... 24-20 *\n",
    ));
    assert!(matches!(
        *games[0].as_ref().unwrap_err().kind,
        PdnErrorKind::Huff(_)
    ));
    assert!(matches!(
        *games[1].as_ref().unwrap_err().kind,
        PdnErrorKind::Huff(_)
    ));
    let g = games[2].as_ref().unwrap();
    assert_eq!(g.moves.len(), 4);
    assert_eq!(g.preludes[2].retracted.unwrap().to_string(), "9-13");
    let g = games[3].as_ref().unwrap();
    assert_eq!(g.preludes[3].huffed.unwrap().to_string(), "15");
    let end = g.replay().unwrap();
    assert!(end.position().piece_at(Square::new(15).unwrap()).is_none());
}

#[test]
fn windows_1252_names_are_kept() {
    let mut bytes = b"[Event \"Caf\xe9 \x93open\x94\xa0cup\"]\n[Black \"M\xfcller\"]\n".to_vec();
    bytes.extend_from_slice(b"[White \"Ann\"]\n1. 11-15 23-19 *\n");
    let text = decode(&bytes);
    let g = read_one(&text);
    assert_eq!(g.tag("Event"), Some("Café “open” cup"));
    assert_eq!(g.tag("Black"), Some("Müller"));
    // UTF-8 stays UTF-8.
    assert_eq!(decode("Müller".as_bytes()), "Müller");
}

#[test]
fn comment_text_without_braces_is_skipped_with_a_warning() {
    let g = read_one("[Black \"A\"]\n1. 11-15 23-19 2. 8-11Redoversteppedthetimecontrol 0-1\n");
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.moves[2].to_string(), "8-11");
    assert_eq!(g.result, PdnResult::WhiteWins);
    assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
    assert!(g.warnings[0].contains("Redoverstepped"), "{:?}", g.warnings);
    assert!(g.warnings[0].starts_with("line 2"), "{:?}", g.warnings);
    let g = read_one("1. 11-15 good move 23-19 2. 9-14 *");
    assert_eq!(g.moves.len(), 3, "{:?}", g.warnings);
    assert_eq!(g.warnings.len(), 2, "{:?}", g.warnings);
    // The warnings are not written back.
    assert!(!g.to_pdn().contains("good"));
}

#[test]
fn red_tags_name_the_first_player() {
    let g = read_one("[Red \"Ann\"]\n[White \"Bob\"]\n1. 11-15 *");
    assert_eq!(g.tag("Black"), Some("Ann"));
    assert!(g.tag("Red").is_none());
    let text = g.to_pdn();
    assert!(text.contains("[Black \"Ann\"]"), "{text}");
    // A file with both keeps both.
    let g = read_one("[Red \"Ann\"]\n[Black \"Ann B.\"]\n1. 11-15 *");
    assert_eq!(g.tag("Black"), Some("Ann B."));
    assert_eq!(g.tag("Red"), Some("Ann"));
}
