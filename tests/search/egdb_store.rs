//! Endgame database files: a build to a folder that is interrupted carries on, damaged files
//! are rebuilt, and the command line builds, reports, verifies and probes.

use crossboard::egdb::{Material, Wdl};
use crossboard::engine::Position;
use crossboard::store::egdb::{BuildObserver, Phase, build, load, slice_path, verified_pieces};
use std::process::{Command, Output};
use std::sync::Mutex;

#[derive(Default)]
struct Record {
    phases: Mutex<Vec<(Phase, u64)>>,
    advanced: Mutex<Vec<u64>>,
    slices: Mutex<Vec<(Material, bool)>>,
}

impl BuildObserver for Record {
    fn phase(&self, phase: Phase, total: u64) {
        self.phases.lock().unwrap().push((phase, total));
        self.advanced.lock().unwrap().push(0);
    }
    fn advance(&self, n: u64) {
        *self.advanced.lock().unwrap().last_mut().unwrap() += n;
    }
    fn slice(&self, material: Material, found: bool) {
        self.slices.lock().unwrap().push((material, found));
    }
}

#[test]
fn an_interrupted_build_carries_on_and_damage_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let first = Record::default();
    let built = build(dir.path(), 3, &first).unwrap();
    assert_eq!((built.solved, built.found), (16, 0));
    assert_eq!(verified_pieces(dir.path()), 3);
    // Progress adds up to the positions of each phase.
    let phases = first.phases.lock().unwrap().clone();
    let advanced = first.advanced.lock().unwrap().clone();
    assert_eq!(phases.len(), 2);
    assert_eq!(phases[0].0, Phase::Build);
    assert_eq!(advanced, vec![phases[0].1, phases[1].1]);

    // As if killed while solving one pair: its files are missing; another file is damaged.
    let missing = Material::new(1, 1, 1, 0).unwrap();
    std::fs::remove_file(slice_path(dir.path(), missing)).unwrap();
    let damaged = slice_path(dir.path(), Material::new(0, 1, 0, 2).unwrap());
    let mut bytes = std::fs::read(&damaged).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&damaged, bytes).unwrap();

    let second = Record::default();
    let built = build(dir.path(), 3, &second).unwrap();
    // The pair of the missing slice and the pair of the damaged one are solved again.
    assert_eq!(built.solved, 4, "{:?}", second.slices.lock().unwrap());
    assert_eq!(built.found, 12);
    let db = load(dir.path());
    assert!(db.problems.is_empty(), "{:?}", db.problems);
    let pos = Position::from_fen("W:WK14:BK1,K28").unwrap();
    assert_eq!(db.db.probe(&pos), Some(Wdl::Loss));
}

#[test]
fn loading_skips_damaged_files_and_names_them() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), 2, &Record::default()).unwrap();
    let path = slice_path(dir.path(), Material::new(1, 0, 0, 1).unwrap());
    std::fs::write(&path, b"not a table").unwrap();
    let loaded = load(dir.path());
    assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
    assert!(
        loaded.problems[0].contains("1m0k-0m1k.cbdb"),
        "{:?}",
        loaded.problems
    );
    assert_eq!(loaded.db.materials().count(), 3);
    assert_eq!(loaded.db.complete_pieces(), 0);
}

fn crossboard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run crossboard")
}

#[test]
fn the_command_line_builds_verifies_and_probes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let out = crossboard(&["egdb", "--dir", d, "build", "--pieces", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("16 slices, 202280 positions"), "{stdout}");
    assert!(
        stdout.contains("16 slices solved, 0 found on disk; 199520 positions verified"),
        "{stdout}"
    );

    let out = crossboard(&["egdb", "--dir", d, "status"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("3 pieces: 12/12 slices"), "{stdout}");
    assert!(
        stdout.contains("complete up to 3 pieces; verified up to 3"),
        "{stdout}"
    );

    let out = crossboard(&["egdb", "--dir", d, "verify"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("verified: 199520 positions up to 3 pieces"),
        "{stdout}"
    );

    let out = crossboard(&["egdb", "--dir", d, "probe", "W:WK14:BK1,K28"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("W:WK14:BK1,K28: loss for White to move"),
        "{stdout}"
    );

    // Bad input: a clear message, nothing built.
    let out = crossboard(&["egdb", "--dir", d, "build", "--pieces", "9"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pieces must be between 2 and 6"));
    let out = crossboard(&["egdb", "--dir", d, "verify", "--pieces", "5"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("complete up to 3"));
    let out = crossboard(&["egdb", "--dir", d, "probe", "W:WK14:BK1,K99"]);
    assert!(!out.status.success());
}

#[test]
fn config_paths_show_the_database_folder() {
    let out = crossboard(&["config", "--paths"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("# endgame databases: "), "{stdout}");
    assert!(stdout.contains("egdb"), "{stdout}");
    assert!(stdout.contains("practice-games.pdn"), "{stdout}");
}
