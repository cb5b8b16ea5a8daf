//! The event loop, generic over the ratatui `Backend`, the event source and the clock, so tests
//! run the real loop on a `TestBackend` with scripted events and a fake clock.
//!
//! No busy loop: with no clock running the loop blocks on input; while one runs it wakes at
//! most every [`TICK`](super::app::TICK) to redraw.

use super::app::{App, Effect, Msg, render};
use super::time::Clock;
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, Event};
use std::collections::VecDeque;
use std::io;
use std::time::Duration;
use thiserror::Error;

/// Why the TUI stopped with an error.
#[derive(Debug, Error)]
pub enum TuiError {
    /// Standard output is not a terminal (redirected to a file or a pipe).
    #[error("the terminal UI needs a terminal; standard output is redirected (see --help)")]
    NotATerminal,
    /// Terminal input/output failed.
    #[error("terminal: {0}")]
    Io(#[from] io::Error),
    /// The drawing backend failed.
    #[error("drawing: {0}")]
    Backend(String),
}

/// What waiting for input gave.
#[derive(Debug)]
pub enum Input {
    /// A terminal event.
    Event(Event),
    /// The timeout passed with no event.
    Timeout,
    /// No more events will come (end of a script).
    Closed,
}

/// Where events come from.
pub trait EventSource {
    /// Wait for the next event, at most `timeout` (forever if `None`).
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Input>;
}

/// The terminal's events, through crossterm.
#[derive(Debug, Default)]
pub struct CrosstermEvents;

impl EventSource for CrosstermEvents {
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Input> {
        if let Some(t) = timeout
            && !event::poll(t)?
        {
            return Ok(Input::Timeout);
        }
        Ok(Input::Event(event::read()?))
    }
}

/// A fixed list of events, then [`Input::Closed`]; for tests.
#[derive(Debug, Default)]
pub struct ScriptedEvents {
    /// Events still to deliver.
    pub queue: VecDeque<Event>,
}

impl ScriptedEvents {
    /// A script of events.
    pub fn new(events: impl IntoIterator<Item = Event>) -> ScriptedEvents {
        ScriptedEvents {
            queue: events.into_iter().collect(),
        }
    }
}

impl EventSource for ScriptedEvents {
    fn next(&mut self, _timeout: Option<Duration>) -> io::Result<Input> {
        Ok(self.queue.pop_front().map_or(Input::Closed, Input::Event))
    }
}

/// Run the app until it quits or the events end. Draws only after something changed.
pub fn run_loop<B, E, C>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut E,
    clock: &C,
) -> Result<(), TuiError>
where
    B: Backend,
    E: EventSource,
    C: Clock + ?Sized,
{
    let mut dirty = true;
    loop {
        if dirty {
            terminal
                .draw(|f| render(app, f))
                .map_err(|e| TuiError::Backend(e.to_string()))?;
            dirty = false;
        }
        if app.should_quit() {
            return Ok(());
        }
        let msg = match events.next(app.tick_interval())? {
            Input::Event(e) => match Msg::from_event(e) {
                Some(m) => m,
                None => continue,
            },
            Input::Timeout => Msg::Tick,
            Input::Closed => return Ok(()),
        };
        let effects = app.update(msg, clock.now());
        dirty = true;
        if effects.contains(&Effect::Quit) {
            return Ok(());
        }
    }
}
