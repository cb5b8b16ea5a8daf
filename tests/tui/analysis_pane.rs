//! The analysis pane on the practice, review and set-up screens at 80x24: its rows from a given
//! analysis (depth, speed, N lines, the cut marker), the keys that show, hide and size it, and
//! the real engine restarting on a new position.

use crossboard::engine::{Game, Position, Rules, parse_move};
use crossboard::search::{MultiInfo, PvLine, Score};
use crossboard::tui::analysis_pane::AnalysisPane;
use crossboard::tui::testing::practice_mut;
use crossboard::tui::{FakeClock, PositionSetupScreen, PracticeScreen, ReviewScreen};
use crossboard::tui::{Screen, ScreenState};
use crossboard::tui::{practice, render_text, test_app, tick_until, type_text};
use std::time::Duration;

/// `moves` played from `pos`.
pub(crate) fn line(pos: &Position, moves: &str) -> Vec<crossboard::engine::Move> {
    let mut pos = *pos;
    moves
        .split_whitespace()
        .map(|text| {
            let mv = parse_move(&pos, text).unwrap();
            pos = pos.after(&mv);
            mv
        })
        .collect()
}

/// An analysis of the start at depth 14: `n` lines (of the start's moves), 2,460,000 nodes.
fn start_analysis(n: usize) -> MultiInfo {
    let start = Position::start();
    let lines = [
        (25, "11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14"),
        (10, "11-16 24-20"),
        (0, "9-13 22-18"),
        (-5, "10-15 24-19"),
        (-30, "12-16 24-20"),
    ];
    MultiInfo {
        depth: 14,
        lines: lines[..n]
            .iter()
            .map(|&(score, moves)| PvLine {
                score: Score(score),
                pv: line(&start, moves),
            })
            .collect(),
        nodes: 2_460_000,
    }
}

fn practice_with(pane: AnalysisPane) -> crossboard::tui::App {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut screen = PracticeScreen::start_position();
    screen.analysis = pane;
    app.screen = Screen::Practice(screen);
    app
}

#[test]
fn the_pane_shows_depth_speed_scores_and_lines_cut_with_the_marker() {
    let fed = AnalysisPane::fed(Position::start(), start_analysis(3), Duration::from_secs(2));
    let text = render_text(&practice_with(fed));
    // The test app draws in ASCII: `·` is `.`, and so is the cut marker.
    assert!(text.contains("Engine depth 14 . 1.23 M nodes/s"), "{text}");
    let rows: Vec<&str> = text.lines().collect();
    let first = rows
        .iter()
        .find(|r| r.contains("1.   +0.25 11-15"))
        .unwrap();
    // The long line is cut at the screen's edge, with the marker.
    assert!(first.trim_end().ends_with("9-."), "{first}");
    assert!(text.contains("2.   +0.10 11-16 24-20"), "{text}");
    assert!(text.contains("3.    0.00 9-13 22-18"), "{text}");
    assert!(!text.contains(" 4. "), "{text}");
    // The key line stays.
    assert!(rows[23].contains("? help"), "{text}");
}

#[test]
fn the_pane_shows_as_many_lines_as_asked() {
    for n in 1..=5 {
        let fed = AnalysisPane::fed(Position::start(), start_analysis(n), Duration::from_secs(1));
        let text = render_text(&practice_with(fed));
        for i in 1..=5 {
            let row = format!("{i}.   ");
            let shown = text.lines().any(|r| r.contains(&row) && r.contains("-1"));
            assert_eq!(shown, i <= n, "{n} lines: row {i}\n{text}");
        }
    }
}

