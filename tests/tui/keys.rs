//! Every key of every binding table: the registry ([`key_tables::all`]) lists every
//! `static NAME: &[Binding<..>]` of `src/tui/` (a new table cannot be forgotten), each table is
//! consistent, and each is in force on some screen, stage, popup or dialog reached here with
//! the real keys, where the app declares the tables it looks keys up in ([`App::chain`]):
//! every key of them reaches its binding, is in that screen's help with its text, and does
//! something visible when pressed.

use crossboard::tui::key_tables;
use crossboard::tui::{App, FakeClock, Msg, ScreenState, TimeSource};
use crossboard::tui::{Erased, check_chain};
use crossboard::tui::{feed, render_buffer, render_text, run_script, test_app, type_keys};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;
use std::time::Duration;

/// What a state needs besides keys.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Setup {
    /// One saved match in the data folder.
    Plain,
    /// The endgame databases offered on the home screen.
    Offer,
    /// A damaged endgame database named on the home screen.
    Trouble,
    /// Another crossboard has the newest match open.
    Locked,
    /// The newest match file is damaged.
    Damaged,
    /// The tournament desk of a fresh database.
    Desk,
    /// The `--match` file is the saved match (a new match would be written over it).
    Existing,
    /// The match screens may serve a match live (the real server, on loopback).
    Net,
}

use Setup::*;

/// A match up to its first game (the default toss is the coin; 1 ballot of 2 games, 1
/// minute each).
const GAME: &str = "n\nh<tick>r\n\n\na\n\n";

/// The same in pool (the game chosen after the event name: the APCA presets) and in huffing.
const POOL_GAME: &str = "n\t\t\t<right>\nh<tick>r\n\n\na\n\n";
const HUFFING_GAME: &str = "n\t\t\t<right><right>\nh<tick>r\n\n\na\n\n";

/// A game of Go As You Please (the openings' first choice) up to White's 23x7, which two
/// capture paths take (23x14x7 and 23x16x7: the move field asks which).
const WHICH_CAPTURE: &str = "n\t\t\t\t<left><left><left>\nh<tick>r\n\n\na\n\n\
    11-15\n23-19\n7-11\n19-16\n12x19\n27-23\n15-18\n23x7\n";

/// An event of two divisions, the first paired, one result entered.
const DESK_EVENT: &str = "nClub Open\ndJunior rr 2\ndOpen swiss:3 2\naAnn\nBob\nCid\nDee\n\x1bp1";

/// The states, by name: their set-up and the keys that reach each from the home screen (a
/// script of [`run_script`]).
fn states() -> Vec<(&'static str, Setup, String)> {
    let after_game = |keys: &str| format!("{GAME}{keys}");
    vec![
        ("home", Plain, "".into()),
        ("home: the databases offered", Offer, "".into()),
        ("home: a damaged database", Trouble, "".into()),
        ("home: the databases' problems", Trouble, "e".into()),
        ("practice set-up", Plain, "p".into()),
        ("practice", Plain, "p\n".into()),
        ("practice: huffing", Plain, "prr\n".into()),
        ("practice: leaving a game", Plain, "ps\n11-15\nq".into()),
        ("position set-up", Plain, "s".into()),
        ("hub engines", Plain, "h".into()),
        ("position set-up: a FEN", Plain, "se".into()),
        (
            "review",
            Plain,
            "otests/fixtures/pdn/loy_chinook_1991.pdn\n\nh".into(),
        ),
        (
            "review: analysing",
            Plain,
            "otests/fixtures/pdn/loy_chinook_1991.pdn\n\nha".into(),
        ),
        ("open a PDN: path", Plain, "o".into()),
        ("atlas", Plain, "m".into()),
        ("atlas: a filter typed", Plain, "mx".into()),
        ("library", Plain, "l".into()),
        ("library: search", Plain, "l/".into()),
        (
            "open a PDN: games",
            Plain,
            "otests/fixtures/pdn/loy_chinook_1991.pdn\n".into(),
        ),
        ("match set-up: a name", Plain, "n".into()),
        ("match set-up: a choice", Plain, "n\t\t\t".into()),
        ("match set-up: the file exists", Existing, "n\n".into()),
        ("join a board", Plain, "a".into()),
        ("resume list", Plain, "r".into()),
        ("resume list: a path", Plain, "ro".into()),
        ("resume list: locked", Locked, "r\n".into()),
        ("resume list: damaged", Damaged, "rj\n".into()),
        ("toss: coin", Plain, "n\n".into()),
        ("toss: bag", Plain, "n<up><up><up><right>\n".into()),
        ("toss: hands", Plain, "n<up><up><up><right><right>\n".into()),
        (
            "toss: director",
            Plain,
            "n<up><up><up><right><right><right>\n".into(),
        ),
        ("toss: choose", Plain, "n\nh<tick>".into()),
        ("toss: done", Plain, "n\nh<tick>r".into()),
        ("draw", Plain, "n\nh<tick>r\n".into()),
        (
            "draw: automatic",
            Plain,
            "n<up><up><up><up><right>\nh<tick>r\n".into(),
        ),
        ("draw: cards", Plain, "n\nh<tick>r\nt<t><t><t>".into()),
        ("draw: card by card", Plain, "n\nh<tick>r\n\n".into()),
        ("decide", Plain, "n\nh<tick>r\n\n\n".into()),
        ("decide: accepted", Plain, "n\nh<tick>r\n\n\na".into()),
        ("pre-game", Plain, "n\nh<tick>r\n\n\na\n".into()),
        ("game", Plain, GAME.into()),
        ("game: paused", Plain, after_game("Dy\x1bn")),
        ("game: pool", Plain, POOL_GAME.into()),
        (
            "game: pool, the rules shown",
            Plain,
            format!("{POOL_GAME}i"),
        ),
        ("game: huffing", Plain, HUFFING_GAME.into()),
        ("game: which capture?", Plain, WHICH_CAPTURE.into()),
        ("popup: confirm", Plain, after_game("D")),
        ("popup: resign", Plain, after_game("r")),
        ("popup: director menu", Plain, after_game("Dy")),
        ("popup: director form, text", Plain, after_game("Dyt\t")),
        ("popup: director form, choice", Plain, after_game("Dyf")),
        ("popup: event log", Plain, after_game("L")),
        ("popup: serve live", Plain, after_game("S")),
        ("popup: served live", Net, after_game("Sl")),
        ("game over", Plain, after_game("rwy")),
        ("results", Plain, after_game("rwy\n")),
        (
            "results: the match over",
            Plain,
            after_game("rwy\n\n\nrwy\n"),
        ),
        ("desk: events", Desk, "".into()),
        ("desk: typing", Desk, "n".into()),
        ("desk: an event", Desk, DESK_EVENT.into()),
    ]
}

