//! Longer database builds (ignored by default: `tests/run -- --ignored`): every slice of up to
//! 5 pieces, and published 6-piece studies.

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
