//! The config file: the documented example is the defaults; every mistake is named with its
//! file, line and key.

use crossboard::director::{GamePoints, MatchSettings};
use crossboard::store::LoadError;
use crossboard::store::{Config, load_config, read_config};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/config")
        .join(name)
}

#[test]
fn example_is_the_builtin_defaults() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
    let config = read_config(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(config, Config::default());
}

#[test]
fn example_documents_every_setting() {
    // Every key the defaults write appears in the example (so a new setting gets documented).
    let example = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config.example.toml"),
    )
    .unwrap();
    let defaults = toml::to_string(&Config::default()).unwrap();
    for line in defaults.lines() {
        if let Some((key, _)) = line.split_once(" = ") {
            assert!(
                example
                    .lines()
                    .any(|l| l.trim_start().starts_with(&format!("{} =", key.trim()))),
                "config.example.toml does not document {key}"
            );
        }
    }
    for key in ["delay", "per-move", "holder", "max-blocks"] {
        assert!(example.contains(key), "{key}");
    }
}

#[test]
fn partial_file_keeps_other_defaults() {
    let c = read_config(&fixture("partial.toml")).unwrap();
    assert_eq!(c.match_defaults.players, ["Ann Smith", "Bob Jones"]);
    assert_eq!(c.match_defaults.ballots, 4);
    assert_eq!(c.match_defaults.scoring.game, GamePoints::Apca);
    assert!(c.display.ascii);
    assert_eq!(
        c.match_defaults.time_control,
        MatchSettings::default().time_control
    );
    assert_eq!(c.display.colours, Config::default().display.colours);
    assert_eq!(
        c.match_defaults.openings.system,
        crossboard::openings::System::ThreeMove
    );
    assert_eq!(
        c.match_defaults.openings.mode,
        MatchSettings::default().openings.mode
    );
}

#[test]
fn no_file_means_defaults_and_explicit_missing_file_is_an_error() {
    let e = load_config(Some(&fixture("does-not-exist.toml"))).unwrap_err();
    assert!(e.is_not_found());
    assert!(e.to_string().contains("does-not-exist.toml"), "{e}");
}

/// (fixture, line, text that must appear in the message)
const BAD: [(&str, usize, &str); 12] = [
    ("unknown_key.toml", 6, "key `display.colour`"),
    ("bad_value.toml", 3, "key `match.ballots`"),
    ("bad_colour.toml", 2, "\"crimson\" is not a colour"),
    ("bad_enum.toml", 2, "key `match.rejection`"),
    ("syntax.toml", 3, "key `display.no-color`"),
    (
        "unknown_in_openings.toml",
        8,
        "key `match.openings.exclude_barred`",
    ),
    ("newer.toml", 0, "format version 9"),
    (
        "old_spelling.toml",
        4,
        "`three_move_deck` is an older spelling: write `three-move-deck`",
    ),
    ("same_names.toml", 0, "both players are called \"Ann\""),
    (
        "three_players.toml",
        2,
        "3 names given: a match has two players",
    ),
    (
        "bidi_name.toml",
        0,
        "first player's name contains a control character, or an invisible or direction-changing one",
    ),
    (
        "invisible_event.toml",
        0,
        "event's name contains a control character, or an invisible or direction-changing one",
    ),
];

#[test]
fn every_mistake_is_named_with_file_line_and_key() {
    for (name, line, text) in BAD {
        let e = read_config(&fixture(name)).expect_err(name);
        let msg = e.to_string();
        assert!(msg.contains(name), "{name}: {msg}");
        assert!(msg.contains(text), "{name}: {msg}");
        if line > 0 {
            assert_eq!(e.line(), Some(line), "{name}: {msg}");
            assert!(msg.contains(&format!("{name}:{line}")), "{name}: {msg}");
        }
        if name == "newer.toml" {
            assert!(matches!(e, LoadError::Newer { .. }), "{msg}");
        }
    }
}

#[test]
fn the_time_control_may_be_typed_as_on_the_set_up_screen() {
    let c = read_config(&fixture("time_typed.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        c.match_defaults.time_control,
        crossboard::director::TimeControl::apca()
    );
    let name = "time_contradictory.toml";
    let e = read_config(&fixture(name)).expect_err(name);
    let msg = e.to_string();
    assert_eq!(e.line(), Some(4), "{msg}");
    assert!(msg.contains("key `match.time-control`"), "{msg}");
    assert!(msg.contains("two delays (d5 and b5)"), "{msg}");
}

#[test]
fn an_empty_file_is_the_defaults() {
    // Zero bytes (a `touch`ed file), blank lines, and comments only.
    assert_eq!(
        read_config(&fixture("empty.toml")).unwrap(),
        Config::default()
    );
    for text in ["\n\n  \n", "# nothing yet\n"] {
        let c = crossboard::store::parse_config(text.as_bytes(), "c.toml".as_ref());
        assert_eq!(c.unwrap(), Config::default(), "{text:?}");
    }
}
