//! `crossboard resume [FILE]`: reopen a saved match in the TUI exactly where it stopped, clocks
//! paused at the last committed move, every move and clock reading on screen. Without FILE: the
//! most recently saved unfinished match of the data directory.

use super::CliResult;
use crate::store::{latest_unfinished, load_match};
use crate::tui::resume::{look_at, reopen};
use crate::tui::{Options, Screen, run_on};
use std::path::PathBuf;

/// Arguments of `crossboard resume`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The match file; default: the most recently saved unfinished match in the data directory
    /// (or the `--match` file).
    file: Option<PathBuf>,
    /// Only look: no lock, nothing written, no command taken (for a match another crossboard
    /// has open).
    #[arg(long)]
    read_only: bool,
}

/// Run `resume`.
pub(super) fn run(args: Args, options: Options) -> CliResult {
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
                    errln!("crossboard: skipped {}: {e}", d.path.display());
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
    if args.read_only {
        let file = load_match(&path)?;
        let why = format!("{} opened with --read-only", path.display());
        let screen = look_at(
            file,
            &path,
            why,
            std::time::Instant::now(),
            options.matches.wall(),
        );
        run_on(options, Screen::Match(Box::new(screen)))?;
        return Ok(());
    }
    let screen = reopen(&path, &options.matches, std::time::Instant::now(), false)?;
    run_on(options, screen)?;
    Ok(())
}
