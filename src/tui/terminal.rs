//! The terminal guard: raw mode, alternate screen and mouse capture on entry; exactly those
//! undone by [`restore`], the one restore path: on drop (a normal exit, an error, a stop signal,
//! which ends the event loop like a quit), from the panic hook, and before a forced exit.
//!
//! What was set up is recorded in process-wide flags, so the restore is idempotent: the panic
//! hook restores first (so the panic message is readable), and the guard's drop during
//! unwinding then finds nothing left to undo.
//!
//! [`StopSignal`]s (SIGTERM, SIGHUP, SIGINT on Unix; on Windows the console's Ctrl-Break, its
//! window closed, logoff and shutdown) are caught while the TUI runs and delivered to the event
//! loop as input ([`watch_stop_signals`]), so the update in progress (and its save) finishes
//! first; a second signal before the loop has stopped forces the exit, after [`restore`].

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::{
    cursor,
    event::{DisableMouseCapture, EnableMouseCapture},
    execute,
    terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode},
};
use std::io::{self, Stdout, Write};
use std::mem::ManuallyDrop;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

static RAW: AtomicBool = AtomicBool::new(false);
static ALT: AtomicBool = AtomicBool::new(false);
static MOUSE: AtomicBool = AtomicBool::new(false);
static HOOK: Once = Once::new();

/// Owns the terminal set-up; dropping it restores the terminal.
pub struct TerminalGuard {
    terminal: ManuallyDrop<Terminal<CrosstermBackend<Stdout>>>,
}

impl TerminalGuard {
    /// Enter raw mode and the alternate screen, capture the mouse if asked, and install the
    /// panic hook that restores the terminal. On failure whatever was done is undone.
    pub fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        install_panic_hook();
        let result = (|| {
            enable_raw_mode()?;
            RAW.store(true, Ordering::SeqCst);
            execute!(io::stdout(), EnterAlternateScreen, cursor::Hide)?;
            ALT.store(true, Ordering::SeqCst);
            if mouse {
                execute!(io::stdout(), EnableMouseCapture)?;
                MOUSE.store(true, Ordering::SeqCst);
            }
            let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
            terminal.clear()?;
            Ok(terminal)
        })();
        match result {
            Ok(terminal) => Ok(TerminalGuard {
                terminal: ManuallyDrop::new(terminal),
            }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }

    /// The ratatui terminal to draw on.
    pub fn terminal(&mut self) -> &mut Terminal<CrosstermBackend<Stdout>> {
        &mut self.terminal
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        // ratatui's own drop shows the cursor and, if that fails (the terminal is gone),
        // reports it with eprintln!, which panics when stderr is that same dead terminal. So the
        // cursor is shown here, and on a dead terminal that drop never runs (its memory goes
        // with the process, which ends next).
        let alive = self.terminal.show_cursor().is_ok();
        restore();
        if alive {
            // SAFETY: the terminal is dropped exactly once, here, and never used after.
            unsafe { ManuallyDrop::drop(&mut self.terminal) };
        }
    }
}

/// Undo whatever [`TerminalGuard::enter`] did and is not yet undone. Safe to call any number of
/// times, from any thread; errors are ignored (there is nowhere left to report them).
pub(super) fn restore() {
    let mut out = io::stdout();
    if MOUSE.swap(false, Ordering::SeqCst) {
        let _ = execute!(out, DisableMouseCapture);
    }
    if ALT.swap(false, Ordering::SeqCst) {
        let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
    }
    if RAW.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
    }
    let _ = out.flush();
}

/// True while any part of the set-up is in force.
#[cfg(test)]
fn is_active() -> bool {
    RAW.load(Ordering::SeqCst) || ALT.load(Ordering::SeqCst) || MOUSE.load(Ordering::SeqCst)
}

