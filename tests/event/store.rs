//! The desk's database: one transaction per action, replay on open, schema version, refusals
//! that change nothing, and a desk killed at random instants that loses nothing it recorded.

use crossboard::event::{Action, DivisionSettings, EventInfo, PlayerInfo};
use crossboard::store::{Desk, DeskError, SCHEMA_VERSION};
use rand::{RngExt, SeedableRng};
use std::process::{Command, Stdio};
use std::time::Duration;

fn at() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

#[test]
fn actions_survive_reopening_and_refusals_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("desk.sqlite3");
    let mut desk = Desk::open(&path).unwrap();
    assert_eq!(desk.schema_version().unwrap(), SCHEMA_VERSION);
    let info = EventInfo {
        name: "State Open".into(),
        ..EventInfo::default()
    };
    let mut open = desk.create_event(&info, at()).unwrap();
    desk.record(
        &mut open,
        &[Action::AddDivision {
            name: "Masters".into(),
            settings: DivisionSettings::default(),
        }],
        at(),
    )
    .unwrap();
    for name in ["Ann", "Bob", "Cid"] {
        desk.enter_new_player(&mut open, 0, &PlayerInfo::named(name), at())
            .unwrap();
    }
    // A refused action (a second division of the same name) writes nothing.
    let dup = Action::AddDivision {
        name: "masters".into(),
        settings: DivisionSettings::default(),
    };
    assert!(matches!(
        desk.record(&mut open, &[dup], at()),
        Err(DeskError::Refused(_))
    ));
    // Two actions in one transaction: the second refused, so neither is written.
    let ok = Action::AddDivision {
        name: "Majors".into(),
        settings: DivisionSettings::default(),
    };
    let bad = Action::Withdraw {
        division: 5,
        player: 1,
        reason: "x".into(),
    };
    assert!(desk.record(&mut open, &[ok, bad], at()).is_err());
    assert_eq!(open.event.divisions.len(), 1);
    drop(desk);
    let desk = Desk::open(&path).unwrap();
    let back = desk.load(open.id).unwrap();
    assert_eq!(back.event, open.event);
    assert_eq!(back.event.divisions[0].entrants.len(), 3);
    assert_eq!(desk.players().unwrap().len(), 3);
    assert_eq!(desk.integrity_check().unwrap(), "ok");
}

#[test]
fn a_second_desk_on_the_same_file_is_told_the_event_changed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("desk.sqlite3");
    let mut a = Desk::open(&path).unwrap();
    let mut b = Desk::open(&path).unwrap();
    let mut ea = a.create_event(&EventInfo::default(), at()).unwrap();
    let mut eb = b.load(ea.id).unwrap();
    let add = |name: &str| Action::AddDivision {
        name: name.into(),
        settings: DivisionSettings::default(),
    };
    a.record(&mut ea, &[add("A")], at()).unwrap();
    assert!(matches!(
        b.record(&mut eb, &[add("B")], at()),
        Err(DeskError::Changed)
    ));
    let mut eb = b.load(ea.id).unwrap();
    b.record(&mut eb, &[add("B")], at()).unwrap();
    assert_eq!(a.load(ea.id).unwrap().event.divisions.len(), 2);
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("desk.sqlite3");
    drop(Desk::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION + 1))
        .unwrap();
    drop(conn);
    assert!(matches!(Desk::open(&path), Err(DeskError::TooNew { .. })));
}

/// A file of schema version 1 (actions stored as TOML) is migrated to JSON on open: the same
/// event reads back, and every row is JSON afterwards.
#[test]
fn a_version_1_file_is_migrated_and_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("desk.sqlite3");
    let mut desk = Desk::open(&path).unwrap();
    let mut open = desk.create_event(&EventInfo::default(), at()).unwrap();
    let mut actions = vec![Action::AddDivision {
        name: "Open".into(),
        settings: DivisionSettings::default(),
    }];
    for (p, name) in (1..).zip(["Ann", "Bob", "Cid", "Dee"]) {
        actions.push(Action::Enter {
            division: 0,
            player: p,
            info: PlayerInfo::named(name),
        });
    }
    desk.record(&mut open, &actions, at()).unwrap();
    let pair = crossboard::event::propose(0, &open.event.divisions[0]).unwrap();
    desk.record(&mut open, &[pair], at()).unwrap();
    drop(desk);
    // Back to version 1: every action as TOML.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let rows: Vec<(i64, i64, String)> = {
        let mut st = conn
            .prepare("SELECT event_id, seq, action FROM actions")
            .unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(rows.len(), 7);
    for (e, seq, text) in &rows {
        let action: Action = serde_json::from_str(text).unwrap();
        conn.execute(
            "UPDATE actions SET action = ?3 WHERE event_id = ?1 AND seq = ?2",
            rusqlite::params![e, seq, toml::to_string(&action).unwrap()],
        )
        .unwrap();
    }
    conn.execute_batch("PRAGMA user_version = 1").unwrap();
    drop(conn);
    let desk = Desk::open(&path).unwrap();
    assert_eq!(desk.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(desk.load(open.id).unwrap().event, open.event);
    for (_, _, text) in desk.log(open.id).unwrap() {
        assert!(text.starts_with('{'), "not JSON: {text}");
    }
}

