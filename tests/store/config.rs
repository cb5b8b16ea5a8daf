//! The config file: the documented example is the defaults; every mistake is named with its
//! file, line and key.

use crossboard::director::{BallotDraw, GamePoints, MatchSettings};
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
    let mut config = read_config(&path).unwrap_or_else(|e| panic!("{e}"));
    // Its presets are examples, each checked as any preset is.
    let presets: Vec<String> = std::mem::take(&mut config.preset).into_keys().collect();
    assert_eq!(presets, ["11-Man club night", "ACF 3-Move Nationals"]);
    // So is its engine.
    let engines: Vec<String> = std::mem::take(&mut config.engines).into_keys().collect();
    assert_eq!(engines, ["crossboard hub"]);
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

/// Presets are read by name with every setting checked; `[set-up]` says whether the form
/// fills in the last match's players.
#[test]
fn presets_are_read_by_name() {
    let c = read_config(&fixture("presets.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert!(c.set_up.remember_names);
    let names: Vec<&str> = c.preset.keys().map(String::as_str).collect();
    assert_eq!(names, ["APCA pool", "Club night"]);
    let club = &c.preset["Club night"];
    assert_eq!(club.ballots, 2);
    assert_eq!(club.time_control.to_string(), "20+5");
    // A key left out is the built-in default, not [match]'s.
    assert_eq!(
        c.preset["APCA pool"].ballots,
        MatchSettings::default().ballots
    );
    assert_eq!(c.preset["APCA pool"].scoring.game, GamePoints::Apca);
    assert_eq!(c.preset["APCA pool"].game, crossboard::engine::Rules::Pool);
}

/// `ballot-draw` under `[match]` (and in a preset): card by card unless told, `automatic`
/// read, a value it does not know named with file, line and key and the values it takes.
#[test]
fn the_ballot_draw_is_read_and_a_bad_value_named() {
    assert_eq!(MatchSettings::default().ballot_draw, BallotDraw::CardByCard);
    let parse = |text: &str| crossboard::store::parse_config(text.as_bytes(), "c.toml".as_ref());
    let c = parse("[match]\nballot-draw = \"automatic\"\n").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.match_defaults.ballot_draw, BallotDraw::Automatic);
    let c = parse("[match]\nballot-draw = \"card-by-card\"\n").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.match_defaults.ballot_draw, BallotDraw::CardByCard);
    let c = read_config(&fixture("presets.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.preset["Club night"].ballot_draw, BallotDraw::Automatic);
    assert_eq!(c.preset["APCA pool"].ballot_draw, BallotDraw::CardByCard);
    let name = "bad_ballot_draw.toml";
    let e = read_config(&fixture(name)).expect_err(name);
    let msg = e.to_string();
    assert_eq!(e.line(), Some(4), "{msg}");
    assert!(msg.contains(&format!("{name}:4")), "{msg}");
    assert!(msg.contains("key `match.ballot-draw`"), "{msg}");
    assert!(
        msg.contains("unknown variant `by-hand`, expected `card-by-card` or `automatic`"),
        "{msg}"
    );
}

/// A preset's mistakes are named as every config mistake is: file, line, key.
#[test]
fn a_bad_preset_is_refused_with_file_line_and_key() {
    for (name, line, key, text) in [
        (
            "bad_preset.toml",
            4,
            "key `preset.\"Club night\"`",
            "at least one ballot",
        ),
        (
            "bad_preset_value.toml",
            4,
            "key `preset.\"APCA pool\".ballots`",
            "invalid type",
        ),
        (
            "preset_players.toml",
            3,
            "key `preset.\"Final\".players`",
            "a preset leaves the players to the set-up form",
        ),
        (
            "preset_name.toml",
            4,
            "key `preset.\"Club\\tnight\"`",
            "control character",
        ),
    ] {
        let e = read_config(&fixture(name)).expect_err(name);
        let msg = e.to_string();
        assert_eq!(e.line(), Some(line), "{name}: {msg}");
        assert!(msg.contains(&format!("{name}:{line}")), "{name}: {msg}");
        assert!(msg.contains(key), "{name}: {msg}");
        assert!(msg.contains(text), "{name}: {msg}");
    }
}

/// A mistake found by the checks of `[match]` as a whole names the table's line.
#[test]
fn a_refused_match_table_names_its_line() {
    let e = read_config(&fixture("same_names.toml")).unwrap_err();
    assert!(e.line().is_some(), "{e}");
}

/// The set-up form's memory: read back as saved (without a desk's given ballots); none at
/// first; a damaged file named.
#[test]
fn last_settings_are_read_back_and_a_damaged_file_is_named() {
    use crossboard::director::{ColourMethod, TieRule};
    use crossboard::store::{load_last_settings, save_last_settings};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join("last-match.toml");
    assert_eq!(load_last_settings(&path).unwrap(), None);
    let mut s = MatchSettings {
        ballots: 3,
        tie: TieRule::ContinueInBlocks {
            max_blocks: Some(2),
        },
        colour_method: ColourMethod::Bag,
        ballot_draw: BallotDraw::Automatic,
        time_control: "20+5".parse().unwrap(),
        given_ballots: vec![7],
        ..MatchSettings::default()
    };
    save_last_settings(&path, &s).unwrap();
    s.given_ballots.clear();
    assert_eq!(load_last_settings(&path).unwrap(), Some(s));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("ballots = 3", "ballots = 0")).unwrap();
    let e = load_last_settings(&path).unwrap_err().to_string();
    assert!(e.contains("last-match.toml") && e.contains("ballot"), "{e}");
    // Cut short: refused, not misread.
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    assert!(load_last_settings(&path).is_err());
}

/// The form lists every preset on one screen: a 21st is refused with its line.
#[test]
fn more_presets_than_a_screen_lists_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let text: String = (1..=21)
        .map(|k| format!("[preset.\"Night {k:02}\"]\nballots = 2\n\n"))
        .collect();
    std::fs::write(&path, &text).unwrap();
    let e = read_config(&path).unwrap_err();
    assert_eq!(e.line(), Some(61), "{e}");
    assert!(e.to_string().contains("at most 20 presets"), "{e}");
    std::fs::write(&path, &text[..text.find("[preset.\"Night 21\"]").unwrap()]).unwrap();
    assert_eq!(read_config(&path).unwrap().preset.len(), 20);
}

