//! Headless Chromium for the end-to-end tests of the served pages: Debian's `chromium`
//! (tests/run installs it when absent), started as the project's tests start it, with a fresh
//! profile in a temporary folder, and driven over `--remote-debugging-pipe` (the DevTools
//! protocol's JSON messages, each ended by a NUL byte, on file descriptors 3 and 4): no port,
//! no websocket, no extra crate, and the page is read while it stays open. (`--dump-dom` reads a
//! page only once it has loaded, or after a virtual-time budget that an open event stream
//! never lets run out.) A test is skipped, with a message, only when no chromium is installed.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::io::FromRawFd;
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

fn pipe() -> (i32, i32) {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    (fds[0], fds[1])
}

impl Browser {
    /// Chromium showing `url` in a `width` x `height` window; `None` when it is not installed.
    pub fn open(url: &str, width: u32, height: u32) -> Option<Browser> {
        let bin = ["chromium", "chromium-browser"].into_iter().find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
        let Some(bin) = bin else {
            eprintln!("SKIPPED: chromium is not installed (tests/run installs it)");
            return None;
        };
        let profile = tempfile::tempdir().expect("profile folder");
        let (in_r, in_w) = pipe();
        let (out_r, out_w) = pipe();
        let mut cmd = Command::new(bin);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--window-size={width},{height}"))
        .arg("about:blank")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (dup2) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::dup2(in_r, 3) < 0 || libc::dup2(out_w, 4) < 0 {
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
                    if let Ok(v) = serde_json::from_slice(&msg[..end]) {
                        if tx.send(v).is_err() {
                            return;
                        }
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
        Some(b)
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

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
