//! `crossboard event sheets`: a round's pairings, result slips, score sheets and crosstable as
//! print-ready HTML (names escaped, the paper's `@page` size), refused for a round not paired
//! or onto the desk's database; then printed by headless Chromium: slips two to a page, none
//! split, on A4 and US Letter, and a crosstable of 40 players with no row cut across pages.

use crate::common::browser::{page_texts, pages, pdf_info, print_to_pdf};
use crate::desk_cli::{refused, run};
use std::path::Path;

/// A name that is HTML: it must be printed as the text it is.
const MARKUP_NAME: &str = r#"<b>&"x"</b>"#;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// "Spring Open" with a division "Open" (a Swiss of 5 two-game rounds) of `names`, round 1
/// paired with a seeded ballot.
fn paired_event(db: &Path, names: &[String]) {
    run(
        db,
        &[
            "new",
            "Spring Open",
            "--site",
            "Raleigh",
            "--start",
            "2026-05-15",
        ],
    );
    run(
        db,
        &["division", "Spring Open", "Open", "--format", "swiss:5"],
    );
    let mut enter = vec!["enter", "Spring Open", "Open"];
    enter.extend(names.iter().map(String::as_str));
    run(db, &enter);
    run(db, &["pair", "Spring Open", "Open", "--seed", "7"]);
}

/// 24 players, the first named in HTML: round 1 has 12 boards.
fn twelve_boards(db: &Path) {
    let mut names: Vec<String> = (1..=24).map(|k| format!("Player {k:02}")).collect();
    names[0] = MARKUP_NAME.into();
    paired_event(db, &names);
}

/// `event sheets Spring Open Open ROUND --kind KIND --paper PAPER --out -`.
fn sheet(db: &Path, round: &str, kind: &str, paper: &str) -> String {
    run(
        db,
        &[
            "sheets",
            "Spring Open",
            "Open",
            round,
            "--kind",
            kind,
            "--paper",
            paper,
            "--out",
            "-",
            "--desk-url",
            DESK,
        ],
    )
}

/// Where the sheets say serve answers (a documentation address).
const DESK: &str = "http://192.0.2.10:8080/";

/// Each player's code on their strip of the result slip with its QR code, and on the pairings
/// sheet, which is posted, only the form's address and its QR code: no player's code.
#[test]
fn the_slips_give_each_player_their_own_code_for_the_result_form() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    let names: Vec<String> = ["Ann Lee", "Bob Hart", "Cid Moss", "Dee Vance"]
        .map(String::from)
        .to_vec();
    paired_event(&db, &names);
    let slips = sheet(&db, "1", "slips", "a4");
    let pairings = sheet(&db, "1", "pairings", "a4");
    let codes = crossboard::store::BoardCodes::of_desk(&db).unwrap();
    for b in 1..=2 {
        for side in [
            crossboard::director::Player::First,
            crossboard::director::Player::Second,
        ] {
            let code = codes.floor_code("Spring Open", 1, 1, b, side);
            assert_eq!(
                slips.matches(&code).count(),
                1,
                "board {b} {side:?}: {slips}"
            );
            assert!(!pairings.contains(&code), "{code} on the posted sheet");
            assert_ne!(code, codes.code("Spring Open", 1, 1, b));
        }
    }
    assert_eq!(slips.matches("<svg").count(), 4, "a QR code a player");
    assert_eq!(
        slips.matches(" only: enter or confirm the result").count(),
        4
    );
    assert!(slips.contains("http://192.0.2.10:8080/result"), "{slips}");
    // A board laptop's command on its slip, whole: serve's address and the board's code.
    for b in 1..=2 {
        let join = format!(
            "crossboard --desk http://192.0.2.10:8080 --board-code {}",
            codes.code("Spring Open", 1, 1, b)
        );
        assert_eq!(slips.matches(&join).count(), 1, "{join}: {slips}");
    }
    assert_eq!(pairings.matches("<svg").count(), 1, "the form's QR code");
    assert!(
        pairings.contains("crossboard --desk http://192.0.2.10:8080 --board-code CODE"),
        "{pairings}"
    );
    assert!(
        pairings.contains("http://192.0.2.10:8080/result"),
        "{pairings}"
    );
}

/// Board number, first and second player of each board, as `event pairings` prints them.
fn boards(db: &Path) -> Vec<(u32, String, String)> {
    run(db, &["pairings", "Spring Open", "Open", "--round", "1"])
        .lines()
        .filter_map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let number = l.get(..3)?.trim().parse().ok()?;
            let cut = |a: usize, b: usize| chars[a..b.min(chars.len())].iter().collect::<String>();
            Some((number, cut(5, 33).trim().into(), cut(34, 62).trim().into()))
        })
        .collect()
}

