//! The other games: American pool checkers (the published perft table, and special positions
//! and random playouts against an independent slow generator written here from the APCA rule
//! text), English with huffing (move counts against the slow generator, the huff choices) and
//! the losing game (who wins).

use crossboard::engine::{
    Color, DrawClaim, Game, HuffError, Move, Outcome, Position, Rules, Square, parse_move, perft,
    squares,
};

/// Published perft of American pool checkers from the start (depths 1-13), counting capture
/// routes with the same start, end and captured pieces once.
const POOL_TABLE: [u64; 14] = [
    1,
    7,
    49,
    302,
    1_469,
    7_482,
    37_986,
    190_146,
    929_896,
    4_570_534,
    22_435_955,
    110_833_952,
    544_005_148,
    2_668_385_616,
];

#[test]
fn pool_start_depths_1_to_10() {
    let p = Position::start_in(Rules::Pool);
    for (depth, &expected) in POOL_TABLE.iter().enumerate().take(11) {
        assert_eq!(perft(&p, depth as u32), expected, "pool perft({depth})");
    }
}

#[test]
#[ignore = "deep perft: run with tests/run -- --ignored"]
fn pool_start_depths_11_to_13() {
    let p = Position::start_in(Rules::Pool);
    for depth in 11..=13 {
        assert_eq!(
            perft(&p, depth),
            POOL_TABLE[depth as usize],
            "pool perft({depth})"
        );
    }
}

/// Rule 24 from the start: the independent generator gives the published pool figure at depth
/// 8, and under Russian crowning (a man crowned mid-capture goes on as a king) the published
/// Russian one, 929,899: the first depth where the two rules part.
#[test]
fn pool_rule_24_parts_from_russian_at_depth_8() {
    let start = slow::from_fen(&Position::start().to_fen());
    assert_eq!(slow::perft(&start, slow::Game::Pool, 7), POOL_TABLE[7]);
    assert_eq!(slow::perft(&start, slow::Game::Russian, 7), POOL_TABLE[7]);
    assert_eq!(slow::perft(&start, slow::Game::Pool, 8), POOL_TABLE[8]);
    assert_eq!(slow::perft(&start, slow::Game::Russian, 8), 929_899);
    assert_eq!(perft(&Position::start_in(Rules::Pool), 8), POOL_TABLE[8]);
}

/// The losing game moves as English draughts does: the same perft.
#[test]
fn losing_game_perft_is_english_perft() {
    let english = Position::start();
    let losing = Position::start_in(Rules::Losing);
    for d in 0..=8 {
        assert_eq!(perft(&losing, d), perft(&english, d), "depth {d}");
    }
}

use crate::reference_movegen as slow;

