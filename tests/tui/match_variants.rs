//! The match screen's game stage in the other games, on a `TestBackend` at 80x24 with
//! `--ascii` and in colour: the rules in force on the panel, `i` showing them whole, pool's
//! running 13-count and its claim, the strength count asked (`s`) and extended (`+`), and
//! huffing's three choices (let stand, `H` huff, `C` compel). The matches are built through
//! the library (tests/variant_support) and opened as a resumed match would be.

use crate::variant_support;

use crossboard::director::{Command, EndReason, Match, MatchSettings, Now, StrengthRule};
use crossboard::engine::{Color, Outcome, Rules, squares};
use crossboard::tui::check_chain;
use crossboard::tui::match_screen as screen;
use crossboard::tui::persist::Saver;
use crossboard::tui::{App, Appearance, FakeClock, Screen, ScreenState, TimeSource};
use crossboard::tui::{MatchScreen, StageKind};
use crossboard::tui::{buffer_text, render_buffer, render_text, test_app, type_text};
use variant_support::*;

/// An app showing `m` as reopened (nothing saved: the match lives in memory), the clocks
/// resumed (Enter, y).
fn open(m: Match) -> (FakeClock, App) {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let s = MatchScreen::resume(m, Saver::Off, TimeSource::now(&clock), wall(0));
    app.screen = Screen::Match(Box::new(s));
    type_text(&mut app, &clock, "\ny");
    assert!(
        !screen(&app)
            .game_match()
            .playing()
            .unwrap()
            .clock
            .is_paused(),
        "{}",
        render_text(&app)
    );
    (clock, app)
}

/// The screen at 80x24 in `--ascii` and in colour, words only (a wrapped status reads as one).
fn both_modes(app: &mut App) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (mode, look) in [
        ("ascii", Appearance::from_flags(true, false, None)),
        ("colour", Appearance::from_flags(false, false, None)),
    ] {
        let old = std::mem::replace(&mut app.appearance, look);
        let text = buffer_text(&render_buffer(app));
        app.appearance = old;
        out.push((mode.to_string(), text));
    }
    out
}

/// Every text in `needed` is on the screen in both modes; the snapshot of both.
fn must_show(app: &mut App, needed: &[&str]) -> String {
    let mut snapshot = String::new();
    for (mode, text) in both_modes(app) {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for n in needed {
            assert!(flat.contains(n), "{mode}: {n:?} missing:\n{text}");
        }
        if mode == "ascii" {
            assert!(text.is_ascii(), "--ascii:\n{text}");
        }
        snapshot.push_str(&format!("==== 80x24 {mode} ====\n{text}"));
    }
    snapshot
}

/// The keys in force reach their bindings, are in the help, and the help fits 80x24.
fn keys_fit(app: &App, state: &str) {
    let s = screen(app);
    check_chain(&s.chain(), &s.keys()).unwrap_or_else(|e| panic!("{state}: {e}"));
    let h = crossboard::tui::menu::help_height(&s.keys(), 80);
    assert!(h <= 24, "{state}: the help needs {h} rows");
}

fn lone(m: &Match) -> Color {
    m.playing().unwrap().game.thirteen_count().unwrap().lone
}

#[test]
fn pool_shows_its_rules_and_the_running_thirteen_count() {
    let moves = pool_moves_to_thirteen_count(Some(3));
    let (_clock, mut app) = open(match_with_moves(pool_settings(), &moves));
    let m = screen(&app).game_match();
    let count = m.playing().unwrap().game.thirteen_count().unwrap();
    assert_eq!(count.moves, 3);
    let line = format!("13-count: {}'s king, 3 of {}", count.lone, count.limit);
    let snap = must_show(
        &mut app,
        &["Pool: flying kings, men take backward", &line, "to move"],
    );
    insta::assert_snapshot!("pool_thirteen_count", snap);
    keys_fit(&app, "pool game");
    let help = screen(&app).keys();
    for (key, text) in [
        ("s", "the weaker side asks for the count"),
        ("+", "grants 8 more moves"),
        ("c", "claim a draw"),
        ("i", "the rules of this game"),
    ] {
        assert!(
            help.iter().any(|k| k.keys == key && k.text.contains(text)),
            "{key}: {help:?}"
        );
    }
}

