//! The desk screen shows which boards report to it (`crossboard serve`) and when each last
//! reported, from the desk's copies of their match files; the director still enters results
//! by hand.

use crossboard::tui::testing::{render_text, test_app, type_text};
use crossboard::tui::{DeskScreen, FakeClock, Msg, Screen, TimeSource};
use std::time::{Duration, SystemTime};

#[test]
fn the_desk_shows_when_each_reporting_board_last_reported_and_still_takes_a_result_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.screen = Screen::Desk(Box::new(DeskScreen::new(Some(db.clone()))));
    type_text(&mut app, &clock, "nClub Open\ndOpen swiss:3 2\na");
    for n in ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"] {
        type_text(&mut app, &clock, &format!("{n}\n"));
    }
    type_text(&mut app, &clock, "\x1bp");
    assert!(
        !render_text(&app).contains("reported"),
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
    let row = |text: &str, b: &str| {
        text.lines()
            .find(|l| l.get(1..4) == Some(b))
            .unwrap_or_else(|| panic!("no board {b}: {text}"))
            .to_string()
    };
    let two = row(&text, "  2");
    assert!(
        two.contains(&format!("reported {}", local.format("%H:%M"))),
        "{text}"
    );
    assert!(two.chars().count() <= 80, "{two}");
    assert!(!row(&text, "  1").contains("reported"), "{text}");
    // Wide enough, to the second.
    app.update(Msg::Resize(120, 30), clock.now());
    let text = render_text(&app);
    assert!(
        row(&text, "  2").contains(&format!("reported {}", local.format("%H:%M:%S"))),
        "{text}"
    );
    // The director still enters the board's result by hand.
    type_text(&mut app, &clock, "j1");
    let text = render_text(&app);
    assert!(text.contains("recorded: round 1 board 2: 1"), "{text}");
    assert!(row(&text, "  2").contains("reported"), "{text}");
}
