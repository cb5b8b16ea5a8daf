//! Helpers for headless tests of the TUI: drive an [`App`] with key messages, render it on a
//! `TestBackend`, read the screen as text. Used by `tests/tui_*.rs` and the screens' own tests.

use super::app::{App, Msg, Options, render};
use super::screens::ScreenState;
use super::theme::Appearance;
use super::time::{FakeClock, TimeSource};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

/// An app with plain ASCII, colourless output (stable snapshots), seed 7, at `w` x `h`.
pub fn test_app(clock: &FakeClock, w: u16, h: u16) -> App {
    let options = Options {
        appearance: Appearance::plain(),
        seed: 7,
        mouse: true,
        matches: Default::default(),
        practice_file: None,
        library_folders: Vec::new(),
        egdb_dir: None,
        files_dir: None,
        console: super::console::ConsoleKind::Full,
    };
    App::new(options, clock.now(), Size::new(w, h))
}

/// The messages for typing `text`: each character a key press; `\n` is Enter, `\x1b` is Esc,
/// `\x08` is Backspace, `\x15` is Ctrl-U, `\t` is Tab.
pub fn type_keys(text: &str) -> Vec<Msg> {
    text.chars()
        .map(|c| match c {
            '\n' => Msg::key(KeyCode::Enter),
            '\x1b' => Msg::key(KeyCode::Esc),
            '\x08' => Msg::key(KeyCode::Backspace),
            '\t' => Msg::key(KeyCode::Tab),
            '\x15' => Msg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
            c => Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        })
        .collect()
}

/// Feed messages to the app at the clock's current time.
pub fn feed(app: &mut App, clock: &FakeClock, msgs: impl IntoIterator<Item = Msg>) {
    for m in msgs {
        app.update(m, clock.now());
    }
}

/// Type `text` into the app (see [`type_keys`]).
pub fn type_text(app: &mut App, clock: &FakeClock, text: &str) {
    feed(app, clock, type_keys(text));
}

/// Feed a script: text as [`type_text`] types it, and tokens: `<tick>` (30 ticks of 100 ms:
/// an animation to its end), `<t>` (one tick), `<up>` `<down>` `<left>` `<right>` (arrows).
pub fn run_script(app: &mut App, clock: &FakeClock, script: &str) {
    const TOKENS: [(&str, u32, Option<KeyCode>); 6] = [
        ("<tick>", 30, None),
        ("<t>", 1, None),
        ("<up>", 0, Some(KeyCode::Up)),
        ("<down>", 0, Some(KeyCode::Down)),
        ("<left>", 0, Some(KeyCode::Left)),
        ("<right>", 0, Some(KeyCode::Right)),
    ];
    let mut rest = script;
    while let Some(c) = rest.chars().next() {
        match TOKENS.iter().find(|(t, ..)| rest.starts_with(t)) {
            Some((t, ticks, arrow)) => {
                for _ in 0..*ticks {
                    clock.advance(std::time::Duration::from_millis(100));
                    feed(app, clock, [Msg::Tick]);
                }
                if let Some(code) = arrow {
                    feed(app, clock, [Msg::key(*code)]);
                }
                rest = &rest[t.len()..];
            }
            None => {
                feed(app, clock, type_keys(&c.to_string()));
                rest = &rest[c.len_utf8()..];
            }
        }
    }
}

/// Render the app on a fresh `TestBackend` of the app's size; returns the buffer.
pub fn render_buffer(app: &App) -> Buffer {
    let Ok(mut terminal) = Terminal::new(TestBackend::new(app.size.width, app.size.height));
    let Ok(_) = terminal.draw(|f| render(app, f));
    terminal.backend().buffer().clone()
}

/// Render the app and return the screen as text, one line per row, trailing spaces trimmed.
pub fn render_text(app: &App) -> String {
    buffer_text(&render_buffer(app))
}

/// The text of a buffer, one line per row, trailing spaces trimmed.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        for x in area.left()..area.right() {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The match screen the app shows; panics (with the screen as text) on any other screen.
pub fn match_screen(app: &App) -> &super::match_flow::MatchScreen {
    match &app.screen {
        super::Screen::Match(m) => m,
        _ => panic!("not on the match screen:\n{}", render_text(app)),
    }
}

/// `n` ticks of 100 ms on `clock`, each fed to the app.
pub fn ticks(app: &mut App, clock: &FakeClock, n: usize) {
    for _ in 0..n {
        clock.advance(std::time::Duration::from_millis(100));
        feed(app, clock, [Msg::Tick]);
    }
}

/// Ticks of 100 ms, as the event loop sends them while a screen works in the background (an
/// engine searching on its thread), until `done`; fails after `limit` of real time or when the
/// screen stops ticking while it waits.
pub fn tick_until(
    app: &mut App,
    clock: &FakeClock,
    limit: std::time::Duration,
    done: impl Fn(&App) -> bool,
) {
    let start = std::time::Instant::now();
    while !done(app) {
        assert!(start.elapsed() < limit, "no answer within {limit:?}");
        assert!(app.screen.ticking(), "the screen must tick while it waits");
        std::thread::sleep(std::time::Duration::from_millis(5));
        ticks(app, clock, 1);
    }
}

/// The practice screen the app shows; panics on any other screen.
pub fn practice(app: &App) -> &super::screens::PracticeScreen {
    match &app.screen {
        super::Screen::Practice(p) => p,
        _ => panic!("not on the practice screen"),
    }
}

/// The practice screen, mutably; panics on any other screen.
pub fn practice_mut(app: &mut App) -> &mut super::screens::PracticeScreen {
    match &mut app.screen {
        super::Screen::Practice(p) => p,
        _ => panic!("not on the practice screen"),
    }
}

/// The moves played on the practice screen, in notation.
pub fn practice_moves(app: &App) -> Vec<String> {
    practice(app)
        .game
        .moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}
