//! The 11-man atlas screen at 80x24: the list from the home screen, its filters, the main line
//! in review, a drill opened from either side, and the drill record (written, read back, shown;
//! a damaged file named, not a crash).

use crossboard::engine::Color;
use crossboard::openings::{Verdict, eleven_man_atlas};
use crossboard::tui::atlas_drill::note_in_file;
use crossboard::tui::atlas_record::{
    DrillEntry, DrillRecord, DrillResult, load_record, save_record,
};
use crossboard::tui::{
    App, AtlasScreen, FakeClock, Msg, Screen, TimeSource, render_text, test_app, type_text,
};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

fn atlas(app: &App) -> &AtlasScreen {
    match &app.screen {
        Screen::Atlas(a) => a,
        _ => panic!("not on the atlas:\n{}", render_text(app)),
    }
}

fn lines(app: &App) -> Vec<String> {
    render_text(app).lines().map(str::to_string).collect()
}

#[test]
fn the_atlas_lists_every_position_from_home_at_80x24() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "m");
    assert_eq!(atlas(&app).shown.len(), 2500);
    let text = lines(&app);
    assert_eq!(text.len(), 24);
    assert!(
        text[0].starts_with("11-man atlas . rows 1-19 of 2500 . filter: none"),
        "{text:#?}"
    );
    assert!(text[1].contains("id  removed  moves"), "{text:#?}");
    let e = &eleven_man_atlas()[0];
    let first = &text[2];
    assert!(first.starts_with("   1  11,28    8-11 24-19"), "{first}");
    assert!(first.contains(&e.verdict.to_string()), "{first}");
    assert!(
        text[21].starts_with("1: Remove 11 and 28; 8-11 24-19 . ballots"),
        "{text:#?}"
    );
    assert_eq!(
        text[23].trim_end(),
        "Enter line . r Red . w White . v verdict . x removed . m moves . ? help"
    );
    // Paging: the second page, the rows it shows named in the title.
    app.update(Msg::Key(KeyEvent::from(KeyCode::PageDown)), clock.now());
    let text = lines(&app);
    assert!(
        text[0].starts_with("11-man atlas . rows 20-38 of 2500"),
        "{text:#?}"
    );
    assert!(text[2].starts_with("  20  "), "{text:#?}");
}

#[test]
fn filters_by_verdict_removed_men_and_first_moves() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "mv");
    let lost_red = eleven_man_atlas()
        .iter()
        .filter(|e| e.verdict == Verdict::LostForRed)
        .count();
    assert_eq!(atlas(&app).shown.len(), lost_red);
    type_text(&mut app, &clock, "vvvv");
    let lost_white: Vec<u32> = eleven_man_atlas()
        .iter()
        .filter(|e| e.verdict == Verdict::LostForWhite)
        .map(|e| e.id)
        .collect();
    assert_eq!(atlas(&app).shown, lost_white);
    assert!(lines(&app)[0].contains("filter: lost for White"));
    // KingsRow's differences: each row marked.
    type_text(&mut app, &clock, "v");
    let text = lines(&app);
    assert!(text[0].contains("filter: KingsRow differs"), "{text:#?}");
    assert!(
        text[2].contains("* lost") || text[2].contains("* standard"),
        "{text:#?}"
    );
    // Removed men and first moves, typed: the men on 9 and 24 removed, Red's 10-14.
    type_text(&mut app, &clock, "cx9 24\nm10-14\n");
    let a = atlas(&app);
    assert!(!a.shown.is_empty());
    for &id in &a.shown {
        let p = crossboard::openings::eleven_man_position(id).unwrap();
        let fits = p.ballots.iter().any(|&n| {
            let b = crossboard::openings::Ballot::from_number(n).unwrap();
            b.removed() == (9, 24) && b.red_move_played().0 == (10, 14)
        });
        assert!(fits, "{id} {}", p.public_name);
    }
    let text = lines(&app);
    assert!(
        text[0].contains("filter: removed 9 24 . moves 10-14"),
        "{text:#?}"
    );
    // Nothing passes: said so, the keys kept.
    type_text(&mut app, &clock, "m\x15 21-17 21-17\n");
    let text = lines(&app);
    assert!(
        text.iter()
            .any(|l| l.contains("no position passes the filters")),
        "{text:#?}"
    );
    type_text(&mut app, &clock, "c");
    assert_eq!(atlas(&app).shown.len(), 2500);
}