/// `[engines.NAME]`: a Hub engine's program, its arguments and its `set-param` options.
#[test]
fn hub_engines_are_read_by_name_and_their_mistakes_named() {
    let parse = |text: &str| {
        crossboard::store::parse_config(text.as_bytes(), std::path::Path::new("engines.toml"))
    };
    let c = parse(
        "[engines.stub]\npath = \"/opt/stub\"\narguments = [\"--quiet\", \"a b\"]\n\
         options = { hash = 64, book = \"main book\", ponder = false, margin = 0.5 }\n\n\
         [engines.\"crossboard hub\"]\npath = \"crossboard\"\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = c.engines.keys().map(String::as_str).collect();
    assert_eq!(names, ["crossboard hub", "stub"]);
    let stub = &c.engines["stub"];
    assert_eq!(stub.path, PathBuf::from("/opt/stub"));
    assert_eq!(stub.arguments, ["--quiet", "a b"]);
    assert_eq!(
        stub.params(),
        [
            ("book".to_string(), "main book".to_string()),
            ("hash".into(), "64".into()),
            ("margin".into(), "0.5".into()),
            ("ponder".into(), "false".into()),
        ]
    );
    // Written back by `crossboard config` as read.
    let again = parse(&toml::to_string_pretty(&c).unwrap()).unwrap();
    assert_eq!(again.engines, c.engines);
    for (text, line, key, why) in [
        // The table the field is missing from is named by its line.
        (
            "[engines.x]\narguments = []\n",
            1,
            "engines.toml:1",
            "missing field `path`",
        ),
        (
            "[engines.x]\npath = \"e\"\nargs = []\n",
            3,
            "engines.x.args",
            "unknown field",
        ),
        (
            "[engines.x]\npath = \"e\"\n\n[engines.x.options]\nhash = [1]\n",
            5,
            "engines.x.options.hash",
            "an engine option is text, a number or true/false",
        ),
        (
            "[engines.x]\npath = \"e\"\noptions = { \"two words\" = 1 }\n",
            3,
            "engines.\"x\".options.two words",
            "an option's name is one word",
        ),
        (
            "[engines.x]\npath = \"\"\n",
            2,
            "engines.\"x\".path",
            "program is empty",
        ),
        (
            "[engines.\"a name far too long for a list\"]\npath = \"e\"\n",
            1,
            "engines.\"a name far too long for a list\"",
            "at most 24 characters",
        ),
    ] {
        let e = parse(text).expect_err(text);
        let msg = e.to_string();
        assert_eq!(e.line(), Some(line), "{text}: {msg}");
        assert!(msg.contains(&format!("engines.toml:{line}")), "{msg}");
        assert!(msg.contains(key), "{text}: {msg}");
        assert!(msg.contains(why), "{text}: {msg}");
    }
}
