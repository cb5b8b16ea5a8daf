//! The live feeds (Server-Sent Events): a page left open gets each new record of a match.

use crate::desk::{body, push};
use crate::hall::{Board, Boards, Chunked, Hall, get};
use crossboard::serve::{Options, Running, Source};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// An open feed, read as a browser's EventSource reads it.
pub struct Feed {
    head: String,
    lines: BufReader<Chunked<BufReader<TcpStream>>>,
}

impl Feed {
    pub fn open(server: &crossboard::serve::Running, path: &str) -> Feed {
        Feed::open_with(server, path, "")
    }

    /// Open again as EventSource does after a stream ended: with the id of the last event
    /// it got.
    fn reopen(server: &crossboard::serve::Running, path: &str, last_id: &str) -> Feed {
        Feed::open_with(server, path, &format!("Last-Event-ID: {last_id}\r\n"))
    }

    fn open_with(server: &crossboard::serve::Running, path: &str, headers: &str) -> Feed {
        let mut s = TcpStream::connect(server.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: hall\r\nAccept: text/event-stream\r\n{headers}\r\n"
        )
        .unwrap();
        let mut r = BufReader::new(s);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            head += &line;
        }
        Feed {
            head,
            lines: BufReader::new(Chunked::new(r)),
        }
    }

    /// The status line and headers.
    fn head(&self) -> String {
        self.head.clone()
    }

    /// The next update's lines (`retry:`, `event:`, `id:`, `data:`), the data parsed.
    pub fn next(&mut self) -> (Vec<String>, serde_json::Value) {
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
            if ["retry:", "event:", "id:"]
                .iter()
                .any(|f| line.starts_with(f))
            {
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
    // Each card with its whole picture, put in the card where its empty <svg> stands.
    let svg = first["parts"][0]["svg"].as_str().unwrap().to_string();
    assert!(svg.starts_with("<svg "), "{svg}");
    let mv = hall.play();
    let (_, update) = feed.next();
    let part = &update["parts"][0];
    assert_eq!(part["id"], "b1-1-1");
    let card = part["html"].as_str().unwrap();
    assert!(card.contains(&format!("Last move: 1. {mv}")), "{card}");
    // Of the picture, only the parts the move changed: the pieces and frames of the squares
    // it left and reached, the side to move.
    let picture = part["picture"].as_object().unwrap();
    let squares: Vec<&str> = mv.split(['-', 'x']).collect();
    for name in [
        format!("p{}", squares[0]),
        format!("p{}", squares[1]),
        format!("f{}", squares[1]),
        "turn".to_string(),
        "title".to_string(),
    ] {
        assert!(picture.contains_key(&name), "{name}: {picture:?}");
    }
    assert!(picture.len() <= 8, "{:?}", picture.keys());
    assert!(part.get("svg").is_none(), "the whole picture sent again");
    // Redrawn so, the picture and the card are the page's own (but for the running clock's
    // text: the page shows it now, the update as of the move, the page's script runs it).
    let redrawn = picture.iter().fold(svg, |svg, (name, new)| {
        redraw(&svg, name, new.as_str().unwrap())
    });
    let page = get(&server, "/", None);
    let whole = without_clocks(&card.replace("<svg></svg>", &redrawn));
    assert!(
        without_clocks(&page.body).contains(&whole),
        "{whole}\n{}",
        page.body
    );
    // And the script that does so.
    assert!(page.body.contains("new EventSource(src)"));
}

/// `html` without its clocks' paragraphs.
fn without_clocks(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("<p class=\"clocks\"") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find("</p>").unwrap() + at + "</p>".len();
        rest = &rest[end..];
    }
    out + rest
}

/// `svg` with its part `name` (the element marked `data-part="NAME"`) replaced by `new`.
fn redraw(svg: &str, name: &str, new: &str) -> String {
    let mark = format!(" data-part=\"{name}\"");
    let at = svg.find(&mark).unwrap();
    let start = svg[..at].rfind('<').unwrap();
    let close = if svg[start..].starts_with("<title") {
        "</title>\n"
    } else {
        "</g>\n"
    };
    let end = at + svg[at..].find(close).unwrap() + close.len();
    format!("{}{new}{}", &svg[..start], &svg[end..])
}

