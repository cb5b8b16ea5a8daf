//! The match file's writer lock: one crossboard at a time may write a match.

use super::StoreError;
use std::path::{Path, PathBuf};

/// One writer per match file: an OS advisory lock on `.NAME.lock` beside it, held for as long
/// as a crossboard has the match open for play and released by the OS when that process ends
/// (however it ends). The lock file says who holds it; it is never deleted (deleting a lock
/// file another process is about to lock would let two writers in). A link or another name of
/// a file in its place is refused, never written through.
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
        use std::io::{Read, Seek, Write};
        let lock_path = WriterLock::path_for(match_path);
        let write_err = |source| StoreError::Write {
            path: lock_path.clone(),
            source,
        };
        let mut file = crate::store::atomic::open_regular(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
            &lock_path,
        )
        .map_err(write_err)?;
        if !lock_with_grace(&file).map_err(write_err)? {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            return Err(StoreError::Locked {
                path: match_path.to_path_buf(),
                holder: if holder.is_empty() {
                    "pid unknown".into()
                } else {
                    holder.to_string()
                },
            });
        }
        let since = chrono::Local::now().format("%H:%M");
        let who = format!("pid {} since {since}\n", std::process::id());
        file.set_len(0).map_err(write_err)?;
        file.rewind().map_err(write_err)?;
        file.write_all(who.as_bytes()).map_err(write_err)?;
        let _ = file.flush();
        Ok(WriterLock {
            file,
            path: lock_path,
            who,
        })
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

/// How long a lock held by someone else may take to be let go before it counts as held: a lock
/// is briefly kept by a process that is ending, and by a child this process forks (to run an
/// engine or a test) until that child execs, since the child shares the open lock file.
const LOCK_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// Try the exclusive lock, retrying for [`LOCK_GRACE`]; false when it is still held after that.
pub(crate) fn lock_with_grace(file: &std::fs::File) -> std::io::Result<bool> {
    use fs4::fs_std::FileExt;
    let start = std::time::Instant::now();
    loop {
        if file.try_lock_exclusive()? {
            return Ok(true);
        }
        if start.elapsed() >= LOCK_GRACE {
            return Ok(false);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
