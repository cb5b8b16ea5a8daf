//! Files that survive crashes: atomic replacement, and TOML files with a format version whose
//! errors name the file, the line and the key.
//!
//! [`write_atomic`] writes a temporary file in the same directory, flushes and syncs it,
//! renames it over the target and syncs the directory. A crash at any instant leaves either the
//! old file or the new one, never a torn one (at worst a stray `.NAME.*.tmp` file beside it,
//! which nothing reads).

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The steps of an atomic write, for tests that inject a failure or a crash at each one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The temporary file exists, empty.
    Created,
    /// The bytes are written (perhaps still in the operating system's cache).
    Written,
    /// The temporary file is flushed and synced to disk.
    Synced,
    /// The temporary file has been renamed over the target.
    Renamed,
}

/// What an injected fault does at a [`Step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Return an error, cleaning up as a failing write does (the temporary file is removed).
    Fail,
    /// Stop dead as a crash or a pulled plug would: nothing is cleaned up.
    Crash,
}

/// Replace `path` with `bytes` atomically (see the module documentation).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, bytes, &mut |_| None)
}

/// The same file, as the system reckons it: on Unix the same device and inode (so a hard
/// link or a symbolic link to it counts), elsewhere the same path once links and `..` are
/// resolved. A path that names no file is the same as no other.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// An output that would overwrite one of the files it is made from.
#[derive(Debug, Error)]
#[error("{out} is {what}: nothing was written; choose another name for the output")]
pub struct OutputIsInput {
    /// The output asked for.
    pub out: PathBuf,
    /// What the input is ("the match file itself", "the desk's database").
    pub what: &'static str,
}

/// Refuses `out` when it is the same file as `input`, before anything is written: no writer
/// may overwrite what it reads.
pub fn check_output(out: &Path, input: &Path, what: &'static str) -> Result<(), OutputIsInput> {
    if same_file(out, input) {
        return Err(OutputIsInput {
            out: out.to_path_buf(),
            what,
        });
    }
    Ok(())
}

/// [`write_atomic`] with a fault injected where `fault` says so (for tests).
pub fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    fault: &mut dyn FnMut(Step) -> Option<Fault>,
) -> io::Result<()> {
    write_inner(path, bytes, fault, true)
}

/// The permissions of the file written to `path`: those of the file it replaces, or for a new
/// file what creating it would give (0666 less the umask), not the temporary file's private
/// 0600, so an export can be read by whoever the user lets read their files. (On Windows a
/// new file gets the folder's default access either way.)
#[cfg(unix)]
fn permissions_for(path: &Path) -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|meta| meta.permissions())
        .unwrap_or_else(|_| std::fs::Permissions::from_mode(0o666))
}

fn write_inner(
    path: &Path,
    bytes: &[u8],
    fault: &mut dyn FnMut(Step) -> Option<Fault>,
    sync: bool,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy();
    // The temporary file's name means nothing to the user: a missing folder is named.
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("no folder {}", dir.display()),
        ));
    }
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(permissions_for(path));
    let mut tmp = builder.tempfile_in(dir)?;
    let mut check =
        |step: Step, tmp: tempfile::NamedTempFile| -> io::Result<tempfile::NamedTempFile> {
            match fault(step) {
                None => Ok(tmp),
                Some(f) => {
                    if f == Fault::Crash {
                        // Leave the temporary file where it is, as a crash would.
                        let _ = tmp.into_temp_path().keep();
                    }
                    Err(io::Error::other(format!("injected {f:?} at {step:?}")))
                }
            }
        };
    tmp = check(Step::Created, tmp)?;
    tmp.write_all(bytes)?;
    tmp = check(Step::Written, tmp)?;
    tmp.flush()?;
    if sync {
        tmp.as_file().sync_all()?;
    }
    tmp = check(Step::Synced, tmp)?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Some(f) = fault(Step::Renamed) {
        return Err(io::Error::other(format!("injected {f:?} at Renamed")));
    }
    if sync { sync_dir(dir) } else { Ok(()) }
}

/// Refuses a file crossboard keeps beside the user's files (a match's lock file, SQLite's
/// files beside the desk's database) when something else is in its place: a symbolic link,
/// another name of a file (a hard link), a folder, a pipe or a device. Writing through such a
/// thing would write into a file someone else chose: a link planted in a shared folder (a club
/// folder, a USB stick). Absent is fine: it will be made.
pub(crate) fn refuse_planted(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !is_plain(&m) => Err(not_regular()),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Opens `path` with `options` only if it is a regular file with no other name, never through
/// a link (see [`refuse_planted`]): `O_NOFOLLOW` on Unix, `FILE_FLAG_OPEN_REPARSE_POINT` on
/// Windows, and checked again once open.
pub(crate) fn open_regular(
    options: &mut std::fs::OpenOptions,
    path: &Path,
) -> io::Result<std::fs::File> {
    refuse_planted(path)?;
    no_follow(options);
    let file = match options.open(path) {
        // ELOOP: the last component is a symbolic link.
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(not_regular()),
        other => other?,
    };
    if !is_plain(&file.metadata()?) {
        return Err(not_regular());
    }
    Ok(file)
}

fn not_regular() -> io::Error {
    io::Error::other(
        "not a regular file (a symbolic link, a device, or another name of a file): crossboard \
         does not write through it; remove it",
    )
}

/// A regular file with no other name.
fn is_plain(m: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        m.file_type().is_file() && m.nlink() == 1
    }
    // Std has no stable link count on Windows; a link is a reparse point there, not a file.
    #[cfg(not(unix))]
    {
        m.file_type().is_file()
    }
}

#[cfg(unix)]
fn no_follow(options: &mut std::fs::OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NOFOLLOW);
}

#[cfg(windows)]
fn no_follow(options: &mut std::fs::OpenOptions) {
    use std::os::windows::fs::OpenOptionsExt;
    // FILE_FLAG_OPEN_REPARSE_POINT: open a link itself, not its target.
    options.custom_flags(0x0020_0000);
}

#[cfg(not(any(unix, windows)))]
fn no_follow(_: &mut std::fs::OpenOptions) {}

/// Make a rename in `dir` durable.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        // Windows cannot open a directory as a file; its renames are journaled by NTFS.
        let _ = dir;
        Ok(())
    }
}

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

    #[cfg(unix)]
    #[test]
    fn a_written_file_has_the_permissions_a_created_one_has_and_a_replaced_one_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // What the user's umask gives a new file (0644 under the usual 022).
        let plain = dir.path().join("plain.txt");
        std::fs::File::create(&plain).unwrap();
        let written = dir.path().join("export.pdn");
        write_atomic(&written, b"x").unwrap();
        assert_eq!(mode(&written), mode(&plain), "an export others may read");
        // A file the user restricted stays restricted when replaced.
        std::fs::set_permissions(&written, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&written, b"y").unwrap();
        assert_eq!(mode(&written), 0o600);
    }

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
