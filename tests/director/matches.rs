//! Whole matches walked through the director's state machine with a fake clock and a seeded rng:
//! colour choice, the accept/reject step, colour alternation, game ends, scoring, tie rules.

use crate::director_support;

use crossboard::director::*;
use crossboard::engine::{Color, Outcome};
use crossboard::openings::System;
use crossboard::tui::words;
use director_support::*;

use Player::{First, Second};

#[test]
fn coin_flip_winner_chooses_and_loser_cannot() {
    let mut h = H::new(settings(1), 7);
    assert_eq!(h.m.awaiting(), Awaiting::Toss(ColourMethod::CoinFlip));
    // Other methods' commands are refused.
    assert!(matches!(
        h.refused(Command::DrawColour { player: First }),
        MatchError::WrongMethod(ColourMethod::CoinFlip)
    ));
    h.refused(Command::ChooseColour {
        player: First,
        colour: Color::Red,
    });
    let ev = h.ok(Command::CallCoin {
        caller: Second,
        call: CoinSide::Heads,
    });
    let MatchEvent::CoinFlipped { landed, winner, .. } = ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(winner == Second, landed == CoinSide::Heads);
    assert_eq!(h.m.awaiting(), Awaiting::ColourChoice(winner));
    // The coin is not flipped twice, and the loser does not choose.
    h.refused(Command::CallCoin {
        caller: First,
        call: CoinSide::Tails,
    });
    h.refused(Command::ChooseColour {
        player: winner.other(),
        colour: Color::Red,
    });
    h.ok(Command::ChooseColour {
        player: winner,
        colour: Color::White,
    });
    assert_eq!(h.m.red_first(), Some(winner.other()));
    assert_eq!(h.m.phase(), Phase::Draw { ballot: 1 });
    assert!(
        words::status(&h.m).contains("draw the ballot"),
        "{}",
        words::status(&h.m)
    );
}

#[test]
fn bag_hands_and_director() {
    for seed in 0..6 {
        let mut s = settings(1);
        s.colour_method = ColourMethod::Bag;
        let mut h = H::new(s, seed);
        let ev = h.ok(Command::DrawColour { player: Second });
        let MatchEvent::ColourDrawn { colour, .. } = ev[0] else {
            panic!()
        };
        let red = if colour == Color::Red { Second } else { First };
        assert_eq!(h.m.red_first(), Some(red));
        assert!(matches!(ev[1], MatchEvent::ColoursSet { red: r, by_director: false } if r == red));

        let mut s = settings(1);
        s.colour_method = ColourMethod::ConcealedHands;
        let mut h = H::new(s, seed);
        let ev = h.ok(Command::PickHand {
            player: First,
            hand: Hand::Left,
        });
        let MatchEvent::HandPicked { colour, .. } = ev[0] else {
            panic!()
        };
        assert_eq!(h.m.red_in(1, 1) == Some(First), colour == Color::Red);
    }
    let mut s = settings(1);
    s.colour_method = ColourMethod::DirectorAssigns;
    let mut h = H::new(s, 1);
    h.refused(Command::CallCoin {
        caller: First,
        call: CoinSide::Heads,
    });
    let ev = h.ok(Command::AssignColour {
        player: First,
        colour: Color::White,
    });
    assert!(matches!(
        ev[0],
        MatchEvent::ColoursSet {
            red: Second,
            by_director: true
        }
    ));
    // Once per match.
    h.refused(Command::AssignColour {
        player: First,
        colour: Color::Red,
    });
}

#[test]
fn the_coin_outcome_is_recorded_and_seeded() {
    let flip = |seed| {
        let mut h = H::new(settings(1), seed);
        let ev = h.ok(Command::CallCoin {
            caller: First,
            call: CoinSide::Heads,
        });
        match ev[0] {
            MatchEvent::CoinFlipped { landed, .. } => landed,
            _ => panic!(),
        }
    };
    assert_eq!(flip(3), flip(3));
    let sides: Vec<_> = (0..16).map(flip).collect();
    assert!(sides.contains(&CoinSide::Heads) && sides.contains(&CoinSide::Tails));
}

fn eleven_man(ballots: u32, rejection: RejectionPolicy) -> MatchSettings {
    let mut s = settings(ballots);
    s.openings.system = System::ElevenMan;
    s.rejection = rejection;
    s
}

