//! Menus (arrow keys, shortcut letters, mouse), the help overlay, and the "window too small"
//! notice.

use super::game_screen::centered;
use crate::tui::keys::{Binding, DOWN, ENTER, ESC, F1, Key, SPACE, TAB, UP, help, lookup};
use crate::tui::theme::Appearance;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

/// One line of the help overlay: the key(s) and what they do. Screens produce these from
/// their binding tables ([`crate::tui::keys::help`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyHelp {
    /// The keys, as the help names them (`Enter, Space`).
    pub keys: String,
    /// What they do.
    pub text: String,
}

impl KeyHelp {
    /// A help line.
    pub fn new(keys: impl Into<String>, text: impl Into<String>) -> KeyHelp {
        KeyHelp {
            keys: keys.into(),
            text: text.into(),
        }
    }
}

/// A menu entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// Shortcut letter.
    pub key: char,
    /// What it says.
    pub label: String,
    /// A short explanation shown beside it.
    pub detail: String,
}

impl MenuItem {
    /// An entry.
    pub fn new(key: char, label: impl Into<String>, detail: impl Into<String>) -> MenuItem {
        MenuItem {
            key,
            label: label.into(),
            detail: detail.into(),
        }
    }
}

/// What the keys of a menu do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuAct {
    /// Highlight the entry above.
    Up,
    /// Highlight the entry below.
    Down,
    /// The first entry.
    First,
    /// The last entry.
    Last,
    /// Choose the highlighted entry.
    Choose,
}

/// The keys of every menu (an entry's own letter also chooses it).
pub static MENU_KEYS: &[Binding<MenuAct>] = &[
    Binding::new(&[UP, Key::Char('k')], MenuAct::Up, "the entry above"),
    Binding::new(
        &[DOWN, Key::Char('j'), TAB],
        MenuAct::Down,
        "the entry below",
    ),
    Binding::new(
        &[Key::Code(KeyCode::Home)],
        MenuAct::First,
        "the first entry",
    ),
    Binding::new(&[Key::Code(KeyCode::End)], MenuAct::Last, "the last entry"),
    Binding::new(
        &[ENTER, SPACE],
        MenuAct::Choose,
        "choose the highlighted entry",
    ),
];

/// A vertical menu with one highlighted entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    /// Title of the box.
    pub title: String,
    /// The entries.
    pub items: Vec<MenuItem>,
    /// The highlighted entry.
    pub selected: usize,
}

/// What a key did to a menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuOutcome {
    /// Not a menu key.
    Ignored,
    /// The highlight moved.
    Moved,
    /// An entry was chosen (Enter, its letter, or a click).
    Chosen(usize),
}

impl Menu {
    /// A menu with the first entry highlighted.
    pub fn new(title: impl Into<String>, items: Vec<MenuItem>) -> Menu {
        Menu {
            title: title.into(),
            items,
            selected: 0,
        }
    }

    /// Handle a key: the keys of [`MENU_KEYS`], or an entry's letter.
    pub fn key(&mut self, key: &KeyEvent) -> MenuOutcome {
        let n = self.items.len();
        if n == 0 {
            return MenuOutcome::Ignored;
        }
        match lookup(MENU_KEYS, key) {
            Some(MenuAct::Up) => {
                self.selected = (self.selected + n - 1) % n;
                MenuOutcome::Moved
            }
            Some(MenuAct::Down) => {
                self.selected = (self.selected + 1) % n;
                MenuOutcome::Moved
            }
            Some(MenuAct::First) => {
                self.selected = 0;
                MenuOutcome::Moved
            }
            Some(MenuAct::Last) => {
                self.selected = n - 1;
                MenuOutcome::Moved
            }
            Some(MenuAct::Choose) => MenuOutcome::Chosen(self.selected),
            None => match self
                .items
                .iter()
                .position(|i| Key::Char(i.key).matches(key))
            {
                Some(i) => {
                    self.selected = i;
                    MenuOutcome::Chosen(i)
                }
                None => MenuOutcome::Ignored,
            },
        }
    }

    /// The help lines of the menu: its keys, then each entry's letter.
    pub fn help(&self) -> Vec<KeyHelp> {
        let mut lines = help(MENU_KEYS);
        lines.extend(self.item_help());
        lines
    }

