//! The search commands of the real binary: `engine-match` writes PDN that reads back, and
//! `openings <system> --analyse` prints its table.

use std::process::Command;

fn crossboard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
}

#[test]
fn engine_match_writes_readable_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.pdn");
    let status = crossboard()
        .args([
            "engine-match",
            "--ballots",
            "1",
            "--seed",
            "3",
            "--ms",
            "20",
            "--depth",
            "4",
        ])
        .args(["--level", "expert", "--opponent", "beginner", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let games = crossboard::store::read_pdn(&text);
    assert_eq!(games.len(), 2, "one ballot, both colours");
    let games: Vec<_> = games.into_iter().map(|g| g.expect("valid PDN")).collect();
    assert_eq!(games[0].tag("Black"), Some("crossboard expert"));
    assert_eq!(games[1].tag("Black"), Some("crossboard beginner"));
    assert_eq!(games[0].tag("Opening"), games[1].tag("Opening"));
    // The same tags as a match writes: `Ballot` (the system's number, the cards, the position)
    // and `Opening` (the ballot in words), so one reader serves both files.
    let ballot = games[0].tag("Ballot").expect("a Ballot tag");
    let number: u32 = ballot
        .strip_prefix("11-Man Ballot ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{ballot}"));
    let opening =
        crossboard::openings::opening(crossboard::openings::System::ElevenMan, number).unwrap();
    assert_eq!(games[0].tag("Opening"), Some(opening.name.as_str()));
    assert!(ballot.contains("(cards "), "{ballot}");
    assert_eq!(games[0].tag("Clock"), Some("20 ms per move, depth 4"));
    assert!(games[0].tag("Termination").is_some());
    for g in &games {
        assert!(g.result.outcome().is_some(), "finished: {:?}", g.result);
        assert!(g.moves.len() >= 2, "the ballot moves are recorded");
        g.replay().expect("legal moves");
    }
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(stdout.contains("over 2 games"), "{stdout}");
}

#[test]
fn analyse_prints_a_table_for_every_distinct_position() {
    let out = crossboard()
        .args(["openings", "two-move", "--analyse", "--depth", "4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(rows[0].starts_with("id\topening\tballots\tfen"));
    assert_eq!(
        rows.len() - 1,
        49,
        "the 49 two-move openings are all distinct"
    );
    // The two openings that lose a man at once are marked by the engine too.
    let marked: Vec<&str> = rows
        .iter()
        .copied()
        .filter(|r| r.ends_with("loses material"))
        .collect();
    assert!(marked.len() >= 2, "{marked:?}");
    assert!(text.contains("9-14 21-17"));
    let bad = crossboard()
        .args(["openings", "two-move", "--depth", "4"])
        .output()
        .unwrap();
    assert!(!bad.status.success(), "--depth needs --analyse");
}

#[test]
fn a_node_limited_match_replays_from_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        let out = dir.path().join(name);
        let status = crossboard()
            .args([
                "engine-match",
                "--ballots",
                "1",
                "--seed",
                "9",
                "--nodes",
                "3000",
            ])
            .args(["--hash", "2", "--max-plies", "80", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(status.status.success());
        let text = std::fs::read_to_string(&out).unwrap();
        // The Date tag is the day the match ran: the moves must be identical.
        text.lines()
            .filter(|l| !l.starts_with("[Date"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(run("a.pdn"), run("b.pdn"));
}
