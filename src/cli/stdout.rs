//! The one way the commands write to standard output (the `outln!` and `out!` macros) and
//! standard error (`errln!`).
//!
//! A write to standard output that fails is an error the command returns ([`StdoutError`]),
//! never a panic: on a closed pipe (`crossboard config | head -1`) the command stops and
//! crossboard exits quietly with status 0, as a reader that has had enough is no failure; on
//! any other failure (`> /dev/full`) it stops with a message and status 1. What is buffered is
//! flushed by [`flush`] before crossboard exits, so a failure at the last line is reported too.
//! Standard error is the last resort for messages: a failure to write there is ignored.

use std::fmt;
use std::io::{self, Write};
use thiserror::Error;

/// Standard output could not be written.
#[derive(Debug, Error)]
#[error("cannot write to standard output: {0}")]
pub(super) struct StdoutError(#[source] io::Error);

impl StdoutError {
    /// True when the reader went away (a closed pipe): crossboard then stops quietly.
    pub(super) fn is_closed_pipe(&self) -> bool {
        self.0.kind() == io::ErrorKind::BrokenPipe
    }
}

/// Write `args` to standard output.
pub(super) fn write(args: fmt::Arguments<'_>) -> Result<(), StdoutError> {
    io::stdout().lock().write_fmt(args).map_err(StdoutError)
}

/// Write what is still buffered.
pub(super) fn flush() -> Result<(), StdoutError> {
    io::stdout().lock().flush().map_err(StdoutError)
}

/// Write `args` to standard output for a command that goes on without it (a server whose
/// terminal is gone): a failure is ignored.
pub(super) fn write_lossy(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    let _ = out.write_fmt(args).and_then(|()| out.flush());
}

/// Write `args` to standard error; a failure is ignored (there is nowhere left to say it).
pub(super) fn write_err(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}
