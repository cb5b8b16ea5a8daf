//! TOML files with a format version, whose errors name the file, the line and the key; saved
//! with [`write_atomic`].

use super::atomic::write_atomic;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a TOML file could not be loaded. Every message names the file; parse errors name the
/// line (and the key, where there is one).
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The text is not valid TOML, or a key or value is wrong.
    #[error("{}", ParseDisplay(self))]
    Parse {
        /// The file.
        path: PathBuf,
        /// Line of the problem, from 1 (0 when unknown).
        line: usize,
        /// Column, from 1 (0 when unknown).
        column: usize,
        /// The key at the problem, as a dotted path (`display.colours.red`), when known.
        key: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// The file says it was written by a newer crossboard.
    #[error(
        "{} was written by a newer crossboard (format version {found}; this one reads up to \
         {supported}); it is left untouched: update crossboard to open it",
        path.display()
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its format version.
        found: i64,
        /// The newest this build reads.
        supported: u32,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::Io { path, .. }
            | LoadError::Parse { path, .. }
            | LoadError::Newer { path, .. } => path,
        }
    }

    /// The line of a parse error (from 1).
    pub fn line(&self) -> Option<usize> {
        match self {
            LoadError::Parse { line, .. } if *line > 0 => Some(*line),
            _ => None,
        }
    }

    /// True when the file does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, LoadError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

struct ParseDisplay<'a>(&'a LoadError);

impl fmt::Display for ParseDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LoadError::Parse {
            path,
            line,
            column,
            key,
            message,
        } = self.0
        else {
            return Ok(());
        };
        write!(f, "{}", path.display())?;
        if *line > 0 {
            write!(f, ":{line}")?;
            if *column > 0 {
                write!(f, ":{column}")?;
            }
        }
        f.write_str(": ")?;
        if let Some(k) = key {
            write!(f, "key `{k}`: ")?;
        }
        f.write_str(message)
    }
}

/// What a kind of TOML file must look like: its format version rule and its end marker.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// The key holding the version (`format-version`).
    pub version_key: &'static str,
    /// The newest version this build reads (and writes).
    pub supported: u32,
    /// Whether a file without a format version is refused.
    pub version_required: bool,
    /// A comment line written last; a file without it was cut short and is refused (a cut
    /// inside the last value could otherwise still parse, with a wrong value).
    pub end_marker: Option<&'static str>,
}

/// Read and parse a versioned TOML file.
pub fn load_toml<T: DeserializeOwned>(path: &Path, format: Format) -> Result<T, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_toml_bytes(&bytes, path, format)
}

/// Parse versioned TOML held in memory; `path` is only used in messages.
pub(super) fn parse_toml_bytes<T: DeserializeOwned>(
    bytes: &[u8],
    path: &Path,
    format: Format,
) -> Result<T, LoadError> {
    parse_inner(bytes, path, format, |_| {})
}

