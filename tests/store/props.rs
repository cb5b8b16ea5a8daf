//! Property tests of the match file (format 2, the event log): any command sequence saved
//! (appended event by event, with reopenings by new processes) loads back to an equal match;
//! a file with any one record removed, changed or duplicated is refused or loads to exactly
//! what its remaining records say.

use crate::director_support;

use crossboard::director::*;
use crossboard::store::{MatchFile, MatchStore, load_match};
use director_support::*;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use rand::SeedableRng;
use std::path::Path;

/// Settings that reach deep: a short sudden-death clock, a tie-break block.
fn deep_settings() -> MatchSettings {
    let mut s = settings(2);
    s.time_control = TimeControl::sudden_death(300);
    s.tie = TieRule::ContinueInBlocks {
        max_blocks: Some(1),
    };
    s
}

/// A random command stream applied to a match; returns it.
fn stream(seed: u64, steps: &[(u8, u8, u64)], mut after: impl FnMut(&mut H, usize)) -> H {
    let mut h = H::new(deep_settings(), seed);
    for (i, &(pick, arg, wait)) in steps.iter().enumerate() {
        h.wait(wait);
        let c = if pick < 170 {
            expected(&h, arg)
        } else {
            command(&h, pick, arg)
        };
        let now = h.now();
        let _ = h.m.apply(c, now, &mut h.rng);
        after(&mut h, i);
    }
    h
}

fn steps() -> impl Strategy<Value = Vec<(u8, u8, u64)>> {
    prop::collection::vec((any::<u8>(), any::<u8>(), 0u64..90_000), 1..140)
}

/// How one record of a file is spoilt.
#[derive(Clone, Copy, Debug)]
enum Spoil {
    Remove,
    Duplicate,
    /// Replaced by another record of the same file.
    Swap(usize),
    /// One digit of the line changed.
    Digit(usize, u8),
}

fn spoil() -> impl Strategy<Value = Spoil> {
    prop_oneof![
        Just(Spoil::Remove),
        Just(Spoil::Duplicate),
        any::<usize>().prop_map(Spoil::Swap),
        (any::<usize>(), 0u8..10).prop_map(|(i, d)| Spoil::Digit(i, d)),
    ]
}

/// `lines` (the records, header lines excluded) with record `k` spoilt.
fn spoilt(lines: &[String], k: usize, how: Spoil) -> Vec<String> {
    let mut out = lines.to_vec();
    match how {
        Spoil::Remove => {
            out.remove(k);
        }
        Spoil::Duplicate => out.insert(k, lines[k].clone()),
        Spoil::Swap(j) => out[k] = lines[j % lines.len()].clone(),
        Spoil::Digit(i, d) => {
            let digits: Vec<usize> = lines[k]
                .char_indices()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            if let Some(&at) = digits.get(i % digits.len().max(1)) {
                let mut b = lines[k].clone().into_bytes();
                b[at] = b'0' + d;
                out[k] = String::from_utf8(b).unwrap();
            }
        }
    }
    out
}

