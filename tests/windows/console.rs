//! The terminal UI of the Windows build in Wine's console, driven by keys and read back
//! (see [`super::screen`] for how the screen is read): the first run with no arguments, a
//! window too small; and the match flow that [`super::interchange`] uses on both builds.

use super::screen::Pane;
use super::support::{Wine, linux_bin, wine};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Width and height of the windows the UI runs in.
pub const W: u16 = 100;
pub const H: u16 = 30;

/// A shell command running the Windows build in the prefix with `args` (shell words).
pub fn windows_command(w: &Wine, args: &str) -> String {
    format!(
        "env WINEPREFIX='{}' WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml=' wine '{}' {args}",
        w.prefix.display(),
        w.exe.display()
    )
}

/// A UI in a pane of [`W`] x [`H`].
pub struct Tui(pub Pane);

impl Tui {
    pub fn start(command: &str) -> Option<Tui> {
        Pane::start(W, H, command).map(Tui)
    }

    pub fn wait_text(&self, text: &str) -> String {
        self.0.wait_text(W.into(), H.into(), text)
    }

    pub fn keys(&self, keys: &[&str]) {
        self.0.keys(keys);
    }

    /// The moves the game screen lists as legal (`legal: 9-14 10-15 ...`).
    fn legal_moves(screen: &str) -> Vec<String> {
        let is_move = |w: &&str| {
            w.split(['-', 'x']).count() >= 2
                && w.split(['-', 'x'])
                    .all(|n| n.parse::<u8>().is_ok_and(|n| (1..=32).contains(&n)))
        };
        screen
            .lines()
            .find_map(|l| l.split("legal: ").nth(1))
            .map(|rest| {
                rest.split_whitespace()
                    .take_while(is_move)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// From the home screen: a match on the defaults saved in `file`, the first game started,
    /// two moves played (the first legal one each time), each seen in the file (read by the
    /// Linux build's export) before the next; returns them.
    pub fn start_match_and_play_two_moves(&self, file: &Path) -> Vec<String> {
        self.wait_text("New match");
        self.keys(&["n"]);
        self.wait_text("Enter starts the match");
        self.keys(&["Enter"]);
        self.wait_text("calls the coin");
        self.keys(&["h"]);
        self.wait_text("r Red, w White");
        self.keys(&["r"]);
        self.wait_text("on to the ballot draw");
        self.keys(&["Enter"]);
        // The status line's start: in CI's runs the replay of Wine's console output tore the
        // rest of this long line ("Enter draws the ballot card bytcardt(t: automatic)").
        self.wait_text("Enter draws the ballot");
        self.keys(&["Enter"]);
        self.wait_text("waits for a key");
        self.keys(&["Enter"]);
        self.wait_text("White decides first");
        self.keys(&["a"]);
        self.wait_text("Enter goes to the board");
        self.keys(&["Enter"]);
        self.wait_text("starts");
        self.keys(&["Enter"]);
        let mut played: Vec<String> = Vec::new();
        let mut before = Vec::new();
        for _ in 0..2 {
            let screen = self.0.wait_for(W.into(), H.into(), "the legal moves", |s| {
                let legal = Tui::legal_moves(s);
                !legal.is_empty() && legal != before
            });
            before = Tui::legal_moves(&screen);
            let mv = before[0].clone();
            self.0.text(&mv);
            self.keys(&["Enter"]);
            played.push(mv);
            let want = played.clone();
            wait_until(&format!("{want:?} in {}", file.display()), || {
                let out = Command::new(linux_bin())
                    .arg("export")
                    .arg(file)
                    .args(["--out", "-"])
                    .output();
                out.is_ok_and(|o| {
                    let pdn = String::from_utf8_lossy(&o.stdout);
                    want.iter().all(|m| pdn.contains(m.as_str()))
                })
            });
        }
        played
    }

    /// Leave the match (`q`, confirmed), then quit from home (`q`): the UI ends with
    /// status 0 and has left the alternate screen. (Not Ctrl-C: in Wine's console it comes
    /// sometimes as a key, sometimes as the console's Ctrl-C event, which stops crossboard as
    /// SIGINT does on Unix, status 130.)
    pub fn leave_and_quit(&self) {
        self.keys(&["q"]);
        self.wait_text("Leave now?");
        self.keys(&["y"]);
        self.wait_text("New match");
        self.keys(&["q"]);
        self.ends_cleanly();
    }

    /// The UI ends with status 0, the terminal restored. The program's last bytes reach the
    /// log through tmux's pipe after the shell has written the status, so the screen is read
    /// again until it has left the alternate screen (or the wait runs out).
    pub fn ends_cleanly(&self) {
        let status = self.0.exit_status();
        let screen = self.0.screen(W.into(), H.into());
        assert_eq!(status, 0, "{}", screen.text());
        wait_until("the alternate screen to be left", || {
            !self.0.screen(W.into(), H.into()).alternate
        });
    }
}

/// Wait until `ready` holds (60 s at most).
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(super::screen::WAIT_SECS);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn first_run_with_no_arguments_opens_home_names_the_files_and_quits_cleanly() {
    let Some(w) = wine() else { return };
    let Some(t) = Tui::start(&windows_command(w, "")) else {
        return;
    };
    let home = t.wait_text("New match");
    let files = format!("Your files: {}\\crossboard\\data", w.env_var("APPDATA"));
    assert!(home.contains(&files), "{files}:\n{home}");
    assert!(home.contains("Tournament desk"), "{home}");
    t.keys(&["q"]);
    t.ends_cleanly();
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn a_console_too_small_says_so_and_its_keys_still_work() {
    let Some(w) = wine() else { return };
    let Some(p) = Pane::start(60, 20, &windows_command(w, "")) else {
        return;
    };
    p.wait_text(60, 20, "window too small (need 80x24)");
    p.keys(&["q"]);
    assert_eq!(p.exit_status(), 0, "{}", p.screen(60, 20).text());
}
