//! The match is its log: rebuilt from it, every record checked, it is the same match; a log
//! that tells another story is refused with the record and the reason.

mod director_support;

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

fn replay(h: &H, log: &[Entry]) -> Result<Replayed, LogError> {
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
        .position(|e| matches!(e.event, Event::MovePlayed { .. }))
        .unwrap();
    // An illegal move.
    let mut bad = log.clone();
    let Event::MovePlayed { mv, .. } = &mut bad[i].event else {
        unreachable!()
    };
    *mv = crossboard::engine::Move::from_notation_path("21-17").unwrap();
    let e = replay(&h, &bad).unwrap_err();
    assert_eq!(e.index, i);
    assert!(matches!(e.reason, LogRefusal::Refused { .. }), "{e}");
    // A clock reading that is not what the clock would read.
    let mut bad = log.clone();
    let Event::MovePlayed { left_ms, .. } = &mut bad[i].event else {
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
        .position(|e| matches!(e.event, Event::ClocksPaused { .. }))
        .unwrap();
    let mut bad = log.clone();
    let Event::MovePlayed { spent_ms, .. } = &mut bad[p + 2].event else {
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
        Event::MatchFinished { .. }
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
