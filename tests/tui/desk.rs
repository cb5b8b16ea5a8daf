//! The tournament desk screen on a `TestBackend`: a Swiss entered by keys, the director's
//! overrides (exchange with a logged reason, withdrawal, absence, late entry, a PDN attached),
//! and render snapshots of the pairings, standings and crosstable at 80x24 and 160x50 in
//! ASCII without colour, with checks of the colour, `--ascii` and `NO_COLOR` modes.

use crossboard::tui::DeskScreen;
use crossboard::tui::testing::{
    buffer_text, feed, render_buffer, render_text, test_app, type_text,
};
use crossboard::tui::{App, Appearance, FakeClock, Msg, Screen};
use ratatui::crossterm::event::KeyCode;
use ratatui::style::Color as Rgb;
use std::path::Path;

const NAMES: [&str; 6] = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"];

/// An app on the desk screen of a fresh database in `dir`, at `w` x `h`.
pub(super) fn desk_app(dir: &Path, clock: &FakeClock, w: u16, h: u16) -> App {
    let mut app = test_app(clock, w, h);
    app.screen = Screen::Desk(Box::new(DeskScreen::new(Some(dir.join("desk.sqlite3")))));
    app
}

/// The event "Club Open" with a 3-round Swiss of two-game rounds and six players, rated in
/// entry order so that pairing numbers follow.
pub(super) fn set_up(app: &mut App, clock: &FakeClock) {
    type_text(app, clock, "nClub Open\ndOpen swiss:3 2\na");
    for n in NAMES {
        type_text(app, clock, &format!("{n}\n"));
    }
    type_text(app, clock, "\x1b");
}

fn screen(app: &App) -> String {
    render_text(app)
}

#[test]
fn a_round_entered_by_keys() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    let text = screen(&app);
    assert!(text.contains("No event yet: n creates one."), "{text}");
    set_up(&mut app, &clock);
    let text = screen(&app);
    assert!(
        text.contains("[Open]") && text.contains("6 players, round 0 of 3"),
        "{text}"
    );
    type_text(&mut app, &clock, "p");
    let text = screen(&app);
    assert!(text.contains("recorded: round 1 paired"), "{text}");
    assert_eq!(text.matches("waiting").count(), 3, "{text}");
    // Board 1: first player won game 1, game 2 drawn; board 2: one game so far.
    type_text(&mut app, &clock, "1=j2");
    let text = screen(&app);
    assert!(text.contains("recorded: round 1 board 2: 2"), "{text}");
    assert!(
        text.contains("1 =") && text.contains("done") && text.contains("playing"),
        "{text}"
    );
    // A third result on a complete board is refused, Backspace takes one back.
    type_text(&mut app, &clock, "k1");
    assert!(
        screen(&app).contains("board 1 is complete"),
        "{}",
        screen(&app)
    );
    type_text(&mut app, &clock, "\x08");
    assert!(
        screen(&app).contains("recorded: round 1 board 1: 1"),
        "{}",
        screen(&app)
    );
}

