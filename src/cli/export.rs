//! `crossboard export FILE [--out games.pdn]`: every game of a match as PDN.

use super::CliResult;
use crate::store::atomic::write_atomic;
use crate::store::export::match_to_pdn;
use crate::store::matchfile::load_match;
use crate::store::pdn::write_pdn;
use std::path::PathBuf;

/// Arguments of `crossboard export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The match file.
    file: PathBuf,
    /// Where to write the PDN: default the match file's name with `.pdn`; `-` for standard
    /// output.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Run `export`.
pub fn run(args: Args) -> CliResult {
    let file = load_match(&args.file)?;
    let games = match_to_pdn(&file.the_match);
    if games.is_empty() {
        return Err(format!("{}: no game has been started yet", args.file.display()).into());
    }
    let text = write_pdn(&games);
    let out = args.out.unwrap_or_else(|| args.file.with_extension("pdn"));
    if out.as_os_str() == "-" {
        print!("{text}");
        return Ok(());
    }
    write_atomic(&out, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let unfinished = games
        .iter()
        .filter(|g| g.result.outcome().is_none())
        .count();
    let note = match unfinished {
        0 => String::new(),
        n => format!(" ({n} unfinished, result *)"),
    };
    println!("wrote {} games{note} to {}", games.len(), out.display());
    Ok(())
}
