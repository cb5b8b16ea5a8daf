//! PDN export and import: round trips through the writer and reader, and a file written by
//! another program.

use crate::common;

use crossboard::engine::{Color, Game, Position, Rules};
use crossboard::store::{PdnGame, PdnResult, read_pdn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/pdn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn checkerboard_style_fixture_imports() {
    let games = read_pdn(&fixture("loy_chinook_1991.pdn"));
    assert_eq!(games.len(), 1);
    let g = games[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.tag("Event"), Some("Fax match, game 1"));
    assert_eq!(g.tag("Black"), Some("Loy, Jim"));
    assert_eq!(g.tag("White"), Some("Chinook"));
    assert_eq!(g.tag("Site"), Some("By fax"));
    assert_eq!(g.result, PdnResult::WhiteWins);
    assert_eq!(g.start, Position::start());
    // The variation (7. 8-11 ...) is skipped.
    assert_eq!(g.moves.len(), 38);
    assert_eq!(g.moves[12].to_string(), "7-10");
    // Short captures are read with their full path.
    assert_eq!(g.moves[11].to_string(), "28x19x12");
    assert_eq!(g.moves[17].to_string(), "25x18x9");
    let game = g.replay().unwrap();
    assert_eq!(
        game.position().to_fen(),
        "B:W11,12,13,17,21,32:B3,4,6,10,14,26"
    );
    assert_eq!(game.position().turn(), Color::Red);
    // And it survives our own writer (which puts the roster tags first).
    let again = read_pdn(&g.to_pdn()).remove(0).unwrap();
    assert_eq!(
        (&again.moves, again.start, again.result),
        (&g.moves, g.start, g.result)
    );
    let sorted = |tags: &[(String, String)]| {
        let mut t = tags.to_vec();
        t.sort();
        t
    };
    assert_eq!(sorted(&again.tags), sorted(&g.tags));
    assert_eq!(again.tags[0].0, "Event");
    assert_eq!(again.tags[1].0, "Site");
}

#[test]
fn marks_and_comments_round_trip_and_other_programs_marks_are_read() {
    use crossboard::search::Mark;
    // The fixture as a CheckerBoard user annotates: `15-10!`, `13. 11-15?`, comments.
    let g = read_pdn(&fixture("loy_chinook_1991.pdn"))
        .remove(0)
        .unwrap();
    assert_eq!(g.mark(24), Some(Mark::Mistake), "13. 11-15?");
    assert_eq!(g.marks.iter().flatten().count(), 1, "`!` is no mark");
    let source = "Source: Jim Loy, \"1991 Fax match - Chinook-Loy\", game 1, notes abridged.";
    assert_eq!(g.comments[0], (0, source.to_string()));
    assert_eq!(g.comments[1], (4, "or 26-23".to_string()));
    assert_eq!(
        g.comments.last(),
        Some(&(38, "White wins; 11-7 comes next.".to_string()))
    );
    // Written (`11-15?`, each comment after its move) and read back: the same.
    let text = g.to_pdn();
    assert!(text.contains("13. 11-15? 25-22"), "{text}");
    let again = read_pdn(&text).remove(0).unwrap();
    assert_eq!((&again.marks, &again.comments), (&g.marks, &g.comments));
    // NAGs, a mark written apart from its move, and a comment with a clock reading.
    let text = "[Black \"A\"]\n[White \"B\"]\n\
        1. 11-15 $2 23-19 ?! 2. 8-11?? 22-17 $4 {a note [%clock 0:59:00]} *\n";
    let g = read_pdn(text).remove(0).unwrap();
    assert_eq!(
        g.marks,
        [
            Some(Mark::Mistake),
            Some(Mark::Inaccuracy),
            Some(Mark::Blunder),
            Some(Mark::Blunder)
        ]
    );
    assert_eq!(g.comments, [(4, "a note".to_string())]);
    assert_eq!(g.clocks[3], Some(3_540_000));
    let again = read_pdn(&g.to_pdn()).remove(0).unwrap();
    assert_eq!(again, g);
}

/// A random legal game from `start`, up to `plies` moves, with clock readings on most moves.
fn random_game(rng: &mut ChaCha8Rng, start: Position, plies: usize) -> PdnGame {
    let mut game = Game::new(Rules::English, start);
    let mut clocks = Vec::new();
    let mut left = [3_600_000u64, 3_600_000u64];
    while game.moves().len() < plies && game.result().is_none() {
        let moves = game.position().distinct_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let side = game.position().turn() as usize;
        left[side] = left[side].saturating_sub(rng.random_range(0..90_000u64));
        game.play(&mv).unwrap();
        // Whole seconds: PDN writes h:mm:ss.
        let reading = left[side] / 1000 * 1000;
        clocks.push((rng.random_range(0..10) > 0).then_some(reading));
    }
    let mut p = PdnGame::from_game(&game)
        .with_tag("Event", "Round trip")
        .with_tag("Date", "2026.11.30")
        .with_tag("Round", format!("{}.{}", rng.random_range(1..9), 1))
        .with_tag("Black", "Red player")
        .with_tag("White", "White \"the second\" player")
        .with_tag("TimeControl", "30/3600")
        .with_tag("Ballot", "11-man: remove 11 and 28; 8-11 24-19 (#1)");
    p.clocks = clocks;
    if p.result == PdnResult::Unfinished {
        p.result =
            [PdnResult::Draw, PdnResult::RedWins, PdnResult::Unfinished][rng.random_range(0..3)];
    }
    p
}

#[test]
fn export_import_round_trip() {
    let starts = [
        Position::start(),
        Position::from_fen("B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12")
            .unwrap(),
        Position::from_fen("W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap(),
        Position::from_fen("W:W21-32:B1-12").unwrap(),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut games = Vec::new();
    for i in 0..24 {
        games.push(random_game(&mut rng, starts[i % starts.len()], 40 + i * 7));
    }
    let text = common::pdn::assert_round_trip(&games);
    // The white-to-move starts are numbered `1...`.
    assert!(text.contains("\n1... "), "{text}");
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any text: no panic, and every game is either read (and replays) or reported.
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
            for r in read_pdn(&text) {
                match r {
                    Ok(g) => prop_assert!(g.replay().is_ok()),
                    Err(e) => prop_assert!(e.game >= 1 && !e.to_string().is_empty()),
                }
            }
        }

        /// A real file with one byte changed: no panic; the game reads or is reported.
        #[test]
        fn mutated_fixture_never_panics(pos in 0usize..1200, byte in any::<u8>()) {
            let mut bytes = fixture("loy_chinook_1991.pdn").into_bytes();
            let i = pos % bytes.len();
            bytes[i] = byte;
            let text = String::from_utf8_lossy(&bytes);
            for g in read_pdn(&text).into_iter().flatten() {
                prop_assert!(g.replay().is_ok());
            }
        }
    }
}

/// A comment left open (`{` without its `}`) no longer swallows the rest of the file: it ends
/// before the next tag line, with a warning naming the line where it opened, and the games
/// after it are read; one running to the end of the file is warned about the same way.
#[test]
fn an_unclosed_comment_is_warned_about_and_the_games_after_it_are_read() {
    let text = "[Event \"one\"]\n[Black \"A\"]\n[White \"B\"]\n\n1. 11-15 {never closed 23-19\n2. 8-11 22-17 *\n\n[Event \"two\"]\n[Black \"C\"]\n[White \"D\"]\n\n1. 9-13 22-18 1-0\n\n[Event \"three\"]\n1. 10-14 {open to the end 23-19\n";
    let games = read_pdn(text);
    assert_eq!(games.len(), 3, "{games:?}");
    let one = games[0].as_ref().unwrap();
    assert_eq!(one.moves.len(), 1);
    assert!(
        one.warnings
            .iter()
            .any(|w| w.starts_with("line 5:") && w.contains("comment") && w.contains("line 8")),
        "{:?}",
        one.warnings
    );
    let two = games[1].as_ref().unwrap();
    assert_eq!(two.tag("Black"), Some("C"));
    assert_eq!(two.moves.len(), 2);
    assert_eq!(two.result, PdnResult::RedWins);
    let three = games[2].as_ref().unwrap();
    assert_eq!(three.moves.len(), 1);
    assert!(
        three
            .warnings
            .iter()
            .any(|w| w.starts_with("line 15:") && w.contains("end of the file")),
        "{:?}",
        three.warnings
    );
    // A comment that holds brackets of its own is not cut (only a tag line at a line's start
    // ends an open comment).
    let g = &read_pdn("1. 11-15 {see [%clock 0:59:00] and\n [a note]} 23-19 *\n")[0];
    let g = g.as_ref().unwrap();
    assert_eq!(g.moves.len(), 2);
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
}

/// Tags as old Windows programs and CheckerBoard write them: a value opened by a curly quote
/// (Windows-1252 0x93, or the character itself), and tag names in any case.
#[test]
fn curly_quoted_values_and_tag_names_in_any_case() {
    let bytes = b"[Event \x93Club open\x94]\n[black \"Ann\"]\n[WHITE \"Bob\"]\n[setup \"1\"]\n[fen \"W:W18,24:B12,16\"]\n1... 24-19 *\n";
    let text = crossboard::store::decode(bytes);
    let games = read_pdn(&text);
    let g = games[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.tag("Event"), Some("Club open"));
    assert_eq!(g.tag("Black"), Some("Ann"));
    assert_eq!(g.tag("White"), Some("Bob"));
    assert_eq!(g.start.to_fen(), "W:W18,24:B12,16");
    assert_eq!(g.moves.len(), 1);
    let g = &read_pdn("[Event “Café open”]\n1. 11-15 *\n")[0];
    assert_eq!(g.as_ref().unwrap().tag("Event"), Some("Café open"));
}
