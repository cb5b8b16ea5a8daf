//! A board played on crossboard plays the round's ballot: the match is given the opening the
//! event drew (one per round or one per board, two for a four-game round), records it in its
//! settings, plays it without a draw or a rejection, and a log or a linked match file that
//! plays another opening is refused. The variant of the division flows to the match.

use crate::common;

use crossboard::director::{Command, GamePoints, Match, MatchSettings, Now, Player, SettingsError};
use crossboard::engine::{Color, Rules};
use crossboard::event::propose;
use crossboard::event::{
    Action, BallotMode, DivisionSettings, EventInfo, Format, PlayerInfo, ScoreUnit, Tournament,
};
use crossboard::event::{BoardMatchError, board_result, match_settings};
use crossboard::event::{ballot_for, draw_ballots};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn now(s: u64) -> Now {
    Now {
        mono_ms: s * 1000,
        wall: chrono::DateTime::from_timestamp(1_700_000_000 + s as i64, 0).unwrap(),
    }
}

/// A division of six players with round 1 paired and its ballots drawn.
fn paired(games: u32, ballots: BallotMode, game: Rules) -> Tournament {
    let mut e = Tournament::new();
    let mut s = DivisionSettings::new(
        Format::Swiss { rounds: 3 },
        games,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    s.ballots = ballots;
    s.game = game;
    e.apply(&Action::AddDivision {
        name: "Open".into(),
        settings: s,
    })
    .unwrap();
    for (p, name) in (1..).zip(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]) {
        e.apply(&Action::Enter {
            division: 0,
            player: p,
            info: PlayerInfo::named(name),
        })
        .unwrap();
    }
    let pair = propose(0, &e.divisions[0]).unwrap();
    e.apply(&pair).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let draws = draw_ballots(0, &e.divisions[0], 1, &mut rng).unwrap();
    e.apply(&draws).unwrap();
    e
}

fn board_settings(e: &Tournament, board: usize) -> MatchSettings {
    let d = &e.divisions[0];
    let b = &d.rounds[0].boards[board];
    match_settings(&MatchSettings::default(), "Club Open", d, 1, b).unwrap()
}

/// A match of `settings` with colours assigned (first player Red) and ballot 1 drawn.
fn started(settings: MatchSettings, rng: &mut ChaCha8Rng) -> Match {
    let mut m = Match::new(settings, now(0)).unwrap();
    m.apply(
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
        now(1),
        rng,
    )
    .unwrap();
    m.apply(Command::DrawBallot, now(2), rng).unwrap();
    if m.ballots().is_empty() {
        // A ballot of the match's own draw: White accepts it.
        m.apply(
            Command::Accept {
                colour: Color::White,
            },
            now(3),
            rng,
        )
        .unwrap();
    }
    m
}

#[test]
fn each_board_is_given_the_round_ballot_for_it() {
    for (games, mode) in [
        (2, BallotMode::OnePerRound),
        (2, BallotMode::OnePerBoard),
        (4, BallotMode::OnePerRound),
        (4, BallotMode::OnePerBoard),
    ] {
        let e = paired(games, mode, Rules::English);
        let d = &e.divisions[0];
        for (k, b) in d.rounds[0].boards.iter().enumerate() {
            let s = board_settings(&e, k);
            let expected: Vec<u32> = (0..games / 2)
                .map(|g| ballot_for(d, 1, b.number, 2 * g).unwrap().opening.number)
                .collect();
            assert_eq!(
                s.given_ballots, expected,
                "{games} games, {mode:?}, board {k}"
            );
            assert_eq!(s.ballots, games / 2);
        }
        if mode == BallotMode::OnePerBoard {
            let a = board_settings(&e, 0).given_ballots;
            let b = board_settings(&e, 1).given_ballots;
            assert_ne!(a, b, "each board its own ballot (no repeat)");
        }
    }
}

