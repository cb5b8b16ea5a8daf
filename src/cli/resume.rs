//! `crossboard resume [FILE]`: reopen a saved match in the TUI exactly where it stopped, clocks
//! paused at the last committed move, every move and clock reading on screen. Without FILE: the
//! most recently saved unfinished match of the data directory.

use super::CliResult;
use crate::store::matchfile::latest_unfinished;
use crate::tui::match_flow::MatchScreen;
use crate::tui::{Options, Screen, run_on};
use std::path::PathBuf;

/// Arguments of `crossboard resume`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The match file; default: the most recently saved unfinished match in the data directory
    /// (or the `--match` file).
    file: Option<PathBuf>,
}

/// Run `resume`.
pub fn run(args: Args, options: Options) -> CliResult {
    let path = match args.file.or_else(|| options.matches.file.clone()) {
        Some(p) => p,
        None => {
            let dir = options
                .matches
                .dir
                .clone()
                .ok_or("no data directory is known here: give the match file")?;
            let found = latest_unfinished(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let (latest, damaged) = (found.latest, found.damaged);
            for d in &damaged {
                if let Err(e) = &d.file {
                    eprintln!("crossboard: skipped {}: {e}", d.path.display());
                }
            }
            match latest {
                Some((p, _)) => p,
                None => {
                    return Err(format!("no unfinished match in {}", dir.display()).into());
                }
            }
        }
    };
    let screen = MatchScreen::open_saved(&path, std::time::Instant::now(), options.matches.wall())?;
    run_on(options, Some(Screen::Match(Box::new(screen))))?;
    Ok(())
}
