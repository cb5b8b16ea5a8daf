//! `crossboard event --db DB ...` run as a director would, for the command-line tests.

use std::path::Path;
use std::process::{Command, Output};

/// Run `crossboard event --db db args...`.
pub(crate) fn crossboard(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .arg("event")
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap()
}

/// Run a command that must succeed; its standard output.
pub(crate) fn run(db: &Path, args: &[&str]) -> String {
    let out = crossboard(db, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Run a command that must be refused; its standard error.
pub(crate) fn refused(db: &Path, args: &[&str]) -> String {
    let out = crossboard(db, args);
    assert!(!out.status.success(), "{args:?} was accepted");
    String::from_utf8(out.stderr).unwrap()
}
