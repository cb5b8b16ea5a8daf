//! Boards and the desk on hosts of their own: a network namespace for the desk and one for each
//! of three boards, each board linked to the desk's bridge by a veth pair (a hall's switch).
//! The desk runs the real `crossboard serve --bind` on its address; each board runs the real
//! `crossboard report` on its own match file, which the test grows record by record as a
//! board's crossboard does. One board's link is cut mid-game and restored, then the desk's
//! server is killed (SIGKILL) as a push reaches it and restarted: each time the desk's copy
//! must come back to the board's file byte for byte, nothing lost and nothing doubled.
//!
//! Needs root and `ip netns` (iproute2; tests/run installs it): without them the test fails
//! in CI (CI=true) and is skipped with the reason elsewhere. Every name holds the test's pid
//! and a letter of the test's own, so two runs at once do not meet, nor this test and the
//! rehearsal (tests/serve/rehearsal.rs), which takes its hosts from here; a guard removes the
//! namespaces (and with them the links) and ends the processes, however the test ends.

use crate::hall::{Board, Boards, start_serve};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BOARDS: usize = 3;
/// The desk's address on the hall's network (the boards are .11, .12, ...).
const DESK: &str = "10.201.0.1";
const PORT: &str = "8080";
/// Between two records a board writes.
const PACE: Duration = Duration::from_millis(100);
/// The longest wait for the desk to catch up: a reporter that could not reach the desk waits
/// twice as long each time, up to 30 s.
const CATCH_UP: Duration = Duration::from_secs(45);