#[test]
fn the_rules_are_shown_whole_with_the_strength_rule_set_up() {
    let moves = pool_moves_to_thirteen_count(Some(1));
    let (clock, mut app) = open(match_with_moves(pool_settings(), &moves));
    type_text(&mut app, &clock, "i");
    let snap = must_show(
        &mut app,
        &[
            "American pool checkers",
            "Men capture backward too; kings fly and take at range.",
            "Strength rule: 30 + 8 moves (rule 27).",
            "13-count:",
            "Esc, Enter or i closes",
        ],
    );
    insta::assert_snapshot!("pool_rules_shown", snap);
    keys_fit(&app, "rules shown");
    type_text(&mut app, &clock, "\x1b");
    assert!(!render_text(&app).contains("Esc, Enter or i closes"));
    assert_eq!(screen(&app).stage(), StageKind::Game);
}

#[test]
fn the_thirteen_count_run_out_is_claimed_with_c() {
    let moves = pool_moves_to_thirteen_count(None);
    let (clock, mut app) = open(match_with_moves(pool_settings(), &moves));
    let m = screen(&app).game_match();
    let count = m.playing().unwrap().game.thirteen_count().unwrap();
    assert!(count.reached(), "{count:?}");
    let line = format!("13-count out: {}'s king, {} moves", count.lone, count.moves);
    let snap = must_show(
        &mut app,
        &[
            &line,
            "a draw is claimable (the 13-count ran out): c claims",
        ],
    );
    insta::assert_snapshot!("pool_thirteen_count_run_out", snap);
    type_text(&mut app, &clock, "c");
    let s = screen(&app);
    assert_eq!(s.stage(), StageKind::Over);
    let r = s
        .game_match()
        .current_game()
        .unwrap()
        .result
        .clone()
        .unwrap();
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::Draw, EndReason::ThirteenCount)
    );
    must_show(&mut app, &["Game over: draw by the 13-count"]);
}

#[test]
fn the_weaker_side_asks_for_the_strength_count_and_the_director_extends_it() {
    let moves = pool_moves_to_thirteen_count(Some(1));
    let (clock, mut app) = open(match_with_moves(pool_settings(), &moves));
    let weaker = lone(screen(&app).game_match());
    // Not running yet: nothing to extend; the refusal says why and changes nothing.
    let before = screen(&app).game_match().clone();
    type_text(&mut app, &clock, "+");
    assert_eq!(screen(&app).game_match(), &before);
    must_show(&mut app, &["no strength count runs"]);
    type_text(&mut app, &clock, "s");
    let r = screen(&app).game_match().strength_reading().unwrap();
    assert_eq!((r.weaker, r.moves, r.limit), (weaker, 0, 30));
    let snap = must_show(
        &mut app,
        &[
            &format!("Strength count: {weaker} 0 of 30"),
            &format!("{weaker} asked for the strength count"),
        ],
    );
    insta::assert_snapshot!("pool_strength_count_asked", snap);
    // Asked twice: refused.
    type_text(&mut app, &clock, "s");
    must_show(&mut app, &["the strength count already runs"]);
    assert_eq!(
        screen(&app).game_match().strength_reading().unwrap().moves,
        0
    );
}

#[test]
fn a_strength_count_run_out_offers_the_claim_and_rule_27s_extension() {
    // Two kings against one (no 13-count): asked at once, then 30 moves of the weaker side.
    let moves = pool_moves_to_two_kings_v_one();
    let mut m = match_with_moves(pool_settings(), &moves);
    let pos = *m.playing().unwrap().game.position();
    let weaker = if pos.strength(Color::Red) < pos.strength(Color::White) {
        Color::Red
    } else {
        Color::White
    };
    let mut t = 1_000_000;
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let mut apply = |m: &mut Match, c: Command| {
        t += 1_000;
        let now = Now {
            mono_ms: t,
            wall: wall(t),
        };
        m.apply(c, now, &mut rng).unwrap();
    };
    apply(&mut m, Command::AskStrengthCount { colour: weaker });
    let mut seen = Vec::new();
    while !m.strength_reading().unwrap().reached() {
        let pos = *m.playing().unwrap().game.position();
        let mv = quiet_move(&pos, &seen).expect("a quiet new move");
        seen.push(pos.after(&mv));
        let colour = pos.turn();
        apply(&mut m, Command::PlayMove { colour, mv });
    }
    let (clock, mut app) = open(m);
    must_show(
        &mut app,
        &[
            &format!("Strength count: {weaker} 30 of 30"),
            "the strength count ran out: c claims the draw, + grants 8 more",
        ],
    );
    type_text(&mut app, &clock, "+");
    let r = screen(&app).game_match().strength_reading().unwrap();
    assert!(r.extended && !r.reached(), "{r:?}");
    must_show(
        &mut app,
        &[
            &format!("Strength count: {weaker} 30 of 30+8"),
            "8 more moves granted (rule 27)",
        ],
    );
}

