//! The game as a graph in review: the engine's curve over the plies (from the side at the
//! bottom, clamped, the drawn band marked), the biggest swings and the keys that go to them,
//! the endgame databases' verdicts as letters, the time per move from a match file's clock
//! stamps or "no clock stamps", at 80x24 and 160x48, in ASCII; the analysis run from the
//! review, with its progress, and stopped with Esc.

use crossboard::engine::{Color, Game, Position, Rules};
use crossboard::search::{Mark, MoveReview, Score};
use crossboard::tui::practice_engine::{EngineSettings, ReviewMarks};
use crossboard::tui::{App, FakeClock, ReviewScreen, Screen, ScreenState};
use crossboard::tui::{render_text, test_app, tick_until, type_text};
use std::time::Duration;

/// The moves of the test game: a quiet opening.
const MOVES: [&str; 10] = [
    "11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14", "15-18", "24-20",
];

/// Red's score after each move (hundredths of a man), the swing of each move and its mark:
/// Red's 9-13 (move 5) is an inaccuracy, White's 17-14 (move 6) the blunder (3 men), 15-18
/// (move 9) a mistake.
const AFTER: [i32; 10] = [10, 5, 20, 15, -20, 320, 330, 310, 200, 230];
const SWING: [i32; 10] = [0, 0, 0, 0, 40, 330, 0, 0, 110, 0];

fn game() -> Game {
    let mut g = Game::standard();
    for m in MOVES {
        g.play_text(m).unwrap();
    }
    g
}

/// An analysis of [`game`] as the engine reports it, with the scores above.
fn analysis(game: &Game) -> ReviewMarks {
    let reviewed: Vec<MoveReview> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            let mover = game.positions()[i].turn();
            let red_after = Score(AFTER[i]);
            let for_mover = |s: Score| if mover == Color::Red { s } else { s.flip() };
            MoveReview {
                ply: i,
                mover,
                played: *mv,
                best: Some(*mv),
                line: vec![*mv],
                best_score: for_mover(Score(
                    AFTER[i] + SWING[i] * if mover == Color::Red { 1 } else { -1 },
                )),
                played_score: for_mover(red_after),
                red_score_after: red_after,
                swing: SWING[i],
                mark: Mark::for_swing(SWING[i]),
            }
        })
        .collect();
    ReviewMarks {
        start: *game.start(),
        moves: reviewed.iter().map(|m| (m.played, m.mark)).collect(),
        reviewed,
    }
}

/// A review of [`game`] with its analysis and the time of every move, at the start.
fn analysed(w: u16, h: u16, ascii: bool) -> (FakeClock, App) {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, w, h);
    app.appearance.ascii = ascii;
    let g = game();
    let mut review = ReviewScreen::new(g.clone(), "Review: test game".into());
    review.engine.review = Some(analysis(&g));
    review.spent = (0..MOVES.len() as u64)
        .map(|i| Some(1_000 * (5 + 7 * (i % 3))))
        .collect();
    review.ply = 0;
    // Red at the bottom: the curve is Red's view.
    review.flipped = true;
    app.screen = Screen::Review(review);
    (clock, app)
}

/// The screen `text` for the docs, as `NAME.txt` in the folder `CROSSBOARD_DOC_SCREENS` names
/// (`bash docs/images/make` sets it); nothing without it.
pub(crate) fn doc_screen(name: &str, text: &str) {
    if let Some(dir) = std::env::var_os("CROSSBOARD_DOC_SCREENS") {
        let path = std::path::Path::new(&dir).join(format!("{name}.txt"));
        std::fs::write(&path, text).unwrap();
    }
}

fn review(app: &App) -> &ReviewScreen {
    match &app.screen {
        Screen::Review(r) => r,
        _ => panic!("not in review:\n{}", render_text(app)),
    }
}

