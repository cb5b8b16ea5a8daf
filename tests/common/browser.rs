//! Headless Chromium for the tests: Debian's `chromium` (`tests/run` installs it, and
//! poppler-utils, when absent; `CROSSBOARD_CHROMIUM` names another), always started with the
//! same flags and a fresh profile in a temporary folder. Two uses:
//! - print tests: an HTML file printed to PDF as a browser prints it, then read back with
//!   poppler-utils (`pdfinfo` for the pages, `pdftotext` for each page's text);
//! - live pages (Unix): [`Browser`] keeps a page open and reads it over
//!   `--remote-debugging-pipe` (the DevTools protocol's JSON messages, each ended by a NUL
//!   byte, on file descriptors 3 and 4): no port, no websocket, no extra crate. (`--dump-dom`
//!   reads a page only once it has loaded, or after a virtual-time budget that an open event
//!   stream never lets run out.)
//!
//! Chromium, pdfinfo or pdftotext missing, or a print that fails, fails the test with a message
//! saying so: a browser test never passes without a browser.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The flags every test starts Chromium with (a profile folder is added to each).
const FLAGS: [&str; 7] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// How long one print may take before the test fails (a loaded machine is slow).
const PRINT_SECS: u64 = 120;

/// The Chromium to run: `CROSSBOARD_CHROMIUM` if set, else `chromium` on the PATH.
fn chromium() -> String {
    std::env::var("CROSSBOARD_CHROMIUM").unwrap_or_else(|_| "chromium".into())
}

/// `tool --version` (or `-v`) runs, or the test fails saying what to install.
fn require(tool: &str, flag: &str, package: &str) {
    let ran = Command::new(tool)
        .arg(flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    assert!(
        ran.is_ok(),
        "{tool} cannot be run: the print tests need it (tests/run installs {package}; \
         apt-get install {package})"
    );
}

/// `html` printed to a PDF beside it (`NAME.pdf`), by headless Chromium with a fresh profile,
/// no header or footer, the page size the page's CSS asks for.
pub fn print_to_pdf(html: &Path) -> PathBuf {
    let browser = chromium();
    require(&browser, "--version", "chromium");
    let pdf = html.with_extension("pdf");
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(&browser)
        .args(FLAGS)
        .arg("--no-pdf-header-footer")
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.canonicalize().unwrap().display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{browser} did not start: {e}"));
    let deadline = Instant::now() + Duration::from_secs(PRINT_SECS);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "{browser} did not print {} in {PRINT_SECS} s",
                html.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let err = std::io::read_to_string(child.stderr.take().unwrap()).unwrap_or_default();
    assert!(status.success(), "{browser} failed ({status}):\n{err}");
    assert!(pdf.is_file(), "{browser} wrote no PDF:\n{err}");
    pdf
}

/// `pdfinfo`'s field `name` (`Pages`, `Page size`).
pub fn pdf_info(pdf: &Path, name: &str) -> String {
    require("pdfinfo", "-v", "poppler-utils");
    let out = Command::new("pdfinfo").arg(pdf).output().unwrap();
    assert!(out.status.success(), "pdfinfo {}", pdf.display());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("pdfinfo says no {name}:\n{text}"))
}

/// The number of pages of `pdf`.
pub fn pages(pdf: &Path) -> usize {
    pdf_info(pdf, "Pages").parse().unwrap()
}