    /// The entries' letters (those that have one) as a key table (for
    /// [`check_chain`](crate::tui::keys::check_chain)).
    pub fn item_keys(&self) -> crate::tui::keys::Erased {
        self.items
            .iter()
            .filter(|i| i.key != ' ')
            .map(|i| (vec![Key::Char(i.key)], i.label.clone()))
            .collect()
    }

    /// One help line per entry: its letter and label.
    pub fn item_help(&self) -> Vec<KeyHelp> {
        self.items
            .iter()
            .map(|i| KeyHelp::new(i.key.to_string(), i.label.clone()))
            .collect()
    }

    /// The size the menu wants: (width, height) including its border.
    pub fn size(&self) -> (u16, u16) {
        let label_w = self
            .items
            .iter()
            .map(|i| i.label.chars().count())
            .max()
            .unwrap_or(0);
        let detail_w = self
            .items
            .iter()
            .map(|i| i.detail.chars().count())
            .max()
            .unwrap_or(0);
        let w = (label_w + detail_w + 8).max(self.title.chars().count() + 4);
        (w as u16 + 2, self.items.len() as u16 + 2)
    }

    /// The entry at a screen position, for a menu drawn in `area`.
    pub fn hit(&self, area: Rect, x: u16, y: u16) -> Option<usize> {
        let inner = Rect {
            x: area.x + 1,
            y: area.y + 1,
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(2),
        };
        if !inner.contains(ratatui::layout::Position { x, y }) {
            return None;
        }
        let i = (y - inner.y) as usize;
        let (start, shown) = self.window(usize::from(inner.height));
        (i < shown).then_some(start + i)
    }

    /// The entries shown in `height` rows: (the first, how many). All when they fit, else one
    /// row fewer (the marker's), scrolled to keep the highlighted entry in view.
    fn window(&self, height: usize) -> (usize, usize) {
        let len = self.items.len();
        let shown = super::scroll_room(len, height);
        let start = (self.selected + 1)
            .saturating_sub(shown)
            .min(len.saturating_sub(shown));
        (start, shown)
    }

    /// Draw in `area`; a title too long for the frame is shortened with the marker.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let title = super::fit_text(&self.title, Menu::title_room(area));
        self.render_titled(&title, area, buf, look);
    }

    /// The columns a title has in a menu drawn in `area` (the corners and a space each side
    /// of it are the frame's).
    pub fn title_room(area: Rect) -> usize {
        usize::from(area.width.saturating_sub(4))
    }

    /// Draw in `area` under `title` (made to fit [`Menu::title_room`]) instead of its own.
    pub fn render_titled(&self, title: &str, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let block = super::game_screen::framed(title, look.dim(), look);
        let inner = block.inner(area);
        block.render(area, buf);
        let label_w = self
            .items
            .iter()
            .map(|i| i.label.chars().count())
            .max()
            .unwrap_or(0);
        let width = usize::from(inner.width);
        let height = usize::from(inner.height);
        let (start, shown) = self.window(height);
        for (row, (i, item)) in self
            .items
            .iter()
            .enumerate()
            .skip(start)
            .take(shown)
            .enumerate()
        {
            let on = i == self.selected;
            let marker = if on { look.glyphs().to_move } else { " " };
            let style = if on {
                look.accent().add_modifier(Modifier::REVERSED)
            } else {
                ratatui::style::Style::new()
            };
            let line = Line::from(vec![
                Span::styled(format!("{marker} "), look.accent()),
                Span::styled(format!("{}", item.key), look.accent()),
                Span::raw("  "),
                Span::styled(format!("{:<label_w$}", item.label), style),
                Span::styled(format!("  {}", item.detail), look.dim()),
            ]);
            // Too wide for the box: the detail, then the label, cut with the marker.
            let line = super::fit_line(line, width);
            buf.set_line(inner.x, inner.y + row as u16, &line, inner.width);
        }
        if shown < self.items.len() {
            let (above, below) = (start, self.items.len() - start - shown);
            let more = super::fit_text(&format!("  {above} above, {below} below: ↑↓"), width);
            buf.set_string(inner.x, inner.y + shown as u16, more, look.dim());
        }
    }
}

