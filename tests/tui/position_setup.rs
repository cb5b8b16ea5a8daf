//! Setting up a position: the board editor and the FEN field on screen (80x24), the checks of a
//! position in words, play on from it, and its PDN (`SetUp`, `FEN`) saved and read back.

use crossboard::engine::{Color, Outcome, Piece, Position, Rules, Square};
use crossboard::store::read_pdn;
use crossboard::tui::TimeSource;
use crossboard::tui::position_check::{Verdict, check_position, read_fen};
use crossboard::tui::{App, FakeClock, GameLayout, Msg, PositionSetupScreen, Screen, ScreenState};
use crossboard::tui::{practice, practice_moves, render_text, test_app, type_text};
use ratatui::crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

fn setup(app: &App) -> &PositionSetupScreen {
    match &app.screen {
        Screen::PositionSetup(s) => s,
        _ => panic!("position set-up expected:\n{}", render_text(app)),
    }
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap()
}

fn put(pos: &mut Position, sq: u8, color: Color, king: bool) {
    pos.set_piece(Square::new(sq).unwrap(), Some(Piece { color, king }));
}

#[test]
fn the_checks_refuse_impossible_positions_with_the_reason() {
    // 13 men a side.
    let mut board = Position::start();
    put(&mut board, 14, Color::Red, false);
    let why = check_position(&board, Rules::English).unwrap_err();
    assert_eq!(why, "Red has 13 pieces; a side has at most 12");
    // A man on its own crowning row, either colour.
    let mut board = fen("B:W20:B10");
    put(&mut board, 30, Color::Red, false);
    let why = check_position(&board, Rules::English).unwrap_err();
    assert_eq!(why, "a Red man on 30 would already be a king");
    let mut board = fen("B:W20:B10");
    put(&mut board, 2, Color::White, false);
    let why = check_position(&board, Rules::English).unwrap_err();
    assert_eq!(why, "a White man on 2 would already be a king");
    // The same squares hold kings well.
    put(&mut board, 2, Color::White, true);
    assert!(check_position(&board, Rules::English).is_ok());
    // No pieces for a side, or none at all.
    let why = check_position(&fen("W:W20:B10").with_turn(Color::Red), Rules::English);
    assert!(why.is_ok());
    let mut board = fen("B:W20:B10");
    board.set_piece(Square::new(20).unwrap(), None);
    let why = check_position(&board, Rules::English).unwrap_err();
    assert_eq!(
        why,
        "White has no pieces: there is no game (each side needs at least one)"
    );
    board.set_piece(Square::new(10).unwrap(), None);
    let why = check_position(&board, Rules::English).unwrap_err();
    assert_eq!(why, "the position has no pieces at all");
}

#[test]
fn a_side_to_move_with_no_move_is_accepted_as_a_finished_game() {
    // Red's man on 4 is blocked by White's men on 8 and... 4 moves down to 8 only: a White
    // king on 8 backed by a man on 11 leaves it no move and no capture.
    let board = fen("B:WK8,11:B4");
    let (pos, verdict) = check_position(&board, Rules::English).unwrap();
    assert_eq!(verdict, Verdict::Finished(Outcome::Win(Color::White)));
    assert_eq!(
        verdict.describe(&pos),
        "a finished game: Red to move has no legal move, White wins"
    );
    // In the losing game the side that cannot move wins.
    let (pos, verdict) = check_position(&board, Rules::Losing).unwrap();
    assert_eq!(verdict, Verdict::Finished(Outcome::Win(Color::Red)));
    assert!(
        verdict
            .describe(&pos)
            .contains("in the losing game that wins")
    );
    // White to move in the same position has moves.
    let (pos, verdict) = check_position(&board.with_turn(Color::White), Rules::English).unwrap();
    assert!(
        matches!(verdict, Verdict::Playable(n) if n > 0),
        "{verdict:?}"
    );
    assert_eq!(pos.turn(), Color::White);
    let (_, start) = check_position(&Position::start(), Rules::English).unwrap();
    assert_eq!(start, Verdict::Playable(7));
}