#[test]
fn director_overrides_from_the_desk_screen() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    set_up(&mut app, &clock);
    // Absence announced before round 1: Fay misses it (the odd one out has the bye).
    type_text(&mut app, &clock, "AFay 1\n");
    assert!(
        screen(&app).contains("recorded: Fay absent in round 1"),
        "{}",
        screen(&app)
    );
    type_text(&mut app, &clock, "p");
    let text = screen(&app);
    assert!(text.contains("not paired: Fay (absent)"), "{text}");
    assert!(text.contains("  bye  "), "{text}");
    // Exchange two players, the reason logged and shown in the explanation.
    type_text(&mut app, &clock, "xAnn, nobody\n");
    assert!(
        screen(&app).contains("no player \"nobody\""),
        "{}",
        screen(&app)
    );
    type_text(&mut app, &clock, "xAnn, Bob\nsame club\n");
    let text = screen(&app);
    assert!(
        text.contains("recorded: Ann and Bob exchanged in round 1 (same club)"),
        "{text}"
    );
    type_text(&mut app, &clock, "w");
    let text = screen(&app);
    assert!(
        text.contains("The director changed this round's pairing: same club."),
        "{text}"
    );
    type_text(&mut app, &clock, "r");
    // A PDN of board 1's games.
    let pdn = dir.path().join("board1.pdn");
    std::fs::write(
        &pdn,
        "[Event \"Club Open\"]\n[Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n[Event \"Club Open\"]\n[Result \"1/2-1/2\"]\n1. 9-13 22-18 1/2-1/2\n",
    )
    .unwrap();
    // Its games name no players: not the board's games until the director says why.
    type_text(&mut app, &clock, &format!("g{}\n", pdn.display()));
    let text = screen(&app);
    assert!(
        text.contains("not this board's games: players of game 1"),
        "{text}"
    );
    assert!(text.contains("Attach it anyway: why"), "{text}");
    type_text(&mut app, &clock, "scores kept on paper\n");
    let text = screen(&app);
    assert!(
        text.contains("recorded: 2 games attached to round 1 board 1, although"),
        "{text}"
    );
    assert!(text.contains(" pdn"), "{text}");
    type_text(
        &mut app,
        &clock,
        &format!("g{}\n", dir.path().join("none.pdn").display()),
    );
    assert!(screen(&app).contains("none.pdn"), "{}", screen(&app));
    // Results, then a late entry, a withdrawal and round 2.
    for _ in 0..2 {
        type_text(&mut app, &clock, "1=j");
    }
    type_text(&mut app, &clock, "aGus\n\x1b");
    let text = screen(&app);
    assert!(
        text.contains("recorded: Gus entered as a late entry (round 1 scores as an absence)"),
        "{text}"
    );
    type_text(&mut app, &clock, "WCid\nill\n");
    let text = screen(&app);
    assert!(
        text.contains("recorded: Cid withdrawn: not paired from round 2 (ill)"),
        "{text}"
    );
    type_text(&mut app, &clock, "p");
    let text = screen(&app);
    assert!(text.contains("recorded: round 2 paired"), "{text}");
    assert!(
        text.contains("Gus") && text.contains("not paired: Cid (withdrawn)"),
        "{text}"
    );
    // The help lists the director's keys, from the same table.
    type_text(&mut app, &clock, "?");
    let text = screen(&app);
    for k in [
        "exchange two players",
        "a player withdraws",
        "miss a round",
        "attach a PDN",
        "play the board on crossboard",
        // The last lines: nothing of the help is cut off at 80x24.
        "back to the events",
        "closes this help",
    ] {
        assert!(text.contains(k), "{k}: {text}");
    }
}

/// The desk after round 1 (all results in) and round 2 paired.
fn two_rounds(w: u16, h: u16, dir: &Path) -> (App, FakeClock) {
    let clock = FakeClock::new();
    let mut app = desk_app(dir, &clock, w, h);
    set_up(&mut app, &clock);
    type_text(&mut app, &clock, "p1=j2=j==p");
    (app, clock)
}

#[test]
fn snapshots_of_the_desk_screens() {
    for (w, h) in [(80u16, 24u16), (160, 50)] {
        let dir = tempfile::tempdir().unwrap();
        let (mut app, clock) = two_rounds(w, h, dir.path());
        let pairings = screen(&app);
        assert!(
            pairings.contains("Round 2: the first player has Red in game 1"),
            "{pairings}"
        );
        // Each column head starts where its column does on every board's row.
        let lines: Vec<&str> = pairings.lines().collect();
        let head = lines.iter().position(|l| l.contains(" second ")).unwrap();
        for row in &lines[head + 1..head + 4] {
            for word in ["first", "second", "result", "state"] {
                let at = lines[head].find(word).unwrap();
                let b = row.as_bytes();
                assert!(
                    b[at] != b' ' && b[at - 1] == b' ',
                    "{word} at {at}:\n{}\n{row}",
                    lines[head]
                );
            }
        }
        assert!(pairings.contains("ballot 1:"), "{pairings}");
        assert!(
            pairings.lines().last().unwrap().contains("p pair"),
            "{pairings}"
        );
        insta::assert_snapshot!(format!("desk_pairings_{w}x{h}"), pairings);
        type_text(&mut app, &clock, "s");
        let standings = screen(&app);
        assert!(
            standings.contains("place") && standings.contains("Buch"),
            "{standings}"
        );
        insta::assert_snapshot!(format!("desk_standings_{w}x{h}"), standings);
        type_text(&mut app, &clock, "c");
        let cross = screen(&app);
        assert!(cross.contains("R1") && cross.contains("R2"), "{cross}");
        insta::assert_snapshot!(format!("desk_crosstable_{w}x{h}"), cross);
        // Esc goes back to the pairings first, then leaves the event.
        type_text(&mut app, &clock, "\x1b\x1b");
        let list = screen(&app);
        assert!(list.contains("Club Open"), "{list}");
        insta::assert_snapshot!(format!("desk_events_{w}x{h}"), list);
    }
}

