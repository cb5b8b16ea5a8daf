use super::*;
use crate::director::clock::Clock;
use crate::director::clock::{FlagKind, TimeControl};
use crate::director::command::{Command, CommandKind};
use crate::director::event::{EndReason, GameResult, MatchEvent};
use crate::director::settings::{MatchSettings, Player, StrengthRule};
use crate::engine::{Color, DrawClaim, Game, Move, Outcome, Position, Rules};
use chrono::DateTime;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn at(ms: u64) -> Now {
    Now {
        mono_ms: ms,
        wall: DateTime::from_timestamp_millis(1_780_000_000_000 + ms as i64).unwrap_or_default(),
    }
}

/// A match in its first game, with the board replaced by `fen` (clock restarted at 0).
fn on_board(fen: &str, tc: TimeControl) -> (Match, ChaCha8Rng) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut s = MatchSettings {
        players: ["Ann".into(), "Bob".into()],
        ballots: 1,
        time_control: tc.clone(),
        ..MatchSettings::default()
    };
    s.openings.system = openings::System::Gayp;
    let mut m = Match::new(s, at(0)).unwrap();
    for c in [
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
        Command::DrawBallot,
        Command::Accept {
            colour: Color::White,
        },
        Command::StartGame,
    ] {
        m.apply(c, at(0), &mut rng).unwrap();
    }
    let pos = Position::from_fen(fen).unwrap();
    let g = m.playing_mut().unwrap();
    g.game = Game::new(Rules::English, pos);
    g.clock = Clock::new(&tc, pos.turn());
    g.clock.start(Some(0), single_jump(&pos)).unwrap();
    (m, rng)
}

/// Apply `cmd` at `t` (it must be accepted): its events.
fn events(m: &mut Match, rng: &mut ChaCha8Rng, t: u64, cmd: Command) -> Vec<MatchEvent> {
    m.apply(cmd, at(t), rng)
        .unwrap()
        .into_iter()
        .map(|e| e.event)
        .collect()
}

fn mv(m: &mut Match, rng: &mut ChaCha8Rng, t: u64, text: &str) -> Vec<MatchEvent> {
    let colour = m.playing().unwrap().game.position().turn();
    let text = text.into();
    events(m, rng, t, Command::Move { colour, text })
}

fn result(ev: &[MatchEvent]) -> Option<GameResult> {
    ev.iter().find_map(|e| match e {
        MatchEvent::GameEnded { result, .. } => Some(result.clone()),
        _ => None,
    })
}

#[test]
fn blocked_side_loses() {
    let (mut m, mut rng) = on_board("B:W29:B25,18", TimeControl::none());
    let r = result(&mv(&mut m, &mut rng, 1, "18-22")).unwrap();
    assert_eq!(r.outcome, Outcome::Win(Color::Red));
    assert_eq!(r.reason, EndReason::Blocked);
    assert_eq!(r.to_string(), "Red wins: White cannot move");
}

#[test]
fn decide_changes_nothing_and_refusals_are_typed() {
    let (m, mut rng) = on_board("B:W29:B25,18", TimeControl::none());
    let before = m.clone();
    let ev = m
        .decide(
            Command::Move {
                colour: Color::Red,
                text: "18-22".into(),
            },
            at(5),
            &mut rng,
        )
        .unwrap();
    assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }));
    assert_eq!(m, before);
    let e = m.decide(Command::DrawBallot, at(5), &mut rng).unwrap_err();
    assert!(matches!(
        e,
        MatchError::NotNow {
            asked: CommandKind::DrawBallot,
            awaiting: Awaiting::Move { .. }
        }
    ));
    let e = m
        .decide(
            Command::PlayMove {
                colour: Color::White,
                mv: Position::start().distinct_moves()[0],
            },
            at(5),
            &mut rng,
        )
        .unwrap_err();
    assert!(matches!(e, MatchError::NotYourTurn { .. }));
}

#[test]
fn repetition_claim_only_when_the_rules_allow() {
    let (mut m, mut rng) = on_board("B:WK32:BK1", TimeControl::default());
    let claim = Command::ClaimDraw { colour: Color::Red };
    for (i, text) in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"]
        .iter()
        .enumerate()
    {
        assert!(matches!(
            m.apply(claim.clone(), at(i as u64), &mut rng),
            Err(MatchError::NotClaimable)
        ));
        mv(&mut m, &mut rng, i as u64, text);
    }
    mv(&mut m, &mut rng, 10, "28-32");
    assert_eq!(m.claimable_draw(), Some(DrawClaim::Repetition));
    let ev: Vec<MatchEvent> = m
        .apply(claim, at(11), &mut rng)
        .unwrap()
        .into_iter()
        .map(|e| e.event)
        .collect();
    let r = result(&ev).unwrap();
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::Draw, EndReason::Repetition)
    );
}