fn moves_of(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

/// Pool positions chosen for flying kings with several landing squares, men passing the king
/// row in a capture, long captures where captured pieces block the way, and kings that must
/// choose a landing square from which they can go on.
const POOL_POSITIONS: &[(&str, u32)] = &[
    // A king on 1 with a man on 10 in its diagonal: four landing squares beyond.
    ("B:W10,32:BK1", 4),
    // A Red man on 22 jumps 26 onto the king row (31) and must jump 27 back out, uncrowned.
    ("B:W26,27,12:B22,3", 4),
    // The same, but nothing left to take from the king row: it is crowned there.
    ("B:W26,12:B22,3", 4),
    // A king in a ring of men: captured pieces stay until the move is over and block the way.
    ("B:W14,15,22,23,30:BK10,1", 4),
    ("W:WK27:B23,24,18,19,10,11,K4", 4),
    // Landing choice: after taking 15 the king on 4 must stop on 18 or 22 to take again.
    ("B:W15,26,17:BK4,1", 4),
    // Kings of both sides in the open, men about.
    ("B:W18,19,26,27,K4:B6,7,10,15,K28", 3),
    ("W:WK1,K3,21,22,25:BK30,K32,9,10,11", 3),
    // Three kings against one (the 13-count ending).
    ("B:WK29:BK1,K3,K5", 3),
    ("W:WK18:BK1,K3,K32", 3),
    // The start, shallow.
    ("B:W21-32:B1-12", 5),
];

fn expand_fen(fen: &str) -> String {
    Position::from_fen(fen).unwrap().to_fen()
}

#[test]
fn pool_special_positions_match_slow_generator() {
    for &(fen, depth) in POOL_POSITIONS {
        let fast = Position::from_fen_in(Rules::Pool, fen).unwrap();
        let reference = slow::from_fen(&expand_fen(fen));
        for d in 1..=depth {
            assert_eq!(
                perft(&fast, d),
                slow::perft(&reference, slow::Game::Pool, d),
                "pool perft({d}) of {fen}"
            );
        }
    }
}

#[test]
fn pool_flying_king_lands_anywhere_beyond() {
    let p = Position::from_fen_in(Rules::Pool, "B:W10,32:BK1").unwrap();
    assert_eq!(moves_of(&p), ["1x15", "1x19", "1x24", "1x28"]);
    // Quiet king moves fly too.
    let q = Position::from_fen_in(Rules::Pool, "B:W32:BK1").unwrap();
    assert_eq!(
        moves_of(&q),
        ["1-5", "1-6", "1-10", "1-15", "1-19", "1-24", "1-28"]
    );
}

#[test]
fn pool_man_crossing_the_king_row_stays_a_man() {
    let p = Position::from_fen_in(Rules::Pool, "B:W26,27,12:B22,3").unwrap();
    assert_eq!(moves_of(&p), ["22x31x24"]);
    let after = p.after(&p.legal_moves()[0]);
    assert_eq!(
        after.kings(),
        0,
        "not crowned: its move did not end on the king row"
    );
    // Ending on the king row crowns.
    let q = Position::from_fen_in(Rules::Pool, "B:W26,12:B22,3").unwrap();
    assert_eq!(moves_of(&q), ["22x31"]);
    let after = q.after(&q.legal_moves()[0]);
    assert_ne!(after.kings() & Square::new(31).unwrap().bit(), 0);
    // English: the man stops on the king row and is crowned.
    let e = Position::from_fen("B:W26,27,12:B22,3").unwrap();
    assert_eq!(moves_of(&e), ["22x31"]);
}

#[test]
fn pool_men_capture_backward() {
    let p = Position::from_fen_in(Rules::Pool, "B:W10,30:B15").unwrap();
    assert_eq!(moves_of(&p), ["15x6"]);
    let e = Position::from_fen("B:W10,30:B15").unwrap();
    assert_eq!(moves_of(&e), ["15-18", "15-19"]);
}

#[test]
fn pool_king_must_land_where_it_can_go_on() {
    // King 4 takes 15 (landing 18, 22 or 25... 22 only if it can take again from there).
    let p = Position::from_fen_in(Rules::Pool, "B:W15,26,17:BK4,1").unwrap();
    let moves = moves_of(&p);
    for m in &moves {
        assert!(m.starts_with("4x"), "{moves:?}");
    }
    // Every capture is complete: nothing can be taken after it.
    for m in p.legal_moves() {
        assert!(
            m.captured().count_ones() >= 2,
            "{m} stops although it could go on"
        );
    }
}

#[test]
fn pool_notation_round_trips_through_files() {
    let p = Position::from_fen_in(Rules::Pool, "B:W10,32:BK1").unwrap();
    let mut g = Game::new(Rules::Pool, p);
    g.play_text("1x24").unwrap();
    assert_eq!(g.moves()[0].to_string(), "1x24");
    assert_eq!(g.moves()[0].captured(), Square::new(10).unwrap().bit());
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Wrap {
        game: Game,
    }
    let text = toml::to_string(&Wrap { game: g.clone() }).unwrap();
    assert!(text.contains("rules = \"pool\""), "{text}");
    let back: Wrap = toml::from_str(&text).unwrap();
    assert_eq!(back.game, g);
    // A move read without a position resolves to the legal move with its capture.
    let read = Move::from_diagonal_path(&[Square::new(1).unwrap(), Square::new(24).unwrap()], true)
        .unwrap();
    assert_eq!(
        p.resolve(&read).unwrap().captured(),
        Square::new(10).unwrap().bit()
    );
    assert_eq!(p.after(&read), g.position().to_owned());
}

/// A small deterministic generator (no dependency on the engine's RNG choices).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize
    }
}

/// Random playouts: positions along them agree with the slow generator at a small depth.
fn playouts(rules: Rules, game: slow::Game, starts: &[&str], depth: u32, seed: u64) -> usize {
    let mut rng = Lcg(seed);
    let mut checked = 0;
    for round in 0..90 {
        let fen = starts[round % starts.len()];
        let mut pos = Position::from_fen_in(rules, fen).unwrap();
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if rng.next().is_multiple_of(2) {
                let reference = slow::from_fen(&pos.to_fen());
                assert_eq!(
                    perft(&pos, depth),
                    slow::perft(&reference, game, depth),
                    "{rules:?} {}",
                    pos.to_fen()
                );
                checked += 1;
            }
            // Huffing: mostly take captures, so that games do not stall in piece shuffling.
            let captures: Vec<&Move> = moves.iter().filter(|m| m.is_capture()).collect();
            let mv = if !captures.is_empty() && !rng.next().is_multiple_of(4) {
                *captures[rng.next() % captures.len()]
            } else {
                moves[rng.next() % moves.len()]
            };
            pos = pos.after(&mv);
        }
    }
    checked
}