/// Esc (or q) from the standings, the crosstable or the explanation goes back to the round's
/// pairings; from the pairings it leaves the event. The help says both, from the key table.
#[test]
fn esc_from_a_view_goes_back_to_the_pairings_then_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock) = two_rounds(80, 24, dir.path());
    for (view, seen) in [("s", "place  name"), ("c", "R1"), ("w", "Round 2, board 1")] {
        for back in ["\x1b", "q"] {
            type_text(&mut app, &clock, view);
            assert!(screen(&app).contains(seen), "{view}: {}", screen(&app));
            type_text(&mut app, &clock, back);
            let text = screen(&app);
            assert!(
                text.contains("Round 2: the first player has Red in game 1")
                    && text.contains("[Open]"),
                "{view} {back:?}: back to the pairings, the event still open:\n{text}"
            );
        }
    }
    type_text(&mut app, &clock, "\x1b");
    let text = screen(&app);
    assert!(
        text.contains("Club Open") && !text.contains("[Open]"),
        "from the pairings Esc leaves the event:\n{text}"
    );
    // The help, from the same key table, says where Esc goes.
    type_text(&mut app, &clock, "\n?");
    let help = screen(&app);
    assert!(
        help.contains("back to the pairings") && help.contains("back to the events"),
        "{help}"
    );
}

/// The explanation counts points in English: "1 point", "1½ points" (in ASCII "1.5 points"),
/// never "1 points"; at 80 columns nothing of it is cut off.
#[test]
fn the_explanation_says_point_or_points() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock) = two_rounds(80, 24, dir.path());
    let mut said = String::new();
    for k in 0..3 {
        type_text(&mut app, &clock, "w");
        said += &screen(&app);
        type_text(&mut app, &clock, if k < 2 { "\x1bj" } else { "\x1b" });
    }
    assert!(!said.contains("1 points"), "{said}");
    assert!(!said.contains(" 0.5 points"), "{said}");
    // The test app draws in ASCII: halves as decimals; a wrapped sentence is not cut by the
    // longer ASCII half ("0.5" for "½").
    for s in [
        "Both had 1.5 points:",
        "(1 point) floated down to the 0.5-point group",
        "could not\npair everyone.",
    ] {
        assert!(said.contains(s), "{s}: {said}");
    }
}

