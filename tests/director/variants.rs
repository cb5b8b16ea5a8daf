//! The game a match is played in: its rules on the board, the huffing choices recorded in the
//! log, the match file and the PDN export, and read back exactly; the losing game's result.

use crate::director_support;

use crossboard::director::*;
use crossboard::engine::{Color, Outcome, Rules, squares};
use crossboard::store::MatchFile;
use crossboard::store::match_to_pdn;
use crossboard::store::{read_pdn, write_pdn};
use director_support::*;

fn in_game(game: Rules) -> H {
    let mut s = settings(1);
    s.game = game;
    s.time_control = TimeControl::sudden_death(600);
    let mut h = H::new(s, 3);
    h.colours(Player::First).ballot();
    h
}

fn typed(h: &mut H, text: &str) -> Vec<MatchEvent> {
    h.wait(2_000);
    let colour = h.turn();
    h.ok(Command::Move {
        colour,
        text: text.into(),
    })
}

#[test]
fn every_game_is_played_under_its_rules() {
    for game in Rules::ALL {
        let h = in_game(game);
        let g = h.m.playing().unwrap();
        assert_eq!(g.game.rules(), game);
        assert_eq!(g.game.position().rules(), game);
        assert_eq!(g.opening.position.rules(), game);
    }
}

#[test]
fn huffing_choices_are_logged_saved_and_exported() {
    let mut h = in_game(Rules::Huffing);
    typed(&mut h, "11-15");
    typed(&mut h, "22-18");
    // Red neglects 15x22; White has the move taken back.
    typed(&mut h, "9-13");
    h.wait(1_000);
    let ev = h.ok(Command::Compel {
        colour: Color::White,
    });
    assert_eq!(ev, vec![MatchEvent::Compelled]);
    typed(&mut h, "15x22");
    // White neglects the recapture; Red huffs a piece that should have taken, then moves.
    typed(&mut h, "24-20");
    let chance = h.m.playing().unwrap().game.huff_chance().unwrap();
    let sq = squares(chance.huffable).next().unwrap();
    h.refused(Command::Huff {
        colour: Color::Red,
        square: crossboard::engine::Square::new(1).unwrap(),
    });
    h.wait(3_000);
    h.ok(Command::Huff {
        colour: Color::Red,
        square: sq,
    });
    // Killed right after the huff: the thinking before it is in the log, not only in memory.
    let killed = Match::from_log(h.m.settings().clone(), h.m.log()).unwrap();
    let thought = |m: &Match, now_ms| m.clock_reading(now_ms).unwrap().red.move_ms;
    assert_eq!(thought(&h.m, h.t), Some(3_000));
    assert_eq!(thought(&killed.the_match, 0), Some(3_000));
    // One huff per turn.
    h.refused(Command::Huff {
        colour: Color::Red,
        square: sq,
    });
    typed(&mut h, "10-14");
    // The log rebuilds the same match.
    let back = Match::from_log(h.m.settings().clone(), h.m.log()).unwrap();
    assert_eq!(back.dropped, 0);
    assert_eq!(back.the_match, h.m);
    // The match file too.
    let file = MatchFile::new(h.m.clone());
    let text = file.to_text().unwrap();
    assert!(text.contains("\"game\":\"huffing\""), "{text}");
    assert!(text.contains("compelled"), "{text}");
    assert!(text.contains("huffed"), "{text}");
    let again = MatchFile::from_bytes(text.as_bytes(), std::path::Path::new("m.jsonl")).unwrap();
    assert_eq!(again.the_match, h.m);
    // And the PDN export, read back, replays to the same position.
    let pdn = write_pdn(&match_to_pdn(&h.m));
    assert!(pdn.contains("[Variant \"huffing\"]"), "{pdn}");
    assert!(pdn.contains("{[%retracted 9-13]}"), "{pdn}");
    assert!(pdn.contains(&format!("{{[%huff {sq}]}}")), "{pdn}");
    let read = read_pdn(&pdn).remove(0).unwrap();
    assert_eq!(
        read.replay().unwrap().position(),
        h.m.playing().unwrap().game.position()
    );
}

#[test]
fn a_refused_huffing_choice_changes_nothing() {
    let mut h = in_game(Rules::Huffing);
    h.refused(Command::Compel { colour: Color::Red });
    typed(&mut h, "11-15");
    h.refused(Command::Huff {
        colour: Color::White,
        square: crossboard::engine::Square::new(15).unwrap(),
    });
    // Not in English draughts either.
    let mut e = in_game(Rules::English);
    typed(&mut e, "11-15");
    e.refused(Command::Compel {
        colour: Color::White,
    });
    // The strength rule is a pool rule.
    assert!(matches!(
        e.refused(Command::AskStrengthCount {
            colour: Color::White
        }),
        MatchError::Strength(StrengthRefusal::NotPool)
    ));
}

#[test]
fn in_the_losing_game_the_side_without_pieces_wins() {
    let mut h = in_game(Rules::Losing);
    // Red gives its pieces away as fast as the rules allow; White must take them.
    let mut plies = 0;
    while h.m.playing().is_some_and(|g| g.result.is_none()) {
        let pos = h.position();
        let moves = pos.distinct_moves();
        let mv = if pos.turn() == Color::Red {
            *moves
                .iter()
                .max_by_key(|m| pos.after(m).must_capture() as u8)
                .unwrap()
        } else {
            moves[0]
        };
        h.wait(100);
        let colour = pos.turn();
        h.ok(Command::PlayMove { colour, mv });
        plies += 1;
        assert!(plies < 300, "no end after 300 plies");
    }
    let r = h.m.games().next().unwrap().result.clone().unwrap();
    let g = h.m.games().next().unwrap();
    let winner = match r.outcome {
        Outcome::Win(c) => c,
        Outcome::Draw => panic!("{r}"),
    };
    // The winner is the side left without a move (usually without pieces).
    assert!(g.game.position().legal_moves().is_empty());
    assert_eq!(g.game.position().turn(), winner, "{r}");
}
