//! The server under load on loopback, bounded in time: a board reporting a move to the desk
//! every 2 s (until its match is over), spectators holding the event's live feed, pollers fetching the round's PDN every
//! 2 s with its ETag; one more spectator on the board's feed times each move from the board's
//! file to the page. The short run is in the default test run, with bounds a loaded 2-core
//! machine keeps; the full run (`--ignored`) is the one BENCHMARKS.md reports.

use crate::hall::Hall;
use crossboard::director::Command;
use crossboard::serve::{Limits, Options, Running, Source, report};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

struct Load {
    spectators: usize,
    pollers: usize,
    run: Duration,
}

struct Figures {
    latencies: Vec<Duration>,
    errors: usize,
    polls: usize,
    moves: usize,
}

fn desk(hall: &Hall) -> Running {
    crossboard::store::keep_board_token(&hall.db, "Club Open/1/1/1", TOKEN).unwrap();
    let source = Source {
        db: Some(hall.db.clone()),
        ..Default::default()
    };
    // Every client comes from 127.0.0.1 here: the limit per address is raised for them.
    let options = Options {
        limits: Limits {
            per_address: 10_000,
            ..Limits::default()
        },
        ..Options::new(source, "127.0.0.1:0".parse().unwrap())
    };
    crossboard::serve::start(options).unwrap()
}

/// A raw SSE request; the reader after the head, or `None` when refused.
fn feed(server: &Running, path: &str) -> Option<BufReader<TcpStream>> {
    let mut s = TcpStream::connect(server.addr()).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    write!(s, "GET {path} HTTP/1.1\r\nHost: hall\r\n\r\n").ok()?;
    let mut r = BufReader::new(s);
    let mut status = String::new();
    r.read_line(&mut status).ok()?;
    status.starts_with("HTTP/1.1 200").then_some(r)
}

/// A spectator holding the event's feed until `stop`, reopening it when it ends (as a
/// browser does); counts a refused or broken feed as an error.
fn spectator(server: &Running, stop: &AtomicBool, errors: &AtomicUsize) {
    let mut buf = [0u8; 4096];
    while !stop.load(Ordering::Relaxed) {
        let Some(mut r) = feed(server, "/live/event") else {
            errors.fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(Duration::from_secs(1));
            continue;
        };
        r.get_ref()
            .set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        while !stop.load(Ordering::Relaxed) {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(_) => {
                    errors.fetch_add(1, Ordering::Relaxed);
                    break;
                }
            }
        }
    }
}

