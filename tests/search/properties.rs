//! Search properties: a legal move in every position of random playouts, the stop flag ends a
//! search at once, and the transposition table does not change a fixed-depth result.

use crossboard::engine::{Game, Position};
use crossboard::search::{Engine, Limits, Options, Score};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[test]
fn legal_move_in_every_position_of_random_playouts() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut engine = Engine::new(Options {
        hash_mb: 4,
        ..Options::default()
    });
    let mut searched = 0;
    for _ in 0..6 {
        let mut game = Game::standard();
        while game.result().is_none() && game.moves().len() < 120 {
            let pos = *game.position();
            let history = &game.positions()[..game.positions().len() - 1];
            let r = engine.search(
                &pos,
                history,
                Limits::depth(3),
                Arc::new(AtomicBool::new(false)),
                |_| {},
            );
            let best = r.best.expect("a move while the game is not over");
            assert!(
                pos.legal_moves().contains(&best),
                "{best} in {}",
                pos.to_fen()
            );
            searched += 1;
            let moves = pos.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(&mv).expect("legal");
        }
        if game.result().is_some() {
            let r = engine.search_simple(game.position(), Limits::depth(3));
            assert_eq!(r.best, None, "no move in a finished game");
            assert_eq!(r.score, Score::loss_in(0));
        }
    }
    assert!(searched > 100);
}

#[test]
fn stop_flag_ends_a_search_at_once() {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let pos = Position::start();
    let handle = std::thread::spawn(move || {
        let mut engine = Engine::default();
        let t = Instant::now();
        let r = engine.search(&pos, &[], Limits::default(), flag, |_| {});
        (r, t.elapsed())
    });
    std::thread::sleep(Duration::from_millis(150));
    let raised = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (r, _) = handle.join().expect("search thread");
    // Generous bound for a loaded machine; in practice the search stops within microseconds.
    assert!(
        raised.elapsed() < Duration::from_secs(2),
        "stopped in {:?}",
        raised.elapsed()
    );
    assert!(r.best.is_some());
    assert!(Position::start().legal_moves().contains(&r.best.unwrap()));
    // A flag raised before the search starts still yields a legal move.
    let stop = Arc::new(AtomicBool::new(true));
    let r = Engine::default().search(&Position::start(), &[], Limits::default(), stop, |_| {});
    assert!(Position::start().legal_moves().contains(&r.best.unwrap()));
    assert!(r.depth <= 1, "at most the first iteration: {}", r.depth);
}

#[test]
fn node_limit_is_honoured() {
    let r = Engine::default().search_simple(&Position::start(), Limits::nodes(20_000));
    assert!(r.nodes < 25_000, "{}", r.nodes);
    assert!(r.depth >= 1);
}

#[test]
fn deadline_is_honoured() {
    let t = Instant::now();
    let r = Engine::default().search_simple(
        &Position::start(),
        Limits::deadline(Instant::now() + Duration::from_millis(100)),
    );
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(r.best.is_some());
}

/// An engine told to forget soon (the table emptied beside its next timed search) searches a
/// depth or node limit exactly as one cleared at once, and a timed search right after the
/// order still answers with a legal move within its time.
#[test]
fn forgetting_soon_is_forgetting() {
    let pos = Position::start();
    let other = Position::from_fen("W:W18,21,26,28:B3,7,9,15").unwrap();
    let options = Options {
        hash_mb: 16,
        ..Options::default()
    };
    let mut at_once = Engine::new(options);
    let mut soon = Engine::new(options);
    // What the table learns of `pos` would shorten the searches below if it were not forgotten.
    for e in [&mut at_once, &mut soon] {
        e.search_simple(&pos, Limits::depth(10));
    }
    at_once.clear();
    soon.clear_soon();
    for limits in [Limits::depth(9), Limits::nodes(30_000)] {
        let a = at_once.search_simple(&pos, limits);
        let b = soon.search_simple(&pos, limits);
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    }
    soon.search_simple(&other, Limits::depth(10));
    soon.clear_soon();
    let t = Instant::now();
    let r = soon.search_simple(
        &pos,
        Limits::deadline(Instant::now() + Duration::from_millis(50)),
    );
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(pos.legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn table_does_not_change_a_fixed_depth_result() {
    // Men only (no repetitions possible), small positions, reductions and ProbCut off:
    // alpha-beta with and without the table (exact-depth cutoffs) must agree on the score at
    // every depth.
    let fens = [
        "B:W22,23,25,27,30:B5,6,10,12,14",
        "W:W18,21,26,28:B3,7,9,15",
        "B:W17,24,26,31,32:B1,6,11,13,20",
        "B:W21-32:B1-12",
    ];
    let plain = Options {
        use_tt: false,
        reductions: false,
        probcut: false,
        ..Options::default()
    };
    let strict = Options {
        use_tt: true,
        strict_tt: true,
        reductions: false,
        probcut: false,
        hash_mb: 4,
        ..Options::default()
    };
    let (mut nodes_with, mut nodes_without) = (0, 0);
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let depth = if pos.occupied().count_ones() > 16 {
            6
        } else {
            9
        };
        for d in [1, depth / 2, depth] {
            let a = Engine::new(plain).search_simple(&pos, Limits::depth(d));
            let b = Engine::new(strict).search_simple(&pos, Limits::depth(d));
            assert_eq!(a.score, b.score, "{fen} depth {d}");
            // Over all the searches (a single one may take a few nodes more: the table's move
            // changes the order in which the next iteration searches).
            nodes_with += b.nodes;
            nodes_without += a.nodes;
        }
        // The normal table mode searches less and still plays a legal move.
        let c = Engine::default().search_simple(&pos, Limits::depth(depth));
        assert!(pos.legal_moves().contains(&c.best.unwrap()));
    }
    assert!(
        nodes_with < nodes_without,
        "the table saves work: {nodes_with} vs {nodes_without}"
    );
}

#[test]
fn aspiration_and_move_ordering_do_not_change_a_fixed_depth_score() {
    // Without the table, reductions and ProbCut the search is plain alpha-beta: aspiration
    // windows (searched again when the score falls outside), counter-moves and the history
    // penalty only change how much is searched, never the score. What they save depends on the
    // evaluation and the depth: `crossboard bench search --depth 14 --off FEATURE` measures it.
    let fens = [
        "B:W22,23,25,27,30:B5,6,10,12,14",
        "W:W18,21,26,28:B3,7,9,15",
        "B:W17,24,26,31,32:B1,6,11,13,20",
        "B:W21-32:B1-12",
    ];
    let bare = Options {
        use_tt: false,
        reductions: false,
        probcut: false,
        aspiration: false,
        counter_moves: false,
        history_malus: false,
        ..Options::default()
    };
    let full = Options {
        aspiration: true,
        counter_moves: true,
        history_malus: true,
        ..bare
    };
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        for d in [5, 7, 8] {
            let a = Engine::new(bare).search_simple(&pos, Limits::depth(d));
            let b = Engine::new(full).search_simple(&pos, Limits::depth(d));
            assert_eq!(a.score, b.score, "{fen} depth {d}");
        }
    }
}

