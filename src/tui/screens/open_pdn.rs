//! Open a PDN file: type its path, pick a game, review it. Games that do not read are listed
//! with the reason (game number, line, what is wrong).

use super::review::ReviewScreen;
use super::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::store::{PdnError, PdnGame, read_pdn};
use crate::tui::Msg;
use crate::tui::keys::{BACKSPACE, Binding, ENTER, ESC, Key, footer, help, lookup};
use crate::tui::widgets::menu::{KeyHelp, MENU_KEYS, Menu, MenuItem, MenuOutcome};
use crate::tui::widgets::{centered, fit_tail, format_clock};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

/// The start of the list's title, before the file's path.
const GAMES_IN: &str = "Games in ";

/// The open-a-PDN screen.
#[derive(Clone, Debug)]
pub struct OpenPdnScreen {
    /// The path being typed.
    pub path: String,
    /// The games of the file read, once read.
    pub games: Option<Vec<Result<PdnGame, PdnError>>>,
    /// The list of games.
    pub menu: Menu,
    /// Why the file could not be read, or the chosen game refused.
    pub message: Option<String>,
    /// The file whose games are listed, as typed.
    file: String,
}

impl Default for OpenPdnScreen {
    fn default() -> OpenPdnScreen {
        OpenPdnScreen::new()
    }
}

impl OpenPdnScreen {
    /// An empty path field.
    pub fn new() -> OpenPdnScreen {
        OpenPdnScreen {
            path: String::new(),
            games: None,
            menu: Menu::new("Games", Vec::new()),
            message: None,
            file: String::new(),
        }
    }

    /// Read the PDN text of a file called `name` (a path, shown in titles).
    pub fn load_text(&mut self, name: &str, text: &str) {
        let games = read_pdn(text);
        let items = games
            .iter()
            .enumerate()
            .map(|(i, g)| match g {
                Ok(g) => MenuItem::new(' ', format!("{:>3}. {}", i + 1, describe(g)), ""),
                Err(e) => MenuItem::new(' ', format!("{:>3}. cannot read: {e}", i + 1), ""),
            })
            .collect();
        self.menu = Menu::new(format!("{GAMES_IN}{name}"), items);
        self.file = name.to_string();
        self.message = if games.is_empty() {
            Some(format!("{name} holds no games"))
        } else {
            None
        };
        self.games = Some(games);
    }

    fn open(&mut self) {
        let path = self.path.trim().to_string();
        if path.is_empty() {
            self.message = Some("type the path of a PDN file".into());
            return;
        }
        match std::fs::read(&path) {
            Ok(bytes) => self.load_text(&path, &crate::store::decode(&bytes)),
            Err(e) => self.message = Some(format!("cannot read {path}: {e}")),
        }
    }

    fn review(&mut self, i: usize) -> Nav {
        let Some(Some(entry)) = self.games.as_ref().map(|g| g.get(i)) else {
            return Nav::Stay;
        };
        let g = match entry {
            Ok(g) => g,
            Err(e) => {
                self.message = Some(e.to_string());
                return Nav::Stay;
            }
        };
        match review_of(g) {
            Ok(review) => Nav::Push(Box::new(Screen::Review(review))),
            Err(e) => {
                self.message = Some(e);
                Nav::Stay
            }
        }
    }
}

/// The review of a game read from PDN: its players, tags, clocks and times; `Err` when its
/// moves do not replay.
pub(super) fn review_of(g: &PdnGame) -> Result<ReviewScreen, String> {
    let game = g.replay().map_err(|e| e.to_string())?;
    let mut review = ReviewScreen::new(game, format!("Review · {}", describe(g)));
    review.players = [
        g.tag("Black").unwrap_or("").to_string(),
        g.tag("White").unwrap_or("").to_string(),
    ];
    review.info = ["Event", "Date", "Round", "Result"]
        .iter()
        .filter_map(|t| g.tag(t).map(|v| format!("{t:<6} {v}")))
        .collect();
    if g.tag("Result").is_none() {
        review.info.push(format!("Result {}", g.result.as_str()));
    }
    review.clocks = g
        .clocks
        .iter()
        .map(|c| c.map(|ms| format_clock(ms as i64)))
        .collect();
    review.spent = g.spent_ms();
    Ok(review)
}

/// "Black vs White  1-0  31 plies, 16 moves".
fn describe(g: &PdnGame) -> String {
    let b = g.tag("Black").unwrap_or("?");
    let w = g.tag("White").unwrap_or("?");
    format!(
        "{b} vs {w}  {}  {}",
        g.result.as_str(),
        crate::tui::widgets::plies_and_moves(g.moves.len(), g.start.turn())
    )
}

/// What the keys of the path field do (other characters are typed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathAct {
    /// Read the file.
    Open,
    /// Delete a character.
    Delete,
    /// Clear the path.
    Clear,
    /// Back to the home screen.
    Back,
}

