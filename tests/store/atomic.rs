//! Atomic saves: a crash or a failure at any step leaves the old file or the new one; damaged
//! files are reported with their line, never misread.

use crossboard::store::{
    Fault, Format, LoadError, Step, load_toml, save_toml, to_toml, write_atomic_with,
};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format_version: u32,
    title: String,
    moves: Vec<String>,
    clock: Clock,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Clock {
    red_ms: u64,
    white_ms: u64,
}

const V: Format = Format {
    version_key: "format_version",
    supported: 1,
    version_required: true,
    end_marker: Some("# end of doc"),
};

fn doc(n: usize) -> Doc {
    Doc {
        format_version: 1,
        title: format!("version {n}"),
        moves: (0..n)
            .map(|i| format!("{}-{}", i % 32 + 1, i % 31 + 2))
            .collect(),
        clock: Clock {
            red_ms: 3_600_000 - n as u64,
            white_ms: 3_599_000,
        },
    }
}

fn stray_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "doc.toml")
        .collect();
    v.sort();
    v
}

#[test]
fn replaces_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.toml");
    save_toml(&path, &doc(1), V).unwrap();
    assert_eq!(load_toml::<Doc>(&path, V).unwrap(), doc(1));
    save_toml(&path, &doc(2), V).unwrap();
    assert_eq!(load_toml::<Doc>(&path, V).unwrap(), doc(2));
    assert!(stray_files(dir.path()).is_empty());
}

#[test]
fn a_crash_or_failure_at_any_step_leaves_old_or_new() {
    for step in [Step::Created, Step::Written, Step::Synced, Step::Renamed] {
        for fault in [Fault::Fail, Fault::Crash] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("doc.toml");
            save_toml(&path, &doc(3), V).unwrap();
            let new = to_toml(&doc(40), V).unwrap();
            let r = write_atomic_with(&path, new.as_bytes(), &mut |s| (s == step).then_some(fault));
            assert!(r.is_err(), "{step:?} {fault:?}");
            let loaded = load_toml::<Doc>(&path, V).unwrap();
            // Before the rename the old file stands; after it, the new one.
            let expected = if step == Step::Renamed {
                doc(40)
            } else {
                doc(3)
            };
            assert_eq!(loaded, expected, "{step:?} {fault:?}");
            let stray = stray_files(dir.path());
            if fault == Fault::Crash && step != Step::Renamed {
                // A crash leaves its temporary file; nothing reads it and the next save works.
                assert_eq!(stray.len(), 1, "{stray:?}");
                assert!(stray[0].starts_with(".doc.toml.") && stray[0].ends_with(".tmp"));
            } else {
                assert!(stray.is_empty(), "{step:?} {fault:?}: {stray:?}");
            }
            save_toml(&path, &doc(41), V).unwrap();
            assert_eq!(load_toml::<Doc>(&path, V).unwrap(), doc(41));
        }
    }
}

#[test]
fn every_truncation_is_refused_with_a_message() {
    let full = to_toml(&doc(25), V).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.toml");
    let complete = full.trim_end().len();
    for cut in 0..full.len() {
        std::fs::write(&path, &full.as_bytes()[..cut]).unwrap();
        match load_toml::<Doc>(&path, V) {
            Err(e) => {
                assert!(cut < complete, "cut at {cut}: {e}");
                let msg = e.to_string();
                assert!(msg.contains("doc.toml"), "{msg}");
            }
            // Only a cut in the trailing newline leaves a whole file.
            Ok(d) => {
                assert!(cut >= complete, "cut at {cut} was misread");
                assert_eq!(d, doc(25));
            }
        }
    }
}

#[test]
fn corrupted_bytes_are_refused_or_detected() {
    let full = to_toml(&doc(12), V).unwrap().into_bytes();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.toml");
    // Flip bytes one at a time into characters that break TOML: never a panic, always either
    // an error with a line number or a document that differs from the original.
    for (i, bad) in [
        (0usize, b'\0'),
        (5, b'"'),
        (20, b'['),
        (40, 0xff),
        (60, b'='),
    ]
    .iter()
    .map(|&(i, b)| (i.min(full.len() - 1), b))
    {
        let mut bytes = full.clone();
        bytes[i] = bad;
        std::fs::write(&path, &bytes).unwrap();
        match load_toml::<Doc>(&path, V) {
            Err(LoadError::Parse { line, .. }) => assert!(line > 0, "byte {i}"),
            Err(e) => panic!("byte {i}: unexpected {e}"),
            Ok(d) => assert_ne!(d, doc(12)),
        }
    }
}

#[test]
fn a_newer_file_is_refused_not_misread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.toml");
    let text = to_toml(&doc(2), V)
        .unwrap()
        .replace("format_version = 1", "format_version = 7")
        .replace("# end of doc", "[future]\nthing = 1\n# end of doc");
    std::fs::write(&path, text).unwrap();
    let e = load_toml::<Doc>(&path, V).unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::Newer {
                found: 7,
                supported: 1,
                ..
            }
        ),
        "{e}"
    );
}
