//! Files that are not the desk's database: another program's SQLite file, an unknown schema
//! version, a mistyped path, and a damaged row. Each is refused naming the file and what is
//! wrong, and nothing is written or created.

use crate::desk_cli::{refused, run};
use std::path::Path;

/// Another program's SQLite file at `path`, with its own table and `user_version`.
fn foreign(path: &Path, user_version: i64) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(&format!(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
         INSERT INTO notes (body) VALUES ('keep me');
         PRAGMA user_version = {user_version};"
    ))
    .unwrap();
}

/// The files in `dir`, by name.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn another_programs_sqlite_file_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    for version in [0, 1, 2, 5, -1] {
        let db = dir.path().join(format!("other{version}.db"));
        foreign(&db, version);
        let before = std::fs::read(&db).unwrap();
        for args in [
            &["list"][..],
            &["new", "Open"],
            &["player", "add", "Ann"],
            &["standings", "1", "Open"],
        ] {
            let said = refused(&db, args);
            assert!(
                said.contains("not a crossboard desk database")
                    && said.contains(&db.display().to_string()),
                "version {version}, {args:?}: {said}"
            );
        }
        assert_eq!(std::fs::read(&db).unwrap(), before, "version {version}");
    }
    assert_eq!(
        files(dir.path()),
        [
            "other-1.db",
            "other0.db",
            "other1.db",
            "other2.db",
            "other5.db"
        ],
        "no side file left"
    );
}

#[test]
fn a_desk_with_an_unknown_schema_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "Open"]);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("PRAGMA user_version = -1").unwrap();
    drop(conn);
    let said = refused(&db, &["list"]);
    assert!(
        said.contains(&db.display().to_string()) && said.contains("-1"),
        "{said}"
    );
    let version: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, -1, "the version was rewritten");
}

#[test]
fn a_read_command_at_a_missing_path_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sub").join("typo.sqlite3");
    for args in [
        &["list"][..],
        &["standings", "1", "Open"],
        &["pairings", "1", "Open"],
        &["player", "list"],
        &["export", "1", "Open", "--format", "csv", "--out", "-"],
    ] {
        let said = refused(&db, args);
        assert!(
            said.contains(&db.display().to_string()) && said.contains("event new"),
            "{args:?}: {said}"
        );
    }
    assert!(!dir.path().join("sub").exists(), "a folder was made");
    let said = run(&db, &["new", "Open"]);
    assert!(said.starts_with("recorded: event 1"), "{said}");
    assert!(run(&db, &["list"]).contains("Open"));
}

#[test]
fn a_damaged_row_names_the_database_the_row_and_the_damage() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "Open"]);
    run(&db, &["division", "Open", "Main"]);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("UPDATE actions SET action = '{1:2}' WHERE seq = 1", [])
        .unwrap();
    drop(conn);
    let said = refused(&db, &["standings", "Open", "Main"]);
    for needle in [
        db.display().to_string(),
        "event 1".into(),
        "action 1".into(),
        "does not read as an action".into(),
        "key must be a string".into(),
    ] {
        assert!(said.contains(&needle), "{needle:?} missing: {said}");
    }
}

/// The desk's files beside its database are inputs too: the board tokens' digests (whether
/// or not any was made yet) and the boards' copies.
#[test]
fn an_export_onto_the_desks_files_beside_the_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("d.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "D", "--format", "rr"]);
    let tokens = dir.path().join("d.sqlite3.tokens.json");
    for exists in [false, true] {
        if exists {
            std::fs::write(&tokens, "{}\n").unwrap();
        }
        let out = tokens.display().to_string();
        let said = refused(&db, &["export", "E", "D", "--format", "csv", "--out", &out]);
        assert!(said.contains("tokens"), "{said}");
        assert_eq!(tokens.exists(), exists);
    }
    assert_eq!(std::fs::read_to_string(&tokens).unwrap(), "{}\n");
    let boards = dir.path().join("d-boards");
    std::fs::create_dir(&boards).unwrap();
    let copy = boards.join("e-d1-r1-b1.jsonl");
    std::fs::write(&copy, "kept\n").unwrap();
    let out = copy.display().to_string();
    let said = refused(&db, &["export", "E", "D", "--format", "csv", "--out", &out]);
    assert!(said.contains("boards"), "{said}");
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), "kept\n");
}

/// Direction controls and invisible characters are refused in every name the desk takes, as
/// control characters are.
#[test]
fn names_with_direction_controls_or_invisible_characters_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "D"]);
    for c in [
        '\u{202E}', '\u{2066}', '\u{200D}', '\u{200B}', '\u{2060}', '\u{FEFF}',
    ] {
        let name = format!("Ann{c}Lee");
        for args in [
            &["player", "add", name.as_str()][..],
            &["enter", "E", "D", name.as_str()],
            &["new", name.as_str()],
            &["division", "E", name.as_str()],
        ] {
            let said = refused(&db, args);
            assert!(
                said.contains("invisible or direction-changing"),
                "U+{:04X} {args:?}: {said}",
                u32::from(c)
            );
        }
    }
    assert_eq!(run(&db, &["player", "list"]), "");
}

/// Standings after a round that does not exist are refused, as the pairings of one are.
#[test]
fn standings_after_a_round_not_paired_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "D", "--format", "rr"]);
    run(&db, &["enter", "E", "D", "Ann", "Bob", "Cid", "Dee"]);
    run(&db, &["pair", "E", "D"]);
    for round in ["2", "4294967295"] {
        let pairings = refused(&db, &["pairings", "E", "D", "--round", round]);
        let standings = refused(&db, &["standings", "E", "D", "--round", round]);
        assert_eq!(standings, pairings, "round {round}");
    }
    assert!(run(&db, &["standings", "E", "D", "--round", "1"]).contains("Ann"));
}
