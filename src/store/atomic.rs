//! Files that survive crashes: atomic replacement, and the checks that keep an output off an
//! input and off a link planted in its place.
//!
//! [`write_atomic`] writes a temporary file in the same directory, flushes and syncs it,
//! renames it over the target and syncs the directory. A crash at any instant leaves either the
//! old file or the new one, never a torn one (at worst a stray `.NAME.*.tmp` file beside it,
//! which nothing reads).

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

/// The folder a path names its file in (`.` for a bare name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// True when `a` and `b` are one file, or would be once made: the same name in the same
/// folder (so an input not written yet, such as a file the desk keeps beside its database,
/// is kept free too).
fn same_place(a: &Path, b: &Path) -> bool {
    same_file(a, b) || (a.file_name() == b.file_name() && same_file(folder(a), folder(b)))
}

/// Refuses `out` when it is the same file as `input` (or would be, once `input` is made),
/// before anything is written: no writer may overwrite what it reads.
pub fn check_output(out: &Path, input: &Path, what: &'static str) -> Result<(), OutputIsInput> {
    if same_place(out, input) {
        return Err(OutputIsInput {
            out: out.to_path_buf(),
            what,
        });
    }
    Ok(())
}

/// Write `files` (name, text) into the folder `dir` (made when missing), each atomically
/// (a link planted at a name is replaced, never written through), after checking every one
/// against `input`: none is written when one would replace it. The paths written, or why not.
pub fn write_outputs(
    dir: &Path,
    files: &[(String, String)],
    input: &Path,
    what: &'static str,
) -> Result<Vec<PathBuf>, String> {
    let paths: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
    for out in &paths {
        check_output(out, input, what).map_err(|e| e.to_string())?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    for (out, (_, text)) in paths.iter().zip(files) {
        write_atomic(out, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(paths)
}

/// Refuses `out` when it is in the folder `dir` (whose files are all inputs), before anything
/// is written.
pub(super) fn check_output_folder(
    out: &Path,
    dir: &Path,
    what: &'static str,
) -> Result<(), OutputIsInput> {
    if same_file(folder(out), dir) {
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

/// A regular file with no other name. A file seen with no name at all was being removed as
/// it was looked at (SQLite removes its write-ahead log when the last connection closes, while
/// another process opens the database): not a link anyone planted.
fn is_plain(m: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        m.file_type().is_file() && m.nlink() <= 1
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