#[test]
fn forty_move_claim() {
    let (mut m, mut rng) = on_board("B:WK29,K30:BK3,K4", TimeControl::none());
    // Shuffle kings, always to the position seen least, so nothing repeats three times
    // before 40 moves each.
    let mut t = 0;
    while m.claimable_draw().is_none() {
        let g = &m.playing().unwrap().game;
        let pos = *g.position();
        let seen = |mv: &Move| {
            let after = pos.after(mv);
            g.positions().iter().filter(|p| **p == after).count()
        };
        let next = pos
            .distinct_moves()
            .into_iter()
            .min_by_key(|mv| (mv.is_capture(), pos.after(mv).must_capture(), seen(mv)))
            .unwrap();
        let c = Command::PlayMove {
            colour: pos.turn(),
            mv: next,
        };
        m.apply(c, at(t), &mut rng).unwrap();
        t += 1;
        assert!(t <= 200, "no claim after 200 plies");
    }
    assert_eq!(m.claimable_draw(), Some(DrawClaim::FortyMoves));
    assert_eq!(m.playing().unwrap().game.quiet_plies(), 80);
    let ev = m
        .apply(
            Command::ClaimDraw {
                colour: Color::White,
            },
            at(t),
            &mut rng,
        )
        .unwrap();
    assert!(matches!(
        &ev[0].event,
        MatchEvent::GameEnded { result, .. } if result.reason == EndReason::FortyMoves
    ));
}

#[test]
fn single_forced_jump_has_the_short_move_limit() {
    let (m, _) = on_board("B:W14,30:B9", TimeControl::per_move_classic());
    let r = m.clock_reading(60_000).unwrap();
    assert!(r.red.warning);
    assert!(m.flag_due(120_000).is_none());
    assert_eq!(
        m.flag_due(120_001).map(|f| f.kind),
        Some(FlagKind::MoveTime)
    );
}

#[test]
fn game_start_on_a_lost_position_ends_at_once() {
    // Not reachable with real openings, but the check runs at every move and at the start.
    let (mut m, mut rng) = on_board("B:W29:B25,18", TimeControl::none());
    mv(&mut m, &mut rng, 1, "18-22");
    assert_eq!(m.phase(), Phase::Ready { ballot: 1, game: 2 });
    assert_eq!(m.awaiting(), Awaiting::GameStart { ballot: 1, game: 2 });
    assert_eq!(m.red_in(1, 2), Some(Player::Second));
}

/// As [`on_board`], in `game` with the strength rule `rule`.
fn in_game(game: Rules, rule: StrengthRule, fen: &str) -> (Match, ChaCha8Rng) {
    let (mut m, rng) = on_board(fen, TimeControl::none());
    m.settings.game = game;
    m.settings.strength_rule = rule;
    let g = m.playing_mut().unwrap();
    g.game = Game::new(game, Position::from_fen_in(game, fen).unwrap());
    (m, rng)
}

/// A quiet move of the side to move that gives the opponent no capture and reaches a
/// position not seen before (so no repetition cuts a count short).
fn quiet_walk(m: &Match, seen: &mut Vec<Position>) -> Move {
    let pos = *m.playing().unwrap().game.position();
    let mv = pos
        .distinct_moves()
        .into_iter()
        .find(|mv| {
            let after = pos.after(mv);
            !mv.is_capture() && !after.must_capture() && !seen.contains(&after)
        })
        .expect("a quiet new move");
    seen.push(pos.after(&mv));
    mv
}

fn play(m: &mut Match, rng: &mut ChaCha8Rng, t: u64, mv: Move) -> Vec<MatchEvent> {
    let colour = m.playing().unwrap().game.position().turn();
    events(m, rng, t, Command::PlayMove { colour, mv })
}

