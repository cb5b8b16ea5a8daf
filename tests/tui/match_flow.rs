//! Headless tests driving the app with key events through whole matches against a fake clock:
//! set-up, colour choice, the ballot draw card by card, a rejection and a redraw, two games
//! (one lost by resignation, one on time), the results and the PDN export.

use crossboard::director::{EndReason, FlagKind, Phase, Player};
use crossboard::engine::{Color, Outcome};
use crossboard::tui::match_screen as screen;
use crossboard::tui::{App, FakeClock, Msg, Screen, TimeSource};
use crossboard::tui::{MatchOptions, StageKind};
use crossboard::tui::{feed, render_text, test_app, type_text};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::Duration;

fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

fn key(k: KeyCode) -> Msg {
    Msg::key(k)
}

/// Clear the focused text field and type `text`.
fn set_field(app: &mut App, clock: &FakeClock, text: &str) {
    feed(app, clock, [ctrl('u')]);
    type_text(app, clock, text);
}

/// The first legal move of the game being played, in notation.
fn a_legal_move(app: &App) -> String {
    let g = screen(app).game_match().playing().expect("a game is on");
    g.game.position().legal_moves()[0].to_string()
}

/// Set up "Ann v Bob", one ballot (two games), one minute each, in `dir`.
fn set_up(app: &mut App, clock: &FakeClock) {
    type_text(app, clock, "n");
    let text = render_text(app);
    assert!(text.contains("New match: set-up"), "{text}");
    assert!(
        text.contains("Player 1") && text.contains("30/60"),
        "{text}"
    );
    set_field(app, clock, "Ann");
    feed(app, clock, [key(KeyCode::Tab)]);
    // Validated as you type: the same name twice is refused at once.
    set_field(app, clock, "Ann");
    assert!(render_text(app).contains("both players are called"));
    set_field(app, clock, "Bob");
    // Down to "Ballots" (after event, game, openings, draw, three yes/no rows) and the clock.
    feed(app, clock, vec![key(KeyCode::Down); 8]);
    set_field(app, clock, "1");
    feed(app, clock, [key(KeyCode::Down)]);
    set_field(app, clock, "1");
    let text = render_text(app);
    assert!(
        text.contains("Enter starts the match: Ann v Bob, 1 ballot, 1 min for the game"),
        "{text}"
    );
    feed(app, clock, [key(KeyCode::Enter)]);
}

/// An app of `w` x `h` saving its matches in `dir`, the match of [`set_up`] set up.
fn set_up_in(dir: &std::path::Path, clock: &FakeClock, w: u16, h: u16) -> App {
    let mut app = test_app(clock, w, h);
    app.matches = MatchOptions {
        dir: Some(dir.to_path_buf()),
        ..MatchOptions::default()
    };
    set_up(&mut app, clock);
    app
}