fn write(path: &Path, head: &[&str], records: &[String]) -> Vec<u8> {
    let mut text = String::new();
    for l in head
        .iter()
        .copied()
        .chain(records.iter().map(String::as_str))
    {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(path, &text).unwrap();
    text.into_bytes()
}

proptest! {
    // Failing cases are kept beside this file (props.proptest-regressions) and replayed first.
    #![proptest_config(ProptestConfig {
        cases: 40,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_command_sequence_saved_loads_back_equal(seed in 0u64..1000, steps in steps(), reopen_every in 5usize..60) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let mut store = Some(MatchStore::create(&path, &H::new(deep_settings(), seed).m).unwrap());
        let h = stream(seed, &steps, |h, i| {
            let s = store.as_mut().unwrap();
            s.set_durable(false);
            s.save(&h.m).unwrap();
            if i % reopen_every == reopen_every - 1 {
                // A new process: the file is all that survives.
                drop(store.take());
                let (s, file) = MatchStore::open(&path).unwrap();
                assert_eq!(file.the_match, h.m, "reopened at step {i}");
                assert!(file.dropped.is_none());
                store = Some(s);
                h.m = file.the_match;
                h.t = 0;
                let now = h.now();
                h.m.reopen(now);
            }
        });
        store.as_mut().unwrap().save(&h.m).unwrap();
        let back = load_match(&path).unwrap();
        prop_assert_eq!(&back.the_match, &h.m);
        // The file appended event by event is the file written at once.
        let whole = MatchFile::new(h.m.clone()).to_text().unwrap();
        prop_assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
    }

    #[test]
    fn one_record_spoilt_is_refused_or_loads_to_what_the_records_say(
        seed in 0u64..1000,
        steps in steps(),
        k in any::<usize>(),
        how in spoil(),
    ) {
        let h = stream(seed, &steps, |_, _| {});
        let text = MatchFile::new(h.m.clone()).to_text().unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let (head, records) = lines.split_at(2);
        let records: Vec<String> = records.iter().map(|s| s.to_string()).collect();
        let k = k % records.len();
        let bad = spoilt(&records, k, how);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let bytes = write(&path, head, &bad);
        match MatchStore::open(&path) {
            Err(e) => {
                // Refused: with the file, the line of a record at or after the spoilt one (the
                // settings line when no record is left at all).
                let msg = e.to_string();
                prop_assert!(msg.contains("m.jsonl:"), "{}", msg);
                let line: usize = msg.split(':').nth(1).and_then(|n| n.parse().ok()).unwrap_or(0);
                let first = if bad.is_empty() { 2 } else { k + 3 };
                prop_assert!(line >= first, "{}: spoilt record {} ({:?})", msg, k, how);
                prop_assert_eq!(&std::fs::read(&path).unwrap(), &bytes, "a refused file is untouched");
            }
            Ok((mut store, file)) => {
                // Loaded: exactly the records of the file, none skipped but an incomplete last
                // action (said so).
                let n = file.dropped.as_ref().map_or(0, |d| d.records);
                prop_assert!(n < 3, "{:?}", file.dropped);
                let lines_back: Vec<String> = MatchFile::new(file.the_match.clone())
                    .to_text().unwrap().lines().skip(2).map(str::to_string).collect();
                prop_assert_eq!(&lines_back[..], &bad[..bad.len() - n]);
                // A state a command sequence reaches: it rebuilds from its own log, and goes on.
                let again = Match::from_log(file.the_match.settings().clone(), file.the_match.log()).unwrap();
                prop_assert_eq!(&again.the_match, &file.the_match);
                let mut m = file.the_match;
                m.reopen(Now { mono_ms: 0, wall: wall(0) });
                let _ = m.apply(Command::Note { text: "after".into() }, Now { mono_ms: 0, wall: wall(0) }, &mut rand_chacha::ChaCha8Rng::seed_from_u64(0));
                store.set_durable(false);
                store.save(&m).unwrap();
                prop_assert_eq!(&load_match(&path).unwrap().the_match, &m);
            }
        }
    }
}

/// A file whose only record is removed is refused at its settings line (found by the property
/// above, which met it only now and then).
#[test]
fn a_file_without_any_record_is_refused_at_the_settings_line() {
    let h = stream(0, &[], |_, _| {});
    let text = MatchFile::new(h.m.clone()).to_text().unwrap();
    let head: Vec<&str> = text.lines().take(2).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    let bytes = write(&path, &head, &[]);
    let Err(e) = MatchStore::open(&path) else {
        panic!("a file without any record is refused")
    };
    let msg = e.to_string();
    assert!(msg.contains("m.jsonl:2: "), "{msg}");
    assert!(msg.contains("match-created"), "{msg}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

/// A refused file is left byte-identical.
#[test]
fn a_refused_file_is_untouched() {
    let h = stream(
        3,
        &(0..120).map(|i| (0u8, i as u8, 4_000)).collect::<Vec<_>>(),
        |_, _| {},
    );
    let text = MatchFile::new(h.m.clone()).to_text().unwrap();
    let moves: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"event\":\"move\""))
        .map(|(i, _)| i)
        .collect();
    assert!(moves.len() > 10, "{} moves", moves.len());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(moves[3]);
    let bad = lines.join("\n") + "\n";
    std::fs::write(&path, &bad).unwrap();
    let e = MatchStore::open(&path).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("{}:{}:", path.display(), moves[3] + 1)),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
}
