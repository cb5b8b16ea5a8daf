//! `crossboard --desk URL --board-token TOKEN` (no `--match`; the token or the board's code):
//! a board's laptop joins the round in one step, as the home screen's *Join a board* does
//! ([`crate::tui::open_board`]): the board's pairing from the desk (`GET /pairing`), its match
//! file in the data folder under the name the desk gives its copy, so the same command again
//! resumes it, and a board paired again asked about inside the screen before its match.

use super::CliResult;
use crate::serve::fetch_pairing;
use crate::tui::{Options, open_board, run_on};
use rand::SeedableRng;
use std::time::Instant;

/// Join the board of `token` at the desk `desk` and open its match.
pub(super) fn run(desk: &str, token: &str, options: Options) -> CliResult {
    let pairing = fetch_pairing(desk, token)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(options.seed);
    let screen = open_board(
        pairing,
        desk,
        token,
        &options.matches,
        Instant::now(),
        &mut rng,
    )?;
    run_on(options, screen)?;
    Ok(())
}
