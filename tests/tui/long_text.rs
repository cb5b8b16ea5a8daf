//! Nothing is cut at 80x24: a match between players with the longest names the director
//! takes (`limits::NAME_MAX_CHARS`), in an event of the longest name (`EVENT_MAX_CHARS`), with
//! the longest note and reason, walked through every stage and dialog and drawn at 80x24 in
//! colour, `--ascii` and NO_COLOR. Wherever a name or the event shows, it is whole, wrapped at
//! a space, or shortened with the marker (`…`, `.` with `--ascii`), never silently cut; the
//! words that say what Enter does are never lost.

use crossboard::director::{EVENT_MAX_CHARS, NAME_MAX_CHARS, NOTE_MAX_CHARS};
use crossboard::tui::{App, Appearance, FakeClock};
use crossboard::tui::{buffer_text, render_buffer, run_script, test_app};

/// Names of exactly the longest length, their ends recognisable.
fn names() -> [String; 2] {
    let pad = |s: &str, end: &str, max: usize| {
        let fill = max - s.chars().count() - end.chars().count();
        format!("{s}{}{end}", "x".repeat(fill))
    };
    [
        pad("Annabelle Featherstonehaugh-Ch", "END1", NAME_MAX_CHARS),
        pad("Bartholomew Cholmondeley-Marj", "END2", NAME_MAX_CHARS),
    ]
}

fn event() -> String {
    format!("Grand Open {}EVT", "E".repeat(EVENT_MAX_CHARS - 14))
}

const GAME: &str = "n\nh<tick>r\n\n\na\n\n";

