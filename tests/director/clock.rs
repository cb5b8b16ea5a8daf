//! Clocks inside whole matches: flags at the limit and one millisecond after, carry-over,
//! pauses, time adjustments, director take-backs and amendments, and saving/resuming.

use crate::director_support;

use crossboard::director::*;
use crossboard::engine::{Color, Outcome};
use director_support::*;

use Player::First;

fn timed(tc: TimeControl, ballots: u32) -> H {
    let mut s = settings(ballots);
    s.time_control = tc;
    let mut h = H::new(s, 21);
    h.colours(First);
    h.ballot();
    h
}

#[test]
fn a_move_exactly_at_the_limit_counts_one_ms_later_is_a_flag() {
    // Exactly at the limit: the move is played with nothing left.
    let mut h = timed(TimeControl::sudden_death(60), 1);
    let ev = h.play(60_000);
    assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }), "{ev:?}");
    let record = h.m.current_game().unwrap().moves.last().unwrap().clone();
    assert_eq!(record.remaining_ms, Some(0));
    assert!(ended(&ev).is_none());

    // One millisecond later: a flag, not a move.
    let mut h = timed(TimeControl::sudden_death(60), 1);
    let ev = h.play(60_001);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, MatchEvent::MovePlayed { .. }))
    );
    let r = ended(&ev).unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert_eq!(
        r.reason,
        EndReason::Time {
            flag: FlagKind::GameTime
        }
    );
    let g = h.m.current_game().unwrap();
    assert!(g.moves.is_empty() && g.game.moves().is_empty());
    assert_eq!(h.m.phase(), Phase::Ready { ballot: 1, game: 2 });
}

#[test]
fn ticks_notice_the_flag_between_moves() {
    let mut h = timed(TimeControl::sudden_death(60), 1);
    h.wait(60_000);
    assert!(h.ok(Command::Tick).is_empty());
    assert_eq!(h.m.flag_due(h.t), None);
    let r = h.m.clock_reading(h.t).unwrap();
    assert_eq!(r.red.remaining_ms, Some(0));
    assert!(!r.red.expired);
    h.wait(1);
    assert!(h.m.flag_due(h.t).is_some());
    assert!(h.m.clock_reading(h.t).unwrap().red.expired);
    let r = ended(&h.ok(Command::Tick)).unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    // Ticks outside play do nothing and never fail.
    assert!(h.ok(Command::Tick).is_empty());
}

#[test]
fn a_flag_is_a_loss_unless_the_director_rules_otherwise() {
    let mut h = timed(TimeControl::sudden_death(60), 1);
    h.play(1000);
    h.wait(61_000);
    ended(&h.ok(Command::Tick)).unwrap();
    assert_eq!(h.m.score().total, [Points(2), Points(0)]);
    let ev = h.ok(Command::Adjudicate {
        outcome: Outcome::Draw,
        reason: "clock malfunction".into(),
    });
    assert!(
        matches!(&ev[0], MatchEvent::ResultAmended { ballot: 1, game: 1, previous, .. }
        if previous.reason == EndReason::Time { flag: FlagKind::GameTime })
    );
    assert_eq!(h.m.score().total, [Points(1), Points(1)]);
    assert_eq!(h.m.phase(), Phase::Ready { ballot: 1, game: 2 });
    // Once the next game starts, the earlier one is closed.
    h.ok(Command::StartGame);
    h.finish_game(Some(Color::Red));
    // The amendment of the last game can undo a finished match.
    let out = *h.m.outcome().unwrap();
    assert_eq!(out.winner, Some(Player::Second));
    h.ok(Command::Adjudicate {
        outcome: Outcome::Draw,
        reason: "appeal upheld".into(),
    });
    assert_eq!(h.m.outcome().unwrap().decided, Decided::Tie);
}