/// A huffing match after 11-15 22-18 9-13: Red neglected the capture 15x22.
fn huffing_after_a_neglect() -> Match {
    let settings = MatchSettings {
        game: Rules::Huffing,
        strength_rule: StrengthRule::default(),
        ..pool_settings()
    };
    let m = match_with_moves(settings, &[]);
    let pos = *m.playing().unwrap().game.position();
    let mut moves = Vec::new();
    let mut p = pos;
    for text in ["11-15", "22-18", "9-13"] {
        let mv = p
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to_string() == text)
            .unwrap_or_else(|| panic!("{text} legal"));
        p = p.after(&mv);
        moves.push(mv);
    }
    let settings = m.settings().clone();
    match_with_moves(settings, &moves)
}

#[test]
fn huffing_offers_the_three_choices_and_h_huffs() {
    let (clock, mut app) = open(huffing_after_a_neglect());
    let chance = screen(&app)
        .game_match()
        .playing()
        .unwrap()
        .game
        .huff_chance()
        .expect("a huff chance");
    let pieces: Vec<String> = squares(chance.huffable).map(|s| s.to_string()).collect();
    let snap = must_show(
        &mut app,
        &[
            "Huffing: capture optional, or huffed",
            "Red did not capture (9-13): move to let it stand, H huff",
            "C take back and capture",
        ],
    );
    insta::assert_snapshot!("huffing_choices", snap);
    keys_fit(&app, "huffing game");
    let help = screen(&app).keys();
    assert!(
        help.iter()
            .any(|k| k.keys == "H" && k.text.contains("huff"))
    );
    assert!(
        help.iter()
            .any(|k| k.keys == "C" && k.text.contains("take back"))
    );
    // Several pieces: H asks which; the square typed first picks it.
    if pieces.len() > 1 {
        type_text(&mut app, &clock, "H");
        must_show(&mut app, &["type the square of the piece to huff"]);
    }
    let sq = squares(chance.huffable).next().unwrap();
    type_text(&mut app, &clock, &format!("{sq}H"));
    let m = screen(&app).game_match();
    let g = m.playing().unwrap();
    assert!(g.game.position().piece_at(sq).is_none(), "huffed off");
    assert_eq!(g.game.position().turn(), Color::White, "White moves next");
    must_show(&mut app, &[&format!("White huffed the piece on {sq}")]);
    // C now: the choice was made; the message says so instead of "nothing neglected".
    type_text(&mut app, &clock, "C");
    must_show(&mut app, &[&format!("already huffed the piece on {sq}")]);
    // The move field is empty again: a move is typed from scratch.
    assert!(!render_text(&app).contains(&format!("Move: {sq}")));
}

#[test]
fn huffing_c_takes_the_move_back_and_the_capture_is_compelled() {
    let (clock, mut app) = open(huffing_after_a_neglect());
    type_text(&mut app, &clock, "C");
    let m = screen(&app).game_match();
    let g = m.playing().unwrap();
    assert_eq!(g.game.position().turn(), Color::Red);
    assert!(g.game.position().must_capture() || !g.game.position().legal_moves().is_empty());
    must_show(&mut app, &["Red's move was taken back: capture"]);
    // Letting a move stand is just a move: no choice left after it.
    let (clock, mut app) = open(huffing_after_a_neglect());
    type_text(&mut app, &clock, "18x11\n");
    let m = screen(&app).game_match();
    assert!(m.playing().unwrap().game.huff_chance().is_none());
    // H with no chance: refused in words.
    type_text(&mut app, &clock, "H");
    must_show(&mut app, &["no neglected capture to punish"]);
}

#[test]
fn english_shows_its_rules_line_and_no_variant_keys() {
    let settings = MatchSettings {
        game: Rules::English,
        ..pool_settings()
    };
    let (_clock, mut app) = open(match_with_moves(settings, &[]));
    must_show(&mut app, &["English draughts: capture compulsory"]);
    keys_fit(&app, "english game");
    let help = screen(&app).keys();
    assert!(
        !help
            .iter()
            .any(|k| ["s", "+", "H", "C"].contains(&k.keys.as_str()))
    );
}
