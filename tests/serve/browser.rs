//! The event page in a real browser (headless Chromium): a move written to a board's match
//! file shows on the open page within a second, without a reload, and the clock runs.

use crate::common::browser::Browser;
use crate::hall::Hall;
use std::time::{Duration, Instant};

#[test]
fn a_move_written_to_a_board_shows_on_the_open_event_page_within_a_second() {
    let mut hall = Hall::new(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"]);
    hall.play();
    let server = hall.serve();
    let mut browser = Browser::open(&server.url(), 412, 915);
    let start = Instant::now();
    while server.feeds() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the page never opened its feed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A mark on the page as loaded: a reload would lose it.
    browser.eval("window.loadedOnce = true");
    let card = "document.getElementById('b1-1-1').textContent";
    let clock = "document.querySelector('#b1-1-1 .clock.run').textContent";
    let before = browser.eval(clock);
    let mv = hall.play();
    let written = Instant::now();
    loop {
        let text = browser.eval(card);
        if text
            .as_str()
            .unwrap_or("")
            .contains(&format!("Last move: 1... {mv}"))
        {
            break;
        }
        assert!(
            written.elapsed() < Duration::from_secs(1),
            "{mv} not shown in 1 s: {text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        browser.eval("window.loadedOnce"),
        true,
        "the page was reloaded"
    );
    // The picture redrawn where the move changed it: the piece gone from the square it left,
    // on the one it reached.
    let squares: Vec<&str> = mv.split(['-', 'x']).collect();
    let mut pieces = |sq: &str| {
        browser.eval(&format!(
            "document.querySelectorAll('#b1-1-1 .pos svg [data-part=\"p{sq}\"] circle').length"
        ))
    };
    assert_eq!(
        pieces(squares[0]),
        0,
        "{mv}: a piece left on {}",
        squares[0]
    );
    assert_eq!(pieces(squares[1]), 2, "{mv}: no piece on {}", squares[1]);
    // The clock of the side to move runs in the browser between records.
    let running = browser.eval(clock);
    std::thread::sleep(Duration::from_millis(2100));
    let later = browser.eval(clock);
    assert_ne!(
        running, later,
        "the clock stood still ({before} then {running}, {later})"
    );
}
