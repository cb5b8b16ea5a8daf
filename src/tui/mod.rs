//! The terminal UI (ratatui + crossterm): terminal guard, event loop, screens and widgets.
//!
//! # Shape
//!
//! Data flows one way: terminal event -> [`Msg`] -> [`App::update`] (the current screen changes
//! its own state and returns a [`Nav`](screens::Nav)) -> [`render`] draws a frame from `&App`
//! only. [`run_loop`] is generic over the ratatui `Backend`, the [`EventSource`] and the
//! [`TimeSource`], so tests drive the real app on a `TestBackend` with scripted keys and a
//! [`FakeClock`]. Nothing here is needed by the layers below (engine, openings, director, store).
//!
//! - [`terminal`]: [`TerminalGuard`] (raw mode, alternate screen, mouse; one restore path, on
//!   drop, error, panic and stop signals) and the stop signals (SIGTERM, SIGHUP, SIGINT).
//! - [`event_loop`]: blocks on input (terminal events and stop signals, [`TerminalEvents`]);
//!   wakes at 10 Hz only while a screen's clock runs.
//! - [`app`]: [`App`], [`Msg`], [`Effect`], [`render`], the help overlay and the too-small notice.
//! - [`screens`]: the [`Screen`] enum and the [`ScreenState`] trait; home, practice, review,
//!   notice.
//! - [`match_flow`]: the match screens (set-up, colours, ballot, accept/reject, game, results,
//!   director menu).
//! - [`widgets`]: board, clock panel, move list, the game screen, menus, help.
//! - [`keys`]: binding tables `(keys, action, help)`: each screen's key handling and its help
//!   and footer come from one table.
//! - [`analysis_pane`]: the engine thinking aloud about a position, on any screen that adds it.
//! - [`move_input`]: typed notation / cursor / mouse -> a legal `Move` (never plays it itself).
//! - [`theme`]: colours, glyphs, `--ascii`, `--no-color` / `NO_COLOR`.
//!
//! # Adding a screen
//!
//! 1. Write `src/tui/screens/NAME.rs` (or `src/tui/match_flow/NAME.rs`) with a struct holding the
//!    screen's state and `impl ScreenState` for it:
//!    - `update(&mut self, &Msg, &mut Ctx) -> Nav`: keys (`Msg::Key`, presses only), mouse
//!      (`Msg::Mouse`; hit-test with the same layout function the render uses, from `ctx.area`),
//!      `Msg::Tick` (10 Hz while `ticking()`), `Msg::Resize`. Time is `ctx.now`, randomness
//!      `ctx.rng`. Return `Nav::Stay`, `Nav::Push(Box::new(Screen::Other(..)))` (open over
//!      this one; `Nav::Pop` comes back), `Nav::Goto(..)` (replace), `Nav::Home` or
//!      `Nav::Quit`.
//!    - `render(&self, frame, area, &RenderCtx)`: draw from the state only (`ctx.now` for running
//!      clocks, `ctx.appearance` for every style and glyph). The area is at least 80x24.
//!    - `title()` and `keys()` for the `?` help overlay (`keys::help(TABLE)` of the binding
//!      table `update` looks keys up in with `keys::lookup`); `ticking()` while a clock runs;
//!      `typing()` while a text field has focus (then `?` and letters reach the screen, and F1
//!      opens the help).
//! 2. Add a variant to [`Screen`] and an arm to the `each_screen!` macro in `screens/mod.rs`.
//! 3. Reach it from another screen's `update` with `Nav::Push` (or `Nav::Goto`).
//! 4. Test it headless: build an [`App`], set `app.screen`, feed `Msg`s to `app.update`, and
//!    render on a `TestBackend` (see `tests/tui_*.rs`).
//!
//! The game screen of a match reuses [`widgets::GameScreenView`] (board, side panel, move list
//! with clock readings, status line) with a [`widgets::ClockPanelView`] filled from the match
//! clocks for `ctx.now` (set `flagged` as soon as a remaining time reaches zero), and
//! [`move_input::MoveInput`] to read moves: `input.update(&pos, msg, ctx.area, flipped)` handles
//! typed moves, the cursor and clicks and returns `InputOutcome::Play(mv)`; the match plays it
//! through the director. `input.board(..)` gives the `BoardView` with cursor, selection and
//! destinations. Forms use [`widgets::TextField`] (validated as you type); guarded actions (the
//! director menu) use [`widgets::Confirm`] (only `y` confirms). [`testing`] has the helpers of the
//! headless tests.

