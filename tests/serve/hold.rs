//! The server holds against the hall: a body trickled a byte at a time, a connection left idle
//! between requests, hundreds of slow connections from many addresses, a flood of refused
//! requests on one connection, feeds of boards that do not exist.

use crate::hall::{Hall, run_for};
use crate::hostile::{logged, serve};
use crossboard::serve::{Limits, Running};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];

/// Read `s` until the server closes it, at most `wait`: what it sent, or `None` when it was
/// still open then.
fn until_closed(s: &mut TcpStream, wait: Duration) -> Option<String> {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while start.elapsed() < wait {
        s.set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        match s.read(&mut buf) {
            Ok(0) => return Some(String::from_utf8_lossy(&got).into_owned()),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return Some(String::from_utf8_lossy(&got).into_owned()),
        }
    }
    None
}

#[test]
fn a_client_trickling_its_body_a_byte_at_a_time_is_answered_408_and_cut_off() {
    let hall = Hall::new(NAMES);
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = serve(&hall, limits);
    let mut slow = TcpStream::connect(server.addr()).unwrap();
    slow.write_all(
        b"POST /push HTTP/1.1\r\nHost: hall\r\nAuthorization: Bearer x\r\n\
          Content-Length: 1000\r\n\r\n{",
    )
    .unwrap();
    let mut trickle = slow.try_clone().unwrap();
    let start = Instant::now();
    let writer = std::thread::spawn(move || {
        // One byte every 200 ms, until the server closes the connection (or 10 s).
        while start.elapsed() < Duration::from_secs(10) && trickle.write_all(b" ").is_ok() {
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let answer = until_closed(&mut slow, Duration::from_secs(6));
    let took = start.elapsed();
    let answer = answer.expect("the slow body was never cut off");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(took >= Duration::from_millis(700), "cut after {took:?}");
    let why = "408 Request Timeout: cut off: the body not complete within 1 s";
    assert!(logged(&server, why), "{:?}", server.log());
    drop(slow);
    writer.join().unwrap();
}

#[test]
fn a_connection_left_idle_after_a_request_is_closed_after_the_header_timeout() {
    let hall = Hall::new(NAMES);
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = serve(&hall, limits);
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.write_all(b"GET /api/event HTTP/1.1\r\nHost: hall\r\n\r\n")
        .unwrap();
    let answer = until_closed(&mut s, Duration::from_secs(5)).expect("kept open");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// A connection from `from` (an address of 127.0.0.0/8) to `to`, or none when it cannot be
/// made within a second.
#[cfg(target_os = "linux")]
fn connect_from(from: [u8; 4], to: std::net::SocketAddr) -> Option<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let s = Socket::new(Domain::IPV4, Type::STREAM, None).ok()?;
    s.bind(&std::net::SocketAddr::from((from, 0)).into()).ok()?;
    s.connect_timeout(&to.into(), Duration::from_secs(1)).ok()?;
    Some(s.into())
}

/// The server with at most 256 files open (soft and hard limit): it may hold 128 connections.
#[cfg(target_os = "linux")]
#[test]
fn hundreds_of_slow_connections_from_many_addresses_cannot_keep_out_a_spectator() {
    let hall = Hall::new(NAMES);
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", "ulimit -n 256 && exec \"$0\" \"$@\""])
        .arg(crate::common::bin())
        .args(["serve", "--db", hall.db.to_str().unwrap(), "--port", "0"])
        .stderr(std::process::Stdio::null());
    let (mut child, addr) = crate::hall::start_serve(command);
    // 300 pushes from 10 addresses, each its head and the start of its body, then nothing.
    let mut held = Vec::new();
    'all: for a in 2..12u8 {
        for _ in 0..30 {
            let Some(mut s) = connect_from([127, 0, 0, a], addr) else {
                break 'all;
            };
            let _ = s.write_all(
                b"POST /push HTTP/1.1\r\nHost: hall\r\nAuthorization: Bearer x\r\n\
                  Content-Length: 1000\r\n\r\n{\"from\":",
            );
            held.push(s);
        }
    }
    assert_eq!(held.len(), 300, "connections made");
    std::thread::sleep(Duration::from_millis(300));
    let answer = connect_from([127, 0, 0, 1], addr).and_then(|mut s| {
        s.write_all(b"GET / HTTP/1.1\r\nHost: hall\r\nConnection: close\r\n\r\n")
            .ok()?;
        until_closed(&mut s, Duration::from_secs(5))
    });
    let _ = child.kill();
    let _ = child.wait();
    let answer = answer.expect("GET / got no answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(held);
}

/// The lines of `log` about `ip`, and how many more they say were folded.
fn refused_and_folded(log: &[String], ip: &str) -> (usize, u64) {
    let mut lines = 0;
    let mut folded = 0;
    for l in log {
        if let Some(n) = l
            .split(" ... and ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
        {
            assert!(
                l.ends_with(&format!("more refused from {ip} in the last second")),
                "{l}"
            );
            folded += n;
        } else if l.contains(&format!(" {ip}:")) {
            lines += 1;
        }
    }
    (lines, folded)
}

#[test]
fn a_flood_of_refused_requests_on_one_connection_writes_a_line_a_second_and_the_count() {
    const FLOOD: usize = 3000;
    let hall = Hall::new(NAMES);
    let server: Running = serve(&hall, Limits::default());
    let mut s = TcpStream::connect(server.addr()).unwrap();
    let mut reader = s.try_clone().unwrap();
    let counter = std::thread::spawn(move || {
        let mut seen = 0;
        let mut tail = Vec::new();
        let mut buf = [0u8; 65536];
        reader
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let needle = b"HTTP/1.1 404";
        while seen < FLOOD {
            let n = reader.read(&mut buf).unwrap();
            assert!(n > 0, "closed after {seen} answers");
            tail.extend_from_slice(&buf[..n]);
            let mut at = 0;
            while let Some(k) = tail[at..].windows(needle.len()).position(|w| w == needle) {
                seen += 1;
                at += k + needle.len();
            }
            tail.drain(..at);
        }
        seen
    });
    let start = Instant::now();
    let one = b"GET /no-such-page HTTP/1.1\r\nHost: hall\r\n\r\n";
    s.write_all(&one.repeat(FLOOD)).unwrap();
    assert_eq!(counter.join().unwrap(), FLOOD);
    let took = start.elapsed();
    // The last second's count goes out when the second is over.
    std::thread::sleep(Duration::from_millis(2500));
    let log = server.log();
    let (lines, folded) = refused_and_folded(&log, "127.0.0.1");
    assert_eq!(lines as u64 + folded, FLOOD as u64, "{log:?}");
    let seconds = took.as_secs() as usize + 3;
    assert!(
        lines <= seconds && log.len() <= 2 * seconds,
        "{} lines in {took:?}: {log:?}",
        log.len()
    );
    assert!(folded > 0, "{log:?}");
}

#[test]
fn feeds_of_boards_and_pages_that_do_not_exist_are_not_found() {
    let hall = Hall::new(NAMES);
    let server = hall.serve();
    for path in [
        "/live/board/1/1/9",
        "/live/board/1/9/1",
        "/live/board/9/1/1",
    ] {
        let mut s = TcpStream::connect(server.addr()).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: hall\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let answer = until_closed(&mut s, Duration::from_secs(5)).unwrap_or_default();
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {answer:?}");
    }
    // A board that exists keeps its feed.
    assert_eq!(
        raw_status_open(&server, "/live/board/1/1/1"),
        "HTTP/1.1 200 OK"
    );
}

/// The status line of `path`, its answer left open (a live feed).
fn raw_status_open(server: &Running, path: &str) -> String {
    let mut s = TcpStream::connect(server.addr()).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: hall\r\n\r\n").unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut buf = [0u8; 256];
    let n = s.read(&mut buf).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `crossboard serve --db DB --port 0 --no-qr` with `args`, and what it printed up to
/// `Ctrl-C stops the server.`
fn serve_saying(db: &std::path::Path, args: &[&str]) -> (std::process::Child, Vec<String>) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(crate::common::bin())
        .args([
            "serve",
            "--db",
            db.to_str().unwrap(),
            "--port",
            "0",
            "--no-qr",
        ])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = Vec::new();
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let end = line == "Ctrl-C stops the server.";
        lines.push(line);
        if end {
            break;
        }
    }
    (child, lines)
}

/// The addresses in `lines` (`http://ADDR/`).
fn urls(lines: &[String]) -> Vec<std::net::SocketAddr> {
    lines
        .iter()
        .flat_map(|l| l.split_whitespace())
        .filter_map(|w| w.strip_prefix("http://")?.strip_suffix('/')?.parse().ok())
        .collect()
}

fn answers(addr: std::net::SocketAddr) -> bool {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(5)))
        .build()
        .into();
    agent
        .get(format!("http://{addr}/api/event"))
        .call()
        .is_ok_and(|r| r.status() == 200)
}

