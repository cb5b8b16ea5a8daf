//! What practice set-up remembers between runs: the last opening system, the opponent
//! (level, or a Hub engine of the config by its name, with its time a move) and the colour
//! the engine played, in `practice.toml` in the data folder.
//!
//! A convenience, not a record: a missing file means the defaults (the 11-Man Ballot, no
//! opponent); a damaged one is reported by [`load`] and replaced at the next save.

use super::atomic::write_atomic;
use super::pdn::{PdnGame, read_pdn};
use crate::engine::Color;
use crate::openings::System;
use crate::search::Level;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The remembered practice set-up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct PracticeMemory {
    /// The opening system chosen last (see `start_position`).
    pub system: System,
    /// The standard start position was chosen last, not a system.
    pub start_position: bool,
    /// The engine's level, if the engine was the opponent.
    pub opponent: Option<Level>,
    /// The colour the engine played.
    pub engine_colour: Color,
    /// The Hub engine of the config that was the opponent, by its name there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hub_engine: Option<String>,
    /// Its thinking time a move, milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hub_move_ms: Option<u64>,
}

impl Default for PracticeMemory {
    /// The 11-Man Ballot, both sides by hand (the engine would play White).
    fn default() -> PracticeMemory {
        PracticeMemory {
            system: System::ElevenMan,
            start_position: false,
            opponent: None,
            engine_colour: Color::White,
            hub_engine: None,
            hub_move_ms: None,
        }
    }
}

/// Where practice set-up is remembered on this machine (the data folder).
pub fn default_practice_file() -> Option<PathBuf> {
    super::config::project_dirs().map(|d| d.data_dir().join("practice.toml"))
}

/// Read the memory: the defaults when there is no file; `Err` with the reason when the file
/// cannot be read or is damaged (the caller shows it and uses the defaults).
pub fn load(path: &Path) -> Result<PracticeMemory, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(PracticeMemory::default()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Write the memory (atomically; the folder is made if needed).
pub fn save(path: &Path, memory: &PracticeMemory) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = toml::to_string(memory).map_err(|e| e.to_string())?;
    write_atomic(path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// The practice games a player kept: `practice-games.pdn` beside the practice memory file,
/// each saved game appended (as CheckerBoard appends to a game database).
pub fn games_file(practice_file: &Path) -> PathBuf {
    practice_file.with_file_name("practice-games.pdn")
}

/// Append `game` to the PDN file `path` (made, with its folder, when missing), rewriting it
/// whole and atomically so a failed write leaves the games before it as they were. Returns
/// the game's number in the file.
pub fn append_game(path: &Path, game: &PdnGame) -> Result<usize, String> {
    let shown = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(shown(&e)),
    };
    let number = read_pdn(&text).len() + 1;
    if !text.is_empty() && !text.ends_with("\n\n") {
        text.push_str(if text.ends_with('\n') { "\n" } else { "\n\n" });
    }
    text.push_str(&game.to_pdn());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_atomic(path, text.as_bytes()).map_err(|e| shown(&e))?;
    Ok(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_appended_and_numbered() {
        let dir = tempfile::tempdir().unwrap();
        let path = games_file(&dir.path().join("sub").join("practice.toml"));
        assert_eq!(path.file_name().unwrap(), "practice-games.pdn");
        let mut game = crate::engine::Game::new(
            crate::engine::Rules::English,
            crate::engine::Position::start(),
        );
        game.play_text("11-15").unwrap();
        let pdn = PdnGame::from_game(&game).with_tag("Event", "Practice");
        assert_eq!(append_game(&path, &pdn), Ok(1));
        game.play_text("23-19").unwrap();
        assert_eq!(append_game(&path, &PdnGame::from_game(&game)), Ok(2));
        let games: Vec<_> = read_pdn(&std::fs::read_to_string(&path).unwrap())
            .into_iter()
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 1);
        assert_eq!(games[0].tag("Event"), Some("Practice"));
        assert_eq!(games[1].moves.len(), 2);
    }

    #[test]
    fn remembers_and_defaults_to_the_eleven_man_ballot() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("practice.toml");
        assert_eq!(load(&path), Ok(PracticeMemory::default()));
        let m = PracticeMemory {
            system: System::ThreeMove,
            start_position: false,
            opponent: Some(Level::Club),
            engine_colour: Color::Red,
            hub_engine: Some("kingsrow".into()),
            hub_move_ms: Some(2_000),
        };
        save(&path, &m).unwrap();
        assert_eq!(load(&path), Ok(m.clone()));
        let start = PracticeMemory {
            start_position: true,
            ..PracticeMemory::default()
        };
        save(&path, &start).unwrap();
        assert_eq!(
            load(&path),
            Ok(start),
            "the start position is remembered too"
        );
        std::fs::write(&path, "system = 3\n").unwrap();
        assert!(load(&path).unwrap_err().contains("practice.toml"));
    }
}
