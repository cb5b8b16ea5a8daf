//! One validation of settings everywhere, with bounds: the largest value each field accepts
//! works end to end (no arithmetic overflows), one more is refused with the bound named; the
//! config file and the match log accept exactly what the set-up form accepts.

use crate::director_support;

use crossboard::director::limits::*;
use crossboard::director::*;
use crossboard::engine::Color;
use crossboard::store::parse_config;
use director_support::*;

/// Every field at the largest value it accepts.
fn largest() -> MatchSettings {
    let mut s = settings(BALLOTS_MAX);
    s.players = ["A".repeat(NAME_MAX_CHARS), "Bé".repeat(NAME_MAX_CHARS / 2)];
    s.event = "É".repeat(EVENT_MAX_CHARS);
    s.time_control = TimeControl {
        periods: (0..PERIODS_MAX)
            .map(|_| Period {
                moves: Some(PERIOD_MOVES_MAX),
                seconds: PERIOD_SECONDS_MAX,
            })
            .collect(),
        increment_seconds: BONUS_SECONDS_MAX,
        delay: None,
        per_move: Some(PerMoveLimit {
            seconds: MOVE_LIMIT_SECONDS_MAX,
            single_jump_seconds: MOVE_LIMIT_SECONDS_MAX,
            grace_seconds: MOVE_LIMIT_SECONDS_MAX,
        }),
    };
    s.tie = TieRule::ContinueInBlocks {
        max_blocks: Some(EXTRA_BLOCKS_MAX),
    };
    s
}

#[test]
fn the_largest_values_are_accepted_and_work() {
    let s = largest();
    assert_eq!(s.validate(), Ok(()));
    let mut h = H::new(s.clone(), 1);
    h.colours(Player::First);
    h.ballot();
    // Each move takes all the time the per-move limit and its grace allow.
    let most = (MOVE_LIMIT_SECONDS_MAX * 2) * 1000;
    for _ in 0..60 {
        if h.m.playing().is_none() {
            break;
        }
        h.play(most);
    }
    let g = h.m.current_game().unwrap();
    assert!(g.moves.len() >= 2, "{} moves", g.moves.len());
    for r in &g.moves {
        assert_eq!(r.spent_ms, most);
        assert!(r.remaining_ms.unwrap() > 0);
    }
    // The largest adjustment, both ways; one millisecond more is refused.
    if h.m.playing().is_some() {
        let add = |delta_ms: i64| Command::AdjustTime {
            colour: Color::Red,
            delta_ms,
            reason: "R".repeat(REASON_MAX_CHARS),
        };
        h.ok(add(ADJUST_MS_MAX as i64));
        h.ok(add(-(ADJUST_MS_MAX as i64)));
        for delta in [ADJUST_MS_MAX as i64 + 1, i64::MIN, i64::MAX] {
            assert!(matches!(
                h.refused(add(delta)),
                MatchError::AdjustTooLarge(_)
            ));
        }
    }
    h.ok(Command::Note {
        text: "n".repeat(NOTE_MAX_CHARS),
    });
    // The log of such a match reads back.
    h.reload(0);
    // And the config file takes the same settings.
    let config = crossboard::store::Config {
        match_defaults: s,
        ..Default::default()
    };
    let text = toml::to_string(&config).unwrap();
    assert_eq!(
        parse_config(text.as_bytes(), "c.toml".as_ref()).unwrap(),
        config
    );
}

#[test]
fn one_more_than_the_largest_is_refused() {
    type Change = fn(&mut MatchSettings);
    let cases: [(Change, &str); 12] = [
        (
            |s| s.players[0].push('x'),
            "name has 41 characters: at most 40",
        ),
        (|s| s.players[1] = "Ann\nBob".into(), "control character"),
        (|s| s.event.push('x'), "at most 80"),
        (|s| s.ballots = BALLOTS_MAX + 1, "100 ballots: at most 99"),
        (|s| s.ballots = u32::MAX, "ballots: at most 99"),
        (
            |s| s.time_control.periods.push(s.time_control.periods[0]),
            "9 periods: at most 8",
        ),
        (
            |s| s.time_control.periods[0].moves = Some(PERIOD_MOVES_MAX + 1),
            "201 moves: at most 200",
        ),
        (
            |s| s.time_control.periods[2].seconds = u64::MAX,
            "at most 86400 s",
        ),
        (
            |s| s.time_control.increment_seconds = BONUS_SECONDS_MAX + 1,
            "at most 3600 s",
        ),
        (
            |s| {
                if let Some(l) = &mut s.time_control.per_move {
                    l.grace_seconds = u64::MAX;
                }
            },
            "per-move limit",
        ),
        (
            |s| {
                s.tie = TieRule::ContinueInBlocks {
                    max_blocks: Some(EXTRA_BLOCKS_MAX + 1),
                }
            },
            "at most 99 extra blocks",
        ),
        (
            |s| s.players[1] = " a".repeat(NAME_MAX_CHARS / 2),
            "both players",
        ),
    ];
    for (change, text) in cases {
        let mut s = largest();
        if text == "both players" {
            s.players[0] = "A".into();
            s.players[1] = " a ".into();
        } else {
            change(&mut s);
        }
        let e = s.validate().expect_err(text);
        assert!(e.to_string().contains(text), "{e} (wanted {text:?})");
        // The same refusal in the config file, and in a match log.
        let config = crossboard::store::Config {
            match_defaults: s.clone(),
            ..Default::default()
        };
        let toml = toml::to_string(&config).unwrap();
        // (A value beyond what TOML integers hold is refused as it is read.)
        let e = parse_config(toml.as_bytes(), "c.toml".as_ref()).unwrap_err();
        let e = e.to_string();
        assert!(e.contains(text) || e.contains("too large"), "config: {e}");
        let log = [LogEntry {
            at: wall(0),
            event: MatchEvent::MatchCreated,
        }];
        let e = Match::from_log(s, &log).unwrap_err();
        assert!(matches!(e.reason, LogRefusal::Settings(_)), "{e}");
    }
}

#[test]
fn reasons_and_notes_are_refused_past_their_limit_not_cut() {
    let mut h = H::new(settings(1), 2);
    let e = h.refused(Command::Note {
        text: "n".repeat(NOTE_MAX_CHARS + 1),
    });
    assert!(matches!(
        e,
        MatchError::TooLong {
            what: TextKind::Note,
            chars: 501,
            max: NOTE_MAX_CHARS
        }
    ));
    h.colours(Player::First);
    h.ballot();
    let e = h.refused(Command::PauseClocks {
        reason: "r".repeat(REASON_MAX_CHARS + 1),
    });
    assert!(matches!(e, MatchError::TooLong { .. }), "{e}");
    h.ok(Command::PauseClocks {
        reason: "é".repeat(REASON_MAX_CHARS),
    });
}