#[test]
fn white_accepts_first() {
    let mut h = H::new(eleven_man(1, RejectionPolicy::PlayersMayReject), 11);
    h.colours(First);
    // No decision before the draw.
    h.refused(Command::Accept {
        colour: Color::White,
    });
    let ev = h.ok(Command::DrawBallot);
    let MatchEvent::BallotDrawn { number, steps, .. } = &ev[0] else {
        panic!()
    };
    let opening = h.m.pending_draw().unwrap().opening.clone();
    assert_eq!(
        (opening.system, opening.number),
        (System::ElevenMan, *number)
    );
    assert!(steps.len() >= 4, "11-man: four cards at least: {steps:?}");
    // White (the second player in ballot one's game one) decides first; Red may not.
    assert_eq!(
        h.m.awaiting(),
        Awaiting::Decision {
            ballot: 1,
            colour: Color::White,
            player: Second
        }
    );
    assert!(matches!(
        h.refused(Command::Accept { colour: Color::Red }),
        MatchError::NotYourTurn {
            expected: Color::White,
            ..
        }
    ));
    h.refused(Command::DrawBallot);
    h.ok(Command::Accept {
        colour: Color::White,
    });
    // Accepting twice is refused.
    h.refused(Command::Accept {
        colour: Color::White,
    });
    h.refused(Command::Accept { colour: Color::Red });
    assert_eq!(h.m.phase(), Phase::Ready { ballot: 1, game: 1 });
    assert_eq!(h.m.ballots()[0].opening, opening);
    assert!(h.m.rejected().is_empty());
    h.ok(Command::StartGame);
    // The game starts from the ballot position (set moves not played on the clock).
    assert_eq!(h.position(), opening.position);
    assert!(h.m.playing().unwrap().moves.is_empty());
}

#[test]
fn white_rejects_red_accepts() {
    let mut h = H::new(eleven_man(1, RejectionPolicy::PlayersMayReject), 12);
    h.colours(First);
    h.ok(Command::DrawBallot);
    let drawn = h.m.pending_draw().unwrap().opening.clone();
    let ev = h.ok(Command::Reject {
        colour: Color::White,
    });
    assert!(matches!(
        ev[0],
        MatchEvent::BallotRejected {
            ballot: 1,
            colour: Color::White,
            player: Second
        }
    ));
    assert_eq!(
        h.m.phase(),
        Phase::Decide {
            ballot: 1,
            by: Color::Red
        }
    );
    h.refused(Command::Accept {
        colour: Color::White,
    });
    h.ok(Command::Accept { colour: Color::Red });
    assert_eq!(h.m.ballots()[0].opening, drawn);
    assert!(h.m.rejected().is_empty());
    // Both rejections are in the log.
    let rejections =
        h.m.log()
            .iter()
            .filter(|e| matches!(e.event, MatchEvent::BallotRejected { .. }))
            .count();
    assert_eq!(rejections, 1);
}

#[test]
fn both_reject_and_a_new_ballot_is_drawn() {
    let mut s = eleven_man(1, RejectionPolicy::PlayersMayReject);
    s.openings.no_repeat = true;
    let mut h = H::new(s, 13);
    h.colours(Second);
    h.ok(Command::DrawBallot);
    let first = h.m.pending_draw().unwrap().opening.clone();
    h.ok(Command::Reject {
        colour: Color::White,
    });
    let ev = h.ok(Command::Reject { colour: Color::Red });
    assert!(matches!(
        ev[0],
        MatchEvent::BallotRejected {
            colour: Color::Red,
            player: Second,
            ..
        }
    ));
    assert!(
        matches!(ev[1], MatchEvent::BallotDiscarded { ballot: 1, number } if number == first.number)
    );
    assert_eq!(h.m.phase(), Phase::Draw { ballot: 1 });
    assert_eq!(h.m.rejected().len(), 1);
    assert_eq!(h.m.rejected()[0].opening, first);
    h.ok(Command::DrawBallot);
    let second = h.m.pending_draw().unwrap().opening.clone();
    assert_ne!(
        second.position, first.position,
        "no_repeat counts rejected ballots"
    );
    h.ok(Command::Accept {
        colour: Color::White,
    });
    assert_eq!(h.m.ballots().len(), 1);
    assert_eq!(h.m.ballots()[0].opening, second);
}

