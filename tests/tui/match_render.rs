//! Rendering tests of the match screens on a `TestBackend` at 80x24 and a larger size (ASCII,
//! no colour, so the snapshots read as text): set-up, colour choice, ballot draw, accept/reject,
//! the game with frozen clocks, and the results. The clock is a fake one and never moves unless
//! told, so the readings are frozen.

use crossboard::director::{BallotDraw, ColourMethod, RejectionPolicy};
use crossboard::tui::StageKind;
use crossboard::tui::match_screen as screen;
use crossboard::tui::ticks;
use crossboard::tui::{App, FakeClock, Msg};
use crossboard::tui::{feed, render_text, test_app, type_text};
use std::time::Duration;

fn app(clock: &FakeClock, w: u16, h: u16) -> App {
    let mut a = test_app(clock, w, h);
    a.matches.fixed_wall = Some("2026-11-30T12:00:00Z".parse().unwrap());
    a
}

#[test]
fn set_up_80x24_and_120x40() {
    let clock = FakeClock::new();
    let mut a = app(&clock, 80, 24);
    type_text(&mut a, &clock, "n");
    let text = render_text(&a);
    for label in [
        "First player",
        "Openings",
        "Ballots (2 games each)",
        "Time control",
        "Points per game",
        "Ballot rejection",
        "If tied",
        "Colour choice",
    ] {
        assert!(text.contains(label), "{label}:\n{text}");
    }
    assert!(text.contains("Enter starts the match"), "{text}");
    insta::assert_snapshot!("match_setup_80x24", text);
    a.update(Msg::Resize(120, 40), clock.now_fake());
    insta::assert_snapshot!("match_setup_120x40", render_text(&a));
}

trait Now {
    fn now_fake(&self) -> std::time::Instant;
}

impl Now for FakeClock {
    fn now_fake(&self) -> std::time::Instant {
        crossboard::tui::TimeSource::now(self)
    }
}

#[test]
fn colour_choice_coin_in_the_air_then_landed() {
    let clock = FakeClock::new();
    let mut a = app(&clock, 80, 24);
    type_text(&mut a, &clock, "n\nt");
    ticks(&mut a, &clock, 3);
    let text = render_text(&a);
    assert!(text.contains("the coin is in the air"), "{text}");
    ticks(&mut a, &clock, 20);
    let text = render_text(&a);
    assert!(text.contains("it landed"), "{text}");
    assert!(text.contains("chooses a colour: r Red, w White"), "{text}");
    insta::assert_snapshot!("match_coin_landed_80x24", text);
}

#[test]
fn concealed_hands_are_shown_open() {
    let clock = FakeClock::new();
    let mut a = app(&clock, 100, 30);
    a.matches.defaults.colour_method = ColourMethod::ConcealedHands;
    type_text(&mut a, &clock, "n\nl");
    ticks(&mut a, &clock, 20);
    let text = render_text(&a);
    assert!(text.contains("picks the left hand"), "{text}");
    assert!(
        text.contains("left [ ") && text.contains("right [ "),
        "{text}"
    );
    insta::assert_snapshot!("match_hands_100x30", text);
}

/// Through the colour choice (the director assigns) to the first ballot drawn, its cards
/// turning by themselves (`ballot-draw = "automatic"`).
fn drawn(w: u16, h: u16) -> (FakeClock, App) {
    let clock = FakeClock::new();
    let mut a = app(&clock, w, h);
    a.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    a.matches.defaults.ballot_draw = BallotDraw::Automatic;
    type_text(&mut a, &clock, "n\n1\n\n");
    (clock, a)
}