/// `e` before round 1 still writes the files, saying no round is paired; after a forfeited
/// round, that its games are left out of the PDN (not played).
#[test]
fn an_export_says_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    set_up(&mut app, &clock);
    type_text(&mut app, &clock, "e");
    let text = screen(&app);
    assert!(
        text.contains("no round paired yet: the 6 players entered only; PDN: no games"),
        "{text}"
    );
    let html = dir.path().join("exports/club-open-open.html");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("No round has been paired yet"), "{page}");
    type_text(&mut app, &clock, "p!1\nj1=e");
    let text = screen(&app);
    assert!(
        text.contains("PDN: 2 games; 2 forfeited games left out (not played); wrote"),
        "{text}"
    );
    let pdn = std::fs::read_to_string(dir.path().join("exports/club-open-open.pdn")).unwrap();
    assert_eq!(pdn.matches("[Round ").count(), 2, "{pdn}");
    assert!(!pdn.contains(r#"[Round "1.1."#), "{pdn}");
}

/// A desk database named like one of its exports, its `exports` folder a link back to its own
/// folder: `e` refuses to write over the database, saying so, and writes none of the files.
#[cfg(unix)]
#[test]
fn an_export_over_the_desk_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let db = dir.path().join("club-open-open.pdn");
    std::os::unix::fs::symlink(dir.path(), dir.path().join("exports")).unwrap();
    let mut app = test_app(&clock, 160, 24);
    app.screen = Screen::Desk(Box::new(DeskScreen::new(Some(db.clone()))));
    set_up(&mut app, &clock);
    let before = std::fs::read(&db).unwrap();
    type_text(&mut app, &clock, "e");
    let text = screen(&app);
    assert!(text.contains("nothing was written"), "{text}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    assert!(!dir.path().join("club-open-open.html").exists());
    let desk = crossboard::store::Desk::open(&db).unwrap();
    assert_eq!(desk.events().unwrap().len(), 1);
}

/// `x` on an exchange that makes a rematch says so and asks; anything but `y` exchanges
/// nothing, `y` records it with what it repeats in the logged reason.
#[test]
fn an_exchange_making_a_rematch_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock) = two_rounds(80, 24, dir.path());
    let before = screen(&app);
    // Round 1: Ann met Dee; round 2 board 1: Bob - Ann. Exchanging Bob and Dee pairs Ann and
    // Dee again.
    type_text(&mut app, &clock, "xBob, Dee\nsame club\n");
    let text = screen(&app);
    assert!(
        text.contains("Dee and Ann already met in round 1: y exchanges them anyway")
            && text.contains("Exchange them anyway (y/n): _"),
        "{text}"
    );
    type_text(&mut app, &clock, "n\n");
    let text = screen(&app);
    assert!(text.contains("nothing exchanged"), "{text}");
    assert_eq!(
        text.lines().skip(3).take(6).collect::<Vec<_>>(),
        before.lines().skip(3).take(6).collect::<Vec<_>>(),
        "{text}"
    );
    type_text(&mut app, &clock, "xBob, Dee\nsame club\ny\n");
    let text = screen(&app);
    assert!(
        text.contains("recorded: Bob and Dee exchanged in round 2 (same club; confirmed:"),
        "{text}"
    );
    type_text(&mut app, &clock, "w");
    let text = screen(&app).replace('\n', " ");
    assert!(
        text.contains("same club; confirmed: Dee and Ann already met in round 1."),
        "{text}"
    );
}

/// Four players, four rounds: after three every pair has met, `p` says the engine cannot pair
/// round 4 and names the key; `H` takes the boards and the reason, and pairs it by hand, the
/// repeats said and logged.
#[test]
fn a_round_the_engine_cannot_pair_is_paired_by_hand_at_the_desk() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    type_text(
        &mut app,
        &clock,
        "nClub\ndOpen swiss:4 2\naAnn\nBob\nCid\nDee\n\x1b",
    );
    for _ in 0..3 {
        type_text(&mut app, &clock, "p1=j==");
    }
    type_text(&mut app, &clock, "p");
    let text = screen(&app);
    assert!(text.contains("H pairs it by hand"), "{text}");
    assert!(text.contains("round 3 of 4"), "{text}");
    // A name that is not entered, then a board missing: refused, nothing paired.
    type_text(&mut app, &clock, "HAnn - Zed\n");
    assert!(
        screen(&app).contains("no player \"Zed\""),
        "{}",
        screen(&app)
    );
    type_text(&mut app, &clock, "\x15Ann - Bob\nx\n");
    let text = screen(&app);
    assert!(text.contains("round 3 of 4"), "{text}");
    type_text(
        &mut app,
        &clock,
        "HAnn - Bob, Cid Dee\nevery pair has met\n",
    );
    let text = screen(&app);
    assert!(
        text.contains("recorded: round 4 paired by hand (Ann and Bob already met in round"),
        "{text}"
    );
    assert!(
        text.contains("Round 4: the first player") && text.contains("ballot 1:"),
        "{text}"
    );
    type_text(&mut app, &clock, "w");
    let text = screen(&app).replace('\n', " ");
    assert!(
        text.contains("every pair has met; repeats: Ann and Bob already met"),
        "{text}"
    );
    // The key is in the help.
    type_text(&mut app, &clock, "\x1b?");
    assert!(
        screen(&app).contains("(H: by hand, a reason)"),
        "{}",
        screen(&app)
    );
}