#[test]
fn all_played_policies_skip_the_decision() {
    let mut h = H::new(eleven_man(1, RejectionPolicy::AllPlayed), 14);
    h.colours(First);
    let ev = h.ok(Command::DrawBallot);
    assert!(matches!(
        ev[1],
        MatchEvent::BallotAccepted {
            ballot: 1,
            colour: None
        }
    ));
    assert_eq!(h.m.phase(), Phase::Ready { ballot: 1, game: 1 });
    h.refused(Command::Reject {
        colour: Color::White,
    });

    // Man-down ballots are redrawn automatically: over many draws none loses a man.
    let mut h = H::new(eleven_man(40, RejectionPolicy::AllExceptManDown), 15);
    h.colours(First);
    for b in 1..=40 {
        h.ballot_won_by(None, None);
        assert!(h.m.ballots()[b - 1].opening.loses_man.is_none());
    }
    assert_eq!(h.m.phase(), Phase::Finished);
}

#[test]
fn red_alternates_by_ballot_and_game_two_reverses() {
    let mut h = H::new(settings(4), 1);
    h.colours(Second);
    for b in 1..=4u32 {
        h.ballot();
        let lead = if b % 2 == 1 { Second } else { First };
        let g = h.m.playing().unwrap();
        assert_eq!((g.ballot, g.number, g.red), (b, 1, lead));
        assert_eq!(g.red_name, h.m.name(lead));
        assert_eq!(
            h.m.awaiting(),
            Awaiting::Move {
                colour: Color::Red,
                player: lead
            }
        );
        h.finish_game(Some(Color::Red));
        assert_eq!(h.m.phase(), Phase::Ready { ballot: b, game: 2 });
        h.ok(Command::StartGame);
        let g = h.m.playing().unwrap();
        assert_eq!((g.number, g.red), (2, lead.other()));
        assert_eq!(g.opening, h.m.ballots()[b as usize - 1].opening);
        h.finish_game(Some(Color::Red));
    }
    // Each won their Red games: 4-4, a tie.
    let out = *h.m.outcome().unwrap();
    assert_eq!(out.decided, Decided::Tie);
    assert_eq!(out.winner, None);
    assert_eq!(out.points, [Points(8), Points(8)]);
    assert_eq!(h.m.games().count(), 8);
    assert!(
        words::status(&h.m).contains("tied 4-4"),
        "{}",
        words::status(&h.m)
    );
    // Nothing more is accepted.
    h.refused(Command::DrawBallot);
    h.refused(Command::StartGame);
    h.refused(Command::Resign { colour: Color::Red });
}

#[test]
fn game_ends_resign_agreement_forfeit_adjudication() {
    let mut h = H::new(settings(3), 2);
    h.colours(First);
    h.ballot();
    h.play(1000);
    let r = ended(&h.ok(Command::Resign {
        colour: Color::White,
    }))
    .unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::Red));
    assert_eq!(r.reason, EndReason::Resigned);
    assert_eq!(r.to_string(), "Red wins: White resigned");
    assert_eq!(r.pdn(), "1-0");

    h.ok(Command::StartGame);
    h.ok(Command::OfferDraw {
        colour: Color::White,
    });
    // No second offer; an offer cannot be accepted by its author.
    h.refused(Command::OfferDraw { colour: Color::Red });
    h.refused(Command::AcceptDraw {
        colour: Color::White,
    });
    // Moving declines it.
    let ev = h.play(500);
    assert!(ev.iter().any(|e| matches!(
        e,
        MatchEvent::DrawDeclined {
            colour: Color::Red,
            spent_ms: None
        }
    )));
    assert_eq!(h.m.draw_offer(), None);
    h.refused(Command::AcceptDraw { colour: Color::Red });
    h.ok(Command::OfferDraw { colour: Color::Red });
    h.ok(Command::DeclineDraw {
        colour: Color::White,
    });
    h.ok(Command::OfferDraw { colour: Color::Red });
    let r = ended(&h.ok(Command::AcceptDraw {
        colour: Color::White,
    }))
    .unwrap();
    assert_eq!((r.outcome, r.reason), (Outcome::Draw, EndReason::Agreed));

    h.ballot();
    // A director decision needs a reason.
    h.refused(Command::Forfeit {
        loser: Color::Red,
        reason: " ".into(),
    });
    let r = ended(&h.ok(Command::Forfeit {
        loser: Color::Red,
        reason: "repeated touch-move violations".into(),
    }))
    .unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert!(matches!(r.reason, EndReason::Forfeit { .. }));
    h.ok(Command::StartGame);
    let r = ended(&h.ok(Command::Adjudicate {
        outcome: Outcome::Draw,
        reason: "dead drawn ending, hall closing".into(),
    }))
    .unwrap();
    assert!(matches!(r.reason, EndReason::Adjudicated { .. }));

    // A claim needs the rules' say-so.
    h.ballot();
    assert!(matches!(
        h.refused(Command::ClaimDraw { colour: Color::Red }),
        MatchError::NotClaimable
    ));
    let score = h.m.score();
    assert_eq!(score.games.len(), 5);
    // Ballot 1: Ann Red won, draw. Ballot 2: Bob Red forfeits -> Ann wins as White; draw.
    assert_eq!(score.total, [Points(6), Points(2)]);
    assert_eq!(score.record[0].wins, 2);
    assert_eq!(score.record[1].losses, 2);
    assert_eq!(score.record[0].draws, 2);
}