/// `ip ARGS`; panics with what it said when it fails.
fn ip(args: &[&str]) {
    let out = Command::new("ip").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "ip {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `ip ARGS`, its failure ignored (cleaning up what may not exist).
fn ip_quiet(args: &[&str]) {
    let _ = Command::new("ip")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The hosts: the namespaces, the processes in them; dropping it ends them all.
pub(crate) struct Hosts {
    /// The test's pid and a letter of its own: the start of every name.
    prefix: String,
    desk: String,
    boards: Vec<String>,
    server: Option<Child>,
    /// Each reporter running, with its board (0-based).
    reporters: Vec<(usize, Child)>,
}

impl Drop for Hosts {
    fn drop(&mut self) {
        let reporters = self.reporters.iter_mut().map(|(_, c)| c);
        for c in self.server.iter_mut().chain(reporters) {
            let _ = c.kill();
            let _ = c.wait();
        }
        for ns in self.boards.iter().chain([&self.desk]) {
            ip_quiet(&["netns", "del", ns]);
        }
        // A pair not yet moved into a namespace when setting up failed.
        for k in 0..self.boards.len() {
            ip_quiet(&["link", "del", &format!("{}d{k}", self.prefix)]);
        }
    }
}

/// Why the test cannot run here, if it cannot.
pub(crate) fn unavailable() -> Option<String> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Some("network namespaces need root".into());
    }
    match Command::new("ip").args(["netns", "list"]).output() {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!(
            "`ip netns` fails: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Some(format!("no `ip` command (iproute2): {e}")),
    }
}

impl Hosts {
    /// The desk's namespace with the hall's bridge, and the namespaces of `boards` boards
    /// linked to it; `tag` (a letter) sets the names apart from another test's.
    pub(crate) fn up(tag: char, boards: usize) -> Hosts {
        let prefix = format!("cb{}{tag}", std::process::id());
        let hosts = Hosts {
            desk: format!("{prefix}-desk"),
            boards: (0..boards).map(|k| format!("{prefix}-board{k}")).collect(),
            prefix: prefix.clone(),
            server: None,
            reporters: Vec::new(),
        };
        let desk = hosts.desk.clone();
        ip(&["netns", "add", &desk]);
        ip(&["-n", &desk, "link", "set", "lo", "up"]);
        ip(&["-n", &desk, "link", "add", "hall", "type", "bridge"]);
        ip(&[
            "-n",
            &desk,
            "addr",
            "add",
            &format!("{DESK}/24"),
            "dev",
            "hall",
        ]);
        ip(&["-n", &desk, "link", "set", "hall", "up"]);
        for (k, ns) in hosts.boards.clone().iter().enumerate() {
            let (d, b) = (format!("{prefix}d{k}"), hosts.link(k));
            ip(&["netns", "add", ns]);
            ip(&["link", "add", &d, "type", "veth", "peer", "name", &b]);
            ip(&["link", "set", &d, "netns", &desk]);
            ip(&["link", "set", &b, "netns", ns]);
            ip(&["-n", &desk, "link", "set", &d, "master", "hall"]);
            ip(&["-n", &desk, "link", "set", &d, "up"]);
            let addr = format!("10.201.0.{}/24", 11 + k);
            ip(&["-n", ns, "addr", "add", &addr, "dev", &b]);
            ip(&["-n", ns, "link", "set", &b, "up"]);
            ip(&["-n", ns, "link", "set", "lo", "up"]);
        }
        hosts
    }

    /// Board `k`'s end of its link.
    fn link(&self, k: usize) -> String {
        format!("{}b{k}", self.prefix)
    }

    /// `crossboard ARGS` in namespace `ns`.
    fn crossboard(ns: &str, args: &[&str]) -> Command {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", ns, env!("CARGO_BIN_EXE_crossboard")])
            .args(args);
        c
    }

    /// Start the desk's server (`ip netns exec` becomes it: killing the child kills the
    /// server) and wait until it says it serves.
    pub(crate) fn serve(&mut self, db: &std::path::Path) {
        let db = db.to_str().unwrap();
        let mut command = Hosts::crossboard(&self.desk, &["serve", "--db", db]);
        command
            .args(["--bind", DESK, "--port", PORT])
            .stderr(Stdio::null());
        let (child, addr) = start_serve(command);
        self.server = Some(child);
        assert_eq!(addr.to_string(), format!("{DESK}:{PORT}"));
    }

    /// Kill the desk's server at once (SIGKILL: no shutdown, no last write).
    fn kill_desk(&mut self) {
        let mut server = self.server.take().unwrap();
        server.kill().unwrap();
        server.wait().unwrap();
    }

    /// Start board `k`'s `crossboard report` on its file.
    fn report(&mut self, k: usize, board: &Board) {
        self.report_file(k, &board.token, &board.file);
    }

    /// Start `crossboard report` on `file` with `token` on board `k`'s host.
    pub(crate) fn report_file(&mut self, k: usize, token: &str, file: &std::path::Path) {
        let url = Hosts::desk_url();
        let file = file.to_str().unwrap();
        let child = Hosts::crossboard(&self.boards[k], &["report", "--desk", &url])
            .args(["--board-token", token, file])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        self.reporters.push((k, child));
    }

    /// Board `k`'s reporter stopped dead (SIGKILL), as when its laptop restarts.
    pub(crate) fn stop_reporter(&mut self, k: usize) {
        let at = self.reporters.iter().position(|(b, _)| *b == k).unwrap();
        let (_, mut c) = self.reporters.remove(at);
        c.kill().unwrap();
        c.wait().unwrap();
    }

    /// `crossboard report` on `file` with `token` on board `k`'s host, waited for (at most
    /// `limit`): how it ended and what it wrote to its standard error.
    pub(crate) fn report_to_end(
        &mut self,
        k: usize,
        token: &str,
        file: &std::path::Path,
        limit: Duration,
    ) -> (std::process::ExitStatus, String) {
        let url = Hosts::desk_url();
        let file = file.to_str().unwrap();
        let mut command = Hosts::crossboard(&self.boards[k], &["report", "--desk", &url]);
        command.args(["--board-token", token, file]);
        crate::hall::run_to_end(command, limit)
    }

    /// Board `k`'s link down (`up`: false) or up again.
    pub(crate) fn set_link(&self, k: usize, up: bool) {
        let state = if up { "up" } else { "down" };
        ip(&["-n", &self.boards[k], "link", "set", &self.link(k), state]);
    }

    /// Wait (at most `limit`) for every reporter to end by itself; each must have succeeded
    /// (`when` says when, if not).
    pub(crate) fn reporters_done(&mut self, limit: Duration, when: &str) {
        let start = Instant::now();
        for (k, c) in &mut self.reporters {
            loop {
                if let Some(status) = c.try_wait().unwrap() {
                    assert!(
                        status.success(),
                        "{when}: board {}'s reporter: {status}",
                        *k + 1
                    );
                    break;
                }
                assert!(
                    start.elapsed() < limit,
                    "{when}: board {}'s reporter still runs",
                    *k + 1
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        self.reporters.clear();
    }

    /// The desk's address as the boards reach it.
    fn desk_url() -> String {
        format!("http://{DESK}:{PORT}")
    }

    /// GET `path` from the desk's server, from inside the desk's namespace (a thread of this
    /// test joins it, as a browser on the desk's laptop): status and body.
    pub(crate) fn get(&self, path: &str) -> (u16, String) {
        use std::os::fd::AsRawFd;
        let netns = std::fs::File::open(format!("/run/netns/{}", self.desk)).unwrap();
        let url = format!("{}{path}", Hosts::desk_url());
        std::thread::scope(|s| {
            s.spawn(|| {
                // SAFETY: a valid namespace descriptor; only this thread changes namespace.
                let joined = unsafe { libc::setns(netns.as_raw_fd(), libc::CLONE_NEWNET) };
                assert_eq!(joined, 0, "setns: {}", std::io::Error::last_os_error());
                crate::hall::get_url(&url)
            })
            .join()
            .unwrap()
        })
    }
}

/// Every board still playing writes `records` more records, one each per [`PACE`].
fn play(event: &mut Boards, records: usize) {
    for _ in 0..records {
        for b in &mut event.boards {
            b.play();
        }
        std::thread::sleep(PACE);
    }
}

/// Wait (at most [`CATCH_UP`]) until the desk's copy of each of `boards` is its file, byte for
/// byte.
fn caught_up(event: &Boards, boards: &[usize], when: &str) {
    let start = Instant::now();
    for &k in boards {
        loop {
            let (copy, file) = (event.copy(k), event.boards[k].text());
            if copy == file {
                break;
            }
            assert!(
                start.elapsed() < CATCH_UP,
                "{when}: the desk's copy of board {k} has {} of {} lines after {CATCH_UP:?}",
                copy.lines().count(),
                file.lines().count()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn boards_on_hosts_of_their_own_report_through_a_cut_link_and_a_killed_desk() {
    if let Some(why) = unavailable() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the network test cannot run in CI: {why} (run the tests as root with iproute2)"
        );
        eprintln!("skipped: {why}");
        return;
    }
    let mut event = Boards::new(BOARDS);
    let mut hosts = Hosts::up('n', BOARDS);
    hosts.serve(&event.db);
    for k in 0..BOARDS {
        hosts.report(k, &event.boards[k]);
    }
    play(&mut event, 10);
    caught_up(&event, &[0, 1, 2], "boards on the network");

    // Board 2's link is cut mid-game; it plays on, the others keep reporting.
    hosts.set_link(1, false);
    play(&mut event, 10);
    caught_up(
        &event,
        &[0, 2],
        "the other boards while board 2's link is cut",
    );
    let (copy, file) = (event.copy(1), event.boards[1].text());
    assert!(
        file.starts_with(&copy) && copy.len() < file.len(),
        "the desk had board 2's moves while its link was cut"
    );
    hosts.set_link(1, true);
    play(&mut event, 5);
    caught_up(&event, &[0, 1, 2], "board 2's link restored");

    // Every board writes a record; the moment the first reaches the desk's copy, the desk's
    // server is killed, its pushes in flight.
    let before: Vec<usize> = (0..BOARDS).map(|k| event.copy(k).len()).collect();
    for b in &mut event.boards {
        b.play();
    }
    let start = Instant::now();
    while (0..BOARDS).all(|k| event.copy(k).len() == before[k]) {
        assert!(start.elapsed() < CATCH_UP, "no push reached the desk");
        std::thread::sleep(Duration::from_millis(1));
    }
    hosts.kill_desk();
    play(&mut event, 5);
    hosts.serve(&event.db);

    // The boards play their matches out; each reporter ends when its match is over and the
    // desk has every line.
    let mut rounds = 0;
    while event.boards.iter_mut().any(Board::play) {
        rounds += 1;
        assert!(rounds < 600, "the matches do not end");
        std::thread::sleep(PACE / 4);
    }
    hosts.reporters_done(CATCH_UP, "the matches over");
    caught_up(&event, &[0, 1, 2], "the desk killed and restarted");
    for k in 0..BOARDS {
        assert_eq!(event.copy(k), event.boards[k].text(), "board {}", k + 1);
    }
}
