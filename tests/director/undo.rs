//! Undoing a wrong director decision ([`Command::UndoDecision`]): a forfeit or adjudication
//! reopens the game with its moves, clocks paused; an amended result goes back to what it was;
//! a result the board or the players decided is not the director's to undo.

use crate::director_support;

use crossboard::director::*;
use crossboard::engine::{Color, Outcome};
use director_support::*;

fn undo(h: &mut H) -> Vec<MatchEvent> {
    h.ok(Command::UndoDecision {
        reason: "wrong player named".into(),
    })
}

#[test]
fn a_forfeit_undone_reopens_the_game_with_its_moves_and_paused_clocks() {
    let mut s = settings(1);
    s.time_control = TimeControl::sudden_death(600);
    let mut h = H::new(s, 3);
    h.colours(Player::First).ballot();
    h.play(5_000);
    h.play(7_000);
    h.wait(2_000);
    let r = ended(&h.ok(Command::Forfeit {
        loser: Color::White,
        reason: "late".into(),
    }))
    .unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::Red));
    let ev = undo(&mut h);
    assert!(
        matches!(&ev[0], MatchEvent::DecisionUndone { restored: None, undone, .. } if *undone == r),
        "{ev:?}"
    );
    let g = h.m.playing().expect("the game is on again");
    assert_eq!(g.moves.len(), 2, "no real move was taken back");
    assert_eq!(g.result, None);
    assert_eq!(h.m.awaiting(), Awaiting::Resume);
    // Once undone, there is nothing more to undo; the game goes on.
    assert!(matches!(
        h.refused(Command::UndoDecision {
            reason: "again".into()
        }),
        MatchError::NotNow { .. }
    ));
    h.ok(Command::ResumeClocks);
    h.play(1_000);
    assert_eq!(h.m.playing().unwrap().moves.len(), 3);
}

#[test]
fn an_amended_result_goes_back_and_a_players_result_is_not_the_directors() {
    let mut h = H::new(settings(1), 5);
    h.colours(Player::First).ballot();
    h.play(1_000);
    h.finish_game(Some(Color::Red));
    // Resignations are the players' own: nothing to undo.
    assert!(matches!(
        h.refused(Command::UndoDecision { reason: "r".into() }),
        MatchError::NothingToUndo
    ));
    h.ok(Command::Adjudicate {
        outcome: Outcome::Draw,
        reason: "resigned by mistake".into(),
    });
    assert_eq!(h.m.score().total, [Points(1), Points(1)]);
    let ev = undo(&mut h);
    let MatchEvent::DecisionUndone {
        restored: Some(back),
        ..
    } = &ev[0]
    else {
        panic!("{ev:?}");
    };
    assert_eq!(back.reason, EndReason::Resigned);
    assert_eq!(h.m.score().total, [Points(2), Points(0)]);
    assert!(matches!(h.m.phase(), Phase::Ready { game: 2, .. }));
    // One undo only.
    assert!(matches!(
        h.refused(Command::UndoDecision { reason: "r".into() }),
        MatchError::NothingToUndo
    ));
    // A reason is needed, and the next game closes the door.
    h.ok(Command::StartGame);
    assert!(matches!(
        h.refused(Command::UndoDecision { reason: "r".into() }),
        MatchError::NotNow { .. }
    ));
    let text = h.reload(0);
    assert!(text.contains("decision-undone"), "the undo is in the log");
}