#[test]
fn carry_over_in_a_match() {
    // Two moves per minute, repeating.
    let mut h = timed(TimeControl::moves_per_period(2, 60), 1);
    let ev = h.play(10_000);
    assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }), "{ev:?}");
    let record = h.m.current_game().unwrap().moves.last().unwrap().clone();
    assert_eq!(record.remaining_ms, Some(50_000));
    h.play(1000);
    let ev = h.play(20_000);
    assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }), "{ev:?}");
    let record = h.m.current_game().unwrap().moves.last().unwrap().clone();
    // Red's second move: 60 - 10 - 20 + 60.
    assert_eq!(record.remaining_ms, Some(90_000));
    assert_eq!(record.period, 2);
    let r = h.m.clock_reading(h.t).unwrap();
    assert_eq!(r.red.moves_to_control, Some(2));
    assert_eq!(r.white.moves_to_control, Some(1));
}

#[test]
fn a_paused_clock_does_not_run_and_moves_wait() {
    let mut h = timed(TimeControl::sudden_death(600), 1);
    h.wait(MIN);
    h.refused(Command::PauseClocks { reason: "".into() });
    h.ok(Command::PauseClocks {
        reason: "dispute over a touched piece".into(),
    });
    assert_eq!(h.m.awaiting(), Awaiting::Resume);
    h.refused(Command::PauseClocks {
        reason: "again".into(),
    });
    h.wait(30 * MIN);
    let mv = h.some_move();
    assert!(matches!(
        h.refused(Command::PlayMove {
            colour: Color::Red,
            mv
        }),
        MatchError::Paused
    ));
    h.refused(Command::Move {
        colour: Color::Red,
        text: mv.to_string(),
    });
    // Well past the time, but paused: no flag.
    assert!(h.ok(Command::Tick).is_empty());
    let r = h.m.clock_reading(h.t).unwrap();
    assert!(r.paused && !r.running);
    assert_eq!(r.red.remaining_ms, Some((9 * MIN) as i64));
    h.ok(Command::ResumeClocks);
    h.refused(Command::ResumeClocks);
    let ev = h.play(MIN);
    assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }), "{ev:?}");
    let record = h.m.current_game().unwrap().moves.last().unwrap().clone();
    assert_eq!(record.spent_ms, 2 * MIN);
    assert_eq!(record.remaining_ms, Some((8 * MIN) as i64));
}

#[test]
fn director_adds_and_removes_time() {
    let mut h = timed(TimeControl::sudden_death(600), 1);
    let ev = h.ok(Command::AdjustTime {
        colour: Color::White,
        delta_ms: 120_000,
        reason: "opponent's phone rang".into(),
    });
    assert!(matches!(
        ev[0],
        MatchEvent::TimeAdjusted {
            remaining_ms: 720_000,
            ..
        }
    ));
    h.refused(Command::AdjustTime {
        colour: Color::Red,
        delta_ms: -700_000,
        reason: "penalty".into(),
    });
    h.ok(Command::AdjustTime {
        colour: Color::Red,
        delta_ms: -60_000,
        reason: "penalty".into(),
    });
    assert_eq!(
        h.m.clock_reading(h.t).unwrap().red.remaining_ms,
        Some(540_000)
    );
    // No clock, nothing to adjust.
    let mut h = timed(TimeControl::none(), 1);
    h.refused(Command::AdjustTime {
        colour: Color::Red,
        delta_ms: 1,
        reason: "x".into(),
    });
}

