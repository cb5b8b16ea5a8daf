//! The match file's writer lock: one crossboard at a time may write a match.

use super::StoreError;
use crate::store::lockfile::{self, HeldLock};
use std::path::{Path, PathBuf};

/// One writer per match file: an OS advisory lock on `.NAME.lock` beside it (see
/// `store::lockfile`), held for as long as a crossboard has the match open for play.
#[derive(Debug)]
pub struct WriterLock {
    /// The open lock file (the OS lock lives as long as it).
    #[cfg_attr(not(unix), allow(dead_code))]
    file: std::fs::File,
    /// The lock file.
    path: PathBuf,
    /// What this process wrote in it ("pid N since 14:05").
    #[cfg_attr(unix, allow(dead_code))]
    who: String,
}

impl WriterLock {
    /// The lock file of `match_path`.
    pub fn path_for(match_path: &Path) -> PathBuf {
        let name = match_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match_path.with_file_name(format!(".{name}.lock"))
    }

    /// Take the lock of `match_path`, or say who holds it.
    pub fn take(match_path: &Path) -> Result<WriterLock, StoreError> {
        let path = WriterLock::path_for(match_path);
        match lockfile::take(&path) {
            Ok(Ok(HeldLock { file, who })) => Ok(WriterLock { file, path, who }),
            Ok(Err(holder)) => Err(StoreError::Locked {
                path: match_path.to_path_buf(),
                holder,
            }),
            Err(source) => Err(StoreError::Write { path, source }),
        }
    }

    /// True while the lock file beside the match is still this lock's: not gone with its
    /// folder (a lock on a deleted file keeps no one else out of a new one). On Unix the same
    /// file (device and inode); elsewhere, where an open file's folder cannot be deleted, the
    /// file saying what this lock wrote in it.
    pub fn in_place(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (std::fs::metadata(&self.path), self.file.metadata()) {
                (Ok(there), Ok(held)) => there.dev() == held.dev() && there.ino() == held.ino(),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        std::fs::read_to_string(&self.path).is_ok_and(|text| text == self.who)
    }
}