/// The value, with `ignored` called on the path of every key of the file that the type does
/// not read.
fn parse_inner<T: DeserializeOwned>(
    bytes: &[u8],
    path: &Path,
    format: Format,
    mut ignored: impl FnMut(serde_ignored::Path<'_>),
) -> Result<T, LoadError> {
    let parse_err =
        |line: usize, column: usize, key: Option<String>, message: String| LoadError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            key,
            message,
        };
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, column) = line_col(bytes, e.valid_up_to());
            return Err(parse_err(
                line,
                column,
                None,
                "not UTF-8 text: the file is damaged".into(),
            ));
        }
    };
    if text.trim().is_empty() {
        return Err(parse_err(
            0,
            0,
            None,
            "the file is empty (truncated by a crash or a full disk?)".into(),
        ));
    }
    if let Some(marker) = format.end_marker
        && text.trim_end().lines().next_back().map(str::trim) != Some(marker)
    {
        let (line, _) = line_col(bytes, text.trim_end().len());
        return Err(parse_err(
            line,
            0,
            None,
            format!("the file is cut short: its last line should be {marker:?}"),
        ));
    }
    // First the syntax and the version, so a newer file is refused rather than misread.
    let table: toml::Table = toml::from_str(text).map_err(|e| toml_error(text, &e, path))?;
    let vkey = format.version_key;
    match table.get(vkey) {
        None if format.version_required => {
            return Err(parse_err(
                1,
                0,
                Some(vkey.into()),
                "missing: this is not a crossboard file, or its beginning is lost".into(),
            ));
        }
        None => {}
        Some(toml::Value::Integer(v)) => {
            if *v > i64::from(format.supported) {
                return Err(LoadError::Newer {
                    path: path.to_path_buf(),
                    found: *v,
                    supported: format.supported,
                });
            }
            if *v < 1 {
                let line = key_line(text, vkey);
                return Err(parse_err(
                    line,
                    0,
                    Some(vkey.into()),
                    format!("{v} is not a format version (they start at 1)"),
                ));
            }
        }
        Some(other) => {
            let line = key_line(text, vkey);
            return Err(parse_err(
                line,
                0,
                Some(vkey.into()),
                format!("expected a whole number, found {other}"),
            ));
        }
    }
    // Deserialise from the table already parsed; on error parse the text again for the
    // error's position.
    match serde_ignored::deserialize(table, &mut ignored) {
        Ok(v) => Ok(v),
        Err(_) => toml::de::Deserializer::parse(text)
            .and_then(|de| serde_ignored::deserialize(de, &mut ignored))
            .map_err(|e| toml_error(text, &e, path)),
    }
}

/// [`parse_toml_bytes`], and also refuse any key the type does not know, even in nested
/// types that do not deny unknown fields themselves: every key the deserialiser passes over
/// (as `serde_ignored` reports them) is an error, named with its line.
pub(super) fn parse_toml_strict<T: DeserializeOwned>(
    bytes: &[u8],
    path: &Path,
    format: Format,
) -> Result<T, LoadError> {
    let mut unknown: Option<Vec<KeyStep>> = None;
    let value = parse_inner(bytes, path, format, |ignored| {
        let steps = steps_of(&ignored);
        let version = matches!(steps.as_slice(), [KeyStep::Key(k)] if k == format.version_key);
        if unknown.is_none() && !version {
            unknown = Some(steps);
        }
    })?;
    let Some(steps) = unknown else {
        return Ok(value);
    };
    let key: Vec<&str> = steps
        .iter()
        .filter_map(|s| match s {
            KeyStep::Key(k) => Some(k.as_str()),
            KeyStep::Index(_) => None,
        })
        .collect();
    Err(LoadError::Parse {
        path: path.to_path_buf(),
        line: step_line(&String::from_utf8_lossy(bytes), &steps),
        column: 0,
        key: Some(key.join(".")),
        message: "unknown key (misspelt, or in the wrong table?)".to_string(),
    })
}

/// One step of the way to a key of a TOML file: a table's key, or an index in an array (of
/// tables).
enum KeyStep {
    Key(String),
    Index(usize),
}

/// The steps from the top of the file to the key at `path`.
fn steps_of(path: &serde_ignored::Path<'_>) -> Vec<KeyStep> {
    use serde_ignored::Path;
    let mut steps = match path {
        Path::Root => return Vec::new(),
        Path::Seq { parent, .. }
        | Path::Map { parent, .. }
        | Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => steps_of(parent),
    };
    match path {
        Path::Seq { index, .. } => steps.push(KeyStep::Index(*index)),
        Path::Map { key, .. } => steps.push(KeyStep::Key(key.clone())),
        _ => {}
    }
    steps
}