#[test]
fn the_match_plays_the_given_ballot_without_a_draw_or_a_rejection() {
    let e = paired(4, BallotMode::OnePerRound, Rules::English);
    let d = &e.divisions[0];
    let s = board_settings(&e, 0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut m = started(s.clone(), &mut rng);
    let first = ballot_for(d, 1, 1, 0).unwrap();
    // Drawn and accepted at once: the game can start, a rejection is refused.
    assert_eq!(m.ballots().len(), 1);
    assert_eq!(m.ballots()[0].opening, first.opening);
    assert!(
        m.ballots()[0].steps.is_empty(),
        "no cards: the event holds them"
    );
    assert!(
        m.apply(
            Command::Reject {
                colour: Color::White
            },
            now(3),
            &mut rng
        )
        .is_err()
    );
    // Another rng gives the same opening: nothing is drawn.
    let other = started(s.clone(), &mut ChaCha8Rng::seed_from_u64(99));
    assert_eq!(other.ballots()[0].opening, first.opening);
    // Ballot 2 is the round's second ballot.
    for game in 0..2 {
        m.apply(Command::StartGame, now(10 + game), &mut rng)
            .unwrap();
        let colour = m.current_game().unwrap().game.position().turn();
        m.apply(Command::Resign { colour }, now(20 + game), &mut rng)
            .unwrap();
    }
    m.apply(Command::DrawBallot, now(30), &mut rng).unwrap();
    assert_eq!(
        m.ballots()[1].opening,
        ballot_for(d, 1, 1, 2).unwrap().opening
    );
    // The log reads back; the board's result is checked against the round's ballots.
    let back = Match::from_log(s.clone(), m.log()).unwrap();
    assert_eq!(back.the_match, m);
    let games = board_result(&m, d, 1, &d.rounds[0].boards[0]).unwrap();
    assert_eq!(games.len(), 2);
}

#[test]
fn a_log_or_a_match_of_another_opening_is_refused() {
    let e = paired(2, BallotMode::OnePerRound, Rules::English);
    let d = &e.divisions[0];
    let board = &d.rounds[0].boards[0];
    let s = board_settings(&e, 0);
    let given = s.given_ballots[0];
    let m = started(s.clone(), &mut ChaCha8Rng::seed_from_u64(1));
    // A log whose ballot record names another opening than the settings give.
    let mut log = m.log().to_vec();
    let i = log
        .iter()
        .position(|e| {
            matches!(
                e.event,
                crossboard::director::MatchEvent::BallotDrawn { .. }
            )
        })
        .unwrap();
    if let crossboard::director::MatchEvent::BallotDrawn { number, .. } = &mut log[i].event {
        *number = if given == 1 { 2 } else { 1 };
    }
    let err = Match::from_log(s.clone(), &log).unwrap_err();
    assert_eq!(err.index, i);
    assert!(
        err.to_string()
            .contains(&format!("the settings give opening {given}")),
        "{err}"
    );
    // A match of the board's players that drew its own ballot.
    let mut own = s.clone();
    own.given_ballots.clear();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut drawn = started(own.clone(), &mut rng);
    while drawn.ballots().first().map(|b| b.opening.number) == Some(given) {
        drawn = started(own.clone(), &mut rng);
    }
    assert!(matches!(
        board_result(&drawn, d, 1, board),
        Err(BoardMatchError::OtherOpening { ballot: 1, .. })
    ));
    // Settings that give an opening the system does not have, or more than the ballots.
    let mut bad = s.clone();
    bad.given_ballots = vec![99_999];
    assert!(matches!(
        bad.validate(),
        Err(SettingsError::GivenOpening {
            ballot: 1,
            number: 99_999,
            ..
        })
    ));
    bad.given_ballots = vec![given, given];
    assert!(matches!(
        bad.validate(),
        Err(SettingsError::TooManyGiven {
            given: 2,
            ballots: 1
        })
    ));
}

#[test]
fn the_division_game_flows_to_the_ballots_and_the_matches() {
    let e = paired(2, BallotMode::OnePerRound, Rules::Pool);
    let s = board_settings(&e, 0);
    assert_eq!(s.game, Rules::Pool);
    let m = started(s, &mut ChaCha8Rng::seed_from_u64(3));
    assert_eq!(m.ballots()[0].opening.start.rules(), Rules::Pool);
    assert_eq!(m.settings().tie, crossboard::director::TieRule::StaysTied);
}

/// The division of [`paired`] as an event in a new database ("Club Open", division "Open"):
/// the same players, pairing and ballots. The folder, the database and the event.
fn desk_event() -> (tempfile::TempDir, std::path::PathBuf, Tournament) {
    use crossboard::store::Desk;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    let mut desk = Desk::open(&db).unwrap();
    let info = EventInfo {
        name: "Club Open".into(),
        ..EventInfo::default()
    };
    let mut open = desk.create_event(&info, chrono::Utc::now()).unwrap();
    let e = paired(2, BallotMode::OnePerRound, Rules::English);
    let d = &e.divisions[0];
    let mut actions = vec![Action::AddDivision {
        name: "Open".into(),
        settings: d.settings.clone(),
    }];
    for en in &d.entrants {
        actions.push(Action::Enter {
            division: 0,
            player: en.player,
            info: en.info.clone(),
        });
    }
    desk.record(&mut open, &actions, chrono::Utc::now())
        .unwrap();
    let pair = propose(0, &open.event.divisions[0]).unwrap();
    let ballots = Action::Ballots {
        division: 0,
        round: 1,
        draws: d.rounds[0].ballots.clone(),
    };
    desk.record(&mut open, &[pair, ballots], chrono::Utc::now())
        .unwrap();
    assert_eq!(open.event.divisions[0].rounds[0].boards, d.rounds[0].boards);
    (dir, db, e)
}

/// `crossboard event match` links a match file only if it played the round's ballot.
#[test]
fn the_cli_links_a_match_of_the_round_ballot_and_refuses_another() {
    use crossboard::store::MatchStore;
    let (dir, db, e) = desk_event();

    let s = board_settings(&e, 0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut good = started(s.clone(), &mut rng);
    good.apply(Command::StartGame, now(5), &mut rng).unwrap();
    good.apply(Command::Resign { colour: Color::Red }, now(6), &mut rng)
        .unwrap();
    let good_file = dir.path().join("good.jsonl");
    MatchStore::create(&good_file, &good)
        .unwrap()
        .save(&good)
        .unwrap();

    let mut own = s.clone();
    own.given_ballots.clear();
    let given = s.given_ballots[0];
    let mut drawn = started(own.clone(), &mut rng);
    while drawn.ballots()[0].opening.number == given {
        drawn = started(own.clone(), &mut rng);
    }
    let bad_file = dir.path().join("own.jsonl");
    MatchStore::create(&bad_file, &drawn)
        .unwrap()
        .save(&drawn)
        .unwrap();

    let run = |file: &std::path::Path| {
        std::process::Command::new(common::bin())
            .arg("event")
            .arg("--db")
            .arg(&db)
            .args(["match", "Club Open", "Open", "1", "1"])
            .arg(file)
            .output()
            .unwrap()
    };
    let out = run(&bad_file);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("the round's ballot is"), "{err}");
    let out = run(&good_file);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("recorded: round 1 board 1 from"), "{said}");
    assert!(
        said.ends_with(": 2\n"),
        "Red (the first player) resigned: {said}"
    );
}