/// An app in its own data folder, one match saved there, then `setup` and `keys`.
struct Reached {
    clock: FakeClock,
    app: App,
    /// The other crossboard holding the locked match.
    _holder: Option<App>,
    _dir: tempfile::TempDir,
}

fn app_in(clock: &FakeClock, dir: &Path) -> App {
    let mut app = test_app(clock, 80, 24);
    app.matches.dir = Some(dir.join("matches"));
    app.matches.defaults.players = ["Ann".into(), "Bob".into()];
    app.matches.defaults.ballots = 1;
    app.matches.defaults.time_control = "1".parse().unwrap();
    app.practice_file = Some(dir.join("practice.toml"));
    app
}

fn reach(setup: Setup, keys: &str) -> Reached {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = app_in(&clock, dir.path());
    // One match started and left, for the resume list.
    run_script(&mut app, &clock, "n\nqy");
    let mut holder = None;
    match setup {
        Plain => {}
        Offer => {
            app = App::new(
                crossboard::tui::Options {
                    appearance: crossboard::tui::Appearance::plain(),
                    egdb_dir: Some(dir.path().join("egdb")),
                    ..Default::default()
                },
                clock.now(),
                app.size,
            );
        }
        Trouble => {
            let egdb = dir.path().join("egdb");
            crate::egdb_offer::damaged_folder(&egdb);
            app = App::new(
                crossboard::tui::Options {
                    appearance: crossboard::tui::Appearance::plain(),
                    egdb_dir: Some(egdb),
                    ..Default::default()
                },
                clock.now(),
                app.size,
            );
        }
        Locked => {
            clock.advance(Duration::from_secs(5));
            let mut other = app_in(&clock, dir.path());
            run_script(&mut other, &clock, "n\n");
            holder = Some(other);
        }
        Damaged => {
            std::thread::sleep(Duration::from_millis(20));
            let path = dir.path().join("matches").join("zz-damaged.jsonl");
            std::fs::write(&path, "{\"format-version\":2}\nnot a match\n").unwrap();
        }
        Existing => {
            let saved = std::fs::read_dir(dir.path().join("matches"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
                .unwrap();
            app.matches.file = Some(saved);
        }
        Net => {
            app.matches.net.network = Some(crossboard::cli::network());
        }
        Desk => {
            app.screen = crossboard::tui::Screen::Desk(Box::new(crossboard::tui::DeskScreen::new(
                Some(dir.path().join("desk.sqlite3")),
            )));
        }
    }
    run_script(&mut app, &clock, keys);
    Reached {
        clock,
        app,
        _holder: holder,
        _dir: dir,
    }
}

/// Keys that change nothing in the state they are tried in (an empty field, the first entry
/// of a list already highlighted, the only entry of a list).
fn quiet(state: &str, key: &str) -> bool {
    let empty_field = ["Backspace", "Ctrl-U"].contains(&key);
    match state {
        // Nothing typed or played; the cursor starts on the top row (square 4).
        "practice" | "practice: huffing" => {
            ["Backspace", "Ctrl-U", "Esc", "u", "↑", "k"].contains(&key)
        }
        "open a PDN: path" | "resume list: a path" | "desk: typing" | "join a board" => empty_field,
        "atlas: a filter typed" => empty_field,
        // The first position highlighted; no filter to clear.
        "atlas" => ["↑", "PgUp", "c"].contains(&key),
        "library: search" => empty_field,
        "match set-up: a name" => key == "Ctrl-U",
        "resume list" => ["↑", "↓", "k", "j"].contains(&key),
        // Nothing typed; the 11-Man Ballot already chosen.
        "practice set-up" => ["Backspace", "m"].contains(&key),
        "home" | "home: a damaged database" => key == "Home",
        // `b` would build the databases for minutes: tui_egdb_offer.rs builds a small set.
        "home: the databases offered" => ["Home", "b"].contains(&key),
        // The file has one game.
        "open a PDN: games" => ["↑", "↓", "k", "j", "Tab", "Home", "End"].contains(&key),
        // Nothing typed; the cursor starts on the left edge, on the bottom row.
        "game" | "game: paused" | "game: pool" | "game: huffing" => {
            ["Backspace", "Ctrl-U", "Esc", "↓", "←", "h"].contains(&key)
        }
        // The newest entry is shown.
        "popup: event log" => ["↓", "j", "PgDn", "End"].contains(&key),
        "popup: director menu" => key == "Home",
        // The first board highlighted, the pairings shown.
        // Every row fits: nothing to scroll (tui_desk.rs scrolls a big event).
        "desk: an event" => ["↑", "k", "r", "PgUp", "PgDn"].contains(&key),
        // No event yet.
        "desk: events" => ["↑", "↓", "k", "j", "Enter", "PgUp", "PgDn"].contains(&key),
        s if s.starts_with("toss") => key == "1",
        s if s.starts_with("results") => ["↑", "↓"].contains(&key),
        _ => false,
    }
}

/// The tables of a chain, checked as [`check_chain`] does, but a key two tables share on
/// purpose (the later one has it only when the earlier lets it through) is checked in the
/// help only.
fn checked(name: &str, app: &App) -> Result<(), String> {
    let shared = |key: &str| name.starts_with("practice") && key == "Backspace";
    let help = app.help_lines();
    let mut seen = Vec::new();
    let chain: Vec<Erased> = app
        .chain()
        .into_iter()
        .map(|table| {
            table
                .into_iter()
                .map(|(keys, text)| {
                    let keys = keys
                        .into_iter()
                        .filter(|k| {
                            let later = seen.contains(&k.label()) && shared(&k.label());
                            seen.push(k.label());
                            !later
                        })
                        .collect();
                    (keys, text)
                })
                .collect()
        })
        .collect();
    check_chain(&chain, &help)
}

#[test]
fn every_state_declares_its_key_tables_and_each_key_is_in_its_help() {
    for (name, setup, keys) in states() {
        let r = reach(setup, &keys);
        let chain = r.app.chain();
        assert!(
            !chain.is_empty(),
            "{name}: no key tables declared:\n{}",
            render_text(&r.app)
        );
        checked(name, &r.app).unwrap_or_else(|e| panic!("{name}: {e}\n{}", render_text(&r.app)));
        // The help of every state fits the smallest terminal.
        let h = crossboard::tui::menu::help_height(&r.app.help_lines(), 80);
        assert!(h <= 24, "{name}: the help needs {h} rows");
    }
}

#[test]
fn every_key_of_every_state_does_something_visible() {
    let mut failures = Vec::new();
    for (name, setup, keys) in states() {
        let r = reach(setup, &keys);
        // The cells with their styles: a cursor is drawn reversed, not with a character.
        let before = render_buffer(&r.app);
        let title = r.app.screen.title();
        for table in r.app.chain() {
            for (keys_of, help) in table {
                for k in keys_of {
                    if quiet(name, &k.label()) {
                        continue;
                    }
                    let mut again = reach(setup, &keys);
                    feed(&mut again.app, &again.clock, [Msg::Key(k.event())]);
                    let after = render_buffer(&again.app);
                    if !(again.app.should_quit()
                        || again.app.screen.title() != title
                        || after != before)
                    {
                        failures.push(format!(
                            "{name}: {} ({help}) changed nothing:\n{}",
                            k.label(),
                            render_text(&again.app)
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `src/tui/a/b.rs` -> `crate::tui::a::b` (`mod.rs`: its folder).
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix("src").unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    format!("crate::{}", parts.join("::"))
}

/// Every `static NAME: &[Binding<..>]` under `dir`, by path.
fn declared_tables(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            declared_tables(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // A file's own tests come last; their tables are not the app's.
            let text = text.split("#[cfg(test)]").next().unwrap_or("");
            for line in text.lines() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                let Some(at) = line.find("static ") else {
                    continue;
                };
                let rest = &line[at + "static ".len()..];
                if let Some((name, ty)) = rest.split_once(':')
                    && ty.trim_start().starts_with("&[Binding<")
                {
                    out.push(format!("{}::{}", module_of(&path), name.trim()));
                }
            }
        }
    }
}

#[test]
fn every_binding_table_is_registered_and_consistent() {
    let mut declared = Vec::new();
    declared_tables(Path::new("src/tui"), &mut declared);
    declared.sort();
    let mut registered: Vec<String> = key_tables::all().into_iter().map(|t| t.name).collect();
    registered.sort();
    for d in &declared {
        assert!(
            registered.contains(d),
            "{d} is not in crossboard::tui::key_tables::all(): add it there"
        );
    }
    for r in &registered {
        assert!(declared.contains(r), "{r} is registered but not declared");
    }
    assert!(declared.len() >= 40, "{declared:?}");
    for t in key_tables::all() {
        (t.check)().unwrap_or_else(|e| panic!("{}: {e}", t.name));
    }
}

/// Tables no state above reaches, and where they are checked instead.
const CHECKED_ELSEWHERE: [(&str, &str); 3] = [
    (
        "crate::tui::match_flow::setup::memory::PRESET_CLOSE_KEYS",
        "match_setup_memory::a_preset_is_chosen_from_a_list_in_one_key_and_keeps_the_players",
    ),
    (
        "crate::tui::widgets::menu::GLOBAL_KEYS",
        "the_help_opens_closes_and_names_its_keys (the app looks them up before any screen)",
    ),
    (
        "crate::tui::widgets::menu::HELP_KEYS",
        "the_help_opens_closes_and_names_its_keys",
    ),
];

#[test]
fn every_registered_table_is_in_force_in_some_state() {
    let mut in_force: Vec<Erased> = Vec::new();
    for (_, setup, keys) in states() {
        in_force.extend(reach(setup, &keys).app.chain());
    }
    for t in key_tables::all() {
        let reached = in_force.contains(&(t.erased)());
        let elsewhere = CHECKED_ELSEWHERE.iter().any(|(n, _)| *n == t.name);
        assert!(
            reached || elsewhere,
            "{}: in force in none of the states of this test: add one",
            t.name
        );
        assert!(
            !(reached && elsewhere),
            "{}: now reached here; drop it from CHECKED_ELSEWHERE",
            t.name
        );
    }
}

#[test]
fn the_help_opens_closes_and_names_its_keys() {
    let closing = crossboard::tui::menu::closing_line();
    assert_eq!(closing, " ?, F1, Esc, q closes this help; Ctrl-C quits");
    for close in ['?', 'q', '\x1b', 'F'] {
        for open in ['?', 'F'] {
            let mut r = reach(Plain, "");
            let key = |c: char| match c {
                'F' => Msg::key(KeyCode::F(1)),
                c => type_keys(&c.to_string()).remove(0),
            };
            feed(&mut r.app, &r.clock, [key(open)]);
            let text = render_text(&r.app);
            assert!(text.contains("Help: Home"), "{open}: {text}");
            assert!(text.contains(closing.trim()), "{text}");
            assert_eq!(
                r.app.chain().len(),
                1,
                "only the help's keys while it is open"
            );
            feed(&mut r.app, &r.clock, [key(close)]);
            assert!(
                !render_text(&r.app).contains("Help: Home"),
                "{close} closes the help"
            );
        }
    }
    // In a text field `?` is text and F1 the help.
    let mut r = reach(Plain, "n");
    assert!(r.app.screen.typing());
    feed(&mut r.app, &r.clock, type_keys("?"));
    assert!(!render_text(&r.app).contains("Help:"));
    feed(&mut r.app, &r.clock, [Msg::key(KeyCode::F(1))]);
    assert!(render_text(&r.app).contains("Help: "));
    // Ctrl-C quits from the home screen.
    let mut r = reach(Plain, "");
    feed(
        &mut r.app,
        &r.clock,
        [Msg::Key(KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL,
        ))],
    );
    assert!(r.app.should_quit());
}
