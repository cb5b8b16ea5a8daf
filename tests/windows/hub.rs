//! The Hub protocol over pipes from the Windows build, as a Windows GUI would run it: the
//! handshake, engine moves that the rules engine accepts, the same moves as the Linux build
//! (one thread, a fixed node count), and `quit` ending the process.

use super::support::{linux_bin, wine};
use crossboard::engine::{Game, Position, Rules};
use crossboard::search::{Line, parse_hub_move, position_text};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Hub {
    fn start(mut command: Command) -> Hub {
        let mut child = command
            .args(["hub", "--hash", "4", "--no-egdb"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("crossboard hub starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Hub {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").expect("write to hub");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first whose command is `until` (60 s at most).
    fn read_until(&mut self, until: &str) -> Vec<Line> {
        let end = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let text = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {until:?} after {seen:?}"));
            assert!(!text.ends_with('\r'), "a line ended by \\r\\n: {text:?}");
            let line = Line::parse(&text);
            let done = line.command == until;
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// The engine's moves for `plies` plies from the start, both sides.
    fn play(&mut self, plies: usize) -> Vec<String> {
        self.send("hub");
        let intro = self.read_until("wait");
        let id = intro.iter().find(|l| l.command == "id").expect("id line");
        assert_eq!(id.get("name"), Some("crossboard"));
        self.send("set-param name=threads value=1");
        self.send("init");
        self.read_until("ready");
        self.send("new-game");
        let start = Position::start();
        let mut game = Game::new(Rules::English, start);
        let mut sent: Vec<String> = Vec::new();
        for _ in 0..plies {
            let mut pos = Line::new("pos").arg("pos", position_text(&start));
            if !sent.is_empty() {
                pos = pos.arg("moves", sent.join(" "));
            }
            self.send(&pos.to_string());
            self.send("level nodes=2000");
            self.send("go think");
            let answer = self.read_until("done");
            let text = answer
                .last()
                .and_then(|l| l.get("move"))
                .expect("a move")
                .to_string();
            let mv = parse_hub_move(game.position(), &text)
                .unwrap_or_else(|e| panic!("illegal move {text}: {e}"));
            game.play(&mv).expect("legal");
            sent.push(text);
        }
        self.send("quit");
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "quit: {status}");
                break;
            }
            assert!(Instant::now() < end, "quit did not end the engine");
            std::thread::sleep(Duration::from_millis(50));
        }
        sent
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn the_windows_engine_speaks_hub_over_pipes_and_plays_as_the_linux_one() {
    let Some(w) = wine() else { return };
    let windows = Hub::start(w.command(&w.exe)).play(8);
    let linux = Hub::start(Command::new(linux_bin())).play(8);
    assert_eq!(windows, linux);
}