#[test]
fn automatic_ballot_draw_then_the_board() {
    let (clock, mut a) = drawn(80, 24);
    ticks(&mut a, &clock, 7);
    let text = render_text(&a);
    assert!(text.contains("drawing card 3 of"), "{text}");
    assert!(text.contains("any key shows the rest"), "{text}");
    insta::assert_snapshot!("match_ballot_cards_80x24", text);
    ticks(&mut a, &clock, 30);
    let text = render_text(&a);
    assert!(text.contains("Public position id"), "{text}");
    assert!(text.contains("White decides first"), "{text}");
    insta::assert_snapshot!("match_ballot_drawn_80x24", text);
}

/// A key typed while the cards turn by themselves is the draw's, as the screen says: it
/// shows the rest at once, and is not taken for a decision (nor lost unseen).
#[test]
fn a_key_during_the_draw_shows_the_rest() {
    let (clock, mut a) = drawn(80, 24);
    ticks(&mut a, &clock, 1);
    assert!(
        render_text(&a).contains("drawing card"),
        "{}",
        render_text(&a)
    );
    type_text(&mut a, &clock, "a");
    let text = render_text(&a);
    assert_eq!(screen(&a).stage(), StageKind::Decide, "{text}");
    assert!(text.contains("White decides first"), "{text}");
    assert!(
        screen(&a).game_match().pending_draw().is_some(),
        "not accepted"
    );
}

/// At 80x24, the director assigning the colours, waiting for the first ballot's draw, drawn
/// as `draw` says.
fn at_the_draw(clock: &FakeClock, draw: BallotDraw) -> App {
    let mut a = app(clock, 80, 24);
    a.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    a.matches.defaults.ballot_draw = draw;
    type_text(&mut a, clock, "n\n1\n");
    a
}

/// `ballot-draw = "card-by-card"` (the default): Enter draws the ballot and each card waits
/// for its key, however long the players take; no `c` is needed.
#[test]
fn the_card_by_card_setting_draws_card_by_card_on_enter() {
    let clock = FakeClock::new();
    let mut a = at_the_draw(&clock, BallotDraw::CardByCard);
    let text = render_text(&a);
    assert!(
        text.contains("Enter draws the ballot card by card (t: automatic)"),
        "{text}"
    );
    type_text(&mut a, &clock, "\n");
    clock.advance(Duration::from_secs(60));
    ticks(&mut a, &clock, 100);
    let text = render_text(&a);
    assert!(text.contains("card 1 of 4 waits for a key"), "{text}");
    assert!(!text.contains("1. "), "no card turned by itself:\n{text}");
    assert!(
        a.tick_interval().is_none(),
        "nothing to animate while a card waits"
    );
    type_text(&mut a, &clock, " ");
    let text = render_text(&a);
    assert!(text.contains("card 2 of 4 waits for a key"), "{text}");
    assert!(text.contains("1. "), "{text}");
    // `t` before the draw draws the other way: the cards turn by themselves.
    let mut b = at_the_draw(&clock, BallotDraw::default());
    type_text(&mut b, &clock, "t");
    ticks(&mut b, &clock, 7);
    assert!(render_text(&b).contains("any key shows the rest"));
}

/// `c` draws card by card when the match draws automatically: each card waits for its key
/// (time turns none), Space turns the next, `t` lets the rest turn by themselves.
#[test]
fn card_by_card_each_card_waits_for_a_key() {
    let clock = FakeClock::new();
    let mut a = at_the_draw(&clock, BallotDraw::Automatic);
    assert!(
        render_text(&a).contains("c: card by card"),
        "{}",
        render_text(&a)
    );
    type_text(&mut a, &clock, "c");
    ticks(&mut a, &clock, 30);
    let text = render_text(&a);
    assert!(text.contains("card 1 of 4 waits for a key"), "{text}");
    assert!(
        text.contains("Space next card") && text.contains("t auto"),
        "{text}"
    );
    type_text(&mut a, &clock, "  ");
    let text = render_text(&a);
    assert!(text.contains("card 3 of 4 waits"), "{text}");
    insta::assert_snapshot!("match_ballot_card_by_card_80x24", text);
    type_text(&mut a, &clock, "t");
    assert!(render_text(&a).contains("any key shows the rest"));
    ticks(&mut a, &clock, 30);
    let text = render_text(&a);
    assert!(text.contains("White decides first"), "{text}");
}

