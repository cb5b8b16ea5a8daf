//! The event loop, generic over the ratatui `Backend`, the event source and the clock, so tests
//! run the real loop on a `TestBackend` with scripted events and a fake clock.
//!
//! No busy loop: with no clock running the loop blocks on input; while one runs it wakes at
//! most every [`TICK`](super::app::TICK) to redraw. A stop signal is input too
//! ([`Input::Stop`]): it ends the loop between two updates, so a save in progress finishes.

use super::app::{App, Effect, Msg, render};
use super::terminal::{StopSignal, StopWatch, watch_stop_signals};
use super::time::TimeSource;
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, Event};
use std::collections::VecDeque;
use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;
use thiserror::Error;

/// Why the TUI stopped with an error.
#[derive(Debug, Error)]
pub enum TuiError {
    /// Standard output is not a terminal (redirected to a file or a pipe).
    #[error("the terminal UI needs a terminal; standard output is redirected (see --help)")]
    NotATerminal,
    /// The terminal cannot place text on the screen (`TERM=dumb`).
    #[error(
        "this terminal cannot draw the screen (TERM=dumb); run crossboard in a terminal window"
    )]
    CannotDraw,
    /// Terminal input/output failed.
    #[error("terminal: {0}")]
    Io(#[from] io::Error),
    /// The drawing backend failed.
    #[error("drawing: {0}")]
    Backend(String),
    /// A stop signal ended the TUI (the terminal is restored); `note` says what became of the
    /// match, if one was open.
    #[error("stopped by {signal}{}", note.as_ref().map(|n| format!("; {n}")).unwrap_or_default())]
    Stopped {
        /// The signal.
        signal: StopSignal,
        /// "the match is saved in FILE", "the match is NOT SAVED: why".
        note: Option<String>,
    },
}

impl TuiError {
    /// The exit status to leave with: 128 + the signal after a stop signal, else 1.
    pub fn exit_status(&self) -> u8 {
        match self {
            TuiError::Stopped { signal, .. } => signal.exit_status(),
            _ => 1,
        }
    }
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
    /// A stop signal arrived: the loop ends.
    Stop(StopSignal),
}

/// Where events come from.
pub trait EventSource {
    /// Wait for the next event, at most `timeout` (forever if `None`).
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Input>;
}

/// What the reader threads of [`TerminalEvents`] pass on.
enum Incoming {
    Event(Event),
    Failed(io::Error),
    Stop(StopSignal),
}

/// The real terminal's events and the stop signals, merged: a thread reads the terminal (through
/// crossterm) and the signal thread of [`super::terminal`] delivers SIGTERM, SIGHUP and SIGINT
/// to the same channel, so the loop blocks on one thing (no polling) and a signal ends it between
/// two updates. The input thread ends at its first read error; it is left blocked in a read when
/// the TUI ends (the process ends next).
pub struct TerminalEvents {
    incoming: Receiver<Incoming>,
    sender: mpsc::Sender<Incoming>,
    _stops: StopWatch,
}

impl TerminalEvents {
    /// Start catching the stop signals (before the terminal is set up, so one during the set-up
    /// is not lost); the terminal is read from [`TerminalEvents::read_terminal`] on.
    pub fn start() -> TerminalEvents {
        let (sender, incoming) = mpsc::channel();
        let stops = watch_stop_signals(sender.clone(), Incoming::Stop);
        TerminalEvents {
            incoming,
            sender,
            _stops: stops,
        }
    }

    /// Start the thread that reads the terminal's input. Call it once the terminal is set up:
    /// the set-up asks the terminal where the cursor is and reads the answer itself.
    pub fn read_terminal(&mut self) -> io::Result<()> {
        let tx = self.sender.clone();
        let mut waiter = InputWaiter::new()?;
        std::thread::Builder::new()
            .name("terminal-input".into())
            .spawn(move || {
                let failed = |e| {
                    let _ = tx.send(Incoming::Failed(e));
                };
                loop {
                    match waiter.wait() {
                        Ok(Waited::Input) => {}
                        // What SIGHUP says, said by the terminal itself: stop the same way.
                        Ok(Waited::HungUp) => {
                            let _ = tx.send(Incoming::Stop(StopSignal::Hangup));
                            return;
                        }
                        Err(e) => return failed(e),
                    }
                    // Only what is already there: crossterm is never left waiting in a read
                    // when the terminal hangs up (it would spin on the dead terminal).
                    loop {
                        match event::poll(Duration::ZERO).and_then(|ready| {
                            if ready {
                                event::read().map(Some)
                            } else {
                                Ok(None)
                            }
                        }) {
                            Ok(Some(e)) => {
                                if tx.send(Incoming::Event(e)).is_err() {
                                    return;
                                }
                            }
                            Ok(None) => break,
                            Err(e) => return failed(e),
                        }
                    }
                }
            })?;
        Ok(())
    }
}