/// The line of the key `steps` lead to, from the spans toml keeps of each key (its
/// `[header]` line for a table); 0 when the text does not hold it.
fn step_line(text: &str, steps: &[KeyStep]) -> usize {
    use toml::de::{DeTable, DeValue};
    let Ok(doc) = DeTable::parse(text) else {
        return 0;
    };
    let root = DeValue::Table(doc.into_inner());
    let mut here = &root;
    let mut line = 0;
    for step in steps {
        let next = match (step, here) {
            (KeyStep::Key(k), DeValue::Table(t)) => t
                .iter()
                .find(|(key, _)| key.get_ref().as_ref() == k.as_str())
                .map(|(key, value)| {
                    line = line_col(text.as_bytes(), key.span().start).0;
                    value
                }),
            (KeyStep::Index(i), DeValue::Array(a)) => a.get(*i),
            _ => None,
        };
        match next {
            Some(value) => here = value.get_ref(),
            None => break,
        }
    }
    line
}

/// The line of the key at the dotted `path` (`["preset", "Club night", "ballots"]`): the
/// key's own line, or its `[header]` line for a table; 0 when the text does not hold it.
pub(super) fn key_path_line(text: &str, path: &[&str]) -> usize {
    let steps: Vec<KeyStep> = path
        .iter()
        .map(|k| KeyStep::Key((*k).to_string()))
        .collect();
    step_line(text, &steps)
}

/// Serialise to TOML (with the format's end marker) and write atomically.
pub fn save_toml<T: Serialize>(path: &Path, value: &T, format: Format) -> io::Result<()> {
    write_atomic(path, to_toml(value, format)?.as_bytes())
}

/// The text [`save_toml`] writes.
pub fn to_toml<T: Serialize>(value: &T, format: Format) -> io::Result<String> {
    let mut text = toml::to_string_pretty(value).map_err(io::Error::other)?;
    if let Some(marker) = format.end_marker {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
        text.push_str(marker);
        text.push('\n');
    }
    Ok(text)
}

/// A toml error with its byte span turned into a line, a column and the key there.
fn toml_error(text: &str, e: &toml::de::Error, path: &Path) -> LoadError {
    let (line, column, key) = match e.span() {
        Some(span) => {
            let (l, c) = line_col(text.as_bytes(), span.start);
            // A missing field is reported on its table, not on a key of that table.
            let key = if e.message().starts_with("missing field") {
                None
            } else {
                key_at(text, span.start)
            };
            (l, c, key)
        }
        None => (0, 0, None),
    };
    LoadError::Parse {
        path: path.to_path_buf(),
        line,
        column,
        key,
        message: e.message().trim().to_string(),
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(super) fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// The line of the first `key = ...` at the top level.
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with('='))
        })
        .map_or(0, |i| i + 1)
}

/// The dotted key path at a byte offset: the nearest `[table]` header above it joined with the
/// key of the `key = value` line the offset is on (or the header itself).
fn key_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[line_start..line_end].trim();
    if let Some(h) = header(line) {
        return Some(h);
    }
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('#'));
    let table = text[..line_start]
        .lines()
        .rev()
        .find_map(|l| header(l.trim()));
    match (table, key) {
        (Some(t), Some(k)) => Some(format!("{t}.{k}")),
        (None, Some(k)) => Some(k),
        (Some(t), None) => Some(t),
        (None, None) => None,
    }
}