#[test]
fn pool_random_playouts_match_slow_generator() {
    let starts = [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:W18,19,26,27,K4,K29:B6,7,10,15,K28,K25",
        "W:WK1,K3,21,22,25,23:BK30,K32,9,10,11,12",
    ];
    let checked = playouts(
        Rules::Pool,
        slow::Game::Pool,
        &starts,
        3,
        0x9E37_79B9_7F4A_7C15,
    );
    assert!(checked > 1000, "only {checked} positions checked");
}

const HUFF_POSITIONS: &[(&str, u32)] = &[
    (
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        5,
    ),
    // A double jump available: stopping after the first jump is a move of its own.
    ("B:W6,7,14,15,22,23,K32:B2,3", 4),
    ("B:W6,7,14,15,30:BK2,12", 4),
    ("W:W10,11,K20:B6,7,14,K27", 4),
    ("B:W26,27,19,K12:B22,15,K5", 4),
];

#[test]
fn huffing_counts_match_slow_generator() {
    for &(fen, depth) in HUFF_POSITIONS {
        let fast = Position::from_fen_in(Rules::Huffing, fen).unwrap();
        let reference = slow::from_fen(fen);
        for d in 1..=depth {
            assert_eq!(
                perft(&fast, d),
                slow::perft(&reference, slow::Game::Huffing, d),
                "huffing perft({d}) of {fen}"
            );
            assert_eq!(
                crossboard::engine::count_moves(&fast),
                fast.legal_moves().len() as u64
            );
        }
    }
}

#[test]
fn huffing_random_playouts_match_slow_generator() {
    let starts = ["B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"];
    let checked = playouts(Rules::Huffing, slow::Game::Huffing, &starts, 3, 0x2545_F491);
    assert!(checked > 1000, "only {checked} positions checked");
}

#[test]
fn huffing_lets_a_capture_be_ignored_or_stopped_short() {
    let p = Position::from_fen_in(Rules::Huffing, "B:W6,7,14,15,22,23,K32:B2,3").unwrap();
    assert!(!p.must_capture() && p.can_capture());
    let moves = moves_of(&p);
    assert!(moves.contains(&"2x9".to_string()), "{moves:?}");
    assert!(moves.contains(&"2x9x18x25".to_string()), "{moves:?}");
    assert!(moves.contains(&"3-8".to_string()), "{moves:?}");
    let english = Position::from_fen("B:W6,7,14,15,22,23,K32:B2,3").unwrap();
    assert!(!moves_of(&english).contains(&"2x9".to_string()));
}

fn huff_game(fen: &str) -> Game {
    Game::new(Rules::Huffing, Position::from_fen(fen).unwrap())
}

#[test]
fn huff_chance_after_an_ignored_capture() {
    // Red can take 14x23 (from 14 over 18) but plays 1-5.
    let mut g = huff_game("B:W18,30:B14,1");
    assert_eq!(g.huff_chance(), None, "no move yet");
    g.play_text("1-5").unwrap();
    let chance = g.huff_chance().expect("a neglected capture");
    assert_eq!(chance.offender, Color::Red);
    assert!(!chance.stopped_short);
    assert_eq!(
        squares(chance.huffable)
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        [14]
    );
    assert_eq!(
        chance
            .captures
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        ["14x23"]
    );
    // The piece that should have captured moved: it is huffable where it stands now.
    let mut g = huff_game("B:W18,30:B14,1");
    g.play_text("14-17").unwrap();
    let chance = g.huff_chance().unwrap();
    assert_eq!(
        squares(chance.huffable)
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        [17]
    );
    // A complete capture gives no chance, nor does a position without a capture.
    let mut g = huff_game("B:W18,30:B14,1");
    g.play_text("14x23").unwrap();
    assert_eq!(g.huff_chance(), None);
    // English never offers one.
    let mut e = Game::new(
        Rules::English,
        Position::from_fen("B:W18,30:B14,1").unwrap(),
    );
    assert!(
        e.play_text("1-5").is_err(),
        "English: the capture is compulsory"
    );
}