/// The help overlay: the keys of the current screen, in a box over it. Long descriptions
/// wrap (never cut) to the width of the screen.
pub fn render_help(frame: &mut Frame, title: &str, keys: &[KeyHelp], look: &Appearance) {
    let area = frame.area();
    let key_w = keys
        .iter()
        .map(|k| k.keys.chars().count())
        .max()
        .unwrap_or(4);
    // Borders, a margin each side, the key column and two spaces.
    let text_w = (area.width as usize)
        .saturating_sub(4 + 1 + key_w + 2)
        .max(10);
    let mut lines: Vec<Line> = Vec::new();
    for k in keys {
        let mut parts = super::wrap(&k.text, text_w);
        if parts.is_empty() {
            parts.push(String::new());
        }
        for (i, part) in parts.into_iter().enumerate() {
            let keys = if i == 0 { k.keys.as_str() } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!(" {keys:<key_w$}"), look.accent()),
                Span::raw(format!("  {part}")),
            ]));
        }
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(closing_line(), look.dim())));
    let w = lines.iter().map(|l| l.width() as u16).max().unwrap_or(20) + 3;
    let h = lines.len() as u16 + 2;
    let r = centered(area, w, h);
    frame.render_widget(Clear, r);
    let block = super::game_screen::framed(&format!("Help: {title}"), look.accent(), look);
    frame.render_widget(Paragraph::new(lines).block(block), r);
}

/// What the keys of the open help overlay do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpAct {
    /// Close the help.
    Close,
}

/// The keys of the open help overlay (any other key is ignored while it is open).
pub static HELP_KEYS: &[Binding<HelpAct>] = &[Binding::new(
    &[Key::Char('?'), F1, ESC, Key::Char('q')],
    HelpAct::Close,
    "closes this help",
)];

/// What the keys every screen shares do (the app looks them up before the screen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalAct {
    /// Open the help overlay (`?` is text while a field takes text: F1 then).
    Help,
    /// Quit (a running game asks first).
    Quit,
}

/// The keys every screen shares: the footers say `? help` (`F1 help` while typing), the help
/// overlay's last line names Ctrl-C.
pub static GLOBAL_KEYS: &[Binding<GlobalAct>] = &[
    Binding::new(&[Key::Char('?'), F1], GlobalAct::Help, "help"),
    Binding::new(&[Key::Ctrl('c')], GlobalAct::Quit, "quits"),
];

/// The help overlay's last line, from [`HELP_KEYS`] and [`GLOBAL_KEYS`]: ` ?, F1, Esc, q
/// closes this help; Ctrl-C quits`.
pub fn closing_line() -> String {
    let (close, quit) = (&HELP_KEYS[0], &GLOBAL_KEYS[1]);
    format!(
        " {} {}; {} {}",
        close.label(),
        close.help,
        quit.label(),
        quit.help
    )
}

/// Rows the help overlay needs for `keys` on a screen `width` columns wide (borders included).
pub fn help_height(keys: &[KeyHelp], width: u16) -> usize {
    let key_w = keys
        .iter()
        .map(|k| k.keys.chars().count())
        .max()
        .unwrap_or(4);
    let text_w = (width as usize).saturating_sub(4 + 1 + key_w + 2).max(10);
    keys.iter()
        .map(|k| super::wrap(&k.text, text_w).len().max(1))
        .sum::<usize>()
        + 4
}

/// What is shown instead of the app below the minimum size.
pub fn render_too_small(frame: &mut Frame, need: (u16, u16)) {
    let area = frame.area();
    let text = vec![
        Line::from(format!("window too small (need {}x{})", need.0, need.1)),
        Line::from(format!("now {}x{}", area.width, area.height)),
    ];
    let h = 2.min(area.height);
    let r = Rect {
        x: area.x,
        y: area.y + (area.height - h) / 2,
        width: area.width,
        height: h,
    };
    frame.render_widget(
        Paragraph::new(text)
            .alignment(ratatui::layout::Alignment::Center)
            .wrap(Wrap { trim: true }),
        r,
    );
}