/// Play from the standard start with a policy that makes games end on the board: the side
/// `giver` gives its men away, the other captures. Returns how the game ended.
fn playout(h: &mut H, giver: Color, blocker: bool) -> GameResult {
    for _ in 0..400 {
        if let Phase::Playing { .. } = h.m.phase() {
        } else {
            break;
        }
        let pos = h.position();
        let colour = pos.turn();
        let moves = pos.distinct_moves();
        // The giver walks into captures; the taker, if `blocker`, picks the move that leaves
        // the giver fewest replies (and takes when it must).
        let score = |mv: &crossboard::engine::Move| {
            let after = pos.after(mv);
            let replies = after.distinct_moves().len() as i64;
            if colour == giver {
                -(replies) + if after.must_capture() { 100 } else { 0 }
            } else if blocker {
                -(after.distinct_moves().len() as i64) * 10 + mv.captured_squares().len() as i64
            } else {
                mv.captured_squares().len() as i64
            }
        };
        let mv = *moves.iter().max_by_key(|m| score(m)).unwrap();
        let ev = h.ok(Command::PlayMove { colour, mv });
        if let Some(r) = ended(&ev) {
            return r;
        }
    }
    panic!("the playout did not end: {}", words::status(&h.m));
}

#[test]
fn game_ends_on_the_board_no_pieces_and_blocked() {
    let mut h = H::new(settings(1), 3);
    h.colours(First);
    h.ballot();
    let r = playout(&mut h, Color::Red, false);
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert_eq!(r.reason, EndReason::NoPieces, "{r}");
    let g = h.m.current_game().unwrap();
    assert_eq!(g.game.position().count(Color::Red), 0);
    assert_eq!(g.moves.len(), g.game.moves().len());
    assert!(g.finished.is_some());

    h.ok(Command::StartGame);
    let r = playout(&mut h, Color::White, true);
    assert_eq!(r.outcome, Outcome::Win(Color::Red));
    let g = h.m.current_game().unwrap();
    match r.reason {
        EndReason::Blocked => assert!(g.game.position().count(Color::White) > 0),
        EndReason::NoPieces => assert_eq!(g.game.position().count(Color::White), 0),
        other => panic!("{other:?}"),
    }
    assert_eq!(h.m.phase(), Phase::Finished);
}

#[test]
fn moves_out_of_turn_and_illegal_moves_change_nothing() {
    let mut h = H::new(settings(1), 4);
    h.colours(First);
    h.refused(Command::StartGame);
    h.ballot();
    h.refused(Command::StartGame);
    assert!(matches!(
        h.refused(Command::Move {
            colour: Color::White,
            text: "22-18".into()
        }),
        MatchError::NotYourTurn { .. }
    ));
    assert!(matches!(
        h.refused(Command::Move {
            colour: Color::Red,
            text: "11-16x".into()
        }),
        MatchError::Move(_)
    ));
    h.refused(Command::Move {
        colour: Color::Red,
        text: "22-18".into(),
    });
    h.refused(Command::Note { text: "".into() });
    h.wait(3000);
    let ev = h.ok(Command::Move {
        colour: Color::Red,
        text: "11-15".into(),
    });
    let MatchEvent::MovePlayed { mv, spent_ms, .. } = &ev[0] else {
        panic!()
    };
    assert_eq!((mv.to_string().as_str(), *spent_ms), ("11-15", 3000));
    let record = h.m.playing().unwrap().moves.last().unwrap();
    assert_eq!(record.mv.to_string(), "11-15");
    assert_eq!(record.spent_ms, 3000);
    assert_eq!(record.at, wall(3000));
    // The log stamps every entry with the wall clock.
    assert_eq!(h.m.log().last().unwrap().at, wall(3000));
    h.ok(Command::Note {
        text: "White asks for the light".into(),
    });
}

