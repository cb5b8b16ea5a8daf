//! The server under load, in a process of its own (the real `crossboard serve`), so that its
//! CPU time and peak memory, read from /proc, are the server's alone: boards each pushing a
//! move to the desk every 2 s (`POST /push`, as a board's reporter does), spectators holding
//! the event page's live feed (a tenth of them hall displays: `/hall`, kept live by the same
//! feed), pollers fetching the round's PDN every 2 s with its ETag.
//! Move to page: from a push acknowledged to the update showing it on each spectator's feed.
//! The clients come from many loopback addresses (the server allows 64 connections an
//! address). The short run is in the default test run and asserts that nothing fails and
//! every spectator sees every move; the full run (`--ignored`) gives BENCHMARKS.md's figures.
//! The full run lasts 5 minutes, or `CROSSBOARD_LOAD_SECONDS` (600 for the memory figures):
//! every minute it prints the server's CPU time so far, its peak resident memory (VmHWM) and
//! its resident memory now (VmRSS).

mod spectators;

use crate::hall::{Board, Boards, start_serve};
use spectators::{Last, spectators, stream};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

struct Load {
    boards: usize,
    spectators: usize,
    /// Of the spectators, the hall displays.
    halls: usize,
    pollers: usize,
    run: Duration,
    /// The server's `--feed-lifetime`: how long each live stream lasts before the spectator
    /// opens it again.
    lifetime: Duration,
}

/// Between a board's moves, and a poller's fetches.
const PACE: Duration = Duration::from_secs(2);
/// Clients from one loopback address at most (the server's limit is 64).
const PER_ADDRESS: usize = 50;

/// The server's process; killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(event: &Boards, lifetime: Duration) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_crossboard"));
        command
            .args(["serve", "--db", event.db.to_str().unwrap()])
            .args(["--bind", "127.0.0.1", "--port", "0"])
            .args(["--feed-lifetime", &lifetime.as_secs().to_string()])
            .stderr(Stdio::inherit());
        let (child, addr) = start_serve(command);
        Server { child, addr }
    }

    /// The server's threads now.
    fn threads(&self) -> usize {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap()
    }

    /// What the server has used so far.
    fn usage(&self) -> Usage {
        usage(self.child.id())
    }
}

/// What a process has used: CPU time (user + system), peak resident memory (VmHWM) and
/// resident memory now (VmRSS), KiB.
#[derive(Clone, Copy, Debug, Default)]
struct Usage {
    cpu: Duration,
    peak_kib: u64,
    rss_kib: u64,
}

/// What process `pid` has used so far, read from /proc.
fn usage(pid: u32) -> Usage {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat.rsplit(") ").next().unwrap().split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib = |field: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
            .unwrap_or(0)
    };
    Usage {
        cpu: Duration::from_millis(ticks * 1000 / hz),
        peak_kib: kib("VmHWM:"),
        rss_kib: kib("VmRSS:"),
    }
}

/// A connection to the server from loopback address `from` (127.0.0.0/8).
fn connect(server: SocketAddr, from: Ipv4Addr) -> std::io::Result<TcpStream> {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    let rt = RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_io()
            .build()
            .unwrap()
    });
    let s = rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::V4(SocketAddrV4::new(from, 0)))?;
        socket.connect(server).await
    })?;
    let s = s.into_std()?;
    s.set_nonblocking(false)?;
    Ok(s)
}

/// The `k`th loopback address of group `group` (spectators, pollers, boards).
fn address(group: u8, k: usize) -> Ipv4Addr {
    Ipv4Addr::new(127, group, (k / PER_ADDRESS) as u8, 1)
}

/// A poller fetching the round's PDN every 2 s with the ETag it has: its fetches and errors.
fn poller(server: SocketAddr, from: Ipv4Addr, stop: &AtomicBool) -> (usize, usize) {
    let (mut polls, mut errors) = (0, 0);
    let mut etag = String::new();
    while !stop.load(Ordering::Relaxed) {
        let asked = Instant::now();
        match fetch(server, from, &etag) {
            Some(tag) => {
                polls += 1;
                etag = tag;
            }
            None => errors += 1,
        }
        sleep_unless(stop, PACE.saturating_sub(asked.elapsed()));
    }
    (polls, errors)
}

/// GET /round/1.pdn with `If-None-Match: etag`: the ETag of a 200 or 304 answer.
fn fetch(server: SocketAddr, from: Ipv4Addr, etag: &str) -> Option<String> {
    let mut s = connect(server, from).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(
        s,
        "GET /round/1.pdn HTTP/1.1\r\nHost: hall\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    s.read_to_string(&mut answer).ok()?;
    let ok = answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.1 304");
    let tag = answer
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix("etag: "))?;
    ok.then(|| tag.to_string())
}