/// At 80 columns a crosstable of long names is wider than the screen: Right and Left scroll
/// its columns behind the place and name, a line says which way there is more, and at the
/// far right the last tie-break column is in full view, the round in play after it.
#[test]
fn the_crosstable_scrolls_sideways_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    type_text(&mut app, &clock, "nClub Open\ndOpen swiss:3 2\na");
    for n in NAMES {
        type_text(&mut app, &clock, &format!("{n} Featherstonehaugh-Smythe\n"));
    }
    type_text(&mut app, &clock, "\x1bp1=j2=j==pc");
    let header = |t: &str| {
        t.lines()
            .find(|l| l.contains("  Name"))
            .unwrap()
            .to_string()
    };
    let text = screen(&app);
    assert!(
        text.contains("Right scrolls the table: more columns to the right"),
        "{text}"
    );
    assert!(!header(&text).contains("R2*"), "{text}");
    let mut presses = 0;
    while !screen(&app).contains("Left scrolls the table back") {
        feed(&mut app, &clock, [Msg::key(KeyCode::Right)]);
        presses += 1;
        assert!(presses < 20, "{}", screen(&app));
    }
    let text = screen(&app);
    let h = header(&text);
    let last: Vec<&str> = h.split_whitespace().rev().take(2).collect();
    assert_eq!(last, ["R2*", "Wins"], "{text}");
    assert!(
        text.contains("Standings after round 1 of 3; round 2 in play"),
        "{text}"
    );
    assert!(h.contains("Name"), "the names stay: {text}");
    assert!(
        text.lines()
            .any(|l| l.contains("Ann Featherstonehaugh-Smythe")),
        "{text}"
    );
    for l in text.lines() {
        assert!(l.chars().count() <= 80, "{l}");
    }
    // More Right changes nothing; Left back to the start.
    feed(&mut app, &clock, [Msg::key(KeyCode::Right)]);
    assert_eq!(screen(&app), text);
    for _ in 0..presses {
        feed(&mut app, &clock, [Msg::key(KeyCode::Left)]);
    }
    assert!(
        screen(&app).contains("Right scrolls the table:"),
        "{}",
        screen(&app)
    );
    // The help names the keys, and still fits.
    type_text(&mut app, &clock, "?");
    let help = screen(&app);
    assert!(
        help.contains("scroll its columns") && help.contains("closes this help"),
        "{help}"
    );
}

#[test]
fn colour_ascii_and_no_colour_modes() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, clock) = two_rounds(80, 24, dir.path());
    // Colour, Unicode.
    app.appearance = Appearance::from_flags(false, false, None);
    let buf = render_buffer(&app);
    assert!(
        buf.content().iter().any(|c| c.fg != Rgb::Reset),
        "colour mode uses colour"
    );
    type_text(&mut app, &clock, "?");
    assert!(
        buffer_text(&render_buffer(&app)).contains('↑'),
        "Unicode arrows in the help"
    );
    type_text(&mut app, &clock, "\x1b");
    // --ascii: only ASCII on every view.
    app.appearance = Appearance::from_flags(true, false, None);
    for keys in ["", "s", "c", "w", "?", "\x1br"] {
        type_text(&mut app, &clock, keys);
        let text = screen(&app);
        assert!(text.is_ascii(), "{keys:?}: {text}");
        if keys == "w" {
            // Half points in the one ASCII form of the desk (2.5, 0.5), never a stand-in
            // character (`+` reads as a forfeit win in a crosstable).
            assert!(text.contains("Both had 1.5 points"), "{text}");
            assert!(!text.contains("1+"), "{text}");
        }
    }
    // NO_COLOR: no colour at all; the selected board still marked.
    app.appearance = Appearance::from_flags(false, false, Some("1"));
    let buf = render_buffer(&app);
    assert!(
        buf.content()
            .iter()
            .all(|c| c.fg == Rgb::Reset && c.bg == Rgb::Reset),
        "no colour in NO_COLOR mode"
    );
    assert!(
        buffer_text(&buf).lines().any(|l| l.starts_with(">  1")),
        "{}",
        buffer_text(&buf)
    );
}

