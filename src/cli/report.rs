//! `crossboard report FILE`: a board's match file sent to the desk without the match screen,
//! by the same reporter the screen runs with `--desk` (see [`crate::serve::report`]), until the
//! match is over and the desk has every line, or Ctrl-C. For a board played without a screen,
//! or for the director sending a board's file after its laptop was offline when the game ended.

use super::CliResult;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Arguments of `crossboard report`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The board's match file.
    file: PathBuf,
}

/// How often the file and the desk's count are compared.
const LOOK: Duration = Duration::from_millis(200);

/// Run `report` with the global `--desk` and `--board-token`. A refusal of the desk ends it
/// with its reason (what the desk refuses, sent again unchanged, it refuses again).
pub(super) fn run(args: &Args, desk: Option<&str>, token: Option<&str>) -> CliResult {
    let (Some(desk), Some(token)) = (desk, token) else {
        return Err("report needs the desk and the board's token: \
                    crossboard report --desk http://DESK:8080 --board-token TOKEN FILE"
            .into());
    };
    let file = args.file.as_path();
    crate::store::load_match(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let interrupted = on_interrupt();
    let reporter = crate::serve::report(desk, token, file);
    say(&format!(
        "reporting {} to {desk} until the match is over (Ctrl-C stops)",
        file.display()
    ));
    let mut told = String::new();
    loop {
        if interrupted.load(Ordering::Relaxed) {
            drop(reporter);
            say("stopped (Ctrl-C)");
            return Ok(());
        }
        let link = reporter.link();
        if let crate::serve::LinkState::Refused { refusal, .. } = &link {
            drop(reporter);
            return Err(format!("{}: {}", file.display(), refusal.words()).into());
        }
        if let Some(lines) = link.acknowledged().and_then(|have| over(file, have)) {
            say(&format!(
                "the match is over and the desk has all {lines} lines"
            ));
            return Ok(());
        }
        if let crate::serve::LinkState::Unreachable { why, .. } = &link
            && *why != told
        {
            say(&format!("the desk cannot be reached ({why}): trying again"));
            told.clone_from(why);
        }
        std::thread::sleep(LOOK);
    }
}

/// The file's line count when the match in it is over and the desk has `have` lines, all of
/// them.
fn over(file: &Path, have: usize) -> Option<usize> {
    let bytes = std::fs::read(file).ok()?;
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    if have < lines {
        return None;
    }
    let read = crate::store::MatchFile::from_bytes(&bytes, file).ok()?;
    (read.the_match.phase() == crate::director::Phase::Finished).then_some(lines)
}

/// A flag set when the process is interrupted (Ctrl-C); never set where that cannot be
/// watched (Ctrl-C then stops the process as usual).
fn on_interrupt() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = Arc::clone(&flag);
    if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        std::thread::spawn(move || {
            if rt.block_on(tokio::signal::ctrl_c()).is_ok() {
                set.store(true, Ordering::Relaxed);
            }
        });
    }
    flag
}

/// A line on the standard output (a closed one does not stop the reporting).
fn say(line: &str) {
    super::stdout::write_lossy(format_args!("{line}\n"));
}
