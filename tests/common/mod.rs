//! The tmux harness of the end-to-end tests: each test runs the real binary on its own tmux
//! server (`-L`), polls `capture-pane` with a deadline, and is skipped (with a message) only when
//! tmux is absent (`tests/run` installs it).

#![allow(dead_code)] // each test file uses a different part of the harness
pub mod browser;
pub mod cli;
pub mod pdn;

use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// How long to wait for a screen before failing (generous: a loaded CI machine is slow).
pub const WAIT_SECS: u64 = 30;

/// A tmux server with one session running the binary.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// None when tmux is not installed.
    pub fn start(w: u16, h: u16, shell_command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("SKIPPED: tmux is not installed (tests/run installs it)");
            return None;
        }
        let socket = format!(
            "crossboard-e2e-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        let t = Tmux { socket };
        let out = t.tmux(&[
            "new-session",
            "-d",
            "-s",
            "e2e",
            "-x",
            &w.to_string(),
            "-y",
            &h.to_string(),
            shell_command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Keep the window at the size asked for, and keep the pane after the program ends.
        t.tmux(&["set-option", "-t", "e2e", "window-size", "manual"]);
        t.tmux(&["set-option", "-t", "e2e", "remain-on-exit", "on"]);
        Some(t)
    }

    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("run tmux")
    }

    /// Send keys (tmux key names: "Enter", "Escape", "C-c", or literal text with `-l`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "e2e"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Type literal text.
    pub fn text(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "e2e", "-l", text]);
    }

    /// A tmux format of the pane ("#{pane_pid}", "#{alternate_on}").
    pub fn display(&self, format: &str) -> String {
        String::from_utf8_lossy(&self.tmux(&["display", "-p", "-t", "e2e", format]).stdout)
            .trim()
            .to_string()
    }

    pub fn capture(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "e2e"]).stdout)
            .into_owned()
    }

    /// Wait until the screen satisfies `pred` and is whole: the same in two captures 50 ms
    /// apart, so a screen caught half drawn (the new header above the old menu) is not taken
    /// for the next one. Panic with the screen after `secs`.
    pub fn wait_for(&self, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.capture();
            if pred(&screen) {
                sleep(Duration::from_millis(50));
                // A screen that never holds still (a clock in tenths) is taken at the deadline.
                if self.capture() == screen || Instant::now() > deadline {
                    return screen;
                }
                continue;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; screen:\n{screen}");
            }
            sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(text, WAIT_SECS, |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// The crossboard binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_crossboard")
}

// ----- the match flow, shared by the end-to-end match tests -----

/// The legal moves the input line lists ("legal: 9-14 10-15 ...").
pub fn legal_moves(screen: &str) -> Vec<String> {
    screen
        .lines()
        .find_map(|l| l.split("legal: ").nth(1))
        .map(|rest| rest.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// From the home screen to the first game of a match on the defaults, clock running.
pub fn start_default_match(t: &Tmux) {
    t.wait_text("New match");
    t.keys(&["n"]);
    t.wait_text("New match: set-up");
    let form = t.wait_text("Enter starts the match");
    assert!(form.contains("30 moves in 60 min"), "{form}");
    t.keys(&["Enter"]);
    t.wait_text("calls the coin");
    t.keys(&["h"]);
    t.wait_text("r Red, w White");
    t.keys(&["r"]);
    t.wait_text("on to the ballot draw");
    t.keys(&["Enter"]);
    draw_and_start_first_game(t);
}

/// From a match screen showing "Enter draws the ballot" (card by card) to the first game with its clock
/// running: the ballot drawn, accepted, the board shown and the game started.
pub fn draw_and_start_first_game(t: &Tmux) {
    // Card by card (the default): Enter draws, each card waits; Enter shows them all.
    t.wait_text("Enter draws the ballot card by card");
    t.keys(&["Enter"]);
    t.wait_text("waits for a key");
    t.keys(&["Enter"]);
    let drawn = t.wait_text("White decides first");
    assert!(drawn.contains("Public position id"), "{drawn}");
    t.keys(&["a"]);
    t.wait_text("Enter goes to the board");
    t.keys(&["Enter"]);
    t.wait_text("starts");
    t.keys(&["Enter"]);
    t.wait_text("legal: ");
}

/// Type the first legal move `screen` lists and play it (Enter); returns it.
pub fn play_first_legal_move(t: &Tmux, screen: &str) -> String {
    let mv = legal_moves(screen)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a legal move listed:\n{screen}"));
    t.text(&mv);
    t.wait_text("Enter plays");
    t.keys(&["Enter"]);
    mv
}

/// Play the first legal move twice; returns the moves.
pub fn play_two_moves(t: &Tmux) -> Vec<String> {
    let mut played = Vec::new();
    for _ in 0..2 {
        let screen = t.wait_text("legal: ");
        let mv = play_first_legal_move(t, &screen);
        t.wait_for(&format!("{mv} played"), WAIT_SECS, |s| {
            s.contains(&format!(" {mv} ")) && s.contains("Move: _ ")
        });
        played.push(mv);
    }
    played
}
