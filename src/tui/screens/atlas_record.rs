//! The player's drill record for the 11-man atlas: per position and side, whether the player
//! last held the draw (or won) or lost against the engine, and the date. Kept in
//! `eleven-man-drill.toml` in the data folder (written atomically, with an end marker so that a
//! file cut short is refused rather than read wrong).

use crate::engine::Color;
use crate::store::{Format, LoadError, load_toml, save_toml};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file's format.
const FORMAT: Format = Format {
    version_key: "format-version",
    supported: 1,
    version_required: true,
    end_marker: Some("# end of the 11-man drill record"),
};

/// The file's name in the data folder.
pub const DRILL_FILE: &str = "eleven-man-drill.toml";

/// How a drill ended for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrillResult {
    /// Drew or won: the side is held.
    Held,
    /// Lost.
    Lost,
}

impl DrillResult {
    /// "held" or "lost".
    pub fn word(self) -> &'static str {
        match self {
            DrillResult::Held => "held",
            DrillResult::Lost => "lost",
        }
    }
}

/// The last drill of one position from one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct DrillEntry {
    /// Public id 1-2500.
    pub id: u32,
    /// The side the player took.
    pub side: Color,
    /// How it ended.
    pub result: DrillResult,
    /// When (`YYYY-MM-DD`).
    pub date: String,
}

/// The file as written.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct DrillFile {
    format_version: u32,
    #[serde(default)]
    drill: Vec<DrillEntry>,
}

/// The record: the last drill per position and side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrillRecord {
    last: BTreeMap<(u32, Color), DrillEntry>,
}

impl DrillRecord {
    /// Note a drill's end, replacing the last one of that position and side.
    pub fn note(&mut self, entry: DrillEntry) {
        self.last.insert((entry.id, entry.side), entry);
    }

    /// The last drill of `id` from `side`.
    pub fn last(&self, id: u32, side: Color) -> Option<&DrillEntry> {
        self.last.get(&(id, side))
    }

    /// Held from both sides, each time last drilled: the position is known.
    pub fn known(&self, id: u32) -> bool {
        Color::ALL.into_iter().all(|c| {
            self.last(id, c)
                .is_some_and(|e| e.result == DrillResult::Held)
        })
    }

    /// "held as Red and White", "held as Red, lost as White", "lost as White", "" (never).
    pub fn summary(&self, id: u32) -> String {
        if self.known(id) {
            return "known: held as Red and White".into();
        }
        let parts: Vec<String> = Color::ALL
            .into_iter()
            .filter_map(|c| self.last(id, c))
            .map(|e| format!("{} as {} {}", e.result.word(), e.side, e.date))
            .collect();
        parts.join(", ")
    }
}

/// Where the record is kept: beside the practice memory in the data folder.
pub fn drill_file_beside(practice_file: Option<&Path>) -> Option<PathBuf> {
    practice_file
        .and_then(Path::parent)
        .map(|d| d.join(DRILL_FILE))
}

/// Read the record: empty when there is no file; `Err` naming the file, line and key when it
/// is damaged (the caller shows it and keeps the file as it is).
pub fn load_record(path: &Path) -> Result<DrillRecord, LoadError> {
    let file: DrillFile = match load_toml(path, FORMAT) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(DrillRecord::default()),
        Err(e) => return Err(e),
    };
    let mut record = DrillRecord::default();
    for e in file.drill {
        if !(1..=crate::openings::POSITIONS).contains(&e.id) {
            return Err(LoadError::Parse {
                path: path.to_path_buf(),
                line: 0,
                column: 0,
                key: Some("drill.id".into()),
                message: format!("no 11-man position {}", e.id),
            });
        }
        record.note(e);
    }
    Ok(record)
}

/// Write the record atomically (the folder is made if needed).
pub fn save_record(path: &Path, record: &DrillRecord) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = DrillFile {
        format_version: FORMAT.supported,
        drill: record.last.values().cloned().collect(),
    };
    save_toml(path, &file, FORMAT)
}