#[test]
fn a_fen_is_read_loosely_and_its_errors_name_the_field() {
    let want = fen("W:W21,22,K30:B1,2,3");
    for text in [
        "W:W21,22,K30:B1,2,3",
        " w : w21, 22, k30 : b1-3. ",
        "\"W:B1,2,3:W21,22,K30.\"",
        "[FEN \"W:W21,22,K30:B1,2,3\"]",
        "[fen \"W:W21,22,K30:B1,2,3.\"]",
    ] {
        assert_eq!(read_fen(text), Ok(want), "{text}");
    }
    let err = |text: &str| read_fen(text).unwrap_err();
    assert_eq!(
        err("X:W21:B1"),
        "FEN field 1, the side to move: the FEN must start with the side to move, B or W, \
         not \"X\""
    );
    assert_eq!(
        err("B:W21,33:B1"),
        "FEN field 2, White's pieces (W): square 33 is not between 1 and 32"
    );
    assert_eq!(
        err("B:W21:B1,x5"),
        "FEN field 3, Red's pieces (B): \"x5\" is not a square number, a K-square or a range \
         like 21-32"
    );
    assert_eq!(
        err("B:W21:Q1"),
        "FEN field 3, a piece list, which must start with W or B: a FEN piece list must start \
         with B or W, not \"Q1\""
    );
    assert_eq!(
        err("B:W1-13:B30"),
        "FEN field 2, White's pieces (W): White has 13 pieces; a side has at most 12"
    );
    assert_eq!(
        err("B:W21:B1,2,K3,29"),
        "FEN field 3, Red's pieces (B): a Red man on 29 would already be a king"
    );
    assert_eq!(
        err("B:W21,5:B5"),
        "FEN fields 2 and 3, both piece lists: square 5 is given to both colours"
    );
    assert_eq!(err(""), "FEN: the FEN is empty");
}

#[test]
fn set_up_editor_80x24() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "s");
    let text = render_text(&app);
    assert!(
        text.contains("Set up a position . English draughts"),
        "{text}"
    );
    assert!(text.contains("Red to move, 7 legal moves"), "{text}");
    assert!(
        text.contains("FEN  B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
        "{text}"
    );
    // The key line comes from the key table.
    assert!(text.contains("Enter play"), "{text}");
    insta::assert_snapshot!("position_setup_80x24", text);
}

#[test]
fn a_refused_position_says_why_and_neither_plays_nor_saves() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.practice_file = Some(dir.path().join("practice.toml"));
    // The start, and a 13th Red man on the cursor's square (14).
    type_text(&mut app, &clock, "sr");
    let text = render_text(&app);
    assert!(text.contains("Refused"), "{text}");
    assert!(text.contains("Red has 13 pieces; a side has at"), "{text}");
    insta::assert_snapshot!("position_setup_refused_80x24", text);
    type_text(&mut app, &clock, "\n");
    assert!(matches!(app.screen, Screen::PositionSetup(_)));
    let (said, _) = setup(&app).message.clone().unwrap();
    assert_eq!(
        said,
        "cannot play from here: Red has 13 pieces; a side has at most 12"
    );
    type_text(&mut app, &clock, "s");
    assert!(!dir.path().join("practice-games.pdn").exists());
    // x takes the man off again: the start, accepted.
    type_text(&mut app, &clock, "x");
    assert!(render_text(&app).contains("Ready"));
}

#[test]
fn fen_typed_80x24_and_an_error_in_the_field() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    // The field opens on the board's FEN: the first character typed replaces it.
    type_text(&mut app, &clock, "se");
    assert!(app.screen.typing(), "letters are typed into the FEN");
    type_text(&mut app, &clock, "B:W21,33:B1\n");
    let text = render_text(&app);
    assert!(
        text.contains("FEN field 2, White's pieces (W): square 33 is not between 1 and 32"),
        "{text}"
    );
    assert_eq!(setup(&app).board, Position::start(), "the board unchanged");
    // Ctrl-U clears the field; a good FEN goes on the board.
    type_text(&mut app, &clock, "\x15W:W21,22,K30:B1,2,3");
    insta::assert_snapshot!("position_setup_fen_typed_80x24", render_text(&app));
    type_text(&mut app, &clock, "\n");
    assert!(!app.screen.typing());
    assert_eq!(setup(&app).board, fen("W:W21,22,K30:B1,2,3"));
    let text = render_text(&app);
    assert!(text.contains("White to move"), "{text}");
    assert!(text.contains("FEN  W:W21,22,K30:B1,2,3"), "{text}");
    // Esc closes the field and leaves the board as it was.
    type_text(&mut app, &clock, "e1\x1b");
    assert_eq!(setup(&app).board, fen("W:W21,22,K30:B1,2,3"));
}