fn sleep_unless(stop: &AtomicBool, d: Duration) {
    let end = Instant::now() + d;
    while !stop.load(Ordering::Relaxed) && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(100).min(end - Instant::now()));
    }
}

/// The records the desk has acknowledged, all boards together, and the pushes: when each
/// was acknowledged and the records acknowledged then.
#[derive(Default)]
struct Acks {
    records: AtomicUsize,
    pushes: Mutex<Vec<(usize, Instant)>>,
}

/// A board playing a move every 2 s and pushing it to the desk as its reporter does, until
/// `run` is over or its match is; its errors (pushes refused or failed).
/// (The boards push from 127.0.0.1: fewer than 64 connections.)
fn board(server: SocketAddr, mut b: Board, start: Instant, run: Duration, acks: &Acks) -> usize {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into();
    let url = format!("http://{server}/push");
    let (mut sent_lines, mut sent_records, mut errors) = (0, 0, 0);
    let mut first = true;
    while start.elapsed() < run {
        let at = Instant::now();
        if !first && !b.play() {
            break;
        }
        first = false;
        let text = b.text();
        let lines: Vec<&str> = text.lines().collect();
        let push = serde_json::json!({ "from": sent_lines, "lines": &lines[sent_lines..] });
        let answer = agent
            .post(&url)
            .header("Authorization", &format!("Bearer {}", b.token))
            .send_json(push);
        let have = answer.ok().and_then(|mut r| {
            let v: serde_json::Value = r.body_mut().read_json().ok()?;
            v["have"].as_u64()
        });
        if have == Some(lines.len() as u64) {
            let records = b.m.log().len();
            let total = acks
                .records
                .fetch_add(records - sent_records, Ordering::SeqCst)
                + records
                - sent_records;
            acks.pushes.lock().unwrap().push((total, Instant::now()));
            (sent_lines, sent_records) = (lines.len(), records);
        } else {
            errors += 1;
        }
        std::thread::sleep(PACE.saturating_sub(at.elapsed()));
    }
    errors
}

struct Figures {
    /// Move to page, every spectator and every push.
    latencies: Vec<Duration>,
    /// Pushes a spectator never saw, refused or broken feeds, failed polls or pushes.
    errors: usize,
    /// Of them, the hall displays' (their page not served, their feeds', pushes unseen).
    hall_errors: usize,
    unseen: usize,
    polls: usize,
    pushes: usize,
    /// The server's use from the boards' start to the end (its CPU time in that while).
    used: Usage,
    /// From the boards' start to the end.
    wall: Duration,
    /// The server's use at each minute of the run.
    minutes: Vec<(Duration, Usage)>,
}

/// Raise this process's open-file limit to its hard limit (the server, started from it,
/// inherits it): every client holds a connection.
fn raise_file_limit() {
    // SAFETY: getrlimit/setrlimit with a valid pointer to an rlimit.
    unsafe {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 {
            l.rlim_cur = l.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
        }
    }
}

/// A client's thread (small stacks: hundreds of them).
fn spawn<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> JoinHandle<T> {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
}

