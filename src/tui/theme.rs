//! How things look: colours ([`Theme`]), glyphs (Unicode or ASCII) and the no-colour mode.
//!
//! Every style in the TUI comes from an [`Appearance`], so `--no-color` / `NO_COLOR` and
//! `--ascii` are honoured in one place: without colour, styles keep only modifiers (bold,
//! reversed, underlined), and every distinction also shows as a glyph.

use crate::engine::{Color as Side, Piece};
use crate::store::{Colour, Colours, Display, Named};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// Colours of the board and panels. Configurable (the config file's display settings map here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Background of the playing (dark) squares.
    pub dark_square: Color,
    /// Background of the unused (light) squares.
    pub light_square: Color,
    /// Red's pieces.
    pub red_piece: Color,
    /// White's pieces.
    pub white_piece: Color,
    /// Background of the squares of the last move.
    pub last_move: Color,
    /// Background of the legal destinations of the selected piece.
    pub target: Color,
    /// Background of the selected piece's square.
    pub selected: Color,
    /// Background of the keyboard cursor.
    pub cursor: Color,
    /// Square numbers.
    pub number: Color,
    /// Titles, the side to move, highlights in panels.
    pub accent: Color,
    /// Errors, warnings and a fallen flag.
    pub alert: Color,
    /// Secondary text (hints, key help).
    pub dim: Color,
}

impl Default for Theme {
    /// The colours of the config file's defaults (`[display.colours]` in `config.example.toml`).
    fn default() -> Theme {
        Theme::from_colours(&Colours::default())
    }
}

impl Theme {
    /// The theme for the config file's `[display.colours]`: pieces and squares as set; the
    /// highlight marks the last move, the selected piece and its destinations.
    pub fn from_colours(c: &Colours) -> Theme {
        let highlight = colour(c.highlight);
        Theme {
            dark_square: colour(c.dark_square),
            light_square: colour(c.light_square),
            red_piece: colour(c.red),
            white_piece: colour(c.white),
            last_move: highlight,
            target: highlight,
            selected: highlight,
            cursor: Color::Rgb(70, 130, 190),
            number: Color::Rgb(190, 170, 140),
            accent: Color::Yellow,
            alert: Color::LightRed,
            dim: Color::DarkGray,
        }
    }
}

/// A config colour as a terminal colour.
pub(super) fn colour(c: Colour) -> Color {
    match c {
        Colour::Rgb(r, g, b) => Color::Rgb(r, g, b),
        Colour::Indexed(i) => Color::Indexed(i),
        Colour::Named(n) => match n {
            Named::Black => Color::Black,
            Named::Red => Color::Red,
            Named::Green => Color::Green,
            Named::Yellow => Color::Yellow,
            Named::Blue => Color::Blue,
            Named::Magenta => Color::Magenta,
            Named::Cyan => Color::Cyan,
            Named::Gray => Color::Gray,
            Named::DarkGray => Color::DarkGray,
            Named::LightRed => Color::LightRed,
            Named::LightGreen => Color::LightGreen,
            Named::LightYellow => Color::LightYellow,
            Named::LightBlue => Color::LightBlue,
            Named::LightMagenta => Color::LightMagenta,
            Named::LightCyan => Color::LightCyan,
            Named::White => Color::White,
        },
    }
}

/// Glyphs for pieces and markers; kings differ from men by glyph, not only by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyphs {
    /// Red man, Red king, White man, White king.
    pub pieces: [&'static str; 4],
    /// An empty legal destination of the selected piece.
    pub target: &'static str,
    /// A marked square (e.g. a man removed by a ballot).
    pub removed: &'static str,
    /// A square captured by the last move.
    pub captured: &'static str,
    /// The side to move, in panels.
    pub to_move: &'static str,
    /// A fallen flag.
    pub flag: &'static str,
}

impl Glyphs {
    /// Unicode glyphs: ● ◉ for Red, ○ ◎ for White.
    pub const UNICODE: Glyphs = Glyphs {
        pieces: ["●", "◉", "○", "◎"],
        target: "•",
        removed: "×",
        captured: "∙",
        to_move: "▶",
        flag: "⚑",
    };
    /// ASCII glyphs: r R for Red, w W for White.
    pub const ASCII: Glyphs = Glyphs {
        pieces: ["r", "R", "w", "W"],
        target: "+",
        removed: "x",
        captured: ".",
        to_move: ">",
        flag: "!!",
    };

    /// The glyph of a piece.
    pub fn piece(&self, p: Piece) -> &'static str {
        let i = match p.color {
            Side::Red => 0,
            Side::White => 2,
        } + usize::from(p.king);
        self.pieces[i]
    }
}

