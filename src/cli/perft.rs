//! `crossboard perft <depth> [--game GAME] [--fen FEN] [--divide]`.

use super::CliResult;
use crate::engine::{PERFT_MAX_DEPTH, Position, Rules, perft, perft_divide};

/// Arguments of `crossboard perft`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Depth in plies.
    depth: u32,
    /// Start from this position (PDN FEN, e.g. `B:W21-32:B1-12`) instead of the standard start.
    #[arg(long)]
    fen: Option<String>,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
    /// The game: english (default), pool, huffing or losing.
    #[arg(long, default_value = "english")]
    game: Rules,
}

/// Run `perft`.
pub(super) fn run(args: Args) -> CliResult {
    super::in_range("the depth", args.depth, 0..=PERFT_MAX_DEPTH)?;
    let pos = match &args.fen {
        Some(f) => Position::from_fen_in(args.game, f).map_err(|e| format!("bad --fen: {e}"))?,
        None => Position::start_in(args.game),
    };
    if args.divide {
        let mut total = 0;
        for (mv, n) in perft_divide(&pos, args.depth) {
            outln!("{mv}\t{n}")?;
            total += n;
        }
        outln!("total\t{total}")?;
    } else {
        outln!("{}", perft(&pos, args.depth))?;
    }
    Ok(())
}
