//! The home screen's offer to build the endgame databases: shown once, the answer remembered,
//! the build on a background thread with its progress, play never blocked.

use crossboard::store::egdb::{Choice, remembered_choice, verified_pieces};
use crossboard::tui::Appearance;
use crossboard::tui::EgdbOffer;
use crossboard::tui::render_text;
use crossboard::tui::{App, Msg, Options};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;
use std::path::Path;
use std::time::{Duration, Instant};

fn app(dir: &Path) -> App {
    let options = Options {
        appearance: Appearance::plain(),
        egdb_dir: Some(dir.to_path_buf()),
        ..Options::default()
    };
    App::new(options, Instant::now(), Size::new(80, 24))
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

#[test]
fn the_home_screen_offers_the_databases_and_remembers_no() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app(dir.path());
    let screen = render_text(&a);
    assert!(
        screen.contains("Endgame databases (5 pieces, 37 MiB, minutes): b build them, x no"),
        "{screen}"
    );
    assert_eq!(
        a.tick_interval(),
        None,
        "no redraws while waiting for the answer"
    );
    a.update(Msg::char('?'), Instant::now());
    let help = render_text(&a);
    assert!(help.contains("build the endgame databases"), "{help}");
    a.update(Msg::key(KeyCode::Esc), Instant::now());
    a.update(Msg::char('x'), Instant::now());
    assert!(!render_text(&a).contains("Endgame databases"));
    assert_eq!(remembered_choice(dir.path()), Some(Choice::Declined));
    // Not asked again.
    let again = app(dir.path());
    assert!(!render_text(&again).contains("Endgame databases"));
}

#[test]
fn without_a_folder_nothing_is_offered() {
    let a = crossboard::tui::test_app(&crossboard::tui::FakeClock::new(), 80, 24);
    assert!(!render_text(&a).contains("Endgame databases"));
}

#[test]
fn the_menu_still_answers_while_offered() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app(dir.path());
    a.update(Msg::char('p'), Instant::now());
    assert!(!matches!(a.screen, crossboard::tui::Screen::Home(_)));
    assert_eq!(remembered_choice(dir.path()), None, "no answer given yet");
}

#[test]
fn accepting_builds_in_the_background_and_is_remembered() {
    let dir = tempfile::tempdir().unwrap();
    let mut offer = EgdbOffer::with_pieces(Some(dir.path().to_path_buf()), 3);
    assert!(offer.line().unwrap().contains("3 pieces"));
    assert!(offer.key(&key('b')));
    assert_eq!(remembered_choice(dir.path()), Some(Choice::Build));
    assert!(offer.building());
    assert!(
        offer
            .line()
            .unwrap()
            .contains("the endgame databases in the background")
    );
    assert!(!offer.key(&key('b')), "the answer is given once");
    let start = Instant::now();
    while offer.building() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "build took too long"
        );
        std::thread::sleep(Duration::from_millis(20));
        offer.poll();
    }
    assert_eq!(
        offer.line().as_deref(),
        Some("endgame databases ready (3 pieces)")
    );
    assert_eq!(verified_pieces(dir.path()), 3);
    // Once built, nothing more is offered.
    assert_eq!(
        EgdbOffer::with_pieces(Some(dir.path().to_path_buf()), 3).line(),
        None
    );
}

#[test]
fn an_accepted_build_that_was_interrupted_carries_on_at_start() {
    let dir = tempfile::tempdir().unwrap();
    crossboard::store::egdb::remember_choice(dir.path(), Choice::Build).unwrap();
    let mut offer = EgdbOffer::with_pieces(Some(dir.path().to_path_buf()), 2);
    assert!(offer.building());
    let start = Instant::now();
    while offer.building() {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(10));
        offer.poll();
    }
    assert_eq!(verified_pieces(dir.path()), 2);
}

struct Quiet;

impl crossboard::store::egdb::BuildObserver for Quiet {
    fn phase(&self, _: crossboard::store::egdb::Phase, _: u64) {}
    fn advance(&self, _: u64) {}
    fn slice(&self, _: crossboard::egdb::Material, _: bool) {}
}

/// Flip byte `at` of a file (xor `mask`).
fn flip(path: &Path, at: usize, mask: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[at] ^= mask;
    std::fs::write(path, bytes).unwrap();
}

