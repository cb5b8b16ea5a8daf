//! The match is its log: rebuilt from it, every record checked, it is the same match; a log
//! that tells another story is refused with the record and the reason.

use crate::director_support;

use crossboard::director::*;
use crossboard::engine::Color;
use director_support::*;

/// A short timed match: colours, a ballot, a few moves, a pause, a resignation, game two.
fn played() -> H {
    let mut s = settings(1);
    s.time_control = TimeControl::sudden_death(600);
    let mut h = H::new(s, 3);
    h.colours(Player::First);
    h.ballot();
    h.play(4_000);
    h.play(6_000);
    h.wait(2_000);
    h.ok(Command::PauseClocks {
        reason: "dispute".into(),
    });
    h.ok(Command::ResumeClocks);
    h.play(1_000);
    h.finish_game(Some(Color::Red));
    h.ok(Command::StartGame);
    h.play(3_000);
    h
}

fn replay(h: &H, log: &[LogEntry]) -> Result<Replayed, LogError> {
    Match::from_log(h.m.settings().clone(), log)
}

#[test]
fn the_log_rebuilds_the_same_match() {
    let h = played();
    let back = replay(&h, h.m.log()).unwrap();
    assert_eq!(back.dropped, 0);
    assert_eq!(back.the_match, h.m);
    assert_eq!(back.the_match.log(), h.m.log());
}

#[test]
fn a_move_that_does_not_follow_is_refused() {
    let h = played();
    let log = h.m.log().to_vec();
    let i = log
        .iter()
        .position(|e| matches!(e.event, MatchEvent::MovePlayed { .. }))
        .unwrap();
    // An illegal move.
    let mut bad = log.clone();
    let MatchEvent::MovePlayed { mv, .. } = &mut bad[i].event else {
        unreachable!()
    };
    *mv = crossboard::engine::Move::from_notation_path("21-17").unwrap();
    let e = replay(&h, &bad).unwrap_err();
    assert_eq!(e.index, i);
    assert!(matches!(e.reason, LogRefusal::Refused { .. }), "{e}");
    // A clock reading that is not what the clock would read.
    let mut bad = log.clone();
    let MatchEvent::MovePlayed { left_ms, .. } = &mut bad[i].event else {
        unreachable!()
    };
    *left_ms = Some(599_000);
    let e = replay(&h, &bad).unwrap_err();
    assert_eq!(e.index, i);
    assert!(
        e.to_string().contains("the clock would read 9:56.000"),
        "{e}"
    );
    // Time that runs backwards after a pause.
    let p = log
        .iter()
        .position(|e| matches!(e.event, MatchEvent::ClocksPaused { .. }))
        .unwrap();
    let mut bad = log.clone();
    let MatchEvent::MovePlayed { spent_ms, .. } = &mut bad[p + 2].event else {
        panic!("{:?}", bad[p + 2])
    };
    *spent_ms = 1;
    assert_eq!(replay(&h, &bad).unwrap_err().index, p + 2);
}

#[test]
fn a_record_removed_or_duplicated_is_refused_or_changes_only_what_it_says() {
    let h = played();
    let log = h.m.log().to_vec();
    for i in 0..log.len() {
        for mutated in [
            [&log[..i], &log[i + 1..]].concat(),
            [&log[..=i], &log[i..]].concat(),
        ] {
            if let Ok(r) = replay(&h, &mutated) {
                // Accepted: the match holds exactly the records it was given.
                let kept = mutated.len() - r.dropped;
                assert_eq!(r.the_match.log(), &mutated[..kept]);
                assert_eq!(
                    replay(&h, r.the_match.log()).unwrap().the_match,
                    r.the_match
                );
                for g in r.the_match.games() {
                    assert_eq!(g.moves.len(), g.game.moves().len());
                }
            }
        }
    }
}

