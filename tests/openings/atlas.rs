//! The 11-man atlas: the verdicts' thresholds, the shipped asset read whole, its comparison with
//! KingsRow's list, a malformed line named by line and field, and the builder giving the same
//! file on one thread or two (and the shipped lines again).

use crossboard::openings::{
    HARD_AT, LOST_AT, Verdict, eleven_man_atlas, eleven_man_atlas_text, eleven_man_positions,
    parse_atlas,
};
use std::process::Command;

#[test]
fn verdicts_from_scores_at_the_thresholds() {
    let v = Verdict::from_red_score;
    assert_eq!((HARD_AT, LOST_AT), (35, 70));
    assert_eq!(v(-29_990), Verdict::LostForRed);
    assert_eq!(v(-70), Verdict::LostForRed);
    assert_eq!(v(-69), Verdict::HardForRed);
    assert_eq!(v(-35), Verdict::HardForRed);
    assert_eq!(v(-34), Verdict::Balanced);
    assert_eq!(v(0), Verdict::Balanced);
    assert_eq!(v(34), Verdict::Balanced);
    assert_eq!(v(35), Verdict::HardForWhite);
    assert_eq!(v(69), Verdict::HardForWhite);
    assert_eq!(v(70), Verdict::LostForWhite);
    assert_eq!(v(29_990), Verdict::LostForWhite);
    for verdict in Verdict::ALL {
        assert_eq!(Verdict::from_key(verdict.key()), Some(verdict));
    }
    assert_eq!(Verdict::HardForRed.to_string(), "hard for Red");
    assert_eq!(Verdict::from_key("lost"), None);
}

#[test]
fn the_shipped_atlas_has_every_position_and_its_counts() {
    let atlas = eleven_man_atlas();
    assert_eq!(atlas.len(), 2500);
    assert!(
        atlas
            .iter()
            .enumerate()
            .all(|(i, e)| e.id as usize == i + 1)
    );
    assert!(atlas.iter().all(|e| e.depth == 12 && !e.line.is_empty()));
    let count = |v: Verdict| atlas.iter().filter(|e| e.verdict == v).count();
    let counts: Vec<usize> = Verdict::ALL.into_iter().map(count).collect();
    assert_eq!(
        counts, ATLAS_COUNTS,
        "lost/hard for Red, balanced, hard/lost for White"
    );
    // Beside KingsRow's 247 lost: how many the atlas calls lost, hard or balanced, and how
    // many it calls lost that KingsRow calls standard (docs/eleven-man-atlas.md).
    let positions = eleven_man_positions();
    let kingsrow_lost: Vec<_> = positions
        .iter()
        .zip(atlas)
        .filter(|(p, _)| p.kingsrow_lost)
        .map(|(_, e)| e.verdict)
        .collect();
    assert_eq!(kingsrow_lost.len(), 247);
    let lost = kingsrow_lost.iter().filter(|v| v.is_lost()).count();
    let hard = kingsrow_lost
        .iter()
        .filter(|v| matches!(v, Verdict::HardForRed | Verdict::HardForWhite))
        .count();
    let balanced = kingsrow_lost
        .iter()
        .filter(|v| **v == Verdict::Balanced)
        .count();
    let lost_only_here = positions
        .iter()
        .zip(atlas)
        .filter(|(p, e)| !p.kingsrow_lost && e.verdict.is_lost())
        .count();
    assert_eq!(
        (lost, hard, balanced, lost_only_here),
        KINGSROW_COMPARISON,
        "KingsRow's lost: lost, hard, balanced here; lost here only"
    );
}

/// Positions per verdict in the shipped atlas, lost for Red first.
const ATLAS_COUNTS: [usize; 5] = [4, 92, 2028, 267, 109];
/// KingsRow's 247 lost positions the atlas calls lost, hard, balanced; and the positions it
/// calls lost that KingsRow calls standard.
const KINGSROW_COMPARISON: (usize, usize, usize, usize) = (113, 114, 20, 0);