/// Until `done`, a draw claim by White is refused as not claimable, then a quiet new move
/// is played `step` ms later; the time at the end (at most `max` ms).
fn walk_until(
    m: &mut Match,
    rng: &mut ChaCha8Rng,
    (mut t, step, max): (u64, u64, u64),
    mut done: impl FnMut(&Match) -> bool,
) -> u64 {
    let claim = Command::ClaimDraw {
        colour: Color::White,
    };
    let mut seen = Vec::new();
    while !done(m) {
        assert!(matches!(
            m.apply(claim.clone(), at(t), rng),
            Err(MatchError::NotClaimable)
        ));
        t += step;
        let mv = quiet_walk(m, &mut seen);
        play(m, rng, t, mv);
        assert!(t < max, "the count did not run out in {max} ms");
    }
    t
}

#[test]
fn the_thirteen_count_is_shown_and_claimed_when_it_runs_out() {
    // Three Red kings against White's lone king, off the long diagonal.
    let (mut m, mut rng) = in_game(Rules::Pool, StrengthRule::default(), "W:WK32:BK1,K2,K3");
    let mut last = 0;
    let t = walk_until(&mut m, &mut rng, (0, 1_000, 60_000), |m| {
        if m.claimable_draw().is_some() {
            return true;
        }
        let g = m.playing().unwrap();
        let count = g.game.thirteen_count().expect("the count runs");
        assert!(count.moves == last || count.moves == last + 1, "{count:?}");
        last = count.moves;
        false
    });
    let count = m.playing().unwrap().game.thirteen_count().unwrap();
    assert!(count.reached() && count.lone == Color::White, "{count:?}");
    assert!(count.limit == 13 || count.limit == 6);
    let claim = Command::ClaimDraw {
        colour: Color::White,
    };
    let r = result(&events(&mut m, &mut rng, t + 5, claim)).unwrap();
    assert_eq!(
        (r.outcome, r.reason.clone()),
        (Outcome::Draw, EndReason::ThirteenCount)
    );
    assert_eq!(r.to_string(), "draw by the 13-count");
}

#[test]
fn the_strength_rule_thirty_eight_moves() {
    // Red: a king and a man (3); White: a lone king (2). White is weaker.
    let fen = "W:WK32:BK1,5";
    let (mut m, mut rng) = in_game(Rules::Pool, StrengthRule::ThirtyEight, fen);
    let ask = |c| Command::AskStrengthCount { colour: c };
    assert!(matches!(
        m.apply(ask(Color::Red), at(0), &mut rng),
        Err(MatchError::Strength(StrengthRefusal::NotWeaker))
    ));
    // Asked 10 ms into White's move: the record holds that thinking, and the clock counts it.
    let ev = events(&mut m, &mut rng, 10, ask(Color::White));
    let asked = MatchEvent::StrengthCountAsked {
        colour: Color::White,
        spent_ms: Some(10),
    };
    assert_eq!(ev, [asked]);
    assert_eq!(m.playing().unwrap().clock.counted_ms(), 10);
    assert!(matches!(
        m.apply(ask(Color::White), at(11), &mut rng),
        Err(MatchError::Strength(StrengthRefusal::Running))
    ));
    assert_eq!(
        m.strength_reading().map(|r| (r.moves, r.limit)),
        Some((0, 38))
    );
    let t = walk_until(&mut m, &mut rng, (100, 500, 100_000), |m| {
        m.strength_reading().is_some_and(|r| r.reached())
    });
    assert_eq!(m.strength_reading().unwrap().moves, 38);
    // Rule 27A grants no more moves.
    assert!(matches!(
        m.apply(Command::ExtendStrengthCount, at(t), &mut rng),
        Err(MatchError::Strength(StrengthRefusal::NotExtendable))
    ));
    let claim = Command::ClaimDraw {
        colour: Color::White,
    };
    let ev = events(&mut m, &mut rng, t + 1, claim);
    assert_eq!(result(&ev).unwrap().reason, EndReason::StrengthRule);
}

