//! The event log of the match in words (`L` on the match screen): every event with its time,
//! director decisions and notes marked, newest at the bottom, scrolled with the arrows.

use crate::director::Match;
use crate::publish::match_log_words as entries_text;
use crate::tui::keys::{Binding, DOWN, ESC, Key, UP, help, lookup};
use crate::tui::theme::Appearance;
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{centered, wrap};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The log popup: how far it is scrolled up from the newest entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogView {
    /// Entries hidden below the window (0: the newest is shown).
    pub back: usize,
}

/// What the keys of the log do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Older entries.
    Older,
    /// Newer entries.
    Newer,
    /// A page of older entries.
    PageOlder,
    /// A page of newer entries.
    PageNewer,
    /// Close the log.
    Close,
}

/// The keys of the log.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(&[UP, Key::Char('k')], Act::Older, "older entries"),
    Binding::new(&[DOWN, Key::Char('j')], Act::Newer, "newer entries"),
    Binding::new(
        &[Key::Code(KeyCode::PageUp)],
        Act::PageOlder,
        "a page older",
    ),
    Binding::new(
        &[Key::Code(KeyCode::PageDown)],
        Act::PageNewer,
        "a page newer",
    ),
    Binding::new(
        &[ESC, Key::Char('q'), Key::Char('L')],
        Act::Close,
        "close the log",
    ),
];

/// What a key did to the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogOutcome {
    /// Still open.
    Open,
    /// Closed.
    Closed,
    /// Not a key of the log.
    Ignored,
}

impl LogView {
    /// The help lines.
    pub fn help() -> Vec<KeyHelp> {
        help(KEYS)
    }

    /// Handle a key; `len` is the number of log lines.
    pub fn key(&mut self, key: &KeyEvent, len: usize) -> LogOutcome {
        let max = len.saturating_sub(1);
        match lookup(KEYS, key) {
            Some(Act::Older) => self.back = (self.back + 1).min(max),
            Some(Act::Newer) => self.back = self.back.saturating_sub(1),
            Some(Act::PageOlder) => self.back = (self.back + 10).min(max),
            Some(Act::PageNewer) => self.back = self.back.saturating_sub(10),
            Some(Act::Close) => return LogOutcome::Closed,
            None => return LogOutcome::Ignored,
        }
        LogOutcome::Open
    }

    /// Draw over the whole frame.
    pub fn render(&self, frame: &mut Frame, m: &Match, look: &Appearance) {
        let area = frame.area();
        let r = centered(
            area,
            area.width.saturating_sub(4),
            area.height.saturating_sub(2),
        );
        let inner_w = r.width.saturating_sub(4) as usize;
        let inner_h = r.height.saturating_sub(2) as usize;
        let mut lines: Vec<Line> = Vec::new();
        for (e, (text, marked)) in m.log().iter().zip(entries_text(m)) {
            let stamp = e.at.format("%H:%M:%S").to_string();
            let style = if marked {
                look.accent()
            } else {
                ratatui::style::Style::new()
            };
            for (i, part) in wrap(&text, inner_w.saturating_sub(10))
                .into_iter()
                .enumerate()
            {
                let t = if i == 0 { stamp.clone() } else { String::new() };
                lines.push(Line::from(vec![
                    Span::styled(format!("{t:<8}  "), look.dim()),
                    Span::styled(part, style),
                ]));
            }
        }
        let end = lines
            .len()
            .saturating_sub(self.back.min(lines.len().saturating_sub(1)));
        let start = end.saturating_sub(inner_h);
        let shown: Vec<Line> = lines[start..end].to_vec();
        frame.render_widget(Clear, r);
        let block = Block::new()
            .borders(Borders::ALL)
            .border_set(look.border_set())
            .border_style(look.accent())
            .title_top(Line::from(Span::styled(
                format!(" Event log ({} entries) ", m.log().len()),
                look.accent(),
            )))
            .title_bottom(Line::from(Span::styled(
                " ↑↓ PgUp PgDn scroll · Esc close ",
                look.dim(),
            )));
        frame.render_widget(Paragraph::new(shown).block(block), r);
    }
}