fn run(load: &Load) -> Figures {
    raise_file_limit();
    let event = Boards::with_games(load.boards, 8);
    let server = Server::start(&event, load.lifetime);
    let addr = server.addr;
    eprintln!("load: the server's process is {}", server.child.id());
    let stop = Arc::new(AtomicBool::new(false));
    let watchers = spectators(addr, (load.spectators, load.halls), &stop);
    let mut pollers = Vec::new();
    for k in 0..load.pollers {
        let stop = Arc::clone(&stop);
        pollers.push(spawn(move || poller(addr, address(20, k), &stop)));
    }
    std::thread::sleep(Duration::from_secs(2));
    let cpu0 = server.usage().cpu;
    let acks = Arc::new(Acks::default());
    let start = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let sampler = every_minute(server.child.id(), start, cpu0, &done);
    let mut boards = Vec::new();
    for (k, b) in event.boards.into_iter().enumerate() {
        let acks = Arc::clone(&acks);
        let run = load.run;
        let offset = PACE * k as u32 / load.boards as u32;
        boards.push(std::thread::spawn(move || {
            std::thread::sleep(offset);
            board(addr, b, start, run, &acks)
        }));
    }
    let mut errors: usize = boards.into_iter().map(|t| t.join().unwrap()).sum();
    // The last moves reach the pages.
    std::thread::sleep(Duration::from_secs(2));
    let end = server.usage();
    let wall = start.elapsed();
    done.store(true, Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    let minutes = sampler.join().unwrap();
    let pushes = std::mem::take(&mut *acks.pushes.lock().unwrap());
    let (mut latencies, mut unseen, mut polls) = (Vec::new(), 0, 0);
    for t in pollers {
        let (p, e) = t.join().unwrap();
        polls += p;
        errors += e;
    }
    let mut hall_errors = 0;
    for w in watchers.join().unwrap() {
        let mut e = w.errors;
        for &(records, acked) in &pushes {
            match w.seen.get(w.seen.partition_point(|&(n, _)| n < records)) {
                Some(&(_, at)) => latencies.push(at.saturating_duration_since(acked)),
                None => {
                    unseen += 1;
                    e += 1;
                }
            }
        }
        errors += w.errors;
        if w.hall {
            hall_errors += e;
        }
    }
    Figures {
        latencies,
        errors: errors + unseen,
        hall_errors,
        unseen,
        polls,
        pushes: pushes.len(),
        used: Usage {
            cpu: end.cpu - cpu0,
            ..end
        },
        wall,
        minutes,
    }
}

/// Every minute from `start` until `done`: what the server has used (its CPU time since
/// `cpu0`), printed as it is read.
fn every_minute(
    pid: u32,
    start: Instant,
    cpu0: Duration,
    done: &Arc<AtomicBool>,
) -> JoinHandle<Vec<(Duration, Usage)>> {
    const MINUTE: Duration = Duration::from_secs(60);
    let done = Arc::clone(done);
    std::thread::spawn(move || {
        let mut minutes = Vec::new();
        let mut next = MINUTE;
        loop {
            sleep_unless(
                &done,
                (start + next).saturating_duration_since(Instant::now()),
            );
            if done.load(Ordering::Relaxed) {
                return minutes;
            }
            let u = usage(pid);
            let u = Usage {
                cpu: u.cpu - cpu0,
                ..u
            };
            eprintln!("load: at {} s: {}", next.as_secs(), described(&u, next));
            minutes.push((next, u));
            next += MINUTE;
        }
    })
}

/// The server's use in `wall` of the run: CPU time beside the wall time, memory.
fn described(u: &Usage, wall: Duration) -> String {
    format!(
        "server CPU {:.1} s in {:.0} s ({:.1} % of one core), peak memory {:.1} MiB, \
         resident {:.1} MiB",
        u.cpu.as_secs_f64(),
        wall.as_secs_f64(),
        u.cpu.as_secs_f64() * 100.0 / wall.as_secs_f64().max(1e-3),
        mib(u.peak_kib),
        mib(u.rss_kib)
    )
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn report(load: &Load, f: &Figures) {
    let mut l = f.latencies.clone();
    l.sort();
    let at = |q: f64| {
        l.get(((l.len().max(1) - 1) as f64 * q).round() as usize)
            .copied()
    };
    let peaks: String = f
        .minutes
        .iter()
        .filter(|(m, _)| [1, 5, 10].contains(&(m.as_secs() / 60)))
        .map(|(m, u)| format!(", {:.1} MiB at {} min", mib(u.peak_kib), m.as_secs() / 60))
        .collect();
    eprintln!(
        "load: {} boards, {} spectators ({} hall displays), {} pollers, {:?}: {} pushes, move \
         to page median {:?} p99 {:?} max {:?} ({} samples), {} polls, {} errors ({} pushes \
         unseen; {} of the hall displays), {}{}",
        load.boards,
        load.spectators,
        load.halls,
        load.pollers,
        load.run,
        f.pushes,
        at(0.5),
        at(0.99),
        l.last(),
        l.len(),
        f.polls,
        f.errors,
        f.unseen,
        f.hall_errors,
        described(&f.used, f.wall),
        peaks
    );
}

/// Run `load` and check it: no error, every spectator saw every push, and the boards and the
/// pollers kept their pace (at least four fifths of a move or a poll every 2 s each).
fn run_and_check(load: &Load) {
    let f = run(load);
    report(load, &f);
    assert_eq!(
        f.errors, 0,
        "errors under load ({} pushes unseen, {} errors of the hall displays)",
        f.unseen, f.hall_errors
    );
    assert_eq!(f.latencies.len(), load.spectators * f.pushes);
    let paces = (load.run.as_secs() / PACE.as_secs()) as usize * 4 / 5;
    assert!(f.pushes >= load.boards * paces, "{} pushes", f.pushes);
    assert!(f.polls >= load.pollers * paces, "{} polls", f.polls);
}

#[test]
fn the_server_does_its_blocking_work_on_a_few_threads() {
    let event = Boards::new(10);
    let server = Server::start(&event, Duration::from_secs(300));
    let addr = server.addr;
    let tokens: Vec<String> = event.boards.iter().map(|b| b.token.clone()).collect();
    // 25 clients at once (one address may hold 64 connections), each asking the desk for a
    // board's lines and for the event page.
    let clients: Vec<_> = (0..25)
        .map(|k| {
            let token = tokens[k % tokens.len()].clone();
            spawn(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .build()
                    .into();
                let get = |path: &str, auth: &str| {
                    let mut r = agent
                        .get(format!("http://{addr}{path}"))
                        .header("Authorization", auth)
                        .call()
                        .unwrap();
                    // Read to the end, so that the connection serves the next request.
                    let body = r.body_mut().read_to_string().unwrap();
                    assert_eq!(r.status(), 200, "{path}: {body}");
                };
                for _ in 0..10 {
                    get("/push", &format!("Bearer {token}"));
                    get("/", "");
                }
            })
        })
        .collect();
    for c in clients {
        c.join().unwrap();
    }
    // The runtime's two workers, at most four for reading files and writing pushes, and the
    // process's own (main, the server's, the watcher of the files).
    let threads = server.threads();
    assert!(threads <= 9, "{threads} threads");
}

#[test]
fn streams_opened_together_do_not_all_end_together() {
    // Were every stream's lifetime the same, a hall's spectators, opened in the same second,
    // would all end and reopen in the same second for as long as the server runs.
    let event = Boards::new(2);
    let lifetime = Duration::from_secs(5);
    let server = Server::start(&event, lifetime);
    let addr = server.addr;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .unwrap();
    let start = Instant::now();
    let ends: Vec<Duration> = rt.block_on(async move {
        let tasks: Vec<_> = (0..20)
            .map(|_| {
                tokio::spawn(async move {
                    let stop = AtomicBool::new(false);
                    let mut seen = Vec::new();
                    let mut last = Last {
                        retry: Duration::ZERO,
                        id: None,
                    };
                    stream(addr, address(20, 0), &mut None, &stop, &mut seen, &mut last)
                        .await
                        .unwrap();
                    start.elapsed()
                })
            })
            .collect();
        let mut ends = Vec::new();
        for t in tasks {
            ends.push(t.await.unwrap());
        }
        ends
    });
    let (first, last) = (ends.iter().min().unwrap(), ends.iter().max().unwrap());
    // Each within a tenth of the lifetime either way (and a second's slack for a busy machine).
    assert!(*first >= lifetime.mul_f64(0.9), "{ends:?}");
    assert!(
        *last <= lifetime.mul_f64(1.1) + Duration::from_secs(1),
        "{ends:?}"
    );
    // 20 lifetimes spread over a second: all within 0.3 s of each other has a chance below
    // one in 10^10.
    assert!(*last - *first >= Duration::from_millis(300), "{ends:?}");
}

#[test]
fn a_short_load_run_serves_every_client_without_an_error() {
    run_and_check(&Load {
        boards: 10,
        spectators: 100,
        halls: 10,
        pollers: 20,
        // Three moves a board: enough for every check below (a shorter run keeps CI quick).
        run: Duration::from_secs(6),
        // Every stream ends and is opened again about three times in the run.
        lifetime: Duration::from_secs(2),
    });
}

#[test]
#[ignore = "five minutes (CROSSBOARD_LOAD_SECONDS); the figures in BENCHMARKS.md"]
fn the_full_load_run() {
    let seconds = std::env::var("CROSSBOARD_LOAD_SECONDS").map_or(300, |s| {
        s.parse()
            .unwrap_or_else(|_| panic!("CROSSBOARD_LOAD_SECONDS={s}: not a number of seconds"))
    });
    // The server's `--feed-lifetime` (shorter to see the streams' reopening sooner).
    let lifetime = std::env::var("CROSSBOARD_LOAD_LIFETIME").map_or(300, |s| {
        s.parse()
            .unwrap_or_else(|_| panic!("CROSSBOARD_LOAD_LIFETIME={s}: not a number of seconds"))
    });
    run_and_check(&Load {
        boards: 50,
        spectators: 500,
        halls: 50,
        pollers: 100,
        run: Duration::from_secs(seconds),
        lifetime: Duration::from_secs(lifetime),
    });
}
