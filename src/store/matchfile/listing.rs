//! The match directory: where match files go, the files it holds, and the latest unfinished
//! match for `crossboard resume`.

use super::write::is_v1_copy;
use super::{EXTENSION, MatchFile, load_match};
use crate::store::config::project_dirs;
use crate::store::tomlfile::LoadError;
use std::io;
use std::path::{Path, PathBuf};

/// Where match files go by default: the platform data directory's `matches` folder (e.g.
/// `~/.local/share/crossboard/matches` on Linux).
pub fn default_match_dir() -> Option<PathBuf> {
    project_dirs().map(|d| d.data_dir().join("matches"))
}

/// One file of a match directory.
#[derive(Debug)]
pub struct Listing {
    /// The file.
    pub path: PathBuf,
    /// Its match, or why it could not be read.
    pub file: Result<MatchFile, LoadError>,
}

/// Every `*.jsonl` and `*.toml` file in `dir` (kept version 1 originals, hidden and temporary
/// files skipped), newest save first;
/// unreadable files last, in name order. A missing directory lists nothing.
pub fn list_matches(dir: &Path) -> io::Result<Vec<Listing>> {
    let mut out: Vec<Listing> = match_paths(dir)?
        .into_iter()
        .map(|path| {
            let file = load_match(&path);
            Listing { path, file }
        })
        .collect();
    out.sort_by(|a, b| match (&a.file, &b.file) {
        (Ok(x), Ok(y)) => y.saved_at.cmp(&x.saved_at).then(a.path.cmp(&b.path)),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => a.path.cmp(&b.path),
    });
    Ok(out)
}

/// What `crossboard resume` without a file finds in a match directory.
#[derive(Debug)]
pub struct ResumeCandidates {
    /// The most recently saved unfinished match: its file and contents.
    pub latest: Option<(PathBuf, MatchFile)>,
    /// Files that could not be read (to mention them; they are left alone).
    pub damaged: Vec<Listing>,
}

/// The most recently saved unfinished match in `dir` (for `crossboard resume` without a file),
/// and the files that could not be read. Files are read newest first (by modification time)
/// and reading stops at the first unfinished match, so old finished matches cost nothing.
pub fn latest_unfinished(dir: &Path) -> io::Result<ResumeCandidates> {
    let mut found = ResumeCandidates {
        latest: None,
        damaged: Vec::new(),
    };
    let mut paths = match_paths(dir)?;
    paths.sort_by_key(|p| std::cmp::Reverse(std::fs::metadata(p).and_then(|m| m.modified()).ok()));
    for path in paths {
        match load_match(&path) {
            Ok(f) if !f.is_finished() => {
                found.latest = Some((path, f));
                break;
            }
            Ok(_) => {}
            Err(e) => found.damaged.push(Listing { path, file: Err(e) }),
        }
    }
    Ok(found)
}

/// The visible `*.jsonl` and `*.toml` match files of `dir` (none if it does not exist).
pub(crate) fn match_paths(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let visible = name.is_some_and(|n| !n.starts_with('.'));
        let known = path
            .extension()
            .is_some_and(|e| e == "toml" || e == EXTENSION);
        if visible && known && !is_v1_copy(&path) && path.is_file() {
            out.push(path);
        }
    }
    Ok(out)
}