/// A signal that stops crossboard: the terminal is restored, the match file left complete, and
/// the exit status is 128 + its number (as a shell reports a process killed by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopSignal {
    /// SIGHUP: the terminal went away (window closed, connection lost); on Windows the console
    /// window was closed.
    Hangup,
    /// SIGINT: `kill -INT` (in raw mode Ctrl-C is a key, not a signal); on Windows Ctrl-Break,
    /// or Ctrl-C where the console reports it as an event even in raw mode (Wine's does).
    Interrupt,
    /// SIGTERM: asked to stop (`kill`, a shutdown); on Windows a logoff or shutdown.
    Terminate,
}

impl StopSignal {
    /// Its number (the same on Linux and macOS).
    pub fn number(self) -> u8 {
        match self {
            StopSignal::Hangup => 1,
            StopSignal::Interrupt => 2,
            StopSignal::Terminate => 15,
        }
    }

    /// The exit status after it: 128 + its number.
    pub fn exit_status(self) -> u8 {
        128 + self.number()
    }

    /// "SIGTERM" (on Windows what the console reported: "Ctrl-C or Ctrl-Break", ...).
    pub fn name(self) -> &'static str {
        self.name_on(cfg!(windows))
    }

    /// Its name on Windows (`windows`) or on Unix.
    pub fn name_on(self, windows: bool) -> &'static str {
        match self {
            StopSignal::Hangup if windows => "the console closing",
            StopSignal::Interrupt if windows => "Ctrl-C or Ctrl-Break",
            StopSignal::Terminate if windows => "a logoff or shutdown",
            StopSignal::Hangup => "SIGHUP",
            StopSignal::Interrupt => "SIGINT",
            StopSignal::Terminate => "SIGTERM",
        }
    }

    /// The stop a Windows console control event stands for, and whether the system ends the
    /// process once the handler returns (the window closed, a logoff, a shutdown); `None` for
    /// an event that is not a stop. Windows has no SIGTERM or SIGHUP: these events are what
    /// it sends instead. The numbers are the `CTRL_*_EVENT` values of the Windows API.
    pub fn from_console_event(event: u32) -> Option<(StopSignal, bool)> {
        const CTRL_C_EVENT: u32 = 0;
        const CTRL_BREAK_EVENT: u32 = 1;
        const CTRL_CLOSE_EVENT: u32 = 2;
        const CTRL_LOGOFF_EVENT: u32 = 5;
        const CTRL_SHUTDOWN_EVENT: u32 = 6;
        match event {
            CTRL_C_EVENT | CTRL_BREAK_EVENT => Some((StopSignal::Interrupt, false)),
            CTRL_CLOSE_EVENT => Some((StopSignal::Hangup, true)),
            CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT => Some((StopSignal::Terminate, true)),
            _ => None,
        }
    }
}

impl std::fmt::Display for StopSignal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the next stop signal is delivered (the running event loop), if anywhere.
type StopSink = Box<dyn Fn(StopSignal) -> bool + Send>;

static SINK: std::sync::Mutex<Option<StopSink>> = std::sync::Mutex::new(None);
#[cfg(any(unix, windows))]
static WATCHING: Once = Once::new();

/// While the returned [`StopWatch`] lives, SIGTERM, SIGHUP and SIGINT are sent to `sink` (the
/// event loop's channel) instead of killing the process. A signal that finds no sink (the loop
/// has ended, or refused it) or arrives while an earlier one is still being handled forces the
/// exit: [`restore`], a line on stderr, status 128 + the signal. On Windows the console's
/// control events stand for the signals (see [`StopSignal`]); elsewhere nothing is caught.
pub(super) fn watch_stop_signals<T: Send + 'static>(
    sink: Sender<T>,
    wrap: fn(StopSignal) -> T,
) -> StopWatch {
    let deliver: StopSink = Box::new(move |s| sink.send(wrap(s)).is_ok());
    if let Ok(mut slot) = SINK.lock() {
        *slot = Some(deliver);
    }
    #[cfg(unix)]
    WATCHING.call_once(spawn_signal_thread);
    #[cfg(windows)]
    WATCHING.call_once(console::watch);
    StopWatch { _private: () }
}

