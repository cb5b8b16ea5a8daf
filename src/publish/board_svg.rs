//! The board as an SVG picture: the one drawing of a position used by diagrams, web pages and
//! printed sheets.
//!
//! Pure: a position and options in, a string out. The same input gives the same bytes (integer
//! coordinates, a fixed order of elements), so a picture can be compared byte for byte.
//!
//! Drawn the way printed American checkers diagrams are: Red (the dark pieces, PDN's "Black")
//! at the top on squares 1-12, White at the bottom on 21-32, square 1 in the top-left playing
//! corner, the same view as the terminal board's standard orientation. Nothing is told by colour
//! alone: Red pieces are dark and White pieces light (apart in grey-scale too), kings carry a
//! drawn crown, the last move's squares a frame (solid where the piece went, dashed where it
//! came from), and the side to move is written out.

use crate::engine::{Color, Piece, Position, Square};
use std::fmt::Write;

/// How [`board_svg`] draws a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSvgOptions {
    /// The side at the bottom of the picture: White (the default) as in printed diagrams,
    /// Red to see the board from Red's side (turned half round).
    pub bottom: Color,
    /// Square numbers 1-32 in the corner of each playing square.
    pub numbers: bool,
    /// The last move's first and last squares, marked.
    pub last_move: Option<(Square, Square)>,
    /// The side to move written under the board ("Red to play").
    pub show_turn: bool,
    /// The game is over: this (its result) is written, and titles the picture, in place of
    /// the side to move.
    pub over: Option<String>,
    /// The sides' names above and below the board ("Red", "White").
    pub side_labels: bool,
    /// A line of text under the board (a diagram's caption).
    pub caption: Option<String>,
    /// The picture's width in pixels (its `width` attribute); the drawing itself is scalable
    /// (a `viewBox`), so this only sets the size it is shown at by default.
    pub size: u32,
}

impl Default for BoardSvgOptions {
    fn default() -> Self {
        BoardSvgOptions {
            bottom: Color::White,
            numbers: false,
            last_move: None,
            show_turn: true,
            over: None,
            side_labels: true,
            caption: None,
            size: 400,
        }
    }
}

/// The font asked for by every text of the picture: DejaVu Sans first (the font the PNG
/// rasteriser is given), then common fallbacks for browsers.
pub const BOARD_SVG_FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// One square's side in drawing units.
const CELL: i32 = 60;
/// The margin around the board.
const MARGIN: i32 = 16;
/// The height of one line of text (a side's name, the turn, the caption).
const LINE: i32 = 30;
/// The drawing's width: the board and its margins.
const WIDTH: i32 = 8 * CELL + 2 * MARGIN;
/// The caption's largest font size.
const CAPTION_FONT: i32 = 20;

const LIGHT_SQUARE: &str = "#f3eedf";
const DARK_SQUARE: &str = "#7c9a6e";
const RED_PIECE: &str = "#a8201a";
const WHITE_PIECE: &str = "#fbfaf4";
const INK: &str = "#111111";
const MARK: &str = "#ffd23f";

/// The position as a standalone SVG document (no external references), drawn as `options` say.
pub fn board_svg(position: &Position, options: &BoardSvgOptions) -> String {
    let mut d = Drawing::new(false);
    draw(&mut d, position, options);
    d.parts.into_iter().map(|p| p.svg).collect()
}

/// One part of [`board_svg_parts`]'s picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgPart {
    /// The part's name (its element's `data-part`), empty for a part that never changes with
    /// the position.
    pub key: String,
    /// Its drawing.
    pub svg: String,
}

/// The picture of [`board_svg`] cut into parts, for a page that redraws only the parts that
/// change: put together, the same drawing, the parts that change with the position marked by
/// a `data-part` attribute on their element: `title` (the `<title>`), `turn` (the side to
/// move), and for each playing square N `fN` (the last move's frame on it) and `pN` (its
/// piece), each a group, empty when the square has none.
pub fn board_svg_parts(position: &Position, options: &BoardSvgOptions) -> Vec<SvgPart> {
    let mut d = Drawing::new(true);
    draw(&mut d, position, options);
    d.parts
}