#[test]
fn director_takes_back_moves() {
    let mut h = timed(TimeControl::sudden_death(600), 1);
    h.play(10_000);
    h.play(20_000);
    h.play(30_000);
    let before_two = h.m.current_game().unwrap().game.positions()[1];
    assert!(matches!(
        h.refused(Command::TakeBack {
            moves: 4,
            reason: "mis-entry".into()
        }),
        MatchError::TakeBack { asked: 4, made: 3 }
    ));
    h.refused(Command::TakeBack {
        moves: 1,
        reason: "".into(),
    });
    let ev = h.ok(Command::TakeBack {
        moves: 2,
        reason: "White's 22-18 was entered as 22-17".into(),
    });
    let MatchEvent::MovesTakenBack {
        moves, reopened, ..
    } = &ev[0]
    else {
        panic!()
    };
    assert_eq!(moves.len(), 2);
    assert!(reopened.is_none());
    let g = h.m.playing().unwrap();
    assert_eq!(*g.game.position(), before_two);
    assert_eq!(g.moves.len(), 1);
    // Clocks as they were before those moves; White to move again.
    let r = h.m.clock_reading(h.t).unwrap();
    assert_eq!(r.to_move, Color::White);
    assert_eq!(r.white.remaining_ms, Some(600_000));
    assert_eq!(r.red.remaining_ms, Some(590_000));
    let ev = h.play(5_000);
    assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }), "{ev:?}");
    let record = h.m.current_game().unwrap().moves.last().unwrap().clone();
    assert_eq!(record.colour, Color::White);
    assert_eq!(record.spent_ms, 5_000);
}

#[test]
fn a_finished_game_can_be_reopened_by_a_take_back() {
    let mut h = timed(TimeControl::sudden_death(600), 1);
    h.play(1000);
    let played = h.m.playing().unwrap().moves.len();
    h.ok(Command::Resign { colour: Color::Red });
    assert_eq!(h.m.phase(), Phase::Ready { ballot: 1, game: 2 });
    let ev = h.ok(Command::TakeBack {
        moves: 0,
        reason: "resignation was a misunderstanding".into(),
    });
    assert!(matches!(
        &ev[0],
        MatchEvent::MovesTakenBack {
            reopened: Some(_),
            ..
        }
    ));
    assert_eq!(h.m.phase(), Phase::Playing { ballot: 1, game: 1 });
    let g = h.m.playing().unwrap();
    assert!(g.result.is_none() && g.finished.is_none());
    assert_eq!(g.moves.len(), played);
    // Reopened with clocks paused.
    assert_eq!(h.m.awaiting(), Awaiting::Resume);
    h.ok(Command::ResumeClocks);
    h.play(1000);
    h.ok(Command::Resign { colour: Color::Red });
    h.ok(Command::StartGame);
    h.play(1000);
    h.ok(Command::Resign { colour: Color::Red });
    assert_eq!(h.m.phase(), Phase::Finished);
    // A finished match's last game can still be reopened (its last move was mis-entered).
    h.ok(Command::TakeBack {
        moves: 1,
        reason: "last move mis-entered".into(),
    });
    assert_eq!(h.m.phase(), Phase::Playing { ballot: 1, game: 2 });
    assert!(h.m.outcome().is_none());
    assert!(h.m.playing().unwrap().moves.is_empty());
}

#[test]
fn per_move_limit_in_a_match() {
    let mut h = timed(TimeControl::per_move_classic(), 1);
    h.wait(5 * MIN - 1);
    assert!(h.ok(Command::Tick).is_empty());
    h.wait(1);
    let r = h.m.clock_reading(h.t).unwrap();
    assert!(r.red.warning);
    assert_eq!(r.red.remaining_ms, None);
    // "Time" is called once, and recorded.
    assert_eq!(
        h.ok(Command::Tick),
        vec![MatchEvent::TimeCalled {
            colour: Color::Red,
            spent_ms: 5 * MIN
        }]
    );
    h.wait(1000);
    assert!(h.ok(Command::Tick).is_empty());
    // Within the grace minute the move counts.
    h.play(MIN - 1000);
    h.wait(6 * MIN + 1);
    let r = ended(&h.ok(Command::Tick)).unwrap();
    assert_eq!(
        r.reason,
        EndReason::Time {
            flag: FlagKind::MoveTime
        }
    );
    assert_eq!(r.outcome, Outcome::Win(Color::Red));
}