#[test]
fn huff_then_move() {
    let mut g = huff_game("B:W18,30:B14,1");
    g.play_text("1-5").unwrap();
    assert_eq!(
        g.huff(Square::new(5).unwrap()),
        Err(HuffError::NotHuffable {
            square: Square::new(5).unwrap(),
            huffable: vec![Square::new(14).unwrap()],
        })
    );
    g.huff(Square::new(14).unwrap()).unwrap();
    assert_eq!(g.position().piece_at(Square::new(14).unwrap()), None);
    assert_eq!(g.huff_chance(), None, "one choice a turn");
    // A second choice in the same turn says which was made, not that nothing was neglected.
    let huffed = HuffError::Huffed {
        square: Square::new(14).unwrap(),
    };
    assert_eq!(g.huff(Square::new(14).unwrap()), Err(huffed.clone()));
    assert_eq!(g.compel(), Err(huffed.clone()));
    let text = huffed.to_string();
    assert!(text.contains("already huffed the piece on 14"), "{text}");
    g.play_text("18-15").unwrap();
    assert_eq!(g.prelude(1).huffed, Square::new(14));
    // Take back: the move, then the huff is pending again; then the offence.
    assert_eq!(
        g.take_back().map(|m| m.to_string()),
        Some("18-15".to_string())
    );
    assert_eq!(g.pending().huffed, Square::new(14));
    assert_eq!(
        g.take_back().map(|m| m.to_string()),
        Some("1-5".to_string())
    );
    assert_eq!(
        g.position(),
        &Position::from_fen_in(Rules::Huffing, "B:W18,30:B14,1").unwrap()
    );
}

#[test]
fn compel_takes_the_move_back_and_a_capture_must_be_played() {
    let mut g = huff_game("B:W18,30:B14,1");
    g.play_text("1-5").unwrap();
    g.compel().unwrap();
    assert_eq!(g.moves().len(), 0);
    let compelled = g.compel().unwrap_err();
    assert!(
        matches!(&compelled, HuffError::Compelled { retracted } if retracted.to_string() == "1-5"),
        "{compelled:?}"
    );
    assert!(
        compelled.to_string().contains("1-5 was already taken back"),
        "{compelled}"
    );
    assert_eq!(g.position().turn(), Color::Red);
    assert_eq!(
        moves_of(g.position()),
        ["14x23"],
        "only complete captures now"
    );
    assert!(g.play_text("1-5").is_err());
    g.play_text("14x23").unwrap();
    assert_eq!(
        g.prelude(0).retracted.map(|m| m.to_string()),
        Some("1-5".to_string())
    );
    assert_eq!(g.huff_chance(), None);
    assert_eq!(g.position().rules(), Rules::Huffing);
    // White may again ignore captures.
    assert!(g.position().legal_moves().iter().any(|m| !m.is_capture()));
}

#[test]
fn stopped_short_capture_can_be_huffed() {
    let mut g = huff_game("B:W6,7,14,15,22,23,K32:B2,3");
    g.play_text("2x9").unwrap();
    let chance = g.huff_chance().unwrap();
    assert!(chance.stopped_short);
    assert_eq!(
        squares(chance.huffable)
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        [9]
    );
}

#[test]
fn huffing_choices_survive_a_file() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Wrap {
        game: Game,
    }
    let mut g = huff_game("B:W18,30,26:B14,1,3");
    g.play_text("1-5").unwrap();
    g.compel().unwrap();
    g.play_text("14x23").unwrap();
    g.play_text("26x19").unwrap(); // White captures back
    g.play_text("3-7").unwrap();
    // White ignores nothing; Red plays on; then a huff pending at the end.
    let text = toml::to_string(&Wrap { game: g.clone() }).unwrap();
    assert!(text.contains("retracted = \"1-5\""), "{text}");
    let back: Wrap = toml::from_str(&text).unwrap();
    assert_eq!(back.game, g);

    let mut h = huff_game("B:W18,30:B14,1");
    h.play_text("1-5").unwrap();
    h.huff(Square::new(14).unwrap()).unwrap();
    let text = toml::to_string(&Wrap { game: h.clone() }).unwrap();
    assert!(text.contains("huffed = 14"), "{text}");
    let back: Wrap = toml::from_str(&text).unwrap();
    assert_eq!(back.game, h);
    let bad = text.replace("huffed = 14", "huffed = 30");
    assert!(
        toml::from_str::<Wrap>(&bad).is_err(),
        "30 could not be huffed"
    );
}

