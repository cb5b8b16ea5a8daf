//! `crossboard sheets MATCH [--out DIR] [--paper a4|letter]`: a lone match on paper.

use super::CliResult;
use crate::publish::{Paper, match_sheets};
use std::path::{Path, PathBuf};

/// Arguments of `crossboard sheets`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The match file.
    #[arg(value_name = "MATCH")]
    file: PathBuf,
    /// The folder to write the sheets into (default: the match file's folder).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The paper: a4 or letter.
    #[arg(long, default_value = "a4")]
    paper: String,
}

/// Run `sheets`: write `NAME-scoresheets.html`, `NAME-slip.html` and, once the match is over,
/// `NAME-report.html`, none of them over the match file.
pub(super) fn run(args: &Args) -> CliResult {
    let paper: Paper = args.paper.parse().map_err(|e| format!("--paper: {e}"))?;
    let loaded = crate::store::load_match(&args.file)?;
    let stem = args
        .file
        .file_stem()
        .map_or("match".into(), |s| s.to_string_lossy().into_owned());
    let dir = match &args.out {
        Some(d) => d.clone(),
        None => match args.file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => Path::new(".").to_path_buf(),
        },
    };
    let sheets = match_sheets(&loaded.the_match, &stem, paper);
    let written =
        crate::store::write_outputs(&dir, &sheets.files(), &args.file, "the match file itself")?;
    for path in written {
        outln!("wrote {}", path.display())?;
    }
    if sheets.report.is_none() {
        outln!("the match is not over: its report comes when it is")?;
    }
    Ok(())
}