/// A drawing being made: its parts in order; with `marks`, each part that changes with the
/// position on its own, else all in one.
struct Drawing {
    marks: bool,
    parts: Vec<SvgPart>,
}

impl Drawing {
    fn new(marks: bool) -> Drawing {
        Drawing {
            marks,
            parts: Vec::new(),
        }
    }

    /// Where the fixed drawing goes on.
    fn out(&mut self) -> &mut String {
        if self.parts.last().is_none_or(|p| !p.key.is_empty()) {
            self.parts.push(SvgPart {
                key: String::new(),
                svg: String::new(),
            });
        }
        let last = self.parts.len() - 1;
        &mut self.parts[last].svg
    }

    /// The part `key`, drawn by `f`: with marks, a group of its own (even an empty one).
    fn part(&mut self, key: impl FnOnce() -> String, f: impl FnOnce(&mut String)) {
        if !self.marks {
            f(self.out());
            return;
        }
        let key = key();
        let mut svg = format!("<g data-part=\"{key}\">\n");
        f(&mut svg);
        svg.push_str("</g>\n");
        self.parts.push(SvgPart { key, svg });
    }
}

fn draw(d: &mut Drawing, position: &Position, options: &BoardSvgOptions) {
    let layout = Layout::of(options);
    layout.open(d, position, options);
    if options.side_labels {
        let (top, bottom) = match options.bottom {
            Color::White => (Color::Red, Color::White),
            Color::Red => (Color::White, Color::Red),
        };
        text_line(d.out(), layout.top_label_y, 18, "bold", top.name());
        text_line(d.out(), layout.bottom_label_y, 18, "bold", bottom.name());
    }
    draw_board(d, &layout, position, options);
    if options.show_turn {
        let turn = position.turn();
        d.part(
            || "turn".into(),
            |out| match &options.over {
                Some(over) => text_line(out, layout.turn_y, caption_font_size(over), "bold", over),
                None => draw_turn(out, layout.turn_y, turn),
            },
        );
    }
    if let Some(caption) = &options.caption {
        let size = caption_font_size(caption);
        text_line(d.out(), layout.caption_y, size, "normal", caption);
    }
    d.out().push_str("</svg>\n");
}

/// Where things go, in drawing units, from the top down.
struct Layout {
    top_label_y: i32,
    board_y: i32,
    bottom_label_y: i32,
    turn_y: i32,
    caption_y: i32,
    height: i32,
    bottom: Color,
}

impl Layout {
    fn of(options: &BoardSvgOptions) -> Layout {
        let labels = if options.side_labels { LINE } else { 0 };
        let mut y = MARGIN;
        let top_label_y = y + LINE - 9;
        y += labels;
        let board_y = y;
        y += 8 * CELL;
        let bottom_label_y = y + LINE - 6;
        y += labels;
        let turn_y = y + LINE - 6;
        if options.show_turn {
            y += LINE;
        }
        let caption_y = y + LINE - 6;
        if options.caption.is_some() {
            y += LINE;
        }
        Layout {
            top_label_y,
            board_y,
            bottom_label_y,
            turn_y,
            caption_y,
            height: y + MARGIN,
            bottom: options.bottom,
        }
    }

    /// The `<svg>` element, its title (for screen readers and tooltips) and background.
    fn open(&self, d: &mut Drawing, position: &Position, options: &BoardSvgOptions) {
        let size = options.size.max(1);
        let px_height = (u64::from(size) * self.height as u64).div_ceil(WIDTH as u64);
        let _ = writeln!(
            d.out(),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{px_height}\" \
             viewBox=\"0 0 {WIDTH} {}\" role=\"img\" font-family=\"{BOARD_SVG_FONT}\">",
            self.height
        );
        let mut title = match &options.over {
            Some(over) => over.clone(),
            None => format!("{} to play", position.turn().name()),
        };
        if let Some(caption) = &options.caption {
            title = format!("{caption}. {title}");
        }
        let title = format!("{}</title>\n", escape(&title));
        if d.marks {
            d.parts.push(SvgPart {
                key: "title".into(),
                svg: format!("<title data-part=\"title\">{title}"),
            });
        } else {
            let _ = write!(d.out(), "<title>{title}");
        }
        let _ = writeln!(
            d.out(),
            "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{}\" fill=\"#ffffff\"/>",
            self.height
        );
    }

