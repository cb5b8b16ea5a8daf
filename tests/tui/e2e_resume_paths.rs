//! End-to-end tests of the real binary under tmux for the home screen's Resume: a second
//! crossboard is refused a match the first has open and looks at it read-only (nothing written);
//! a damaged match file is started over from the list (moved aside, a new match in its place).

use crate::common;

use common::{Tmux, bin, play_two_moves, start_default_match};
use crossboard::store::load_match;
use std::path::{Path, PathBuf};

/// The environment that puts the data and config folders under `dir`.
fn env(dir: &Path) -> String {
    format!(
        "XDG_DATA_HOME={0}/data XDG_CONFIG_HOME={0}/config",
        dir.display()
    )
}

/// The data folder's matches directory under `dir`.
fn matches_dir(dir: &Path) -> PathBuf {
    dir.join("data/crossboard/matches")
}

/// The visible files of the matches directory.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(matches_dir(dir))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    v.sort();
    v
}

#[test]
fn a_second_crossboard_is_refused_the_match_and_looks_at_it_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!("exec env {} {} --ascii", env(dir.path()), bin());
    let Some(first) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    start_default_match(&first);
    let moves = play_two_moves(&first);
    let path = files(dir.path()).pop().expect("the match file");
    let before = std::fs::read(&path).unwrap();
    let Some(second) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    second.wait_text("Resume a match");
    second.keys(&["r"]);
    second.wait_text(" v Player 2");
    second.keys(&["Enter"]);
    let refused = second.wait_text("Open in another crossboard");
    let pid = first.display("#{pane_pid}");
    assert!(
        refused.contains(&format!("pid {pid} since")),
        "who has it:\n{refused}"
    );
    second.keys(&["v"]);
    let looked = second.wait_text("READ-ONLY");
    for mv in &moves {
        assert!(looked.contains(mv), "{mv} shown:\n{looked}");
    }
    // Asked to restart the clocks, it refuses; nothing is written, and leaving writes nothing.
    second.keys(&["Enter"]);
    second.keys(&["y"]);
    second.wait_text("READ-ONLY");
    second.keys(&["q"]);
    second.wait_text("New match");
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing written");
    // The first crossboard still has the match and goes on saving.
    first.keys(&["C-c"]);
}

#[test]
fn a_damaged_match_file_is_started_over_from_the_resume_list() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(matches_dir(dir.path())).unwrap();
    let path = matches_dir(dir.path()).join("club-night.toml");
    let damaged = "format-version = 1\n[match]\nthis is not a match\n";
    std::fs::write(&path, damaged).unwrap();
    let cmd = format!("exec env {} {} --ascii", env(dir.path()), bin());
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    t.wait_text("Resume a match");
    t.keys(&["r"]);
    t.wait_text("club-night.toml");
    t.keys(&["Enter"]);
    let asked = t.wait_text("The match file cannot be read");
    assert!(asked.contains("s start over"), "{asked}");
    t.keys(&["s"]);
    t.wait_text("New match: set-up");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
    t.keys(&["Enter"]);
    let started = t.wait_text("moved aside as club-night.toml.damaged-");
    assert!(started.contains("calls the coin"), "{started}");
    let names: Vec<String> = files(dir.path())
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[0], "club-night.toml");
    assert!(
        names[1].starts_with("club-night.toml.damaged-"),
        "{names:?}"
    );
    assert!(load_match(&path).is_ok(), "the new match is in its place");
    assert_eq!(
        std::fs::read_to_string(matches_dir(dir.path()).join(&names[1])).unwrap(),
        damaged,
        "the damaged file is kept as it was"
    );
    t.keys(&["C-c"]);
}
