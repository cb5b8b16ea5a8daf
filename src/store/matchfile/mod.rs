//! The match file: the match's event log, one human-readable record a line (format version 2,
//! see [`super::matchlog`]), appended and synced event by event, so a crash loses nothing
//! that was shown as done.
//!
//! Everything but the settings and the records is derived on load by replaying them
//! ([`Match::from_log`]): a record that does not follow is refused with its line and the
//! reason, and the file is left untouched. A last record cut short by a crash (a torn line, or
//! the first records of an action whose last ones never reached the disk) is dropped on load,
//! and said so ([`Dropped`]); it is cut off the file only when the match is continued.
//!
//! Version 1 files (one TOML file rewritten after every event) are still read and checked the
//! same way; once the user continues such a match it is rewritten as version 2, the original
//! kept beside it as `NAME.v1.toml`.
//!
//! A file that cannot be loaded (damaged, hand-edited wrong, from a newer crossboard) is never
//! written: a [`MatchStore`] that saves is only obtained by creating a new file, by loading the
//! existing one, or by [`MatchStore::replace_damaged`], which moves the damaged file aside
//! first.

mod listing;
mod lock;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub(crate) use listing::match_paths;
pub use listing::{default_match_dir, latest_unfinished, list_matches};
pub use lock::WriterLock;
pub use read::v1_text;
pub use write::{MatchStore, slug};

use super::matchlog;
use super::tomlfile::{Format, LoadError};
use crate::director::{Match, Phase};
use chrono::{DateTime, Utc};
use read::{is_v1_start, last_stamp, parse_error, read_v1, read_v2};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The match file's format version written by this build. Files with a higher one are refused.
pub(super) const MATCH_FILE_VERSION: u32 = matchlog::VERSION;

/// The last line of every version 1 match file.
pub const END_MARKER: &str = "# end of crossboard match file";

/// Version 1: one TOML file, rewritten after every event.
const V1_FORMAT: Format = Format {
    version_key: "format-version",
    supported: 1,
    version_required: true,
    end_marker: Some(END_MARKER),
};

/// A version 1 file as written.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct V1File {
    format_version: u32,
    saved_at: DateTime<Utc>,
    #[serde(rename = "match")]
    the_match: Match,
}

/// Records at the end of a file that are not part of the match: a crash cut the last action
/// short (a torn last line, or an action whose last records never reached the disk).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// The first line dropped (from 1).
    pub line: usize,
    /// How many records (a torn line counts as one).
    pub records: usize,
}

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.records;
        write!(
            f,
            "line {} on: {n} record{} of an action cut short by a crash, dropped (never shown as done)",
            self.line,
            if n == 1 { "" } else { "s" }
        )
    }
}

/// A match file as read.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchFile {
    /// The file's format version: [`MATCH_FILE_VERSION`], or 1 for an older file (rewritten as
    /// version 2 when the match is continued).
    pub format_version: u32,
    /// When it was last written (its last record's time).
    pub saved_at: DateTime<Utc>,
    /// The match.
    pub the_match: Match,
    /// Records dropped at the end (a crash cut the last action short), if any.
    pub dropped: Option<Dropped>,
    /// The bytes of a version 2 file that hold the match, and whether its last record lacks
    /// its newline.
    keep: (u64, bool),
}

impl MatchFile {
    /// A file holding `m` (saved at its last record's time).
    pub fn new(m: Match) -> MatchFile {
        MatchFile {
            format_version: MATCH_FILE_VERSION,
            saved_at: last_stamp(&m),
            the_match: m,
            dropped: None,
            keep: (0, false),
        }
    }

    /// The text of the file in the current format.
    pub fn to_text(&self) -> Result<String, StoreError> {
        matchlog::encode(&self.the_match).map_err(|e| StoreError::Serialize(e.to_string()))
    }