/// The shipped text with the line of position 7 replaced by `line`.
fn with_line_7(line: &str) -> String {
    eleven_man_atlas_text()
        .lines()
        .map(|l| if l.starts_with("7\t") { line } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_malformed_atlas_line_is_named_by_line_and_field() {
    let text = eleven_man_atlas_text();
    let line_no = text.lines().position(|l| l.starts_with("7\t")).unwrap() + 1;
    let original = text.lines().nth(line_no - 1).unwrap();
    let f: Vec<&str> = original.split('\t').collect();
    let cases = [
        (
            format!("7\t{}\t{}\t{}", f[1], f[2], f[3]),
            "line",
            "4 fields, not 5",
        ),
        (
            format!("7\tgood\t{}\t{}\t{}", f[2], f[3], f[4]),
            "verdict",
            "\"good\"",
        ),
        (
            format!("7\tlost-red\t0\t{}\t{}", f[3], f[4]),
            "verdict",
            "lost-red does not fit the score 0",
        ),
        (
            format!("7\tbalanced\tzero\t{}\t{}", f[3], f[4]),
            "red_score",
            "\"zero\" is not a score",
        ),
        (
            format!("7\t{}\t{}\t{}\t11-15 11-15", f[1], f[2], f[3]),
            "main_line",
            "move 2 (11-15)",
        ),
        (
            format!("8\t{}\t{}\t{}\t{}", f[1], f[2], f[3], f[4]),
            "id",
            "8 where 7 was due",
        ),
    ];
    for (line, field, reason) in cases {
        let e = parse_atlas("atlas.tsv", &with_line_7(&line)).unwrap_err();
        assert_eq!((e.line, e.field), (line_no, field), "{e}");
        let said = e.to_string();
        assert!(
            said.starts_with(&format!("atlas.tsv line {line_no}: {field}: "))
                && said.contains(reason),
            "{said}"
        );
    }
    let short: String = text
        .lines()
        .filter(|l| !l.starts_with("2500\t"))
        .collect::<Vec<_>>()
        .join("\n");
    let e = parse_atlas("atlas.tsv", &short).unwrap_err();
    assert!(e.to_string().contains("2499 positions, not 2500"), "{e}");
    assert_eq!(parse_atlas("atlas.tsv", text).unwrap(), eleven_man_atlas());
}

fn build(dir: &std::path::Path, name: &str, args: &[&str]) -> String {
    let out = dir.join(name);
    let run = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(["openings", "eleven-man", "--atlas", "--out"])
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

/// The lines of positions, without the comments and the header.
fn position_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

#[test]
fn the_atlas_is_the_same_on_one_thread_or_two_and_as_shipped() {
    let dir = tempfile::tempdir().unwrap();
    let one = build(
        dir.path(),
        "one.tsv",
        &["--ids", "1-6", "--depth", "9", "--threads", "1"],
    );
    let two = build(
        dir.path(),
        "two.tsv",
        &["--ids", "1-6", "--depth", "9", "--threads", "2"],
    );
    assert_eq!(one, two);
    assert_eq!(position_lines(&one).len(), 6);
    // At the shipped depth (the default), the shipped lines again, bit for bit.
    let again = build(dir.path(), "again.tsv", &["--ids", "1240-1241"]);
    let shipped: Vec<&str> = position_lines(eleven_man_atlas_text())[1239..1241].to_vec();
    assert_eq!(position_lines(&again), shipped);
}

/// Run `crossboard ARGS` in `dir`: whether it succeeded, and its standard error.
pub(crate) fn run_in(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let run = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        run.status.success(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

/// Run `crossboard openings eleven-man --atlas ARGS` in `dir`.
fn atlas_run(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    run_in(
        dir,
        &[&["openings", "eleven-man", "--atlas"], args].concat(),
    )
}

#[test]
fn shards_built_apart_and_merged_are_the_atlas_built_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = build(d, "whole.tsv", &["--ids", "1-7", "--depth", "5"]);
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let part = build(
            d,
            &format!("part{k}.tsv"),
            &["--ids", "1-7", "--depth", "5", "--shard", &shard],
        );
        // Shard k of 3 holds ids k, k + 3, k + 6.
        let ids: Vec<u32> = position_lines(&part)
            .iter()
            .map(|l| l.split('\t').next().unwrap().parse().unwrap())
            .collect();
        let due: Vec<u32> = (1..=7).filter(|id| (id - 1) % 3 == k - 1).collect();
        assert_eq!(ids, due, "{shard}");
    }
    let (ok, said) = atlas_run(
        d,
        &[
            "--merge",
            "part3.tsv",
            "part1.tsv",
            "part2.tsv",
            "--out",
            "merged.tsv",
        ],
    );
    assert!(ok, "{said}");
    assert!(
        said.contains("7 positions at depth 5 from 3 parts"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("merged.tsv")).unwrap(),
        whole
    );

    // A position in two parts, two depths, a damaged line: refused by name, nothing written.
    build(d, "deeper.tsv", &["--ids", "8", "--depth", "6"]);
    let damaged = std::fs::read_to_string(d.join("part2.tsv"))
        .unwrap()
        .replace("\t5\t", "\tfive\t");
    std::fs::write(d.join("damaged.tsv"), damaged).unwrap();
    for (parts, said_at) in [
        (
            ["part1.tsv", "whole.tsv"],
            "whole.tsv: position 1 is in part1.tsv too",
        ),
        (
            ["part1.tsv", "deeper.tsv"],
            "deeper.tsv: position 8 was searched to depth 6",
        ),
        (["part1.tsv", "damaged.tsv"], "damaged.tsv line 5: depth: "),
    ] {
        let mut args = vec!["--merge"];
        args.extend(parts);
        args.extend(["--out", "refused.tsv"]);
        let (ok, said) = atlas_run(d, &args);
        assert!(!ok && said.contains(said_at), "{parts:?}: {said}");
        assert!(!d.join("refused.tsv").exists());
    }
}

#[test]
fn a_stopped_build_resumes_from_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = ["--ids", "1-6", "--depth", "5"];
    let whole = build(d, "whole.tsv", &args);
    let lines = position_lines(&whole);
    // As a build killed after three positions leaves it: their lines in the order the searches
    // ended, and the fourth cut short in its write.
    let journal = format!(
        "# crossboard 11-man atlas journal: depth 5, ids 1-6, shard 1/1\n{}\n{}\n{}\n{}",
        lines[4],
        lines[1],
        lines[2],
        &lines[0][..7]
    );
    std::fs::write(d.join("resumed.tsv.journal"), &journal).unwrap();
    let (ok, said) = atlas_run(d, &["--out", "resumed.tsv", "--ids", "1-6", "--depth", "5"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("resuming: 3 of 6 positions already in resumed.tsv.journal"),
        "{said}"
    );
    assert!(said.contains("3 positions searched at depth 5"), "{said}");
    assert_eq!(
        std::fs::read_to_string(d.join("resumed.tsv")).unwrap(),
        whole
    );
    assert!(!d.join("resumed.tsv.journal").exists());

    // A journal of another build is not taken for this one's.
    std::fs::write(d.join("other.tsv.journal"), &journal).unwrap();
    let (ok, said) = atlas_run(d, &["--out", "other.tsv", "--ids", "1-6", "--depth", "7"]);
    assert!(!ok, "{said}");
    assert!(
        said.contains("other.tsv.journal line 1: made for another build"),
        "{said}"
    );
    assert!(!d.join("other.tsv").exists());
    assert_eq!(
        std::fs::read_to_string(d.join("other.tsv.journal")).unwrap(),
        journal
    );
}
