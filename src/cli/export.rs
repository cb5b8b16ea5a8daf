//! `crossboard export FILE [--out games.pdn]`: every game of a match as PDN.

use super::CliResult;
use crate::store::load_match;
use crate::store::{ExportError, default_export_path, export_match, match_pdn};
use std::path::PathBuf;

/// Arguments of `crossboard export`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The match file.
    file: PathBuf,
    /// Where to write the PDN: default the match file's name with `.pdn`; `-` for standard
    /// output.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Run `export`.
pub(super) fn run(args: Args) -> CliResult {
    let file = load_match(&args.file)?;
    let m = &file.the_match;
    let out = args.out.unwrap_or_else(|| default_export_path(&args.file));
    let fail = |e: ExportError| format!("{}: {e}", args.file.display());
    if out.as_os_str() == "-" {
        let (text, _) = match_pdn(m).map_err(fail)?;
        out!("{text}")?;
        return Ok(());
    }
    let done = export_match(m, &out, Some(&args.file)).map_err(fail)?;
    let note = match done.unfinished {
        0 => String::new(),
        n => format!(" ({n} unfinished, result *)"),
    };
    outln!("wrote {} games{note} to {}", done.games, out.display())?;
    Ok(())
}