#[test]
fn enter_opens_the_main_line_in_review_from_its_start() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "m\n");
    let Screen::Review(r) = &app.screen else {
        panic!("not in review:\n{}", render_text(&app));
    };
    assert_eq!(r.ply, 0);
    assert_eq!(r.game.moves(), eleven_man_atlas()[0].line.as_slice());
    assert!(
        r.title.starts_with("Atlas 1 · Remove 11 and 28"),
        "{}",
        r.title
    );
    type_text(&mut app, &clock, "q");
    atlas(&app);
}

#[test]
fn a_drill_puts_the_engine_on_the_other_side() {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    type_text(&mut app, &clock, "mw");
    let Screen::AtlasDrill(d) = &app.screen else {
        panic!("not drilling:\n{}", render_text(&app));
    };
    assert_eq!((d.id, d.side), (1, Color::White));
    let opponent = d.practice.engine.opponent.clone().unwrap();
    assert_eq!(opponent.color, Color::Red);
    assert!(
        render_text(&app).contains("drill: hold position 1 as White"),
        "{}",
        render_text(&app)
    );
}

fn entry(id: u32, side: Color, result: DrillResult) -> DrillEntry {
    DrillEntry {
        id,
        side,
        result,
        date: "2026-12-07".into(),
    }
}

#[test]
fn the_drill_record_round_trips_and_shows_in_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eleven-man-drill.toml");
    assert_eq!(load_record(&path).unwrap(), DrillRecord::default());
    let mut record = DrillRecord::default();
    record.note(entry(1, Color::Red, DrillResult::Lost));
    record.note(entry(1, Color::Red, DrillResult::Held));
    record.note(entry(1, Color::White, DrillResult::Held));
    record.note(entry(2, Color::White, DrillResult::Lost));
    save_record(&path, &record).unwrap();
    let back = load_record(&path).unwrap();
    assert_eq!(back, record);
    assert!(back.known(1) && !back.known(2));
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.screen = Screen::Atlas(Box::new(AtlasScreen::new(Some(path))));
    let text = lines(&app);
    assert!(text[2].trim_end().ends_with("known"), "{text:#?}");
    assert!(text[3].trim_end().ends_with("W lost"), "{text:#?}");
    assert!(
        text[21].starts_with("1: Remove 11 and 28; 8-11 24-19 . known: held as Red and White"),
        "{text:#?}"
    );
    // Not yet known: position 1 goes.
    type_text(&mut app, &clock, "k");
    assert_eq!(atlas(&app).shown.len(), 2499);
    assert_eq!(atlas(&app).shown[0], 2);
}

#[test]
fn a_damaged_drill_record_is_named_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eleven-man-drill.toml");
    std::fs::write(
        &path,
        "format-version = 1\n[[drill]]\nid = 1\nside = \"red\"\n",
    )
    .unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.screen = Screen::Atlas(Box::new(AtlasScreen::new(Some(path.clone()))));
    let text = render_text(&app);
    assert!(
        text.contains("drill record not read:") && text.contains("eleven-man-drill.toml"),
        "{text}"
    );
    assert_eq!(atlas(&app).shown.len(), 2500);
    // A drill ending now is not written over it.
    let said = note_in_file(&path, entry(1, Color::Red, DrillResult::Held));
    assert!(said.is_err());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "format-version = 1\n[[drill]]\nid = 1\nside = \"red\"\n"
    );
}
