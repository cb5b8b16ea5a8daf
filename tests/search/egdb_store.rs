//! Endgame database files: a build to a folder that is interrupted carries on, damaged files
//! are rebuilt, and the command line builds, reports, verifies and probes.

use super::common::cli::{crossboard, crossboard_ok};
use crossboard::egdb::plan;
use crossboard::egdb::{Material, Wdl};
use crossboard::engine::Position;
use crossboard::store::egdb::{
    BuildObserver, PairReport, Phase, build, load, slice_path, verified_pieces,
};
use std::process::Command;
use std::sync::Mutex;

#[derive(Default)]
struct Record {
    phases: Mutex<Vec<(Phase, u64)>>,
    advanced: Mutex<Vec<u64>>,
    slices: Mutex<Vec<(Material, bool)>>,
    pairs: Mutex<Vec<PairReport>>,
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
    fn pair(&self, report: &PairReport) {
        self.pairs.lock().unwrap().push(report.clone());
    }
}

#[test]
fn an_interrupted_build_carries_on_and_damage_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let first = Record::default();
    let built = build(dir.path(), 3, &first).unwrap();
    assert_eq!((built.solved, built.found), (16, 0));
    assert_eq!(verified_pieces(dir.path()), 3);
    // One phase: every position solved, then verified, before its pair is written.
    let phases = first.phases.lock().unwrap().clone();
    let advanced = first.advanced.lock().unwrap().clone();
    assert_eq!(phases, vec![(Phase::Build, 2 * plan(3).positions())]);
    assert_eq!(advanced, vec![phases[0].1]);
    assert_eq!(built.verified, 199_520);

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
fn progress_counts_slices_and_times_each_pair() {
    let dir = tempfile::tempdir().unwrap();
    let first = Record::default();
    build(dir.path(), 3, &first).unwrap();
    let pairs = first.pairs.lock().unwrap().clone();
    assert_eq!(pairs.len(), plan(3).pairs.len());
    let last = pairs.last().unwrap();
    assert_eq!((last.slices_done, last.slices_total), (16, 16));
    assert!(
        pairs
            .windows(2)
            .all(|w| w[0].slices_done < w[1].slices_done)
    );
    assert_eq!(
        pairs.iter().map(|p| p.positions).sum::<u64>(),
        plan(3).positions()
    );
    assert!(
        pairs
            .iter()
            .all(|p| !p.found && p.solve_secs > 0.0 && p.verify_secs > 0.0)
    );
    // A second build finds everything on disk and does no work.
    let second = Record::default();
    build(dir.path(), 3, &second).unwrap();
    let pairs = second.pairs.lock().unwrap().clone();
    assert!(
        pairs.iter().all(|p| p.found && p.solve_secs == 0.0),
        "{pairs:?}"
    );
}

/// The slice files of a folder, by name, with their bytes.
fn slice_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cbdb"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// `crossboard egdb build --pieces 4` started in `dir`, returned once it has written `slices`
/// slice files and while it still runs.
fn build_in_background(dir: &std::path::Path, slices: usize) -> std::process::Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args([
            "egdb",
            "--dir",
            dir.to_str().unwrap(),
            "build",
            "--pieces",
            "4",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while slice_files(dir).len() < slices {
        assert!(child.try_wait().unwrap().is_none(), "finished too soon");
        assert!(start.elapsed().as_secs() < 120, "no slice written");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child
}

/// A build killed with SIGKILL part way (as `kill -9` or a power cut would stop it) carries on
/// from the pairs it had written, and ends with files byte for byte those of a build that was
/// never stopped.
#[test]
fn a_build_killed_part_way_resumes_to_the_same_files() {
    let whole = tempfile::tempdir().unwrap();
    let w = whole.path().to_str().unwrap();
    crossboard_ok(&["egdb", "--dir", w, "build", "--pieces", "4"]);
    let expected = slice_files(whole.path());
    assert_eq!(expected.len(), 41);

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Kill it once the 3-piece slices are written, while it works on the 4-piece ones.
    let mut child = build_in_background(dir.path(), 16);
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = slice_files(dir.path()).len();
    assert!((16..41).contains(&kept), "{kept} slices when killed");
    assert!(!dir.path().join("verified-4.toml").exists());

    let stdout = crossboard_ok(&["egdb", "--dir", d, "build", "--pieces", "4"]);
    assert!(
        stdout.contains(&format!(
            "{} slices solved, {kept} found on disk",
            41 - kept
        )),
        "{stdout}"
    );
    let resumed = slice_files(dir.path());
    assert_eq!(
        resumed.iter().map(|f| &f.0).collect::<Vec<_>>(),
        expected.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (a, b) in resumed.iter().zip(&expected) {
        assert!(a.1 == b.1, "{} differs from the uninterrupted build's", a.0);
    }
    assert_eq!(verified_pieces(dir.path()), 4);
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

#[test]
fn the_command_line_builds_verifies_and_probes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let stdout = crossboard_ok(&["egdb", "--dir", d, "build", "--pieces", "3"]);
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

    let stdout = crossboard_ok(&["egdb", "--dir", d, "verify"]);
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

/// A build killed while writing a slice leaves its temporary file (`.NAME.cbdb.XXXXXX.tmp`,
/// tens of megabytes for a 6-piece slice) in the folder: the next build removes it, and leaves
/// alone the files that are not its own.
#[test]
fn a_build_removes_the_temporary_files_a_killed_build_left() {
    let dir = tempfile::tempdir().unwrap();
    let stale_slice = dir.path().join(".2m0k-1m0k.cbdb.AbC123.tmp");
    let stale_marker = dir.path().join(".verified-3.toml.xYz789.tmp");
    std::fs::write(&stale_slice, vec![0u8; 4096]).unwrap();
    std::fs::write(&stale_marker, b"pieces = 3").unwrap();
    let others = [
        ".notes.txt.AbC123.tmp",
        "mine.tmp",
        ".cbdb.tmp",
        "2m0k-1m0k.cbdb.tmp",
    ];
    for name in others {
        std::fs::write(dir.path().join(name), b"not the build's").unwrap();
    }
    std::fs::create_dir(dir.path().join(".1m0k-1m0k.cbdb.folder.tmp")).unwrap();

    build(dir.path(), 3, &Record::default()).unwrap();

    assert!(!stale_slice.exists(), "the stale slice file is still there");
    assert!(
        !stale_marker.exists(),
        "the stale marker file is still there"
    );
    for name in others {
        assert_eq!(
            std::fs::read(dir.path().join(name)).unwrap(),
            b"not the build's",
            "{name}"
        );
    }
    assert!(dir.path().join(".1m0k-1m0k.cbdb.folder.tmp").is_dir());
    assert_eq!(verified_pieces(dir.path()), 3);
}

/// While a build runs in a folder, a second build there is refused (its start would otherwise
/// take the first one's temporary files for stale ones) and says who holds the folder; once the
/// first has ended, a build goes ahead.
#[test]
fn a_second_build_in_the_same_folder_is_refused_while_the_first_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = build_in_background(dir.path(), 1);
    let err = build(dir.path(), 2, &Record::default())
        .unwrap_err()
        .to_string();
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(running, "the first build ended before the second was tried");
    assert!(
        err.contains("another database build is running in this folder (pid"),
        "{err}"
    );
    build(dir.path(), 2, &Record::default()).unwrap();
    assert_eq!(verified_pieces(dir.path()), 2);
}
