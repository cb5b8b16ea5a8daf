//! `crossboard perft <depth> [--fen FEN] [--divide]`.

use super::CliResult;
use crate::engine::{Position, perft, perft_divide};

/// Arguments of `crossboard perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Depth in plies.
    depth: u32,
    /// Start from this position (PDN FEN, e.g. `B:W21-32:B1-12`) instead of the standard start.
    #[arg(long)]
    fen: Option<String>,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
}

/// Run `perft`.
pub fn run(args: Args) -> CliResult {
    let pos = match &args.fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad --fen: {e}"))?,
        None => Position::start(),
    };
    if args.divide {
        let mut total = 0;
        for (mv, n) in perft_divide(&pos, args.depth) {
            println!("{mv}\t{n}");
            total += n;
        }
        println!("total\t{total}");
    } else {
        println!("{}", perft(&pos, args.depth));
    }
    Ok(())
}