    /// Read a match file of either format from its bytes; `path` names it in messages. A
    /// byte-order mark first (an editor such as Notepad writes one) is skipped; a file whose
    /// first line is neither a record nor a version 1 file's `format-version` is not a match
    /// file, and said so at that line.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<MatchFile, LoadError> {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
        let text = &bytes[skip..];
        let first = text
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_ascii()))
            .find(|(_, l)| !l.is_empty() && !l.starts_with(b"#"));
        match first {
            Some((_, l)) if l.starts_with(b"{") => read_v2(text, path).map(|mut f| {
                // The mark stays in the file: the match's bytes start after it.
                f.keep.0 += skip as u64;
                f
            }),
            Some((line, l)) if !is_v1_start(l) => Err(parse_error(
                path,
                line,
                0,
                "not a crossboard match file (one starts with {\"format-version\":2})".into(),
            )),
            Some((line, l)) => match not_v1(text, l) {
                Some(why) => Err(parse_error(path, line, 0, why)),
                None => read_v1(text, path),
            },
            None => read_v1(text, path),
        }
    }

    /// True when `bytes` start as a match file of either format does (a JSON record, or a
    /// version 1 file's `format-version` line with the closing marker): for readers of other
    /// files to say what they were given.
    pub fn is_match_file(bytes: &[u8]) -> bool {
        let first = bytes
            .split(|&b| b == b'\n')
            .map(|l| {
                let l = l.trim_ascii();
                l.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(l)
            })
            .find(|l| !l.is_empty() && !l.starts_with(b"#"));
        match first {
            Some(l) if l.starts_with(b"{") => l.windows(16).any(|w| w == b"\"format-version\""),
            Some(l) => {
                is_v1_start(l)
                    && bytes
                        .windows(END_MARKER.len())
                        .any(|w| w == END_MARKER.as_bytes())
            }
            None => false,
        }
    }

    /// True when the match is over.
    pub fn is_finished(&self) -> bool {
        self.the_match.phase() == Phase::Finished
    }
}

/// Why a TOML file whose first line is `first` (a `format-version` line) is not a version 1
/// match file, when that can be told before reading it: a later version in TOML (those are JSON
/// lines), or the config file (its settings, and no `saved-at`).
fn not_v1(text: &[u8], first: &[u8]) -> Option<String> {
    let version = std::str::from_utf8(first)
        .ok()?
        .split_once('=')?
        .1
        .trim()
        .parse::<i64>()
        .ok()?;
    if version != 1 {
        return Some(format!(
            "`format-version = {version}` in TOML: a match file of format {version} is JSON lines, \
             starting with {{\"format-version\":{version}}}; this is not a match file crossboard wrote"
        ));
    }
    let has = |key: &[u8]| {
        text.split(|&b| b == b'\n')
            .any(|l| l.trim_ascii_start().starts_with(key))
    };
    let settings = has(b"[display]") || has(b"[engine]") || has(b"[match]");
    (settings && !has(b"saved-at")).then(|| {
        "a crossboard config file, not a match file (it holds settings and no saved match): \
         give it with --config"
            .to_string()
    })
}

/// Why a match file could not be loaded or saved.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file could not be loaded (the message names the file, the line, the problem).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Writing failed; the previous file is intact.
    #[error("cannot save {}: {source} (the previous save is intact)", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// A new match would overwrite an existing file.
    #[error("{} already exists; open it to continue that match, or choose another file", .0.display())]
    Exists(PathBuf),
    /// The match could not be turned into TOML (a bug).
    #[error("cannot write the match as TOML: {0}")]
    Serialize(String),
    /// No data directory is known on this system.
    #[error("no data directory is known here (no home directory?); use --match FILE")]
    NoDataDir,
    /// The file went away, or its folder did (a USB stick pulled out, a folder deleted).
    #[error(
        "cannot save {}: the file or its folder is gone (the whole match is written again at the next save once the folder is back)",
        .0.display()
    )]
    Gone(PathBuf),
    /// Another crossboard has the match open for play.
    #[error("{} is open in another crossboard, {holder}; it is left untouched", path.display())]
    Locked {
        /// The match file.
        path: PathBuf,
        /// Who has it: "pid 1234 since 14:05".
        holder: String,
    },
}

/// The extension of new match files (JSON lines). Files of other names are read all the same:
/// the format is told by the contents.
pub const EXTENSION: &str = "jsonl";

/// Read a match file.
pub fn load_match(path: &Path) -> Result<MatchFile, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    MatchFile::from_bytes(&bytes, path)
}
