//! A terminal program driven by keys and read from what it wrote, for the terminal UI under
//! Wine: tmux runs the program and hands its output, byte for byte, to a log (`pipe-pane`),
//! and [`Screen`] replays the log the way a terminal would.
//!
//! Why not tmux's own screen: Wine 8's console, passing the program's escape codes on to the
//! Unix terminal, lays them out as text in a window of its own, escape codes counted as
//! characters: it breaks a line (`\r\n`) each time that count reaches the window's width,
//! and adds cursor switches, even inside an escape code, so what tmux shows is torn apart.
//! The screen never writes `\r` or `\n` itself (it places the cursor), so [`Screen`] drops
//! what Wine adds and gets the program's screen back, near enough to read its text (Wine
//! also shortens runs of blanks it takes for unchanged, so a stray character can remain).
//! The Linux build runs the same way, so both builds are read alike.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// How long a screen may take to appear (Wine on a loaded two-core machine is slow).
pub const WAIT_SECS: u64 = 60;

/// A program in a tmux window of its own, its output logged.
pub struct Pane {
    socket: String,
    log: PathBuf,
    status: PathBuf,
    _dir: tempfile::TempDir,
}

impl Pane {
    /// Run `command` (a shell command) in a `w` x `h` window. `None` (with a message) when
    /// tmux is absent, outside CI.
    pub fn start(w: u16, h: u16, command: &str) -> Option<Pane> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is not installed (tests/run installs it)"
            );
            eprintln!("SKIPPED: tmux is not installed (tests/run installs it)");
            return None;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("output");
        let go = dir.path().join("go");
        let status = dir.path().join("status");
        let pane = Pane {
            socket: format!(
                "crossboard-windows-{}-{}",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::SeqCst)
            ),
            log,
            status: status.clone(),
            _dir: dir,
        };
        // The program waits until its output is logged; its status is written down.
        let wrapped = format!(
            "while [ ! -e '{}' ]; do sleep 0.05; done; {command}; echo $? > '{}'",
            go.display(),
            status.display()
        );
        let out = pane.tmux(&[
            "new-session",
            "-d",
            "-s",
            "w",
            "-x",
            &w.to_string(),
            "-y",
            &h.to_string(),
            &wrapped,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        pane.tmux(&["set-option", "-t", "w", "window-size", "manual"]);
        pane.tmux(&[
            "pipe-pane",
            "-t",
            "w",
            "-O",
            &format!("cat >> '{}'", pane.log.display()),
        ]);
        std::fs::write(&go, "").expect("start the program");
        Some(pane)
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("run tmux")
    }

    /// Send keys (tmux key names: "Enter", "Escape", "C-c", a letter).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "w"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Type literal text.
    pub fn text(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "w", "-l", text]);
    }

    /// Everything the program wrote so far.
    pub fn output(&self) -> String {
        String::from_utf8_lossy(&std::fs::read(&self.log).unwrap_or_default()).into_owned()
    }

    /// The screen as the program drew it (in a `w` x `h` window).
    pub fn screen(&self, w: usize, h: usize) -> Screen {
        let mut s = Screen::new(w, h);
        s.feed(&self.output());
        s
    }

    /// Wait until the screen shows `text`; returns the screen as text. Panics with the screen
    /// after [`WAIT_SECS`].
    pub fn wait_text(&self, w: usize, h: usize, text: &str) -> String {
        self.wait_for(w, h, text, |s| s.contains(text))
    }

    /// Wait until the screen satisfies `ready`; returns the screen as text.
    pub fn wait_for(&self, w: usize, h: usize, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(WAIT_SECS);
        loop {
            let screen = self.screen(w, h).text();
            if ready(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The program's exit status once it has ended (waits for it). Written by the shell
    /// that ran it: tmux 3.3 at times marks the pane dead without the status.
    pub fn exit_status(&self) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(WAIT_SECS);
        loop {
            let text = std::fs::read_to_string(&self.status).unwrap_or_default();
            if let Ok(status) = text.trim().parse() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the program did not end; the screen:\n{}",
                self.screen(120, 40).text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// A terminal's screen rebuilt from the bytes written to it: the cursor placement, erasing
/// and text that the terminal UI writes (colours and modes are read and ignored).
pub struct Screen {
    cells: Vec<Vec<char>>,
    row: usize,
    col: usize,
    /// The alternate screen is on (the UI is drawn there and leaves it on exit).
    pub alternate: bool,
}

/// `output` without the line breaks and cursor switches that Wine's console puts in,
/// anywhere, even inside an escape code: `\r\n` (with an erase-line `ESC [ K` before it, at
/// times), and `ESC [ ? 25 h` / `ESC [ ? 25 l` (the cursor shown and hidden, which [`Screen`]
/// does not follow anyway). The screen never writes a line break itself.
fn without_wines_additions(output: &str) -> String {
    output
        .replace("\x1b[?25h", "")
        .replace("\x1b[?25l", "")
        .replace("\x1b[K\r\r\n", "")
        .replace("\x1b[K\r\n", "")
        .replace(['\r', '\n'], "")
}

impl Screen {
    /// A blank `w` x `h` screen.
    pub fn new(w: usize, h: usize) -> Screen {
        Screen {
            cells: vec![vec![' '; w]; h],
            row: 0,
            col: 0,
            alternate: false,
        }
    }

    /// Apply `output`, without what Wine's console adds to it (see the module's note).
    pub fn feed(&mut self, output: &str) {
        let output = without_wines_additions(output);
        let mut chars = output.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\x1b' => match chars.next() {
                    Some('[') => {
                        let mut params = String::new();
                        let mut last = None;
                        for c in chars.by_ref() {
                            if ('\x40'..='\x7e').contains(&c) {
                                last = Some(c);
                                break;
                            }
                            params.push(c);
                        }
                        if let Some(f) = last {
                            self.csi(&params, f);
                        }
                    }
                    // Operating system commands (the window title): up to BEL or ESC \.
                    Some(']') => {
                        while let Some(c) = chars.next() {
                            if c == '\x07' {
                                break;
                            }
                            if c == '\x1b' {
                                chars.next();
                                break;
                            }
                        }
                    }
                    _ => {}
                },
                c if c.is_control() => {}
                c => {
                    let w = self.cells[0].len();
                    if let Some(line) = self.cells.get_mut(self.row)
                        && self.col < w
                    {
                        line[self.col] = c;
                    }
                    self.col = (self.col + 1).min(w);
                }
            }
        }
    }

    fn csi(&mut self, params: &str, f: char) {
        let (h, w) = (self.cells.len(), self.cells[0].len());
        let private = params.starts_with('?');
        let nums: Vec<usize> = params
            .trim_start_matches('?')
            .split(';')
            .map(|p| p.parse().unwrap_or(0))
            .collect();
        let n = |i: usize| nums.get(i).copied().filter(|&v| v > 0).unwrap_or(1);
        match f {
            'H' | 'f' => {
                self.row = (n(0) - 1).min(h - 1);
                self.col = (n(1) - 1).min(w - 1);
            }
            'A' => self.row = self.row.saturating_sub(n(0)),
            'B' => self.row = (self.row + n(0)).min(h - 1),
            'C' => self.col = (self.col + n(0)).min(w - 1),
            'D' => self.col = self.col.saturating_sub(n(0)),
            'G' => self.col = (n(0) - 1).min(w - 1),
            'J' => {
                let from = match nums.first().copied().unwrap_or(0) {
                    0 => Some((self.row, self.col)),
                    _ => None,
                };
                for (y, line) in self.cells.iter_mut().enumerate() {
                    for (x, cell) in line.iter_mut().enumerate() {
                        if from.is_none_or(|(r, c)| (y, x) >= (r, c)) {
                            *cell = ' ';
                        }
                    }
                }
            }
            'K' => {
                if let Some(line) = self.cells.get_mut(self.row) {
                    for cell in line.iter_mut().skip(self.col) {
                        *cell = ' ';
                    }
                }
            }
            'h' | 'l' if private && nums.contains(&1049) => {
                self.alternate = f == 'h';
                if self.alternate {
                    for line in &mut self.cells {
                        line.fill(' ');
                    }
                }
            }
            _ => {}
        }
    }

    /// The screen as text, one line per row, trailing spaces trimmed.
    pub fn text(&self) -> String {
        self.cells
            .iter()
            .map(|l| l.iter().collect::<String>().trim_end().to_string() + "\n")
            .collect()
    }
}

#[test]
fn the_screen_replays_cursor_placement_and_erasing_and_drops_line_breaks() {
    let mut s = Screen::new(20, 4);
    s.feed(
        "\x1b[?1049h\x1b[2J\x1b[2;3Hab\r\r\nc\x1b[38;5;\x1b[?25h\x1b[?25l3;49md\x1b[1;1Hxyz\x1b[1;2H\x1b[K",
    );
    assert_eq!(s.text(), "x\n  abcd\n\n\n");
    assert!(s.alternate);
    s.feed("\x1b]0;title\x07\x1b[?1049l");
    assert!(!s.alternate);
}