#[test]
fn a_last_command_cut_short_is_dropped() {
    let mut h = played();
    h.finish_game(None); // offer, then accept: game ended and match finished
    let log = h.m.log().to_vec();
    assert!(matches!(
        log.last().unwrap().event,
        MatchEvent::MatchFinished { .. }
    ));
    let cut = &log[..log.len() - 1];
    let r = replay(&h, cut).unwrap();
    assert_eq!(r.dropped, 1);
    assert_eq!(r.the_match.log().len(), log.len() - 2);
    assert!(r.the_match.playing().is_some());
    // A consequence alone is refused.
    let mut bad = log.clone();
    bad.remove(bad.len() - 2);
    assert!(matches!(
        replay(&h, &bad).unwrap_err().reason,
        LogRefusal::Differs(_) | LogRefusal::Unprompted(_)
    ));
}

/// A game in play whose side to move (White) has thought 5 s, had the clocks paused and
/// resumed, and thought 7 s more (12 s on the move, 5 s of it counted at the pause); both
/// a game clock and the classic per-move limit run.
fn thinking() -> H {
    let mut s = settings(1);
    s.time_control = TimeControl {
        per_move: Some(PerMoveLimit::default()),
        ..TimeControl::sudden_death(3_600)
    };
    let mut h = H::new(s, 5);
    h.colours(Player::First);
    h.ballot();
    h.play(4_000);
    h.wait(5_000);
    h.ok(Command::PauseClocks {
        reason: "dispute".into(),
    });
    h.wait(60_000);
    h.ok(Command::ResumeClocks);
    h.wait(7_000);
    h
}

/// The time on the move of the game in play, as a reading shows it.
fn on_the_move(m: &Match, now_ms: u64) -> Option<u64> {
    let r = m.clock_reading(now_ms)?;
    r.side(r.to_move).move_ms
}

/// What a side may do while thinking, each followed by a "kill": the match rebuilt from its
/// log alone must have the thinking up to the record counted, not only what was counted at
/// the last pause.
#[test]
fn thinking_before_a_record_made_during_a_move_survives_a_kill() {
    type Act = fn(&mut H);
    let cases: [(&str, Act); 6] = [
        ("draw offered", |h| {
            h.ok(Command::OfferDraw {
                colour: Color::White,
            });
        }),
        ("draw declined", |h| {
            h.ok(Command::OfferDraw { colour: Color::Red });
            h.wait(3_000);
            h.ok(Command::DeclineDraw {
                colour: Color::White,
            });
        }),
        ("note", |h| {
            h.ok(Command::Note {
                text: "White asks for the arbiter".into(),
            });
        }),
        ("time adjusted", |h| {
            h.ok(Command::AdjustTime {
                colour: Color::Red,
                delta_ms: 60_000,
                reason: "clock malfunction".into(),
            });
        }),
        ("time called", |h| {
            h.wait(300_000);
            let ev = h.ok(Command::Tick);
            assert!(matches!(ev[..], [MatchEvent::TimeCalled { .. }]), "{ev:?}");
        }),
        ("time adjusted while paused", |h| {
            h.ok(Command::PauseClocks {
                reason: "clock check".into(),
            });
            h.wait(30_000);
            h.ok(Command::AdjustTime {
                colour: Color::White,
                delta_ms: -1_000,
                reason: "penalty".into(),
            });
        }),
    ];
    for (what, act) in cases {
        let mut h = thinking();
        act(&mut h);
        let live = on_the_move(&h.m, h.t).unwrap();
        assert!(live >= 12_000, "{what}: {live} ms");
        let back = replay(&h, h.m.log()).unwrap().the_match;
        assert_eq!(back, h.m, "{what}");
        assert_eq!(on_the_move(&back, 0), Some(live), "{what}: thinking lost");
        // Through the file, reopened in a new process and resumed: the next move is charged
        // all of it.
        h.reload(0);
        h.ok(Command::ResumeClocks);
        let ev = h.play(2_000);
        let MatchEvent::MovePlayed { spent_ms, .. } = ev[0] else {
            panic!("{what}: {ev:?}")
        };
        assert_eq!(spent_ms, live + 2_000, "{what}");
    }
}