#[test]
fn the_graph_at_80x24_shows_the_curve_the_band_the_swings_and_the_times() {
    let (clock, mut app) = analysed(80, 24, true);
    type_text(&mut app, &clock, "]");
    let text = render_text(&app);
    // The side named, the cursor's ply and value with its mark.
    assert!(text.contains("Engine, Red's view"), "{text}");
    assert!(text.contains("ply 6: +3.20??"), "{text}");
    // The scale and the drawn band, the blunder marked, the cursor under its column.
    assert!(text.contains("+3"), "{text}");
    assert!(text.contains(" = ======-"), "the drawn band:\n{text}");
    assert!(text.contains("-3"), "{text}");
    // The cursor on the blunder's column, the mistake three plies on.
    assert!(text.contains("|         ^  ?"), "the cursor:\n{text}");
    // The times: each side's total, and a row each.
    assert!(text.contains("time Red 1:00  White 0:53"), "{text}");
    assert!(text.contains("|r   . # | . #"), "{text}");
    // The move list marks the moves too.
    assert!(text.contains("17-14??"), "{text}");
    insta::assert_snapshot!("review_graph_80x24", text);
    // Off the blunder, its column shows its mark.
    type_text(&mut app, &clock, "g");
    assert!(render_text(&app).contains("|   ^     X  ?"));
}

#[test]
fn the_graph_at_160x48_has_a_ply_a_column_and_taller_rows() {
    let (clock, mut app) = analysed(160, 48, true);
    type_text(&mut app, &clock, "]]");
    let text = render_text(&app);
    assert!(text.contains("ply 9: +2.00?"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    // The mark row: `?` for the mistake under the cursor's `^` after two presses: the `^`
    // wins; the blunder's `X` stays three columns left of it.
    let marks = lines
        .iter()
        .find(|l| l.contains('X') && l.contains('^'))
        .expect(&text);
    let x = marks.find('X').unwrap();
    assert_eq!(marks.find('^').unwrap(), x + 3, "{text}");
    insta::assert_snapshot!("review_graph_160x48", text);
}

#[test]
fn the_graph_in_unicode_and_in_ascii() {
    let (clock, mut app) = analysed(80, 24, false);
    type_text(&mut app, &clock, "]");
    let unicode = render_text(&app);
    assert!(unicode.contains('█') && unicode.contains('┄'), "{unicode}");
    assert!(unicode.contains("ply 6: +3.20??"), "{unicode}");
    doc_screen("review-graph", &unicode);
    let (clock, mut app) = analysed(80, 24, true);
    type_text(&mut app, &clock, "G");
    let ascii = render_text(&app);
    assert!(ascii.is_ascii(), "{ascii}");
    assert!(
        ascii.contains('#') && ascii.contains("ply 10: +2.30"),
        "{ascii}"
    );
    insta::assert_snapshot!("review_graph_ascii_80x24", ascii);
}

#[test]
fn next_mistake_moves_the_board_to_the_biggest_swing() {
    let (clock, mut app) = analysed(80, 24, true);
    // The inaccuracy at ply 5 is passed over: the blunder (ply 6) is the biggest swing.
    type_text(&mut app, &clock, "]");
    assert_eq!(review(&app).ply, 6);
    let text = render_text(&app);
    assert!(text.contains("At ply 6 of 10"), "{text}");
    assert!(
        text.contains("after 17-14"),
        "the board shows the position after it:\n{text}"
    );
    type_text(&mut app, &clock, "]");
    assert_eq!(review(&app).ply, 9, "then the mistake 15-18");
    type_text(&mut app, &clock, "]");
    assert_eq!(review(&app).ply, 9);
    assert!(render_text(&app).contains("no mistake after this one"));
    type_text(&mut app, &clock, "[[");
    assert_eq!(review(&app).ply, 6, "back to the blunder");
    // Flipped, the curve is White's view: the blunder is White's loss.
    type_text(&mut app, &clock, "f");
    assert!(render_text(&app).contains("ply 6: -3.20??"));
}

#[test]
fn without_an_analysis_the_keys_say_how_to_get_one() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.screen = Screen::Review(ReviewScreen::new(game(), "Review".into()));
    let text = render_text(&app);
    assert!(text.contains("a analyses"), "{text}");
    assert!(text.contains("no clock stamps"), "{text}");
    type_text(&mut app, &clock, "]");
    assert_eq!(review(&app).ply, MOVES.len());
    assert!(render_text(&app).contains("no analysis yet: a analyses the game"));
}

/// Tick the app until `done`, at most 30 s.
fn wait_until(app: &mut App, clock: &FakeClock, done: impl Fn(&App) -> bool) {
    tick_until(app, clock, Duration::from_secs(30), done);
}

#[test]
fn the_review_analyses_the_game_and_goes_to_the_move_that_drops_a_man() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    // Red men on 1 and 10, a White man on 18: 10-15 hangs a man.
    let mut g = Game::new(Rules::English, Position::from_fen("B:W18:B1,10").unwrap());
    for m in ["10-15", "18x11", "1-5"] {
        g.play_text(m).unwrap();
    }
    let mut r = ReviewScreen::new(g, "Review".into());
    r.engine.settings = EngineSettings {
        review_depth: 4,
        hash_mb: 1,
        ..EngineSettings::default()
    };
    r.ply = 0;
    app.screen = Screen::Review(r);
    type_text(&mut app, &clock, "a");
    assert!(review(&app).analysing());
    assert!(render_text(&app).contains("analysing"), "progress shown");
    wait_until(&mut app, &clock, |a| !review(a).analysing());
    let text = render_text(&app);
    assert!(text.contains("10-15?"), "{text}");
    type_text(&mut app, &clock, "]");
    assert_eq!(review(&app).ply, 1, "{}", render_text(&app));
}

