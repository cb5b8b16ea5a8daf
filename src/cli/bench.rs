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
    /// Perft depth from the start position.
    #[arg(long, default_value_t = 12)]
    depth: u32,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum What {
    /// Perft from the start position on one thread, bulk counting the last ply.
    Perft,
    /// Time per frame of drawing the game screen (TestBackend, 80x24 and 160x50).
    Render,
}

/// Run `bench`.
pub fn run(args: Args) -> CliResult {
    match args.what {
        What::Perft => bench_perft(args.depth),
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

fn bench_render() {
    for ((w, h), frames, secs) in crate::tui::bench_render(2000) {
        println!(
            "render game screen {w}x{h}: {frames} frames in {secs:.3} s: {:.1} us/frame",
            secs / f64::from(frames) * 1e6
        );
    }
}
