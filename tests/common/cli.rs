//! The real binary run from a test, with its output.

use std::process::{Command, Output};

/// The real binary run with `args`, colours off; its output.
pub fn crossboard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run crossboard")
}

/// The real binary run with `args`, colours off, which must succeed (a failure shows the
/// command and both outputs); its standard output.
pub fn crossboard_ok(args: &[&str]) -> String {
    let out = crossboard(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "crossboard {} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}
