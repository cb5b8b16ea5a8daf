//! Speed and size figures for `crossboard bench store`: the match file of a 40-game match
//! (bytes a move beside the PDN of the same games), appending one event, opening the match;
//! PDN export and import. Printed, never asserted.

use super::export::match_to_pdn;
use super::matchfile::{MatchFile, MatchStore, load_match, v1_text};
use super::matchlog;
use super::pdn::{read_pdn, write_pdn};
use crate::director::{Command, Match, MatchSettings, Now, Player};
use crate::engine::Color;
use rand::{RngExt, SeedableRng};
use std::time::{Duration, Instant};

/// A match of `ballots` ballots, both games of each played to `plies` moves (or the end) with
/// random moves, then resigned; `after` sees the match after every command.
pub(super) fn scripted_match_with(
    ballots: u32,
    plies: usize,
    after: &mut dyn FnMut(&Match),
) -> Match {
    let settings = MatchSettings {
        players: ["Ann".into(), "Bob".into()],
        ballots,
        ..MatchSettings::default()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut moves = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    let mut ms = 0u64;
    let mut now = || {
        // Thinking times of a few seconds, not whole seconds.
        ms += 6_000 + moves_jitter(ms);
        Now {
            mono_ms: ms,
            wall: chrono::DateTime::from_timestamp_millis(1_780_000_000_000 + ms as i64)
                .unwrap_or_default(),
        }
    };
    let Ok(mut m) = Match::new(settings, now()) else {
        unreachable!("default settings with two names are valid")
    };
    let mut apply = |m: &mut Match, c: Command| {
        if m.apply(c, now(), &mut rng).is_ok() {
            after(m);
        }
    };
    apply(
        &mut m,
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
    );
    for _ in 0..ballots {
        apply(&mut m, Command::DrawBallot);
        apply(
            &mut m,
            Command::Accept {
                colour: Color::White,
            },
        );
        for _ in 0..2 {
            apply(&mut m, Command::StartGame);
            for _ in 0..plies {
                let Some(g) = m.playing() else { break };
                let pos = *g.game.position();
                let list = pos.distinct_moves();
                if list.is_empty() {
                    break;
                }
                let mv = list[moves.random_range(0..list.len())];
                apply(
                    &mut m,
                    Command::PlayMove {
                        colour: pos.turn(),
                        mv,
                    },
                );
            }
            if let Some(g) = m.playing() {
                let colour = g.game.position().turn();
                apply(&mut m, Command::Resign { colour });
            }
        }
    }
    m
}

/// A few hundred ms of jitter, the same on every run.
fn moves_jitter(ms: u64) -> u64 {
    ms.wrapping_mul(2_654_435_761) % 900
}

/// [`scripted_match_with`] without looking.
pub(super) fn scripted_match(ballots: u32, plies: usize) -> Match {
    scripted_match_with(ballots, plies, &mut |_| {})
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// CPU time (user + system) of this thread, where the system tells it: a figure the other
/// processes of a loaded machine do not inflate.
fn thread_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime only writes the timespec it is given, which lives here.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        let secs = u64::try_from(ts.tv_sec).ok()?;
        let nanos = u32::try_from(ts.tv_nsec).ok()?;
        (rc == 0).then(|| Duration::new(secs, nanos))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Wall time and CPU time of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Option<Duration>) {
    let cpu = thread_cpu();
    let t = Instant::now();
    let v = f();
    let wall = t.elapsed();
    let cpu = match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    (v, wall, cpu)
}

/// "12.3 ms (CPU 4.5 ms)": medians of wall and CPU times.
fn wall_cpu(wall: Vec<Duration>, cpu: Vec<Option<Duration>>) -> String {
    let cpu: Option<Vec<Duration>> = cpu.into_iter().collect();
    match cpu {
        Some(c) => format!("{:.3} ms (CPU {:.3} ms)", ms(median(wall)), ms(median(c))),
        None => format!("{:.3} ms", ms(median(wall))),
    }
}

/// The median of some durations.
fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// The figures, one line each.
pub fn bench_lines() -> Vec<String> {
    let mut out = Vec::new();
    let dir = std::env::temp_dir().join(format!("crossboard-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    out.extend(size_and_open(&dir));
    out.extend(appends(&dir));
    out.extend(pdn_lines());
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Bytes a move of a 40-game match, and the time to open it.
fn size_and_open(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let m = scripted_match(20, 80);
    let moves: usize = m.games().map(|g| g.moves.len()).sum();
    let per_move = |bytes: usize| bytes as f64 / moves.max(1) as f64;
    let text = MatchFile::new(m.clone()).to_text().unwrap_or_default();
    let pdn = write_pdn(&match_to_pdn(&m));
    let v1 = v1_text(&m, chrono::Utc::now()).unwrap_or_default();
    out.push(format!(
        "match file: {} games, {moves} moves, {} records",
        m.games().count(),
        m.log().len()
    ));
    out.push(format!(
        "  size: {} KB, {:.1} bytes a move; PDN of the same games {} KB, {:.1} bytes a move: \
         {:.2}x the PDN (format 1 was {:.1} bytes a move, {:.2}x)",
        text.len() / 1024,
        per_move(text.len()),
        pdn.len() / 1024,
        per_move(pdn.len()),
        text.len() as f64 / pdn.len().max(1) as f64,
        per_move(v1.len()),
        v1.len() as f64 / pdn.len().max(1) as f64,
    ));
    let path = dir.join("open.jsonl");
    let v1_path = dir.join("open-v1.toml");
    if std::fs::write(&path, &text).is_err() || std::fs::write(&v1_path, &v1).is_err() {
        out.push("  (cannot write the temporary files)".into());
        return out;
    }
    let runs = 15;
    let (mut open, mut open_cpu, mut ok) = (Vec::new(), Vec::new(), true);
    for _ in 0..runs {
        let (r, wall, cpu) = timed(|| MatchStore::open(&path));
        open.push(wall);
        open_cpu.push(cpu);
        ok &= r.is_ok_and(|(_, f)| f.the_match == m);
    }
    let (mut parse, mut parse_cpu) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let (_, wall, cpu) = timed(|| matchlog::parse(&text));
        parse.push(wall);
        parse_cpu.push(cpu);
    }
    let (mut v1_open, mut v1_cpu) = (Vec::new(), Vec::new());
    for _ in 0..runs.min(5) {
        let (_, wall, cpu) = timed(|| load_match(&v1_path));
        v1_open.push(wall);
        v1_cpu.push(cpu);
    }
    out.push(format!(
        "  open for play (lock, read, parse, replay every game and draw), median of {runs}: {}{}",
        wall_cpu(open, open_cpu),
        if ok { "" } else { " (FAILED)" },
    ));
    out.push(format!(
        "    of which reading the records: {}; a format 1 file of the same match: {}",
        wall_cpu(parse, parse_cpu),
        wall_cpu(v1_open, v1_cpu),
    ));
    out
}

/// The time to append one event, synced and not.
fn appends(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for durable in [true, false] {
        let path = dir.join(format!("append-{durable}.jsonl"));
        let mut store = None;
        let (mut times, mut cpus) = (Vec::new(), Vec::new());
        let mut failed = false;
        let cap = if durable { 300 } else { usize::MAX };
        scripted_match_with(4, 80, &mut |m| {
            if times.len() >= cap {
                return;
            }
            let s = store.get_or_insert_with(|| {
                let first = Match::from_log(m.settings().clone(), &m.log()[..1])
                    .map(|r| r.the_match)
                    .unwrap_or_else(|_| m.clone());
                let mut s = MatchStore::create(&path, &first).ok();
                if let Some(s) = s.as_mut() {
                    s.set_durable(durable);
                }
                s
            });
            let Some(s) = s else {
                failed = true;
                return;
            };
            let (r, wall, cpu) = timed(|| s.save(m));
            failed |= r.is_err();
            times.push(wall);
            cpus.push(cpu);
        });
        let n = times.len();
        out.push(format!(
            "append one command's events{}, median of {n}: {}{}",
            if durable {
                " (write + fdatasync)"
            } else {
                " (write, no sync)"
            },
            wall_cpu(times, cpus),
            if failed { " (FAILED)" } else { "" },
        ));
    }
    out
}

/// PDN export and import of a 24-game match.
fn pdn_lines() -> Vec<String> {
    let m = scripted_match(12, 80);
    let t = Instant::now();
    let pdn = write_pdn(&match_to_pdn(&m));
    let export = t.elapsed();
    let t = Instant::now();
    let games = read_pdn(&pdn);
    let import = t.elapsed();
    vec![
        format!(
            "PDN export: {:.1} ms for {} KB ({} games)",
            ms(export),
            pdn.len() / 1024,
            m.games().count()
        ),
        format!(
            "PDN import (parse and replay): {:.1} ms, {:.0} games/s",
            ms(import),
            games.len() as f64 / import.as_secs_f64()
        ),
    ]
}