pub mod analysis_pane;
mod app;
mod console;
mod desk;
mod egdb_offer;
mod event_loop;
pub mod key_tables;
mod keys;
mod match_flow;
mod move_input;
mod rules_text;
mod screens;
mod terminal;
pub mod testing;
mod theme;
mod time;
pub mod widgets;

pub use app::{App, Effect, MIN_SIZE, Msg, Options, render, typed_with_altgr};
pub use console::{ConsoleKind, detect as detect_console};
pub use event_loop::{EventSource, Input, ScriptedEvents, TerminalEvents, TuiError, run_loop};
pub use screens::engines::{EngineRow, EngineState, EnginesScreen};
pub use screens::{Screen, ScreenState};
pub use terminal::{StopSignal, TerminalGuard};
pub use theme::{Appearance, Theme};
pub use time::{FakeClock, SystemClock, TimeSource};

/// Open the TUI on the real terminal and run until the user quits. The terminal is restored
/// on return, on error, on panic and on a stop signal.
pub fn run(options: Options) -> Result<(), TuiError> {
    run_from(options, None)
}

/// Open the TUI on `first` (home if `None`) and run until the user quits or a stop signal
/// comes ([`TuiError::Stopped`], saying what became of the open match). The terminal is
/// restored before this returns, however it ends; the screens (and the lock of an open match
/// file) are dropped after it.
pub fn run_from(options: Options, first: Option<Screen>) -> Result<(), TuiError> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    if options.console == console::ConsoleKind::Dumb {
        return Err(TuiError::CannotDraw);
    }
    let clock = SystemClock;
    // Signals are caught from here on: one during the set-up below ends the loop at once.
    let mut events = TerminalEvents::start();
    let mut guard = TerminalGuard::enter(options.mouse)?;
    events.read_terminal()?;
    let size = guard.terminal().size()?;
    let mut app = App::new(options, clock.now(), size);
    if let Some(screen) = first {
        app.screen = screen;
    }
    let result = run_loop(guard.terminal(), &mut app, &mut events, &clock);
    drop(guard);
    let result = match result {
        Err(TuiError::Stopped { .. }) | Ok(()) => result,
        Err(e) => match events.stop_behind_failure() {
            Some(signal) => Err(TuiError::Stopped { signal, note: None }),
            None => Err(e),
        },
    };
    // From here a signal forces the exit (the match is as saved: no update runs any more).
    drop(events);
    result.map_err(|e| match e {
        TuiError::Stopped { signal, .. } => TuiError::Stopped {
            signal,
            note: match_flow::stop_note(std::iter::once(&app.screen).chain(&app.stack)),
        },
        e => e,
    })
}

