//! The set-up form remembers the last match started on it and offers the config file's
//! presets in one key: rendered screens, and the file the memory is kept in.

use crossboard::director::{BallotDraw, ColourMethod, MatchSettings, TieRule};
use crossboard::openings::System;
use crossboard::store::{load_last_settings, save_last_settings};
use crossboard::tui::{App, FakeClock, Msg, check_chain};
use crossboard::tui::{feed, render_text, test_app, type_text};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;

fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

fn app(clock: &FakeClock, memory: &Path) -> App {
    let mut a = test_app(clock, 80, 24);
    a.matches.fixed_wall = Some("2026-11-30T12:00:00Z".parse().unwrap());
    a.matches.last_settings = Some(memory.to_path_buf());
    a
}

/// A title match series: 3-move, 3 ballots, 20+5, played off in blocks, colours from a bag,
/// the ballots' cards turning by themselves.
fn series() -> MatchSettings {
    let mut s = MatchSettings {
        players: ["Ann Smith".into(), "Bob Jones".into()],
        ballots: 3,
        time_control: "20+5".parse().unwrap(),
        tie: TieRule::ContinueInBlocks {
            max_blocks: Some(2),
        },
        colour_method: ColourMethod::Bag,
        ballot_draw: BallotDraw::Automatic,
        ..MatchSettings::default()
    };
    s.openings.system = System::ThreeMove;
    s
}

#[test]
fn the_form_opens_with_the_last_match_s_settings_but_not_its_players() {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("last-match.toml");
    save_last_settings(&memory, &series()).unwrap();
    let clock = FakeClock::new();
    let mut a = app(&clock, &memory);
    type_text(&mut a, &clock, "n");
    let text = render_text(&a);
    assert!(
        text.contains("set-up . the last match's settings"),
        "{text}"
    );
    for shown in [
        "3-move restriction",
        "Ballots (2 games each)  3",
        "Time control            20+5",
        "continue ballot by ballot until decided",
        "Extra ballots at most   2",
        "automatic (the cards turn by themselves)",
        "Player 1",
    ] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    assert!(!text.contains("Ann Smith"), "{text}");
    // Ctrl-L: the last match's players too.
    feed(&mut a, &clock, [ctrl('l')]);
    let text = render_text(&a);
    assert!(text.contains("First player            Ann Smith"), "{text}");
    assert!(text.contains("Bob Jones"), "{text}");
    check_chain(&a.chain(), &a.help_lines()).unwrap();
    // The rows below the screen's: the form says so, and scrolls to them.
    assert!(text.contains("(0 rows above, 3 below"), "{text}");
    feed(&mut a, &clock, [Msg::key(KeyCode::Up)]);
    let text = render_text(&a);
    assert!(text.contains("colour drawn from a bag"), "{text}");
}

#[test]
fn remember_names_fills_in_the_players_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("last-match.toml");
    save_last_settings(&memory, &series()).unwrap();
    let clock = FakeClock::new();
    let mut a = app(&clock, &memory);
    a.matches.remember_names = true;
    type_text(&mut a, &clock, "n");
    let text = render_text(&a);
    assert!(
        text.contains("Ann Smith") && text.contains("Bob Jones"),
        "{text}"
    );
}

/// The match started on the form is the one the next form opens with; with no memory yet the
/// form holds the defaults, and says so by naming no origin.
#[test]
fn a_match_started_is_remembered_for_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("data").join("last-match.toml");
    let clock = FakeClock::new();
    let mut a = app(&clock, &memory);
    a.matches.defaults.ballots = 4;
    a.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    type_text(&mut a, &clock, "n");
    let text = render_text(&a);
    assert!(!text.contains("last match"), "{text}");
    feed(&mut a, &clock, [ctrl('l')]);
    assert!(
        render_text(&a).contains("No match has been started on this machine yet"),
        "{}",
        render_text(&a)
    );
    type_text(&mut a, &clock, "\n");
    let kept = load_last_settings(&memory).unwrap().unwrap();
    assert_eq!(kept, a.matches.defaults);
    // A fresh start with built-in defaults opens on the remembered settings.
    let mut b = app(&clock, &memory);
    type_text(&mut b, &clock, "n");
    let text = render_text(&b);
    assert!(text.contains("Ballots (2 games each)  4"), "{text}");
    assert!(text.contains("the director assigns"), "{text}");
}

#[test]
fn a_damaged_memory_is_named_and_the_defaults_are_filled_in() {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("last-match.toml");
    std::fs::write(&memory, "format-version = 1\n[match]\nballots = \"many\"\n").unwrap();
    let clock = FakeClock::new();
    let mut a = app(&clock, &memory);
    type_text(&mut a, &clock, "n");
    let text = render_text(&a);
    assert!(
        text.contains("The last match's settings were not read"),
        "{text}"
    );
    assert!(text.contains("Ballots (2 games each)  6"), "{text}");
}

#[test]
fn a_preset_is_chosen_from_a_list_in_one_key_and_keeps_the_players() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut a = app(&clock, &dir.path().join("last-match.toml"));
    let mut pool = MatchSettings::default().apca_pool(crossboard::director::PoolClock::Periods);
    pool.ballots = 5;
    let mut nationals = MatchSettings {
        ballots: 1,
        event: "ACF Nationals".into(),
        ..MatchSettings::default()
    };
    nationals.openings.system = System::ThreeMove;
    a.matches.presets = vec![
        ("ACF 3-Move Nationals".into(), nationals),
        ("APCA pool".into(), pool),
    ];
    type_text(&mut a, &clock, "nAnn");
    let text = render_text(&a);
    assert!(text.contains("Ctrl-P: 2 presets"), "{text}");
    feed(&mut a, &clock, [ctrl('p')]);
    let text = render_text(&a);
    assert!(text.contains("Presets"), "{text}");
    assert!(text.contains("1  ACF 3-Move Nationals"), "{text}");
    assert!(text.contains("2  APCA pool"), "{text}");
    assert!(text.contains("pool checkers"), "{text}");
    check_chain(&a.chain(), &a.help_lines()).unwrap();
    // Esc closes the list and changes nothing.
    type_text(&mut a, &clock, "\x1b");
    assert!(!render_text(&a).contains("1  ACF"), "{}", render_text(&a));
    feed(&mut a, &clock, [ctrl('p')]);
    type_text(&mut a, &clock, "2");
    let text = render_text(&a);
    assert!(text.contains("set-up . preset APCA pool"), "{text}");
    for shown in [
        "First player            Ann",
        "Ballots (2 games each)  5",
        "35/70 15/30",
        "4/2/0 (APCA)",
    ] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    feed(&mut a, &clock, [ctrl('p')]);
    type_text(&mut a, &clock, "1");
    let text = render_text(&a);
    assert!(text.contains("ACF Nationals"), "{text}");
    assert!(text.contains("Ballots (2 games each)  1"), "{text}");
    assert!(text.contains("English draughts"), "{text}");
}

#[test]
fn ctrl_p_without_presets_says_where_they_go() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut a = app(&clock, &dir.path().join("last-match.toml"));
    type_text(&mut a, &clock, "n");
    feed(&mut a, &clock, [ctrl('p')]);
    let text = render_text(&a);
    assert!(text.contains("No presets: add [preset."), "{text}");
}