fn crossboard(db: &std::path::Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_crossboard"));
    c.arg("event").arg("--db").arg(db).args(args);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn run(db: &std::path::Path, args: &[&str]) -> String {
    let out = crossboard(db, args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Kill `crossboard event` at random instants while it pairs rounds and records results:
/// every result it printed as recorded is in the file, and the file always opens and replays.
#[test]
fn killed_at_random_instants_the_desk_loses_nothing_it_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "Kill test"]);
    run(
        &db,
        &[
            "division", "1", "Open", "--format", "swiss:6", "--games", "2",
        ],
    );
    // Enough results (6 rounds of 10 boards) for many kills to land mid-run even when each
    // run is only milliseconds long.
    let names: Vec<String> = (1..=20).map(|k| format!("P{k}")).collect();
    let mut enter = vec!["enter", "1", "Open"];
    enter.extend(names.iter().map(String::as_str));
    run(&db, &enter);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let mut recorded: Vec<(u32, u32, String)> = Vec::new();
    let mut kills = 0;
    // Kill at a random instant within the time an unkilled run takes on this machine (measured
    // as the test goes), so that most kills land mid-run however fast or loaded the machine is.
    let mut typical = Duration::from_millis(30);
    for step in 0..400 {
        let desk = Desk::open(&db).unwrap();
        assert_eq!(desk.integrity_check().unwrap(), "ok");
        let ev = desk.load(1).expect("the log always replays");
        let d = &ev.event.divisions[0];
        // Everything shown as recorded is there.
        for (round, board, text) in &recorded {
            let b = d
                .round(*round)
                .and_then(|r| r.board(*board))
                .expect("recorded board");
            let shown = crossboard::publish::sentences::result_text(b.result.as_ref());
            assert_eq!(&shown, text, "round {round} board {board}");
        }
        let open_board = d.rounds.last().and_then(|r| {
            r.boards
                .iter()
                .find(|b| !b.is_complete(2))
                .map(|b| (r.number, b.number))
        });
        let (args, expect): (Vec<String>, Option<(u32, u32, String)>) = match open_board {
            Some((round, board)) => {
                let text = ["1 =", "2 2", "= =", "1 1", "2 ="][rng.random_range(0..5)].to_string();
                (
                    vec![
                        "result".into(),
                        "1".into(),
                        "Open".into(),
                        round.to_string(),
                        board.to_string(),
                        text.clone(),
                    ],
                    Some((round, board, text)),
                )
            }
            None if d.paired_rounds() < 6 => (vec!["pair".into(), "1".into(), "Open".into()], None),
            None => break,
        };
        drop(desk);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let started = std::time::Instant::now();
        let mut child = crossboard(&db, &args).spawn().unwrap();
        let killed = step % 3 != 2;
        if killed {
            let window = typical.as_micros().max(1) as u64;
            std::thread::sleep(Duration::from_micros(rng.random_range(0..window)));
            if child.try_wait().unwrap().is_none() {
                kills += 1;
            }
            let _ = child.kill();
        }
        let out = child.wait_with_output().unwrap();
        if !killed {
            typical = started.elapsed();
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        if stdout.contains("recorded:")
            && let Some(e) = expect
        {
            recorded.retain(|(r, b, _)| (*r, *b) != (e.0, e.1));
            recorded.push(e);
        }
    }
    assert!(kills >= 10, "only {kills} kills landed while the desk ran");
    let desk = Desk::open(&db).unwrap();
    let ev = desk.load(1).unwrap();
    assert_eq!(
        ev.event.divisions[0].paired_rounds(),
        6,
        "the event still finished"
    );
}
