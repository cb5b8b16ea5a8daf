//! End to end under tmux: a 6-player Swiss of 3 rounds run through the desk screen, one board
//! played on crossboard with the match flow, the standings shown and the HTML crosstable
//! exported.

use crate::common;

use common::{Tmux, bin};

#[test]
fn a_six_player_swiss_through_the_desk_screen() {
    let data = tempfile::tempdir().unwrap();
    let cmd = format!(
        "env XDG_DATA_HOME={} {} --no-color",
        data.path().display(),
        bin()
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    t.wait_text("Tournament desk");
    t.keys(&["t"]);
    t.wait_text("No event yet");
    t.keys(&["n"]);
    t.text("Club Open");
    t.keys(&["Enter"]);
    t.wait_text("recorded: event");
    t.keys(&["d"]);
    t.text("Open swiss:3 2");
    t.keys(&["Enter"]);
    t.wait_text("[Open]");
    t.keys(&["a"]);
    for name in ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"] {
        t.text(name);
        t.keys(&["Enter"]);
        t.wait_text(&format!("recorded: {name} entered"));
    }
    t.keys(&["Escape"]);
    t.wait_text("6 players");
    for round in 1..=3 {
        t.keys(&["p"]);
        t.wait_text(&format!("recorded: round {round} paired"));
        for board in 1..=3 {
            if (round, board) == (1, 1) {
                play_board_on_crossboard(&t);
                t.keys(&["j"]);
                continue;
            }
            // First player wins game 1, game 2 drawn: two keys per board.
            t.keys(&["1"]);
            t.wait_text(&format!("round {round} board {board}: 1"));
            t.keys(&["="]);
            t.wait_text(&format!("round {round} board {board}: 1 ="));
            t.keys(&["j"]);
        }
        t.wait_for("the round complete", common::WAIT_SECS, |s| {
            s.matches("done").count() == 3
        });
    }
    t.keys(&["w"]);
    t.wait_text("Round 3, board");
    t.keys(&["s"]);
    let screen = t.wait_text("place");
    assert!(screen.contains("Ann") && screen.contains("Fay"), "{screen}");
    t.keys(&["e"]);
    t.wait_text("wrote");
    let html = data.path().join("crossboard/exports/club-open-open.html");
    let text = std::fs::read_to_string(&html).unwrap_or_else(|e| panic!("{}: {e}", html.display()));
    assert!(text.starts_with("<!DOCTYPE html>"));
    for name in ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"] {
        assert!(text.contains(name), "{name} missing from the crosstable");
    }
    assert_eq!(text.matches("<tr>").count(), 7, "header and six players");
    // The board played on crossboard: its match file, in the data folder, is the record.
    let file = data.path().join(format!(
        "crossboard/matches/club-open-open-r1-b1.{}",
        crossboard::store::EXTENSION
    ));
    let log = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    // The match file records the round's ballot as given, and the ballot played.
    assert!(log.contains("\"given-ballots\":["), "{log}");
    assert!(log.contains("ballot-drawn"), "{log}");
    // The event is in the database: the CLI reads the same standings.
    let out = std::process::Command::new(bin())
        .env("XDG_DATA_HOME", data.path())
        .args(["event", "standings", "Club Open", "Open"])
        .output()
        .unwrap();
    let standings = String::from_utf8_lossy(&out.stdout);
    assert!(standings.contains("R3"), "{standings}");
    // The standings, the pairings, the events, home, then quit.
    t.keys(&["q", "q", "q", "q"]);
}

/// Board 1 of round 1 played on crossboard: `P` opens the match (colours from the pairing),
/// game 1 resigned by Red at once, game 2 agreed drawn; `q` on the finished match goes back to
/// the desk, which records the two games.
fn play_board_on_crossboard(t: &Tmux) {
    let desk = t.wait_text("ballot 1: ");
    // "ballot 1: 11-Man Ballot 1306: Remove ...": the system and number the match heads with.
    let ballot = desk
        .lines()
        .find_map(|l| l.trim().strip_prefix("ballot 1: "))
        .and_then(|b| b.split(':').next())
        .unwrap_or_else(|| panic!("the round's ballot on the desk:\n{desk}"))
        .trim()
        .to_string();
    t.keys(&["P"]);
    // The round's ballot, already in place: no draw, no rejection.
    let board = t.wait_text("Enter starts");
    assert!(
        board.contains(&ballot),
        "the match plays the round's ballot {ballot:?}:\n{board}"
    );
    t.keys(&["Enter"]);
    t.wait_text("legal: ");
    t.keys(&["r"]);
    t.wait_text("Who resigns this game?");
    t.keys(&["r"]);
    t.wait_text("resigns this game?");
    t.keys(&["y"]);
    t.wait_text("Game over");
    t.keys(&["Enter"]);
    t.wait_text("By game");
    t.keys(&["Enter"]);
    t.wait_text("starts");
    t.keys(&["Enter"]);
    t.wait_text("legal: ");
    t.keys(&["o"]);
    t.wait_text("offers a draw");
    t.keys(&["a"]);
    t.wait_text("Game over");
    t.keys(&["Enter"]);
    t.wait_text("Match over");
    t.keys(&["q"]);
    let desk = t.wait_text("round 1 board 1 from crossboard: 2 =");
    assert!(desk.contains("crossboard"), "{desk}");
}