#[test]
fn a_feed_of_no_board_is_not_found() {
    let hall = Hall::new(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"]);
    let server = hall.serve();
    for path in ["/live/board/1/1/x", "/live/board/1/+1/1", "/live/nowhere"] {
        assert_eq!(get(&server, path, None).status, 404, "{path}");
    }
}

/// A desk over the reporting boards of `event` that looks at its files every `look` and
/// updates its live pages at most every `every`.
fn desk_pacing(event: &Boards, look: Duration, every: Duration) -> Running {
    let source = Source {
        db: Some(event.db.clone()),
        ..Default::default()
    };
    let mut options = Options::new(source, "127.0.0.1:0".parse().unwrap());
    options.limits.look = look;
    options.limits.update_every = every;
    crossboard::serve::start(options).unwrap()
}

/// Push what the desk lacks of `board`'s match file (it has `from` lines); the lines it has.
fn push_board(server: &Running, board: &Board, from: usize) -> usize {
    let lines: Vec<String> = board.text().lines().map(str::to_string).collect();
    let (status, ack) = push(server, &board.token, &body(from, &lines[from..]));
    assert_eq!(status, 200, "{ack}");
    ack["have"].as_u64().unwrap() as usize
}

/// The ids of an update's parts.
fn part_ids(update: &serde_json::Value) -> Vec<String> {
    update["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_push_reaches_the_feeds_without_waiting_for_the_look_at_the_files() {
    let event = Boards::new(2);
    // The files looked at once an hour: only the push itself can bring the update.
    let server = desk_pacing(
        &event,
        Duration::from_secs(3600),
        Duration::from_millis(150),
    );
    let mut feed = Feed::open(&server, "/live/event");
    let (_, first) = feed.next();
    assert_eq!(first["records"], 0, "no board linked yet");
    push_board(&server, &event.boards[0], 0);
    let (_, update) = feed.next();
    assert_eq!(
        update["records"].as_u64().unwrap() as usize,
        event.boards[0].m.log().len()
    );
    assert_eq!(part_ids(&update), ["b1-1-1"]);
}

#[test]
fn changes_within_the_update_interval_reach_a_feed_as_one_event() {
    let mut event = Boards::new(2);
    let server = desk_pacing(&event, Duration::from_millis(100), Duration::from_secs(2));
    let mut feed = Feed::open(&server, "/live/event");
    feed.next();
    // A change after a quiet spell goes out at once.
    let mut have = push_board(&server, &event.boards[0], 0);
    let (_, update) = feed.next();
    assert_eq!(part_ids(&update), ["b1-1-1"]);
    // Two more within the interval, each seen by a look at the files of its own: one event.
    push_board(&server, &event.boards[1], 0);
    std::thread::sleep(Duration::from_millis(300));
    assert!(event.boards[0].play());
    have = push_board(&server, &event.boards[0], have);
    assert_eq!(have, event.boards[0].text().lines().count());
    let (_, update) = feed.next();
    let records = event.boards.iter().map(|b| b.m.log().len()).sum::<usize>();
    assert_eq!(update["records"].as_u64().unwrap() as usize, records);
    assert_eq!(part_ids(&update), ["b1-1-1", "b1-1-2"]);
}

/// The id of an update (its `id:` field).
fn event_id(fields: &[String]) -> String {
    let id = fields.iter().find_map(|f| f.strip_prefix("id: "));
    id.unwrap_or_else(|| panic!("no id: {fields:?}"))
        .to_string()
}

#[test]
fn a_feed_reopened_after_its_last_event_gets_what_changed_not_the_whole_page() {
    // Every stream ends after its lifetime and the browser opens it again with the id of the
    // last event it got: a hall of phones would otherwise fetch every card and picture again
    // every few minutes (and the server make the whole page for each).
    let mut event = Boards::new(3);
    let server = desk_pacing(
        &event,
        Duration::from_millis(100),
        Duration::from_millis(50),
    );
    let mut have = [0; 3];
    for (k, b) in event.boards.iter().enumerate() {
        have[k] = push_board(&server, b, 0);
    }
    let mut feed = Feed::open(&server, "/live/event");
    let (mut fields, first) = feed.next();
    assert_eq!(part_ids(&first), ["b1-1-1", "b1-1-2", "b1-1-3"]);
    // The page as the files are (the server may have rendered it before it saw the last push).
    let records = event.boards.iter().map(|b| b.m.log().len()).sum::<usize>();
    let mut shown = first["records"].as_u64().unwrap() as usize;
    while shown < records {
        let (next, update) = feed.next();
        fields = next;
        shown = update["records"].as_u64().unwrap() as usize;
    }
    assert_eq!(shown, records);
    let last = event_id(&fields);
    drop(feed);
    // While the page is away, one board moves.
    assert!(event.boards[1].play());
    push_board(&server, &event.boards[1], have[1]);
    let mut feed = Feed::reopen(&server, "/live/event", &last);
    let (fields, update) = feed.next();
    assert_eq!(
        update["records"].as_u64().unwrap() as usize,
        records + 1,
        "{update}"
    );
    assert_eq!(part_ids(&update), ["b1-1-2"]);
    // Its card, and of its picture only what the move changed.
    let part = &update["parts"][0];
    assert!(part["html"].is_string(), "{part}");
    assert!(part.get("svg").is_none(), "the whole picture sent again");
    assert!(part["picture"].as_object().is_some_and(|p| !p.is_empty()));
    assert_ne!(event_id(&fields), last);
    // An id the server did not give (another server's, or a server since restarted) gets the
    // whole page.
    for other in ["0-1", "garbage", &format!("{last}000")] {
        let mut feed = Feed::reopen(&server, "/live/event", other);
        let (_, whole) = feed.next();
        assert_eq!(part_ids(&whole), ["b1-1-1", "b1-1-2", "b1-1-3"], "{other}");
    }
}