#[test]
fn probcut_saves_work_and_keeps_the_shots() {
    // ProbCut cuts quiet nodes whose evaluation is far above beta once a shallower search
    // agrees: from the start and after 11-15 23-19 it reaches the same depth with fewer nodes.
    let fens = ["B:W21-32:B1-12", "B:W19,21,22,24-32:B1-10,12,15"];
    let without = Options {
        probcut: false,
        ..Options::default()
    };
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let a = Engine::new(without).search_simple(&pos, Limits::depth(13));
        let b = Engine::default().search_simple(&pos, Limits::depth(13));
        assert!(b.nodes < a.nodes, "{fen}: {} against {}", b.nodes, a.nodes);
        assert!(pos.legal_moves().contains(&b.best.unwrap()));
    }
    // A shot is not cut: the first move gives a man and looks bad to the evaluation.
    let pos = Position::from_fen("B:W22,23,29,32:B6,7,10,15").unwrap();
    let r = Engine::default().search_simple(&pos, Limits::depth(8));
    assert_eq!(r.best.unwrap().to_string(), "15-18");
    assert!(r.score.0 > 150, "{}", r.score);
}

#[test]
fn repetition_along_the_game_is_a_draw() {
    // White's lone king is lost against two kings, but the game went E, F, G, root with king
    // moves only, and 28-32 now returns to E: with the history the search takes the draw.
    let fens = ["B:WK32:BK18,K19", "W:WK32:BK14,K19", "B:WK28:BK14,K19"];
    let history: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let root = Position::from_fen("W:WK28:BK18,K19").unwrap();
    let alone = Engine::default().search_simple(&root, Limits::depth(12));
    assert!(
        alone.score.is_decisive() || alone.score.0 < -100,
        "lost without history: {}",
        alone.score
    );
    let stop = Arc::new(AtomicBool::new(false));
    let r = Engine::default().search(&root, &history, Limits::depth(12), stop, |_| {});
    assert_eq!(r.score, Score::DRAW);
    assert_eq!(r.best.unwrap().to_string(), "28-32");
    // A capture in between breaks the chain: the same history with a man taken is no repetition.
    let broken = ["B:W24,K32:BK18,K19", "W:WK32:BK14,K19", "B:WK28:BK14,K19"];
    let history: Vec<Position> = broken
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let r = Engine::default().search(&root, &history, Limits::depth(12), stop, |_| {});
    assert_ne!(r.score, Score::DRAW);
}

#[test]
fn a_single_reply_under_a_time_limit_is_played_without_a_search() {
    // Red's man on 14 must take White's on 18 (14x23): the only legal move; Red's king on 1
    // may not move while a capture is on. White keeps two men: the game goes on.
    let pos = Position::from_fen("B:W18,30,31:B14,K1").unwrap();
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), 1, "{legal:?}");
    let stop = || Arc::new(AtomicBool::new(false));
    let clock = crossboard::search::Budget::clock(Duration::from_secs(60), None, Duration::ZERO);
    let per_move = crossboard::search::Budget::per_move(Duration::from_secs(5));
    let now = Instant::now();
    for limits in [
        Limits::budget(clock, now),
        Limits::budget(per_move, now),
        Limits::deadline(now + Duration::from_secs(5)),
    ] {
        let r = Engine::new(Options::default()).search(&pos, &[], limits, stop(), |_| {});
        assert_eq!(r.best, Some(legal[0]));
        // Nothing searched: the time is kept (counted in nodes, not measured in time).
        assert_eq!((r.nodes, r.depth), (0, 0), "{limits:?}");
    }
    // By depth or nodes alone it is searched: such a search is reproducible, and its figures
    // are what is asked for.
    for limits in [Limits::depth(6), Limits::nodes(5_000)] {
        let r = Engine::new(Options::default()).search(&pos, &[], limits, stop(), |_| {});
        assert_eq!(r.best, Some(legal[0]));
        assert!(r.depth >= 2 && r.nodes > 0, "{r:?}");
    }
}
