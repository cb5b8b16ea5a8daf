//! Longer database builds (ignored by default: `tests/run -- --ignored`): every slice of up to
//! 5 pieces, published 6-piece studies, and the 6-piece databases from files.

use crossboard::egdb::{
    Board, Egdb, Material, Wdl, build_in_memory, plan, solve_with_dependencies, verify_slice,
};
use crossboard::engine::Position;

#[test]
#[ignore = "builds every 5-piece slice: about a minute of CPU"]
fn five_pieces_are_self_consistent() {
    let db = build_in_memory(5, &|_| {});
    assert_eq!(db.complete_pieces(), 5);
    let mut checked = 0;
    for m in plan(5).slices() {
        let r = verify_slice(m, &db, &|_| {}).unwrap();
        assert_eq!(r.mismatches, 0, "{m}: {:?}", r.examples);
        checked += r.checked;
    }
    assert_eq!(checked, 145_859_644);
}

fn study(db: &mut Egdb, fen: &str) -> Wdl {
    let pos = Position::from_fen(fen).unwrap();
    let m = Material::of(&Board::of(&pos));
    solve_with_dependencies(db, m, &|_| {});
    db.probe(&pos).unwrap()
}

/// Published studies of six pieces (Bob Newell's Checker School, from Boland's *Famous
/// Positions*, checked there with KingsRow). All are Black (Red) to play and win.
#[test]
#[ignore = "builds every 5-piece slice and several 6-piece ones: minutes"]
fn six_piece_studies() {
    let mut db = Egdb::new();
    // Strickland's "negative Second Position".
    assert_eq!(study(&mut db, "B:WK28,13,12:BK15,5,3"), Wdl::Win);
    // F. Allen.
    assert_eq!(study(&mut db, "B:W17,12,K8:BK15,K9,3"), Wdl::Win);
    // G. M. Gibson.
    assert_eq!(study(&mut db, "B:WK9,19,25:B11,K17,K18"), Wdl::Win);
}

/// Second Position (Lasker, *Chess and Checkers*, diagram 95; Boland's *Famous Positions*):
/// White's men on 27 and 30 and king on 22 against Red's men on 20 and 21 and king on 9, White
/// to move, wins (with Red to move it is a draw). Built from the slices it leads to (six
/// pieces: minutes), then played by the engine on both sides: every White move keeps the win
/// and every Red move is one the database allows, and the game ends in White's win.
#[test]
#[ignore = "builds the 6-piece slices of Second Position: minutes of CPU"]
fn second_position_is_won_and_the_engine_converts_it() {
    use crossboard::engine::{Color, Game, Rules};
    use crossboard::search::{Engine, Limits, Options};
    use std::sync::Arc;
    let fen = "W:W30,27,K22:B21,20,K9";
    let mut db = Egdb::new();
    let t = std::time::Instant::now();
    assert_eq!(study(&mut db, fen), Wdl::Win);
    eprintln!(
        "Second Position: {} slices, {} positions solved in {:.1} s",
        db.materials().count(),
        db.positions(),
        t.elapsed().as_secs_f64()
    );
    let red_to_move = "B:W30,27,K22:B21,20,K9";
    assert_eq!(
        db.probe(&Position::from_fen(red_to_move).unwrap()),
        Some(Wdl::Draw)
    );
    let db = Arc::new(db);
    let mut engine = Engine::new(Options {
        hash_mb: 16,
        ..Options::default()
    });
    engine.set_egdb(Some(db.clone()));
    let mut game = Game::new(Rules::English, Position::from_fen(fen).unwrap());
    let mut history = Vec::new();
    let mut winner = None;
    for _ in 0..400 {
        let pos = *game.position();
        if pos.is_lost() {
            winner = Some(pos.turn().opponent());
            break;
        }
        let value = db.probe(&pos).expect("in the database");
        let expected = if pos.turn() == Color::White {
            Wdl::Win
        } else {
            Wdl::Loss
        };
        assert_eq!(value, expected, "{} after {:?}", pos.to_fen(), game.moves());
        let r = engine.search(
            &pos,
            &history,
            Limits::depth(10),
            Arc::new(Default::default()),
            |_| {},
        );
        let mv = r.best.expect("a move");
        history.push(pos);
        game.play(&mv).unwrap();
    }
    eprintln!("Second Position played out in {} plies", game.moves().len());
    assert_eq!(winner, Some(Color::White), "{:?}", game.moves());
}

/// A folder holding the verified databases of up to 6 pieces: `CROSSBOARD_EGDB6_DIR` when set
/// (a folder built with `crossboard egdb build --pieces 6`), else built once into a temporary
/// folder (about half an hour on two cores).
pub(crate) fn six_piece_dir() -> std::path::PathBuf {
    use crossboard::store::egdb::{BuildObserver, Phase, build, verified_pieces};
    use std::sync::OnceLock;
    struct Quiet;
    impl BuildObserver for Quiet {
        fn phase(&self, _: Phase, _: u64) {}
        fn advance(&self, _: u64) {}
        fn slice(&self, _: Material, _: bool) {}
    }
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("CROSSBOARD_EGDB6_DIR") {
            let dir = std::path::PathBuf::from(dir);
            assert_eq!(
                verified_pieces(&dir),
                6,
                "{}: not built to 6 pieces",
                dir.display()
            );
            return dir;
        }
        let dir = tempfile::tempdir().unwrap().keep();
        build(&dir, 6, &Quiet).unwrap();
        dir
    })
    .clone()
}

/// Second Position from the 6-piece files as the search loads them: complete to 6 pieces, a
/// win for White (the side with the Second Position) to move, a draw with Red to move, and
/// every White winning move agrees with a one-ply look at the database.
#[test]
#[ignore = "needs the 6-piece databases (CROSSBOARD_EGDB6_DIR, or a build of half an hour)"]
fn second_position_from_the_six_piece_files() {
    let loaded = crossboard::store::egdb::load(&six_piece_dir());
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let db = loaded.db;
    assert_eq!(db.complete_pieces(), 6);
    let white = Position::from_fen("W:W30,27,K22:B21,20,K9").unwrap();
    assert_eq!(db.probe(&white), Some(Wdl::Win));
    let red = Position::from_fen("B:W30,27,K22:B21,20,K9").unwrap();
    assert_eq!(db.probe(&red), Some(Wdl::Draw));
    // Lasker's line starts 30-26: a winning move (Red to move then loses).
    let moves = white.legal_moves();
    let first = moves
        .iter()
        .find(|m| m.to_string() == "30-26")
        .expect("30-26 is legal");
    assert_eq!(db.probe(&white.after(first)), Some(Wdl::Loss));
    // Not every move wins: the win is a matter of technique.
    assert!(
        moves
            .iter()
            .any(|m| db.probe(&white.after(m)) != Some(Wdl::Loss)),
        "every move wins?"
    );
}