#[test]
fn esc_stops_the_analysis_and_a_second_esc_goes_back() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(
        &mut app,
        &clock,
        "otests/fixtures/pdn/loy_chinook_1991.pdn\n\na",
    );
    assert!(review(&app).analysing());
    let text = render_text(&app);
    assert!(text.contains("Esc stops"), "{text}");
    type_text(&mut app, &clock, "\x1b");
    assert!(!review(&app).analysing());
    assert!(render_text(&app).contains("the analysis is stopped"));
    assert!(!app.screen.ticking());
    type_text(&mut app, &clock, "\x1b");
    assert!(!matches!(app.screen, Screen::Review(_)));
}

/// The title of the graph row holding `readout`.
fn title_with<'a>(text: &'a str, readout: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(readout))
        .unwrap_or_else(|| panic!("no {readout:?} in:\n{text}"))
}

#[test]
fn the_title_names_the_side_at_the_bottom_whole_beside_the_value() {
    let (clock, mut app) = analysed(80, 24, true);
    type_text(&mut app, &clock, "]");
    // Red at the bottom: Red's view, the blunder Red's gain.
    let text = render_text(&app);
    let title = title_with(&text, "ply 6: +3.20??");
    assert!(title.contains("Red's view"), "{text}");
    // Turned, White at the bottom (the board's usual way up): White's view.
    type_text(&mut app, &clock, "f");
    let text = render_text(&app);
    let title = title_with(&text, "ply 6: -3.20??");
    assert!(title.contains("White's view"), "{text}");
}

#[test]
fn a_long_value_shortens_the_title_never_silently() {
    let (clock, mut app) = analysed(80, 24, true);
    if let Screen::Review(r) = &mut app.screen {
        let marks = r.engine.review.as_mut().unwrap();
        marks.reviewed[9].red_score_after = Score::win_in(3).flip();
    }
    type_text(&mut app, &clock, "G");
    let text = render_text(&app);
    let title = title_with(&text, "ply 10: forced loss");
    assert!(title.contains("Red's view"), "{text}");
    type_text(&mut app, &clock, "f");
    let text = render_text(&app);
    let title = title_with(&text, "ply 10: forced win");
    assert!(title.contains("White's view"), "{text}");
}

/// The marks of the review's analysis, move by move.
fn marks_on_screen(app: &App) -> Vec<Option<Mark>> {
    let marks = review(app).engine.review.as_ref().expect("analysed");
    marks.moves.iter().map(|(_, m)| *m).collect()
}