#[test]
fn a_whole_match_from_set_up_to_export() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = set_up_in(dir.path(), &clock, 100, 32);
    assert_eq!(screen(&app).stage(), StageKind::Toss);
    let text = render_text(&app);
    assert!(
        text.contains("Ann calls the coin: h heads, t tails"),
        "{text}"
    );

    // Ann calls heads; the coin spins on ticks, then lands.
    type_text(&mut app, &clock, "h");
    assert!(app.screen_ticking());
    assert!(render_text(&app).contains("the coin is in the air"));
    for _ in 0..20 {
        clock.advance(Duration::from_millis(100));
        feed(&mut app, &clock, [Msg::Tick]);
    }
    assert!(!app.screen_ticking(), "the animation ends");
    let text = render_text(&app);
    assert!(text.contains("it landed"), "{text}");
    let m = screen(&app).game_match();
    let Phase::ColourChoice {
        chooser: Some(winner),
    } = m.phase()
    else {
        panic!("the toss winner chooses: {:?}", m.phase());
    };
    assert!(text.contains(&format!("{} won the toss", m.name(winner))));
    // The winner takes Red.
    type_text(&mut app, &clock, "r");
    assert_eq!(screen(&app).game_match().red_first(), Some(winner));
    type_text(&mut app, &clock, "\n");
    assert_eq!(screen(&app).stage(), StageKind::Draw);

    // The draw, card by card (the default): time turns no card, Space turns one, `t` lets
    // the rest turn one at a time on ticks.
    type_text(&mut app, &clock, "\n");
    for _ in 0..3 * 6 + 1 {
        feed(&mut app, &clock, [Msg::Tick]);
    }
    let text = render_text(&app);
    assert!(
        text.contains("card 1 of") && text.contains("waits for a key"),
        "{text}"
    );
    type_text(&mut app, &clock, " t");
    assert!(render_text(&app).contains("drawing card 2 of"));
    for _ in 0..2 * 6 + 1 {
        feed(&mut app, &clock, [Msg::Tick]);
    }
    let text = render_text(&app);
    assert!(text.contains("1. ") && text.contains("3. "), "{text}");
    type_text(&mut app, &clock, "\n");
    let text = render_text(&app);
    assert!(text.contains("Public position id"), "{text}");
    assert!(text.contains("White decides first"), "{text}");
    let first_ballot = screen(&app)
        .game_match()
        .pending_draw()
        .unwrap()
        .opening
        .number;

    // White rejects, Red rejects too: a new ballot is drawn.
    type_text(&mut app, &clock, "r");
    assert!(render_text(&app).contains("White rejected; now Red"));
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    assert!(text.contains("Both players rejected"), "{text}");
    assert!(
        text.contains(&format!("Rejected: {first_ballot}")),
        "{text}"
    );
    type_text(&mut app, &clock, "\n\n");
    // White rejects the second one; Red accepts it.
    type_text(&mut app, &clock, "r");
    type_text(&mut app, &clock, "a");
    let m = screen(&app).game_match();
    assert_eq!(m.rejected().len(), 1);
    assert_eq!(m.phase(), Phase::Ready { ballot: 1, game: 1 });
    type_text(&mut app, &clock, "\n");
    assert_eq!(screen(&app).stage(), StageKind::PreGame);
    assert!(render_text(&app).contains("Enter starts"));
    type_text(&mut app, &clock, "\n");
    assert_eq!(screen(&app).stage(), StageKind::Game);

    // Game 1: two moves, then White resigns (asked who, then confirmed).
    for secs in [5, 7] {
        clock.advance(Duration::from_secs(secs));
        let mv = a_legal_move(&app);
        type_text(&mut app, &clock, &format!("{mv}\n"));
    }
    let g = screen(&app).game_match().playing().unwrap();
    assert_eq!(g.moves.len(), 2);
    assert_eq!(g.moves[0].spent_ms, 5000);
    let text = render_text(&app);
    assert!(
        text.contains("0:55"),
        "clock readings in the move list:\n{text}"
    );
    type_text(&mut app, &clock, "r");
    assert!(render_text(&app).contains("Who resigns this game?"));
    type_text(&mut app, &clock, "w");
    assert!(render_text(&app).contains("resigns this game?"));
    type_text(&mut app, &clock, "y");
    // The game as it ended first, then the results.
    assert_eq!(screen(&app).stage(), StageKind::Over);
    assert!(render_text(&app).contains("Game over: Red wins: White resigned"));
    type_text(&mut app, &clock, "\n");
    assert_eq!(screen(&app).stage(), StageKind::Results);
    let text = render_text(&app);
    assert!(text.contains("Red wins: White resigned"), "{text}");
    assert!(
        text.contains("By game") && text.contains("By ballot"),
        "{text}"
    );

    // Game 2, colours reversed: Red plays one move, then White's flag falls.
    type_text(&mut app, &clock, "\n\n");
    assert_eq!(screen(&app).stage(), StageKind::Game);
    let g = screen(&app).game_match().playing().unwrap();
    assert_eq!((g.ballot, g.number), (1, 2));
    assert_eq!(g.red, winner.other());
    let mover = g.game.position().turn();
    let mv = a_legal_move(&app);
    type_text(&mut app, &clock, &format!("{mv}\n"));
    clock.advance(Duration::from_millis(60_000));
    feed(&mut app, &clock, [Msg::Tick]);
    assert_eq!(
        screen(&app).stage(),
        StageKind::Game,
        "exactly at the limit: still in time"
    );
    clock.advance(Duration::from_millis(1));
    feed(&mut app, &clock, [Msg::Tick]);
    // The flag is shown at once, on the board's clock panel and the status line.
    assert_eq!(screen(&app).stage(), StageKind::Over);
    let text = render_text(&app);
    assert!(text.contains("FLAG FELL"), "{text}");
    assert!(text.contains("flag fell. Enter: results"), "{text}");
    type_text(&mut app, &clock, "\n");
    let m = screen(&app).game_match();
    assert_eq!(m.phase(), Phase::Finished);
    let last = m.current_game().unwrap().result.clone().unwrap();
    assert_eq!(last.outcome, Outcome::Win(mover));
    assert_eq!(
        last.reason,
        EndReason::Time {
            flag: FlagKind::GameTime
        }
    );
    let text = render_text(&app);
    assert!(text.contains("Match over"), "{text}");
    let score = m.score();
    let red1 = winner;
    // Game 1: red1 won. Game 2: `mover` (Red, the other player) won on time: 1-1.
    assert_eq!(score.total[red1.index()].to_string(), "1");
    assert_eq!(score.total[red1.other().index()].to_string(), "1");
    assert!(text.contains("The match is tied 1-1"), "{text}");

    // Export.
    type_text(&mut app, &clock, "e");
    let text = render_text(&app);
    assert!(text.contains("exported 2 games"), "{text}");
    // Beside the match file, which holds the finished match.
    let file = screen(&app).session.saver.path().unwrap().to_path_buf();
    assert!(file.starts_with(dir.path()));
    let saved = crossboard::store::load_match(&file).unwrap();
    assert!(saved.is_finished());
    assert_eq!(saved.the_match.log(), screen(&app).game_match().log());
    let pdn = std::fs::read_to_string(file.with_extension("pdn")).unwrap();
    assert_eq!(pdn.matches("[Round \"1.").count(), 2, "{pdn}");
    assert!(pdn.contains("[Result \"1-0\"]"), "{pdn}");
    assert!(pdn.contains("%clock"), "{pdn}");
    type_text(&mut app, &clock, "q");
    assert!(matches!(app.screen, Screen::Home(_)));
}

