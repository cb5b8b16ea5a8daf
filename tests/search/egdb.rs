//! The search with endgame databases (built in the test run, up to 4 pieces): it converts
//! database wins into real ones, never plays a move that gives a database value away, and
//! reports database results as such.

use crossboard::egdb::{Egdb, Wdl, build_in_memory};
use crossboard::engine::{Color, Game, Position, Rules};
use crossboard::search::{Engine, Limits, Options};
use std::sync::{Arc, OnceLock};

fn db() -> Arc<Egdb> {
    static DB: OnceLock<Arc<Egdb>> = OnceLock::new();
    DB.get_or_init(|| Arc::new(build_in_memory(4, &|_| {})))
        .clone()
}

fn engine(egdb: Option<Arc<Egdb>>) -> Engine {
    let mut e = Engine::new(Options {
        hash_mb: 4,
        ..Options::default()
    });
    e.set_egdb(egdb);
    e
}

/// Play `fen` out with the engine on both sides (`depth` plies a move) for at most
/// `max_plies`; every move is checked against the database. Returns the game's winner.
fn play_out(fen: &str, depth: u32, max_plies: usize) -> Option<Color> {
    let db = db();
    let mut e = engine(Some(db.clone()));
    let start = Position::from_fen(fen).unwrap();
    let mut game = Game::new(Rules::English, start);
    let mut history: Vec<Position> = Vec::new();
    for _ in 0..max_plies {
        let pos = *game.position();
        if pos.is_lost() {
            return Some(pos.turn().opponent());
        }
        let before = db.probe(&pos).expect("in the database");
        let r = e.search(
            &pos,
            &history,
            Limits::depth(depth),
            Arc::new(Default::default()),
            |_| {},
        );
        let mv = r.best.expect("a legal move");
        assert!(pos.legal_moves().contains(&mv), "{mv} in {}", pos.to_fen());
        let after = db.probe(&pos.after(&mv)).unwrap().negate();
        assert_eq!(
            after,
            before,
            "{mv} from {} gives the {before} away",
            pos.to_fen()
        );
        match before {
            Wdl::Win => assert!(r.score.is_known() && r.score.0 > 0, "{}", r.score),
            Wdl::Loss => assert!(r.score.is_known() && r.score.0 < 0, "{}", r.score),
            Wdl::Draw => assert_eq!(r.score.0, 0, "a draw at {}", pos.to_fen()),
        }
        history.push(pos);
        game.play(&mv).unwrap();
    }
    None
}

#[test]
fn two_kings_beat_one() {
    assert_eq!(play_out("W:WK22,K18:BK1", 16, 80), Some(Color::White));
    assert_eq!(play_out("B:WK32:BK5,K10", 16, 80), Some(Color::Red));
}

/// First Position (Lasker, *Chess and Checkers*, diagram 93; Boland): White's kings on 19 and
/// 23 against Red's king on 28 and man on 12, White to move, wins. The win is a long manoeuvre
/// (drive the king out of the double corner while holding the man) that no search horizon
/// sees; the databases' distances to conversion steer it, so the engine plays it out to a
/// win against its own best defence (every move of both sides checked against the database).
#[test]
fn first_position_is_won_over_the_board() {
    assert_eq!(play_out("W:WK19,K23:BK28,12", 8, 120), Some(Color::White));
    // The same with colours reversed (the board turned round): Red wins.
    assert_eq!(play_out("B:BK14,K10:WK5,21", 8, 120), Some(Color::Red));
}

#[test]
fn a_drawn_ending_stays_drawn() {
    // King against king: neither side can win, and the search says so.
    assert_eq!(play_out("W:WK22:BK1", 8, 30), None);
}

/// From outside the databases (5 pieces, 4-piece databases) the search sees a capture into a
/// won 4-piece ending as a database win; without the databases it sees only material.
#[test]
fn a_conversion_into_the_databases_scores_as_a_database_win() {
    // White's king on 27 takes Red's king on 23 (27x18): two kings and a man against a king.
    let pos = Position::from_fen("W:WK27,K32,30:BK1,K23").unwrap();
    let db = db();
    let after: Vec<_> = pos.legal_moves();
    assert!(after.iter().all(|m| m.is_capture()));
    assert!(
        after
            .iter()
            .any(|m| db.probe(&pos.after(m)) == Some(Wdl::Loss)),
        "a capture wins (the test's premise)"
    );
    let with = engine(Some(db.clone())).search_simple(&pos, Limits::depth(4));
    assert!(
        with.score.is_database() && with.score.0 > 0,
        "{}",
        with.score
    );
    assert_eq!(db.probe(&pos.after(&with.best.unwrap())), Some(Wdl::Loss));
    let without = engine(None).search_simple(&pos, Limits::depth(4));
    assert!(!without.score.is_known(), "{}", without.score);
}

/// With the databases the search never reports a database result for a position it does not
/// know, and the root of a lost position is reported lost.
#[test]
fn a_lost_root_is_reported_lost() {
    let pos = Position::from_fen("B:WK22,K18:BK1").unwrap();
    assert_eq!(db().probe(&pos), Some(Wdl::Loss));
    let r = engine(Some(db())).search_simple(&pos, Limits::depth(6));
    assert!(r.score.is_known() && r.score.0 < 0, "{}", r.score);
    assert!(r.best.is_some(), "a move even when lost");
}

/// The databases change nothing for positions with more pieces than they hold, far from any
/// conversion: the search gives the same move and score with and without them.
#[test]
fn the_opening_is_unaffected() {
    let pos = Position::start();
    let with = engine(Some(db())).search_simple(&pos, Limits::depth(7));
    let without = engine(None).search_simple(&pos, Limits::depth(7));
    assert_eq!((with.best, with.score), (without.best, without.score));
}