/// Waits until the terminal has input (or was resized), and says when it hung up. On Unix it
/// polls standard input and a pipe written on SIGWINCH (signal-hook) itself, so that crossterm
/// is only asked for events already there: crossterm's own wait spins forever on a terminal that
/// has hung up. Elsewhere crossterm's blocking wait is used.
/// What [`InputWaiter::wait`] saw.
enum Waited {
    /// Something to read.
    Input,
    /// The terminal hung up (the window closed, the connection dropped).
    #[cfg_attr(not(unix), allow(dead_code))]
    HungUp,
}

struct InputWaiter {
    #[cfg(unix)]
    resized: Option<std::os::unix::net::UnixStream>,
}

impl InputWaiter {
    fn new() -> io::Result<InputWaiter> {
        #[cfg(unix)]
        {
            use std::io::IsTerminal;
            // crossterm reads standard input when it is the terminal (else /dev/tty, which is
            // then left to crossterm's own wait).
            if !io::stdin().is_terminal() {
                return Ok(InputWaiter { resized: None });
            }
            let (read, write) = std::os::unix::net::UnixStream::pair()?;
            read.set_nonblocking(true)?;
            write.set_nonblocking(true)?;
            signal_hook::low_level::pipe::register(signal_hook::consts::SIGWINCH, write)?;
            Ok(InputWaiter {
                resized: Some(read),
            })
        }
        #[cfg(not(unix))]
        Ok(InputWaiter {})
    }

    /// Block until there is something to read, or the terminal hangs up.
    fn wait(&mut self) -> io::Result<Waited> {
        #[cfg(unix)]
        if let Some(resized) = &mut self.resized {
            use std::io::Read;
            use std::os::fd::AsRawFd;
            let mut fds = [
                libc::pollfd {
                    fd: libc::STDIN_FILENO,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: resized.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            loop {
                // SAFETY: `fds` is a valid array of two pollfd for the duration of the call.
                let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
                if n >= 0 {
                    break;
                }
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
            if fds[0].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                return Ok(Waited::HungUp);
            }
            if fds[1].revents & libc::POLLIN != 0 {
                let mut drain = [0u8; 64];
                while matches!(resized.read(&mut drain), Ok(n) if n > 0) {}
            }
            return Ok(Waited::Input);
        }
        // crossterm's own wait (it wakes once an hour to wait again).
        while !event::poll(Duration::from_secs(3600))? {}
        Ok(Waited::Input)
    }
}

impl TerminalEvents {
    /// The stop signal that explains a failure of the loop (a closed terminal fails the drawing
    /// or the read, and sends SIGHUP), waiting for it a moment.
    pub fn stop_behind_failure(&self) -> Option<StopSignal> {
        while let Ok(got) = self.incoming.recv_timeout(HANGUP_GRACE) {
            if let Incoming::Stop(s) = got {
                return Some(s);
            }
        }
        None
    }
}

/// How long a failed terminal read waits for the signal that explains it (a closed terminal
/// fails the read and sends SIGHUP, in either order).
const HANGUP_GRACE: Duration = Duration::from_millis(300);

impl EventSource for TerminalEvents {
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Input> {
        let got = match timeout {
            Some(t) => match self.incoming.recv_timeout(t) {
                Ok(got) => got,
                Err(RecvTimeoutError::Timeout) => return Ok(Input::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Ok(Input::Closed),
            },
            None => match self.incoming.recv() {
                Ok(got) => got,
                Err(_) => return Ok(Input::Closed),
            },
        };
        match got {
            Incoming::Event(e) => Ok(Input::Event(e)),
            Incoming::Stop(s) => Ok(Input::Stop(s)),
            Incoming::Failed(e) => match self.stop_behind_failure() {
                Some(s) => Ok(Input::Stop(s)),
                None => Err(e),
            },
        }
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
    C: TimeSource + ?Sized,
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
            Input::Stop(signal) => return Err(TuiError::Stopped { signal, note: None }),
        };
        let effects = app.update(msg, clock.now());
        dirty = true;
        if effects.contains(&Effect::Quit) {
            return Ok(());
        }
    }
}