/// Delivery of stop signals to an event loop; dropping it ends the delivery.
#[derive(Debug)]
pub(super) struct StopWatch {
    _private: (),
}

impl Drop for StopWatch {
    fn drop(&mut self) {
        if let Ok(mut slot) = SINK.lock() {
            *slot = None;
        }
    }
}

/// One thread for the life of the process turns the stop signals into deliveries (signal-hook
/// does the async-signal-safe part). The first signal is delivered; the sink is then cleared,
/// so a second one, or one with nowhere to go, forces the exit.
#[cfg(unix)]
fn spawn_signal_thread() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // Registered inside the thread, which says when it is in place: if it cannot be (or the
    // thread cannot start) the signals keep their default action and the OS frees the lock.
    let (ready_tx, ready) = std::sync::mpsc::sync_channel(1);
    let spawned = std::thread::Builder::new()
        .name("stop-signals".into())
        .spawn(move || {
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])
            else {
                let _ = ready_tx.send(());
                return;
            };
            let _ = ready_tx.send(());
            for raw in signals.forever() {
                let signal = match raw {
                    SIGHUP => StopSignal::Hangup,
                    SIGINT => StopSignal::Interrupt,
                    _ => StopSignal::Terminate,
                };
                deliver(signal);
            }
        });
    if spawned.is_ok() {
        let _ = ready.recv();
    }
}

/// Hand a stop signal to the event loop; with nowhere to go (or a second one), exit now.
#[cfg(any(unix, windows))]
fn deliver(signal: StopSignal) {
    let sink = SINK.lock().ok().and_then(|mut slot| slot.take());
    if !sink.is_some_and(|deliver| deliver(signal)) {
        force_exit(signal);
    }
}

/// Windows: the console's control events, from a handler the system runs on a thread of its
/// own (windows-sys: `SetConsoleCtrlHandler`). Ctrl-C in raw mode is a key, as on Unix.
#[cfg(windows)]
mod console {
    use super::{StopSignal, deliver};
    use windows_sys::Win32::Foundation::{FALSE, TRUE};
    use windows_sys::Win32::System::Console::{
        CTRL_BREAK_EVENT, CTRL_C_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
        SetConsoleCtrlHandler,
    };

    // The numbers `StopSignal::from_console_event` knows are the Windows API's.
    const _: () = assert!(
        CTRL_C_EVENT == 0
            && CTRL_BREAK_EVENT == 1
            && CTRL_CLOSE_EVENT == 2
            && CTRL_LOGOFF_EVENT == 5
            && CTRL_SHUTDOWN_EVENT == 6
    );

    /// After the console closed (or a logoff, a shutdown) the system ends the process as soon
    /// as the handler returns, and a few seconds later in any case: the handler waits this
    /// long for the event loop to finish its update and save and the process to exit.
    const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_millis(4_500);

    /// Install the handler (if the system refuses, the events keep their default action: the
    /// process ends, its file complete to the last save, and the OS frees the lock).
    pub(super) fn watch() {
        // SAFETY: `handler` is a valid HandlerRoutine for the life of the process.
        unsafe {
            SetConsoleCtrlHandler(Some(handler), TRUE);
        }
    }

    unsafe extern "system" fn handler(event: u32) -> i32 {
        let Some((signal, ends_process)) = StopSignal::from_console_event(event) else {
            return FALSE;
        };
        deliver(signal);
        if ends_process {
            std::thread::sleep(CLOSE_GRACE);
        }
        TRUE
    }
}

/// Stop now: restore the terminal, say why, exit with 128 + the signal's number. A save cut
/// short here leaves the previous file (saves are atomic).
#[cfg(any(unix, windows))]
fn force_exit(signal: StopSignal) -> ! {
    restore();
    let _ = writeln!(io::stderr(), "crossboard: stopped by {signal} (forced)");
    std::process::exit(i32::from(signal.exit_status()))
}

fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restore_without_setup_is_a_no_op() {
        restore();
        restore();
        assert!(!is_active());
    }
}
