//! The set-up form's memory: the settings of the last match started on it, in
//! `last-match.toml` in the data folder, so that a day of matches is set up once.
//!
//! A small file of its own rather than the newest match file read back: the form's last
//! choices are not the state of any match (a match may be played from a desk pairing, saved
//! outside the data folder with `--match`, or deleted), and opening the form reads one small
//! file instead of searching the match folder. It is a convenience, not a record: a missing
//! file means the config's defaults; a damaged one is named on the form and replaced by the
//! next match started.

use super::config::project_dirs;
use super::tomlfile::{Format, LoadError, load_toml, save_toml};
use crate::director::MatchSettings;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file's format.
const FORMAT: Format = Format {
    version_key: "format-version",
    supported: 1,
    version_required: true,
    end_marker: Some("# end of last-match settings"),
};

/// What the file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct LastMatch {
    format_version: u32,
    /// The settings of the last match started on the set-up form, players' names included.
    #[serde(rename = "match")]
    settings: MatchSettings,
}

/// Where the last match's settings are kept on this machine (the data folder).
pub fn default_last_settings_file() -> Option<PathBuf> {
    project_dirs().map(|d| d.data_dir().join("last-match.toml"))
}

/// The last match's settings: `Ok(None)` when there is no file; `Err` (naming the file, the
/// line and the key) when it is damaged or its settings are refused.
pub fn load_last_settings(path: &Path) -> Result<Option<MatchSettings>, LoadError> {
    let last: LastMatch = match load_toml(path, FORMAT) {
        Ok(last) => last,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e),
    };
    last.settings.validate().map_err(|e| LoadError::Parse {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        key: Some("match".into()),
        message: e.to_string(),
    })?;
    Ok(Some(last.settings))
}

/// Remember `settings` (atomically; the folder is made if needed). A desk's given ballots
/// belong to that board's match and are not kept.
pub fn save_last_settings(path: &Path, settings: &MatchSettings) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut settings = settings.clone();
    settings.given_ballots.clear();
    let last = LastMatch {
        format_version: FORMAT.supported,
        settings,
    };
    save_toml(path, &last, FORMAT)
}
