//! A message with a way back: placeholders for screens not built yet, and errors.

use super::{Ctx, Nav, RenderCtx, ScreenState};
use crate::tui::Msg;
use crate::tui::keys::{Binding, ENTER, ESC, Key, help, lookup};
use crate::tui::widgets::centered;
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

/// A titled message; any of Enter, Esc or q goes home.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoticeScreen {
    /// Title.
    pub title: String,
    /// The message, one entry per paragraph.
    pub lines: Vec<String>,
}

impl NoticeScreen {
    /// A notice.
    pub fn new(title: impl Into<String>, lines: Vec<String>) -> NoticeScreen {
        NoticeScreen {
            title: title.into(),
            lines,
        }
    }
}

impl ScreenState for NoticeScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        vec![crate::tui::keys::erase(KEYS)]
    }

    fn update(&mut self, msg: &Msg, _ctx: &mut Ctx) -> Nav {
        match msg {
            Msg::Key(k) if lookup(KEYS, k).is_some() => Nav::Home,
            _ => Nav::Stay,
        }
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let mut lines: Vec<Line> = Vec::new();
        for l in &self.lines {
            lines.push(Line::from(l.clone()));
            lines.push(Line::from(""));
        }
        lines.push(Line::from(Span::styled(
            "Enter or Esc: back home",
            look.dim(),
        )));
        let r = centered(area, 64, lines.len() as u16 + 4);
        let block = Block::new()
            .borders(Borders::ALL)
            .border_set(look.border_set())
            .border_style(look.accent())
            .title_top(Line::from(Span::styled(
                format!(" {} ", self.title),
                look.accent(),
            )));
        frame.render_widget(
            Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
            r,
        );
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        help(KEYS)
    }
}

/// The one key of a notice: back home.
static KEYS: &[Binding<()>] = &[Binding::new(
    &[ENTER, ESC, Key::Char('q')],
    (),
    "back to the home screen",
)];
