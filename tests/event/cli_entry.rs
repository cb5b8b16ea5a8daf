//! `crossboard event` refusing what the desk could not use later: a player's name longer than
//! a match on crossboard takes, and round 0, which no command takes.

use crate::desk_cli::{crossboard, run};
use crossboard::director::NAME_MAX_CHARS;

/// A player's name one character past the limit is refused by `player add` and `enter`,
/// saying the limit, and nothing is recorded; a name at the limit is entered.
#[test]
fn a_name_longer_than_a_match_takes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "D", "--format", "swiss:3"]);
    let long = "L".repeat(NAME_MAX_CHARS + 1);
    let before = (run(&db, &["list"]), run(&db, &["player", "list"]));
    for args in [
        vec!["player", "add", &long],
        vec!["enter", "E", "D", "Ann", &long],
    ] {
        let out = crossboard(&db, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?} was accepted");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains(&format!(
                "name is {} characters long; the limit is {NAME_MAX_CHARS}",
                NAME_MAX_CHARS + 1
            )),
            "{said}"
        );
    }
    assert_eq!((run(&db, &["list"]), run(&db, &["player", "list"])), before);
    let at_limit = "M".repeat(NAME_MAX_CHARS);
    let said = run(&db, &["enter", "E", "D", "Ann", &at_limit]);
    assert!(said.contains(&format!("{at_limit} registered")), "{said}");
}

/// Round 0, or a round not paired, is the same mistake whether pairings are asked for or a
/// result entered: the same exit code and the same sentence.
#[test]
fn a_round_not_paired_is_refused_alike_by_pairings_and_result() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "D", "--format", "swiss:3"]);
    run(&db, &["enter", "E", "D", "Ann", "Bob", "Cid", "Dee"]);
    run(&db, &["pair", "E", "D", "--seed", "1"]);
    for (round, said) in [
        ("0", "there is no round 0: rounds are numbered from 1"),
        ("2", "round 2 is not paired"),
    ] {
        let pairings = crossboard(&db, &["pairings", "E", "D", "--round", round]);
        let result = crossboard(&db, &["result", "E", "D", round, "1", "1 ="]);
        for out in [&pairings, &result] {
            assert_eq!(out.status.code(), Some(1), "round {round}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(said), "round {round}: {err}");
            assert!(out.stdout.is_empty(), "round {round}");
        }
    }
    let shown = run(&db, &["pairings", "E", "D", "--round", "1"]);
    assert!(shown.starts_with("Round 1 of 3"), "{shown}");
}
