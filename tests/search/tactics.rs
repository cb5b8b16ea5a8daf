//! Tactics: constructed positions with one winning shot, which the engine must find at a
//! modest depth. Each position was built by hand around the shot; the comments give the line.

use crossboard::engine::{Move, Position};
use crossboard::search::{Engine, Limits, Score};

fn best(fen: &str, depth: u32) -> (Move, Score, Vec<String>) {
    let pos = Position::from_fen(fen).expect("test FEN");
    let r = Engine::default().search_simple(&pos, Limits::depth(depth));
    let pv = r.pv.iter().map(|m| m.to_string()).collect();
    (r.best.expect("a move"), r.score, pv)
}

#[test]
fn two_for_one_shot() {
    // Red gives 15-18; White must take (22x15 or 23x14) and Red's man on 10 takes two
    // (10x19x26 or 10x17x26). Every other move is level or worse.
    let (mv, score, pv) = best("B:W22,23,29,32:B6,7,10,15", 6);
    assert_eq!(mv.to_string(), "15-18", "{pv:?}");
    assert!(score.0 > 150, "a man up after the shot: {score}");
    let line = [pv[0].as_str(), pv[1].as_str(), pv[2].as_str()];
    assert!(
        line == ["15-18", "22x15", "10x19x26"] || line == ["15-18", "23x14", "10x17x26"],
        "either capture loses two: {pv:?}"
    );
}

#[test]
fn crowning_shot() {
    // 19-24 28x19 and 15x24x31 takes two and crowns on 31; the other moves lose material.
    let (mv, score, pv) = best("B:W21,27,28,30,32:B10,15,19,20", 6);
    assert_eq!(mv.to_string(), "19-24", "{pv:?}");
    // A king and two men against three men, which the 6-piece databases call a draw
    // (W:W21,30,32:B10,20,K31, White to move): the shot saves the game a man down, every
    // other move loses (`only_the_shot_keeps_the_advantage`), so its score is not below level.
    assert!(score.0 >= 0, "{score}");
    assert_eq!(pv[..3], ["19-24", "28x19", "15x24x31"]);
}

#[test]
fn three_for_one_shot_into_the_king_row() {
    // 10-14 17x10 (18x9 is blocked), then 6x15x22x31 takes three and crowns.
    let (mv, score, pv) = best("B:W17,18,26,29,32:B1,6,9,10", 6);
    assert_eq!(mv.to_string(), "10-14", "{pv:?}");
    assert!(score.0 > 200, "{score}");
    assert_eq!(pv[..3], ["10-14", "17x10", "6x15x22x31"]);
}

#[test]
fn only_the_shot_keeps_the_advantage() {
    // In the crowning-shot position every move is scored exactly: the shot is best and every
    // alternative leaves Red worse off.
    let pos = Position::from_fen("B:W21,27,28,30,32:B10,15,19,20").expect("fen");
    let mut engine = Engine::default();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let scored = engine.score_moves(&pos, &[], 6, stop);
    assert_eq!(scored[0].0.to_string(), "19-24");
    assert!(
        scored.iter().skip(1).all(|(_, s)| s.0 < 0),
        "only the shot keeps Red ahead: {scored:?}"
    );
}

#[test]
fn two_kings_beat_one_in_the_double_corner() {
    // Two kings against one king holed up in the double corner: a forced win the search
    // must prove outright (a decisive score, not just material).
    let (_, score, pv) = best("B:WK28:BK18,K19", 24);
    assert!(score.is_decisive() && score.0 > 0, "{score} {pv:?}");
    let (_, score, _) = best("W:WK28:BK18,K19", 24);
    assert!(score.is_decisive() && score.0 < 0, "{score}");
}
