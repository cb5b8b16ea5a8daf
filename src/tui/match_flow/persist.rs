//! Where a match is saved: the store's atomic match file, or nowhere (tests, `--no-save`).

use crate::director::Match;
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

/// The save target of a running match.
#[derive(Debug, Default)]
pub enum Saver {
    /// Not saved (headless tests that do not look at files).
    #[default]
    Off,
}

impl Saver {
    /// Write the whole match (atomically); the error as a message.
    pub fn save(&self, _m: &Match, _wall: DateTime<Utc>) -> Result<(), String> {
        match self {
            Saver::Off => Ok(()),
        }
    }

    /// The file written, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Saver::Off => None,
        }
    }
}

/// Make the save target of a new match: `file` if given (refused if it exists), else a fresh
/// file in `dir`, else nowhere.
pub fn create(
    _file: Option<&Path>,
    _dir: Option<&Path>,
    _m: &Match,
    _wall: DateTime<Utc>,
) -> Result<Saver, String> {
    Ok(Saver::Off)
}

/// Where the PDN export of a match goes: beside its file, else `crossboard-match.pdn` in
/// `dir` (or the current directory).
pub fn export_path(saver: &Saver, dir: Option<&Path>) -> PathBuf {
    match (saver.path(), dir) {
        (Some(p), _) => p.with_extension("pdn"),
        (None, Some(d)) => d.join("crossboard-match.pdn"),
        (None, None) => PathBuf::from("crossboard-match.pdn"),
    }
}

/// Write every game of `m` to `path` as PDN (atomically). Returns the number of games.
pub fn export(m: &Match, path: &Path) -> Result<usize, String> {
    let games = pdn_games(m);
    let text = crate::store::pdn::write_pdn(&games);
    crate::store::atomic::write_atomic(path, text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(games.len())
}

/// The games of a match as PDN.
fn pdn_games(m: &Match) -> Vec<crate::store::pdn::PdnGame> {
    use crate::store::pdn::{PdnGame, PdnResult};
    let s = m.settings();
    m.games()
        .map(|g| {
            let mut p = PdnGame::from_game(&g.game)
                .with_tag(
                    "Event",
                    format!("{} - {} match", s.players[0], s.players[1]),
                )
                .with_tag("Date", g.started.format("%Y.%m.%d").to_string())
                .with_tag("Round", format!("{}.{}", g.ballot, g.number))
                .with_tag("Black", g.red_name.clone())
                .with_tag("White", g.white_name.clone())
                .with_tag("Ballot", g.opening.reference());
            p.clocks = g
                .moves
                .iter()
                .map(|r| r.remaining_ms.map(|ms| ms.max(0) as u64))
                .collect();
            p.result = match &g.result {
                Some(r) => PdnResult::from(Some(r.outcome)),
                None => PdnResult::Unfinished,
            };
            p
        })
        .collect()
}