#[test]
fn the_review_marks_agree_with_crossboard_analyse_on_the_same_games() {
    let fixture = "tests/fixtures/pdn/analyse_three_games.pdn";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("annotated.pdn");
    let run = crate::common::cli::crossboard(&[
        "analyse",
        fixture,
        "--depth",
        "6",
        "--no-egdb",
        "--pdn",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{run:?}");
    let annotated = crossboard::store::read_pdn(&std::fs::read_to_string(&out).unwrap());
    let games = crossboard::store::read_pdn(&std::fs::read_to_string(fixture).unwrap());
    assert_eq!(annotated.len(), 3);
    let mut marked = 0;
    for (g, a) in games.iter().zip(&annotated) {
        let (g, a) = (g.as_ref().unwrap(), a.as_ref().unwrap());
        let clock = FakeClock::new();
        let mut app = test_app(&clock, 80, 24);
        let mut r = ReviewScreen::new(g.replay().unwrap(), "Review".into());
        r.engine.settings.review_depth = 6;
        app.screen = Screen::Review(r);
        type_text(&mut app, &clock, "a");
        wait_until(&mut app, &clock, |a| !review(a).analysing());
        let on_screen = marks_on_screen(&app);
        let in_file: Vec<Option<Mark>> = (0..g.moves.len()).map(|i| a.mark(i)).collect();
        assert_eq!(on_screen, in_file, "{:?}", g.tags);
        marked += on_screen.iter().flatten().count();
    }
    assert!(marked >= 2, "the fixture has marked moves: {marked}");
}

/// crossboard's own `crossboard hub` as the config's engine `own`, with the built-in review's
/// settings (one thread, a 16 MB table, no databases).
fn own_hub_engine() -> crossboard::store::HubEngineConfig {
    crossboard::store::HubEngineConfig {
        path: env!("CARGO_BIN_EXE_crossboard").into(),
        arguments: ["hub", "--threads", "1", "--hash", "16", "--no-egdb"]
            .map(String::from)
            .to_vec(),
        options: Default::default(),
    }
}

/// The graph's analysis by the pane's engine: `E` chooses crossboard's own engine over the
/// Hub protocol, and its marks on the second game of the analyse fixture, at depth 6, are the
/// built-in engine's (`crossboard analyse` pins them: three blunders).
#[test]
fn the_graph_is_analysed_by_the_hub_engine_the_pane_runs() {
    let fixture = std::fs::read_to_string("tests/fixtures/pdn/analyse_three_games.pdn").unwrap();
    let games = crossboard::store::read_pdn(&fixture);
    let game = games[1].as_ref().unwrap().replay().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.engines = vec![("own".into(), own_hub_engine())];
    let mut r = ReviewScreen::new(game, "Review".into());
    r.engine.settings.review_depth = 6;
    app.screen = Screen::Review(r);
    // `E`: the pane runs the Hub engine; `e` hides it, the choice stays for the graph.
    type_text(&mut app, &clock, "Ee");
    type_text(&mut app, &clock, "a");
    assert!(review(&app).analysing());
    wait_until(&mut app, &clock, |a| !review(a).analysing());
    let text = render_text(&app);
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        text.contains(&format!("analysed by crossboard {version}")),
        "{text}"
    );
    assert_eq!(marks_on_screen(&app), [Some(Mark::Blunder); 3]);
    assert!(text.contains("10-14??"), "{text}");
}

/// A Hub engine that gives no score cannot draw the graph: the review says so, naming it.
#[cfg(unix)]
#[test]
fn a_hub_engine_without_scores_is_named_and_the_analysis_stopped() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.engines = vec![("stub".into(), crate::hub_engines::stub("noscore", "Stubby"))];
    app.screen = Screen::Review(ReviewScreen::new(game(), "Review".into()));
    type_text(&mut app, &clock, "Eea");
    wait_until(&mut app, &clock, |a| !review(a).analysing());
    let text = render_text(&app);
    assert!(
        text.contains("Stubby 1.0: gave no score for the position after 0 plies"),
        "{text}"
    );
    assert!(review(&app).engine.review.is_none());
    assert!(!app.screen.ticking());
}
