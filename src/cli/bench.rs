//! `crossboard bench`: speed figures, printed (never asserted in tests).

use super::CliResult;
use crate::engine::{Position, perft};
use std::time::Instant;

/// Arguments of `crossboard bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to measure.
    #[arg(value_enum, default_value = "perft")]
    what: What,
    /// Depth: perft from the start (default 12); search (default 14); analysis (default 8).
    #[arg(long)]
    depth: Option<u32>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum What {
    /// Perft from the start position on one thread, bulk counting the last ply.
    Perft,
    /// Alpha-beta search to a fixed depth on a few positions: nodes per second.
    Search,
    /// Engine analysis of all 2,500 11-man positions at a depth: time and agreement with KingsRow.
    Analysis,
    /// Building the opening tables; the man-down check of all 3,136 11-man ballots.
    Openings,
    /// Time per frame of drawing the game screen (TestBackend, 80x24 and 160x50).
    Render,
}

/// Run `bench`.
pub fn run(args: Args) -> CliResult {
    match args.what {
        What::Perft => bench_perft(args.depth.unwrap_or(12)),
        What::Search => {
            for line in crate::search::bench::bench_search(args.depth.unwrap_or(14)) {
                println!("{line}");
            }
        }
        What::Analysis => {
            let depth = args
                .depth
                .unwrap_or(crate::search::analysis::DEFAULT_BALLOT_DEPTH);
            for line in crate::search::bench::bench_analysis_report(depth) {
                println!("{line}");
            }
        }
        What::Openings => bench_openings(),
        What::Render => bench_render(),
    }
    Ok(())
}

fn bench_perft(depth: u32) {
    let pos = Position::start();
    let t = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {secs:.3} s: {:.1} M nodes/s (one thread, bulk counting)",
        nodes as f64 / secs / 1e6
    );
}

fn bench_openings() {
    use crate::openings::{self, System};
    let t = Instant::now();
    let first = openings::all_ref(System::ElevenMan).len();
    println!(
        "11-man table on first use (parse public list, {first} ballots, index): {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    for system in System::ALL {
        let t = Instant::now();
        let n = openings::build(system).len();
        println!(
            "build {:<14} {n:>5} openings in {:>7.2} ms (moves checked, man-down, ids)",
            system.key(),
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    let ballots = openings::all_ref(System::ElevenMan);
    let rounds = 20;
    let t = Instant::now();
    let mut down = 0;
    for _ in 0..rounds {
        down = ballots
            .iter()
            .filter(|o| openings::man_down(&o.position).is_some())
            .count();
    }
    let secs = t.elapsed().as_secs_f64() / f64::from(rounds);
    println!(
        "man-down check of {} ballots: {:.2} ms ({down} lose a man at once), {:.2} us per ballot",
        ballots.len(),
        secs * 1e3,
        secs * 1e6 / ballots.len() as f64
    );
    let t = Instant::now();
    let found = (1..=2500)
        .filter(|&id| openings::opening_by_public_id(id).is_ok())
        .count();
    println!(
        "lookup of all {found} public ids (after first use): {:.2} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
}

fn bench_render() {
    for ((w, h), frames, secs) in crate::tui::bench_render(2000) {
        println!(
            "render game screen {w}x{h}: {frames} frames in {secs:.3} s: {:.1} us/frame",
            secs / f64::from(frames) * 1e6
        );
    }
}
