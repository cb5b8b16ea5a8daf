//! `crossboard openings <system> --summary | --list | --draw [--seed N]`, run as a process.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .arg("openings")
        .args(args)
        .output()
        .expect("run crossboard")
}

fn stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn value<'a>(summary: &'a str, key: &str) -> &'a str {
    summary
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key:?} in\n{summary}"))[key.len()..]
        .trim()
}

#[test]
fn eleven_man_summary_gives_the_counts() {
    let s = stdout(&["eleven-man", "--summary"]);
    assert_eq!(value(&s, "ballots "), "3136");
    assert_eq!(value(&s, "distinct positions"), "2500");
    assert_eq!(
        value(&s, "ballots losing a man at once"),
        "112 (Red 0, White 112)"
    );
    assert_eq!(
        value(&s, "positions losing a man at once"),
        "91 (Red 0, White 91)"
    );
    assert_eq!(value(&s, "KingsRow-lost positions"), "247");
}

#[test]
fn other_summaries() {
    let s = stdout(&["two-move", "--summary"]);
    assert_eq!(value(&s, "openings "), "49");
    assert_eq!(value(&s, "sound (no man lost at once)"), "47");
    let s = stdout(&["three-move", "--summary"]);
    assert_eq!(value(&s, "deck current156"), "156");
    assert_eq!(value(&s, "deck crossboard144"), "144");
    assert_eq!(value(&s, "deck tough50"), "50");
    assert_eq!(value(&s, "barred"), "18");
    let s = stdout(&["roll-your-own", "--summary"]);
    assert_eq!(value(&s, "rolls "), "2304");
    assert_eq!(value(&s, "distinct positions"), "2304");
    let s = stdout(&["gayp", "--summary"]);
    assert_eq!(value(&s, "distinct positions"), "1");
}

#[test]
fn eleven_man_list_is_one_tab_separated_line_per_ballot() {
    let s = stdout(&["eleven-man", "--list"]);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 3137);
    assert_eq!(
        lines[0],
        "ballot\tcards\tname\tfen\tpublic_id\tkingsrow\tloses_man\ttransposes_with"
    );
    for l in &lines[1..] {
        assert_eq!(l.split('\t').count(), 8, "{l}");
    }
    // Ballot 1 is cards 1 1 1 1: remove 5 and 28, 9-13 24-20.
    let first: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(first[0], "1");
    assert_eq!(first[1], "1 1 1 1");
    assert_eq!(first[2], "Remove 5 and 28; 9-13 24-20");
    assert!(first[3].starts_with("B:W20,21,22,23,25"));
    // Public id 1 is given by two ballots that name each other.
    let id1: Vec<Vec<&str>> = lines[1..]
        .iter()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[4] == "1")
        .collect();
    assert_eq!(id1.len(), 2);
    assert_eq!(id1[0][7], id1[1][0]);
    assert_eq!(id1[1][7], id1[0][0]);
}

#[test]
fn three_move_list_has_flags() {
    let s = stdout(&["three-move", "--list", "--deck", "tough50"]);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 175);
    assert!(lines[0].starts_with("number\tmoves\tfen\tdeck\ttough\tin_deck"));
    let five: Vec<&str> = lines[5].split('\t').collect();
    assert_eq!(five[1], "9-13 22-18 6-9");
    assert_eq!(five[3], "crossboard");
    assert_eq!(five[4], "tough");
    assert_eq!(five[5], "yes");
    assert_eq!(five[7], "Dreaded Edinburgh");
    assert_eq!(s.lines().filter(|l| l.contains("\tbarred\t")).count(), 18);
}

#[test]
fn a_seeded_draw_is_shown_card_by_card_and_replays() {
    let a = stdout(&["eleven-man", "--draw", "--seed", "42"]);
    let b = stdout(&["eleven-man", "--draw", "--seed", "42"]);
    assert_eq!(a, b);
    assert!(a.contains("seed 42"));
    for what in ["Red removes", "Red moves", "White removes", "White moves"] {
        assert!(a.contains(what), "{what} in\n{a}");
    }
    assert!(a.contains("11-Man Ballot "));
    assert!(a.contains("public position "));
    assert!(a.contains("B:W"));
    let c = stdout(&["eleven-man", "--draw", "--seed", "43"]);
    assert_ne!(a, c);
    // Without a seed one is chosen and printed.
    let d = stdout(&["eleven-man", "--draw"]);
    assert!(d.contains("replay with --seed "));
}

#[test]
fn other_draws() {
    let s = stdout(&["roll-your-own", "--draw", "--seed", "1"]);
    assert!(s.contains("Red places"));
    let s = stdout(&["three-move", "--draw", "--seed", "1", "--deck", "tough50"]);
    assert!(s.contains("Ballot"));
    let s = stdout(&["eleven-man", "--draw", "--seed", "1", "--mode", "uniform"]);
    assert!(s.contains("drawn uniformly: position "), "{s}");
}

#[test]
fn mistakes_are_reported() {
    let out = run(&["chess", "--summary"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown opening system"));
    let out = run(&["eleven-man"]);
    assert!(!out.status.success());
    let out = run(&["eleven-man", "--summary", "--list"]);
    assert!(!out.status.success());
    let out = run(&["three-move", "--list", "--deck", "deck7"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown 3-move deck"));
}

#[test]
fn eleven_man_positions_list_by_public_id() {
    let s = stdout(&["eleven-man", "--positions"]);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 2501);
    assert_eq!(lines[0], "id\tfen\tkingsrow\tloses_man\tballots\tname");
    let rows: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0][0], "1");
    assert_eq!(rows[0][5], "Remove 11 and 28; 8-11 24-19");
    let ballots: usize = rows.iter().map(|r| r[4].split(',').count()).sum();
    assert_eq!(ballots, 3136);
    assert_eq!(rows.iter().filter(|r| r[3] == "White").count(), 91);
    assert_eq!(rows.iter().filter(|r| r[2] == "lost").count(), 247);
    assert!(!run(&["two-move", "--positions"]).status.success());
}
