//! Tests of PDN writing and reading.

use super::read::clock_in_comment;
use super::*;

fn ok(text: &str) -> Vec<PdnGame> {
    read_pdn(text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn clock_text() {
    assert_eq!(format_clock(3_600_000), "1:00:00");
    assert_eq!(format_clock(59_999), "0:00:59");
    assert_eq!(format_clock(3_723_000), "1:02:03");
    assert_eq!(parse_clock("1:02:03"), Some(3_723_000));
    assert_eq!(parse_clock("2:03.5"), Some(123_500));
    assert_eq!(parse_clock("0:00:10.25"), Some(10_250));
    assert_eq!(parse_clock("1:xx:03"), None);
    assert_eq!(parse_clock(""), None);
    assert_eq!(
        clock_in_comment("[%clock w0:00:10 B0:00:03]", Color::Red),
        Some(3000)
    );
    assert_eq!(
        clock_in_comment("note [%clk 0:49:11] more", Color::White),
        Some(2_951_000)
    );
    assert_eq!(clock_in_comment("no clock here", Color::White), None);
}

#[test]
fn labels() {
    assert_eq!(move_label(Color::Red, 0), "1.");
    assert_eq!(move_label(Color::Red, 1), "1...");
    assert_eq!(move_label(Color::Red, 2), "2.");
    assert_eq!(move_label(Color::White, 0), "1...");
    assert_eq!(move_label(Color::White, 1), "2.");
}

#[test]
fn writes_roster_derived_tags_and_wrapped_moves() {
    let mut g = Game::new(
        Rules::English,
        Position::from_fen("B:W19,21-27,29-32:B1-10,12").unwrap(),
    );
    for m in ["10-14", "22-17", "9-13", "17x10", "7x14"] {
        g.play_text(m).unwrap();
    }
    let mut p = PdnGame::from_game(&g)
        .with_tag("Event", "Club \"open\"")
        .with_tag("Black", "Ann")
        .with_tag("White", "Bob")
        .with_tag("Ballot", "x");
    p.clocks = vec![Some(3_590_000), None, Some(3_500_999), None, None];
    p.result = PdnResult::Draw;
    let text = p.to_pdn();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], r#"[Event "Club \"open\""]"#);
    assert_eq!(lines[1], r#"[Site "?"]"#);
    assert_eq!(lines[2], r#"[Date "????.??.??"]"#);
    assert_eq!(lines[6], r#"[Result "1/2-1/2"]"#);
    assert_eq!(lines[7], r#"[GameType "21"]"#);
    assert_eq!(lines[8], r#"[SetUp "1"]"#);
    assert!(lines[9].starts_with("[FEN \"B:W19,21"), "{text}");
    assert_eq!(lines[10], r#"[Ballot "x"]"#);
    let flat = text.replace('\n', " ");
    assert!(
        flat.contains(
            "1. 10-14 {[%clock 0:59:50]} 1... 22-17 2. 9-13 {[%clock 0:58:20]} 2... 17x10 3. 7x14 1/2-1/2"
        ),
        "{text}"
    );
    let back = ok(&text);
    assert_eq!(
        back,
        vec![PdnGame {
            clocks: vec![Some(3_590_000), None, Some(3_500_000), None, None],
            ..p
        }]
    );
}

#[test]
fn long_games_wrap_under_80_columns() {
    let mut g = Game::standard();
    let mut n = 0;
    while g.result().is_none() && n < 60 {
        let mv = g.position().legal_moves()[n % 3 % g.position().legal_moves().len()];
        g.play(&mv).unwrap();
        n += 1;
    }
    let mut p = PdnGame::from_game(&g);
    p.clocks = (0..p.moves.len())
        .map(|i| Some(i as u64 * 61_000))
        .collect();
    let text = p.to_pdn();
    assert!(text.lines().all(|l| l.len() < 80), "{text}");
    assert!(text.lines().count() > 12);
    assert_eq!(ok(&text)[0], p);
}

#[test]
fn lenient_reading() {
    let text = "\u{feff}% a comment line\n[White \"W\"]\n[Black \"B\"]\n[FEN \"W:W21-32:B1-12.\"]\n\n1... 22-18! {good} 2.9-14 $1 (2. 10-14 {other} 18x9) 18x9 ; line comment\n2... 5x14 3. ... 25-22 *\n";
    let g = &ok(text)[0];
    assert_eq!(g.moves.len(), 5, "{g:?}");
    assert_eq!(g.start.turn(), Color::White);
    assert_eq!(g.tag("White"), Some("W"));
    assert_eq!(g.tags.len(), 2, "FEN is not kept as a tag");
    assert_eq!(g.result, PdnResult::Unfinished);
}

#[test]
fn bad_game_does_not_lose_the_others() {
    let text = "[Black \"A\"]\n[White \"B\"]\n1. 11-15 23-19 1-0\n\n[Black \"C\"]\n[White \"D\"]\n1. 11-15 23-19\n2. 9-14 19x10 0-1\n\n1. 9-13 22-18 2. 1115 *\n[Event \"no moves\"]\n";
    let games = read_pdn(text);
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].as_ref().unwrap().result, PdnResult::RedWins);
    let e = games[1].as_ref().unwrap_err();
    assert_eq!((e.game, e.line), (2, 8));
    let msg = e.to_string();
    assert!(
        msg.starts_with("game 2 (C vs D), line 8: move 2... 19x10"),
        "{msg}"
    );
    assert!(msg.contains("illegal"), "{msg}");
    let g = games[2].as_ref().unwrap();
    assert_eq!(g.moves.last().unwrap().to_string(), "11-15");
    assert!(games[3].as_ref().unwrap().moves.is_empty());
}

#[test]
fn bad_fen_and_gametype_are_reported() {
    let games = read_pdn(
        "[FEN \"B:W33:B1\"]\n1. 1-5 *\n[GameType \"20\"]\n1. 32-28 *\n[GameType \"21,B,8,8,N2,0\"]\n1. 11-15 *",
    );
    assert!(matches!(
        *games[0].as_ref().unwrap_err().kind,
        PdnErrorKind::Fen { .. }
    ));
    assert!(matches!(
        *games[1].as_ref().unwrap_err().kind,
        PdnErrorKind::GameType(_)
    ));
    assert!(games[2].is_ok());
}

#[test]
fn bad_tag_is_reported() {
    let games = read_pdn("[Event \"unterminated\n1. 11-15 *\n[Event \"ok\"]\n1. 11-15 *\n");
    assert_eq!(games.len(), 2, "{games:?}");
    let e = games[0].as_ref().unwrap_err();
    assert!(matches!(*e.kind, PdnErrorKind::Tag(_)), "{e}");
    assert_eq!(e.line, 1);
    assert!(games[1].is_ok());
}

#[test]
fn quoted_fen_dotted_fen_crlf_and_glued_numbers() {
    let text = "[Event \"CRLF\"]\r\n[FEN \"\\\"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29.\\\"\"]\r\n\r\n1.16-19 10-6 2.25-21 *\r\n";
    let g = &ok(text)[0];
    assert_eq!(g.tag("Event"), Some("CRLF"));
    assert_eq!(
        g.start.to_fen(),
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
    );
    assert_eq!(g.moves.len(), 3);
    // Written back, the FEN is canonical and unquoted.
    assert!(
        g.to_pdn()
            .contains("[FEN \"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"]")
    );
}

#[test]
fn result_tag_and_terminator() {
    let g = &ok("[Result \"0-1\"]\n1. 11-15 *")[0];
    assert_eq!(g.result, PdnResult::WhiteWins);
    let g = &ok("[Result \"*\"]\n1. 11-15 1/2-1/2")[0];
    assert_eq!(g.result, PdnResult::Draw);
    let g = &ok("1. 11-15 2-0")[0];
    assert_eq!(g.result, PdnResult::RedWins);
}
