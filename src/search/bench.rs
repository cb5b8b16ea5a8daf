//! Speed figures for `crossboard bench search` (printed, never asserted).

use super::{Budget, Engine, Limits, Options};
use crate::engine::Position;
use std::time::Instant;

/// Positions the search benchmark runs on: the start, an 11-man ballot, a middle game and an
/// ending with kings.
pub(super) const BENCH_POSITIONS: [(&str, &str); 4] = [
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

/// With `options` (the search's features), one line per position (depth, nodes, wall and CPU
/// time, nodes per CPU-second) on one
/// thread, then the same searches run one per core at once (throughput of all cores), then
/// lazy SMP: each position searched with `cores` threads (time to the same depth).
/// `cpu` reads the process's CPU time in seconds (`None` where unknown).
pub fn bench_search(
    depth: u32,
    cores: usize,
    options: Options,
    cpu: &dyn Fn() -> Option<f64>,
) -> Vec<String> {
    let positions: Vec<(&str, Position)> = BENCH_POSITIONS
        .iter()
        .map(|&(name, fen)| {
            (
                name,
                Position::from_fen(fen).unwrap_or_else(|_| Position::start()),
            )
        })
        .collect();
    let mut lines = vec![format!("one thread, depth {depth}:")];
    let (mut total_nodes, mut total_secs, mut total_cpu) = (0u64, 0f64, 0f64);
    for (name, pos) in &positions {
        let mut engine = Engine::new(options);
        let c0 = cpu();
        let t = Instant::now();
        let r = engine.search_simple(pos, Limits::depth(depth));
        let secs = t.elapsed().as_secs_f64();
        let cpu_secs = c0.zip(cpu()).map_or(secs, |(a, b)| b - a).max(1e-3);
        total_nodes += r.nodes;
        total_secs += secs;
        total_cpu += cpu_secs;
        let pv: Vec<String> = r.pv.iter().take(6).map(|m| m.to_string()).collect();
        lines.push(format!(
            "  {name:22} depth {:2} {:>8} {:>9} nodes {:6.3} s wall {:6.3} s CPU {:6.2} M nodes/CPU-s  pv {}",
            r.depth,
            r.score.to_string(),
            r.nodes,
            secs,
            cpu_secs,
            r.nodes as f64 / cpu_secs / 1e6,
            pv.join(" ")
        ));
    }
    lines.push(format!(
        "  total: {total_nodes} nodes, {total_secs:.3} s wall, {total_cpu:.3} s CPU: {:.2} M nodes per CPU-second on one core ({:.2} M nodes/s wall)",
        total_nodes as f64 / total_cpu / 1e6,
        total_nodes as f64 / total_secs.max(1e-9) / 1e6
    ));
    // All cores: the same searches, one per core at once.
    let cores = cores.max(1);
    let c0 = cpu();
    let t = Instant::now();
    let nodes: u64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cores)
            .map(|_| {
                scope.spawn(|| {
                    positions
                        .iter()
                        .map(|(_, pos)| {
                            Engine::new(options)
                                .search_simple(pos, Limits::depth(depth))
                                .nodes
                        })
                        .sum::<u64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    });
    let secs = t.elapsed().as_secs_f64();
    let cpu_secs = c0.zip(cpu()).map_or(secs * cores as f64, |(a, b)| b - a);
    lines.push(format!(
        "all {cores} cores, one search each: {nodes} nodes in {secs:.3} s wall ({cpu_secs:.2} s CPU): {:.2} M nodes/s wall",
        nodes as f64 / secs.max(1e-9) / 1e6
    ));
    // Lazy SMP: one search on all cores.
    if cores > 1 {
        let mut line = format!("lazy SMP, {cores} threads, time to depth {depth}:");
        let (mut one, mut many) = (0f64, 0f64);
        for (_, pos) in &positions {
            for (threads, acc) in [(1, &mut one), (cores, &mut many)] {
                let mut engine = Engine::new(Options { threads, ..options });
                let t = Instant::now();
                let _ = engine.search_simple(pos, Limits::depth(depth));
                *acc += t.elapsed().as_secs_f64();
            }
        }
        line.push_str(&format!(
            " {one:.3} s on 1 thread, {many:.3} s on {cores} (speed-up {:.2})",
            one / many.max(1e-9)
        ));
        lines.push(line);
    }
    lines
}

/// Depth reached and time spent with `ms` a move ([`Budget::per_move`]), one thread, a fresh
/// engine for each position: the four positions above and every hundredth 11-man ballot
/// position. One line per position, then the means and the longest move (in units of the time
/// given, T).
pub fn bench_search_timed(ms: u64, options: Options) -> Vec<String> {
    let t = std::time::Duration::from_millis(ms.max(1));
    let mut positions: Vec<(String, Position)> = BENCH_POSITIONS
        .iter()
        .filter_map(|&(name, fen)| Some((name.to_string(), Position::from_fen(fen).ok()?)))
        .collect();
    positions.extend(
        crate::openings::eleven_man_positions()
            .iter()
            .step_by(100)
            .map(|p| (format!("11-man position {}", p.id), p.position)),
    );
    let mut lines = vec![format!("one thread, {ms} ms a move:")];
    let (mut depths, mut spent, mut longest) = (0u64, 0f64, 0f64);
    for (name, pos) in &positions {
        let mut engine = Engine::new(options);
        let start = Instant::now();
        let r = engine.search_simple(pos, Limits::budget(Budget::per_move(t), start));
        let used = start.elapsed().as_secs_f64() / t.as_secs_f64();
        depths += u64::from(r.depth);
        spent += used;
        longest = longest.max(used);
        lines.push(format!(
            "  {name:26} depth {:2} {:>8} {:>9} nodes {used:5.2} T",
            r.depth,
            r.score.to_string(),
            r.nodes
        ));
    }
    let n = positions.len().max(1) as f64;
    lines.push(format!(
        "  {} positions: mean depth {:.2}, mean time {:.3} T, longest {:.3} T",
        positions.len(),
        depths as f64 / n,
        spent / n,
        longest
    ));
    lines
}

/// Agreement of the engine's ballot verdicts with KingsRow's classes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Agreement {
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

/// Analyse all 2,500 11-man positions at `depth` on all cores, probing `egdb` when given: the
/// verdicts, the agreement with KingsRow, and the wall time taken in seconds.
pub(super) fn bench_analysis(
    depth: u32,
    egdb: Option<&std::sync::Arc<crate::egdb::Egdb>>,
) -> (Vec<super::analysis::PositionVerdict>, Agreement, f64) {
    let positions = crate::openings::eleven_man_positions();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let list: Vec<Position> = positions.iter().map(|p| p.position).collect();
    let t = Instant::now();
    let verdicts = super::analysis::analyse_all(&list, depth, egdb, &stop, &|_| {});
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
pub fn bench_analysis_report(
    depth: u32,
    egdb: Option<&std::sync::Arc<crate::egdb::Egdb>>,
) -> Vec<String> {
    let (verdicts, a, secs) = bench_analysis(depth, egdb);
    let nodes: u64 = verdicts.iter().map(|v| v.nodes).sum();
    vec![
        format!(
            "analysed {} positions at depth {depth} (full and material-only search each) in {secs:.2} s wall on {} threads: {:.1} ms per position, {:.2} M nodes/s",
            a.positions,
            rayon::current_num_threads(),
            secs * 1000.0 / a.positions.max(1) as f64,
            nodes as f64 / secs.max(1e-9) / 1e6
        ),
        format!(
            "engine marks {} positions as losing a man by force; KingsRow classes {} lost; {} both ({} already lose a man at once); {} marked that KingsRow holds drawn",
            a.marked,
            a.kingsrow_lost,
            a.both,
            a.at_once,
            a.marked - a.both
        ),
    ]
}
