//! The prize list on the HTML crosstable (`event export --format html`) and the printed
//! crosstable sheet: each winner with place, points, amount and prize, names escaped,
//! provisional while rounds remain, and nothing for a division without prizes.

use crate::common::browser::{page_texts, print_to_pdf};
use crate::desk_cli::run;
use std::path::Path;

/// A name that is HTML: it must be printed as the text it is.
const MARKUP_NAME: &str = r#"<b>&"x"</b>"#;
const MARKUP_ESCAPED: &str = "&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;";

/// "Fall Open", division "Open": a Swiss of 2 two-game rounds of Ann Lee (1800), the player
/// named in HTML (1500), Cid Orr (1450) and Dee Fox (unrated).
fn four_players(db: &Path) {
    run(db, &["new", "Fall Open"]);
    run(
        db,
        &["division", "Fall Open", "Open", "--format", "swiss:2"],
    );
    for (name, rating) in [
        ("Ann Lee", Some("1800")),
        (MARKUP_NAME, Some("1500")),
        ("Cid Orr", Some("1450")),
        ("Dee Fox", None),
    ] {
        let mut add = vec!["player", "add", name];
        if let Some(r) = rating {
            add.extend(["--rating", r]);
        }
        run(db, &add);
    }
    run(db, &["enter", "Fall Open", "Open", "1", "2", "3", "4"]);
}

/// Pairs the next round and draws every game of it: the field stays level, whoever meets whom.
fn draw_round(db: &Path, round: u32) {
    run(db, &["pair", "Fall Open", "Open", "--seed", "1"]);
    for board in ["1", "2"] {
        run(
            db,
            &[
                "result",
                "Fall Open",
                "Open",
                &round.to_string(),
                board,
                "= =",
            ],
        );
    }
}

fn html(db: &Path) -> String {
    run(
        db,
        &[
            "export",
            "Fall Open",
            "Open",
            "--format",
            "html",
            "--out",
            "-",
        ],
    )
}

fn crosstable_sheet(db: &Path, round: &str) -> String {
    run(
        db,
        &[
            "sheets",
            "Fall Open",
            "Open",
            round,
            "--kind",
            "crosstable",
            "--paper",
            "a4",
            "--out",
            "-",
        ],
    )
}

/// The prize table's rows: (place, name, points, amount, prize), as the HTML writes them.
fn prize_rows(page: &str) -> Vec<[String; 5]> {
    let Some(start) = page.find("<table class=\"prizes\">") else {
        return Vec::new();
    };
    let table = &page[start..start + page[start..].find("</table>").unwrap()];
    let body = &table[table.find("<tbody>").unwrap()..];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            let cells: Vec<String> = row
                .split("</td>")
                .filter_map(|c| Some(c[c.find("<td")?..].split_once('>')?.1.to_string()))
                .collect();
            cells.try_into().unwrap()
        })
        .collect()
}

fn row(cells: [&str; 5]) -> [String; 5] {
    cells.map(String::from)
}

#[test]
fn the_html_crosstable_and_its_sheet_carry_the_prize_list_once_set() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    four_players(&db);
    draw_round(&db, 1);
    // A division without prizes: no prize list on the page or the sheet.
    for page in [html(&db), crosstable_sheet(&db, "1")] {
        assert!(
            !page.contains("Prizes") && !page.contains("<section"),
            "{page}"
        );
    }
    run(&db, &["prize", "Fall Open", "Open", "place", "100"]);
    run(&db, &["prize", "Fall Open", "Open", "place", "40"]);
    run(
        &db,
        &["prize", "Fall Open", "Open", "class", "1400-1599", "25"],
    );
    run(&db, &["prize", "Fall Open", "Open", "under", "1000", "10"]);
    // One round of two left: the list is there, marked provisional.
    let page = html(&db);
    assert!(page.contains("<strong>Provisional:</strong>"), "{page}");
    assert_eq!(prize_rows(&page).len(), 4, "{page}");

    draw_round(&db, 2);
    // Everyone on 2, level on every tie-break: places 1-4 in rating order. Largest first:
    // 100 to Ann, 40 to the 1500 player, the class prize (25) to Cid (the 1500 player holds a
    // place prize), under 1000 to no one. The place prizes, 140, are pooled with Dee (no
    // prize) and shared equally by three: 46.66 and 0.02 over, to the best-placed first.
    // Cid keeps the class prize: a prize of another kind is not pooled.
    let want = [
        row(["1-4", "Ann Lee", "2", "46.67", "1st place, shared by 3"]),
        row([
            "1-4",
            MARKUP_ESCAPED,
            "2",
            "46.67",
            "2nd place, shared by 3",
        ]),
        row(["1-4", "Cid Orr", "2", "25", "1st class 1400-1599"]),
        row(["1-4", "Dee Fox", "2", "46.66", "1st place, shared by 3"]),
    ];
    let final_sheet = crosstable_sheet(&db, "2");
    for page in [html(&db), final_sheet.clone()] {
        assert_eq!(prize_rows(&page), want, "{page}");
        assert!(!page.contains("Provisional"), "{page}");
        assert!(
            page.contains("Prizes of Open (ties on points shared equally)"),
            "{page}"
        );
        assert!(
            page.contains("Not won (no eligible player): 1st under 1000 10."),
            "{page}"
        );
        assert!(
            !page.contains(MARKUP_NAME),
            "a name printed as markup:\n{page}"
        );
    }
    // The crosstable of round 1 is not the final standings: no prize list beside it.
    assert!(prize_rows(&crosstable_sheet(&db, "1")).is_empty());

    // Printed: the prize list is on the sheet's paper.
    let path = dir.path().join("crosstable.html");
    std::fs::write(&path, &final_sheet).unwrap();
    let printed = page_texts(&print_to_pdf(&path)).concat();
    for (name, amount, prize) in [
        ("Ann Lee", "46.67", "1st place, shared by 3"),
        (MARKUP_NAME, "46.67", "2nd place, shared by 3"),
        ("Cid Orr", "25", "1st class 1400-1599"),
        ("Dee Fox", "46.66", "1st place, shared by 3"),
    ] {
        assert!(
            printed
                .lines()
                .any(|l| l.contains(name) && l.contains(amount) && l.contains(prize)),
            "{name}: {amount} {prize}\n{printed}"
        );
    }
}
