//! Rendering tests of the main screens on a `TestBackend` at 80x24 and a larger size (ASCII,
//! no colour, so the snapshots read as text). Clocks are frozen view-model values.

use crossboard::engine::{Color, Game, Position};
use crossboard::tui::widgets::{
    BoardView, ClockFace, ClockPanelView, GameScreenView, MoveEntry, MoveListView, StatusKind,
};
use crossboard::tui::{Appearance, FakeClock, Msg, Screen, TimeSource};
use crossboard::tui::{PracticeScreen, ReviewScreen};
use crossboard::tui::{buffer_text, render_text, test_app, type_text};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color as Rgb;

fn practice_after(moves: &[&str]) -> PracticeScreen {
    let mut p = PracticeScreen::start_position();
    for m in moves {
        p.game.play_text(m).expect("legal");
    }
    p
}

#[test]
fn home_80x24() {
    let clock = FakeClock::new();
    let app = test_app(&clock, 80, 24);
    insta::assert_snapshot!("home_80x24", render_text(&app));
}

#[test]
fn practice_80x24_with_a_move_being_typed() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n11-15\n23-19\n8-11\n2");
    let text = render_text(&app);
    assert!(text.contains("1. 11-15  23-19"), "{text}");
    assert!(
        text.contains("fits: 21-17 22-17 22-18 24-20 26-23 27-23"),
        "{text}"
    );
    insta::assert_snapshot!("practice_80x24", text);
}

#[test]
fn practice_large_flipped_with_numbers() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 140, 45);
    app.screen = Screen::Practice(practice_after(&["11-15", "23-19", "8-11", "22-17"]));
    type_text(&mut app, &clock, "fn");
    let text = render_text(&app);
    // Flipped: White's side on top (the board's top edge is labelled White, the bottom Red).
    let top = text.find("+ White").expect(&text);
    let bottom = text.find("+ Red").expect(&text);
    assert!(top < bottom, "{text}");
    insta::assert_snapshot!("practice_140x45_flipped_numbers", text);
}

#[test]
fn help_overlay_lists_the_screen_keys() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "ps\n?");
    let text = render_text(&app);
    assert!(text.contains("Help: Practice"), "{text}");
    assert!(text.contains("take back a move"), "{text}");
    insta::assert_snapshot!("help_practice_80x24", text);
}

#[test]
fn too_small_window_says_so() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.update(Msg::Resize(60, 20), clock.now());
    let text = render_text(&app);
    assert!(text.contains("window too small (need 80x24)"), "{text}");
    assert!(!text.contains("crossboard"), "{text}");
}

#[test]
fn review_screen_80x24() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    let mut game = Game::standard();
    for m in ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14"] {
        game.play_text(m).unwrap();
    }
    let mut review = ReviewScreen::new(game, "Review: test game".into());
    review.ply = 3;
    app.screen = Screen::Review(review);
    let text = render_text(&app);
    assert!(text.contains("At ply 3 of 6 (move 2.)"), "{text}");
    assert!(text.contains("6 plies, 3 moves"), "{text}");
    insta::assert_snapshot!("review_80x24", text);
}

fn clock_view(flag: bool) -> ClockPanelView {
    ClockPanelView {
        red: ClockFace {
            side: Color::Red,
            name: "Ann".into(),
            remaining_ms: 29 * 60_000 + 58_000,
            period: Some("period 1 of 2".into()),
            moves_to_control: Some(28),
            flagged: false,
        },
        white: ClockFace {
            side: Color::White,
            name: "Bob".into(),
            remaining_ms: if flag { 0 } else { 7_340 },
            period: Some("period 1 of 2".into()),
            moves_to_control: Some(29),
            flagged: flag,
        },
        to_move: Some(Color::White),
        paused: false,
    }
}

fn game_screen_text(w: u16, h: u16, flag: bool) -> String {
    let look = Appearance::plain();
    let pos = Position::start();
    let mut after = pos;
    after
        .play(&crossboard::engine::parse_move(&pos, "11-15").unwrap())
        .unwrap();
    let view = GameScreenView {
        title: "Match · game 3 of 4 · ballot 11-15".into(),
        board: BoardView {
            last_move: Some(crossboard::engine::parse_move(&pos, "11-15").unwrap()),
            ..BoardView::new(&after)
        },
        players: ["Ann".into(), "Bob".into()],
        clocks: Some(clock_view(flag)),
        info: vec![ratatui::text::Line::from("Score Ann 1½ - Bob ½")],
        moves: MoveListView {
            title: "Moves".into(),
            first: Color::Red,
            first_number: 1,
            moves: vec![MoveEntry {
                text: "11-15".into(),
                clock: Some("29:58".into()),
            }],
            current: Some(0),
        },
        input: None,
        candidates: Vec::new(),
        status: (
            if flag {
                "White's flag fell: Red wins".into()
            } else {
                "White (Bob) to move".into()
            },
            StatusKind::Info,
        ),
        hint: "? help ".into(),
        reserved: 0,
    };
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| view.render(f, f.area(), &look)).unwrap();
    buffer_text(terminal.backend().buffer())
}

