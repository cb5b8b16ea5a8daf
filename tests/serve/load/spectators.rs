//! The load run's spectators: browsers holding the event page's live feed, some of them the
//! hall display (`/hall`, a projector's page kept live by the same feed), all on one thread.

use super::address;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Every time a spectator's feed showed more records: (records of the event page, when).
pub(super) type Seen = Vec<(usize, Instant)>;

/// What a spectator saw, its errors, and whether it was a hall display.
pub(super) struct Watched {
    pub seen: Seen,
    pub errors: usize,
    pub hall: bool,
}

/// The spectators, `halls` of them hall displays, all on one thread as a browser's or an
/// event-driven client's sockets are: one task each, woken when its socket has something to
/// read. (A thread blocked on each socket would be woken by each of the server's writes,
/// inside the server's send on loopback, and counted as the server's time.)
pub(super) fn spectators(
    server: SocketAddr,
    (count, halls): (usize, usize),
    stop: &Arc<AtomicBool>,
) -> JoinHandle<Vec<Watched>> {
    let stop = Arc::clone(stop);
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            let tasks: Vec<_> = (0..count)
                .map(|k| {
                    let stop = Arc::clone(&stop);
                    tokio::spawn(spectator(server, address(10, k), k < halls, stop))
                })
                .collect();
            let mut all = Vec::new();
            for t in tasks {
                all.push(t.await.unwrap());
            }
            all
        })
    })
}

/// A spectator holding the event's live feed until `stop` as a browser's EventSource does:
/// the answer read as HTTP/1.1 sends it (in chunks, the stream's end being the last chunk),
/// and when the stream ends or breaks, opened again after the `retry:` the server gave, with
/// the id of the last event it got (`Last-Event-ID`), on the connection the stream ended on
/// when it ended cleanly (a browser keeps it alive and asks again on it: Chromium does) and
/// on a new one after a break. A hall display (`hall`) first loads `/hall`, whose script then
/// holds the same feed. What it saw, and its errors (the hall's page not served, refused or
/// broken feeds).
async fn spectator(
    server: SocketAddr,
    from: Ipv4Addr,
    hall: bool,
    stop: Arc<AtomicBool>,
) -> Watched {
    let mut seen: Seen = Vec::new();
    let mut errors = 0;
    if hall && hall_page(server, from).await.is_err() {
        errors += 1;
    }
    let mut last = Last {
        retry: Duration::from_secs(3),
        id: None,
    };
    let mut kept = None;
    while !stop.load(Ordering::Relaxed) {
        match stream(server, from, &mut kept, &stop, &mut seen, &mut last).await {
            Ok(()) => {}
            Err(_) => errors += 1,
        }
        let end = Instant::now() + last.retry;
        while !stop.load(Ordering::Relaxed) && Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(100).min(end - Instant::now())).await;
        }
    }
    Watched { seen, errors, hall }
}

/// `GET /hall` read to its end: an error unless it is the hall display's page, a 200.
async fn hall_page(server: SocketAddr, from: Ipv4Addr) -> std::io::Result<()> {
    let s = open(server, from).await?;
    send(
        &s,
        b"GET /hall HTTP/1.1\r\nHost: hall\r\nConnection: close\r\n\r\n",
    )
    .await?;
    let mut answer = Vec::new();
    let mut buf = vec![0; 16 * 1024];
    loop {
        s.readable().await?;
        match s.try_read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) if timed_out(&e) => {}
            Err(e) => return Err(e),
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    if answer.starts_with("HTTP/1.1 200") && answer.contains(r#"id="hall""#) {
        Ok(())
    } else {
        let head = answer.lines().next().unwrap_or_default();
        Err(std::io::Error::other(format!("/hall: {head}")))
    }
}

/// A connection to the server from loopback address `from`.
async fn open(server: SocketAddr, from: Ipv4Addr) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::V4(SocketAddrV4::new(from, 0)))?;
    socket.connect(server).await
}