#[test]
fn the_director_menu_is_guarded_and_pauses_the_clocks() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.defaults.colour_method = crossboard::director::ColourMethod::DirectorAssigns;
    app.matches.defaults.rejection = crossboard::director::RejectionPolicy::AllPlayed;
    type_text(&mut app, &clock, "n\n");
    // The director assigns Red to the second player; the ballot is played as drawn.
    type_text(&mut app, &clock, "2\n\n\n\n\n");
    let m = screen(&app).game_match();
    assert_eq!(m.red_first(), Some(Player::Second));
    assert_eq!(
        screen(&app).stage(),
        StageKind::Game,
        "{}",
        render_text(&app)
    );
    // D asks first; n leaves everything as it was.
    type_text(&mut app, &clock, "D");
    assert!(render_text(&app).contains("Open the director menu?"));
    type_text(&mut app, &clock, "n");
    assert!(!render_text(&app).contains("Director"));
    // Opening the menu pauses both clocks and says so; closing it asks whether to resume.
    let paused = |app: &App| {
        screen(app)
            .game_match()
            .playing()
            .unwrap()
            .clock
            .is_paused()
    };
    type_text(&mut app, &clock, "D");
    assert!(render_text(&app).contains("Both clocks are paused while the menu is open."));
    type_text(&mut app, &clock, "y");
    assert!(paused(&app));
    let text = render_text(&app);
    assert!(
        text.contains("Both clocks are paused while the director menu is open."),
        "{text}"
    );
    // A move typed while the menu is open goes nowhere near it, and says so.
    type_text(&mut app, &clock, "1");
    assert!(render_text(&app).contains("No move while this dialog is open"));
    type_text(&mut app, &clock, "\x1b");
    let text = render_text(&app);
    assert!(text.contains("Start Red's clock again?"), "{text}");
    type_text(&mut app, &clock, "y");
    assert!(!paused(&app), "resumed on close");
    // Keep them paused with a reason (a dispute): no question on closing.
    type_text(&mut app, &clock, "Dyp");
    type_text(&mut app, &clock, "dispute\n");
    assert!(render_text(&app).contains("Keep both clocks paused (dispute)?"));
    type_text(&mut app, &clock, "y");
    assert!(paused(&app));
    assert!(!render_text(&app).contains("clock again?"));
    let before = screen(&app).game_match().clock_reading(0);
    clock.advance(Duration::from_secs(600));
    feed(&mut app, &clock, [Msg::Tick]);
    let text = render_text(&app);
    assert!(
        text.contains("Both clocks stay paused (dispute): Enter resumes them"),
        "{text}"
    );
    // A move during the pause is refused with the reason.
    let mv = a_legal_move(&app);
    type_text(&mut app, &clock, &mv);
    assert!(render_text(&app).contains("the clocks are paused"));
    assert!(before.is_some());
    // Enter resumes (after a confirmation).
    type_text(&mut app, &clock, "\ny");
    assert!(
        screen(&app)
            .game_match()
            .playing()
            .unwrap()
            .clock
            .is_running()
    );
    // A forfeit with a reason ends the game.
    type_text(&mut app, &clock, "Dyf");
    feed(&mut app, &clock, [key(KeyCode::Tab)]);
    type_text(&mut app, &clock, "late\n");
    assert!(render_text(&app).contains("Red forfeits the game (late)?"));
    type_text(&mut app, &clock, "y");
    let g = screen(&app).game_match().current_game().unwrap();
    assert_eq!(
        g.result.as_ref().unwrap().outcome,
        Outcome::Win(Color::White)
    );
}

