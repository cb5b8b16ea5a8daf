//! `crossboard diagram` on the real binary: the SVG byte for byte, the PNG's size and pixels,
//! positions from PDN and match files, and every refusal writing nothing.

use crossboard::engine::Position;
use crossboard::publish::{BoardSvgOptions, board_svg};
use resvg::tiny_skia::Pixmap;
use std::path::Path;

/// A middle game: a king each side (Red's on 14, White's on 7), men of both, White to move.
const MIDDLE_GAME: &str = "W:W21,22,23,K7,30:B1,2,3,K14,11,16";

use super::{crossboard, fixture};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs a command that must fail: its message contains `says`, and `dir` is as it was.
fn refused(dir: &Path, args: &[&str], says: &str) {
    let before = listing(dir);
    let out = crossboard(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
    assert_eq!(listing(dir), before, "{args:?} wrote something");
}

#[test]
fn the_svg_of_a_fixed_position_is_the_stored_file_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("middle.svg");
    let run = crossboard(&[
        "diagram",
        "--fen",
        MIDDLE_GAME,
        "--numbers",
        "--caption",
        "Smith v Jones, game 2",
        "--out",
        s(&out),
    ]);
    assert!(run.status.success(), "{run:?}");
    let written = std::fs::read_to_string(&out).unwrap();
    let stored = std::fs::read_to_string(fixture("diagram/middle_game.svg")).unwrap();
    assert_eq!(written, stored);
    // The command draws with the library's one renderer.
    let position: Position = MIDDLE_GAME.parse().unwrap();
    let options = BoardSvgOptions {
        numbers: true,
        caption: Some("Smith v Jones, game 2".into()),
        ..BoardSvgOptions::default()
    };
    assert_eq!(written, board_svg(&position, &options));
}

/// The colour of the pixel under a point of the drawing (its 512-unit-wide coordinates) in a
/// picture `width` pixels wide.
fn pixel(p: &Pixmap, x: f32, y: f32) -> (u8, u8, u8) {
    let scale = p.width() as f32 / 512.0;
    let c = p
        .pixel((x * scale) as u32, (y * scale) as u32)
        .expect("inside the picture");
    (c.red(), c.green(), c.blue())
}

fn near(got: (u8, u8, u8), want: (u8, u8, u8)) -> bool {
    let d = |a: u8, b: u8| a.abs_diff(b) <= 4;
    d(got.0, want.0) && d(got.1, want.1) && d(got.2, want.2)
}

/// The centre of a square's cell, in drawing units, with White at the bottom (the board's
/// top-left corner is at 16, 46; a cell is 60 units).
fn centre(row: f32, col: f32) -> (f32, f32) {
    (16.0 + col * 60.0 + 30.0, 46.0 + row * 60.0 + 30.0)
}

#[test]
fn the_png_has_its_size_and_its_squares_pieces_and_kings_where_they_belong() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("middle.png");
    let run = crossboard(&[
        "diagram",
        "--fen",
        MIDDLE_GAME,
        "--size",
        "400",
        "--out",
        s(&out),
    ]);
    assert!(run.status.success(), "{run:?}");
    let png = Pixmap::decode_png(&std::fs::read(&out).unwrap()).unwrap();
    // 512 x 602 units (board, the sides' names, the turn) at 400 pixels wide.
    assert_eq!((png.width(), png.height()), (400, 471));
    let light = (0xf3, 0xee, 0xdf);
    let dark = (0x7c, 0x9a, 0x6e);
    let red = (0xa8, 0x20, 0x1a);
    let white = (0xfb, 0xfa, 0xf4);
    let gold = (0xff, 0xd2, 0x3f);
    let ink = (0x2b, 0x2b, 0x2b);
    let at = |(x, y): (f32, f32)| pixel(&png, x, y);
    // Top-left corner: a light square; square 5 below it: an empty dark square.
    assert!(
        near(at(centre(0.0, 0.0)), light),
        "{:?}",
        at(centre(0.0, 0.0))
    );
    assert!(
        near(at(centre(1.0, 0.0)), dark),
        "{:?}",
        at(centre(1.0, 0.0))
    );
    // A Red man on 1 (row 0, column 1), a White man on 21 (row 5, column 0).
    assert!(
        near(at(centre(0.0, 1.0)), red),
        "{:?}",
        at(centre(0.0, 1.0))
    );
    assert!(
        near(at(centre(5.0, 0.0)), white),
        "{:?}",
        at(centre(5.0, 0.0))
    );
    // The kings' crowns (a little below the centre): gold on Red's on 14 (row 3, column 2),
    // dark on White's on 7 (row 1, column 4); beside the crown, the piece's own colour.
    let crown = |(x, y): (f32, f32)| (x, y + 4.0);
    let beside = |(x, y): (f32, f32)| (x - 20.0, y);
    assert!(
        near(at(crown(centre(3.0, 2.0))), gold),
        "{:?}",
        at(crown(centre(3.0, 2.0)))
    );
    assert!(
        near(at(crown(centre(1.0, 4.0))), ink),
        "{:?}",
        at(crown(centre(1.0, 4.0)))
    );
    assert!(near(at(beside(centre(3.0, 2.0))), red));
    assert!(near(at(beside(centre(1.0, 4.0))), white));
    // A man has no crown: its centre is its colour.
    assert!(near(at(centre(2.0, 5.0)), red), "man on 11");
}

