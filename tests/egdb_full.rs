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