/// Theme plus the terminal's abilities: the one source of every style and glyph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appearance {
    /// The colours, used only when `color` is on.
    pub theme: Theme,
    /// Whether to use colour (off with `--no-color` or `NO_COLOR`).
    pub color: bool,
    /// Whether to restrict output to ASCII (`--ascii`).
    pub ascii: bool,
}

impl Default for Appearance {
    fn default() -> Appearance {
        Appearance {
            theme: Theme::default(),
            color: true,
            ascii: false,
        }
    }
}

impl Appearance {
    /// The appearance for the given flags; `NO_COLOR` (set and non-empty) turns colour off.
    pub fn from_flags(ascii: bool, no_color: bool, no_color_env: Option<&str>) -> Appearance {
        let env_off = no_color_env.is_some_and(|v| !v.is_empty());
        Appearance {
            theme: Theme::default(),
            color: !(no_color || env_off),
            ascii,
        }
    }

    /// The appearance for the config file's display settings and the command-line flags: a
    /// mode is on when the file, the flag or (for no colour) `NO_COLOR` turns it on.
    pub fn from_config(
        display: &Display,
        ascii: bool,
        no_color: bool,
        no_color_env: Option<&str>,
    ) -> Appearance {
        Appearance {
            theme: Theme::from_colours(&display.colours),
            color: !no_color && display.use_colour(no_color_env),
            ascii: ascii || display.ascii,
        }
    }

    /// Plain, colourless, ASCII: what the snapshot tests of layout use.
    pub fn plain() -> Appearance {
        Appearance {
            theme: Theme::default(),
            color: false,
            ascii: true,
        }
    }

    /// The glyph set in use.
    pub fn glyphs(&self) -> &'static Glyphs {
        if self.ascii {
            &Glyphs::ASCII
        } else {
            &Glyphs::UNICODE
        }
    }

    /// A foreground colour, or nothing in no-colour mode.
    pub fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::new().fg(c)
        } else {
            Style::new()
        }
    }

    /// A background colour, or nothing in no-colour mode.
    pub fn bg(&self, c: Color) -> Style {
        if self.color {
            Style::new().bg(c)
        } else {
            Style::new()
        }
    }

    /// Titles and the side to move.
    pub fn accent(&self) -> Style {
        self.fg(self.theme.accent).add_modifier(Modifier::BOLD)
    }

    /// Errors, warnings, a fallen flag.
    pub fn alert(&self) -> Style {
        self.fg(self.theme.alert).add_modifier(Modifier::BOLD)
    }

    /// Secondary text.
    pub fn dim(&self) -> Style {
        if self.color {
            Style::new().fg(self.theme.dim)
        } else {
            Style::new()
        }
    }

    /// The colour of a side's pieces.
    pub fn side(&self, side: Side) -> Style {
        match side {
            Side::Red => self.fg(self.theme.red_piece),
            Side::White => self.fg(self.theme.white_piece),
        }
        .add_modifier(Modifier::BOLD)
    }

    /// `s` as shown: in ASCII ([`ascii_text`]) when `ascii`.
    pub fn text(&self, s: &str) -> String {
        if self.ascii {
            ascii_text(s)
        } else {
            s.to_string()
        }
    }

    /// The horizontal rule / border set: plain ASCII when `ascii`.
    pub fn border_set(&self) -> ratatui::symbols::border::Set<'static> {
        if self.ascii {
            ASCII_BORDER
        } else {
            ratatui::symbols::border::ROUNDED
        }
    }
}

/// The ASCII stand-in for a character (`·` -> `.`, `→` -> `>`, ...), `?` when there is none.
/// A half point has none in one character (`+` would read as a forfeit win): text that may
/// hold one goes through [`ascii_text`] before it is laid out, and a `½` that reaches a
/// drawn buffer shows as `?`.
pub(super) fn ascii_char(c: char) -> char {
    if c.is_ascii() {
        return c;
    }
    match c {
        '·' | '•' | '∙' | '…' => '.',
        '–' | '—' | '─' | '━' | '═' => '-',
        '│' | '┃' | '║' => '|',
        '→' | '▶' | '►' | '»' => '>',
        '←' | '◀' | '◄' | '«' => '<',
        '↑' | '▲' => '^',
        '↓' | '▼' => 'v',
        '×' | '✗' => 'x',
        '✓' | '✔' => 'v',
        '●' => 'r',
        '◉' => 'R',
        '○' => 'w',
        '◎' => 'W',
        '⚑' => '!',
        '“' | '”' | '„' => '"',
        '‘' | '’' => '\'',
        _ if c.is_alphabetic() => latin_base(c),
        _ if ('\u{2500}'..='\u{257f}').contains(&c) => '+',
        _ => '?',
    }
}

