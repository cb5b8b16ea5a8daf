//! "Resume a match" from the home screen: the saved matches of the data directory, most recent
//! first, unfinished ones marked; Enter reopens one with its clocks paused.

use super::persist::Saver;
use super::{MatchOptions, MatchScreen};
use crate::director::Phase;
use crate::store::matchfile::{MatchStore, list_matches};
use crate::tui::Msg;
use crate::tui::keys::{Binding, DOWN, ENTER, ESC, Key, UP, footer, help, lookup};
use crate::tui::screens::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use std::path::PathBuf;

/// One saved match as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedMatch {
    /// Its file.
    pub path: PathBuf,
    /// "Ann v Bob · ballot 2, game 1 · saved 2026-11-30 14:05", or why it cannot be read.
    pub label: String,
    /// Readable and not finished.
    pub unfinished: bool,
    /// Readable.
    pub readable: bool,
}

/// The list of saved matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumeScreen {
    /// The matches, most recently saved first, unreadable last.
    pub matches: Vec<SavedMatch>,
    /// The highlighted one.
    pub selected: usize,
    /// Where they were looked for.
    pub dir: Option<PathBuf>,
    /// Why the last attempt failed.
    pub message: Option<String>,
}

impl ResumeScreen {
    /// List the matches of `options.dir`.
    pub fn new(options: &MatchOptions) -> ResumeScreen {
        let mut matches = Vec::new();
        let mut message = None;
        match &options.dir {
            Some(dir) => match list_matches(dir) {
                Ok(list) => {
                    for l in list {
                        matches.push(match l.file {
                            Ok(f) => {
                                let m = &f.the_match;
                                let s = m.settings();
                                let at = match m.phase() {
                                    Phase::Finished => "finished".to_string(),
                                    _ => super::words::status(m),
                                };
                                SavedMatch {
                                    label: format!(
                                        "{} v {} · {at} · saved {}",
                                        s.players[0],
                                        s.players[1],
                                        f.saved_at.format("%Y-%m-%d %H:%M")
                                    ),
                                    unfinished: !f.is_finished(),
                                    readable: true,
                                    path: l.path,
                                }
                            }
                            Err(e) => SavedMatch {
                                label: format!("cannot be read: {e}"),
                                unfinished: false,
                                readable: false,
                                path: l.path,
                            },
                        });
                    }
                }
                Err(e) => message = Some(format!("{}: {e}", dir.display())),
            },
            None => message = Some("no data directory is known here: use --match FILE".into()),
        }
        ResumeScreen {
            selected: matches.iter().position(|m| m.unfinished).unwrap_or(0),
            matches,
            dir: options.dir.clone(),
            message,
        }
    }

    fn open(&mut self, ctx: &mut Ctx) -> Nav {
        let Some(entry) = self.matches.get(self.selected) else {
            return Nav::Stay;
        };
        match MatchStore::open(&entry.path) {
            Ok((store, file)) => {
                let wall = ctx.matches.wall();
                let s = MatchScreen::resume(file.the_match, Saver::File(store), ctx.now, wall);
                Nav::Goto(Box::new(Screen::Match(Box::new(s))))
            }
            Err(e) => {
                self.message = Some(e.to_string());
                Nav::Stay
            }
        }
    }
}

/// What the keys of the list of saved matches do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// The match above.
    Up,
    /// The match below.
    Down,
    /// Resume the highlighted match.
    Open,
    /// Back to the home screen.
    Back,
}

/// The keys of the list of saved matches.
pub static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[UP, Key::Char('k')],
        Act::Up,
        "the match above (most recently saved first)",
    ),
    Binding::new(&[DOWN, Key::Char('j')], Act::Down, "the match below"),
    Binding::new(
        &[ENTER],
        Act::Open,
        "resume it, clocks paused at the last move",
    )
    .footer("resume (clocks paused)"),
    Binding::new(&[ESC, Key::Char('q')], Act::Back, "back to the home screen").footer("back"),
];

impl ScreenState for ResumeScreen {
    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let Msg::Key(k) = msg else {
            return Nav::Stay;
        };
        let n = self.matches.len().max(1);
        match lookup(KEYS, k) {
            Some(Act::Up) => self.selected = (self.selected + n - 1) % n,
            Some(Act::Down) => self.selected = (self.selected + 1) % n,
            Some(Act::Open) => return self.open(ctx),
            Some(Act::Back) => return Nav::Pop,
            None => {}
        }
        Nav::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let buf = frame.buffer_mut();
        buf.set_line(
            area.x,
            area.y,
            &Line::from(Span::styled(" Resume a match ", look.accent())),
            area.width,
        );
        if let Some(d) = &self.dir {
            buf.set_string(area.x + 1, area.y + 1, d.display().to_string(), look.dim());
        }
        let mut y = area.y + 3;
        if self.matches.is_empty() {
            buf.set_string(area.x + 2, y, "No saved matches were found.", look.dim());
        }
        for (i, m) in self.matches.iter().enumerate() {
            if y + 3 >= area.bottom() {
                break;
            }
            let on = i == self.selected;
            let style = if on {
                look.accent().add_modifier(Modifier::REVERSED)
            } else if !m.readable {
                look.alert()
            } else if m.unfinished {
                ratatui::style::Style::new()
            } else {
                look.dim()
            };
            let name = m
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let line = Line::from(vec![
                Span::styled(if on { "> " } else { "  " }, look.accent()),
                Span::styled(name, style),
            ]);
            buf.set_line(area.x + 1, y, &line, area.width.saturating_sub(2));
            buf.set_line(
                area.x + 5,
                y + 1,
                &Line::from(Span::styled(m.label.clone(), look.dim())),
                area.width.saturating_sub(6),
            );
            y += 2;
        }
        if let Some(msg) = &self.message {
            buf.set_line(
                area.x + 1,
                area.bottom() - 2,
                &Line::from(Span::styled(msg.clone(), look.alert())),
                area.width.saturating_sub(2),
            );
        }
        buf.set_string(
            area.x + 1,
            area.bottom() - 1,
            format!("↑↓ choose · {} · ? help", footer(KEYS)),
            look.dim(),
        );
    }

    fn title(&self) -> String {
        "Resume a match".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        help(KEYS)
    }
}