/// Play the match on the app's match screen to its end: game 1 resigned by Red at once,
/// game 2 agreed drawn.
fn finish_match(app: &mut App, clock: &FakeClock) {
    use crossboard::director::{Awaiting, Command};
    use crossboard::tui::TimeSource;
    use rand::SeedableRng;
    let Screen::Match(s) = &mut app.screen else {
        panic!("not on the match screen");
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..40 {
        let m = s.game_match();
        let cmd = match m.awaiting() {
            Awaiting::Nothing => return,
            Awaiting::BallotDraw(_) => Command::DrawBallot,
            Awaiting::Decision { colour, .. } => Command::Accept { colour },
            Awaiting::GameStart { .. } => Command::StartGame,
            Awaiting::Move { colour, .. } if m.games().count() == 1 => Command::Resign { colour },
            Awaiting::Move { colour, .. } => match m.draw_offer() {
                None => Command::OfferDraw { colour },
                Some(by) => Command::AcceptDraw {
                    colour: by.opponent(),
                },
            },
            other => panic!("unexpected {other:?}"),
        };
        s.apply_before_shown(cmd, clock.now(), &mut rng).unwrap();
    }
    panic!("the match did not end");
}

/// A board played on crossboard from the desk: its match file is saved in the desk's
/// `matches` folder and linked to the board, the pairing's first player has Red in game 1,
/// and leaving the finished match records its games as the board's result.
#[test]
fn a_board_played_on_crossboard() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    set_up(&mut app, &clock);
    type_text(&mut app, &clock, "pP");
    let file = dir.path().join(format!(
        "matches/club-open-open-r1-b1.{}",
        crossboard::store::EXTENSION
    ));
    assert!(file.is_file(), "{}", screen(&app));
    // The round's ballot is in place: the first game can start at once.
    assert!(
        screen(&app).contains("Enter starts Red's clock"),
        "{}",
        screen(&app)
    );
    let (first, second) = {
        let Screen::Match(s) = &app.screen else {
            panic!("not on the match screen: {}", screen(&app));
        };
        let m = s.game_match();
        let st = m.settings();
        assert_eq!(st.event, "Club Open, Open, round 1 board 1");
        assert_eq!(st.ballots, 1);
        assert_eq!(st.given_ballots.len(), 1);
        assert_eq!(m.ballots()[0].opening.number, st.given_ballots[0]);
        (st.players[0].clone(), st.players[1].clone())
    };
    finish_match(&mut app, &clock);
    // The results say where q goes: back to the desk, not home.
    let text = screen(&app);
    assert!(text.contains("q goes back to the desk"), "{text}");
    assert!(!text.contains("q goes home"), "{text}");
    // Leave the finished match: back on the desk, the games recorded.
    for _ in 0..3 {
        if matches!(app.screen, Screen::Desk(_)) {
            break;
        }
        type_text(&mut app, &clock, "q");
    }
    let text = screen(&app);
    assert!(matches!(app.screen, Screen::Desk(_)), "{text}");
    assert!(
        text.contains("recorded: round 1 board 1 from crossboard: 2 ="),
        "{text}"
    );
    let line = text.lines().find(|l| l.starts_with(">  1")).unwrap();
    assert!(line.contains(&first) && line.contains(&second), "{line}");
    assert!(
        line.contains("done") && line.contains("crossboard"),
        "{line}"
    );
    // The match file is the record: the first player had Red in game 1 and lost it.
    let m = crossboard::store::load_match(&file).unwrap().the_match;
    let g1 = m.games().next().unwrap();
    assert_eq!(g1.red_name, first);
    // A complete board is not played again.
    type_text(&mut app, &clock, "P");
    assert!(
        screen(&app).contains("board 1 is complete"),
        "{}",
        screen(&app)
    );
    // The event database links the board to its match file (reopened from disk).
    let desk = crossboard::store::Desk::open(&dir.path().join("desk.sqlite3")).unwrap();
    let open = desk.load(desk.events().unwrap()[0].id).unwrap();
    let b = &open.event.divisions[0].rounds[0].boards[0];
    assert_eq!(
        b.match_file.as_deref(),
        Some(file.display().to_string().as_str())
    );
    drop(desk);
    // For scripts: `crossboard event match` links a match file to a board; a match of other
    // players is refused and changes nothing.
    let db = dir.path().join("desk.sqlite3");
    let cli = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"))
            .arg("event")
            .arg("--db")
            .arg(&db)
            .args(args)
            .output()
            .unwrap()
    };
    let f = file.display().to_string();
    let out = cli(&["match", "Club Open", "Open", "1", "2", &f]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains(&format!("the match is {first} v {second}, the board is")),
        "{err}"
    );
    let out = cli(&["match", "Club Open", "Open", "1", "1", &f]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("recorded: round 1 board 1 from"), "{said}");
    assert!(said.trim_end().ends_with(": 2 ="), "{said}");
}

