//! The tournament desk on Windows (the bundled SQLite compiled for Windows): an event run by
//! the Windows build, its database in a folder with spaces and accents, read and carried on by
//! the Linux build, and back.

use super::support::{linux_ok, windows_path, wine};
use std::path::Path;

/// `event --db DB ARGS` by the Windows build.
fn windows_event(w: &super::support::Wine, db: &Path, args: &[&str]) -> String {
    let mut all = vec!["event".to_string(), "--db".to_string(), windows_path(db)];
    all.extend(args.iter().map(|a| a.to_string()));
    w.ok(all)
}

/// `event --db DB ARGS` by the Linux build.
fn linux_event(db: &Path, args: &[&str]) -> String {
    let mut all = vec!["event".to_string(), "--db".to_string()];
    all.push(db.display().to_string());
    all.extend(args.iter().map(|a| a.to_string()));
    linux_ok(all)
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn an_event_run_on_windows_is_carried_on_by_linux_and_back() {
    let Some(w) = wine() else { return };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("Club de dames – Zoë");
    std::fs::create_dir(&folder).unwrap();
    let db = folder.join("desk.sqlite3");
    let said = windows_event(w, &db, &["new", "Øresund Open", "--site", "Malmö"]);
    assert!(said.starts_with("recorded: event 1"), "{said}");
    windows_event(
        w,
        &db,
        &["division", "Øresund Open", "Masters", "--format", "swiss:2"],
    );
    windows_event(
        w,
        &db,
        &[
            "enter",
            "Øresund Open",
            "Masters",
            "Åsa",
            "Björn",
            "Çelik",
            "Dörte",
        ],
    );
    let paired = windows_event(w, &db, &["pair", "Øresund Open", "Masters", "--seed", "3"]);
    assert!(paired.contains("recorded: round 1 paired"), "{paired}");
    windows_event(
        w,
        &db,
        &["result", "Øresund Open", "Masters", "1", "1", "1 ="],
    );

    // The Linux build reads the Windows database and enters the other board's result.
    let standings = ["standings", "Øresund Open", "Masters"];
    assert_eq!(
        linux_event(&db, &standings),
        windows_event(w, &db, &standings)
    );
    linux_event(&db, &["result", "Øresund Open", "Masters", "1", "2", "2 2"]);
    let linux = linux_event(&db, &standings);
    assert_eq!(windows_event(w, &db, &standings), linux, "and back");
    for name in ["Åsa", "Björn", "Çelik", "Dörte"] {
        assert!(linux.contains(name), "{name}:\n{linux}");
    }
    let paired = windows_event(w, &db, &["pair", "Øresund Open", "Masters", "--seed", "3"]);
    assert!(paired.contains("recorded: round 2 paired"), "{paired}");
}
