//! The live feeds (Server-Sent Events): a page left open gets each new record of a match.

use crate::hall::{Hall, get};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// An open feed, read as a browser's EventSource reads it.
struct Feed {
    lines: BufReader<TcpStream>,
}

impl Feed {
    fn open(server: &crossboard::serve::Running, path: &str) -> Feed {
        let mut s = TcpStream::connect(server.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: hall\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        Feed {
            lines: BufReader::new(s),
        }
    }

    /// The status line and headers.
    fn head(&mut self) -> String {
        let mut head = String::new();
        loop {
            let mut line = String::new();
            self.lines.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                return head;
            }
            head += &line;
        }
    }

    /// The next update's lines (`retry:`, `event:`, `data:`), the data parsed.
    fn next(&mut self) -> (Vec<String>, serde_json::Value) {
        let mut fields = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.lines.read_line(&mut line).unwrap() > 0,
                "the feed ended"
            );
            let line = line.trim_end().to_string();
            if let Some(data) = line.strip_prefix("data: ") {
                let v = serde_json::from_str(data).unwrap();
                fields.push(line.clone());
                return (fields, v);
            }
            if line.starts_with("retry:") || line.starts_with("event:") {
                fields.push(line);
            }
        }
    }
}

#[test]
fn a_board_feed_sends_each_new_move_with_its_clocks_at_once() {
    let mut hall = Hall::new(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"]);
    hall.play();
    let server = hall.serve();
    let mut feed = Feed::open(&server, "/live/board/1/1/1");
    let head = feed.head();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_lowercase()
            .contains("content-type: text/event-stream"),
        "{head}"
    );
    // At once: the page's part as it is, and how soon to reconnect after a drop.
    let (fields, first) = feed.next();
    assert!(fields.contains(&"retry: 1000".to_string()), "{fields:?}");
    assert!(fields.contains(&"event: update".to_string()), "{fields:?}");
    let records = first["records"].as_u64().unwrap();
    assert_eq!(records as usize, hall.m.log().len());
    assert_eq!(first["parts"][0]["id"], "main");
    for _ in 0..3 {
        let played = Instant::now();
        let mv = hall.play();
        let (_, update) = feed.next();
        assert!(
            played.elapsed() < Duration::from_secs(1),
            "{:?}",
            played.elapsed()
        );
        assert_eq!(
            update["records"].as_u64().unwrap() as usize,
            hall.m.log().len()
        );
        let html = update["parts"][0]["html"].as_str().unwrap();
        assert!(html.contains(&format!(">{mv}</a>")), "{mv}: {html}");
        assert!(html.contains("class=\"clocks\""), "{html}");
        assert!(update["now"].as_i64().unwrap() > 1_700_000_000_000);
    }
}

#[test]
fn the_event_feed_sends_the_board_cards_when_a_board_moves() {
    let mut hall = Hall::new(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"]);
    let server = hall.serve();
    let mut feed = Feed::open(&server, "/live/event");
    feed.head();
    let (_, first) = feed.next();
    let ids: Vec<&str> = first["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["b1-1-1", "b1-1-2"]);
    let mv = hall.play();
    let (_, update) = feed.next();
    let card = update["parts"][0]["html"].as_str().unwrap();
    assert!(card.contains(&format!("Last move: 1. {mv}")), "{card}");
    // The page itself carries the same card, and the script that swaps it.
    let page = get(&server, "/", None);
    assert!(page.body.contains(card), "{}", page.body);
    assert!(page.body.contains("new EventSource(src)"));
}

#[test]
fn a_feed_of_no_board_is_not_found() {
    let hall = Hall::new(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"]);
    let server = hall.serve();
    for path in ["/live/board/1/1/x", "/live/board/1/+1/1", "/live/nowhere"] {
        assert_eq!(get(&server, path, None).status, 404, "{path}");
    }
}