#[test]
fn saved_and_resumed_mid_game_with_clocks_held() {
    let mut h = timed(TimeControl::sudden_death(600), 2);
    h.play(10_000);
    h.play(20_000);
    h.ok(Command::OfferDraw { colour: Color::Red });
    // Time passes after the last event, then the program dies.
    h.wait(40_000);
    let text = h.reload(7);
    assert!(text.contains("event = \"move\""), "{text}");
    assert!(!text.contains("since"), "no monotonic instant is saved");
    assert_eq!(h.m.log().last().unwrap().event, MatchEvent::Reopened);
    // Time at the last committed move; paused until the director resumes.
    let r = h.m.clock_reading(h.t).unwrap();
    assert!(r.paused);
    assert_eq!(r.red.remaining_ms, Some(590_000));
    assert_eq!(r.white.remaining_ms, Some(580_000));
    assert_eq!(h.m.draw_offer(), Some(Color::Red));
    let mv = h.some_move();
    h.refused(Command::PlayMove {
        colour: Color::Red,
        mv,
    });
    h.ok(Command::ResumeClocks);
    let ev = h.play(5_000);
    assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }), "{ev:?}");
    let record = h.m.current_game().unwrap().moves.last().unwrap().clone();
    assert_eq!(record.remaining_ms, Some(585_000));
    // The rest of the match goes on normally, and the ballot is not redrawn.
    let opening = h.m.ballots()[0].opening.clone();
    h.ok(Command::Resign {
        colour: Color::White,
    });
    h.reload(3);
    h.ok(Command::StartGame);
    assert_eq!(h.m.playing().unwrap().opening, opening);
    h.finish_game(None);
    h.reload(0);
    assert_eq!(h.m.phase(), Phase::Draw { ballot: 2 });
}

#[test]
fn a_whole_eleven_man_match_round_trips_through_toml() {
    let mut s = settings(3);
    s.openings.system = crossboard::openings::System::ElevenMan;
    s.time_control = TimeControl::apca();
    s.scoring.per_ballot = true;
    s.tie = TieRule::ContinueInBlocks {
        max_blocks: Some(2),
    };
    let mut h = H::new(s, 99);
    h.ok(Command::CallCoin {
        caller: First,
        call: CoinSide::Tails,
    });
    let Phase::ColourChoice {
        chooser: Some(chooser),
    } = h.m.phase()
    else {
        panic!()
    };
    h.ok(Command::ChooseColour {
        player: chooser,
        colour: Color::Red,
    });
    h.ok(Command::DrawBallot);
    h.ok(Command::Reject {
        colour: Color::White,
    });
    h.ok(Command::Reject { colour: Color::Red });
    h.reload(0);
    for _ in 0..3 {
        h.ballot();
        for _ in 0..6 {
            h.play(2_000);
        }
        h.reload(1);
        h.ok(Command::ResumeClocks);
        h.ok(Command::TakeBack {
            moves: 1,
            reason: "mis-entry".into(),
        });
        h.play(1_000);
        h.finish_game(Some(Color::Red));
        h.ok(Command::StartGame);
        h.play(1_000);
        h.finish_game(None);
        h.reload(2);
    }
    assert!(h.m.outcome().is_some());
    let text = toml::to_string(&h.m).unwrap();
    let back: Match = toml::from_str(&text).unwrap();
    assert_eq!(back.log(), h.m.log());
    assert_eq!(back.score(), h.m.score());
    assert_eq!(back.rejected().len(), 1);
    assert_eq!(back.games().count(), 6);
    for g in back.games() {
        assert_eq!(g.moves.len(), g.game.moves().len());
        assert_eq!(g.game.start(), &g.opening.position);
    }
}