/// The keys of the path field.
pub(crate) static PATH_KEYS: &[Binding<PathAct>] = &[
    Binding::new(&[ENTER], PathAct::Open, "open the file typed").footer("open"),
    Binding::new(&[BACKSPACE], PathAct::Delete, "delete a character"),
    Binding::new(&[Key::Ctrl('u')], PathAct::Clear, "clear the path"),
    Binding::new(&[ESC], PathAct::Back, "back to the home screen").footer("back"),
];

/// What the keys of the list of games do (the menu's keys choose a game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListAct {
    /// Back to the path.
    Back,
}

/// The keys of the list of games, besides the menu's.
pub(crate) static LIST_KEYS: &[Binding<ListAct>] =
    &[Binding::new(&[ESC, Key::Char('q')], ListAct::Back, "another file").footer("another file")];

impl ScreenState for OpenPdnScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        if self.games.is_some() {
            vec![
                crate::tui::keys::erase(LIST_KEYS),
                crate::tui::keys::erase(crate::tui::widgets::menu::MENU_KEYS),
                self.menu.item_keys(),
            ]
        } else {
            vec![crate::tui::keys::erase(PATH_KEYS)]
        }
    }

    fn update(&mut self, msg: &Msg, _ctx: &mut Ctx) -> Nav {
        let Msg::Key(k) = msg else {
            return Nav::Stay;
        };
        if self.games.is_some() {
            if let Some(ListAct::Back) = lookup(LIST_KEYS, k) {
                self.games = None;
                self.message = None;
                return Nav::Stay;
            }
            return match self.menu.key(k) {
                MenuOutcome::Chosen(i) => self.review(i),
                _ => Nav::Stay,
            };
        }
        match lookup(PATH_KEYS, k) {
            Some(PathAct::Back) => return Nav::Pop,
            Some(PathAct::Open) => self.open(),
            Some(PathAct::Delete) => {
                self.path.pop();
            }
            Some(PathAct::Clear) => self.path.clear(),
            None => {
                if let KeyCode::Char(c) = k.code
                    && !k
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                {
                    self.path.push(c);
                    self.message = None;
                }
            }
        }
        Nav::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        if self.games.is_some() {
            let (w, h) = self.menu.size();
            let r = centered(
                Rect {
                    height: area.height.saturating_sub(3),
                    ..area
                },
                w.min(area.width),
                h,
            );
            // The file's name is the end of its path: a path too long keeps it.
            let room = Menu::title_room(r).saturating_sub(GAMES_IN.chars().count());
            let title = format!("{GAMES_IN}{}", fit_tail(&self.file, room));
            self.menu.render_titled(&title, r, frame.buffer_mut(), look);
        } else {
            let r = centered(area, 70, 7);
            let block = Block::new()
                .borders(Borders::ALL)
                .border_set(look.border_set())
                .border_style(look.accent())
                .title_top(Line::from(Span::styled(" Open a PDN file ", look.accent())));
            let lines = vec![
                Line::from(Span::styled("Path of the file:", look.dim())),
                Line::from(Span::styled(
                    format!("{}_", self.path),
                    look.accent().add_modifier(Modifier::UNDERLINED),
                )),
                Line::from(""),
                Line::from(Span::styled("Enter opens it; Esc goes back", look.dim())),
            ];
            frame.render_widget(Paragraph::new(lines).block(block), r);
        }
        if let Some(m) = &self.message {
            let r = Rect {
                y: area.bottom().saturating_sub(3),
                height: 2,
                ..area
            };
            frame.render_widget(
                Paragraph::new(Line::from(Span::styled(m.clone(), look.alert())))
                    .wrap(Wrap { trim: true }),
                r,
            );
        }
        let hint = if self.games.is_some() {
            format!("↑↓ Enter review the game · {} · ? help", footer(LIST_KEYS))
        } else {
            format!("type the path · {} · F1 help", footer(PATH_KEYS))
        };
        frame
            .buffer_mut()
            .set_string(area.x + 1, area.bottom() - 1, hint, look.dim());
    }

    fn title(&self) -> String {
        "Open a PDN".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.games.is_some() {
            let mut lines = help(MENU_KEYS);
            lines.extend(help(LIST_KEYS));
            lines
        } else {
            let mut lines = vec![KeyHelp::new("letters", "type the path of the file")];
            lines.extend(help(PATH_KEYS));
            lines
        }
    }

    fn typing(&self) -> bool {
        self.games.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_games_and_errors() {
        let mut s = OpenPdnScreen::new();
        s.load_text(
            "t.pdn",
            "[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n[Black \"X\"]\n1. 11-14 *\n",
        );
        let games = s.games.as_ref().unwrap();
        assert_eq!(games.len(), 2);
        assert!(games[0].is_ok() && games[1].is_err());
        assert!(s.menu.items[0].label.contains("Ann vs Bob"));
        assert!(s.menu.items[1].label.contains("cannot read"));
    }
}