/// The name of a `[table]` or `[[array]]` header line.
fn header(line: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?;
    let inner = inner.strip_prefix('[').unwrap_or(inner);
    let end = inner.find(']')?;
    let name = inner[..end].trim();
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        format_version: u32,
        name: String,
        inner: Inner,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        count: u32,
    }

    const V: Format = Format {
        version_key: "format_version",
        supported: 2,
        version_required: true,
        end_marker: None,
    };

    fn parse(text: &str) -> Result<Doc, LoadError> {
        parse_toml_bytes(text.as_bytes(), Path::new("doc.toml"), V)
    }

    #[test]
    fn good_file_loads() {
        let d = parse("format_version = 2\nname = \"x\"\n[inner]\ncount = 3\n").unwrap();
        assert_eq!(d.inner.count, 3);
    }

    #[test]
    fn bad_value_names_line_and_key() {
        let e =
            parse("format_version = 1\nname = \"x\"\n\n[inner]\ncount = \"three\"\n").unwrap_err();
        assert_eq!(e.line(), Some(5));
        let msg = e.to_string();
        assert!(msg.starts_with("doc.toml:5:"), "{msg}");
        assert!(msg.contains("key `inner.count`"), "{msg}");
    }

    #[test]
    fn unknown_key_names_it() {
        let e = parse("format_version = 1\nname = \"x\"\n[inner]\ncount = 1\ncolour = 2\n")
            .unwrap_err();
        assert_eq!(e.line(), Some(5), "{e}");
        assert!(e.to_string().contains("colour"), "{e}");
    }

    #[test]
    fn syntax_error_line() {
        let e = parse("format_version = 1\nname = \"x\n[inner]\n").unwrap_err();
        assert_eq!(e.line(), Some(2), "{e}");
    }

    #[test]
    fn versions() {
        let e = parse("format_version = 3\nname = 5\n").unwrap_err();
        assert!(matches!(e, LoadError::Newer { found: 3, .. }), "{e}");
        assert!(e.to_string().contains("newer crossboard"), "{e}");
        let e = parse("name = \"x\"\n[inner]\ncount = 1\n").unwrap_err();
        assert!(e.to_string().contains("format_version"), "{e}");
        let e = parse("format_version = \"1\"\n").unwrap_err();
        assert_eq!(e.line(), Some(1), "{e}");
        let e = parse("format_version = 0\n").unwrap_err();
        assert!(e.to_string().contains("start at 1"), "{e}");
    }

    #[test]
    fn end_marker() {
        let f = Format {
            end_marker: Some("# end"),
            ..V
        };
        let ok = "format_version = 1\nname = \"x\"\n[inner]\ncount = 12\n\n# end\n";
        let p = Path::new("m.toml");
        assert!(parse_toml_bytes::<Doc>(ok.as_bytes(), p, f).is_ok());
        let cut = &ok[..ok.len() - 9];
        let e = parse_toml_bytes::<Doc>(cut.as_bytes(), p, f).unwrap_err();
        assert_eq!(e.line(), Some(4), "{e}");
        assert!(e.to_string().contains("cut short"), "{e}");
    }

    #[test]
    fn strict_finds_unknown_keys_in_lenient_types() {
        #[derive(Debug, serde::Serialize, Deserialize, PartialEq, Default)]
        #[serde(default)]
        struct Lenient {
            a: u32,
            list: Vec<Item>,
        }
        #[derive(Debug, serde::Serialize, Deserialize, PartialEq, Default)]
        struct Item {
            n: u32,
        }
        let p = Path::new("s.toml");
        let f = Format {
            version_key: "format_version",
            supported: 1,
            version_required: false,
            end_marker: None,
        };
        let ok = "a = 1\n[[list]]\nn = 1\n[[list]]\nn = 2\n";
        assert_eq!(
            parse_toml_strict::<Lenient>(ok.as_bytes(), p, f)
                .unwrap()
                .list
                .len(),
            2
        );
        let bad = "a = 1\n[[list]]\nn = 1\n[[list]]\nn = 2\nm = 3\n";
        let e = parse_toml_strict::<Lenient>(bad.as_bytes(), p, f).unwrap_err();
        assert_eq!(e.line(), Some(6), "{e}");
        assert!(e.to_string().contains("key `list.m`"), "{e}");
        let bad = "a = 1\nb = 2\n";
        let e = parse_toml_strict::<Lenient>(bad.as_bytes(), p, f).unwrap_err();
        assert_eq!(e.line(), Some(2), "{e}");
    }

    #[test]
    fn empty_and_binary() {
        assert!(parse("").unwrap_err().to_string().contains("empty"));
        let e = parse_toml_bytes::<Doc>(b"format_version = 1\n\xff\xfe", Path::new("d"), V)
            .unwrap_err();
        assert_eq!(e.line(), Some(2));
        assert!(e.to_string().contains("UTF-8"));
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é\né".as_bytes(), 5), (2, 2));
        assert_eq!(line_col(b"x", 99), (1, 2));
    }
}