#[test]
fn bind_lists_exactly_the_addresses_it_listens_on_and_warns_when_open_to_the_network() {
    let hall = Hall::new(NAMES);
    let warning = "warning: open beyond this machine";
    // This machine only: no warning.
    let (mut child, lines) = serve_saying(&hall.db, &[]);
    let _ = child.kill();
    let _ = child.wait();
    assert!(!lines.iter().any(|l| l.contains(warning)), "{lines:?}");
    // Every IPv4 interface: IPv4 addresses only, each answering, and the warning.
    let (mut child, lines) = serve_saying(&hall.db, &["--bind", "0.0.0.0"]);
    let listed = urls(&lines);
    let all_answer = listed.iter().all(|&a| a.is_ipv4() && answers(a));
    let _ = child.kill();
    let _ = child.wait();
    assert!(!listed.is_empty() && all_answer, "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.contains(warning)).count(),
        1,
        "{lines:?}"
    );
    // Every address, IPv6 and IPv4 both, where this machine has IPv6.
    if std::net::TcpListener::bind("[::1]:0").is_err() {
        return;
    }
    let (mut child, lines) = serve_saying(&hall.db, &["--bind", "[::]"]);
    let listed = urls(&lines);
    let port = listed.first().map(std::net::SocketAddr::port);
    let all_answer = listed.iter().all(|&a| answers(a));
    let both = port.is_some_and(|p| {
        answers(std::net::SocketAddr::from(([127, 0, 0, 1], p)))
            && answers(std::net::SocketAddr::from((
                std::net::Ipv6Addr::LOCALHOST,
                p,
            )))
    });
    let _ = child.kill();
    let _ = child.wait();
    assert!(!listed.is_empty() && all_answer, "{lines:?}");
    assert!(both, "not listening on IPv4 and IPv6 both: {lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.contains(warning)).count(),
        1,
        "{lines:?}"
    );
}

