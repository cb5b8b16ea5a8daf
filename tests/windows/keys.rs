//! The keys as Windows sends them, through the real event loop on a `TestBackend`: a release
//! after every press, AltGr reported as Ctrl+Alt, Ctrl-C a key in raw mode; and the console
//! events that stand for SIGTERM and SIGHUP there.

use crossboard::tui::{
    FakeClock, ScriptedEvents, StopSignal, practice_moves, render_text, run_loop, test_app,
    typed_with_altgr,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

const ALTGR: KeyModifiers = KeyModifiers::CONTROL.union(KeyModifiers::ALT);

/// A key as the Windows console reports it: pressed, then released.
fn pressed_and_released(code: KeyCode, modifiers: KeyModifiers) -> [Event; 2] {
    [KeyEventKind::Press, KeyEventKind::Release]
        .map(|kind| Event::Key(KeyEvent::new_with_kind(code, modifiers, kind)))
}

/// Typed text as Windows reports it: `\n` is Enter; a character after `^` is typed with AltGr.
fn windows_typing(text: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let mut altgr = false;
    for c in text.chars() {
        let (code, modifiers) = match c {
            '^' => {
                altgr = true;
                continue;
            }
            '\n' => (KeyCode::Enter, KeyModifiers::NONE),
            c if altgr => (KeyCode::Char(c), ALTGR),
            c if c.is_uppercase() => (KeyCode::Char(c), KeyModifiers::SHIFT),
            c => (KeyCode::Char(c), KeyModifiers::NONE),
        };
        altgr = false;
        events.extend(pressed_and_released(code, modifiers));
    }
    events
}

/// Run the app's real loop over `events` (until they end or it quits); the app is returned.
fn run(events: Vec<Event>) -> (crossboard::tui::App, bool) {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("test backend");
    let mut source = ScriptedEvents::new(events);
    run_loop(&mut terminal, &mut app, &mut source, &clock).expect("the loop runs");
    let quit = app.should_quit();
    (app, quit)
}

#[test]
fn each_key_acts_once_though_windows_also_reports_its_release() {
    // Home, p: practice set-up; s: from the start position, Enter; then a move and a hint-free
    // second move. Acting on releases too would open, choose and play everything twice.
    let (app, quit) = run(windows_typing("ps\n11-15\n23-19\n"));
    assert!(!quit);
    assert_eq!(practice_moves(&app), ["11-15", "23-19"]);
}

#[test]
fn characters_typed_with_altgr_reach_a_text_field() {
    // o: open a PDN; the path typed with a German keyboard's AltGr for `\` and `@`.
    let (app, _) = run(windows_typing(r"oC:^\Users^\Zoe^@club^\games.pdn"));
    let screen = render_text(&app);
    assert!(
        screen.contains(r"C:\Users\Zoe@club\games.pdn"),
        "the path as typed:\n{screen}"
    );
}

#[test]
fn ctrl_alt_with_a_letter_or_digit_stays_a_combination() {
    for c in ['u', 'U', '7'] {
        let k = KeyEvent::new(KeyCode::Char(c), ALTGR);
        assert_eq!(typed_with_altgr(k), k, "{c}");
    }
    let k = KeyEvent::new(KeyCode::Char('€'), ALTGR | KeyModifiers::SHIFT);
    assert_eq!(typed_with_altgr(k).modifiers, KeyModifiers::SHIFT);
    let plain = KeyEvent::new(KeyCode::Char('\\'), KeyModifiers::NONE);
    assert_eq!(typed_with_altgr(plain), plain);
}

#[test]
fn ctrl_c_is_a_key_that_quits_and_its_release_is_not_read_as_another() {
    let mut events = windows_typing("p");
    events.extend(pressed_and_released(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    ));
    // Anything after the quit is never read.
    events.extend(windows_typing("s\n"));
    let (app, quit) = run(events);
    assert!(quit, "Ctrl-C quits from the practice set-up");
    assert!(
        practice_moves_or_none(&app).is_none(),
        "nothing was started"
    );
}

fn practice_moves_or_none(app: &crossboard::tui::App) -> Option<Vec<String>> {
    matches!(app.screen, crossboard::tui::Screen::Practice(_)).then(|| practice_moves(app))
}

#[test]
fn windows_console_events_stand_for_the_stop_signals() {
    // Ctrl-C (outside raw mode) and Ctrl-Break interrupt; the process lives on after them.
    assert_eq!(
        StopSignal::from_console_event(0),
        Some((StopSignal::Interrupt, false))
    );
    assert_eq!(
        StopSignal::from_console_event(1),
        Some((StopSignal::Interrupt, false))
    );
    // The window closed: what SIGHUP is on Unix; the system ends the process after it.
    assert_eq!(
        StopSignal::from_console_event(2),
        Some((StopSignal::Hangup, true))
    );
    // Logoff and shutdown: what SIGTERM is on Unix.
    for event in [5, 6] {
        assert_eq!(
            StopSignal::from_console_event(event),
            Some((StopSignal::Terminate, true))
        );
    }
    assert_eq!(StopSignal::from_console_event(3), None);
    assert_eq!(StopSignal::Hangup.name_on(true), "the console closing");
    assert_eq!(StopSignal::Interrupt.name_on(true), "Ctrl-C or Ctrl-Break");
    assert_eq!(StopSignal::Terminate.name_on(false), "SIGTERM");
    // The exit status is the Unix one on both, so scripts read it alike.
    assert_eq!(StopSignal::Hangup.exit_status(), 129);
}