    /// The top-left corner of a square's cell, as seen with `bottom` at the bottom.
    fn corner(&self, sq: Square) -> (i32, i32) {
        let (row, col) = (i32::from(sq.row()), i32::from(sq.col()));
        let (row, col) = match self.bottom {
            Color::White => (row, col),
            Color::Red => (7 - row, 7 - col),
        };
        (MARGIN + col * CELL, self.board_y + row * CELL)
    }
}

/// The squares, the last move's frames, the pieces and the numbers, inside a frame.
fn draw_board(d: &mut Drawing, layout: &Layout, position: &Position, options: &BoardSvgOptions) {
    let (x0, y0) = (MARGIN, layout.board_y);
    let out = d.out();
    let _ = writeln!(
        out,
        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\" fill=\"{LIGHT_SQUARE}\"/>",
        8 * CELL,
        8 * CELL
    );
    for sq in Square::all() {
        let (x, y) = layout.corner(sq);
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{DARK_SQUARE}\"/>"
        );
    }
    draw_frames(d, layout, options.last_move);
    for sq in Square::all() {
        let piece = position.piece_at(sq);
        if piece.is_none() && !d.marks {
            continue;
        }
        let (x, y) = layout.corner(sq);
        d.part(
            || format!("p{}", sq.number()),
            |out| {
                if let Some(piece) = piece {
                    draw_piece(out, x + CELL / 2, y + CELL / 2, piece);
                }
            },
        );
    }
    let out = d.out();
    if options.numbers {
        for sq in Square::all() {
            let (x, y) = layout.corner(sq);
            draw_number(out, x, y, sq);
        }
    }
    let _ = writeln!(
        out,
        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\" fill=\"none\" \
         stroke=\"{INK}\" stroke-width=\"3\"/>",
        8 * CELL,
        8 * CELL
    );
}

/// The last move's frames: the square it left first, then the one it reached; with marks, a
/// part for every square (the frames do not overlap: each is inside its square).
fn draw_frames(d: &mut Drawing, layout: &Layout, last_move: Option<(Square, Square)>) {
    if !d.marks {
        if let Some((from, to)) = last_move {
            draw_move_frame(d.out(), layout.corner(from), true);
            draw_move_frame(d.out(), layout.corner(to), false);
        }
        return;
    }
    for sq in Square::all() {
        let dashed = match last_move {
            Some((from, _)) if from == sq => Some(true),
            Some((_, to)) if to == sq => Some(false),
            _ => None,
        };
        d.part(
            || format!("f{}", sq.number()),
            |out| {
                if let Some(dashed) = dashed {
                    draw_move_frame(out, layout.corner(sq), dashed);
                }
            },
        );
    }
}

/// A frame inside a square of the last move: dark and light lines together (seen on any
/// square, in colour or grey), dashed on the square the piece left.
fn draw_move_frame(out: &mut String, (x, y): (i32, i32), dashed: bool) {
    let dash = if dashed {
        " stroke-dasharray=\"8 5\""
    } else {
        ""
    };
    for (inset, colour) in [(3, INK), (7, MARK)] {
        let side = CELL - 2 * inset;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{side}\" height=\"{side}\" fill=\"none\" \
             stroke=\"{colour}\" stroke-width=\"4\"{dash}/>",
            x + inset,
            y + inset
        );
    }
}

