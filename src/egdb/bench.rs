//! `crossboard bench egdb`: build rate and probe rate, as printed lines.

use super::{Egdb, build_in_memory, plan};
use crate::engine::{Color, Position};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Build every slice of up to `pieces` pieces in memory (all cores). Returns the tables and
/// the figure as a line.
pub fn bench_build(pieces: u32) -> (Egdb, String) {
    let positions = plan(pieces).positions();
    let done = AtomicU64::new(0);
    let t = Instant::now();
    let db = build_in_memory(pieces, &|n| {
        done.fetch_add(n, Ordering::Relaxed);
    });
    let secs = t.elapsed().as_secs_f64();
    let line = format!(
        "egdb build, up to {pieces} pieces: {positions} positions ({} slices, {:.1} MiB at 2 bits) \
         in {secs:.2} s wall: {:.2} M positions/s ({} threads)",
        plan(pieces).slices().count(),
        db.table_bytes() as f64 / (1024.0 * 1024.0),
        positions as f64 / secs / 1e6,
        rayon::current_num_threads(),
    );
    (db, line)
}

/// Probe positions sampled from every slice of `db` on one thread. Returns the number of
/// probes and the figure.
pub fn bench_probe(db: &Egdb) -> (u64, String) {
    let sample = sample_positions(db, 1 << 16);
    let rounds = 100;
    let t = Instant::now();
    let mut wins = 0u64;
    for _ in 0..rounds {
        for p in &sample {
            wins += u64::from(db.probe(p) == Some(super::Wdl::Win));
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let probes = (rounds * sample.len()) as f64;
    let line = format!(
        "egdb probe: {probes} probes of {} positions in {secs:.3} s: {:.1} M probes/s \
         (one thread; {wins} wins)",
        sample.len(),
        probes / secs / 1e6
    );
    (probes as u64, line)
}

/// Positions spread over every slice of `db` (a fixed stride through each), both colours.
fn sample_positions(db: &Egdb, count: usize) -> Vec<Position> {
    let materials: Vec<_> = db.materials().collect();
    let per = count.div_ceil(materials.len().max(1));
    let mut out = Vec::with_capacity(count);
    for m in materials {
        let size = m.size();
        let stride = (size / per as u64).max(1) | 1;
        let mut i = 0;
        let mut k = 0;
        while i < size && k < per {
            if let Some(b) = m.board(i) {
                let turn = if k % 2 == 0 { Color::Red } else { Color::White };
                out.push(b.to_position(turn));
                k += 1;
            }
            i += stride;
        }
    }
    out
}