#[test]
fn game_screen_with_frozen_clocks_80x24() {
    let text = game_screen_text(80, 24, false);
    assert!(text.contains("28 moves to control"), "{text}");
    assert!(text.contains("11-15 29:58"), "{text}");
    insta::assert_snapshot!("game_clocks_80x24", text);
}

#[test]
fn game_screen_with_fallen_flag_large() {
    let text = game_screen_text(120, 40, true);
    assert!(text.contains("FLAG FELL"), "{text}");
    insta::assert_snapshot!("game_clocks_flag_120x40", text);
}

#[test]
fn colours_are_used_unless_disabled() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.appearance = Appearance::default();
    type_text(&mut app, &clock, "ps\n");
    let buf = crossboard::tui::render_buffer(&app);
    let coloured = buf.content().iter().filter(|c| c.bg != Rgb::Reset).count();
    assert!(coloured > 100, "the board has coloured squares");
    app.appearance = Appearance::plain();
    let buf = crossboard::tui::render_buffer(&app);
    assert!(
        buf.content()
            .iter()
            .all(|c| c.bg == Rgb::Reset && c.fg == Rgb::Reset),
        "no colour at all in no-colour mode"
    );
}

#[test]
fn unicode_glyphs_distinguish_kings() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.appearance.ascii = false;
    let pos = Position::from_fen("W:WK30,K31:BK1,K2").unwrap();
    app.screen = Screen::Practice(PracticeScreen::new(pos, None));
    let text = render_text(&app);
    assert!(text.contains('◉') && text.contains('◎'), "{text}");
    let board: String = text
        .lines()
        .map(|l| l.chars().take(42).collect::<String>())
        .collect();
    assert!(!board.contains('●') && !board.contains('○'), "{text}");
}

#[test]
fn practice_setup_80x24() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "p12");
    let text = render_text(&app);
    assert!(
        text.contains("3-move restriction") && text.contains("12___"),
        "{text}"
    );
    insta::assert_snapshot!("practice_setup_80x24", text);
}

#[test]
fn practice_eleven_man_ballot_80x24() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "pmi1234\n");
    let text = render_text(&app);
    assert!(text.contains("public position 1234"), "{text}");
    assert!(text.contains("| Opening 11-Man Ballot 1346"), "{text}");
    assert!(!text.contains("Ballot 11-Man"), "{text}");
    insta::assert_snapshot!("practice_eleven_man_80x24", text);
}

#[test]
fn ascii_mode_draws_only_ascii_on_every_screen() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 100, 30);
    let mut screens = vec![render_text(&app)];
    for keys in ["?", "\x1bp", "?", "\x1bm\n", "11", "?", "\x1bqo", "\x1bq"] {
        type_text(&mut app, &clock, keys);
        screens.push(render_text(&app));
    }
    for s in screens {
        assert!(s.is_ascii(), "{s}");
    }
}

/// A menu narrower than its entries cuts each long one with the marker (its detail first,
/// then its label), and one shorter than its entries keeps the highlighted one in view and
/// says how many are hidden: nothing is cut silently.
#[test]
fn a_menu_too_small_for_its_entries_marks_what_it_cuts() {
    use crossboard::tui::menu::{Menu, MenuItem};
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    let mut menu = Menu::new(
        "Presets",
        (1..=9)
            .map(|k| {
                MenuItem::new(
                    char::from(b'0' + k),
                    format!("Preset {k}"),
                    "11-Man Ballot, 6 ballots, 30 moves in 60 min, 1/½/0",
                )
            })
            .collect(),
    );
    let look = Appearance::plain();
    let area = Rect::new(0, 0, 36, 7);
    let rows = |menu: &Menu| {
        let mut buf = Buffer::empty(area);
        menu.render(area, &mut buf, &look);
        buffer_text(&buf)
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let text = rows(&menu);
    // A border row, four entries, the marker row, a border row.
    assert!(text[1].contains("1  Preset 1  11-Man Ballot"), "{text:#?}");
    for row in &text[1..5] {
        assert!(
            row.trim_end().ends_with("…|") || row.trim_end().ends_with("…│"),
            "{text:#?}"
        );
    }
    assert!(text[5].contains("0 above, 5 below"), "{text:#?}");
    menu.selected = 8;
    let text = rows(&menu);
    assert!(
        text[4].contains("9  Preset 9"),
        "the highlighted entry in view:\n{text:#?}"
    );
    assert!(text[5].contains("5 above, 0 below"), "{text:#?}");
    // A click on a row chooses the entry shown there.
    assert_eq!(menu.hit(area, 3, 1), Some(5));
}
