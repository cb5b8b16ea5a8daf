//! Every answer of the desk understood by a reporting board: only a 2xx with the desk's count
//! acknowledges lines, a refusal is told in words and not sent again unchanged, and `crossboard
//! report` ends with the reason on a refusal that cannot clear.

use crate::hall::{Hall, run_to_end};
use crossboard::director::{ColourMethod, Match, MatchSettings, Now};
use crossboard::event::match_settings;
use crossboard::serve::{LinkState, Options, RefusalKind, Running, Source, copy_path, report};
use crossboard::store::{Desk, MatchStore};
use std::time::{Duration, Instant};

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];
const TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn desk(hall: &Hall) -> Running {
    crossboard::store::keep_board_token(&hall.db, "Club Open/1/1/1", TOKEN).unwrap();
    let source = Source {
        db: Some(hall.db.clone()),
        ..Default::default()
    };
    crossboard::serve::start(Options::new(source, "127.0.0.1:0".parse().unwrap())).unwrap()
}

/// The reporter's link once it is no longer connecting (at most 10 s).
fn settled(reporter: &crossboard::serve::Reporter) -> LinkState {
    let start = Instant::now();
    loop {
        let link = reporter.link();
        if link != LinkState::Connecting {
            return link;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no answer");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The refused pushes in the desk's log.
fn refused_pushes(server: &Running) -> Vec<String> {
    server
        .log()
        .into_iter()
        .filter(|l| l.contains("refused POST /push"))
        .collect()
}

/// A hall whose board has played three moves, and its desk.
fn three_moves() -> (Hall, Running) {
    let mut hall = Hall::with(NAMES, false);
    for _ in 0..3 {
        hall.play();
    }
    let server = desk(&hall);
    (hall, server)
}

/// Give the desk `text` as its copy of the board's file: the copy's path.
fn desk_copy(hall: &Hall, text: &str) -> std::path::PathBuf {
    let copy = copy_path(&hall.db, "Club Open", 1, 1, 1);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::write(&copy, text).unwrap();
    copy
}

/// The board's file reported to the desk until refused: the refusal, as the board tells it.
fn refused_file(hall: &Hall, server: &Running) -> crossboard::serve::Refusal {
    let reporter = report(&format!("http://{}", server.addr()), TOKEN, &hall.file);
    let link = settled(&reporter);
    assert_eq!(reporter.acknowledged(), None, "{link:?}");
    let LinkState::Refused { refusal, .. } = link else {
        panic!("{link:?}");
    };
    refusal
}

#[test]
fn a_desk_copy_that_differs_is_never_shown_as_acknowledged() {
    let (hall, server) = three_moves();
    // The desk holds as many lines as the board's file, but its third is another file's.
    let mut other = std::fs::read_to_string(&hall.file).unwrap();
    let third = other.match_indices('\n').nth(1).unwrap().0 + 1;
    other.insert(third + 1, ' ');
    let copy = desk_copy(&hall, &other);
    let refusal = refused_file(&hall, &server);
    assert_eq!(refusal.kind, RefusalKind::Diverged { line: 3 });
    let words = refusal.words();
    assert!(words.contains("line 3"), "{words}");
    assert!(words.contains("re-sync"), "{words}");
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), other);
}

#[test]
fn a_board_behind_the_desks_copy_is_refused_and_the_director_told_what_to_do() {
    let (hall, server) = three_moves();
    // The desk has the board's file; the board's laptop starts again from a file holding the
    // first of its lines (an older copy, or a new file made within the same second).
    let whole = std::fs::read_to_string(&hall.file).unwrap();
    let copy = desk_copy(&hall, &whole);
    let lines: Vec<&str> = whole.lines().collect();
    let file = lines.len() - 2;
    let prefix: String = lines[..file].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&hall.file, &prefix).unwrap();
    let refusal = refused_file(&hall, &server);
    let desk_has = lines.len();
    assert_eq!(
        refusal.kind,
        RefusalKind::DeskAhead {
            desk: desk_has,
            file
        }
    );
    assert!(refusal.words().contains("re-sync"), "{}", refusal.words());
    // The desk screen and the director's page say it alike, with what the director does.
    let kept = crossboard::store::board_refusal(&hall.db, "Club Open", (1, 1, 1))
        .expect("the desk keeps the refusal for the director");
    assert_eq!((kept.status, kept.line), (409, Some(file + 1)));
    let words = crossboard::publish::hall::refusal_text(&kept);
    let told = format!("the board's file has {file} lines, all of them the desk's copy's first");
    assert!(words.contains(&told), "{words}");
    assert!(
        words.contains(&format!("the copy has {desk_has}")),
        "{words}"
    );
    assert!(
        words.contains("re-sync the board from the desk screen"),
        "{words}"
    );
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), whole);
}

