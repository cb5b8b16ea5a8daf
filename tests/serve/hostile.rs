//! Hostile clients: a slow client trickling its headers, too many connections from one
//! address, path traversal in every path parameter: each refused, logged, nothing changed.

use crate::hall::{Hall, get};
use crossboard::serve::{Limits, Options, Running, Source};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];

pub fn serve(hall: &Hall, limits: Limits) -> Running {
    let source = Source {
        db: Some(hall.db.clone()),
        event: None,
        match_file: Some(hall.file.clone()),
    };
    let options = Options {
        limits,
        ..Options::new(source, "127.0.0.1:0".parse().unwrap())
    };
    crossboard::serve::start(options).unwrap()
}

/// Whether the server has closed `s` (a read gives end of file or a reset), waiting at most
/// `wait`.
pub fn closed(s: &mut TcpStream, wait: Duration) -> bool {
    s.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 512];
    match s.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    }
}

/// The status line of a raw request for `path`, sent exactly as written (no client tidying
/// `..` away).
pub fn raw_status(server: &Running, path: &str) -> String {
    let mut s = TcpStream::connect(server.addr()).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: hall\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_string()
}

/// Whether the server's log has a line holding `needle`, waiting at most 3 s for it (the log
/// line is written as the connection ends, which the client may see first).
pub fn logged(server: &Running, needle: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        if server.log().iter().any(|l| l.contains(needle)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn a_client_sending_its_headers_a_byte_at_a_time_is_cut_off_and_logged() {
    let hall = Hall::new(NAMES);
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = serve(&hall, limits);
    let mut slow = TcpStream::connect(server.addr()).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: hall\r\n").unwrap();
    let start = Instant::now();
    let mut cut = false;
    while start.elapsed() < Duration::from_secs(6) {
        // One byte of a header that never ends, every 200 ms.
        if slow.write_all(b"X").is_err() || closed(&mut slow, Duration::from_millis(200)) {
            cut = true;
            break;
        }
        // Everyone else is served meanwhile.
        assert_eq!(get(&server, "/api/event", None).status, 200);
    }
    let took = start.elapsed();
    assert!(cut, "the slow client was never cut off");
    assert!(took >= Duration::from_millis(700), "cut after {took:?}");
    assert!(
        logged(&server, "cut off: no complete request head within 1 s"),
        "{:?}",
        server.log()
    );
}

#[test]
fn an_idle_connection_is_closed_after_the_header_timeout() {
    let hall = Hall::new(NAMES);
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = serve(&hall, limits);
    let mut idle = TcpStream::connect(server.addr()).unwrap();
    assert!(closed(&mut idle, Duration::from_secs(4)), "never closed");
    assert!(logged(&server, "cut off"), "{:?}", server.log());
}

#[test]
fn more_connections_from_one_address_than_the_limit_are_closed_and_logged() {
    let hall = Hall::new(NAMES);
    let limits = Limits {
        per_address: 4,
        ..Limits::default()
    };
    let server = serve(&hall, limits);
    let held: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(server.addr()).unwrap())
        .collect();
    // Let the server count them all before the fifth.
    std::thread::sleep(Duration::from_millis(300));
    let mut fifth = TcpStream::connect(server.addr()).unwrap();
    assert!(
        closed(&mut fifth, Duration::from_secs(3)),
        "a fifth connection was kept"
    );
    assert!(
        logged(
            &server,
            "refused a connection: 4 open from this address already"
        ),
        "{:?}",
        server.log()
    );
    // One closed: the address may connect again.
    drop(held);
    let start = Instant::now();
    while raw_status(&server, "/api/event") != "HTTP/1.1 200 OK" {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "never served again"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn path_traversal_in_every_path_parameter_is_not_found_logged_and_reads_nothing() {
    let hall = Hall::new(NAMES);
    // Every refusal logged, none folded into a count.
    let limits = Limits {
        log_every: Duration::ZERO,
        ..Limits::default()
    };
    let server = serve(&hall, limits);
    let before = std::fs::read(&hall.db).unwrap();
    let hostile = [
        "..",
        "..%2F..%2Fdesk.sqlite3",
        "%2e%2e",
        "..%5C..%5Cdesk.sqlite3",
        "1%00",
        "%2Fetc%2Fpasswd",
    ];
    let mut paths = Vec::new();
    for h in hostile {
        for base in ["/board", "/api/board", "/live/board"] {
            paths.push(format!("{base}/{h}/1/1"));
            paths.push(format!("{base}/1/{h}/1"));
            paths.push(format!("{base}/1/1/{h}"));
        }
        paths.push(format!("/board/1/1/{h}.pdn"));
        paths.push(format!("/round/{h}.pdn"));
        paths.push(format!("/round/{h}"));
    }
    // Unencoded: sent as written, whatever the client would make of them.
    paths.push("/board/1/1/../../../etc/passwd".into());
    paths.push("/round/../../desk.sqlite3".into());
    paths.push("/../../etc/passwd".into());
    for path in &paths {
        let status = raw_status(&server, path);
        assert!(
            status.starts_with("HTTP/1.1 404") || status.starts_with("HTTP/1.1 400"),
            "{path}: {status}"
        );
    }
    let log = server.log();
    for path in paths.iter().filter(|p| p.contains('%')) {
        assert!(
            log.iter()
                .any(|l| l.contains(&format!("refused GET {path}: 404"))),
            "{path} not logged: {log:?}"
        );
    }
    assert_eq!(
        std::fs::read(&hall.db).unwrap(),
        before,
        "the database changed"
    );
}
