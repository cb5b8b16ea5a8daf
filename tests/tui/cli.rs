//! The binary without a terminal: a clear error, status 1, nothing drawn.

use std::process::Command;

#[test]
fn without_a_terminal_the_tui_says_so() {
    let out = Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .arg("--ascii")
        .output()
        .expect("run crossboard");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing drawn into a pipe");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
}
