//! The pages, the live PDN and the JSON API as a spectator reads them.

use crate::hall::{Hall, get};

/// The picture the pages show of a position: the one board renderer's, numbered squares, the
/// move that led to it marked.
fn picture(p: &crossboard::engine::Position, last: Option<&crossboard::engine::Move>) -> String {
    let options = crossboard::publish::BoardSvgOptions {
        numbers: true,
        size: 320,
        last_move: last.map(|m| (m.from(), m.to())),
        ..Default::default()
    };
    let parts = crossboard::publish::board_svg_parts(p, &options);
    parts.into_iter().map(|p| p.svg).collect()
}

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];

#[test]
fn the_event_page_shows_each_board_its_players_ballot_score_clocks_and_the_standings() {
    let mut hall = Hall::new(NAMES);
    let first = hall.play();
    let server = hall.serve();
    let page = get(&server, "/", None);
    assert_eq!(page.status, 200);
    let b = &page.body;
    assert!(b.contains("<h1>Club Open</h1>"), "{b}");
    assert!(b.contains("<h2>Open</h2>") && b.contains("Round 1"), "{b}");
    for name in NAMES {
        assert!(b.contains(name), "{name} missing: {b}");
    }
    // Board 1 is played on crossboard: its ballot, score, clocks and last move are there.
    let ballot = &hall.m.ballots()[0].opening.name;
    assert!(b.contains(ballot.as_str()), "ballot {ballot}: {b}");
    assert!(
        b.contains("Score: <span class=\"s0\">0</span> – <span class=\"s1\">0</span>"),
        "{b}"
    );
    assert!(b.contains("class=\"clocks\""), "{b}");
    assert!(b.contains(&format!("Last move: 1. {first}")), "{b}");
    // The position as a picture, drawn by the one board renderer, the last move marked.
    let g = hall.m.playing().unwrap();
    let last = g.moves.last().map(|m| &m.mv);
    assert!(last.is_some());
    assert!(b.contains(&picture(g.game.position(), last)), "{b}");
    assert!(b.contains("href=\"/board/1/1/1\""), "{b}");
    // The standings and crosstable as published: of rounds finished, none yet; round 1's
    // results so far beside the points, never counted in them.
    assert!(
        b.contains("<h3>Standings before round 1; round 1 in play</h3>"),
        "{b}"
    );
    assert!(
        b.contains("<th>Pts</th>") && b.contains("<th>R1*</th>"),
        "{b}"
    );
    assert!(!b.contains("<th>R1</th>"), "{b}");
    let api = get(&server, "/api/event", None);
    let v: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    let standings = &v["divisions"][0]["standings"];
    assert_eq!(standings["after"], 0, "{standings}");
    assert_eq!(
        standings["heading"], "Standings before round 1; round 1 in play",
        "{standings}"
    );
    // Readable without the script; the script only keeps it live.
    assert!(b.contains("data-live=\"/live/event\""), "{b}");
    assert!(b.contains("name=\"viewport\""), "{b}");
}

#[test]
fn the_board_page_lists_the_moves_with_clock_stamps_the_log_and_steps_back() {
    let mut hall = Hall::new(NAMES);
    let moves: Vec<String> = (0..3).map(|_| hall.play()).collect();
    let server = hall.serve();
    let page = get(&server, "/board/1/1/1", None);
    assert_eq!(page.status, 200);
    let b = &page.body;
    for (k, mv) in moves.iter().enumerate() {
        assert!(
            b.contains(&format!("?game=1&amp;ply={}\">{mv}</a>", k + 1)),
            "{mv}: {b}"
        );
    }
    assert!(
        b.contains("<td>1.</td>") && b.contains("<td>1...</td>"),
        "{b}"
    );
    assert!(b.contains("after ply 3 of 3"), "{b}");
    // The clock stamp after each move: the time control's clock, less what the move took.
    let left = hall.m.playing().unwrap().moves[0].remaining_ms.unwrap();
    let s = left / 1000;
    let stamp = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    assert!(b.contains(&format!("<td>{stamp}</td>")), "{stamp}: {b}");
    // The match's log, record by record.
    assert!(
        b.contains("<td>game-started</td>") && b.contains("<td>move</td>"),
        "{b}"
    );
    // Stepped back to the start: the position is the ballot's, the links go on.
    let start = get(&server, "/board/1/1/1?game=1&ply=0", None);
    let g = hall.m.playing().unwrap();
    assert!(
        start.body.contains(&g.game.positions()[0].to_fen()),
        "{}",
        start.body
    );
    assert!(start.body.contains("after ply 0 of 3"), "{}", start.body);
    let one = get(&server, "/board/1/1/1?game=1&ply=1", None);
    assert!(
        one.body.contains(&g.game.positions()[1].to_fen()),
        "{}",
        one.body
    );
    // The picture follows the step, the move that led there marked.
    let at = |k: usize| {
        picture(
            &g.game.positions()[k],
            k.checked_sub(1).map(|m| &g.moves[m].mv),
        )
    };
    assert!(start.body.contains(&at(0)) && !start.body.contains(&at(1)));
    assert!(one.body.contains(&at(1)));
}