/// `crossboard serve --db DB --port 0`, expected to refuse to start: whether it served (still
/// running after 10 s, then stopped) and what it said on the standard error.
fn serve_refused(db: &std::path::Path) -> (bool, String) {
    let mut command = std::process::Command::new(crate::common::bin());
    command.args(["serve", "--db", db.to_str().unwrap(), "--port", "0"]);
    let (ended, said) = run_for(command, Duration::from_secs(10));
    (ended.is_none(), said)
}

#[test]
fn serve_refuses_another_programs_database_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.db");
    {
        let conn = rusqlite::Connection::open(&other).unwrap();
        conn.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
    }
    let not_sqlite = dir.path().join("notes.txt");
    std::fs::write(
        &not_sqlite,
        "not a database at all, but long enough to have a header .....",
    )
    .unwrap();
    for db in [&other, &not_sqlite] {
        let before = std::fs::read(db).unwrap();
        let (served, said) = serve_refused(db);
        assert!(!served, "{} was served", db.display());
        assert!(
            said.contains(&format!("{}: not a crossboard desk database", db.display())),
            "{said}"
        );
        assert_eq!(
            std::fs::read(db).unwrap(),
            before,
            "{} changed",
            db.display()
        );
    }
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["notes.txt", "other.db"], "files made beside them");
}

#[cfg(unix)]
#[test]
fn a_link_planted_as_the_boards_folder_is_refused_and_nothing_is_written_through_it() {
    let hall = Hall::new(NAMES);
    let elsewhere = tempfile::tempdir().unwrap();
    let folder = hall.db.with_file_name("desk-boards");
    std::os::unix::fs::symlink(elsewhere.path(), &folder).unwrap();
    let (served, said) = serve_refused(&hall.db);
    assert!(!served, "served with a linked boards folder");
    assert!(
        said.contains(&format!("{} is a symbolic link", folder.display())),
        "{said}"
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}

#[test]
fn temporary_files_left_in_the_boards_folder_are_removed_at_the_next_start() {
    let hall = Hall::new(NAMES);
    let folder = hall.db.with_file_name("desk-boards");
    std::fs::create_dir(&folder).unwrap();
    let left = [
        ".Club-Open-d1-r1-b1.jsonl.a1B2c3.tmp",
        ".Club-Open-d1-r1-b2.jsonl.Zz9y8X.tmp",
    ];
    let kept = ["Club-Open-d1-r1-b1.jsonl", ".notes.tmp", "readme.txt"];
    for name in left.iter().chain(&kept) {
        std::fs::write(folder.join(name), "x").unwrap();
    }
    let server = hall.serve();
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut expected = kept.map(String::from).to_vec();
    expected.sort();
    assert_eq!(names, expected);
    let removed = "removed 2 temporary files left in";
    assert!(logged(&server, removed), "{:?}", server.log());
}