/// The states (a [`run_script`] from the home screen) and what must show whole in each.
fn states() -> Vec<(&'static str, String, &'static [&'static str])> {
    let g = |k: &str| format!("{GAME}{k}");
    let note = "n".repeat(NOTE_MAX_CHARS);
    vec![
        ("set-up", "n".into(), &["Enter starts the match"]),
        ("set-up: the event field", "n\t\t".into(), &[]),
        ("toss", "n\n".into(), &["calls the coin: h heads, t tails"]),
        ("toss: choose", "n\nh<tick>".into(), &["r Red, w White"]),
        ("toss: done", "n\nh<tick>r".into(), &["ballot draw"]),
        ("draw", "n\nh<tick>r\n".into(), &["Enter draws the ballot"]),
        (
            "decide",
            "n\nh<tick>r\n\n\n".into(),
            &["a accepts, r rejects"],
        ),
        (
            "pre-game",
            "n\nh<tick>r\n\n\na\n".into(),
            &["Enter starts Red's clock"],
        ),
        ("game", GAME.into(), &["to move"]),
        ("director note", g(&format!("Dyn{note}")), &["Note"]),
        (
            "director forfeit",
            g(&format!("Dyf\t{}", "r".repeat(200))),
            &["Reason"],
        ),
        ("game over", g("rwy"), &["Enter: results and score"]),
        ("results", g("rwy\n"), &["Between games", "(Enter)"]),
        (
            "results: match over",
            g("rwy\n\n\nrwy\n"),
            &["Match over", "q goes home"],
        ),
        ("event log", g("rwy\n\n\nrwy\nL"), &["Event log"]),
        ("resume list", "n\nqyr".into(), &["Resume a match"]),
    ]
}

fn app(clock: &FakeClock, dir: &std::path::Path) -> App {
    let mut app = test_app(clock, 80, 24);
    app.matches.dir = Some(dir.join("matches"));
    app.matches.defaults.players = names();
    app.matches.defaults.event = event();
    app.matches.defaults.ballots = 1;
    app.matches.defaults.time_control = "1".parse().unwrap();
    app
}

/// Where `row` shows the start of `whole`, the rest follows to its end, or the marker right
/// after a part of it, or the row ends at one of its spaces (wrapped). The first problem.
fn cut_silently(row: &str, whole: &str, marker: char) -> Option<String> {
    let start: String = whole.chars().take(8).collect();
    let mut from = 0;
    while let Some(at) = row[from..].find(&start) {
        let at = from + at;
        let shown: Vec<char> = row[at..].chars().collect();
        let want: Vec<char> = whole.chars().collect();
        let k = shown.iter().zip(&want).take_while(|(a, b)| a == b).count();
        let ok = k == want.len()
            || shown.get(k) == Some(&marker)
            || (want[k] == ' ' && shown[k..].iter().all(|c| c.is_whitespace()))
            // The marker took the place of the name's next character.
            || (k > 0 && shown.get(k - 1) == Some(&marker));
        if !ok {
            return Some(format!(
                "{:?}",
                shown[..k.min(shown.len())].iter().collect::<String>()
            ));
        }
        from = at + start.len();
    }
    None
}

#[test]
fn the_longest_names_notes_and_reasons_are_never_cut_silently_at_80x24() {
    let [n1, n2] = names();
    let ev = event();
    let modes = [
        ("colour", Appearance::from_flags(false, false, None)),
        ("ascii", Appearance::from_flags(true, false, None)),
        ("no-color", Appearance::from_flags(false, false, Some("1"))),
    ];
    // The check itself: a cut at a border is caught; a marker, a wrap or the whole name pass.
    assert!(cut_silently("| Annabelle Feathersto|", &n1, '…').is_some());
    assert!(cut_silently("| Annabelle Feathersto…|", &n1, '…').is_none());
    assert!(cut_silently("  said Annabelle", &n1, '…').is_none());
    assert!(cut_silently(&format!("|{n1}|"), &n1, '…').is_none());
    let mut problems = Vec::new();
    for (state, script, must) in states() {
        let dir = tempfile::tempdir().unwrap();
        let clock = FakeClock::new();
        let mut app = app(&clock, dir.path());
        run_script(&mut app, &clock, &script);
        for (mode, look) in &modes {
            app.appearance = look.clone();
            let text = buffer_text(&render_buffer(&app));
            let marker = if look.ascii { '.' } else { '…' };
            for row in text.lines() {
                for whole in [&n1, &n2, &ev] {
                    if let Some(shown) = cut_silently(row, whole, marker) {
                        problems.push(format!(
                            "{state} {mode}: {shown} cut without a marker in {row:?}\n{text}"
                        ));
                    }
                }
            }
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            for needed in must {
                if !flat.contains(needed) {
                    problems.push(format!("{state} {mode}: {needed:?} missing\n{text}"));
                }
            }
            // The results name both players whole (the narrow panels may shorten them).
            if state == "results" {
                for n in [&n1, &n2] {
                    assert!(
                        flat.contains(n.as_str()),
                        "{state} {mode}: {n} never whole\n{text}"
                    );
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn the_event_field_shows_its_end_while_typed_and_its_start_with_a_marker_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = app(&clock, dir.path());
    app.appearance = Appearance::from_flags(false, false, None);
    run_script(&mut app, &clock, "n");
    let row = |app: &App| {
        buffer_text(&render_buffer(app))
            .lines()
            .find(|l| l.contains("Event"))
            .unwrap()
            .to_string()
    };
    let away = row(&app);
    assert!(
        away.contains("Grand Open EEE") && away.ends_with('…'),
        "{away}"
    );
    run_script(&mut app, &clock, "\t\t");
    let typed = row(&app);
    assert!(typed.contains("…EEE") && typed.contains("EVT_"), "{typed}");
    assert!(typed.chars().count() <= 80, "{typed}");
}

#[test]
fn the_desk_shortens_long_names_with_the_marker() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.appearance = Appearance::from_flags(false, false, None);
    app.screen = crossboard::tui::Screen::Desk(Box::new(crossboard::tui::DeskScreen::new(Some(
        dir.path().join("desk.sqlite3"),
    ))));
    let long_event = format!("Open {}EVT", "E".repeat(150));
    let [n1, n2] = names();
    let typing = format!("n{long_event}");
    run_script(&mut app, &clock, &typing);
    let text = buffer_text(&render_buffer(&app));
    assert!(
        text.contains("…EEE") && text.contains("EVT_"),
        "the typed end shows:\n{text}"
    );
    run_script(
        &mut app,
        &clock,
        &format!("\ndOpen swiss:3 2\na{n1}\n{n2}\nCid\nDee\n\x1bp"),
    );
    for keys in ["", "s", "c", "\x1b"] {
        run_script(&mut app, &clock, keys);
        let text = buffer_text(&render_buffer(&app));
        for row in text.lines() {
            for whole in [&n1, &n2, &long_event] {
                assert!(
                    cut_silently(row, whole, '…').is_none(),
                    "{keys:?}: {whole} cut without a marker in {row:?}\n{text}"
                );
            }
        }
    }
}
