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
    /// Depth: perft depth from the start position (default 12); search depth (default 14).
    #[arg(long)]
    depth: Option<u32>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum What {
    /// Perft from the start position on one thread, bulk counting the last ply.
    Perft,
    /// Alpha-beta search to a fixed depth on a few positions: nodes per second.
    Search,
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
