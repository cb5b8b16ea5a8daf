//! The Windows build under Wine: built once per run (cross-compiled with mingw-w64, profile
//! `cross-test`) unless `CROSSBOARD_WINDOWS_EXE` names one (the release build, say), and run in
//! a Wine prefix of its own under the target folder, created once per run.
//!
//! Without Wine or the cross compiler the tests are skipped, saying so; under CI (`CI` set)
//! they fail instead, since `tests/windows/run` installs both.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Instant;

/// The Windows build and the Wine prefix it runs in.
pub struct Wine {
    /// `crossboard.exe`.
    pub exe: PathBuf,
    /// The Wine prefix (its `drive_c` is drive C:).
    pub prefix: PathBuf,
}

/// The Windows build under Wine, or `None` (with a message) when the tests are skipped.
pub fn wine() -> Option<&'static Wine> {
    static WINE: OnceLock<Result<Wine, String>> = OnceLock::new();
    match WINE.get_or_init(set_up) {
        Ok(w) => Some(w),
        Err(why) if under_ci() => panic!("{why}"),
        Err(why) => {
            eprintln!("SKIPPED: {why}");
            None
        }
    }
}

/// True under CI, where nothing may be skipped.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

fn set_up() -> Result<Wine, String> {
    let found = Command::new("wine")
        .arg("--version")
        .env("WINEDEBUG", "-all")
        .output();
    if !found.is_ok_and(|o| o.status.success()) {
        return Err("wine is not installed (tests/windows/run installs it)".into());
    }
    let exe = match std::env::var_os("CROSSBOARD_WINDOWS_EXE") {
        Some(exe) => PathBuf::from(exe),
        None => build_exe()?,
    };
    let prefix = target_dir().join("wine").join("prefix");
    let wine = Wine { exe, prefix };
    wine.init_prefix()?;
    Ok(wine)
}

/// Cross-build `crossboard.exe` (a no-op when it is up to date).
fn build_exe() -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let started = Instant::now();
    let out = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "build",
            "--locked",
            "--profile",
            "cross-test",
            "--target",
            "x86_64-pc-windows-gnu",
            "--bin",
            "crossboard",
        ])
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the Windows build failed (tests/windows/run installs mingw-w64 and the target):\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    eprintln!(
        "the Windows build took {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(target_dir()
        .join("x86_64-pc-windows-gnu")
        .join("cross-test")
        .join("crossboard.exe"))
}

impl Wine {
    /// A command running `program` (a Windows program) in the prefix, quietly.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut c = Command::new("wine");
        c.arg(program)
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all")
            // No Mono or Gecko to install: crossboard needs neither.
            .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
            .stdin(Stdio::null());
        c
    }

    /// `crossboard.exe ARGS`, waited for.
    pub fn crossboard<I, S>(&self, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command(&self.exe)
            .args(args)
            .output()
            .expect("wine runs crossboard.exe")
    }

    /// `crossboard.exe ARGS`, which must succeed; its standard output.
    pub fn ok<I, S>(&self, args: I) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<S> = args.into_iter().collect();
        let shown: Vec<String> = args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect();
        let out = self.crossboard(args);
        assert!(
            out.status.success(),
            "crossboard.exe {shown:?}: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    /// A Windows environment variable as a Windows program sees it (`APPDATA`).
    pub fn env_var(&self, name: &str) -> String {
        let out = self
            .command("cmd")
            .args(["/c", "echo", &format!("%{name}%")])
            .output()
            .expect("wine runs cmd");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The Linux path of a Windows path in the prefix (`C:\users\...`), or on drive Z: (the
    /// Linux root).
    pub fn unix_path(&self, windows: &str) -> PathBuf {
        let (drive, rest) = windows.split_at(2);
        let rest = rest.trim_start_matches('\\').replace('\\', "/");
        match drive.to_ascii_uppercase().as_str() {
            "C:" => self.prefix.join("drive_c").join(rest),
            "Z:" => Path::new("/").join(rest),
            other => panic!("no drive {other} in the prefix"),
        }
    }

    /// Create the prefix once (a few seconds), and give Wine what the Rust standard library
    /// needs of Windows 10 and Wine 8 lacks (see `bcryptprimitives.c`).
    fn init_prefix(&self) -> Result<(), String> {
        let started = Instant::now();
        std::fs::create_dir_all(&self.prefix).map_err(|e| e.to_string())?;
        let status = self
            .command("wineboot")
            .arg("--init")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("wineboot: {e}"))?;
        if !status.success() {
            return Err(format!("wineboot --init: {status}"));
        }
        // Keep the Wine server up between the tests' processes.
        let _ = Command::new("wineserver")
            .args(["-p", "60"])
            .env("WINEPREFIX", &self.prefix)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let system32 = self.prefix.join("drive_c/windows/system32");
        let dll = system32.join("bcryptprimitives.dll");
        if !dll.exists() {
            let source =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/windows/bcryptprimitives.c");
            let out = Command::new("x86_64-w64-mingw32-gcc")
                .args(["-O2", "-shared", "-s", "-o"])
                .arg(&dll)
                .arg(&source)
                .arg("-ladvapi32")
                .output()
                .map_err(|e| format!("x86_64-w64-mingw32-gcc (mingw-w64): {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "bcryptprimitives.dll: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
        eprintln!(
            "the Wine prefix was ready in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

/// A Linux path as a Windows program names it: on drive Z: (Wine's view of the Linux root).
pub fn windows_path(path: &Path) -> String {
    let abs = std::path::absolute(path).expect("absolute path");
    format!("Z:{}", abs.display()).replace('/', "\\")
}

/// The Linux build of the same source.
pub fn linux_bin() -> &'static str {
    env!("CARGO_BIN_EXE_crossboard")
}

/// The Linux build with `args`, which must succeed; its standard output.
pub fn linux_ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(linux_bin())
        .args(args)
        .output()
        .expect("crossboard runs");
    assert!(
        out.status.success(),
        "crossboard: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}
