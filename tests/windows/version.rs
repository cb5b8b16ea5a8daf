//! `crossboard --version` names the commit and the target, so a director's report says which
//! build it is.

use super::support::{linux_ok, wine};
use std::process::Command;

/// The commit of the checkout, as `--version` shortens it; `None` outside a git checkout.
fn head() -> Option<String> {
    let out = Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && std::env::var_os("CROSSBOARD_COMMIT").is_none())
        .then(|| text.trim().chars().take(12).collect())
}

#[test]
fn the_linux_build_names_its_version_commit_and_target() {
    let said = linux_ok(["--version"]);
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        said.starts_with(&format!("crossboard {version} (commit ")),
        "{said}"
    );
    assert!(said.trim_end().ends_with("-linux-gnu)"), "{said}");
    match head() {
        Some(commit) => assert!(said.contains(&commit), "{said} names {commit}"),
        None => assert!(!said.contains("commit )"), "{said}"),
    }
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn the_windows_build_names_the_same_version_and_commit() {
    let Some(w) = wine() else { return };
    let windows = w.ok(["--version"]);
    let linux = linux_ok(["--version"]);
    assert!(
        windows.ends_with(", x86_64-pc-windows-gnu)\n"),
        "one line ended by \\n alone: {windows:?}"
    );
    let cut = |s: &str| s.split(", ").next().unwrap_or_default().to_string();
    assert_eq!(cut(&windows), cut(&linux), "the same version and commit");
}
