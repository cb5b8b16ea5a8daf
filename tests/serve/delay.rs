//! `serve --delay SECONDS`: every public address shows the games as they were SECONDS ago; the
//! director's page shows them as they are.

use crate::hall::{Hall, get};
use crate::live::Feed;
use crossboard::event::{Action, BoardGameResult, BoardResult};
use crossboard::serve::{Delay, Options, Running, Source};
use crossboard::store::{Desk, copy_path, director_key, keep_board_token, move_label};

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];
const KEY: &str = "fedcba9876543210fedcba9876543210";

/// The delay the hall is served with.
const DELAY: u32 = 60;

fn delayed(hall: &Hall) -> Running {
    keep_board_token(&hall.db, &director_key("Club Open"), KEY).unwrap();
    let source = Source {
        db: Some(hall.db.clone()),
        event: None,
        match_file: Some(hall.file.clone()),
    };
    let options = Options {
        delay: Delay::seconds(DELAY),
        ..Options::new(source, "127.0.0.1:0".parse().unwrap())
    };
    crossboard::serve::start(options).unwrap()
}

/// Board 2's result (a draw, then a win for its first player), recorded at the desk now.
fn record_board_2_now(hall: &Hall) {
    let mut desk = Desk::open(&hall.db).unwrap();
    let id = desk.events().unwrap()[0].id;
    let mut open = desk.load(id).unwrap();
    let result = Action::Result {
        division: 0,
        round: 1,
        board: 2,
        result: BoardResult::Games {
            games: vec![
                BoardGameResult::Draw,
                BoardGameResult::Win {
                    winner: crossboard::director::Player::First,
                },
            ],
        },
    };
    desk.record(&mut open, &[result], chrono::Utc::now())
        .unwrap();
}

#[test]
fn under_a_delay_no_public_address_shows_a_move_younger_than_it() {
    // The event was paired and board 1's game began an hour ago, on the hall's clock; three
    // moves were played then.
    let mut hall = Hall::at(NAMES, true, chrono::TimeDelta::hours(1));
    let old: Vec<String> = (0..3).map(|_| hall.play()).collect();
    let records_then = hall.m.log().len();
    // Now: two more moves, and board 2's result typed at the desk.
    hall.clock.back = chrono::TimeDelta::zero();
    let young: Vec<String> = (0..2).map(|_| hall.play()).collect();
    record_board_2_now(&hall);
    // The desk's copy of board 1, as a board reporting to the desk leaves it.
    let copy = copy_path(&hall.db, "Club Open", 1, 1, 1);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&hall.file, &copy).unwrap();
    let server = delayed(&hall);

    let g = hall.m.playing().unwrap();
    let start = g.game.start().turn();
    let last_shown = format!("Last move: {} {}", move_label(start, 2), old[2]);
    let first_held = format!("{} {}", move_label(start, 3), young[0]);
    for path in ["/", "/hall", "/board/1/1/1", "/match"] {
        let page = get(&server, path, None);
        assert_eq!(page.status, 200, "{path}");
        let b = &page.body;
        if path != "/board/1/1/1" && path != "/match" {
            assert!(b.contains(&last_shown), "{path}: {b}");
        } else {
            assert!(b.contains("after ply 3 of 3"), "{path}: {b}");
        }
        assert!(!b.contains(&first_held), "{path} shows a held move: {b}");
    }
    // The JSON: board 1's game as it was, board 2 without its result, the standings as they
    // were.
    let moves_of = |v: &serde_json::Value| v["games"][0]["moves"].as_array().unwrap().len();
    let api: serde_json::Value =
        serde_json::from_str(&get(&server, "/api/event", None).body).unwrap();
    let d = &api["divisions"][0];
    assert_eq!(moves_of(&d["boards"][0]["match"]), 3, "{api}");
    assert_eq!(d["boards"][0]["match"]["records"], records_then, "{api}");
    assert_eq!(d["boards"][1]["result"], "-", "{api}");
    assert!(
        !d["standings"].to_string().contains("1½"),
        "a held result counted: {api}"
    );
    for path in ["/api/board/1/1/1", "/api/match"] {
        let v: serde_json::Value = serde_json::from_str(&get(&server, path, None).body).unwrap();
        let m = if path == "/api/match" {
            &v
        } else {
            &v["match"]
        };
        assert_eq!(moves_of(m), 3, "{path}: {v}");
        assert_eq!(m["records"], records_then, "{path}: {v}");
    }
    // The PDN: three moves, each with its clock.
    for path in ["/round/1.pdn", "/board/1/1/1.pdn", "/match.pdn"] {
        let pdn = get(&server, path, None).body;
        assert_eq!(pdn.matches("[%clock").count(), 3, "{path}: {pdn}");
    }
    // The live feeds' first events: the pages as they were, the clocks run from then.
    for path in ["/live/event", "/live/board/1/1/1", "/live/match"] {
        let mut feed = Feed::open(&server, path);
        let (_, first) = feed.next();
        assert_eq!(first["records"], records_then, "{path}: {first}");
        assert!(!first.to_string().contains(&first_held), "{path}: {first}");
        let now = first["now"].as_i64().unwrap();
        let behind = chrono::Utc::now().timestamp_millis() - now;
        assert!(
            (i64::from(DELAY) * 1000 - 5_000..=i64::from(DELAY) * 1000 + 1_000).contains(&behind),
            "{path}: the time the clocks run from is {behind} ms behind"
        );
    }
    // The director sees the board as it is: five moves, and board 2's result.
    let page = get(&server, &format!("/director?key={KEY}"), None);
    assert_eq!(page.status, 200);
    let b = &page.body;
    assert!(b.contains("move 3"), "{b}");
    assert!(b.contains("<td>= 1 (recorded)</td>"), "{b}");
}
