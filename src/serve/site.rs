//! `crossboard event publish`: the event as a static site, for any static host, CDN or
//! `rsync`. The pages are serve's own, made by the same renderers ([`super::pages`]) with
//! their links relative to the page (so the site works from any folder and from `file://`)
//! and without the live script; beside them the PDN and the JSON of serve's addresses, and a
//! page for every round. Read through [`Served`], so `--delay` cuts it where it cuts serve.
//!
//! Written whole into a new folder beside the site, then swapped in by rename: a reader sees
//! the old site or the new one, never half of one. A file whose bytes are those of the old
//! site's is linked to it rather than written again (its time and inode stay, so `rsync`
//! sends nothing for it), and a publish that changes nothing leaves the site untouched.

use super::pages::{self, At, Links, Picture};
use super::routes::picture;
use super::view::{BoardView, Served, Source, ViewError};
use super::{Delay, rounds};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file that marks a folder as a site this command wrote (any other folder is refused).
const MARK: &str = ".crossboard-site";

/// Why a site could not be published.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    /// The event could not be read.
    #[error("{0}")]
    Read(String),
    /// The folder given is not one to write the site into.
    #[error("{}: {why}", .path.display())]
    Refused {
        /// The folder.
        path: PathBuf,
        /// Why not.
        why: String,
    },
    /// Writing failed; the site as it was is untouched.
    #[error("cannot write {}: {source} (the site as it was is untouched)", .path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl From<ViewError> for SiteError {
    fn from(e: ViewError) -> SiteError {
        SiteError::Read(e.to_string())
    }
}

/// What a publish did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteReport {
    /// The site's files.
    pub files: usize,
    /// Files new or changed, written.
    pub written: usize,
    /// Files of the site before that are not in it any more.
    pub removed: usize,
}

/// Publish the event of `source` (its database, the event named or the one created last)
/// into the folder `out`, as it was `delay` ago.
pub fn publish_site(source: Source, delay: Delay, out: &Path) -> Result<SiteReport, SiteError> {
    check_out(&source, out)?;
    let served = Served { source, delay };
    let files = site_files(&served)?;
    write_site(out, &files)
}

/// The site's files, by their path in it (`/` between folders).
pub(crate) fn site_files(s: &Served) -> Result<BTreeMap<String, Vec<u8>>, SiteError> {
    let mut files = BTreeMap::new();
    let mut put = |path: String, text: String| files.insert(path, text.into_bytes());
    let t = s.tournament()?;
    let event = s.event()?;
    let now = Some(s.shown_ms());
    let shown = |root: &'static str| Picture {
        draw: &picture,
        now,
        links: Links::site(root),
    };
    put("index.html".into(), pages::event_page(&event, shown("")));
    put("api/event.json".into(), json(&s.event_whole()?));
    let mut texts = rounds::Texts::new();
    let last = t
        .divisions
        .iter()
        .map(|d| d.paired_rounds())
        .max()
        .unwrap_or(0);
    for round in 1..=last {
        let key = (round, None);
        let pdn = rounds::round_text(&t, key, &mut texts, s.cut())?;
        put(format!("round/{round}.pdn"), pdn);
    }
    for (k, d) in t.divisions.iter().enumerate() {
        let dn = k + 1;
        for r in &d.rounds {
            let boards: Vec<BoardView> = r
                .boards
                .iter()
                .map(|b| s.board(dn, r.number, b.number))
                .collect::<Result<_, _>>()?;
            let page = pages::round_page(&event.name, &d.name, r.number, &boards, shown("../../"));
            put(format!("round/{dn}/{}.html", r.number), page);
            for b in &boards {
                let path = pages::board_path(b);
                let at = At {
                    game: None,
                    ply: None,
                };
                let base = pages::board_href(b);
                put(
                    format!("{path}.html"),
                    pages::board_page(b, at, &base, shown("../../../")),
                );
                let key = (r.number, Some((dn, b.board)));
                put(
                    format!("{path}.pdn"),
                    rounds::round_text(&t, key, &mut texts, s.cut())?,
                );
                put(format!("api/{path}.json"), json(b));
            }
        }
    }
    put(
        MARK.into(),
        "a site written by crossboard event publish\n".into(),
    );
    Ok(files)
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Refuse a site folder that is a link, not a folder, a folder this command did not write
/// (its files would be lost in the swap), or one holding an input (the database or a match
/// file).
fn check_out(source: &Source, out: &Path) -> Result<(), SiteError> {
    let refuse = |why: &str| SiteError::Refused {
        path: out.to_path_buf(),
        why: why.to_string(),
    };
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    if meta.file_type().is_symlink() {
        return Err(refuse(
            "a symbolic link: the site is written into a folder of its own, never through a link",
        ));
    }
    if !meta.is_dir() {
        return Err(refuse("not a folder"));
    }
    let empty = std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none());
    if !empty && !out.join(MARK).is_file() {
        return Err(refuse(
            "a folder that is not a site crossboard wrote (it has no .crossboard-site): \
             publishing replaces the whole folder, so give a new or empty one",
        ));
    }
    let inside = |input: &Path| {
        let (Ok(a), Ok(b)) = (input.canonicalize(), out.canonicalize()) else {
            return false;
        };
        a.starts_with(b)
    };
    if source.db.as_deref().is_some_and(inside) || source.match_file.as_deref().is_some_and(inside)
    {
        return Err(refuse(
            "it holds the desk's database or a match file: publishing never writes over an input",
        ));
    }
    Ok(())
}

