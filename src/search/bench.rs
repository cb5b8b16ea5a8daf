//! Speed figures for `crossboard bench search` (printed, never asserted).

use super::{Engine, Limits, Options};
use crate::engine::Position;
use std::time::Instant;

/// Positions the search benchmark runs on: the start, an 11-man ballot, a middle game and an
/// ending with kings.
pub const BENCH_POSITIONS: [(&str, &str); 4] = [
    ("start", "B:W21-32:B1-12"),
    (
        "11-man ballot no. 1",
        "B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12",
    ),
    (
        "middle game",
        "W:W17,18,21,22,23,25,27,29,31:B2,5,6,8,9,10,12,15,16",
    ),
    ("kings ending", "B:W14,K23,K30:B12,K6,K20"),
];

/// One line per position: depth reached, nodes, time and nodes per second at `depth`.
pub fn bench_search(depth: u32) -> Vec<String> {
    let mut lines = Vec::new();
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for (name, fen) in BENCH_POSITIONS {
        let pos = Position::from_fen(fen).unwrap_or_else(|_| Position::start());
        let mut engine = Engine::new(Options::default());
        let t = Instant::now();
        let r = engine.search_simple(&pos, Limits::depth(depth));
        let secs = t.elapsed().as_secs_f64();
        total_nodes += r.nodes;
        total_secs += secs;
        let pv: Vec<String> = r.pv.iter().take(8).map(|m| m.to_string()).collect();
        lines.push(format!(
            "{name:32} depth {:2}  score {:>10}  {:>10} nodes  {:7.3} s  {:6.2} M nodes/s  pv {}",
            r.depth,
            r.score.to_string(),
            r.nodes,
            secs,
            r.nodes as f64 / secs.max(1e-9) / 1e6,
            pv.join(" ")
        ));
    }
    lines.push(format!(
        "total: {total_nodes} nodes in {total_secs:.3} s: {:.2} M nodes/s (one thread)",
        total_nodes as f64 / total_secs.max(1e-9) / 1e6
    ));
    lines
}

/// Agreement of the engine's ballot verdicts with KingsRow's classes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Positions analysed.
    pub positions: usize,
    /// Marked by the engine (a side loses a man by force within the horizon).
    pub marked: usize,
    /// KingsRow "lost".
    pub kingsrow_lost: usize,
    /// Marked and KingsRow-lost.
    pub both: usize,
    /// Of those, the positions the at-once check (compulsory captures only) already marks.
    pub at_once: usize,
}

/// Analyse all 2,500 11-man positions at `depth` on one thread: the verdicts, the agreement
/// with KingsRow, and the time taken in seconds.
pub fn bench_analysis(depth: u32) -> (Vec<super::analysis::PositionVerdict>, Agreement, f64) {
    use super::analysis::PositionAnalyser;
    let positions = crate::openings::eleven_man_positions();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut analyser = PositionAnalyser::new(depth);
    let t = Instant::now();
    let verdicts: Vec<_> = positions
        .iter()
        .map(|p| analyser.analyse(&p.position, &stop))
        .collect();
    let secs = t.elapsed().as_secs_f64();
    let mut a = Agreement {
        positions: positions.len(),
        ..Agreement::default()
    };
    for (p, v) in positions.iter().zip(&verdicts) {
        let marked = v.loses_material.is_some();
        a.marked += usize::from(marked);
        a.kingsrow_lost += usize::from(p.kingsrow_lost);
        a.both += usize::from(marked && p.kingsrow_lost);
        a.at_once += usize::from(marked && p.kingsrow_lost && p.loses_man.is_some());
    }
    (verdicts, a, secs)
}

/// The lines `crossboard bench analysis` prints.
pub fn bench_analysis_report(depth: u32) -> Vec<String> {
    let (verdicts, a, secs) = bench_analysis(depth);
    let nodes: u64 = verdicts.iter().map(|v| v.nodes).sum();
    vec![
        format!(
            "analysed {} positions at depth {depth} (full and material-only search each) in {secs:.2} s: {:.1} ms per position, {:.2} M nodes/s (one thread)",
            a.positions,
            secs * 1000.0 / a.positions.max(1) as f64,
            nodes as f64 / secs.max(1e-9) / 1e6
        ),
        format!(
            "engine marks {} positions as losing a man by force; KingsRow classes {} lost; {} both ({} already lose a man at once)",
            a.marked, a.kingsrow_lost, a.both, a.at_once
        ),
    ]
}
