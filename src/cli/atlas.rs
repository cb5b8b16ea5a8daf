//! `crossboard openings eleven-man --atlas --out FILE [--depth N] [--threads N] [--ids A-B]`:
//! builds the 11-man atlas (`assets/eleven_man_atlas.tsv`, read by `openings::eleven_man_atlas`).
//!
//! Reproducible bit for bit: every position is searched to a fixed depth by one search thread
//! from a cleared table, without endgame databases, so the file depends on neither the number
//! of threads (positions run side by side on a rayon pool; the lines come back in id order),
//! nor the machine's speed, nor the data folder.

use crate::openings::{ATLAS_HEADER, AtlasEntry, eleven_man_positions};
use crate::search::{Engine, Limits, Options};
use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The depth the shipped atlas is searched to.
pub(super) const ATLAS_DEPTH: u32 = 12;

/// Parse `A-B` (or `A`) into a range of public ids within 1-2500.
pub(super) fn parse_ids(text: &str) -> Result<RangeInclusive<u32>, String> {
    let max = crate::openings::POSITIONS;
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let n = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=max).contains(n))
    };
    match (n(a), n(b)) {
        (Some(a), Some(b)) if a <= b => Ok(a..=b),
        _ => Err(format!("ids {text:?}: give A-B with 1 <= A <= B <= {max}")),
    }
}

/// The atlas lines of positions `ids` at `depth`, on a pool of `threads` threads, in id order.
/// `progress` is called with the positions done so far.
pub(super) fn atlas_entries(
    ids: RangeInclusive<u32>,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<AtlasEntry>, String> {
    use rayon::prelude::*;
    let positions = eleven_man_positions();
    let chosen: Vec<_> = positions.iter().filter(|p| ids.contains(&p.id)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("no thread pool: {e}"))?;
    let done = AtomicUsize::new(0);
    let options = Options {
        threads: 1,
        ..Options::default()
    };
    Ok(pool.install(|| {
        chosen
            .par_iter()
            .map_init(
                || Engine::new(options),
                |engine, p| {
                    engine.clear();
                    let r = engine.search_simple(&p.position, Limits::depth(depth));
                    // Red is to move in every 11-man position: the score is Red's.
                    let entry = AtlasEntry::new(p.id, r.score.0, r.depth, r.pv);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    entry
                },
            )
            .collect()
    }))
}

/// The asset's text: comment lines saying how it was made, the header, one line per position.
pub(super) fn atlas_text(entries: &[AtlasEntry], depth: u32) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The 11-man atlas: crossboard's verdict on each of the 2,500 positions (Red to move)."
    );
    let _ = writeln!(
        out,
        "# Made by `crossboard openings eleven-man --atlas --depth {depth} --out FILE`: a fixed depth, one search thread and a cleared table per position, no endgame databases."
    );
    let _ = writeln!(
        out,
        "# red_score: hundredths of a man from Red's side (a forced result is +-(30000 - plies)); verdict: see docs/eleven-man-atlas.md."
    );
    out.push_str(ATLAS_HEADER);
    out.push('\n');
    for e in entries {
        out.push_str(&e.to_line());
        out.push('\n');
    }
    out
}

/// Build the atlas of `ids` into `out`, saying on stderr how long it took (wall and CPU).
pub(super) fn build(
    out: &Path,
    ids: RangeInclusive<u32>,
    depth: u32,
    threads: usize,
) -> super::CliResult {
    let total = (ids.end() - ids.start() + 1) as usize;
    let t = Instant::now();
    let entries = atlas_entries(ids, depth, threads, &|n| {
        if n % 100 == 0 || n == total {
            errln!("analysed {n} of {total} positions");
        }
    })?;
    let wall = t.elapsed().as_secs_f64();
    crate::store::write_atomic(out, atlas_text(&entries, depth).as_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    errln!(
        "{total} positions at depth {depth} on {threads} threads: {wall:.1} s wall; written to {}",
        out.display()
    );
    Ok(())
}