/// A record made during a move says how long the side had thought; one that says less than
/// was counted before it, or more while the clocks stood still, is refused. An older file's
/// record without the figure reads as what the clock had counted before it.
#[test]
fn the_thinking_a_record_states_is_checked_and_older_records_without_it_still_read() {
    let mut h = thinking();
    h.ok(Command::OfferDraw {
        colour: Color::White,
    });
    let log = h.m.log().to_vec();
    let i = log.len() - 1;
    let with = |spent: Option<u64>| {
        let mut log = log.clone();
        let MatchEvent::DrawOffered { spent_ms, .. } = &mut log[i].event else {
            panic!("{:?}", log[i])
        };
        assert_eq!(*spent_ms, Some(12_000));
        *spent_ms = spent;
        log
    };
    let e = replay(&h, &with(Some(4_999))).unwrap_err();
    assert_eq!(e.index, i);
    assert!(e.to_string().contains("4999 ms on the move"), "{e}");
    let older = replay(&h, &with(None)).unwrap().the_match;
    assert_eq!(older.log()[i], with(None)[i], "read as written");
    assert_eq!(on_the_move(&older, 0), Some(5_000), "counted at the pause");
    // While paused the figure cannot grow.
    let mut h = thinking();
    h.ok(Command::PauseClocks {
        reason: "clock check".into(),
    });
    h.wait(10_000);
    h.ok(Command::Note {
        text: "waiting for the arbiter".into(),
    });
    let mut log = h.m.log().to_vec();
    let i = log.len() - 1;
    let MatchEvent::Note { spent_ms, .. } = &mut log[i].event else {
        panic!("{:?}", log[i])
    };
    assert_eq!(*spent_ms, Some(12_000));
    *spent_ms = Some(12_001);
    assert_eq!(replay(&h, &log).unwrap_err().index, i);
    // A note between games has no figure, and may not have one.
    h.ok(Command::ResumeClocks);
    h.finish_game(Some(Color::Red));
    let ev = h.ok(Command::Note {
        text: "game one over".into(),
    });
    assert_eq!(
        ev,
        [MatchEvent::Note {
            text: "game one over".into(),
            spent_ms: None
        }]
    );
    let mut log = h.m.log().to_vec();
    let i = log.len() - 1;
    log[i].event = MatchEvent::Note {
        text: "game one over".into(),
        spent_ms: Some(0),
    };
    assert_eq!(replay(&h, &log).unwrap_err().index, i);
}

/// A ballot record whose cards do not give the opening it names, or whose cards were changed,
/// is refused at that record: the opening is replayed from the cards, never taken on trust.
#[test]
fn a_ballot_whose_cards_do_not_give_its_opening_is_refused() {
    let mut s = settings(1);
    s.openings.system = crossboard::openings::System::ElevenMan;
    let mut h = H::new(s, 9);
    h.colours(Player::First);
    h.ok(Command::DrawBallot);
    let log = h.m.log().to_vec();
    let i = log
        .iter()
        .position(|e| matches!(e.event, MatchEvent::BallotDrawn { .. }))
        .unwrap();
    let MatchEvent::BallotDrawn { number, steps, .. } = &log[i].event else {
        unreachable!()
    };
    assert!(!steps.is_empty());
    assert_eq!(replay(&h, &log).unwrap().the_match, h.m);
    // Another opening named.
    let mut bad = log.clone();
    if let MatchEvent::BallotDrawn { number: n, .. } = &mut bad[i].event {
        *n = if *number == 1 { 2 } else { 1 };
    }
    let e = replay(&h, &bad).unwrap_err();
    assert_eq!(e.index, i);
    assert!(
        e.to_string().contains("the cards recorded give opening"),
        "{e}"
    );
    // A card changed: the cards give another opening (or none).
    for k in 0..steps.len() {
        let mut bad = log.clone();
        if let MatchEvent::BallotDrawn { steps, .. } = &mut bad[i].event {
            steps[k].card += 1;
        }
        let e = replay(&h, &bad).unwrap_err();
        assert_eq!(e.index, i, "card {k}: {e}");
    }
}