/// The line saying how many rows are scrolled out of view, if any.
fn scroll_marker(text: &str) -> Option<String> {
    text.lines()
        .find(|l| l.contains(" above, ") && l.contains(" below: "))
        .map(str::to_string)
}

/// Press `code` until the marker says `done` (at most `most` times); the presses made.
fn scroll_until(app: &mut App, clock: &FakeClock, code: KeyCode, done: &str, most: usize) -> usize {
    for n in 0..most {
        let text = screen(app);
        let m = scroll_marker(&text).unwrap_or_else(|| panic!("no marker:\n{text}"));
        if m.contains(done) {
            return n;
        }
        feed(app, clock, [Msg::key(code)]);
    }
    panic!("{done:?} not reached in {most} presses:\n{}", screen(app));
}

#[test]
fn a_big_event_scrolls_at_80x24_and_says_how_many_rows_are_hidden() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    type_text(&mut app, &clock, "nNationals\ndMasters swiss:10 2\na");
    for k in 1..=120 {
        type_text(&mut app, &clock, &format!("P{k:03}\n"));
    }
    type_text(&mut app, &clock, "\x1bp");
    let text = screen(&app);
    assert!(text.contains("120 players, round 1 of 10"), "{text}");
    // The column header stays; the first boards shown, the rest counted, never cut silently.
    let marker = scroll_marker(&text).unwrap_or_else(|| panic!("{text}"));
    assert!(
        marker.contains("(0 above, ") && marker.contains("PgUp PgDn"),
        "{text}"
    );
    // Every board is seen on some page, down to the last row (the round's ballot).
    let boards = |t: &str| -> Vec<u32> {
        t.lines()
            .filter_map(|l| l.get(1..4)?.trim().parse().ok())
            .collect()
    };
    let mut seen = boards(&text);
    let mut pages = 0;
    while !scroll_marker(&screen(&app)).unwrap().contains(" 0 below") {
        feed(&mut app, &clock, [Msg::key(KeyCode::PageDown)]);
        let text = screen(&app);
        assert!(
            text.contains("Round 1: the first player"),
            "the header stays:\n{text}"
        );
        seen.extend(boards(&text));
        pages += 1;
        assert!(pages < 10, "{text}");
    }
    assert!(pages >= 3, "60 boards take pages: {pages}");
    seen.sort();
    seen.dedup();
    assert_eq!(seen, (1..=60).collect::<Vec<u32>>());
    assert!(screen(&app).contains("ballot 1:"), "{}", screen(&app));
    // PgUp back to the top.
    scroll_until(&mut app, &clock, KeyCode::PageUp, "(0 above, ", 10);
    assert!(screen(&app).lines().any(|l| l.starts_with(">  1  ")));
    // The selected board stays in view as it moves down.
    type_text(&mut app, &clock, &"j".repeat(39));
    let text = screen(&app);
    assert!(text.lines().any(|l| l.starts_with("> 40  ")), "{text}");
    assert!(
        !scroll_marker(&text).unwrap().contains("(0 above, "),
        "{text}"
    );
    // The standings: every one of the 120 players on some page, the header kept.
    type_text(&mut app, &clock, "s");
    let names = |t: &str| -> Vec<String> {
        t.lines()
            .filter_map(|l| l.split_whitespace().nth(1))
            .filter(|n| n.starts_with('P') && n.len() == 4)
            .map(str::to_string)
            .collect()
    };
    let text = screen(&app);
    assert!(
        scroll_marker(&text).unwrap().contains("(0 above, "),
        "{text}"
    );
    let mut seen = names(&text);
    let mut pages = 0;
    while !scroll_marker(&screen(&app)).unwrap().contains(" 0 below") {
        feed(&mut app, &clock, [Msg::key(KeyCode::PageDown)]);
        let text = screen(&app);
        assert!(text.contains("place  name"), "the header stays:\n{text}");
        seen.extend(names(&text));
        pages += 1;
        assert!(pages < 12, "{text}");
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 120, "{seen:?}");
    // The keys are in the desk's help.
    type_text(&mut app, &clock, "?");
    let help = screen(&app);
    assert!(help.contains("PgUp, PgDn"), "{help}");
}