/// Time per frame of drawing the practice screen and the match's game screen (clocks
/// running, 40 plies in the move list), measured on a `TestBackend` (for `crossboard bench
/// render`). Returns (what, size, frames, seconds).
pub fn bench_render(frames: u32) -> Vec<(&'static str, (u16, u16), u32, f64)> {
    use std::time::Instant;
    let mut out = Vec::new();
    for (w, h) in [(80u16, 24u16), (160, 50)] {
        let now = Instant::now();
        let size = ratatui::layout::Size::new(w, h);
        let mut practice = screens::PracticeScreen::start_position();
        for m in ["11-15", "23-19", "8-11", "22-17"] {
            let _ = practice.game.play_text(m);
        }
        practice.numbers = true;
        let mut app = App::new(Options::default(), now, size);
        app.screen = Screen::Practice(practice);
        out.push((
            "practice",
            (w, h),
            frames,
            time_frames(&mut app, frames, |app, i| {
                // Alternate the flip so every frame redraws the whole board.
                if let Screen::Practice(p) = &mut app.screen {
                    p.flipped = i % 2 == 1;
                }
            }),
        ));
        let mut app = App::new(Options::default(), now, size);
        if let Some(screen) = bench_match(now) {
            app.screen = Screen::Match(Box::new(screen));
        }
        out.push((
            "match game",
            (w, h),
            frames,
            time_frames(&mut app, frames, |app, i| {
                // The clocks tick on: every frame has new readings.
                app.now = now + std::time::Duration::from_millis(100 * u64::from(i));
                if let Screen::Match(m) = &mut app.screen {
                    m.flipped = i % 2 == 1;
                }
            }),
        ));
    }
    out
}

/// Draw `frames` frames of `app` on a test terminal of its size, calling `step` before each;
/// the seconds taken.
fn time_frames(app: &mut App, frames: u32, mut step: impl FnMut(&mut App, u32)) -> f64 {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let Ok(mut terminal) = Terminal::new(TestBackend::new(app.size.width, app.size.height));
    let t = std::time::Instant::now();
    for i in 0..frames {
        step(app, i);
        let Ok(_) = terminal.draw(|f| render(app, f));
    }
    t.elapsed().as_secs_f64()
}

/// A match in its first game, 40 plies played, clocks running (not saved).
fn bench_match(now: std::time::Instant) -> Option<match_flow::MatchScreen> {
    use crate::director::{ColourMethod, Command, MatchSettings, Player, RejectionPolicy};
    use rand::SeedableRng;
    let settings = MatchSettings {
        players: ["Ann Smith".into(), "Bob Jones".into()],
        colour_method: ColourMethod::DirectorAssigns,
        rejection: RejectionPolicy::AllPlayed,
        ..MatchSettings::default()
    };
    let mut screen =
        match_flow::MatchScreen::start(settings, &match_flow::MatchOptions::default(), now).ok()?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let s = &mut screen.session;
    s.apply(
        Command::AssignColour {
            player: Player::First,
            colour: crate::engine::Color::Red,
        },
        now,
        &mut rng,
    )
    .ok()?;
    s.apply(Command::DrawBallot, now, &mut rng).ok()?;
    s.apply(Command::StartGame, now, &mut rng).ok()?;
    for i in 0..40u64 {
        let Some(g) = s.m.playing() else { break };
        let pos = *g.game.position();
        let Some(&mv) = pos.distinct_moves().first() else {
            break;
        };
        let at = now + std::time::Duration::from_secs(5 * (i + 1));
        if s.apply(
            Command::PlayMove {
                colour: pos.turn(),
                mv,
            },
            at,
            &mut rng,
        )
        .is_err()
        {
            break;
        }
    }
    screen.stage = match_flow::stages::Stage::for_match(&screen.session.m);
    Some(screen)
}
pub use desk::DeskScreen;
pub use egdb_offer::EgdbOffer;
pub use keys::{Erased, check_chain};
pub use match_flow::words;
pub use match_flow::{JoinScreen, MatchOptions, MatchScreen, open_board, persist, resume, run_on};
pub use match_flow::{Link, NetOptions, Network, Reporting, Serving, check_desk_url, check_token};
pub use match_flow::{StageKind, stop_note};
pub use move_input::MoveInput;
pub use screens::{
    AtlasScreen, DrillScreen, LibraryPlaces, LibraryScreen, PositionSetupScreen, PracticeScreen,
    ReviewScreen, atlas_drill, atlas_record, position_check, practice_engine, practice_hub,
};
pub use testing::{
    buffer_text, feed, match_screen, practice, practice_moves, render_buffer, render_text,
    run_script, test_app, tick_until, ticks, type_keys, type_text,
};
pub use theme::ascii_text;
pub use widgets::plies_and_moves;
pub use widgets::{GameLayout, StatusKind, format_clock, menu};
