//! The engine in every game: a legal move at every level along random playouts of each game,
//! and the choices that show it plays that game (the losing game gives pieces away, huffing
//! captures, a pool king is worth far more than an English one).

use crossboard::engine::{Game, Position, Rules, Square};
use crossboard::search::{Engine, HuffChoice, Level, Limits, Options, choose_huff, choose_move};
use crossboard::search::{KING, MAN, POOL_KING, evaluate, material};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn engine() -> Engine {
    Engine::new(Options {
        hash_mb: 4,
        ..Options::default()
    })
}

fn stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// The engine's choice at `level`, searched to at most `depth`.
fn pick(engine: &mut Engine, game: &Game, level: Level, depth: u32, seed: u64) -> String {
    let pos = *game.position();
    let history = &game.positions()[..game.positions().len() - 1];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let r = choose_move(
        engine,
        &pos,
        history,
        level,
        Limits::depth(depth),
        stop(),
        &mut rng,
    );
    let best = r.best.expect("a move while the game is not over");
    assert!(
        pos.legal_moves().contains(&best),
        "{:?} {level}: {best} is not legal in {}",
        pos.rules(),
        pos.to_fen()
    );
    best.to_string()
}

#[test]
fn a_legal_move_at_every_level_in_every_game() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut engine = engine();
    for rules in Rules::ALL {
        let mut searched = 0;
        for round in 0..3 {
            let mut game = Game::new(rules, Position::start());
            engine.clear();
            while game.result().is_none() && game.moves().len() < 90 {
                let level = Level::ALL[(game.moves().len() + round) % Level::ALL.len()];
                let choice = pick(&mut engine, &game, level, 3, searched);
                searched += 1;
                // Alternate the engine's moves with random ones, to reach varied positions.
                if rng.random_range(0..2) == 0 {
                    game.play_text(&choice).unwrap();
                } else {
                    let moves = game.position().legal_moves();
                    game.play(&moves[rng.random_range(0..moves.len())]).unwrap();
                }
                // Huffing: a neglected capture may be let stand; the engine plays on.
            }
        }
        assert!(searched > 60, "{rules:?}: only {searched} searches");
    }
}

#[test]
fn the_losing_game_gives_a_man_away_and_english_keeps_it() {
    // Red 14-18 offers its last man to 23x14, and then has nothing left: it wins.
    let fen = "B:W23,32:B14";
    for level in Level::ALL {
        let mut e = engine();
        let losing = Game::new(Rules::Losing, Position::from_fen(fen).unwrap());
        assert_eq!(pick(&mut e, &losing, level, 4, 1), "14-18", "{level}");
    }
    let english = Game::new(Rules::English, Position::from_fen(fen).unwrap());
    assert_eq!(pick(&mut engine(), &english, Level::Master, 4, 1), "14-17");
    let r = engine().search_simple(
        &Position::from_fen_in(Rules::Losing, fen).unwrap(),
        Limits::depth(4),
    );
    assert!(r.score.is_decisive() && r.score.0 > 0, "{:?}", r.score);
}

#[test]
fn the_losing_game_side_without_pieces_has_won() {
    // White to move with no pieces: the engine's score for it is a win, not a loss.
    let p = Position::from_fen_in(Rules::Losing, "W:W:B1,2").unwrap();
    let r = engine().search_simple(&p, Limits::depth(2));
    assert!(r.best.is_none());
    assert!(r.score.is_decisive() && r.score.0 > 0, "{:?}", r.score);
    let e = Position::from_fen("W:W:B1,2").unwrap();
    assert!(engine().search_simple(&e, Limits::depth(2)).score.0 < 0);
}

#[test]
fn the_losing_game_wants_the_opposite_of_material() {
    // Red a man up: good in English, bad in the losing game.
    let fen = "B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12";
    let english = Position::from_fen(fen).unwrap();
    let losing = english.with_rules(Rules::Losing);
    assert!(evaluate(&english) > 50, "{}", evaluate(&english));
    assert!(evaluate(&losing) < -50, "{}", evaluate(&losing));
    assert!(material(&losing) < 0 && material(&english) > 0);
}

#[test]
fn a_flying_king_is_worth_far_more() {
    const { assert!(POOL_KING >= 2 * KING && KING > MAN) };
    // Red a king against two men: behind in English draughts, ahead in pool.
    let fen = "B:W29,30:BK14";
    let english = Position::from_fen(fen).unwrap();
    let pool = english.with_rules(Rules::Pool);
    assert!(material(&english) < 0, "{}", material(&english));
    assert!(material(&pool) > 0, "{}", material(&pool));
    assert!(evaluate(&pool) > evaluate(&english) + 100);
}

#[test]
fn huffing_engine_takes_its_captures() {
    // Red can take 18 (14x23) or step away: under huffing the engine captures, as a player
    // who does not would hand White the huff.
    let fen = "B:W18,30,31,32:B14,1,2,3";
    let game = Game::new(Rules::Huffing, Position::from_fen(fen).unwrap());
    assert!(game.position().legal_moves().len() > 1, "a choice to make");
    for level in Level::ALL {
        let mv = pick(&mut engine(), &game, level, 4, 3);
        assert!(mv.contains('x'), "{level}: {mv}");
    }
}

#[test]
fn the_engine_huffs_the_piece_that_neglected_a_capture() {
    // Red could take 14x23 and played 1-5: White huffs the man on 14 (a man up), rather than
    // compel the capture (a man down) or let it stand (18x9 5x14, even).
    let fen = "B:W18,30,31,32:B14,1,2,3";
    let mut game = Game::new(Rules::Huffing, Position::from_fen(fen).unwrap());
    assert!(
        choose_huff(&mut engine(), &game, 4, stop()).is_none(),
        "no neglect yet"
    );
    game.play_text("1-5").unwrap();
    let (choice, score) = choose_huff(&mut engine(), &game, 4, stop()).unwrap();
    assert_eq!(choice, HuffChoice::Huff(Square::new(14).unwrap()));
    assert!(score.0 > 50, "{score:?}");
    choice.apply(&mut game).unwrap();
    assert!(game.position().piece_at(Square::new(14).unwrap()).is_none());
    // The engine then moves as usual.
    pick(&mut engine(), &game, Level::Master, 4, 1);
}

#[test]
fn the_huff_choice_is_the_best_of_the_three_for_the_huffer() {
    // Red's man on 15 could take 15x22 and Red played 1-5. Each choice searched alone, from
    // White's side (after a take-back Red is to move: its score is negated): the engine's
    // choice is the best of them.
    let fen = "B:W18,25,26,30:B15,1,2";
    let mut game = Game::new(Rules::Huffing, Position::from_fen(fen).unwrap());
    game.play_text("1-5").unwrap();
    let (choice, score) = choose_huff(&mut engine(), &game, 6, stop()).unwrap();
    let for_white = |c: HuffChoice| {
        let mut g = game.clone();
        c.apply(&mut g).unwrap();
        let pos = *g.position();
        let history = &g.positions()[..g.positions().len() - 1];
        let s = engine()
            .search(&pos, history, Limits::depth(6), stop(), |_| {})
            .score
            .0;
        if c == HuffChoice::Compel { -s } else { s }
    };
    let huff = for_white(HuffChoice::Huff(Square::new(15).unwrap()));
    let compel = for_white(HuffChoice::Compel);
    let stand = for_white(HuffChoice::LetStand);
    assert_eq!(
        score.0,
        huff.max(compel).max(stand),
        "{choice:?}: {huff} {compel} {stand}"
    );
    assert!(
        compel < huff,
        "compelled, 15x22 is retaken: even ({compel} against {huff})"
    );
}