fn slice(name: &str) -> crossboard::egdb::Material {
    crossboard::egdb::plan(3)
        .slices()
        .find(|m| m.to_string() == name)
        .unwrap()
}

/// A damaged slice file is named on the home screen: one whose header is wrong as the
/// databases are loaded, one whose table the engine finds damaged later.
#[test]
fn a_damaged_database_file_is_named_on_the_home_screen() {
    use crossboard::store::egdb::{build, remember_choice, slice_path};
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), 3, &Quiet).unwrap();
    remember_choice(dir.path(), Choice::Declined).unwrap();
    flip(&slice_path(dir.path(), slice("1m0k-0m2k")), 9, 0x5a);
    let mut a = app(dir.path());
    let screen = render_text(&a);
    let row = screen
        .lines()
        .find(|l| l.contains("endgame databases (e: in full): "))
        .unwrap_or_else(|| panic!("no damage line:\n{screen}"));
    assert!(row.contains("1m0k-0m2k.cbdb"), "{screen}");
    // Cut at 80 columns with the marker (`…`, drawn `.` in the plain look's ASCII).
    assert!(row.trim_end().ends_with('.'), "{row}");
    assert!(row.len() <= 80, "{row}");
    assert!(a.egdb.trouble()[0].contains(&dir.path().display().to_string()));

    // The last byte of another slice's table: found when the engine reads that block.
    let m = slice("1m1k-0m1k");
    let path = slice_path(dir.path(), m);
    flip(
        &path,
        std::fs::metadata(&path).unwrap().len() as usize - 1,
        0x01,
    );
    let db = a.egdb.databases().unwrap();
    let last = (0..m.size()).rev().find_map(|i| m.board(i)).unwrap();
    assert_eq!(
        db.probe_board(&last),
        None,
        "a damaged block is never a value"
    );
    a.update(Msg::key(KeyCode::Esc), Instant::now());
    let trouble = a.egdb.trouble();
    assert_eq!(trouble.len(), 2, "{trouble:?}");
    assert!(trouble[1].contains("1m1k-0m1k.cbdb"), "{trouble:?}");
    let screen = render_text(&a);
    assert!(
        screen.contains("endgame databases (1 of 2, e: all): 1m0k-0m2k.cbdb"),
        "{screen}"
    );

    // `e` shows every message whole over the home screen; keys go to it until Esc closes it.
    let help: Vec<String> = a.help_lines().iter().map(|h| h.text.clone()).collect();
    assert!(
        help.contains(&"the endgame databases' problems in full".to_string()),
        "{help:?}"
    );
    a.update(Msg::char('e'), Instant::now());
    let shown = render_text(&a);
    assert!(shown.contains("Endgame databases"), "{shown}");
    // Each message whole, however the box wraps it (a long path breaks where the width ends):
    // the box's inside read as one text without its borders and spaces.
    let inside: String = shown
        .lines()
        .filter_map(|l| l.trim().strip_prefix('|')?.strip_suffix('|'))
        .flat_map(|l| l.chars().filter(|c| !c.is_whitespace()))
        .collect();
    for text in &trouble {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(inside.contains(&text), "{text:?}:\n{shown}");
    }
    assert!(shown.contains("Esc close"), "{shown}");
    a.update(Msg::char('n'), Instant::now());
    assert!(matches!(a.screen, crossboard::tui::Screen::Home(_)));
    a.update(Msg::key(KeyCode::Esc), Instant::now());
    let closed = render_text(&a);
    assert!(!closed.contains("Esc close"), "{closed}");
    assert!(closed.contains("(1 of 2, e: all)"), "{closed}");
}

/// A folder of 2-piece databases, the offer answered, one slice file's header damaged: the
/// home screen names it (for the key tables' test).
pub(crate) fn damaged_folder(dir: &Path) {
    use crossboard::store::egdb::{build, remember_choice, slice_path};
    build(dir, 2, &Quiet).unwrap();
    remember_choice(dir, Choice::Declined).unwrap();
    let file = crossboard::egdb::plan(2)
        .slices()
        .map(|m| slice_path(dir, m))
        .find(|p| p.exists())
        .unwrap();
    flip(&file, 9, 0x5a);
}