#[test]
fn keys_and_clicks_edit_the_board() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    // Clear, then a Red king on 14, a White man on 18 (cursor down-left from 14... by
    // clicks), White to move.
    type_text(&mut app, &clock, "scR");
    let click = |app: &mut App, sq: u8, button: MouseButton| {
        let geo = GameLayout::new(Rect::new(0, 0, 80, 24))
            .board_geometry(false)
            .unwrap();
        let r = geo.cell_rect(Square::new(sq).unwrap());
        app.update(
            Msg::Mouse(MouseEvent {
                kind: MouseEventKind::Down(button),
                column: r.x + 1,
                row: r.y,
                modifiers: KeyModifiers::NONE,
            }),
            clock.now(),
        );
    };
    // A click cycles: empty, Red man, Red king, White man; the right button goes back.
    for _ in 0..4 {
        click(&mut app, 18, MouseButton::Left);
    }
    click(&mut app, 18, MouseButton::Right);
    type_text(&mut app, &clock, "t");
    assert_eq!(setup(&app).board, fen("W:W18:BK14"));
    // The cursor: → from 18 is 19; w puts a White man there.
    app.update(
        Msg::key(ratatui::crossterm::event::KeyCode::Right),
        clock.now(),
    );
    type_text(&mut app, &clock, "w");
    assert_eq!(setup(&app).board, fen("W:W18,19:BK14"));
    // Space cycles the cursor's square (a White man becomes a White king).
    type_text(&mut app, &clock, " ");
    assert_eq!(setup(&app).board, fen("W:W18,K19:BK14"));
    // i: the initial position again.
    type_text(&mut app, &clock, "i");
    assert_eq!(setup(&app).board, Position::start());
}

#[test]
fn play_on_from_a_position_then_keep_it_as_pdn_with_its_fen() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 100, 30);
    app.practice_file = Some(dir.path().join("practice.toml"));
    let start = "W:W21,22,K30:B1,2,3";
    type_text(&mut app, &clock, &format!("se\x15{start}\n"));
    // s keeps the position itself: no moves, its SetUp and FEN.
    type_text(&mut app, &clock, "s");
    let (said, _) = setup(&app).message.clone().unwrap();
    assert!(said.starts_with("saved as game 1 of "), "{said}");
    // Two players at the board: Enter plays on in practice.
    type_text(&mut app, &clock, "\n");
    assert_eq!(practice(&app).game.start(), &fen(start));
    assert!(practice(&app).engine.opponent.is_none());
    assert!(render_text(&app).contains("Practice . set-up position"));
    type_text(&mut app, &clock, "30-26\n3-7\nw");
    assert_eq!(practice_moves(&app), ["30-26", "3-7"]);
    let file = dir.path().join("practice-games.pdn");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("[SetUp \"1\"]").count(), 2, "{text}");
    assert_eq!(
        text.matches(&format!("[FEN \"{start}\"]")).count(),
        2,
        "{text}"
    );
    let games: Vec<_> = read_pdn(&text).into_iter().map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].start, fen(start));
    assert!(games[0].moves.is_empty());
    assert_eq!(games[1].start, fen(start));
    assert_eq!(games[1].moves.len(), 2);
    // Opened again: review from the FEN, and s sets up the position on the board.
    type_text(&mut app, &clock, "q");
    type_text(&mut app, &clock, &format!("o{}\nj\n", file.display()));
    let Screen::Review(r) = &app.screen else {
        panic!("review expected:\n{}", render_text(&app))
    };
    assert_eq!(r.game.start(), &fen(start));
    assert_eq!(r.game.moves().len(), 2);
    type_text(&mut app, &clock, "hs");
    let mut after_one = crossboard::engine::Game::new(Rules::English, fen(start));
    after_one.play_text("30-26").unwrap();
    assert_eq!(&setup(&app).board, after_one.position());
    // q goes back to the review.
    type_text(&mut app, &clock, "q");
    assert!(matches!(app.screen, Screen::Review(_)));
}

#[test]
fn play_on_against_a_level_of_either_colour() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "soo");
    assert!(render_text(&app).contains("engine plays White"));
    type_text(&mut app, &clock, "v\n");
    let o = practice(&app)
        .engine
        .opponent
        .clone()
        .expect("an engine opponent");
    assert_eq!(o.color, Color::Red);
    assert_eq!(o.level, crossboard::search::Level::ALL[1]);
}

#[test]
fn a_finished_position_opens_as_a_finished_game() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "se\x15B:WK8,11:B4\n");
    let text = render_text(&app);
    assert!(text.contains("Accepted"), "{text}");
    assert!(
        text.contains("a finished game: Red to move has no"),
        "{text}"
    );
    type_text(&mut app, &clock, "\n");
    let (status, _) = practice(&app).status();
    assert!(
        status.starts_with("White wins: Red cannot move"),
        "{status}"
    );
}