#[test]
fn losing_game_is_won_by_the_side_left_without_moves() {
    let g = Game::new(Rules::Losing, Position::from_fen("W:W:B9").unwrap());
    assert_eq!(
        g.result(),
        Some(Outcome::Win(Color::White)),
        "White has no pieces: wins"
    );
    let g = Game::new(
        Rules::Losing,
        Position::from_fen("B:W13,14,17,18:B9").unwrap(),
    );
    assert_eq!(
        g.result(),
        Some(Outcome::Win(Color::Red)),
        "Red is blocked: wins"
    );
    let e = Game::new(Rules::English, Position::from_fen("W:W:B9").unwrap());
    assert_eq!(e.result(), Some(Outcome::Win(Color::Red)));
    // Capture stays compulsory.
    let p = Position::from_fen_in(Rules::Losing, "B:W18:B14,1").unwrap();
    assert!(p.must_capture());
    assert!(parse_move(&p, "1-6").is_err());
}

/// A quiet move that leaves the opponent nothing to take and leads to a position not seen
/// before in the game (the `pick`-th of them, wrapping around).
fn wandering_move(g: &Game, pick: usize) -> Move {
    let pos = *g.position();
    let fits: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            let after = pos.after(m);
            !m.is_capture() && !after.can_capture() && !g.positions().contains(&after)
        })
        .collect();
    assert!(!fits.is_empty(), "no quiet move to a new position: {pos}");
    fits[pick % fits.len()]
}

/// Plays a 13-count ending: the lone king shuttles through `lone_moves` (in turn), the three
/// kings answer with a [`wandering_move`]. Stops after `lone_count` more lone-king moves.
fn chase(g: &mut Game, lone_moves: &[&str], lone_count: u32) {
    let lone = g.thirteen_count().unwrap().lone;
    let mut shuttle = lone_moves.iter().cycle();
    let mut made = g.thirteen_count().unwrap().moves;
    let target = made + lone_count;
    while made < target {
        if g.position().turn() == lone {
            g.play_text(shuttle.next().unwrap()).unwrap();
            made += 1;
            assert_eq!(g.thirteen_count().unwrap().moves, made);
            continue;
        }
        let mv = wandering_move(g, 0);
        g.play(&mv).unwrap();
    }
}

#[test]
fn thirteen_count_runs_from_the_lone_kings_first_move() {
    // A lone White king on the edge (it cannot be taken there) against three Red kings.
    let start = Position::from_fen("W:WK28:BK1,K13,K21").unwrap();
    let mut g = Game::new(Rules::Pool, start);
    let count = g.thirteen_count().unwrap();
    assert_eq!(
        (count.lone, count.moves, count.limit),
        (Color::White, 0, 13)
    );
    chase(&mut g, &["28-32", "32-28"], 12);
    assert!(!g.thirteen_count().unwrap().reached());
    assert_eq!(g.claimable_draw(), None);
    chase(&mut g, &["28-32"], 1);
    assert!(g.thirteen_count().unwrap().reached());
    assert_eq!(g.claimable_draw(), Some(DrawClaim::ThirteenCount));
    // English games have no 13-count; nor has a pool ending with a man on the board.
    assert_eq!(Game::new(Rules::English, start).thirteen_count(), None);
    let men = Position::from_fen("W:WK28:BK1,K13,21").unwrap();
    assert_eq!(Game::new(Rules::Pool, men).thirteen_count(), None);
}

#[test]
fn thirteen_count_is_six_on_the_long_diagonal() {
    // The lone White king holds the long diagonal 4-29 (29 and 25 are on it).
    let start = Position::from_fen("W:WK29:BK1,K13,K3").unwrap();
    let mut g = Game::new(Rules::Pool, start);
    assert_eq!(g.thirteen_count().unwrap().limit, 6);
    chase(&mut g, &["29-25", "25-29"], 5);
    assert_eq!(g.claimable_draw(), None);
    chase(&mut g, &["25-29"], 1);
    let c = g.thirteen_count().unwrap();
    assert_eq!((c.moves, c.limit), (6, 6));
    assert_eq!(g.claimable_draw(), Some(DrawClaim::ThirteenCount));
}

#[test]
fn pool_has_no_forty_move_rule() {
    // Two kings each wander for 40 moves each, never repeating a position.
    let pos = Position::from_fen("B:WK32,K28,K24:BK1,K5,K9").unwrap();
    for rules in [Rules::English, Rules::Pool] {
        let mut g = Game::new(rules, pos);
        let mut rng = Lcg(7);
        for _ in 0..80 {
            assert_eq!(g.claimable_draw(), None);
            let mv = wandering_move(&g, rng.next());
            g.play(&mv).unwrap();
        }
        assert_eq!(g.quiet_plies(), 80);
        let expected = (rules == Rules::English).then_some(DrawClaim::FortyMoves);
        assert_eq!(g.claimable_draw(), expected, "{rules:?}");
    }
}