/// A board played on crossboard (linked as `event match`, the desk's `P` and a board that
/// reports to `crossboard serve` all link it) is written in the event's PDN with its moves,
/// each with its clock, and the director's decisions as comments at the move they were made,
/// with their reasons: a time adjustment, then a forfeit.
#[test]
fn the_event_pdn_has_a_linked_match_moves_clocks_and_decisions() {
    use crossboard::store::MatchStore;
    let (dir, db, e) = desk_event();

    // Game 1: four moves, 3,570 s taken from the second mover's clock after the second,
    // then the first mover forfeits.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut m = started(board_settings(&e, 0), &mut rng);
    m.apply(Command::StartGame, now(5), &mut rng).unwrap();
    let mut played = Vec::new();
    for k in 0..4u64 {
        let g = m.playing().unwrap();
        let pos = *g.game.position();
        let mv = pos.legal_moves()[0];
        played.push(mv.to_string());
        m.apply(
            Command::PlayMove {
                colour: pos.turn(),
                mv,
            },
            now(10 + 10 * k),
            &mut rng,
        )
        .unwrap();
        if k == 1 {
            let second = pos.turn();
            m.apply(
                Command::AdjustTime {
                    colour: second,
                    delta_ms: -3_570_000,
                    reason: "phone rang in the hall".into(),
                },
                now(35),
                &mut rng,
            )
            .unwrap();
        }
    }
    let mover = m.playing().unwrap().game.position().turn();
    m.apply(
        Command::Forfeit {
            loser: mover,
            reason: "left the hall".into(),
        },
        now(60),
        &mut rng,
    )
    .unwrap();
    let file = dir.path().join("board1.jsonl");
    MatchStore::create(&file, &m).unwrap().save(&m).unwrap();

    let cli = |args: &[&str]| {
        let out = std::process::Command::new(common::bin())
            .arg("event")
            .arg("--db")
            .arg(&db)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    cli(&[
        "match",
        "Club Open",
        "Open",
        "1",
        "1",
        file.to_str().unwrap(),
    ]);
    let pdn = cli(&[
        "export",
        "Club Open",
        "Open",
        "--format",
        "pdn",
        "--round",
        "1",
        "--out",
        "-",
    ]);
    let game: String = pdn
        .split("[Event ")
        .find(|g| g.contains("[Round \"1.1.1\"]"))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for mv in &played {
        assert!(game.contains(mv.as_str()), "{mv}: {game}");
    }
    assert!(game.contains("{[%clock "), "{game}");
    assert!(
        game.contains("{Director: took 0:59:30 from"),
        "the adjustment: {game}"
    );
    assert!(game.contains("(phone rang in the hall)}"), "{game}");
    // After the second move, before the third.
    let at = game.find("Director: took").unwrap();
    assert!(game.find(played[1].as_str()).unwrap() < at, "{game}");
    assert!(at < game.find(played[2].as_str()).unwrap(), "{game}");
    assert!(game.contains("forfeits: left the hall"), "{game}");
}
