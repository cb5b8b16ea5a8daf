//! The desk screen shows which boards report to it (`crossboard serve`) and when each last
//! pushed, from the desk's copies of their match files; the director still enters results by
//! hand, and re-syncs a board whose copy diverged.

use crossboard::tui::testing::{render_text, test_app, type_text};
use crossboard::tui::{DeskScreen, FakeClock, Msg, Screen, TimeSource};
use std::time::{Duration, SystemTime};

#[test]
fn the_desk_shows_when_each_reporting_board_last_pushed_and_still_takes_a_result_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock, db) = desk_with_round(dir.path());
    assert!(
        !render_text(&app).contains("pushed"),
        "{}",
        render_text(&app)
    );
    // Board 2 reports: the desk keeps a copy of its match file, last written at `at`.
    let copy = crossboard::store::copy_path(&db, "Club Open", 1, 1, 2);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::write(&copy, "{}\n").unwrap();
    let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    std::fs::File::options()
        .write(true)
        .open(&copy)
        .unwrap()
        .set_modified(at)
        .unwrap();
    let local = chrono::DateTime::<chrono::Local>::from(at);
    let text = render_text(&app);
    // Not a match file the desk can read: said, with the push's age.
    let row = |text: &str, b: &str| {
        text.lines()
            .find(|l| l.get(1..4) == Some(b))
            .unwrap_or_else(|| panic!("no board {b}: {text}"))
            .to_string()
    };
    let two = row(&text, "  2");
    assert!(two.contains("waiting unreadable"), "{text}");
    assert!(two.chars().count() <= 80, "{two}");
    assert!(row(&text, "  1").ends_with("waiting not joined"), "{text}");
    // Wide enough, the push's time to the second.
    app.update(Msg::Resize(120, 30), clock.now());
    let text = render_text(&app);
    assert!(
        row(&text, "  2").contains(&format!("pushed {}", local.format("%H:%M:%S"))),
        "{text}"
    );
    // The director still enters the board's result by hand.
    type_text(&mut app, &clock, "j1");
    let text = render_text(&app);
    assert!(text.contains("recorded: round 1 board 2: 1"), "{text}");
    assert!(row(&text, "  2").contains("pushed"), "{text}");
}

/// A desk on a database in `dir` with the event "Club Open": six players, round 1 paired.
pub(crate) fn desk_with_round(
    dir: &std::path::Path,
) -> (crossboard::tui::App, FakeClock, std::path::PathBuf) {
    let db = dir.join("desk.sqlite3");
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.screen = Screen::Desk(Box::new(DeskScreen::new(Some(db.clone()))));
    type_text(&mut app, &clock, "nClub Open\ndOpen swiss:3 2\na");
    for n in ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"] {
        type_text(&mut app, &clock, &format!("{n}\n"));
    }
    type_text(&mut app, &clock, "\x1bp");
    (app, clock, db)
}

/// The files of the boards' folder beside `db` whose names contain `part`.
fn copies_named(db: &std::path::Path, part: &str) -> Vec<std::path::PathBuf> {
    let folder = crossboard::store::copy_path(db, "Club Open", 1, 1, 1)
        .parent()
        .unwrap()
        .to_path_buf();
    let mut found: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(part))
        .collect();
    found.sort();
    found
}

#[test]
fn the_resync_key_keeps_the_desks_copy_aside_after_a_yes_naming_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock, db) = desk_with_round(dir.path());
    let bytes = b"{\"format-version\":2}\n{\"diverged\":true}\n";
    let copy = crossboard::store::copy_path(&db, "Club Open", 1, 1, 2);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::write(&copy, bytes).unwrap();
    // Board 1 has no copy: nothing to ask.
    type_text(&mut app, &clock, "R");
    let text = render_text(&app);
    assert!(
        text.contains("round 1 board 1: the desk has no copy of this board"),
        "{text}"
    );
    assert!(!text.contains("(y/n)"), "{text}");
    // Board 2: the question names the board; no keeps the copy where it is.
    type_text(&mut app, &clock, "jR");
    let text = render_text(&app);
    assert!(text.contains("Re-sync round 1 board 2"), "{text}");
    type_text(&mut app, &clock, "n\n");
    assert!(render_text(&app).contains("round 1 board 2: nothing changed"));
    assert_eq!(std::fs::read(&copy).unwrap(), bytes);
    // Yes: the copy is renamed aside, its bytes kept, and the screen says where.
    type_text(&mut app, &clock, "Ry\n");
    assert!(!copy.exists());
    let aside = copies_named(&db, ".archived-");
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read(&aside[0]).unwrap(), bytes);
    let text = render_text(&app);
    // At 80 columns the sentence takes the rows it needs: the copy's name in view, no row
    // wider than the screen.
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("round 1 board 2: the desk's copy is kept as"),
        "{text}"
    );
    let name = aside[0].file_name().unwrap().to_string_lossy().to_string();
    assert!(text.contains(&name), "{name}: {text}");
}

#[test]
fn the_resync_sentence_is_whole_on_a_wide_screen() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock, db) = desk_with_round(dir.path());
    let copy = crossboard::store::copy_path(&db, "Club Open", 1, 1, 3);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::write(&copy, "{}\n").unwrap();
    let width = 160 + db.display().to_string().chars().count() as u16;
    app.update(Msg::Resize(width, 30), clock.now());
    type_text(&mut app, &clock, "jjRy\n");
    let aside = copies_named(&db, ".archived-");
    assert_eq!(aside.len(), 1, "{aside:?}");
    let text = render_text(&app);
    assert!(
        text.contains(&format!(
            "round 1 board 3: the desk's copy is kept as {}; the board sends its file again",
            aside[0].display()
        )),
        "{text}"
    );
}