trait Ticking {
    fn screen_ticking(&self) -> bool;
}

impl Ticking for App {
    fn screen_ticking(&self) -> bool {
        self.tick_interval().is_some()
    }
}

#[test]
fn the_clock_ticks_only_while_it_runs() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.defaults.colour_method = crossboard::director::ColourMethod::DirectorAssigns;
    app.matches.defaults.rejection = crossboard::director::RejectionPolicy::AllPlayed;
    type_text(&mut app, &clock, "n\n1\n\n");
    assert!(!app.screen_ticking(), "each card waits for a key");
    type_text(&mut app, &clock, " t");
    assert!(app.screen_ticking(), "cards being shown");
    type_text(&mut app, &clock, "\n\n");
    assert_eq!(screen(&app).stage(), StageKind::PreGame);
    assert!(
        !app.screen_ticking(),
        "no clock runs before the game starts"
    );
    type_text(&mut app, &clock, "\n");
    assert!(app.screen_ticking());
    let _ = clock.now();
}

/// A set-up field holding its default takes the first character typed in place of it, not
/// after it ("Player 1Alice"); a field already edited goes on from what it holds.
#[test]
fn typing_into_a_default_replaces_it() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "nAlice");
    let text = render_text(&app);
    assert!(text.contains("Alice"), "{text}");
    assert!(!text.contains("Player 1Alice"), "{text}");
    feed(&mut app, &clock, [key(KeyCode::Backspace)]);
    type_text(&mut app, &clock, "e");
    assert!(
        render_text(&app).contains("Alice v Player 2"),
        "{}",
        render_text(&app)
    );
}

/// F1 on the set-up form, whatever the focused row, lists the arrows (choices and presets)
/// and how text is typed.
#[test]
fn the_set_up_help_lists_the_arrows_and_typing() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 100, 40);
    type_text(&mut app, &clock, "n");
    feed(&mut app, &clock, [key(KeyCode::F(1))]);
    let text = render_text(&app);
    assert!(text.contains("the next choice"), "{text}");
    assert!(text.contains("replaces the default"), "{text}");
}

/// The colour choice has a key line, made from the keys in force.
#[test]
fn the_colour_choice_has_a_key_line() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = set_up_in(dir.path(), &clock, 80, 24);
    assert_eq!(screen(&app).stage(), StageKind::Toss);
    let text = render_text(&app);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.contains("h heads") && last.contains("t tails") && last.contains("? help"),
        "{last:?}\n{text}"
    );
    type_text(&mut app, &clock, "h");
    for _ in 0..20 {
        clock.advance(Duration::from_millis(100));
        feed(&mut app, &clock, [Msg::Tick]);
    }
    let text = render_text(&app);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.contains("r Red") && last.contains("w White") && last.contains("? help"),
        "{last:?}\n{text}"
    );
}
