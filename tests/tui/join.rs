//! A board's laptop joins the round from the home screen: the form, its refusals in words, and
//! the question when the desk paired the board again, as rendered.

use crossboard::director::MatchSettings;
use crossboard::store::BoardPairing as Pairing;
use crossboard::tui::testing::{render_text, test_app, type_text};
use crossboard::tui::{FakeClock, TimeSource};
use crossboard::tui::{Screen, open_board};

/// The screen as one line of words (a message wrapped in the form's box reads whole).
fn words(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c == '|')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_home_screen_joins_a_board_and_says_why_not_in_words() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.net.network = Some(crossboard::cli::network());
    let home = render_text(&app);
    assert!(home.contains("a  Join a board"), "{home}");
    type_text(&mut app, &clock, "a");
    let form = render_text(&app);
    for text in [
        "Join a board",
        "Desk's address",
        "Board's code",
        "Enter join",
    ] {
        assert!(form.contains(text), "{text}:\n{form}");
    }
    // Enter with the address unfinished: said on the form.
    type_text(&mut app, &clock, "\n");
    let said = words(&render_text(&app));
    assert!(said.contains("the desk's address:"), "{said}");
    // A desk that is not there, and a code: the form stays, saying why.
    type_text(&mut app, &clock, "127.0.0.1:1\tk7qm 3xf0\n");
    let said = words(&render_text(&app));
    assert!(
        said.contains("the desk at http://127.0.0.1:1 cannot be reached")
            && said.contains("is crossboard serve running there?"),
        "{said}"
    );
    assert!(matches!(app.screen, Screen::Join(_)));
    // Not a code nor a token.
    type_text(&mut app, &clock, "\x15K7QM\n");
    let said = words(&render_text(&app));
    assert!(said.contains("neither a board's code"), "{said}");
    type_text(&mut app, &clock, "\x1b");
    assert!(render_text(&app).contains("Join a board"));
    assert!(matches!(app.screen, Screen::Home(_)));
}

fn pairing(players: [&str; 2]) -> Pairing {
    Pairing {
        event: "Club Open".into(),
        division: 1,
        round: 2,
        board: 3,
        file: "club-open-d1-r2-b3.jsonl".into(),
        settings: MatchSettings {
            players: players.map(String::from),
            ..MatchSettings::default()
        },
    }
}

#[test]
fn a_board_paired_again_is_asked_inside_the_screen_before_its_match() {
    let clock = FakeClock::new();
    let dir = tempfile::tempdir().unwrap();
    let mut app = test_app(&clock, 80, 24);
    app.matches.dir = Some(dir.path().to_path_buf());
    let desk = "http://127.0.0.1:1";
    let first = open_board(
        pairing(["Ann", "Bob"]),
        desk,
        "K7QM-3XF0",
        &app.matches,
        clock.now(),
        &mut app.rng,
    )
    .unwrap();
    assert!(matches!(first, Screen::Match(_)));
    drop(first);
    let file = dir.path().join("club-open-d1-r2-b3.jsonl");
    assert!(file.exists());
    let before = std::fs::read_to_string(&file).unwrap();
    let again = |app: &mut crossboard::tui::App| {
        open_board(
            pairing(["Cid", "Dee"]),
            desk,
            "K7QM-3XF0",
            &app.matches,
            clock.now(),
            &mut app.rng,
        )
        .unwrap()
    };
    app.screen = again(&mut app);
    let asked = words(&render_text(&app));
    assert!(
        asked.contains(
            "Board 3 of round 2 was paired again: the match there is Ann v Bob, the desk now \
             pairs Cid v Dee."
        ) && asked.contains("Start the new pairing? The old match is kept as"),
        "{asked}"
    );
    assert!(asked.contains("y yes") && asked.contains("n no"), "{asked}");
    // No: nothing changed, said on the form.
    type_text(&mut app, &clock, "n");
    let said = words(&render_text(&app));
    assert!(
        said.contains("nothing changed: the old match is still"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    // Yes: the old match kept beside it, the new pairing's match opens.
    app.screen = again(&mut app);
    type_text(&mut app, &clock, "y");
    let shown = render_text(&app);
    assert!(matches!(app.screen, Screen::Match(_)), "{shown}");
    assert!(shown.contains("Cid") && shown.contains("Dee"), "{shown}");
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("club-open-d1-r2-b3.before-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(&kept[0])).unwrap(),
        before
    );
}