#[test]
fn a_director_decision_is_undone_without_taking_back_a_move() {
    // A forfeit in play, undone: the game is in play again, clocks paused, every move kept.
    let mut h = timed(TimeControl::sudden_death(600), 1);
    h.play(10_000);
    h.play(20_000);
    h.refused(Command::UndoDecision {
        reason: "nothing decided yet".into(),
    });
    h.wait(5_000);
    h.ok(Command::Forfeit {
        loser: Color::Red,
        reason: "phone rang".into(),
    });
    assert_eq!(h.m.phase(), Phase::Ready { ballot: 1, game: 2 });
    let (undone, back) = h.m.undoable().unwrap();
    assert!(matches!(undone.reason, EndReason::Forfeit { .. }));
    assert_eq!(back, None);
    h.refused(Command::UndoDecision { reason: "".into() });
    let ev = h.ok(Command::UndoDecision {
        reason: "it was the hall's phone".into(),
    });
    assert!(matches!(
        &ev[..],
        [MatchEvent::DecisionUndone { restored: None, .. }]
    ));
    assert_eq!(h.m.phase(), Phase::Playing { ballot: 1, game: 1 });
    assert_eq!(h.m.awaiting(), Awaiting::Resume);
    let g = h.m.playing().unwrap();
    assert_eq!(g.moves.len(), 2);
    assert!(g.result.is_none() && g.overruled.is_empty());
    // The five seconds Red had used on the unfinished move are still counted.
    assert_eq!(
        h.m.clock_reading(h.t).unwrap().red.remaining_ms,
        Some(585_000)
    );
    assert!(h.m.undoable().is_none());
    h.ok(Command::ResumeClocks);
    h.play(1_000);
    h.reload(0);

    // A flag amended to a draw, undone twice: back to the flag, then nothing left to undo.
    let mut h = timed(TimeControl::sudden_death(60), 2);
    h.play(60_001);
    assert!(matches!(
        h.m.current_game().unwrap().result.as_ref().unwrap().reason,
        EndReason::Time { .. }
    ));
    assert!(matches!(
        h.refused(Command::UndoDecision { reason: "x".into() }),
        MatchError::NothingToUndo
    ));
    for note in ["clock fault", "second thoughts"] {
        h.ok(Command::Adjudicate {
            outcome: Outcome::Draw,
            reason: note.into(),
        });
    }
    let ev = h.ok(Command::UndoDecision {
        reason: "u1".into(),
    });
    let MatchEvent::DecisionUndone {
        restored: Some(r), ..
    } = &ev[0]
    else {
        panic!("{ev:?}")
    };
    assert_eq!(
        r.reason,
        EndReason::Adjudicated {
            note: "clock fault".into()
        }
    );
    h.reload(0);
    h.ok(Command::UndoDecision {
        reason: "u2".into(),
    });
    let r = h.m.current_game().unwrap().result.clone().unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert!(matches!(r.reason, EndReason::Time { .. }));
    assert!(h.m.undoable().is_none());
    // Once the next game has started the decision stands.
    h.ok(Command::Forfeit {
        loser: Color::White,
        reason: "late".into(),
    });
    h.ok(Command::StartGame);
    assert!(matches!(
        h.refused(Command::UndoDecision { reason: "x".into() }),
        MatchError::NotNow { .. }
    ));
}

#[test]
fn undoing_the_decision_that_finished_the_match_reopens_it() {
    let mut h = timed(TimeControl::none(), 1);
    h.finish_game(Some(Color::Red));
    h.ok(Command::StartGame);
    h.play(0);
    h.ok(Command::Adjudicate {
        outcome: Outcome::Win(Color::White),
        reason: "hall closing".into(),
    });
    assert_eq!(h.m.phase(), Phase::Finished);
    assert!(h.m.outcome().is_some());
    h.ok(Command::UndoDecision {
        reason: "the hall stays open".into(),
    });
    assert_eq!(h.m.phase(), Phase::Playing { ballot: 1, game: 2 });
    assert!(h.m.outcome().is_none());
    assert_eq!(h.m.playing().unwrap().moves.len(), 1);
    h.reload(0);
    assert_eq!(h.m.awaiting(), Awaiting::Resume);
}