/// Write all of `ask` to `s`.
async fn send(s: &tokio::net::TcpStream, ask: &[u8]) -> std::io::Result<()> {
    let mut sent = 0;
    while sent < ask.len() {
        s.writable().await?;
        match s.try_write(&ask[sent..]) {
            Ok(n) => sent += n,
            Err(e) if timed_out(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// What an EventSource keeps from one stream for the next: the server's `retry:` and the
/// last event's id.
pub(super) struct Last {
    pub retry: Duration,
    pub id: Option<String>,
}

/// One stream of the live feed, read until it ends or `stop`: each update's records into
/// `seen`, the server's `retry:` and the events' ids into `last`. Asked on `kept`, the
/// connection the last stream ended on, when there is one (if the server closed it meanwhile,
/// before answering, asked again on a new one, as a browser does), else on a new one; the
/// connection kept in `kept` again when the stream ends cleanly.
pub(super) async fn stream(
    server: SocketAddr,
    from: Ipv4Addr,
    kept: &mut Option<tokio::net::TcpStream>,
    stop: &AtomicBool,
    seen: &mut Seen,
    last: &mut Last,
) -> std::io::Result<()> {
    loop {
        let reused = kept.is_some();
        let s = match kept.take() {
            Some(s) => s,
            None => open(server, from).await?,
        };
        let after =
            (last.id.as_ref()).map_or(String::new(), |id| format!("Last-Event-ID: {id}\r\n"));
        let ask = format!(
            "GET /live/event HTTP/1.1\r\nHost: hall\r\nAccept: text/event-stream\r\n{after}\r\n"
        );
        let mut feed = Feed::default();
        let read = match send(&s, ask.as_bytes()).await {
            Ok(()) => read_stream(&s, &mut feed, stop, seen, last).await,
            Err(e) => Err(e),
        };
        match read {
            Ok(true) => {
                *kept = Some(s);
                return Ok(());
            }
            Ok(false) => return Ok(()),
            // Closed by the server while it was kept, before any answer: ask on a new one.
            Err(_) if reused && !feed.answered() => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The answer on `s` read into `feed` until the stream ends (`true`) or `stop` (`false`).
async fn read_stream(
    s: &tokio::net::TcpStream,
    feed: &mut Feed,
    stop: &AtomicBool,
    seen: &mut Seen,
    last: &mut Last,
) -> std::io::Result<bool> {
    let mut buf = vec![0; 16 * 1024];
    while !stop.load(Ordering::Relaxed) {
        // Awake at least once a second to see `stop`.
        match tokio::time::timeout(Duration::from_secs(1), s.readable()).await {
            Ok(ready) => ready?,
            Err(_) => continue,
        }
        let n = match s.try_read(&mut buf) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => n,
            Err(e) if timed_out(&e) => continue,
            Err(e) => return Err(e),
        };
        let at = Instant::now();
        let ended = feed.take(&buf[..n], |line| {
            if let Some(ms) = line.trim_end().strip_prefix("retry: ") {
                last.retry = Duration::from_millis(ms.parse().unwrap_or(3000));
            }
            if let Some(id) = line.trim_end().strip_prefix("id: ") {
                last.id = Some(id.to_string());
            }
            if let Some(n) = records(line)
                && seen.last().is_none_or(|&(last, _)| n > last)
            {
                seen.push((n, at));
            }
        })?;
        if ended {
            return Ok(true);
        }
    }
    Ok(false)
}

/// An answer to `GET /live/event` read as it comes: its head, then its body in HTTP/1.1's
/// chunks, cut into lines.
#[derive(Default)]
struct Feed {
    /// Bytes read and not yet taken apart.
    raw: Vec<u8>,
    /// The head has been read (and was a 200).
    head: bool,
    /// What is left of the chunk being read.
    left: usize,
    /// The body's line being read, up to its end.
    line: Vec<u8>,
}

impl Feed {
    /// Whether any of the answer has come.
    fn answered(&self) -> bool {
        self.head || !self.raw.is_empty()
    }

    /// Take `bytes`, giving `line` each line of the body they complete: whether the body
    /// ended (its last chunk, of size 0), or an error if the answer is not a 200.
    fn take(&mut self, bytes: &[u8], mut line: impl FnMut(&str)) -> std::io::Result<bool> {
        self.raw.extend_from_slice(bytes);
        if !self.head {
            // The empty line that ends the answer before, on a connection kept, may come first.
            while self.raw.starts_with(b"\r\n") {
                self.raw.drain(..2);
            }
            let Some(end) = find(&self.raw, b"\r\n\r\n") else {
                return Ok(false);
            };
            if !self.raw.starts_with(b"HTTP/1.1 200") {
                let head = String::from_utf8_lossy(&self.raw[..end]).into_owned();
                return Err(std::io::Error::other(head));
            }
            self.head = true;
            self.raw.drain(..end + 4);
        }
        let mut at = 0;
        let ended = loop {
            if self.left == 0 {
                // A chunk's size line, or the empty line ending a chunk's data.
                let Some(end) = find(&self.raw[at..], b"\r\n") else {
                    break false;
                };
                let size = String::from_utf8_lossy(&self.raw[at..at + end]).into_owned();
                at += end + 2;
                let size = size.split(';').next().unwrap_or_default().trim();
                if size.is_empty() {
                    continue;
                }
                match usize::from_str_radix(size, 16).map_err(std::io::Error::other)? {
                    0 => break true,
                    n => self.left = n,
                }
            } else {
                let take = self.left.min(self.raw.len() - at);
                if take == 0 {
                    break false;
                }
                lines(&mut self.line, &self.raw[at..at + take], &mut line);
                at += take;
                self.left -= take;
            }
        };
        self.raw.drain(..at);
        Ok(ended)
    }
}

/// A chunk's data, `bytes`, read on from `partial`: each line it completes to `line`.
fn lines(partial: &mut Vec<u8>, bytes: &[u8], line: &mut impl FnMut(&str)) {
    for part in bytes.split_inclusive(|&b| b == b'\n') {
        partial.extend_from_slice(part);
        if part.ends_with(b"\n") {
            line(&String::from_utf8_lossy(partial));
            partial.clear();
        }
    }
}

/// Where `needle` first is in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn timed_out(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// The records of an update's data line (`data: {"now":..,"records":N,...`).
fn records(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("data: ")?;
    let at = rest.find("\"records\":")? + "\"records\":".len();
    let digits: String = rest[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[test]
fn a_spectator_reads_the_feed_in_chunks_however_the_reads_cut_them() {
    let answer = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n\
                  c\r\nretry: 1000\n\r\n\
                  15\r\ndata: {\"records\":7}\n\n\r\n\
                  0\r\n\r\n";
    // The end is the size line of the last chunk.
    let end = answer.find("\r\n0\r\n").unwrap() + 5;
    // Every way of cutting the answer in two reads gives the same lines and the end.
    for cut in 0..=answer.len() {
        let mut feed = Feed::default();
        let mut lines = Vec::new();
        let (a, b) = answer.as_bytes().split_at(cut);
        let first = feed.take(a, |l| lines.push(l.to_string())).unwrap();
        assert_eq!(first, cut >= end, "cut at {cut}");
        if !first {
            assert!(feed.take(b, |l| lines.push(l.to_string())).unwrap());
        }
        assert_eq!(lines, ["retry: 1000\n", "data: {\"records\":7}\n", "\n"]);
    }
    // On a connection kept, the empty line that ended the answer before may come first.
    let mut lines = Vec::new();
    let kept = format!("\r\n{answer}");
    assert!(
        Feed::default()
            .take(kept.as_bytes(), |l| lines.push(l.to_string()))
            .unwrap()
    );
    assert_eq!(lines, ["retry: 1000\n", "data: {\"records\":7}\n", "\n"]);
    let refused = "HTTP/1.1 429 Too Many Requests\r\ncontent-length: 0\r\n\r\n";
    assert!(Feed::default().take(refused.as_bytes(), |_| {}).is_err());
}