#[test]
fn the_round_pdn_has_the_running_game_with_a_star_and_its_clocks_and_answers_304_to_its_etag() {
    let mut hall = Hall::new(NAMES);
    let mv = hall.play();
    let server = hall.serve();
    let first = get(&server, "/round/1.pdn", None);
    assert_eq!(first.status, 200);
    let pdn = &first.body;
    assert!(pdn.contains("[Round \"1.1.1\"]"), "{pdn}");
    assert!(
        pdn.contains("[Black \"Ann Lee\"]") || pdn.contains("[White \"Ann Lee\"]"),
        "{pdn}"
    );
    assert!(pdn.contains(&format!("1. {mv} {{[%clock ")), "{pdn}");
    assert!(pdn.trim_end().ends_with('*'), "running game: {pdn}");
    let etag = first.etag.clone().expect("an ETag");
    // Polled again with nothing new: 304 and no body.
    let again = get(&server, "/round/1.pdn", Some(&etag));
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // A move later the feed changes, and so does its tag.
    let mv2 = hall.play();
    let moved = get(&server, "/round/1.pdn", Some(&etag));
    assert_eq!(moved.status, 200);
    assert!(moved.body.contains(&mv2), "{}", moved.body);
    assert_ne!(moved.etag.as_deref(), Some(etag.as_str()));
    // One board's PDN: that board alone.
    let board = get(&server, "/board/1/1/1.pdn", None);
    assert_eq!(board.status, 200);
    assert!(board.body.contains("[Round \"1.1.1\"]") && !board.body.contains("1.2.1"));
    // Board 2 is not played on crossboard and has no result yet: no game to write.
    let b2 = get(&server, "/board/1/1/2.pdn", None);
    assert_eq!(b2.status, 200);
    assert!(!b2.body.contains("1.1.1"), "{}", b2.body);
    let cached = get(&server, "/board/1/1/2.pdn", b2.etag.as_deref());
    assert_eq!(cached.status, 304);
}

#[test]
fn a_hostile_player_name_is_escaped_on_every_page() {
    let hostile = "<script>alert(1)</script>";
    let mut hall = Hall::new([hostile, "Bob Ross", "Cid Moe", "Dee Fox"]);
    hall.play();
    let server = hall.serve();
    for path in ["/", "/board/1/1/1", "/match"] {
        let page = get(&server, path, None);
        assert_eq!(page.status, 200, "{path}");
        assert!(!page.body.contains(hostile), "{path}: {}", page.body);
        assert!(
            page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{path}: {}",
            page.body
        );
    }
    let api = get(&server, "/api/event", None);
    let v: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    assert!(api.body.contains("alert(1)"));
    assert!(
        v["divisions"][0]["standings"]["rows"]
            .to_string()
            .contains("alert(1)")
    );
}

#[test]
fn unknown_boards_rounds_and_paths_are_not_found() {
    let hall = Hall::new(NAMES);
    let server = hall.serve();
    for path in [
        "/board/1/1/9",
        "/board/2/1/1",
        "/board/1/7/1",
        "/board/0/1/1",
        "/board/1/1/x",
        "/board/1/1/..%2F..%2Fdesk.sqlite3",
        "/board/1/1/1.json",
        "/round/9.pdn",
        "/round/1",
        "/round/..%2F1.pdn",
        "/api/board/1/1/9",
        "/api/board/1/1/1.pdn",
        "/nowhere",
        "/board/-1/1/1",
    ] {
        let got = get(&server, path, None);
        assert_eq!(got.status, 404, "{path}: {}", got.body);
        assert!(got.body.contains("Not found"), "{path}");
    }
}

#[test]
fn the_json_api_gives_the_boards_their_moves_and_clocks() {
    let mut hall = Hall::new(NAMES);
    let mv = hall.play();
    let server = hall.serve();
    let event = get(&server, "/api/event", None);
    assert_eq!(event.status, 200);
    let v: serde_json::Value = serde_json::from_str(&event.body).unwrap();
    assert_eq!(v["name"], "Club Open");
    let d = &v["divisions"][0];
    assert_eq!(d["round"], 1);
    assert_eq!(d["boards"].as_array().unwrap().len(), 2);
    let b1 = &d["boards"][0];
    assert_eq!(b1["players"][0], "Ann Lee");
    let game = &b1["match"]["games"][0];
    assert_eq!(game["moves"][0]["text"], mv.as_str());
    assert!(game["moves"][0]["left_ms"].as_i64().unwrap() > 0);
    assert_eq!(game["clock"]["to_move"], "white");
    assert_eq!(game["clock"]["running"], true);
    assert!(
        d["boards"][1]["match"].is_null(),
        "board 2 is not played on crossboard"
    );
    let board = get(&server, "/api/board/1/1/1", None);
    let bv: serde_json::Value = serde_json::from_str(&board.body).unwrap();
    assert_eq!(bv["match"]["games"][0]["moves"][0]["text"], mv.as_str());
    let cached = get(&server, "/api/board/1/1/1", board.etag.as_deref());
    assert_eq!(cached.status, 304);
}

