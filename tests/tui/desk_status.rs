//! The desk's status line: a message naming a file keeps the file's name in view when the
//! path is long, and a long warning takes the rows it needs rather than being cut.

use super::desk::{desk_app, set_up};
use crossboard::tui::FakeClock;
use crossboard::tui::testing::{render_text, type_text};

/// A desk database deep in a folder tree: `e` and `S` name the file written, its name in
/// view at 80 and at 120 columns (a path is cut at its start, never at its end).
#[test]
fn the_export_messages_keep_the_file_name_of_a_long_path() {
    for width in [80, 120] {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir
            .path()
            .join("club-records-of-the-county-checkers-association/season-2026-2027/open");
        std::fs::create_dir_all(&deep).unwrap();
        let clock = FakeClock::new();
        let mut app = desk_app(&deep, &clock, width, 24);
        set_up(&mut app, &clock);
        type_text(&mut app, &clock, "e");
        let text = render_text(&app);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("club-open-open.html, .txt, .pdn") && flat.contains("PDN: no games"),
            "{width}: {text}"
        );
        type_text(&mut app, &clock, "pSa4\n");
        let text = render_text(&app);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("round 1: wrote")
                && flat.contains("club-open-open-r1-pairings.html and the slips"),
            "{width}: {text}"
        );
    }
}

/// A rematch warning too long for one row at 80 columns (long names) is shown whole above
/// the question, so that the director sees every repeat before answering.
#[test]
fn a_long_rematch_warning_is_shown_whole_before_the_question() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 80, 24);
    type_text(&mut app, &clock, "nClub Open\ndOpen swiss:3 2\na");
    for n in ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"] {
        type_text(&mut app, &clock, &format!("{n} Featherstonehaugh-Smythe\n"));
    }
    type_text(&mut app, &clock, "\x1bp1=j2=j==p");
    type_text(
        &mut app,
        &clock,
        "xBob Featherstonehaugh-Smythe, Dee Featherstonehaugh-Smythe\nsame club\n",
    );
    let text = render_text(&app);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "Dee Featherstonehaugh-Smythe and Ann Featherstonehaugh-Smythe already met in \
             round 1: y exchanges them anyway (logged)"
        ) && text.contains("Exchange them anyway (y/n): _")
            && !text.contains('…'),
        "{text}"
    );
}
