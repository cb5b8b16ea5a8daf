//! The terminal guard: raw mode, alternate screen and mouse capture on entry; exactly those
//! undone on drop, on error and from the panic hook.
//!
//! What was set up is recorded in process-wide flags, so the restore is idempotent: the panic
//! hook restores first (so the panic message is readable), and the guard's drop during
//! unwinding then finds nothing left to undo.

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::{
    cursor,
    event::{DisableMouseCapture, EnableMouseCapture},
    execute,
    terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode},
};
use std::io::{self, Stdout, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static RAW: AtomicBool = AtomicBool::new(false);
static ALT: AtomicBool = AtomicBool::new(false);
static MOUSE: AtomicBool = AtomicBool::new(false);
static HOOK: Once = Once::new();

/// Owns the terminal set-up; dropping it restores the terminal.
pub struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
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
            Ok(terminal) => Ok(TerminalGuard { terminal }),
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
        restore();
    }
}

/// Undo whatever [`TerminalGuard::enter`] did and is not yet undone. Safe to call any number of
/// times, from any thread; errors are ignored (there is nowhere left to report them).
pub fn restore() {
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

/// True while any part of the set-up is in force (for tests and diagnostics).
pub fn is_active() -> bool {
    RAW.load(Ordering::SeqCst) || ALT.load(Ordering::SeqCst) || MOUSE.load(Ordering::SeqCst)
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