#[test]
fn flipped_red_is_at_the_bottom() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flipped.png");
    let run = crossboard(&["diagram", "--fen", MIDDLE_GAME, "--flip", "--out", s(&out)]);
    assert!(run.status.success(), "{run:?}");
    let png = Pixmap::decode_png(&std::fs::read(&out).unwrap()).unwrap();
    // Square 1 (Red's man) is now in the bottom row, second cell from the right.
    let (x, y) = centre(7.0, 6.0);
    assert!(
        near(pixel(&png, x, y), (0xa8, 0x20, 0x1a)),
        "{:?}",
        pixel(&png, x, y)
    );
    let (x, y) = centre(0.0, 1.0);
    assert!(
        near(pixel(&png, x, y), (0x7c, 0x9a, 0x6e)),
        "square 32, empty"
    );
}

#[test]
fn both_pictures_at_once_from_a_pdn_game_and_ply_with_the_players_and_the_move() {
    let dir = tempfile::tempdir().unwrap();
    let (svg, png) = (dir.path().join("d.svg"), dir.path().join("d.PNG"));
    let pdn = fixture("pdn/loy_chinook_1991.pdn");
    let run = crossboard(&[
        "diagram",
        "--pdn",
        s(&pdn),
        "--game",
        "1",
        "--ply",
        "31",
        "--out",
        s(&svg),
        "--out",
        s(&png),
    ]);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains(">Loy, Jim v Chinook, after 16. 20x27</text>"),
        "{text}"
    );
    assert!(text.contains(">White to play</text>"), "{text}");
    // The last move's squares are framed: dashed where it started.
    assert_eq!(text.matches("stroke-dasharray").count(), 2);
    assert!(Pixmap::decode_png(&std::fs::read(&png).unwrap()).is_ok());
    // Ply 0 is the start; "" leaves the caption out.
    let start = dir.path().join("start.svg");
    let run = crossboard(&[
        "diagram",
        "--pdn",
        s(&pdn),
        "--ply",
        "0",
        "--caption",
        "",
        "--out",
        s(&start),
    ]);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&start).unwrap();
    assert_eq!(
        text,
        board_svg(&Position::start(), &BoardSvgOptions::default())
    );
}

#[test]
fn a_match_game_at_a_ply_and_past_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = super::cli::small_match(dir.path());
    let out = dir.path().join("m.svg");
    let run = crossboard(&[
        "diagram",
        "--match",
        s(&file),
        "--game",
        "2",
        "--ply",
        "3",
        "--out",
        s(&out),
    ]);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("Ann v Bob, after 2. ") || text.contains("Bob v Ann, after 2. "),
        "{text}"
    );
    std::fs::remove_file(&out).unwrap();
    let plies = crossboard(&["diagram", "--match", s(&file), "--game", "2", "-o", "-"]);
    assert!(plies.status.success());
    refused(
        dir.path(),
        &[
            "diagram",
            "--match",
            s(&file),
            "--game",
            "2",
            "--ply",
            "99",
            "--out",
            s(&out),
        ],
        "game 2 has 6 plies: --ply 99 is past its end",
    );
    refused(
        dir.path(),
        &[
            "diagram",
            "--match",
            s(&file),
            "--game",
            "4",
            "--out",
            s(&out),
        ],
        "has 3 games: there is no game 4",
    );
}

#[test]
fn bad_input_is_refused_with_its_reason_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let svg = d.join("x.svg");
    let pdn = fixture("pdn/loy_chinook_1991.pdn");
    refused(
        d,
        &["diagram", "--fen", "W:W21,xx:B1", "--out", s(&svg)],
        "the FEN does not read",
    );
    refused(
        d,
        &["diagram", "--pdn", s(&pdn), "--game", "2", "--out", s(&svg)],
        "has 1 game: there is no game 2 (the first is 1)",
    );
    refused(
        d,
        &["diagram", "--pdn", s(&pdn), "--game", "0", "--out", s(&svg)],
        "there is no game 0",
    );
    refused(
        d,
        &["diagram", "--pdn", s(&pdn), "--ply", "39", "--out", s(&svg)],
        "game 1 has 38 plies: --ply 39 is past its end",
    );
    refused(
        d,
        &[
            "diagram",
            "--fen",
            MIDDLE_GAME,
            "--out",
            s(&d.join("x.gif")),
        ],
        "a diagram is written as .svg or .png",
    );
    refused(
        d,
        &[
            "diagram",
            "--fen",
            MIDDLE_GAME,
            "--out",
            s(&d.join("none/x.svg")),
        ],
        "no folder",
    );
    refused(d, &["diagram", "--out", s(&svg)], "say which position");
    refused(
        d,
        &[
            "diagram",
            "--fen",
            MIDDLE_GAME,
            "--pdn",
            s(&pdn),
            "--out",
            s(&svg),
        ],
        "give one position only",
    );
    // A good first output is not written when the second is refused.
    refused(
        d,
        &[
            "diagram",
            "--fen",
            MIDDLE_GAME,
            "--out",
            s(&svg),
            "--out",
            s(&d.join("y.jpg")),
        ],
        "y.jpg: a diagram is written as .svg or .png",
    );
}

#[test]
fn an_output_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    // A PDN file that happens to be named like a picture.
    let input = dir.path().join("games.svg");
    std::fs::copy(fixture("pdn/loy_chinook_1991.pdn"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    refused(
        dir.path(),
        &["diagram", "--pdn", s(&input), "--out", s(&input)],
        "is the file the position is read from",
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
}