/// A poller fetching the round's PDN every 2 s with the ETag it has.
fn poller(server: &Running, stop: &AtomicBool, errors: &AtomicUsize, polls: &AtomicUsize) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut etag = String::new();
    while !stop.load(Ordering::Relaxed) {
        let got = agent
            .get(format!("http://{}/round/1.pdn", server.addr()))
            .header("If-None-Match", &etag)
            .call();
        match got {
            Ok(mut r) if r.status() == 200 || r.status() == 304 => {
                if let Some(t) = r.headers().get("etag").and_then(|v| v.to_str().ok()) {
                    etag = t.to_string();
                }
                let _ = r.body_mut().read_to_string();
                polls.fetch_add(1, Ordering::Relaxed);
            }
            _ => {
                errors.fetch_add(1, Ordering::Relaxed);
            }
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

/// The board plays a move every 2 s; the time from its file written to the move on the
/// board's live feed, for each.
fn board(hall: &mut Hall, server: &Running, run: Duration) -> (Vec<Duration>, usize) {
    let mut watch = feed(server, "/live/board/1/1/1").unwrap();
    let mut errors = 0;
    let mut latencies = Vec::new();
    let start = Instant::now();
    while start.elapsed() < run {
        if hall.m.phase() == crossboard::director::Phase::Finished {
            // The match is over (both games played): the rest of the load goes on.
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        if hall.m.playing().is_none() {
            hall.apply(Command::StartGame);
        }
        let records = hall.m.log().len();
        hall.play();
        let written = Instant::now();
        if until_records(&mut watch, records + 1) {
            latencies.push(written.elapsed());
        } else {
            errors += 1;
            watch = feed(server, "/live/board/1/1/1").unwrap();
        }
        std::thread::sleep(Duration::from_secs(2).saturating_sub(written.elapsed()));
    }
    (latencies, errors)
}

/// Read the feed until an update with at least `records` records; false if it ends first.
fn until_records(r: &mut BufReader<TcpStream>, records: usize) -> bool {
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return false;
        }
        let Some(data) = line.trim_end().strip_prefix("data: ") else {
            continue;
        };
        let v: serde_json::Value = serde_json::from_str(data).unwrap_or_default();
        if v["records"].as_u64().unwrap_or(0) as usize >= records {
            return true;
        }
    }
}

fn run(load: &Load) -> Figures {
    let mut hall = Hall::with(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"], false);
    let server = Arc::new(desk(&hall));
    let reporter = report(&format!("http://{}", server.addr()), TOKEN, &hall.file);
    let stop = Arc::new(AtomicBool::new(false));
    let errors = Arc::new(AtomicUsize::new(0));
    let polls = Arc::new(AtomicUsize::new(0));
    let mut threads = Vec::new();
    let spectators = load.spectators;
    for k in 0..load.spectators + load.pollers {
        let (server, stop, errors, polls) = (
            Arc::clone(&server),
            Arc::clone(&stop),
            Arc::clone(&errors),
            Arc::clone(&polls),
        );
        threads.push(std::thread::spawn(move || {
            if k < spectators {
                spectator(&server, &stop, &errors);
            } else {
                poller(&server, &stop, &errors, &polls);
            }
        }));
    }
    std::thread::sleep(Duration::from_secs(2));
    let (latencies, board_errors) = board(&mut hall, &server, load.run);
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    drop(reporter);
    Figures {
        moves: latencies.len() + board_errors,
        latencies,
        errors: errors.load(Ordering::Relaxed) + board_errors,
        polls: polls.load(Ordering::Relaxed),
    }
}

/// CPU time (user + system) and resident memory of this process (server and clients).
fn usage() -> (Duration, u64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = stat.rsplit(") ").next().unwrap().split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0);
    (Duration::from_millis(ticks * 10), rss)
}

fn report_figures(load: &Load, f: &Figures, cpu: Duration, rss_kb: u64) {
    let mut l = f.latencies.clone();
    l.sort();
    let at = |q: f64| l[((l.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "load: {} spectators, {} pollers, {:?}: {} moves, move to page median {:?} p99 {:?}, \
         {} polls, {} errors, CPU {:?} ({:.1} % of one core), peak memory {} MiB",
        load.spectators,
        load.pollers,
        load.run,
        f.moves,
        at(0.5),
        at(0.99),
        f.polls,
        f.errors,
        cpu,
        cpu.as_secs_f64() * 100.0 / (load.run.as_secs_f64() + 2.0),
        rss_kb / 1024
    );
}

#[test]
fn a_short_load_run_serves_every_client_without_an_error() {
    let load = Load {
        spectators: 100,
        pollers: 20,
        run: Duration::from_secs(20),
    };
    let (cpu0, _) = usage();
    let f = run(&load);
    let (cpu1, rss) = usage();
    report_figures(&load, &f, cpu1 - cpu0, rss);
    assert_eq!(f.errors, 0, "errors under load");
    assert!(f.latencies.len() >= 8, "{} moves", f.latencies.len());
    assert!(f.polls >= 20 * 8, "{} polls", f.polls);
    let mut l = f.latencies.clone();
    l.sort();
    // The board's poll (200 ms), the desk's (100 ms) and a loaded machine: a median over 2 s
    // would mean moves queue up.
    assert!(l[l.len() / 2] < Duration::from_secs(2), "{l:?}");
}

#[test]
#[ignore = "five minutes; the figures in BENCHMARKS.md"]
fn the_full_load_run() {
    let load = Load {
        spectators: 500,
        pollers: 100,
        run: Duration::from_secs(300),
    };
    let (cpu0, _) = usage();
    let f = run(&load);
    let (cpu1, rss) = usage();
    report_figures(&load, &f, cpu1 - cpu0, rss);
    assert_eq!(f.errors, 0, "errors under load");
}