#[test]
fn a_standalone_match_is_served_with_its_pdn_and_json() {
    let mut hall = Hall::new(NAMES);
    let mv = hall.play();
    let source = crossboard::serve::Source {
        match_file: Some(hall.file.clone()),
        ..Default::default()
    };
    let bind = "127.0.0.1:0".parse().unwrap();
    let server = crossboard::serve::start(crossboard::serve::Options::new(source, bind)).unwrap();
    // The home page is the match.
    let page = get(&server, "/", None);
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("<h1>Ann Lee – Cid Moe</h1>"),
        "{}",
        page.body
    );
    assert!(page.body.contains(&format!(">{mv}</a>")), "{}", page.body);
    let pdn = get(&server, "/match.pdn", None);
    assert!(pdn.body.contains(&format!("1. {mv}")) && pdn.body.trim_end().ends_with('*'));
    let api = get(&server, "/api/match", None);
    let v: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    assert_eq!(v["games"][0]["moves"][0]["text"], mv.as_str());
    // No event database is served: the event's addresses are not found.
    assert_eq!(get(&server, "/api/event", None).status, 404);
    assert_eq!(get(&server, "/round/1.pdn", None).status, 404);
}

#[test]
fn crossboard_serve_prints_its_address_and_serves_there() {
    use std::io::BufRead;
    let hall = Hall::new(NAMES);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(["serve", "--db"])
        .arg(&hall.db)
        .args(["--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("serving at ")
        .unwrap_or_default()
        .to_string();
    let ok =
        url.starts_with("http://127.0.0.1:") && ureq::get(format!("{url}api/event")).call().is_ok();
    child.kill().unwrap();
    child.wait().unwrap();
    drop(out);
    assert!(ok, "{line}");
}

#[test]
fn the_round_pdn_follows_a_result_entered_at_the_desk_between_two_polls() {
    let mut hall = Hall::new(NAMES);
    hall.play();
    let server = hall.serve();
    let first = get(&server, "/round/1.pdn", None);
    let etag = first.etag.clone().expect("an ETag");
    assert!(!first.body.contains("[Round \"1.2.1\"]"), "{}", first.body);
    assert_eq!(get(&server, "/round/1.pdn", Some(&etag)).status, 304);
    // Board 2, not played on crossboard: a draw entered at the desk.
    let mut desk = crossboard::store::Desk::open(&hall.db).unwrap();
    let mut open = desk.load(desk.find_event("Club Open").unwrap()).unwrap();
    let result = crossboard::event::Action::Result {
        division: 0,
        round: 1,
        board: 2,
        result: crossboard::event::BoardResult::Games {
            games: vec![crossboard::event::BoardGameResult::Draw],
        },
    };
    desk.record(&mut open, &[result], chrono::Utc::now())
        .unwrap();
    let after = get(&server, "/round/1.pdn", Some(&etag));
    assert_eq!(after.status, 200);
    assert!(after.body.contains("[Round \"1.2.1\"]"), "{}", after.body);
    assert_ne!(after.etag, Some(etag));
}

#[test]
fn the_board_page_says_a_note_in_words_never_as_json() {
    use crossboard::director::Command;
    let mut hall = Hall::new(NAMES);
    hall.play();
    hall.apply(Command::Note {
        text: "Clock <swapped> & reset".into(),
    });
    let server = hall.serve();
    let b = get(&server, "/board/1/1/1", None).body;
    // The note as the director wrote it (escaped), never as the file's JSON.
    assert!(b.contains("Clock &lt;swapped&gt; &amp; reset"), "{b}");
    assert!(!b.contains("&quot;text&quot;"), "{b}");
    assert!(!b.contains("&quot;spent&quot;"), "{b}");
}

#[test]
fn a_finished_games_picture_says_its_result_not_who_is_to_play() {
    use crossboard::director::Command;
    let mut hall = Hall::new(NAMES);
    hall.play();
    let server = hall.serve();
    let b = get(&server, "/board/1/1/1", None).body;
    // While the game runs, the picture says who is to play.
    assert!(b.contains("White to play"), "{b}");
    hall.apply(Command::Resign {
        colour: crossboard::engine::Color::White,
    });
    let b = get(&server, "/board/1/1/1", None).body;
    let result = hall.m.games().next().unwrap().result.clone().unwrap();
    let pos = b.find("<svg").unwrap();
    let picture = &b[pos..b[pos..].find("</svg>").unwrap() + pos];
    assert!(!picture.contains("to play"), "{picture}");
    assert!(picture.contains(&result.to_string()), "{result}: {picture}");
    // The event page's card says it too.
    let e = get(&server, "/", None).body;
    assert!(!e.contains("to play"), "{e}");
    // Stepped back into the game, the picture says again who was to play.
    let back = get(&server, "/board/1/1/1?game=1&ply=0", None).body;
    assert!(back.contains("Red to play"), "{back}");
}