#[test]
fn a_refused_push_is_not_sent_again_until_the_file_changes() {
    // The board's file is another pairing's (other players): the desk will not keep it.
    let desk_hall = Hall::with(NAMES, false);
    let mut board = Hall::with(["Eve Hart", "Fay Gold", "Cid Moe", "Dee Fox"], false);
    let server = desk(&desk_hall);
    let reporter = report(&format!("http://{}", server.addr()), TOKEN, &board.file);
    let link = settled(&reporter);
    let LinkState::Refused { refusal, .. } = &link else {
        panic!("{link:?}");
    };
    assert_eq!(refusal.kind, RefusalKind::Lines { line: 1 }, "{link:?}");
    assert!(refusal.words().contains("line 1"), "{}", refusal.words());
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(refused_pushes(&server).len(), 1, "{:?}", server.log());
    // The file changes: sent once more (and refused once more).
    board.play();
    let start = Instant::now();
    while refused_pushes(&server).len() < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never sent again"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(refused_pushes(&server).len(), 2, "{:?}", server.log());
    assert!(matches!(reporter.link(), LinkState::Refused { .. }));
}

#[test]
fn crossboard_report_with_a_token_no_board_has_ends_with_the_reason() {
    let hall = Hall::with(NAMES, false);
    let server = desk(&hall);
    let url = format!("http://{}", server.addr());
    let wrong = "ffffffffffffffffffffffffffffffff";
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"));
    command
        .args(["report", "--desk", &url, "--board-token", wrong])
        .arg(&hall.file);
    let (status, said) = run_to_end(command, Duration::from_secs(20));
    assert!(!status.success(), "{said}");
    assert!(said.contains("no board has this token"), "{said}");
    assert!(said.contains("ask the director"), "{said}");
}

/// A change to the settings the desk gives a board.
type Change = fn(&mut MatchSettings);

/// A match file for board 1 made by hand beside the desk's database: the settings the desk
/// gives the board, changed by `change`.
fn by_hand(hall: &Hall, name: &str, change: impl FnOnce(&mut MatchSettings)) -> std::path::PathBuf {
    let desk = Desk::open(&hall.db).unwrap();
    let id = desk.find_event("Club Open").unwrap();
    let open = desk.load(id).unwrap();
    let d = &open.event.divisions[0];
    let board = &d.rounds[0].boards[0];
    let mut s = match_settings(&MatchSettings::default(), "Club Open", d, 1, board).unwrap();
    change(&mut s);
    let file = hall.db.with_file_name(format!("{name}.jsonl"));
    let now = Now {
        mono_ms: 0,
        wall: chrono::Utc::now(),
    };
    MatchStore::create(&file, &Match::new(s, now).unwrap()).unwrap();
    file
}

#[test]
fn a_match_set_up_otherwise_than_the_pairing_is_refused_at_its_first_line() {
    let hall = Hall::with(NAMES, false);
    let server = desk(&hall);
    let copy = copy_path(&hall.db, "Club Open", 1, 1, 1);
    let cases: [(&str, Change); 4] = [
        (
            "the match plays ballots none (drawn at the board), the round gives this board",
            |s| s.given_ballots.clear(),
        ),
        ("the match has 12 games, the round 2 per board", |s| {
            s.ballots = 6
        }),
        ("the board is", |s| s.players.swap(0, 1)),
        ("has Red in game 1", |s| {
            s.colour_method = ColourMethod::CoinFlip
        }),
    ];
    for (k, (why, change)) in cases.into_iter().enumerate() {
        let file = by_hand(&hall, &format!("case{k}"), change);
        // The head, the settings and the match's creation: the file before any move.
        let text = std::fs::read_to_string(&file).unwrap();
        let set_up: Vec<String> = text.lines().map(str::to_string).collect();
        assert_eq!(set_up.len(), 3, "{text}");
        let (status, answer) = crate::desk::push(&server, TOKEN, &crate::desk::body(0, &set_up));
        assert_eq!(status, 422, "{why}: {answer}");
        let said = answer["refused"].as_str().unwrap();
        assert!(said.starts_with("not this board's match"), "{said}");
        assert!(said.contains(why), "{why}: {said}");
        assert!(!copy.exists(), "{why}: nothing kept");
    }
    // The desk's own set-up for the board is kept.
    let file = by_hand(&hall, "the-desks", |_| {});
    let reporter = report(&format!("http://{}", server.addr()), TOKEN, &file);
    assert_eq!(settled(&reporter), LinkState::Acknowledged(3));
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&file).unwrap());
}

#[test]
fn a_diverged_board_re_synced_by_the_director_sends_its_file_from_the_start() {
    let mut hall = Hall::with(NAMES, false);
    hall.play();
    let server = desk(&hall);
    let mut other = std::fs::read_to_string(&hall.file).unwrap();
    let third = other.match_indices('\n').nth(1).unwrap().0 + 1;
    other.insert(third + 1, ' ');
    let copy = copy_path(&hall.db, "Club Open", 1, 1, 1);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::write(&copy, &other).unwrap();
    let reporter = report(&format!("http://{}", server.addr()), TOKEN, &hall.file);
    assert!(matches!(settled(&reporter), LinkState::Refused { .. }));
    // The director re-syncs the board from the desk: the copy is put aside, not deleted.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(["event", "--db"])
        .arg(&hall.db)
        .args(["resync", "Club Open", "Open", "1", "1"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("the board sends its file again"), "{said}");
    let kept: Vec<_> = std::fs::read_dir(copy.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".archived-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), other);
    // The board, asking again (every 5 s), finds the desk has nothing and sends it all.
    let lines = std::fs::read_to_string(&hall.file).unwrap().lines().count();
    let start = Instant::now();
    while reporter.acknowledged() != Some(lines) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "never sent again: {:?}",
            reporter.link()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(&hall.file).unwrap()
    );
}
