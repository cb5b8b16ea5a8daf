//! The PDN export of a match (the one export `crossboard export` and the TUI share): the
//! director's notes are comments at the move they were made, a director's reason is a comment
//! (the Termination tag stays short), and every line stays under 80 columns even with names,
//! event and notes at their longest.

use crate::director_support;

use crossboard::director::*;
use crossboard::engine::Color;
use crossboard::store::read_pdn;
use crossboard::store::{export_match, match_pdn, notes};
use director_support::*;

/// Names as long as the set-up takes (40 characters).
const LONG: &str = "Alexandra Montgomery-Featherstonehaugh X";

#[test]
fn notes_are_comments_at_their_move_and_lines_stay_under_80_columns() {
    let mut s = settings(1);
    s.players = [LONG.into(), format!("{}Y", &LONG[..39])];
    s.openings.system = crossboard::openings::System::ElevenMan;
    s.time_control = TimeControl::sudden_death(600);
    let mut h = H::new(s, 11);
    h.colours(Player::First).ballot();
    h.ok(Command::Note {
        text: "before the first move: clocks checked by both players".into(),
    });
    h.play(3_000);
    h.play(4_000);
    h.ok(Command::Note {
        text: "White claims Red touched a piece; the director saw nothing and play goes on after a long look at the board".into(),
    });
    h.play(5_000);
    h.ok(Command::Forfeit {
        loser: Color::White,
        reason: "left the playing hall during the game without the director's leave".into(),
    });
    h.ok(Command::Note {
        text: "after the game".into(),
    });
    let placed = notes(&h.m);
    assert_eq!(placed.len(), 3);
    assert_eq!(
        (placed[0].plies, placed[1].plies, placed[2].plies),
        (0, 2, 3)
    );
    assert!(placed[2].after_game);

    let (text, done) = match_pdn(&h.m).unwrap();
    assert_eq!(done.games, 1);
    for line in text.lines() {
        assert!(line.chars().count() < 80, "{} columns: {line}", line.len());
    }
    let flat = text.replace('\n', " ");
    // The note made after two plies sits between the second and the third move.
    let second = h.m.current_game().unwrap().moves[1].mv.to_string();
    let third = h.m.current_game().unwrap().moves[2].mv.to_string();
    let at_note = flat
        .find("{Note: White claims")
        .expect("the note is a comment");
    assert!(flat.find(&second).unwrap() < at_note, "{flat}");
    assert!(
        at_note < flat.find(&format!("2. {third}")).unwrap(),
        "{flat}"
    );
    assert!(flat.starts_with("[Event "), "{flat}");
    assert!(flat.find("{Note: before the first move").unwrap() < flat.find("1. ").unwrap());
    assert!(
        text.contains("[Termination \"Red wins: White forfeits\"]"),
        "{text}"
    );
    assert!(
        flat.contains("{White forfeits: left the playing hall"),
        "the reason is a comment: {flat}"
    );
    assert!(text.contains("[Opening \""), "{text}");
    assert!(text.contains("[Ballot \"11-Man Ballot "), "{text}");
    // Still one game that replays.
    let back = read_pdn(&text);
    assert_eq!(back.len(), 1);
    assert!(back[0].is_ok(), "{:?}", back[0]);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.pdn");
    assert_eq!(export_match(&h.m, &path, None).unwrap().games, 1);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}
