//! The desk screen sees the hall: for each board of the round, from the desk's copy of its
//! match file (`crossboard serve` keeps it), whether it joined, where its match stands (game
//! and move, both clocks, a result pending or recorded) and how long ago it last pushed; and
//! the last push the desk refused from it, with the reason.

use super::desk_reports::desk_with_round;
use crossboard::director::{Command, Match, MatchSettings, Now, Player};
use crossboard::engine::Color;
use crossboard::store::{Desk, MatchStore};
use crossboard::tui::testing::{render_text, type_text};
use crossboard::tui::{Msg, TimeSource};
use rand::SeedableRng;
use std::path::Path;
use std::time::{Duration, SystemTime};

fn now() -> Now {
    Now {
        mono_ms: 0,
        wall: chrono::Utc::now(),
    }
}

/// The desk's copy of board `board` of round 1 as the board pushed it: the match started, its
/// first `games` games resigned by the side to move, then `plies` moves of the next game;
/// last pushed 150 seconds ago.
fn push_copy(db: &Path, board: usize, games: usize, plies: usize) {
    let open = {
        let desk = Desk::open(db).unwrap();
        desk.load(desk.find_event("Club Open").unwrap()).unwrap()
    };
    let d = &open.event.divisions[0];
    let b = &d.rounds[0].boards[board - 1];
    let s =
        crossboard::event::match_settings(&MatchSettings::default(), "Club Open", d, 1, b).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut m = Match::new(s, now()).unwrap();
    let mut apply = |m: &mut Match, c: Command| m.apply(c, now(), &mut rng).unwrap();
    apply(
        &mut m,
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
    );
    apply(&mut m, Command::DrawBallot);
    for game in 0..=games {
        if m.phase() == crossboard::director::Phase::Finished {
            break;
        }
        apply(&mut m, Command::StartGame);
        let n = if game < games { 0 } else { plies };
        for _ in 0..n {
            let pos = *m.playing().unwrap().game.position();
            let (colour, mv) = (pos.turn(), pos.legal_moves()[0]);
            apply(&mut m, Command::PlayMove { colour, mv });
        }
        if game < games {
            let colour = m.playing().unwrap().game.position().turn();
            apply(&mut m, Command::Resign { colour });
        }
    }
    let copy = crossboard::store::copy_path(db, "Club Open", 1, 1, board as u32);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    drop(MatchStore::create(&copy, &m).unwrap());
    let at = SystemTime::now() - Duration::from_secs(150);
    let f = std::fs::File::options().write(true).open(&copy).unwrap();
    f.set_modified(at).unwrap();
}

/// The row of board `b` (`"  2"`) on the screen `text`.
fn row<'a>(text: &'a str, b: &str) -> &'a str {
    text.lines()
        .find(|l| l.get(1..4) == Some(b))
        .unwrap_or_else(|| panic!("no board {b}: {text}"))
}

/// The local time of a push 150 seconds ago, as a wide row shows it, and the same in the
/// second before (the test may cross a second).
fn pushed_times() -> [String; 2] {
    let at = |back: u64| {
        chrono::DateTime::<chrono::Local>::from(SystemTime::now() - Duration::from_secs(back))
            .format("%H:%M:%S")
            .to_string()
    };
    [at(150), at(151)]
}

#[test]
fn each_board_row_says_joined_or_not_game_and_move_a_pending_result_and_the_push_age() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock, db) = desk_with_round(dir.path());
    // Board 1 is at game 1, its 3rd ply (move 2); board 2 has not joined; board 3 finished
    // its two games on the board, which the desk has not recorded yet.
    push_copy(&db, 1, 0, 3);
    push_copy(&db, 3, 2, 0);
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    // Both clocks (30 moves an hour: the hour each, as the copy last recorded them).
    assert!(
        row(&text, "  1").ends_with("waiting g1 m2 60:00 60:00 2m ago"),
        "{text}"
    );
    assert!(row(&text, "  2").ends_with("waiting not joined"), "{text}");
    assert!(
        row(&text, "  3").ends_with("waiting pending 2m ago"),
        "{text}"
    );
    for l in text.lines() {
        assert!(l.chars().count() <= 80, "{l}");
    }
    insta::assert_snapshot!("desk_hall_80x24", text);
    // The desk records board 3's two games: its result is recorded.
    type_text(&mut app, &clock, "jj12");
    let text = render_text(&app);
    assert!(
        row(&text, "  3").ends_with("done recorded 2m ago"),
        "{text}"
    );
    // Wide, in words, with the push's time.
    app.update(Msg::Resize(120, 30), clock.now());
    let mut text = render_text(&app);
    assert!(
        row(&text, "  1").contains("waiting game 1 move 2, Red 1:00:00, White 1:00:00, pushed "),
        "{text}"
    );
    assert!(
        row(&text, "  3").contains("done over, result recorded, pushed "),
        "{text}"
    );
    for t in pushed_times() {
        text = text.replace(&t, "HH:MM:SS");
    }
    assert!(
        row(&text, "  1").ends_with("pushed HH:MM:SS (2m ago)"),
        "{text}"
    );
    insta::assert_snapshot!("desk_hall_120x30", text);
}

