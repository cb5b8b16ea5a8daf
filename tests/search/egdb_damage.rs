//! Damaged database files: a flipped byte anywhere in a slice file is never a wrong value. The
//! slice is missing from then on and its file is named, whether the damage is found when the
//! file is opened (its header) or when a probe first reads the damaged block (its table).

use super::common::cli::{crossboard, crossboard_ok};
use crossboard::egdb::{Material, Wdl, plan, table_len};
use crossboard::store::egdb::{build, load, slice_path};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// Flip byte `at` of a file (xor `mask`).
fn flip(path: &Path, at: usize, mask: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[at] ^= mask;
    std::fs::write(path, bytes).unwrap();
}

/// The offset of the table in a slice file: its length less the table's.
fn table_start(path: &Path, m: Material) -> usize {
    std::fs::metadata(path).unwrap().len() as usize - table_len(m.size()) as usize
}

/// A used position of `m` whose table byte is in the same 4 KiB block as table byte `byte`
/// (the nearest used one at or after it, else before it), in FEN.
fn position_near(m: Material, byte: usize) -> String {
    let block = byte / 4096;
    let size = m.size();
    let first = (byte as u64 * 4).min(size - 1);
    let index = (first..size)
        .chain((0..first).rev())
        .find(|&i| m.board(i).is_some() && i as usize / 4 / 4096 == block)
        .unwrap();
    m.board(index).unwrap().position().to_fen()
}

/// As a user meets it: `egdb probe` after one byte of a slice file is flipped (xor 0x5a), in
/// several files and at several places (byte 67, the first table byte, the middle, the last
/// byte, the header). The position in the damaged block is "not in the databases", no line gives a value
/// other than the undamaged files' one, the file is named and the command fails.
#[test]
fn a_flipped_byte_in_a_slice_file_is_named_and_never_a_wrong_value() {
    let clean = tempfile::tempdir().unwrap();
    let c = clean.path().to_str().unwrap();
    crossboard_ok(&["egdb", "--dir", c, "build", "--pieces", "3"]);
    let slices = ["0m1k-0m1k", "0m1k-1m1k", "1m0k-0m2k", "1m1k-0m1k"];
    let mut cases = 0;
    for name in slices {
        let m: Material = plan(3).slices().find(|m| m.to_string() == name).unwrap();
        let path = slice_path(clean.path(), m);
        let start = table_start(&path, m);
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        for at in [67, start, start + (len - start) / 2, len - 1, 9] {
            let fen = position_near(m, at.saturating_sub(start));
            let expected = crossboard_ok(&["egdb", "--dir", c, "probe", &fen]);
            let dir = tempfile::tempdir().unwrap();
            for f in std::fs::read_dir(clean.path()).unwrap() {
                let f = f.unwrap().path();
                std::fs::copy(&f, dir.path().join(f.file_name().unwrap())).unwrap();
            }
            flip(&slice_path(dir.path(), m), at, 0x5a);
            let d = dir.path().to_str().unwrap();
            let out = crossboard(&["egdb", "--dir", d, "probe", &fen]);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let what = format!("{name} byte {at}, {fen}:\n{stdout}{stderr}");
            let lines: Vec<&str> = stdout.lines().collect();
            assert_eq!(lines.len(), expected.lines().count(), "{what}");
            for (got, clean) in lines.iter().zip(expected.lines()) {
                assert!(
                    *got == clean || got.contains("not in the databases"),
                    "a wrong value, not {clean}: {what}"
                );
            }
            assert!(lines[0].contains("not in the databases"), "{what}");
            assert!(stderr.contains(&format!("{name}.cbdb")), "{what}");
            assert!(stderr.contains("egdb build"), "{what}");
            assert!(!out.status.success(), "{what}");
            cases += 1;
        }
    }
    assert_eq!(cases, 20);
}

/// Each slice with the value of each of its indices (`None`: unused).
type Values = Vec<(Material, Vec<Option<Wdl>>)>;