#[test]
fn the_keys_show_size_and_hide_the_pane_and_the_engine_follows_the_moves() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n");
    assert!(!app.screen.ticking());
    assert!(!render_text(&app).contains("Engine"));
    type_text(&mut app, &clock, "e");
    assert!(practice(&app).analysis.shown());
    assert!(app.screen.ticking(), "the engine thinks: the screen ticks");
    let depth_with = |a: &crossboard::tui::App, n: usize| {
        practice(a)
            .analysis
            .info()
            .is_some_and(|i| i.depth >= 3 && i.lines.len() == n)
    };
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        depth_with(a, 3)
    });
    let text = render_text(&app);
    assert!(text.contains("Engine depth"), "{text}");
    type_text(&mut app, &clock, ">>");
    assert_eq!(practice(&app).analysis.lines(), 5);
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        depth_with(a, 5)
    });
    type_text(&mut app, &clock, "<<<<<<");
    assert_eq!(practice(&app).analysis.lines(), 1);
    // A move played: the analysis starts again on the new position, for White.
    type_text(&mut app, &clock, "11-15\n");
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        depth_with(a, 1)
    });
    let pos = *practice(&app).game.position();
    let info = practice(&app).analysis.info().unwrap();
    assert!(pos.legal_moves().contains(&info.lines[0].pv[0]));
    // Hidden: stopped at once, and the screen is idle again.
    type_text(&mut app, &clock, "e");
    assert!(!app.screen.ticking());
    assert!(!render_text(&app).contains("Engine depth"));
    assert!(practice_mut(&mut app).analysis.info().is_none());
}

#[test]
fn review_shows_the_pane_in_the_graph_s_place_and_follows_the_steps() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut game = Game::new(Rules::English, Position::start());
    for mv in ["11-15", "23-19", "8-11", "22-17"] {
        game.play_text(mv).unwrap();
    }
    app.screen = Screen::Review(ReviewScreen::new(game, "Review".into()));
    let review = |a: &crossboard::tui::App| match &a.screen {
        Screen::Review(r) => r
            .analysis
            .info()
            .map(|i| (r.ply, i.depth, i.lines[0].pv[0])),
        _ => panic!("not on the review screen"),
    };
    type_text(&mut app, &clock, "e");
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        review(a).is_some_and(|(_, d, _)| d >= 2)
    });
    assert!(render_text(&app).contains("Engine depth"));
    type_text(&mut app, &clock, "hh");
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        review(a).is_some_and(|(ply, d, _)| ply == 2 && d >= 2)
    });
    let (_, _, best) = review(&app).unwrap();
    let Screen::Review(r) = &app.screen else {
        unreachable!()
    };
    assert!(r.game.positions()[2].legal_moves().contains(&best));
    assert!(r.keys().iter().any(|k| k.text.contains("engine analysis")));
}

#[test]
fn set_up_shows_the_pane_for_the_board_as_edited_and_waits_on_a_refused_one() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.screen = Screen::PositionSetup(Box::new(PositionSetupScreen::new(
        &Position::from_fen("W:W21,22,K30:B1,2,3").unwrap(),
    )));
    let pane = |a: &crossboard::tui::App| match &a.screen {
        Screen::PositionSetup(s) => s.analysis.info().map(|i| (i.depth, i.lines[0].pv[0])),
        _ => panic!("not on the set-up screen:\n{}", render_text(a)),
    };
    // `a` shows it (`e` opens the FEN field here), and the engine thinks about the board.
    type_text(&mut app, &clock, "a");
    assert!(app.screen.ticking(), "the engine thinks: the screen ticks");
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        pane(a).is_some_and(|(d, _)| d >= 2)
    });
    let (_, best) = pane(&app).unwrap();
    let board = Position::from_fen("W:W21,22,K30:B1,2,3").unwrap();
    assert!(board.legal_moves().contains(&best), "a move of White's");
    let text = render_text(&app);
    assert!(text.contains("Engine depth"), "{text}");
    assert!(
        text.contains("Ready"),
        "the verdict stays in sight:\n{text}"
    );
    let rows: Vec<&str> = text.lines().collect();
    assert!(rows[23].contains("? help"), "{text}");
    // The side to move changed: the pane starts again, on Red's moves.
    type_text(&mut app, &clock, "t");
    tick_until(&mut app, &clock, Duration::from_secs(20), |a| {
        pane(a).is_some_and(|(d, _)| d >= 2)
    });
    let (_, best) = pane(&app).unwrap();
    assert!(
        board
            .with_turn(crossboard::engine::Color::Red)
            .legal_moves()
            .contains(&best)
    );
    // A refused board (the start and a 13th Red man on 14): the pane waits.
    type_text(&mut app, &clock, "i");
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    assert!(text.contains("Refused"), "{text}");
    assert!(
        text.contains("Engine: none for a refused position"),
        "{text}"
    );
    assert!(pane(&app).is_none());
    // Hidden: stopped, and the screen is idle again.
    type_text(&mut app, &clock, "x");
    type_text(&mut app, &clock, "a");
    assert!(!app.screen.ticking());
    assert!(!render_text(&app).contains("Engine"));
}