/// A refusal as serve keeps it for board `board` of round 1, 40 seconds ago.
fn refuse(db: &Path, board: u32, status: u16, line: usize, reason: &str) -> String {
    let at = chrono::Utc::now() - chrono::TimeDelta::seconds(40);
    let refusal = crossboard::store::BoardRefusal {
        at,
        status,
        reason: reason.into(),
        line: Some(line),
    };
    crossboard::store::keep_refusal(db, "Club Open", (1, 1, board), &refusal).unwrap();
    chrono::DateTime::<chrono::Local>::from(at)
        .format("%H:%M:%S")
        .to_string()
}

#[test]
fn a_refused_board_says_so_on_its_row_and_why_under_the_table_until_it_is_resynced() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock, db) = desk_with_round(dir.path());
    push_copy(&db, 1, 0, 3);
    // Board 2's laptop set up another match: refused at its first line, never joined.
    let why = "not this board's match: the match plays ballots none (drawn at the board), the \
               round gives this board 1306";
    let at_two = refuse(&db, 2, 422, 1, why);
    // Board 1's laptop started a new file: its line 3 differs from the desk's copy.
    let at_one = refuse(
        &db,
        1,
        409,
        3,
        "line 3 differs from the desk's copy, which has 7 lines",
    );
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    assert!(
        row(&text, "  1").ends_with("waiting g1 m2 60:00 60:00 2m ago refused l3"),
        "{text}"
    );
    assert!(
        row(&text, "  2").ends_with("waiting not joined refused l1"),
        "{text}"
    );
    let said = |b: &str| {
        let l = text
            .lines()
            .find(|l| l.starts_with(&format!("  board {b}")));
        l.unwrap_or_else(|| panic!("no refusal of board {b}: {text}"))
            .to_string()
    };
    // At 80 columns the reason is cut, visibly.
    let one = format!("  board 1 (R re-syncs it) refused line 3 at {at_one} (409): line 3 differs");
    assert!(said("1").starts_with(&one), "{text}");
    let two = format!("  board 2 refused line 1 at {at_two} (422): not this board's match: ");
    assert!(said("2").starts_with(&two), "{text}");
    assert!(!text.contains("which has 7 lines"), "{text}");
    for l in text.lines() {
        assert!(l.chars().count() <= 80, "{l}");
    }
    // Wide, the reason whole and the refusal in words on the row.
    app.update(Msg::Resize(160, 30), clock.now());
    let text = render_text(&app);
    assert!(
        row(&text, "  2").ends_with(&format!("waiting not joined, refused line 1 at {at_two}")),
        "{text}"
    );
    assert!(
        text.contains("(409): line 3 differs from the desk's copy, which has 7 lines"),
        "{text}"
    );
    assert!(text.contains(&format!("(422): {why}")), "{text}");
    // R (y) re-syncs board 1: the copy put aside, the refusal gone with it.
    type_text(&mut app, &clock, "Ry\n");
    let text = render_text(&app);
    assert!(!text.contains("  board 1"), "{text}");
    assert!(row(&text, "  1").ends_with("waiting not joined"), "{text}");
    assert!(text.contains("  board 2 refused line 1"), "{text}");
}

#[test]
fn without_a_boards_folder_the_rows_say_nothing_of_the_hall() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _clock, _db) = desk_with_round(dir.path());
    let text = render_text(&app);
    assert!(!text.contains("joined"), "{text}");
}