/// A 3-piece database built once, and the value of every used index of every slice.
fn reference() -> &'static (tempfile::TempDir, Values) {
    static REFERENCE: OnceLock<(tempfile::TempDir, Values)> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), 3, &Quiet).unwrap();
        let db = load(dir.path()).db;
        let values = plan(3)
            .slices()
            .map(|m| {
                let v = (0..m.size())
                    .map(|i| m.board(i).and_then(|b| db.probe_board(&b)))
                    .collect();
                (m, v)
            })
            .collect();
        (dir, values)
    })
}

struct Quiet;

impl crossboard::store::egdb::BuildObserver for Quiet {
    fn phase(&self, _: crossboard::store::egdb::Phase, _: u64) {}
    fn advance(&self, _: u64) {}
    fn slice(&self, _: Material, _: bool) {}
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// One byte anywhere in one slice file flipped: every probe of every slice answers the
    /// undamaged value or none, the damaged block answers none, and the file is named (refused
    /// when opened, or reported by the probe that found the damage).
    #[test]
    fn a_random_flip_is_never_a_wrong_value(
        slice in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        mask in 1u8..=255,
    ) {
        let (clean, values) = reference();
        let (m, _) = values[slice.index(values.len())];
        let dir = tempfile::tempdir().unwrap();
        for f in std::fs::read_dir(clean.path()).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, dir.path().join(f.file_name().unwrap())).unwrap();
        }
        let path = slice_path(dir.path(), m);
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        let at = at.index(len);
        flip(&path, at, mask);
        let loaded = load(dir.path());
        for (s, expected) in values {
            for (i, want) in expected.iter().enumerate() {
                let Some(b) = s.board(i as u64) else { continue };
                let got = loaded.db.probe_board(&b);
                prop_assert!(got.is_none() || got == *want, "{s} index {i}: {got:?}, not {want:?}");
            }
        }
        let name = format!("{m}.cbdb");
        let refused = loaded.problems.iter().any(|p| p.contains(&name));
        let damage = loaded.db.damage();
        let found = damage.iter().any(|d| d.material == m && d.source.ends_with(&name));
        prop_assert!(refused != found, "{at}: {:?} {damage:?}", loaded.problems);
        prop_assert_eq!(damage.len(), usize::from(found));
        prop_assert!(!loaded.db.has(m));
        let start = table_start(&path, m);
        if let Some(byte) = at.checked_sub(start) {
            let fen = position_near(m, byte);
            let pos = crossboard::engine::Position::from_fen(&fen).unwrap();
            prop_assert_eq!(loaded.db.probe(&pos), None);
        }
    }
}

/// `egdb verify` tells damage on disk (a block failing its checksum) from a table whose values
/// are wrong (a file with sound checksums that disagrees with the rules).
#[test]
fn verify_tells_a_checksum_failure_from_a_wrong_value() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    crossboard_ok(&["egdb", "--dir", d, "build", "--pieces", "3"]);
    let m = Material::new(0, 1, 1, 1).unwrap();
    let path = slice_path(dir.path(), m);
    let good = std::fs::read(&path).unwrap();

    // `egdb verify`, which must fail: its error output.
    let failed_verify = || {
        let out = crossboard(&["egdb", "--dir", d, "verify"]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "{stderr}");
        stderr
    };
    flip(&path, good.len() - 1, 0x01);
    let stderr = failed_verify();
    assert!(
        stderr.contains("0m1k-1m1k.cbdb: block 2 of 2 (table bytes 4096-6509) fails its checksum"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "verification failed: 1 slice file fails its checksum (damaged on disk, named above); "
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("disagree"), "{stderr}");

    // A wrong value written with sound checksums: the values check finds it.
    std::fs::write(&path, &good).unwrap();
    let loaded = load(dir.path());
    let mut table = loaded.db.table(m).unwrap().to_vec();
    drop(loaded);
    let i = (0..m.size()).find(|&i| m.board(i).is_some()).unwrap();
    let byte = (i / 4) as usize;
    let shift = 2 * (i % 4);
    let code = (table[byte] >> shift) & 3;
    table[byte] ^= (code ^ if code == 0 { 1 } else { 0 }) << shift;
    crossboard::store::egdb::write_slice(dir.path(), m, &table).unwrap();
    let stderr = failed_verify();
    assert!(
        stderr.contains("positions disagree with their successors"),
        "{stderr}"
    );
    assert!(!stderr.contains("checksum"), "{stderr}");
}