#[test]
fn each_sheet_holds_the_rounds_boards_with_names_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    twelve_boards(&db);
    let boards = boards(&db);
    assert_eq!(boards.len(), 12, "{boards:?}");
    for kind in ["pairings", "slips", "scoresheet", "crosstable"] {
        for (paper, size) in [("a4", "size:A4"), ("letter", "size:letter")] {
            let html = sheet(&db, "1", kind, paper);
            assert!(html.starts_with("<!DOCTYPE html>"), "{kind}: {html}");
            assert!(html.contains(size), "{kind} on {paper}: {html}");
            assert!(!html.contains("<script"), "{kind}: {html}");
            assert!(!html.contains("<b>"), "{kind}: a name is markup:\n{html}");
            assert!(html.contains(&esc(MARKUP_NAME)), "{kind}: {html}");
            // No row cut across pages, the heading row on every page.
            assert!(
                html.contains("tr,.slip,.sheet{break-inside:avoid"),
                "{kind}"
            );
            assert!(html.contains("thead{display:table-header-group}"), "{kind}");
        }
    }
    let pairings = sheet(&db, "1", "pairings", "a4");
    assert_eq!(pairings.matches("<tr>").count(), 13, "{pairings}");
    for (n, first, second) in &boards {
        let row = format!(
            "<tr><td>{n}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">11-Man Ballot ",
            esc(first),
            esc(second)
        );
        assert!(pairings.contains(&row), "{row}:\n{pairings}");
    }
    assert!(pairings.contains("Red in game 1") && pairings.contains("White in game 1"));

    let slips = sheet(&db, "1", "slips", "a4");
    assert_eq!(slips.matches("class=\"slip\"").count(), 12, "{slips}");
    assert_eq!(
        slips.matches("class=\"page\"").count(),
        6,
        "two slips a page"
    );
    assert_eq!(slips.matches("Signature: ").count(), 24, "{slips}");
    assert_eq!(
        slips.matches("class=\"box\"").count(),
        12 * 2 * 3,
        "{slips}"
    );
    for (n, first, second) in &boards {
        // Game 2 reverses the colours of game 1.
        let games = format!(
            "<td>1</td><td class=\"n\">{a}</td><td class=\"n\">{b}</td>",
            a = esc(first),
            b = esc(second)
        );
        let reversed = format!(
            "<td>2</td><td class=\"n\">{b}</td><td class=\"n\">{a}</td>",
            a = esc(first),
            b = esc(second)
        );
        assert!(
            slips.contains(&format!("<strong>Board {n}</strong>")),
            "{n}"
        );
        assert!(slips.contains(&games) && slips.contains(&reversed), "{n}");
    }

    let score = sheet(&db, "1", "scoresheet", "a4");
    assert_eq!(
        score.matches("class=\"sheet\"").count(),
        12,
        "a sheet per board and ballot"
    );
    assert_eq!(score.matches("<h3>Game 1: ").count(), 12);
    assert_eq!(score.matches("<h3>Game 2: ").count(), 12);
    // Each game's moves table: 60 moves in two runs of 30 rows.
    assert_eq!(score.matches("<td class=\"no\">60</td>").count(), 24);
    assert!(
        score.contains("Set moves, played before the game: "),
        "{score}"
    );

    let cross = sheet(&db, "1", "crosstable", "a4");
    assert_eq!(
        cross.matches("<tr>").count(),
        25,
        "the heading and 24 players"
    );
    assert!(
        cross.contains("<thead><tr><th>#</th><th class=\"n\">Name</th>"),
        "{cross}"
    );
}

#[test]
fn a_sheet_of_no_round_or_of_no_kind_or_onto_the_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    twelve_boards(&db);
    let out = dir.path().join("slips.html");
    let out = out.to_str().unwrap();
    let before = std::fs::read(&db).unwrap();
    let base = ["sheets", "Spring Open", "Open"];
    for (args, said) in [
        (vec!["0", "--kind", "slips"], "round 0"),
        (vec!["2", "--kind", "slips"], "round 2 is not paired"),
        (
            vec!["1", "--kind", "slip"],
            "use pairings, slips, scoresheet or crosstable",
        ),
        (
            vec!["1", "--kind", "slips", "--paper", "a5"],
            "use a4 or letter",
        ),
    ] {
        let mut all = base.to_vec();
        all.extend(args.iter().copied());
        all.extend(["--out", out]);
        let err = refused(&db, &all);
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!Path::new(out).exists(), "{args:?} wrote a file");
    }
    let mut onto = base.to_vec();
    onto.extend(["1", "--kind", "slips", "--out", db.to_str().unwrap()]);
    let err = refused(&db, &onto);
    assert!(err.contains("is the desk's database"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "the database changed");
    let said = run(
        &db,
        &[&base[..], &["1", "--kind", "slips", "--out", out]].concat(),
    );
    assert_eq!(said.trim(), format!("wrote {out}"));
    assert!(
        std::fs::read_to_string(out)
            .unwrap()
            .contains("Result slip")
    );
}