#[test]
fn accept_reject_after_white_rejects_large() {
    let (clock, mut a) = drawn(140, 45);
    type_text(&mut a, &clock, "\nr");
    let text = render_text(&a);
    assert!(text.contains("White rejected; now Red"), "{text}");
    insta::assert_snapshot!("match_reject_white_140x45", text);
}

#[test]
fn a_ballot_that_loses_a_man_is_flagged() {
    // Find a seed whose first 11-man draw loses a man, and show its warning.
    for seed in 0..200u64 {
        let clock = FakeClock::new();
        let mut a = app(&clock, 100, 30);
        a.rng = rand::SeedableRng::seed_from_u64(seed);
        a.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
        type_text(&mut a, &clock, "n\n1\n\n\n");
        let loses = screen(&a)
            .game_match()
            .pending_draw()
            .and_then(|d| d.opening.loses_man);
        if let Some(side) = loses {
            let text = render_text(&a);
            assert!(
                text.contains(&format!("WARNING: {side} loses a man at once")),
                "{text}"
            );
            return;
        }
    }
    panic!("no man-down ballot in 200 draws");
}

/// A game two moves in, clocks frozen (the fake clock is not advanced while rendering).
fn in_game(w: u16, h: u16) -> (FakeClock, App) {
    let clock = FakeClock::new();
    let mut a = app(&clock, w, h);
    a.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    a.matches.defaults.rejection = RejectionPolicy::AllPlayed;
    a.matches.defaults.players = ["Ann".into(), "Bob".into()];
    a.matches.defaults.ballots = 1;
    type_text(&mut a, &clock, "n\n1\n\n\n\n\n");
    assert_eq!(screen(&a).stage(), StageKind::Game);
    for secs in [95, 130] {
        clock.advance(Duration::from_secs(secs));
        let g = screen(&a).game_match().playing().unwrap();
        let mv = g.game.position().legal_moves()[0].to_string();
        type_text(&mut a, &clock, &format!("{mv}\n"));
    }
    clock.advance(Duration::from_secs(42));
    feed(&mut a, &clock, [Msg::Tick]);
    (clock, a)
}

#[test]
fn game_with_frozen_clocks_80x24_and_140x45() {
    let (_, a) = in_game(80, 24);
    let text = render_text(&a);
    assert!(text.contains("game 1 of 2"), "{text}");
    assert!(text.contains("Score Ann 0 . Bob 0"), "{text}");
    assert!(text.contains("58:25"), "Red's reading after 95 s:\n{text}");
    assert!(text.contains("to move"), "{text}");
    insta::assert_snapshot!("match_game_80x24", text);
    let (_, a) = in_game(140, 45);
    insta::assert_snapshot!("match_game_140x45", render_text(&a));
}

#[test]
fn results_between_games_and_at_the_end() {
    let (clock, mut a) = in_game(80, 24);
    type_text(&mut a, &clock, "rry");
    insta::assert_snapshot!("match_game_over_80x24", render_text(&a));
    type_text(&mut a, &clock, "\n");
    let text = render_text(&a);
    assert!(text.contains("White wins: Red resigned"), "{text}");
    insta::assert_snapshot!("match_results_between_80x24", text);
    // Game 2: White resigns at once; one ballot only, so the match ends.
    type_text(&mut a, &clock, "\n\nrry\n");
    let text = render_text(&a);
    assert!(text.contains("Match over"), "{text}");
    assert!(text.contains("tied 1-1"), "{text}");
    insta::assert_snapshot!("match_results_end_120x40", {
        a.update(
            Msg::Resize(120, 40),
            crossboard::tui::TimeSource::now(&clock),
        );
        render_text(&a)
    });
}
