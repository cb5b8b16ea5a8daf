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

/// A second desk on the same file whose event changed since it read it: an action relying on
/// nothing that changed (a new division) goes after the first desk's, and the second desk
/// sees the event as it is now; one relying on what changed (the same division's settings)
/// is refused.
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
    b.record(&mut eb, &[add("B")], at()).unwrap();
    assert_eq!(eb.event.divisions.len(), 2);
    assert_eq!(a.load(ea.id).unwrap().event, eb.event);
    // Both change division A's settings from the event as they read it: the second is refused.
    let games = |games_per_round: u32| Action::SetSettings {
        division: 0,
        settings: DivisionSettings {
            games_per_round,
            ..DivisionSettings::default()
        },
    };
    let mut ea = a.load(ea.id).unwrap();
    let mut eb = b.load(ea.id).unwrap();
    a.record(&mut ea, &[games(4)], at()).unwrap();
    assert!(matches!(
        b.record(&mut eb, &[games(6)], at()),
        Err(DeskError::Changed)
    ));
    assert_eq!(b.load(ea.id).unwrap().event, ea.event);
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

/// A desk of 40 registered players, six of them entered in a Swiss, round 1 paired through
/// the binary (as a director pairs it) and one result recorded.
fn a_paired_desk(db: &std::path::Path) {
    let mut desk = Desk::open(db).unwrap();
    for p in 0..40 {
        let mut info = PlayerInfo::named(&format!("Player {p:02}"));
        info.club = "Raleigh Checker Club".into();
        desk.add_player(&info, at()).unwrap();
    }
    drop(desk);
    run(db, &["new", "E"]);
    run(db, &["division", "E", "D", "--format", "swiss:3"]);
    run(db, &["enter", "E", "D", "1", "2", "3", "4", "5", "6"]);
    run(db, &["pair", "E", "D", "--seed", "1"]);
    run(db, &["result", "E", "D", "1", "1", "1 ="]);
}

/// Random bytes over the second half of every page but the first (the header and the schema
/// stay readable): SQLite's check fails while some queries still answer.
fn scramble(db: &std::path::Path) {
    let mut bytes = std::fs::read(db).unwrap();
    let page = 4096;
    assert!(
        bytes.len() > 2 * page && bytes.len().is_multiple_of(page),
        "{}",
        bytes.len()
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for start in (page..bytes.len()).step_by(page) {
        for b in &mut bytes[start + page / 2..start + page] {
            *b = rng.random();
        }
    }
    std::fs::write(db, bytes).unwrap();
}

/// A damaged database is neither read nor written: every command is refused, naming the file
/// and the way back (the copy kept before the last round was paired), and the file is left
/// exactly as it was. The copy opens, with the event as it was when the round was paired.
#[test]
fn a_damaged_database_is_refused_naming_the_copy_kept_before_pairing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    a_paired_desk(&db);
    assert!(
        !dir.path().join("desk.sqlite3-wal").exists(),
        "closed cleanly"
    );
    scramble(&db);
    let check = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("PRAGMA quick_check", [], |r| r.get::<_, String>(0));
    assert!(!matches!(check.as_deref(), Ok("ok")), "{check:?}");
    let before = std::fs::read(&db).unwrap();
    let backup = dir.path().join("desk.backup.sqlite3");
    let e = Desk::open(&db).err().expect("a damaged file is refused");
    let msg = e.to_string();
    for needle in [
        db.display().to_string(),
        "damaged".to_string(),
        backup.display().to_string(),
    ] {
        assert!(msg.contains(&needle), "{needle:?} missing: {msg}");
    }
    for args in [
        &["list"][..],
        &["standings", "E", "D"],
        &["result", "E", "D", "1", "2", "1 1"],
    ] {
        let out = crossboard(&db, args).output().unwrap();
        assert!(!out.status.success(), "{args:?} ran on a damaged file");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("damaged"), "{args:?}: {stderr}");
    }
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the damaged file was written"
    );
    // The copy kept before round 1 was paired: the event and its players, no pairing yet.
    let copy = Desk::open(&backup).unwrap();
    assert_eq!(copy.players().unwrap().len(), 40);
    let id = copy.find_event("E").unwrap();
    let event = copy.load(id).unwrap().event;
    assert_eq!(event.divisions[0].entrants.len(), 6);
    assert_eq!(event.divisions[0].paired_rounds(), 0);
}

/// SQLite's files beside the database (its write-ahead log and shared memory index) planted as
/// links by someone else (a shared folder) are refused, naming the file, and nothing is
/// written through them.
#[cfg(unix)]
#[test]
fn a_planted_link_beside_the_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    drop(Desk::open(&db).unwrap());
    let victim = dir.path().join("victim.txt");
    type Plant = fn(&std::path::Path, &std::path::Path) -> std::io::Result<()>;
    let planted: [(&str, Plant); 2] = [
        ("symbolic link", |v, l| std::os::unix::fs::symlink(v, l)),
        ("hard link", |v, l| std::fs::hard_link(v, l)),
    ];
    for side in ["desk.sqlite3-wal", "desk.sqlite3-shm"] {
        for (what, plant) in planted {
            std::fs::write(&victim, "precious\n").unwrap();
            let link = dir.path().join(side);
            plant(&victim, &link).unwrap();
            let opened = Desk::open(&db).map(|mut d| {
                let _ = d.add_player(&PlayerInfo::named("Ann"), at());
            });
            let e = opened
                .err()
                .unwrap_or_else(|| panic!("{side} as a {what} followed"));
            assert!(e.to_string().contains(side), "{what}: {e}");
            assert_eq!(
                std::fs::read_to_string(&victim).unwrap(),
                "precious\n",
                "{side} as a {what}"
            );
            std::fs::remove_file(&link).unwrap();
        }
    }
}