/// A piece: a disc with a ring (a checker seen from above); a king also carries a crown.
fn draw_piece(out: &mut String, cx: i32, cy: i32, piece: Piece) {
    let (fill, ring, crown) = match piece.color {
        Color::Red => (RED_PIECE, "#5e0f0b", MARK),
        Color::White => (WHITE_PIECE, "#8a8577", "#2b2b2b"),
    };
    let _ = writeln!(
        out,
        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"23\" fill=\"{fill}\" stroke=\"{INK}\" \
         stroke-width=\"2\"/>"
    );
    let _ = writeln!(
        out,
        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"17\" fill=\"none\" stroke=\"{ring}\" \
         stroke-width=\"2\"/>"
    );
    if piece.king {
        let points = [
            (-12, 9),
            (-14, -7),
            (-6, 1),
            (0, -11),
            (6, 1),
            (14, -7),
            (12, 9),
        ];
        let mut d = String::new();
        for (k, (dx, dy)) in points.iter().enumerate() {
            let cmd = if k == 0 { 'M' } else { 'L' };
            let _ = write!(d, "{cmd}{} {}", cx + dx, cy + dy);
        }
        let _ = writeln!(
            out,
            "<path d=\"{d}Z\" fill=\"{crown}\" stroke=\"{INK}\" stroke-width=\"1.5\" \
             stroke-linejoin=\"round\"/>"
        );
    }
}

/// A square's number in its top-left corner: white with a dark outline, readable on the
/// square and on a piece's edge alike.
fn draw_number(out: &mut String, x: i32, y: i32, sq: Square) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"#ffffff\" \
         stroke=\"{INK}\" stroke-width=\"2.5\" paint-order=\"stroke\">{}</text>",
        x + 3,
        y + 14,
        sq.number()
    );
}

/// The side to move: a small piece of its colour, then the words, the two about centred
/// (the words start a little left of the middle: they are 11 to 13 letters long).
fn draw_turn(out: &mut String, y: i32, turn: Color) {
    let fill = match turn {
        Color::Red => RED_PIECE,
        Color::White => WHITE_PIECE,
    };
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"8\" fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"2\"/>",
        WIDTH / 2 - 76,
        y - 7
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{y}\" font-size=\"20\" font-weight=\"bold\" fill=\"{INK}\">{} to \
         play</text>",
        WIDTH / 2 - 60,
        turn.name()
    );
}

/// A centred line of text at baseline `y`.
fn text_line(out: &mut String, y: i32, size: i32, weight: &str, text: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{y}\" font-size=\"{size}\" font-weight=\"{weight}\" \
         text-anchor=\"middle\" fill=\"{INK}\">{}</text>",
        WIDTH / 2,
        escape(text)
    );
}

/// The caption's font size: the largest (up to 20) at which it fits the width, taking a
/// letter as 0.58 em wide; never below 8.
fn caption_font_size(caption: &str) -> i32 {
    let letters = caption.chars().count().max(1) as i32;
    let fits = (WIDTH - 2 * MARGIN) * 100 / (letters * 58);
    fits.clamp(8, CAPTION_FONT)
}