/// The pairings sheet of a small round, as printed: the markup of its body.
#[test]
fn the_pairings_sheet_of_a_round() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    let names: Vec<String> = ["Ann Lee", "Bob Hart", "Cid Moss", "Dee Vance", "Eve Stone"]
        .map(String::from)
        .to_vec();
    paired_event(&db, &names);
    // The desk's key of the boards' codes, fixed: the codes as the desk prints them.
    std::fs::write(crossboard::store::codes_path(&db), "ab".repeat(32)).unwrap();
    let html = sheet(&db, "1", "pairings", "letter");
    let body = &html[html.find("<body>").unwrap()..];
    insta::assert_snapshot!(body.replace("><", ">\n<"));
}

/// Print `html` (written to `dir/name.html`) with Chromium: the PDF's path.
fn print(dir: &Path, name: &str, html: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.html"));
    std::fs::write(&path, html).unwrap();
    print_to_pdf(&path)
}

#[test]
fn twelve_slips_print_two_to_a_page_none_split_on_a4_and_letter() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    twelve_boards(&db);
    for (paper, size) in [("a4", "(A4)"), ("letter", "(letter)")] {
        let pdf = print(dir.path(), paper, &sheet(&db, "1", "slips", paper));
        assert!(pdf_info(&pdf, "Page size").contains(size), "{paper}");
        assert_eq!(pages(&pdf), 6, "{paper}: 12 slips, two to a page");
        for (k, text) in page_texts(&pdf).iter().enumerate() {
            // Each page holds two whole slips: boards 2k+1 and 2k+2, head to signatures.
            for board in [2 * k + 1, 2 * k + 2] {
                assert!(
                    text.contains(&format!("Board {board} ·")),
                    "{paper} page {}: board {board}\n{text}",
                    k + 1
                );
            }
            for (part, count) in [
                ("Result slip", 2),
                ("Points of the round", 2),
                ("Signature: ", 4),
            ] {
                assert_eq!(
                    text.matches(part).count(),
                    count,
                    "{paper} page {}: {part}\n{text}",
                    k + 1
                );
            }
        }
    }
}

/// 40 players with clubs long enough to wrap (each row two or three lines), three rounds
/// played: the crosstable after round 3.
fn forty_players(db: &Path) {
    run(db, &["new", "Spring Open", "--start", "2026-05-15"]);
    run(
        db,
        &["division", "Spring Open", "Open", "--format", "swiss:5"],
    );
    for k in 1..=40 {
        let club =
            format!("Club{k:02} Checkers and Draughts Association of the Far District End{k:02}");
        run(
            db,
            &["player", "add", &format!("Player {k:02}"), "--club", &club],
        );
    }
    let ids: Vec<String> = (1..=40).map(|k| k.to_string()).collect();
    let mut enter = vec!["enter", "Spring Open", "Open"];
    enter.extend(ids.iter().map(String::as_str));
    run(db, &enter);
    for round in 1..=3 {
        run(db, &["pair", "Spring Open", "Open", "--seed", "3"]);
        for board in 1..=20 {
            let result = ["1 2", "= =", "2 ="][board % 3];
            let (r, b) = (round.to_string(), board.to_string());
            run(db, &["result", "Spring Open", "Open", &r, &b, result]);
        }
    }
}

#[test]
fn a_crosstable_of_forty_players_prints_no_row_across_pages() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    forty_players(&db);
    for paper in ["a4", "letter"] {
        let pdf = print(dir.path(), paper, &sheet(&db, "3", "crosstable", paper));
        let texts = page_texts(&pdf);
        assert!(
            texts.len() >= 2,
            "{paper}: the table fits one page, the test proves nothing"
        );
        for (k, text) in texts.iter().enumerate() {
            assert!(
                text.contains("Name") && text.contains("Club") && text.contains("R3"),
                "{paper} page {}: no heading row\n{text}",
                k + 1
            );
        }
        for p in 1..=40 {
            // The row's first line (the name) and its last (the club's end) on one page.
            let name = format!("Player {p:02}");
            let end = format!("End{p:02}");
            let on: Vec<usize> = (0..texts.len())
                .filter(|&k| texts[k].contains(&name))
                .collect();
            assert_eq!(on.len(), 1, "{paper}: {name} on pages {on:?}");
            assert!(
                texts[on[0]].contains(&end) && texts[on[0]].contains(&format!("Club{p:02}")),
                "{paper}: the row of {name} is cut at the end of page {}:\n{}",
                on[0] + 1,
                texts[on[0]]
            );
        }
    }
}
