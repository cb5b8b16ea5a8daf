//! Reading a match file: a version 2 log replayed record by record (refused at the line of
//! the first that does not follow, a torn end dropped), or a version 1 TOML file.

use super::{Dropped, MATCH_FILE_VERSION, MatchFile, StoreError, V1_FORMAT, V1File};
use crate::director::Match;
use crate::store::matchlog;
use crate::store::tomlfile::{LoadError, parse_toml_strict};
use chrono::{DateTime, Utc};
use std::path::Path;

/// The first line of a version 1 file: `format-version = N`.
pub(super) fn is_v1_start(line: &[u8]) -> bool {
    line.strip_prefix(V1_FORMAT.version_key.as_bytes())
        .is_some_and(|rest| rest.trim_ascii_start().starts_with(b"="))
}

pub(super) fn last_stamp(m: &Match) -> DateTime<Utc> {
    m.log().last().map(|e| e.at).unwrap_or_default()
}

pub(super) fn parse_error(path: &Path, line: usize, column: usize, message: String) -> LoadError {
    LoadError::Parse {
        path: path.to_path_buf(),
        line,
        column,
        key: None,
        message,
    }
}

pub(super) fn read_v2(bytes: &[u8], path: &Path) -> Result<MatchFile, LoadError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, column) = crate::store::tomlfile::line_col(bytes, e.valid_up_to());
            let msg = "not UTF-8 text: the file is damaged".to_string();
            return Err(parse_error(path, line, column, msg));
        }
    };
    let parsed = matchlog::parse(text).map_err(|e| match e.newer {
        Some(found) => LoadError::Newer {
            path: path.to_path_buf(),
            found,
            supported: MATCH_FILE_VERSION,
        },
        None => parse_error(path, e.line, e.column, e.message),
    })?;
    let replayed = Match::from_log(parsed.settings, &parsed.entries).map_err(|e| {
        let line = parsed.lines.get(e.index).copied().unwrap_or(2);
        let line = if e.index == 0 && !matches!(e.reason, crate::director::LogRefusal::NoStart) {
            2 // the settings
        } else {
            line
        };
        parse_error(path, line, 0, e.to_string())
    })?;
    if let Some(e) = parsed.backwards {
        return Err(parse_error(path, e.line, e.column, e.message));
    }
    let applied = parsed.entries.len() - replayed.dropped;
    let dropped = match (&parsed.torn, replayed.dropped) {
        (None, 0) => None,
        (torn, n) => Some(Dropped {
            line: parsed
                .lines
                .get(applied)
                .copied()
                .or(torn.as_ref().map(|t| t.line))
                .unwrap_or(0),
            records: n + usize::from(torn.is_some()),
        }),
    };
    let end = parsed
        .ends
        .get(applied.wrapping_sub(1))
        .copied()
        .unwrap_or(0);
    let unterminated = replayed.dropped == 0 && parsed.unterminated;
    let m = replayed.the_match;
    Ok(MatchFile {
        format_version: MATCH_FILE_VERSION,
        saved_at: last_stamp(&m),
        the_match: m,
        dropped,
        keep: (end as u64, unterminated),
    })
}

pub(super) fn read_v1(bytes: &[u8], path: &Path) -> Result<MatchFile, LoadError> {
    let file: V1File = parse_toml_strict(bytes, path, V1_FORMAT).map_err(|e| match e {
        LoadError::Newer { path, found, .. } if found <= i64::from(MATCH_FILE_VERSION) => {
            LoadError::Parse {
                path,
                line: 1,
                column: 0,
                key: Some(V1_FORMAT.version_key.into()),
                message: format!(
                    "a format version {found} file is JSON lines, not TOML: the file is damaged"
                ),
            }
        }
        e => e,
    })?;
    Ok(MatchFile {
        format_version: 1,
        saved_at: file.saved_at,
        the_match: file.the_match,
        dropped: None,
        keep: (0, false),
    })
}

/// The text of a version 1 file holding `m` (for tests of the migration).
pub fn v1_text(m: &Match, saved_at: DateTime<Utc>) -> Result<String, StoreError> {
    let file = V1File {
        format_version: 1,
        saved_at,
        the_match: m.clone(),
    };
    crate::store::tomlfile::to_toml(&file, V1_FORMAT)
        .map_err(|e| StoreError::Serialize(e.to_string()))
}