/// A board whose match another crossboard holds gets the question every reopening asks (the
/// same as the resume list's and `crossboard resume`'s): a read-only look, and back to the desk.
#[test]
fn a_board_whose_match_another_crossboard_holds_is_looked_at_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    set_up(&mut app, &clock);
    type_text(&mut app, &clock, "pP");
    assert!(matches!(app.screen, Screen::Match(_)), "{}", screen(&app));
    let file = dir.path().join(format!(
        "matches/club-open-open-r1-b1.{}",
        crossboard::store::EXTENSION
    ));
    let before = std::fs::read(&file).unwrap();
    // A second desk on the same database while the first holds the board's match.
    let mut second = desk_app(dir.path(), &clock, 80, 24);
    type_text(&mut second, &clock, "\nP");
    let text = screen(&second);
    assert!(text.contains("Open in another crossboard"), "{text}");
    assert!(text.contains("v view read-only"), "{text}");
    type_text(&mut second, &clock, "v");
    let text = screen(&second);
    assert!(text.contains("READ-ONLY"), "{text}");
    type_text(&mut second, &clock, "q");
    assert!(
        matches!(second.screen, Screen::Desk(_)),
        "back on the desk:\n{}",
        screen(&second)
    );
    assert_eq!(std::fs::read(&file).unwrap(), before, "nothing written");
    // Asked again and cancelled: back on the desk too.
    type_text(&mut second, &clock, "P\x1b");
    assert!(
        matches!(second.screen, Screen::Desk(_)),
        "{}",
        screen(&second)
    );
}

/// `S` before round 1 says to pair first; after it, asks the paper (a paper it does not know
/// is asked again, saying so) and writes the round's four sheets on it into `exports/`.
#[test]
fn the_rounds_sheets_are_written_on_the_paper_asked() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    set_up(&mut app, &clock);
    type_text(&mut app, &clock, "S");
    let text = screen(&app);
    assert!(text.contains("pair a round first (p)"), "{text}");
    type_text(&mut app, &clock, "pS");
    let text = screen(&app);
    assert!(
        text.contains("Sheets of the round on which paper (a4, letter)"),
        "{text}"
    );
    type_text(&mut app, &clock, "a5\n");
    let text = screen(&app);
    assert!(
        text.contains("use a4 or letter") && text.contains("on which paper"),
        "{text}"
    );
    type_text(&mut app, &clock, "letter\n");
    let text = screen(&app);
    assert!(text.contains("round 1: wrote"), "{text}");
    for (kind, holds) in [
        ("pairings", "<h1>Pairings</h1>"),
        ("slips", "Result slip"),
        ("scoresheet", "Score sheet"),
        ("crosstable", "<table class=\"crosstable\">"),
    ] {
        let path = dir
            .path()
            .join(format!("exports/club-open-open-r1-{kind}.html"));
        let page =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(page.contains("@page{size:letter"), "{kind}: {page}");
        assert!(
            page.contains(holds) && page.contains("Ann"),
            "{kind}: {page}"
        );
    }
    // Three boards: three slips, three score sheets.
    let slips =
        std::fs::read_to_string(dir.path().join("exports/club-open-open-r1-slips.html")).unwrap();
    assert_eq!(slips.matches("class=\"slip\"").count(), 3, "{slips}");
}
