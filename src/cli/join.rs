//! `crossboard --desk URL --board-token TOKEN` (no `--match`): a board's laptop joins the
//! round in one step. The board's pairing comes from the desk (`GET /pairing`: players and
//! colours, the round's ballots, games, rules, time control, the event's heading); the match
//! file is in the data folder under the name the desk gives its copy (event, division, round,
//! board), so the same command again resumes it. A match there whose set-up is not the desk's
//! pairing any more (the board was re-paired) is never mixed with the new one: the player is
//! told, and the new pairing starts only when asked for, the old match kept beside it.

use super::CliResult;
use crate::director::MatchSettings;
use crate::serve::{Pairing, fetch_pairing};
use crate::tui::{MatchScreen, Options, Screen, run_on};
use rand::SeedableRng;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Join the board of `token` at the desk `desk` and open its match.
pub(super) fn run(desk: &str, token: &str, options: Options) -> CliResult {
    let pairing = fetch_pairing(desk, token)?;
    let dir = options
        .matches
        .dir
        .clone()
        .ok_or("no data folder is known here: give the match file with --match")?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(&pairing.file);
    let screen = match crate::store::load_match(&path) {
        Ok(f) if f.the_match.settings() != &pairing.settings => {
            let aside = offer_new_pairing(&path, f.the_match.settings(), &pairing)?;
            let screen = new_match(&pairing, &path, &options, desk, token)?;
            say(&format!("the old match is kept as {}", aside.display()));
            screen
        }
        // Resumed (reporting, as `resume --desk` does); a damaged or locked file is asked
        // about as resume asks.
        _ if path.exists() => {
            crate::tui::resume::reopen(&path, &options.matches, Instant::now(), false)?
        }
        _ => new_match(&pairing, &path, &options, desk, token)?,
    };
    run_on(options, screen)?;
    Ok(())
}

/// The board's new match at `path`, reporting to the desk.
fn new_match(
    pairing: &Pairing,
    path: &Path,
    options: &Options,
    desk: &str,
    token: &str,
) -> Result<Screen, String> {
    let matches = crate::tui::MatchOptions {
        file: Some(path.to_path_buf()),
        ..options.matches.clone()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(options.seed);
    let now = Instant::now();
    let mut screen =
        MatchScreen::start_for_board(pairing.settings.clone(), &matches, now, &mut rng)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(network) = &options.matches.net.network {
        screen.report_to(network.as_ref(), desk, token);
    }
    Ok(Screen::Match(Box::new(screen)))
}

/// The match at `path` (set up as `had`) is not the board's pairing any more: say so, and ask
/// whether to start the new one, the old match moved aside (its new path); `Err` when not.
fn offer_new_pairing(
    path: &Path,
    had: &MatchSettings,
    pairing: &Pairing,
) -> Result<PathBuf, String> {
    let now = &pairing.settings;
    let what = if had.players == now.players {
        "its set-up (ballots, games, rules or clock) changed at the desk".to_string()
    } else {
        format!(
            "the match there is {} v {}, the desk now pairs {} v {}",
            had.players[0], had.players[1], now.players[0], now.players[1]
        )
    };
    say(&format!(
        "board {} of round {} was paired again: {what}.",
        pairing.board, pairing.round
    ));
    let aside = aside_path(path);
    let question = format!(
        "Start the new pairing? The old match is kept as {} [y/N] ",
        aside.display()
    );
    if !std::io::stdin().is_terminal() {
        return Err(format!(
            "{}: not the desk's pairing any more; run this in a terminal to start the new one",
            path.display()
        ));
    }
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "{question}");
    let _ = out.flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| e.to_string())?;
    if !answer.trim().eq_ignore_ascii_case("y") {
        return Err(format!(
            "nothing changed: the old match is still {}",
            path.display()
        ));
    }
    if aside.exists() {
        return Err(format!("{} is there already: try again", aside.display()));
    }
    std::fs::rename(path, &aside).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(aside)
}

/// Where the old match of `path` is kept: `NAME.before-YYYYMMDD-HHMMSS.jsonl` beside it.
fn aside_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let at = chrono::Utc::now().format("%Y%m%d-%H%M%S");
    path.with_file_name(format!("{stem}.before-{at}.{}", crate::store::EXTENSION))
}

/// A line on the standard output.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
