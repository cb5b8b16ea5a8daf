//! `crossboard pdn FILE`: check a PDN file by replaying every game.

use super::CliResult;
use crate::store::{MatchFile, PdnError, PdnGame, decode, read_pdn};
use std::path::{Path, PathBuf};

/// Arguments of `crossboard pdn`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The PDN file to check.
    file: PathBuf,
}

/// Run `pdn`: one line per game; an error line for a game that does not replay. Fails (exit
/// status 1) when any game failed.
pub(super) fn run(args: Args) -> CliResult {
    let games = read_file(&args.file)?;
    let mut failed = 0;
    for (i, r) in games.iter().enumerate() {
        match r {
            Ok(g) => {
                outln!("{}", game_line(i + 1, g))?;
                for w in &g.warnings {
                    outln!("     warning: {w}")?;
                }
            }
            Err(e) => {
                failed += 1;
                outln!("{}", error_line(e))?;
            }
        }
    }
    if games.is_empty() {
        return Err(format!("{}: no games found", args.file.display()).into());
    }
    if failed > 0 {
        return Err(format!(
            "{}: {failed} of {} games did not replay",
            args.file.display(),
            games.len()
        )
        .into());
    }
    Ok(())
}

/// Every game of the PDN file at `path`, or why not one can be read (a match file is named
/// as one, with the command that makes its PDN).
pub(super) fn read_file(path: &Path) -> Result<Vec<Result<PdnGame, PdnError>>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if MatchFile::is_match_file(&bytes) {
        let file = path.display();
        return Err(format!(
            "{file} is a crossboard match file, not PDN: `crossboard export {file}` writes its games as PDN"
        ));
    }
    // Old programs write Windows-1252 names.
    Ok(read_pdn(&decode(&bytes)))
}

/// `  3  Black - White  1-0  31 plies, 16 moves  B:W...:B...`
pub(super) fn game_line(number: usize, g: &PdnGame) -> String {
    let name = |tag: &str| g.tag(tag).unwrap_or("?").to_string();
    // Games from read_pdn have been replayed already; replay again for the final position.
    let fen = match g.replay() {
        Ok(game) => game.position().to_fen(),
        Err(e) => format!("(does not replay: {e})"),
    };
    let game = match g.rules() {
        crate::engine::Rules::English => String::new(),
        rules => format!("{}  ", rules.key()),
    };
    format!(
        "{number:>3}  {game}{} - {}  {}  {}  {fen}",
        name("Black"),
        name("White"),
        g.result,
        crate::tui::plies_and_moves(g.moves.len(), g.start.turn())
    )
}

/// `  4  ERROR (A vs B) line 12: move 7... 15-19: ...`
pub(super) fn error_line(e: &PdnError) -> String {
    let players = e
        .players
        .as_ref()
        .map(|p| format!("({p}) "))
        .unwrap_or_default();
    format!("{:>3}  ERROR {players}line {}: {}", e.game, e.line, e.kind)
}