/// `text` with the characters that mean something in XML written as entities.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0: shown as a space.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn middle_game() -> Position {
        // A king each side (Red's on 14, just come from 10; White's on 7), men of both, White
        // to move.
        "W:W21,22,23,K7,30:B1,2,3,K14,11,16".parse().unwrap()
    }

    #[test]
    fn start_position_is_byte_stable() {
        let svg = board_svg(&Position::start(), &BoardSvgOptions::default());
        assert_eq!(
            svg,
            board_svg(&Position::start(), &BoardSvgOptions::default())
        );
        insta::assert_snapshot!("start", svg);
    }

    #[test]
    fn middle_game_with_king_last_move_and_numbers_is_byte_stable() {
        let options = BoardSvgOptions {
            numbers: true,
            last_move: Some((Square::new(10).unwrap(), Square::new(14).unwrap())),
            caption: Some("Smith v Jones, game 2".into()),
            ..BoardSvgOptions::default()
        };
        let svg = board_svg(&middle_game(), &options);
        assert_eq!(svg, board_svg(&middle_game(), &options));
        // Two kings, two crowns; the last move's two squares framed (two lines each).
        assert_eq!(svg.matches("<path").count(), 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), 2);
        insta::assert_snapshot!("middle_game", svg);
    }

    #[test]
    fn the_parts_put_together_are_the_picture_with_the_changing_parts_marked() {
        let options = BoardSvgOptions {
            numbers: true,
            last_move: Some((Square::new(10).unwrap(), Square::new(14).unwrap())),
            ..BoardSvgOptions::default()
        };
        let parts = board_svg_parts(&middle_game(), &options);
        let whole: String = parts.iter().map(|p| p.svg.as_str()).collect();
        let unmarked = whole
            .replace(" data-part=\"title\"", "")
            .lines()
            .filter(|l| !l.starts_with("<g data-part=") && *l != "</g>")
            .map(|l| format!("{l}\n"))
            .collect::<String>();
        // The same elements as the picture; the frames are each in its square's part.
        let mut a: Vec<&str> = unmarked.lines().collect();
        let plain = board_svg(&middle_game(), &options);
        let mut b: Vec<&str> = plain.lines().collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        let keys: Vec<&str> = parts
            .iter()
            .map(|p| p.key.as_str())
            .filter(|k| !k.is_empty())
            .collect();
        assert_eq!(keys.len(), 1 + 32 + 32 + 1, "title, frames, pieces, turn");
        let part = |k: &str| &parts.iter().find(|p| p.key == k).unwrap().svg;
        assert!(part("p14").contains("<path"), "Red's king on 14");
        assert_eq!(part("p15"), "<g data-part=\"p15\">\n</g>\n");
        assert!(part("f10").contains("stroke-dasharray"));
        assert!(part("title").starts_with("<title data-part=\"title\">White to play"));
    }

    #[test]
    fn caption_is_escaped() {
        let options = BoardSvgOptions {
            caption: Some("A <b>&\"quoted\"</b> 'x'".into()),
            ..BoardSvgOptions::default()
        };
        let svg = board_svg(&Position::start(), &options);
        assert!(svg.contains("A &lt;b&gt;&amp;&quot;quoted&quot;&lt;/b&gt; &#39;x&#39;</text>"));
        assert!(!svg.contains("<b>"));
        assert!(!svg.contains("\"quoted\""));
    }

    #[test]
    fn red_at_the_bottom_turns_the_board_half_round() {
        let layout = Layout::of(&BoardSvgOptions::default());
        let flipped = Layout::of(&BoardSvgOptions {
            bottom: Color::Red,
            ..BoardSvgOptions::default()
        });
        let one = Square::new(1).unwrap();
        let last = Square::new(32).unwrap();
        assert_eq!(layout.corner(one), flipped.corner(last));
        // Square 1 is in the top row, the second cell from the left, as printed.
        assert_eq!(layout.corner(one), (MARGIN + CELL, layout.board_y));
        let svg = board_svg(
            &Position::start(),
            &BoardSvgOptions {
                bottom: Color::Red,
                ..BoardSvgOptions::default()
            },
        );
        let white_at = svg.find(">White</text>").unwrap();
        let red_at = svg.find(">Red</text>").unwrap();
        assert!(
            white_at < red_at,
            "White's name comes first, above the board"
        );
    }

    #[test]
    fn every_size_keeps_the_drawing_and_scales_the_height() {
        let small = board_svg(
            &Position::start(),
            &BoardSvgOptions {
                size: 256,
                ..BoardSvgOptions::default()
            },
        );
        assert!(small.contains("width=\"256\" height=\"301\" viewBox=\"0 0 512 602\""));
    }

    #[test]
    fn a_long_caption_gets_a_smaller_font() {
        assert_eq!(caption_font_size("Red to play"), 20);
        assert!(caption_font_size(&"x".repeat(80)) < 20);
        assert_eq!(caption_font_size(&"x".repeat(10_000)), 8);
    }
}