/// Write `files` as the site `out`: into a new folder beside it, each file the old site
/// has with the same bytes linked to it, the rest written; then the new folder swapped in.
fn write_site(out: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<SiteReport, SiteError> {
    let fail = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SiteError::Write { path, source }
    };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .map_or_else(|| "site".into(), |n| n.to_string_lossy().into_owned());
    let new = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-"))
        .tempdir_in(&parent)
        .map_err(fail(&parent))?;
    let mut report = SiteReport {
        files: files.len(),
        ..SiteReport::default()
    };
    for (path, bytes) in files {
        let to = new.path().join(path);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(fail(dir))?;
        }
        let old = out.join(path);
        if !(same_bytes(&old, bytes) && std::fs::hard_link(&old, &to).is_ok()) {
            std::fs::write(&to, bytes).map_err(fail(&to))?;
            report.written += 1;
        }
    }
    report.removed = old_files(out)
        .iter()
        .filter(|p| !files.contains_key(p.as_str()))
        .count();
    if report.written == 0 && report.removed == 0 && out.is_dir() {
        // Nothing changed: the site stays as it is (the new folder goes with `new`).
        return Ok(report);
    }
    open_to_readers(new.path()).map_err(fail(new.path()))?;
    let new = new.keep();
    swap_in(&new, out).map_err(|e| {
        let _ = std::fs::remove_dir_all(&new);
        fail(out)(e)
    })?;
    Ok(report)
}

/// Whether `path` is a plain file (not a link) holding `bytes`.
fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
        && std::fs::read(path).is_ok_and(|b| b == bytes)
}

/// The plain files of the site `out`, by their path in it (links and what they lead to are
/// not followed).
fn old_files(out: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![(out.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            match e.file_type() {
                Ok(t) if t.is_dir() => dirs.push((e.path(), format!("{name}/"))),
                Ok(t) if t.is_file() => found.push(name),
                _ => {}
            }
        }
    }
    found
}

/// A new folder is made for its owner alone: the site's is opened to the web server's
/// readers, as the folders inside it are.
fn open_to_readers(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Put the folder `new` in the place of `out`. On Linux the two are exchanged in one step
/// (`renameat2` with `RENAME_EXCHANGE`): a reader finds the old site or the new one. Elsewhere
/// (and where the file system cannot exchange) the old site is renamed aside and the new one
/// renamed in: between the two renames, microseconds apart, the folder is missing, never
/// half written. The old site is then removed.
fn swap_in(new: &Path, out: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(out).is_err() {
        return std::fs::rename(new, out);
    }
    if exchange(new, out).is_ok() {
        return std::fs::remove_dir_all(new);
    }
    let mut aside = new.as_os_str().to_owned();
    aside.push(".old");
    let aside = PathBuf::from(aside);
    std::fs::rename(out, &aside)?;
    if let Err(e) = std::fs::rename(new, out) {
        // Put the old site back.
        let _ = std::fs::rename(&aside, out);
        return Err(e);
    }
    std::fs::remove_dir_all(&aside)
}

/// Exchange the folders `a` and `b` at once.
#[cfg(all(target_os = "linux", any(target_env = "gnu", target_env = "musl")))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c =
        |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both are NUL-terminated paths that live across the call.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(all(target_os = "linux", any(target_env = "gnu", target_env = "musl"))))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}