/// The text of each page of `pdf`, laid out as printed (`pdftotext -layout`), first page first.
pub fn page_texts(pdf: &Path) -> Vec<String> {
    require("pdftotext", "-v", "poppler-utils");
    (1..=pages(pdf))
        .map(|p| {
            let out = Command::new("pdftotext")
                .args(["-layout", "-f", &p.to_string(), "-l", &p.to_string()])
                .arg(pdf)
                .arg("-")
                .output()
                .unwrap();
            assert!(out.status.success(), "pdftotext page {p}");
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
        .collect()
}

#[cfg(unix)]
#[allow(unused_imports)] // the binaries that print use only the functions above
pub use devtools::Browser;

#[cfg(unix)]
mod devtools {
    use super::{FLAGS, chromium, require};
    use std::fs::File;
    use std::io::{Read, Write};
    use std::os::unix::io::{FromRawFd, IntoRawFd};
    use std::os::unix::process::CommandExt;
    use std::process::{Child, Command, Stdio};
    use std::sync::mpsc::{Receiver, channel};
    use std::time::Duration;

    /// A headless Chromium with one page open.
    pub struct Browser {
        child: Child,
        to: File,
        from: Receiver<serde_json::Value>,
        session: String,
        next: u64,
        _profile: tempfile::TempDir,
    }

    /// A pipe whose two ends close on exec (std sets the flag on every Unix; `pipe2` is not on
    /// macOS).
    fn pipe() -> (i32, i32) {
        let (from, to) = std::io::pipe().expect("pipe");
        (from.into_raw_fd(), to.into_raw_fd())
    }

    impl Browser {
        /// Chromium showing `url` in a `width` x `height` window (the test fails when it cannot
        /// be run).
        pub fn open(url: &str, width: u32, height: u32) -> Browser {
            let bin = chromium();
            require(&bin, "--version", "chromium");
            let profile = tempfile::tempdir().expect("profile folder");
            let (in_r, in_w) = pipe();
            let (out_r, out_w) = pipe();
            let mut cmd = Command::new(bin);
            cmd.args(FLAGS)
                .arg("--remote-debugging-pipe")
                .arg(format!("--user-data-dir={}", profile.path().display()))
                .arg(format!("--window-size={width},{height}"))
                .arg("about:blank")
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec.
            unsafe {
                // The pipe's ends may themselves be 3 or 4: moved above 10 first, so one dup2
                // cannot overwrite the other end, and dup2 onto a different number always
                // clears close-on-exec (dup2 of 3 onto 3 would leave it set, and Chromium would
                // start without its pipe).
                cmd.pre_exec(move || {
                    let from = libc::fcntl(in_r, libc::F_DUPFD, 10);
                    let to = libc::fcntl(out_w, libc::F_DUPFD, 10);
                    if from < 0 || to < 0 || libc::dup2(from, 3) < 0 || libc::dup2(to, 4) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            let child = cmd.spawn().expect("start chromium");
            // SAFETY: the descriptors are ours, each wrapped once.
            let (to, mut reader) = unsafe {
                libc::close(in_r);
                libc::close(out_w);
                (File::from_raw_fd(in_w), File::from_raw_fd(out_r))
            };
            let (tx, from) = channel();
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let mut byte = [0u8; 4096];
                while let Ok(n) = reader.read(&mut byte) {
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&byte[..n]);
                    while let Some(end) = buf.iter().position(|&b| b == 0) {
                        let msg: Vec<u8> = buf.drain(..=end).collect();
                        if let Ok(v) = serde_json::from_slice(&msg[..end])
                            && tx.send(v).is_err()
                        {
                            return;
                        }
                    }
                }
            });
            let mut b = Browser {
                child,
                to,
                from,
                session: String::new(),
                next: 0,
                _profile: profile,
            };
            let target = b.call(
                None,
                "Target.createTarget",
                serde_json::json!({ "url": url }),
            );
            let id = target["targetId"].as_str().expect("a target").to_string();
            let attached = b.call(
                None,
                "Target.attachToTarget",
                serde_json::json!({ "targetId": id, "flatten": true }),
            );
            b.session = attached["sessionId"]
                .as_str()
                .expect("a session")
                .to_string();
            b
        }

        fn call(
            &mut self,
            session: Option<&str>,
            method: &str,
            params: serde_json::Value,
        ) -> serde_json::Value {
            self.next += 1;
            let id = self.next;
            let mut msg = serde_json::json!({ "id": id, "method": method, "params": params });
            if let Some(s) = session {
                msg["sessionId"] = s.into();
            }
            let mut bytes = msg.to_string().into_bytes();
            bytes.push(0);
            self.to.write_all(&bytes).expect("write to chromium");
            loop {
                let v = self
                    .from
                    .recv_timeout(Duration::from_secs(20))
                    .expect("chromium answers");
                if v["id"] == id {
                    assert!(v.get("error").is_none(), "{method}: {v}");
                    return v["result"].clone();
                }
            }
        }

        /// The value of a JavaScript expression in the page.
        pub fn eval(&mut self, expression: &str) -> serde_json::Value {
            let session = self.session.clone();
            let r = self.call(
                Some(&session),
                "Runtime.evaluate",
                serde_json::json!({ "expression": expression, "returnByValue": true }),
            );
            r["result"]["value"].clone()
        }
    }

    impl Browser {
        /// The page as a PNG image of `width` x `height` CSS pixels (one device pixel each;
        /// a phone's view when `mobile`).
        pub fn screenshot(&mut self, width: u32, height: u32, mobile: bool) -> Vec<u8> {
            let session = self.session.clone();
            self.call(
                Some(&session),
                "Emulation.setDeviceMetricsOverride",
                serde_json::json!({
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile
                }),
            );
            let shot = self.call(
                Some(&session),
                "Page.captureScreenshot",
                serde_json::json!({ "format": "png" }),
            );
            base64(shot["data"].as_str().expect("image data"))
        }
    }

    /// The bytes of standard base64 text.
    fn base64(text: &str) -> Vec<u8> {
        const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = Vec::with_capacity(text.len() * 3 / 4);
        let (mut acc, mut bits) = (0u32, 0);
        for c in text.bytes().filter(|&c| c != b'=') {
            let v = ABC.iter().position(|&a| a == c).expect("base64") as u32;
            acc = (acc << 6) | v;
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        }
        out
    }

    impl Drop for Browser {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
