//! Advisory lock files that name their holder: the match file's writer lock and an endgame
//! database build's folder lock.
//!
//! The OS lock is held while the open file lives and released by the OS when the process ends,
//! however it ends. The file says who holds it ("pid N since 14:05") and is never deleted:
//! deleting a lock file another process is about to lock would let two in. A link or another
//! name of a file in its place is refused, never written through.

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// A lock taken: the open file, and what this process wrote in it.
#[derive(Debug)]
pub(crate) struct HeldLock {
    /// The open lock file (the OS lock lives as long as it).
    pub(crate) file: File,
    /// What this process wrote in it.
    pub(crate) who: String,
}

/// Take the exclusive lock on the file at `path`, creating it. `Ok(Err(holder))` when another
/// process holds it: what the holder wrote in it ("pid unknown" when nothing).
pub(crate) fn take(path: &Path) -> io::Result<Result<HeldLock, String>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    let mut file = super::atomic::open_regular(&mut options, path)?;
    if !lock_with_grace(&file)? {
        let mut holder = String::new();
        let _ = file.read_to_string(&mut holder);
        let holder = holder.trim();
        return Ok(Err(if holder.is_empty() {
            "pid unknown".into()
        } else {
            holder.to_string()
        }));
    }
    let since = chrono::Local::now().format("%H:%M");
    let who = format!("pid {} since {since}\n", std::process::id());
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(who.as_bytes())?;
    let _ = file.flush();
    Ok(Ok(HeldLock { file, who }))
}

/// How long a lock held by someone else may take to be let go before it counts as held: a lock
/// is briefly kept by a process that is ending, and by a child this process forks (to run an
/// engine or a test) until that child execs, since the child shares the open lock file.
const LOCK_GRACE: Duration = Duration::from_millis(300);

/// Try the exclusive lock, retrying for [`LOCK_GRACE`]; false when it is still held after that.
fn lock_with_grace(file: &File) -> io::Result<bool> {
    use fs4::fs_std::FileExt;
    let start = Instant::now();
    loop {
        if file.try_lock_exclusive()? {
            return Ok(true);
        }
        if start.elapsed() >= LOCK_GRACE {
            return Ok(false);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
