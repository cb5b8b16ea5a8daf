//! End-to-end tests of the real binary under tmux in the other games: a short pool match whose
//! first game reaches three kings against one (built through the library from real moves,
//! tests/variant_support), resumed, played on and ended by the 13-count claimed, the second
//! game resigned; and a practice game of the losing game against the engine played to its end.

use crate::common;
use crate::variant_support;

use common::{Tmux, WAIT_SECS, bin, play_first_legal_move};
use crossboard::director::{EndReason, Phase};
use crossboard::engine::{Outcome, Position};
use crossboard::store::{EXTENSION, MatchStore, load_match};
use std::path::Path;
use variant_support::*;

/// The environment that puts the data and config folders under `dir`.
fn env(dir: &Path) -> String {
    format!(
        "XDG_DATA_HOME={0}/data XDG_CONFIG_HOME={0}/config",
        dir.display()
    )
}

#[test]
fn a_pool_match_ends_its_first_game_by_the_thirteen_count_claimed() {
    let dir = tempfile::tempdir().unwrap();
    // Three kings against one, the lone king 2 moves short of the count (or on the long
    // diagonal, where it runs out sooner: walked on until the draw is claimable below).
    let moves = pool_moves_to_thirteen_count(Some(1));
    let m = match_with_moves(pool_settings(), &moves);
    let path = dir.path().join(format!("pool.{EXTENSION}"));
    drop(MatchStore::create(&path, &m).unwrap());
    let cmd = format!(
        "exec env {} {} --ascii resume {}",
        env(dir.path()),
        bin(),
        path.display()
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    t.wait_text("match resumed");
    t.keys(&["Enter"]);
    t.wait_text("Start Red's clock again?");
    t.keys(&["y"]);
    let screen = t.wait_text("13-count: ");
    assert!(
        screen.contains("Pool: flying kings, men take backward"),
        "{screen}"
    );
    // Play quiet moves of both sides (computed from the position the file replays) until
    // the count has run out.
    let mut game = m.playing().unwrap().game.clone();
    let mut seen: Vec<Position> = game.positions().to_vec();
    while game.claimable_draw().is_none() {
        let pos = *game.position();
        let mv = quiet_move(&pos, &seen).expect("a quiet move");
        seen.push(pos.after(&mv));
        game.play(&mv).unwrap();
        let count = game.thirteen_count().unwrap();
        // Typed whole: Enter plays it even where it begins another move (9-2, 9-23).
        t.text(&mv.to_string());
        t.keys(&["Enter"]);
        let shown = if count.reached() {
            format!("13-count out: {}'s king, {} moves", count.lone, count.moves)
        } else {
            format!(
                "13-count: {}'s king, {} of {}",
                count.lone, count.moves, count.limit
            )
        };
        t.wait_for(&shown, WAIT_SECS, |s| {
            s.contains(&shown) && s.contains("Move: _ ")
        });
    }
    t.wait_text("a draw is claimable (the 13-count ran out): c");
    t.keys(&["c"]);
    t.wait_text("draw by the 13-count");
    t.keys(&["Enter"]);
    t.wait_text("Between games");
    // Game 2: started and resigned by Red; the match is over.
    t.keys(&["Enter"]);
    t.wait_text("starts");
    t.keys(&["Enter"]);
    t.wait_text("legal: ");
    t.keys(&["r"]);
    t.wait_text("Who resigns this game?");
    t.keys(&["r"]);
    t.keys(&["y"]);
    t.wait_text("Game over");
    t.keys(&["Enter"]);
    t.wait_text("Match over");
    t.keys(&["q"]);
    t.wait_text("New match");
    t.keys(&["q"]);
    t.wait_for("the program to end", WAIT_SECS, |_| {
        t.display("#{pane_dead}") == "1"
    });
    let file = load_match(&path).unwrap();
    let m = file.the_match;
    assert_eq!(m.phase(), Phase::Finished);
    let g = &m.ballots()[0].games[0];
    let r = g.result.clone().unwrap();
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::Draw, EndReason::ThirteenCount)
    );
    assert_eq!(
        g.game.moves(),
        game.moves(),
        "every move played in tmux saved"
    );
}

/// The screen once it satisfies `pred` and reads the same 100 ms later (a capture taken while
/// the program is drawing may hold half a frame: the legal moves not listed yet, or cut).
fn settled(t: &Tmux, what: &str, pred: impl Fn(&str) -> bool) -> String {
    for _ in 0..100 {
        let screen = t.wait_for(what, WAIT_SECS, &pred);
        std::thread::sleep(std::time::Duration::from_millis(100));
        if t.capture() == screen {
            return screen;
        }
    }
    panic!("{what}: the screen never settled:\n{}", t.capture());
}

/// In `screen`, a move-list line with move number `n` and Red's `mv` followed by a reply.
fn replied(screen: &str, n: usize, mv: &str) -> bool {
    let key = format!("{n}. {mv} ");
    screen.lines().any(|l| {
        l.match_indices(&key).any(|(i, _)| {
            let before = l[..i].chars().last();
            let rest = l[i + key.len()..].trim_start();
            !before.is_some_and(|c| c.is_ascii_digit())
                && rest.starts_with(|c: char| c.is_ascii_digit())
        })
    })
}

#[test]
fn a_practice_game_of_the_losing_game_against_the_engine_is_played_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!("exec env {} {} --ascii", env(dir.path()), bin());
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    t.wait_text("New match");
    t.keys(&["p"]);
    t.wait_text("choose an opening system");
    for _ in 0..3 {
        t.keys(&["r"]);
    }
    t.wait_text("The losing game (first off the board)");
    t.keys(&["o"]);
    t.wait_text("beginner engine plays White");
    t.keys(&["s", "Enter"]);
    let mut screen = settled(&t, "the practice game", |s| {
        s.contains("Losing game: first off the board wins") && s.contains("legal: ")
    });
    // Red (by hand) plays its first legal move each turn; the engine answers.
    let mut n = 0;
    while !screen.contains(" wins: ") {
        n += 1;
        assert!(n < 200, "no end after {n} moves:\n{screen}");
        let mv = play_first_legal_move(&t, &screen);
        screen = settled(&t, "the engine's reply or the end", |s| {
            s.contains(" wins: ") || (replied(s, n, &mv) && s.contains("legal: "))
        });
    }
    assert!(
        screen.contains("has no move left, and in the losing game that wins")
            || screen.contains("has no pieces left, and in the losing game")
            || screen.contains("cannot move"),
        "{screen}"
    );
    t.keys(&["q"]);
    t.wait_text("Leave practice");
    t.keys(&["y"]);
    t.wait_text("New match");
    t.keys(&["q"]);
    t.wait_for("the program to end", WAIT_SECS, |_| {
        t.display("#{pane_dead}") == "1"
    });
}