/// The base letter of an accented Latin letter (`é` -> `e`, `Ü` -> `U`), `?` for others.
fn latin_base(c: char) -> char {
    const TABLE: [(&str, char); 14] = [
        ("àáâãäåā", 'a'),
        ("ÀÁÂÃÄÅĀ", 'A'),
        ("çćč", 'c'),
        ("ÇĆČ", 'C'),
        ("èéêëē", 'e'),
        ("ÈÉÊËĒ", 'E'),
        ("ìíîïī", 'i'),
        ("ÌÍÎÏĪ", 'I'),
        ("ñń", 'n'),
        ("òóôõöøō", 'o'),
        ("ÒÓÔÕÖØŌ", 'O'),
        ("ùúûüū", 'u'),
        ("ÙÚÛÜŪ", 'U'),
        ("ýÿ", 'y'),
    ];
    TABLE
        .iter()
        .find(|(set, _)| set.contains(c))
        .map_or('?', |&(_, base)| base)
}

/// A string in ASCII: half points in the one ASCII form of the published tables (`2½` ->
/// `2.5`, `½` -> `0.5`: [`crate::publish::ascii_halves`]), other characters as
/// [`ascii_char`]. For text whose layout may change (it may grow).
pub fn ascii_text(s: &str) -> String {
    crate::publish::ascii_halves(s)
        .chars()
        .map(ascii_char)
        .collect()
}

/// A line in ASCII, span by span as [`ascii_text`] (styles kept).
pub(super) fn ascii_line(line: Line<'_>) -> Line<'static> {
    let spans: Vec<Span<'static>> = line
        .spans
        .into_iter()
        .map(|s| Span::styled(ascii_text(&s.content), s.style))
        .collect();
    Line {
        spans,
        style: line.style,
        alignment: line.alignment,
    }
}

/// Replace every non-ASCII symbol of a drawn buffer by its ASCII stand-in (the last step of a
/// frame in `--ascii` mode, so no screen can leak a Unicode character).
pub(super) fn asciify(buf: &mut ratatui::buffer::Buffer) {
    for cell in buf.content.iter_mut() {
        let sym = cell.symbol();
        if !sym.is_ascii() {
            let c = sym.chars().next().map_or(' ', ascii_char);
            cell.set_char(c);
        }
    }
}

/// Borders drawn with `+`, `-` and `|`.
pub(super) const ASCII_BORDER: ratatui::symbols::border::Set<'static> =
    ratatui::symbols::border::Set {
        top_left: "+",
        top_right: "+",
        bottom_left: "+",
        bottom_right: "+",
        vertical_left: "|",
        vertical_right: "|",
        horizontal_top: "-",
        horizontal_bottom: "-",
    };

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_env_turns_colour_off_only_when_non_empty() {
        assert!(!Appearance::from_flags(false, false, Some("1")).color);
        assert!(Appearance::from_flags(false, false, Some("")).color);
        assert!(Appearance::from_flags(false, false, None).color);
        assert!(!Appearance::from_flags(false, true, None).color);
    }

    #[test]
    fn kings_and_men_differ_by_glyph_in_both_sets() {
        for g in [Glyphs::UNICODE, Glyphs::ASCII] {
            let mut all = g.pieces.to_vec();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 4);
        }
        let king = Piece {
            color: Side::White,
            king: true,
        };
        assert_eq!(Glyphs::ASCII.piece(king), "W");
    }

    #[test]
    fn config_display_settings_map_onto_the_appearance() {
        let mut d = Display::default();
        assert_eq!(
            Appearance::from_config(&d, false, false, None),
            Appearance::default()
        );
        d.ascii = true;
        d.colours.dark_square = Colour::Indexed(22);
        d.colours.highlight = Colour::Named(Named::LightBlue);
        let a = Appearance::from_config(&d, false, false, None);
        assert!(a.ascii && a.color);
        assert_eq!(a.theme.dark_square, Color::Indexed(22));
        assert_eq!(a.theme.last_move, Color::LightBlue);
        assert!(!Appearance::from_config(&d, false, true, None).color);
        assert!(!Appearance::from_config(&d, false, false, Some("1")).color);
        d.no_color = true;
        assert!(!Appearance::from_config(&d, false, false, None).color);
    }

    #[test]
    fn ascii_stand_ins() {
        assert_eq!(ascii_text("Practice · 1½ → é"), "Practice . 1.5 > e");
        assert_eq!(ascii_text("1/½/0"), "1/0.5/0");
        assert_eq!(ascii_char('½'), '?', "no one-character stand-in for a half");
        assert_eq!(ascii_char('╭'), '+');
        assert_eq!(ascii_char('◎'), 'W');
    }

    #[test]
    fn no_colour_styles_carry_no_colour() {
        let a = Appearance::plain();
        assert_eq!(a.fg(Color::Red), Style::new());
        assert_eq!(a.side(Side::Red).fg, None);
    }
}
