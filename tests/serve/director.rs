//! The director's page, `/director?key=TOKEN`: every board of the round as the desk's files
//! tell it, the last refusal of a board with its reason, and nothing at all without the
//! event's director token.

use crate::desk::{body, push};
use crate::hall::{Hall, get};
use crossboard::serve::{Options, Running, Source};
use crossboard::store::{director_key, keep_board_token, refusal_path};

/// Board 1's first player: a name is the director's input, and the page escapes it.
const NAMES: [&str; 4] = ["Ann <i>Lee</i>", "Bob Ross", "Cid Moe", "Dee Fox"];
const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const KEY: &str = "fedcba9876543210fedcba9876543210";

fn desk(hall: &Hall) -> Running {
    keep_board_token(&hall.db, "Club Open/1/1/1", TOKEN).unwrap();
    keep_board_token(&hall.db, &director_key("Club Open"), KEY).unwrap();
    let source = Source {
        db: Some(hall.db.clone()),
        ..Default::default()
    };
    crossboard::serve::start(Options::new(source, "127.0.0.1:0".parse().unwrap())).unwrap()
}

fn file_lines(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(str::to_string).collect()
}

/// Board `b`'s row of the page: the text of its cells, tags dropped, ` | ` between cells.
fn row(page: &str, b: u32) -> String {
    let start = page
        .find(&format!("<tr id=\"b{b}\">"))
        .unwrap_or_else(|| panic!("no board {b}: {page}"));
    let tr = &page[start..];
    let tr = &tr[..tr.find("</tr>").unwrap()];
    tr.split("<td")
        .skip(1)
        .map(|cell| {
            let inner = &cell[cell.find('>').unwrap() + 1..];
            inner[..inner.find("</td>").unwrap()].to_string()
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

#[test]
fn without_the_director_token_the_page_is_not_found_and_says_nothing() {
    let hall = Hall::with(NAMES, false);
    let server = desk(&hall);
    let not_found = get(&server, "/nowhere", None);
    for path in [
        "/director",
        "/director?key=",
        "/director?key=ffffffffffffffffffffffffffffffff",
        // A board's token is not the director's.
        &format!("/director?key={TOKEN}"),
        "/director?key=%ZZ",
    ] {
        let got = get(&server, path, None);
        assert_eq!(got.status, 404, "{path}: {}", got.body);
        assert_eq!(got.body, not_found.body, "{path}");
        for secret in ["Club Open", "Cid Moe", "Lee"] {
            assert!(!got.body.contains(secret), "{path}: {}", got.body);
        }
    }
}

#[test]
fn the_page_shows_each_board_and_a_refusal_with_its_reason_until_the_board_pushes() {
    let hall = Hall::with(NAMES, false);
    let server = desk(&hall);
    let page = format!("/director?key={KEY}");
    let got = get(&server, &page, None);
    assert_eq!(got.status, 200, "{}", got.body);
    assert!(
        got.body.contains("Ann &lt;i&gt;Lee&lt;/i&gt;"),
        "{}",
        got.body
    );
    assert!(!got.body.contains("<i>"), "{}", got.body);
    assert!(got.body.contains("Open, round 1"), "{}", got.body);
    assert_eq!(
        row(&got.body, 2),
        "2 | Dee Fox | Bob Ross | no | - | - | - | - | - | -"
    );

    // Board 1's laptop started another pairing's match: refused at its first line.
    let other = Hall::with(["Eve Hart", "Fay Gold", "Cid Moe", "Dee Fox"], false);
    let (status, answer) = push(&server, TOKEN, &body(0, &file_lines(&other.file)));
    assert_eq!(status, 422, "{answer}");
    let kept = refusal_path(&hall.db, "Club Open", (1, 1, 1));
    assert!(kept.is_file(), "{}", kept.display());
    let got = get(&server, &page, None);
    let one = row(&got.body, 1);
    assert!(
        one.starts_with("1 | Ann &lt;i&gt;Lee&lt;/i&gt; | Cid Moe | no | -"),
        "{one}"
    );
    assert!(one.contains("refused line 1 at "), "{one}");
    assert!(one.contains("(422): not this board's match: "), "{one}");

    // The right file: accepted, the refusal forgotten, the board's state shown.
    let (status, answer) = push(&server, TOKEN, &body(0, &file_lines(&hall.file)));
    assert_eq!(status, 200, "{answer}");
    assert!(!kept.exists());
    let got = get(&server, &page, None);
    let one = row(&got.body, 1);
    assert!(one.contains(" | yes | "), "{one}");
    assert!(one.contains(" | game 1 move 0 | "), "{one}");
    assert!(one.ends_with(" | -"), "{one}");
    assert!(one.contains("s ago) | "), "{one}");
    assert_eq!(
        got.body.matches("<tr id=\"b").count(),
        2,
        "every board of the round: {}",
        got.body
    );
}