#[test]
fn scoring_two_one_zero_and_apca() {
    for (points, win) in [(GamePoints::TwoOneZero, 2), (GamePoints::Apca, 4)] {
        let mut s = settings(1);
        s.scoring.game = points;
        let mut h = H::new(s, 5);
        h.colours(First);
        h.ballot_won_by(Some(First), None);
        let out = *h.m.outcome().unwrap();
        assert_eq!(out.winner, Some(First));
        assert_eq!(out.points, [Points(2 * (win + win / 2)), Points(win)]);
    }
}

#[test]
fn per_ballot_mini_match_scoring() {
    let mut s = settings(3);
    s.scoring.per_ballot = true;
    let mut h = H::new(s, 6);
    h.colours(First);
    // Ballot 1: First wins 1½-½. Ballot 2: level 1-1. Ballot 3: Second wins 2-0.
    h.ballot_won_by(Some(First), None);
    h.ballot_won_by(Some(First), Some(Second));
    h.ballot_won_by(Some(Second), Some(Second));
    let score = h.m.score();
    assert_eq!(score.ballots[0].mini, Some([Points(2), Points(0)]));
    assert_eq!(score.ballots[1].mini, Some([Points(1), Points(1)]));
    assert_eq!(score.ballots[2].mini, Some([Points(0), Points(2)]));
    assert_eq!(score.ballots[0].games, [Points(3), Points(1)]);
    // Game points would be 3½-4½; ballot points are level 3-3: a tie.
    assert_eq!(score.total, [Points(3), Points(3)]);
    assert_eq!(h.m.outcome().unwrap().decided, Decided::Tie);
}

#[test]
fn tie_rules() {
    // Holder retains.
    let mut s = settings(1);
    s.tie = TieRule::HolderRetains { holder: Second };
    let mut h = H::new(s, 8);
    h.colours(First);
    h.ballot_won_by(First.into(), Second.into());
    let out = *h.m.outcome().unwrap();
    assert_eq!(
        (out.winner, out.decided),
        (Some(Second), Decided::HolderRetains)
    );
    assert!(
        words::status(&h.m).contains("Bob retains"),
        "{}",
        words::status(&h.m)
    );

    // Continue in blocks of two games until decided.
    let mut s = settings(1);
    s.tie = TieRule::ContinueInBlocks { max_blocks: None };
    let mut h = H::new(s, 8);
    h.colours(First);
    h.ballot();
    h.finish_game(None);
    h.ok(Command::StartGame);
    let ev = h.finish_game(None);
    assert!(
        ev.iter()
            .any(|e| matches!(e, MatchEvent::ExtraBallot { ballot: 2 }))
    );
    assert_eq!(h.m.phase(), Phase::Draw { ballot: 2 });
    assert_eq!(h.m.planned_ballots(), 2);
    h.ballot_won_by(None, None);
    assert_eq!(h.m.phase(), Phase::Draw { ballot: 3 });
    // Ballot 3: Red is First again (alternation goes on); First wins a game.
    h.ballot_won_by(Some(First), None);
    let out = *h.m.outcome().unwrap();
    assert_eq!((out.winner, out.decided), (Some(First), Decided::Score));
    assert_eq!(h.m.ballots().len(), 3);

    // With a limit, the tie stands after it.
    let mut s = settings(1);
    s.tie = TieRule::ContinueInBlocks {
        max_blocks: Some(1),
    };
    let mut h = H::new(s, 8);
    h.colours(First);
    h.ballot_won_by(None, None);
    h.ballot_won_by(None, None);
    let out = *h.m.outcome().unwrap();
    assert_eq!((out.winner, out.decided), (None, Decided::Tie));

    // Stays tied (the default).
    let mut h = H::new(settings(1), 8);
    h.colours(First);
    h.ballot_won_by(Some(First), Some(Second));
    assert_eq!(h.m.outcome().unwrap().decided, Decided::Tie);
}