#[test]
fn the_strength_rule_thirty_plus_eight_and_take_backs() {
    let fen = "W:WK32:BK1,5";
    let (mut m, mut rng) = in_game(Rules::Pool, StrengthRule::ThirtyPlusEight, fen);
    m.apply(
        Command::AskStrengthCount {
            colour: Color::White,
        },
        at(0),
        &mut rng,
    )
    .unwrap();
    // Not extendable before the 30 have run out.
    let one = |m: &Match| !m.playing().unwrap().moves.is_empty();
    let t = walk_until(&mut m, &mut rng, (0, 100, 1_000), one);
    assert!(matches!(
        m.apply(Command::ExtendStrengthCount, at(t), &mut rng),
        Err(MatchError::Strength(StrengthRefusal::NotExtendable))
    ));
    let t = walk_until(&mut m, &mut rng, (t, 100, 100_000), |m| {
        m.strength_reading().unwrap().reached()
    });
    assert_eq!(m.strength_reading().unwrap().moves, 30);
    let ev = events(&mut m, &mut rng, t + 7, Command::ExtendStrengthCount);
    let extended = MatchEvent::StrengthCountExtended { spent_ms: Some(7) };
    assert_eq!(ev, [extended]);
    assert_eq!(m.playing().unwrap().clock.counted_ms(), 7);
    let r = m.strength_reading().unwrap();
    assert_eq!((r.moves, r.limit, r.reached()), (30, 38, false));
    // A take-back to before the ask forgets the count.
    let plies = m.playing().unwrap().moves.len() as u32;
    m.apply(
        Command::TakeBack {
            moves: plies,
            reason: "mis-entry".into(),
        },
        at(t + 8),
        &mut rng,
    )
    .unwrap();
    assert_eq!(
        m.strength_reading().map(|r| r.moves),
        Some(0),
        "asked at ply 0: still counting from there"
    );
}

#[test]
fn huffing_choices_with_the_clock() {
    let tc = TimeControl::sudden_death(600);
    let (mut m, mut rng) = on_board("B:W21-32:B1-12", tc.clone());
    m.settings.game = Rules::Huffing;
    {
        let g = m.playing_mut().unwrap();
        g.game = Game::new(Rules::Huffing, Position::start());
        g.clock = Clock::new(&tc, Color::Red);
        g.clock.start(Some(0), false).unwrap();
    }
    mv(&mut m, &mut rng, 10_000, "11-15");
    mv(&mut m, &mut rng, 20_000, "22-18");
    // Nothing neglected yet: no huff.
    assert!(matches!(
        m.apply(Command::Compel { colour: Color::Red }, at(20_500), &mut rng),
        Err(MatchError::Huff(_))
    ));
    let red_before = m.playing().unwrap().clock.side(Color::Red).remaining_ms;
    // Red neglects 15x22 and thinks 30 s about it.
    mv(&mut m, &mut rng, 50_000, "9-13");
    assert!(m.playing().unwrap().clock.side(Color::Red).remaining_ms < red_before);
    // White has it taken back: Red's clock reads as before 9-13, and Red must capture.
    let ev = m
        .apply(
            Command::Compel {
                colour: Color::White,
            },
            at(51_000),
            &mut rng,
        )
        .unwrap();
    assert_eq!(ev[0].event, MatchEvent::Compelled);
    let g = m.playing().unwrap();
    assert_eq!(g.clock.side(Color::Red).remaining_ms, red_before);
    assert_eq!(g.game.position().turn(), Color::Red);
    assert_eq!(g.moves.len(), 2);
    assert!(matches!(
        m.apply(
            Command::Move {
                colour: Color::Red,
                text: "9-13".into()
            },
            at(52_000),
            &mut rng
        ),
        Err(MatchError::Move(_))
    ));
    mv(&mut m, &mut rng, 53_000, "15x22");
    // White neglects the recapture; Red huffs the piece that should have taken.
    mv(&mut m, &mut rng, 54_000, "24-20");
    let chance = m.playing().unwrap().game.huff_chance().unwrap();
    let sq = crate::engine::squares(chance.huffable).next().unwrap();
    assert!(matches!(
        m.apply(
            Command::Huff {
                colour: Color::White,
                square: sq
            },
            at(55_000),
            &mut rng
        ),
        Err(MatchError::NotYourTurn { .. })
    ));
    let ev = m
        .apply(
            Command::Huff {
                colour: Color::Red,
                square: sq,
            },
            at(55_000),
            &mut rng,
        )
        .unwrap();
    assert_eq!(
        ev[0].event,
        MatchEvent::Huffed {
            square: sq,
            spent_ms: Some(1_000)
        }
    );
    let g = m.playing().unwrap();
    assert!(g.game.position().piece_at(sq).is_none());
    assert_eq!(g.game.pending().huffed, Some(sq));
    // The huff made, Red moves as usual.
    let red_mv = g.game.position().distinct_moves()[0];
    play(&mut m, &mut rng, 56_000, red_mv);
    assert_eq!(m.playing().unwrap().game.prelude(4).huffed, Some(sq));
}
