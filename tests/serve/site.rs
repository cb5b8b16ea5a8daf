//! `crossboard event publish`: the event as a static site, its links relative, written whole
//! and swapped in, only what changed written, `--delay` holding moves back.

use crate::hall::Hall;
use crossboard::serve::{Delay, SiteReport, Source, publish_site};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];

fn source(hall: &Hall) -> Source {
    Source {
        db: Some(hall.db.clone()),
        ..Source::default()
    }
}

/// Every file below `dir`, by its path in it, with its inode and time (to see what was
/// written again).
fn files(dir: &Path) -> BTreeMap<String, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let m = e.metadata().unwrap();
            if m.is_dir() {
                dirs.push(e.path());
            } else {
                let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
                #[cfg(unix)]
                let ino = std::os::unix::fs::MetadataExt::ino(&m);
                #[cfg(not(unix))]
                let ino = 0;
                out.insert(rel, (ino, m.modified().unwrap()));
            }
        }
    }
    out
}

/// The links (`href="..."`) of an HTML page.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].replace("&amp;", "&"))
        .collect()
}

#[test]
fn a_published_site_links_only_to_its_own_files_and_runs_no_script() {
    let mut hall = Hall::new(NAMES);
    for _ in 0..3 {
        hall.play();
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let report = publish_site(source(&hall), Delay::default(), &out).unwrap();
    let all = files(&out);
    assert_eq!(report.files, all.len());
    assert_eq!(report.written, all.len(), "a new site: every file written");
    for f in [
        "index.html",
        "api/event.json",
        "round/1.pdn",
        "round/1/1.html",
        "board/1/1/1.html",
        "board/1/1/1.pdn",
        "api/board/1/1/1.json",
        "board/1/1/2.html",
    ] {
        assert!(all.contains_key(f), "{f} missing: {all:?}");
    }
    let mut checked = 0;
    for f in all.keys().filter(|f| f.ends_with(".html")) {
        let page = std::fs::read_to_string(out.join(f)).unwrap();
        assert!(!page.contains("<script"), "{f} runs a script");
        assert!(!page.contains("data-live"), "{f} asks for live updates");
        for link in links(&page) {
            let file = link.split('#').next().unwrap();
            if file.is_empty() {
                continue;
            }
            assert!(!link.starts_with('/'), "{f}: {link} is not relative");
            let to: PathBuf = Path::new(f).parent().unwrap().join(file);
            assert!(out.join(&to).is_file(), "{f}: {link} leads to no file");
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked} links");
    // The board's page: its moves, its PDN: the match as played.
    let board = std::fs::read_to_string(out.join("board/1/1/1.html")).unwrap();
    let last = &hall.m.playing().unwrap().moves[2].mv.to_string();
    assert!(board.contains(last.as_str()), "{board}");
    let pdn = std::fs::read_to_string(out.join("board/1/1/1.pdn")).unwrap();
    assert_eq!(pdn.matches("[%clock").count(), 3, "{pdn}");
}

#[test]
fn a_second_publish_with_nothing_changed_writes_nothing_and_a_move_rewrites_its_board() {
    let mut hall = Hall::new(NAMES);
    hall.play();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    publish_site(source(&hall), Delay::default(), &out).unwrap();
    let before = files(&out);
    let again = publish_site(source(&hall), Delay::default(), &out).unwrap();
    assert_eq!(
        again,
        SiteReport {
            files: before.len(),
            written: 0,
            removed: 0
        }
    );
    assert_eq!(files(&out), before, "nothing written again");
    // A move: the pages and files that show board 1 are written, the rest kept as they were.
    hall.play();
    let moved = publish_site(source(&hall), Delay::default(), &out).unwrap();
    let after = files(&out);
    let changed: Vec<&String> = after
        .iter()
        .filter(|(f, v)| before.get(*f) != Some(v))
        .map(|(f, _)| f)
        .collect();
    assert_eq!(moved.written, changed.len(), "{changed:?}");
    assert!(
        changed.iter().any(|f| *f == "board/1/1/1.html"),
        "{changed:?}"
    );
    assert!(
        !changed.iter().any(|f| *f == "board/1/1/2.html"),
        "{changed:?}"
    );
    // Nothing of the swap is left beside the site.
    let beside: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(beside.len(), 1, "{beside:?}");
}

#[test]
fn a_delay_holds_back_the_moves_younger_than_it() {
    let mut hall = Hall::at(NAMES, true, chrono::TimeDelta::hours(1));
    for _ in 0..3 {
        hall.play();
    }
    hall.clock.back = chrono::TimeDelta::zero();
    let young = hall.play();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    publish_site(source(&hall), Delay::seconds(60), &out).unwrap();
    let json = std::fs::read_to_string(out.join("api/board/1/1/1.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["match"]["games"][0]["moves"].as_array().unwrap().len(), 3);
    let pdn = std::fs::read_to_string(out.join("round/1.pdn")).unwrap();
    assert_eq!(pdn.matches("[%clock").count(), 3, "{pdn}");
    let board = std::fs::read_to_string(out.join("board/1/1/1.html")).unwrap();
    assert!(!board.contains(&format!("<td>{young}</td>")), "{board}");
    // Without the delay, the fourth move is there.
    publish_site(source(&hall), Delay::default(), &out).unwrap();
    let board = std::fs::read_to_string(out.join("board/1/1/1.html")).unwrap();
    assert!(board.contains(&format!("<td>{young}</td>")), "{board}");
}

#[test]
fn a_link_a_folder_of_other_files_or_one_holding_the_database_is_refused() {
    let hall = Hall::new(NAMES);
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("documents");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("letter.txt"), "keep me").unwrap();
    let e = publish_site(source(&hall), Delay::default(), &other).unwrap_err();
    assert!(e.to_string().contains("not a site crossboard wrote"), "{e}");
    assert_eq!(std::fs::read(other.join("letter.txt")).unwrap(), b"keep me");
    #[cfg(unix)]
    {
        let link = dir.path().join("site");
        std::os::unix::fs::symlink(&other, &link).unwrap();
        let e = publish_site(source(&hall), Delay::default(), &link).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
    }
    let db_dir = hall.db.parent().unwrap();
    let e = publish_site(source(&hall), Delay::default(), db_dir).unwrap_err();
    assert!(
        e.to_string().contains("not a site") || e.to_string().contains("input"),
        "{e}"
    );
    assert!(hall.db.is_file());
}
