//! "Resume a match" from the home screen: the saved matches of the data directory, most recent
//! first, unfinished ones marked; Enter reopens one with its clocks paused.

use super::{MatchOptions, MatchScreen};
use crate::director::{Match, Phase};
use crate::store::atomic::LoadError;
use crate::store::matchfile::list_matches;
use crate::tui::Msg;
use crate::tui::keys::{Binding, DOWN, ENTER, ESC, Key, UP, footer, help, lookup};
use crate::tui::screens::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::wrap;
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

/// Where a saved match stands, in words: "ballot 2, game 1 being played", "finished".
fn where_text(m: &Match) -> String {
    match m.phase() {
        Phase::Finished => "finished".into(),
        Phase::ColourChoice { .. } => "choosing colours".into(),
        Phase::Draw { ballot } => format!("ballot {ballot} to draw"),
        Phase::Decide { ballot, .. } => format!("ballot {ballot} drawn, to accept or reject"),
        Phase::Ready { ballot, game } => format!("ballot {ballot}, game {game} to start"),
        Phase::Playing { ballot, game } => format!("ballot {ballot}, game {game} being played"),
    }
}

/// Why a match file cannot be read, without its path (the list shows the path after it).
fn reason(e: &LoadError) -> String {
    match e {
        LoadError::Io { source, .. } => source.to_string(),
        LoadError::Parse {
            line, key, message, ..
        } => {
            let at = if *line > 0 {
                format!("line {line}: ")
            } else {
                String::new()
            };
            let key = key
                .as_ref()
                .map(|k| format!("key `{k}`: "))
                .unwrap_or_default();
            format!("{at}{key}{message}")
        }
        LoadError::Newer {
            found, supported, ..
        } => format!(
            "written by a newer crossboard (format version {found}; this one reads up to \
             {supported})"
        ),
    }
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
                                SavedMatch {
                                    label: format!(
                                        "{} v {} · {} · saved {}",
                                        s.players[0],
                                        s.players[1],
                                        where_text(m),
                                        f.saved_at.format("%Y-%m-%d %H:%M")
                                    ),
                                    unfinished: !f.is_finished(),
                                    readable: true,
                                    path: l.path,
                                }
                            }
                            Err(e) => SavedMatch {
                                label: format!("cannot be read: {}", reason(&e)),
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
        match MatchScreen::open_saved(&entry.path, ctx.now, ctx.matches.wall()) {
            Ok(s) => Nav::Goto(Box::new(Screen::Match(Box::new(s)))),
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
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        vec![crate::tui::keys::erase(KEYS)]
    }

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
            let text = d.display().to_string();
            let w = area.width.saturating_sub(2) as usize;
            let n = text.chars().count();
            // A folder too long for the line keeps its end, marked.
            let shown = if n > w {
                let tail: String = text.chars().skip(n - w + 1).collect();
                format!("…{tail}")
            } else {
                text
            };
            buf.set_string(area.x + 1, area.y + 1, shown, look.dim());
        }
        let width = area.width.saturating_sub(6) as usize;
        let top = area.y + 3;
        // The message (why a match did not open) takes the rows it needs above the footer.
        let message = self
            .message
            .as_ref()
            .map(|m| wrap(m, area.width.saturating_sub(2) as usize))
            .unwrap_or_default();
        let bottom = area.bottom().saturating_sub(1 + message.len() as u16);
        if self.matches.is_empty() {
            buf.set_string(area.x + 2, top, "No saved matches were found.", look.dim());
        }
        // Each entry: what it is (or why it cannot be read), wrapped; then its file.
        let entries: Vec<Vec<String>> = self
            .matches
            .iter()
            .map(|m| {
                let mut lines = wrap(&m.label, width);
                // The folder is on top: the file's name is enough (the full path if not in it).
                let name = match (&self.dir, m.path.file_name()) {
                    (Some(d), Some(n)) if m.path.parent() == Some(d.as_path()) => {
                        n.to_string_lossy().into_owned()
                    }
                    _ => m.path.display().to_string(),
                };
                let mut path = wrap(&name, width.saturating_sub(4));
                // The path is the last line of the entry; a long one takes several.
                let last = path.pop().unwrap_or_default();
                lines.extend(path);
                lines.push(last);
                lines
            })
            .collect();
        let room = bottom.saturating_sub(top + 1) as usize;
        let height = |range: std::ops::Range<usize>| -> usize {
            entries[range].iter().map(|e| e.len() + 1).sum()
        };
        // Scroll so the selected entry is shown whole.
        let mut first = 0;
        while first < self.selected && height(first..self.selected + 1) > room {
            first += 1;
        }
        let mut y = top;
        if first > 0 {
            buf.set_string(
                area.x + 2,
                y.saturating_sub(1),
                format!("↑ {first} more above"),
                look.dim(),
            );
        }
        let mut shown_to = first;
        for (i, lines) in entries.iter().enumerate().skip(first) {
            if (y as usize) + lines.len() > (bottom as usize).saturating_sub(1) {
                break;
            }
            let m = &self.matches[i];
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
            for (j, text) in lines.iter().enumerate() {
                let last = j + 1 == lines.len();
                let marker = if on && j == 0 { "> " } else { "  " };
                let line = Line::from(vec![
                    Span::styled(marker, look.accent()),
                    Span::styled(text.clone(), if last { look.dim() } else { style }),
                ]);
                let x = if last { area.x + 5 } else { area.x + 1 };
                buf.set_line(x, y, &line, area.width.saturating_sub(x - area.x + 1));
                y += 1;
            }
            y += 1;
            shown_to = i + 1;
        }
        if shown_to < entries.len() {
            buf.set_string(
                area.x + 2,
                bottom.saturating_sub(1),
                format!("↓ {} more below", entries.len() - shown_to),
                look.dim(),
            );
        }
        for (i, part) in message.iter().enumerate() {
            buf.set_line(
                area.x + 1,
                bottom + i as u16,
                &Line::from(Span::styled(part.clone(), look.alert())),
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
