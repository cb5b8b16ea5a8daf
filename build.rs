//! Build script: names the commit and the target crossboard is built from, for
//! `crossboard --version` (a director reporting a problem can then say exactly which build).
//!
//! The commit comes from `CROSSBOARD_COMMIT` when set, else from git, else from the `COMMIT`
//! file that the release script puts in the source archive (which has no git history); else it
//! is "unknown".

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CROSSBOARD_COMMIT");
    let commit = std::env::var("CROSSBOARD_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| from_git(&dir))
        .or_else(|| from_file(&dir.join("COMMIT")))
        .unwrap_or_else(|| "unknown".into());
    let short: String = commit.trim().chars().take(12).collect();
    println!("cargo:rustc-env=CROSSBOARD_COMMIT={short}");
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=CROSSBOARD_TARGET={target}");
}

/// `git rev-parse HEAD` in `dir`, and the files whose change means a new commit.
fn from_git(dir: &Path) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let commit = git(&["rev-parse", "HEAD"])?;
    // HEAD names the branch; the branch's file (or packed-refs) changes with each commit.
    if let Some(head) = git(&["rev-parse", "--path-format=absolute", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={head}");
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(file) = git(&["rev-parse", "--path-format=absolute", "--git-path", &branch])
        && Path::new(&file).exists()
    {
        println!("cargo:rerun-if-changed={file}");
    }
    if let Some(packed) = git(&[
        "rev-parse",
        "--path-format=absolute",
        "--git-path",
        "packed-refs",
    ]) && Path::new(&packed).exists()
    {
        println!("cargo:rerun-if-changed={packed}");
    }
    Some(commit)
}

/// The first line of `file`, if it exists.
fn from_file(file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    println!("cargo:rerun-if-changed={}", file.display());
    text.lines()
        .next()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
}
