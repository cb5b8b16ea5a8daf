//! The tournament desk screen (home `t`): the events of the desk's database, then one event:
//! its divisions, the round's pairings with board numbers and states, a result in a few keys,
//! standings, the crosstable and the pairing explanation. Every change is one transaction in
//! the database (see [`crate::store::Desk`]) and is shown only once committed.

mod ask;
mod commands;
mod hall;
mod import;
pub(super) mod keys;
mod layout;
mod play;

use super::Msg;
use super::keys::{footer, help, lookup};
use super::screens::{Ctx, Nav, RenderCtx, ScreenState};
use super::theme::ascii_line;
use crate::event::{Action, Division, PlayerId};
use crate::store::{Desk, EventSummary, OpenEvent, default_db_path, slug};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{Scroll, scrolled};
use ask::Ask;
use keys::{ASK_KEYS, AskAct, KEYS, LIST_KEYS, ListAct, SCROLL_KEYS, page_of};
use layout::clip;
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::path::PathBuf;

/// What the event view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum View {
    /// The round's boards.
    Pairings,
    /// The standings.
    Standings,
    /// The crosstable.
    Crosstable,
    /// Why the selected board is paired so.
    Why,
}

/// The desk screen.
pub struct DeskScreen {
    desk: Option<Desk>,
    events: Vec<EventSummary>,
    selected: usize,
    open: Option<OpenEvent>,
    division: usize,
    board: usize,
    view: View,
    ask: Option<(Ask, String)>,
    status: String,
    exports: PathBuf,
    /// The board being played on crossboard (division, round, board, match file): its results
    /// are read back from the match file when the match screen closes.
    playing: Option<(usize, u32, u32, PathBuf)>,
    /// Rows of the body scrolled out of view above (below its head, which stays).
    scroll: usize,
    /// The page the last key asks for (-1 up, 1 down).
    page: isize,
    /// Characters of the crosstable scrolled out of view to the left (behind its names).
    hscroll: usize,
    /// The sideways step the last key asks for (-1 left, 1 right).
    pan: isize,
}

/// What the desk shows above its status line: the lines, how many of them stay at the top
/// (title, event, the table's column header), and the line of the selection (kept in view).
struct Body {
    lines: Vec<Line<'static>>,
    head: usize,
    focus: Option<usize>,
}

impl DeskScreen {
    /// The desk on the database of the data folder (or `path`).
    pub fn new(path: Option<PathBuf>) -> DeskScreen {
        let path = path.or_else(default_db_path);
        let exports = path
            .as_ref()
            .and_then(|p| p.parent().map(|d| d.join("exports")))
            .unwrap_or_else(|| PathBuf::from("."));
        let mut s = DeskScreen {
            desk: None,
            events: Vec::new(),
            selected: 0,
            open: None,
            division: 0,
            board: 0,
            view: View::Pairings,
            ask: None,
            status: String::new(),
            exports,
            playing: None,
            scroll: 0,
            page: 0,
            hscroll: 0,
            pan: 0,
        };
        match path.map(|p| Desk::open(&p)) {
            Some(Ok(d)) => s.desk = Some(d),
            Some(Err(e)) => s.status = e.to_string(),
            None => s.status = "no data folder on this machine".into(),
        }
        s.refresh();
        s
    }

    fn refresh(&mut self) {
        if let Some(d) = &self.desk {
            match d.events() {
                Ok(e) => self.events = e,
                Err(e) => self.status = e.to_string(),
            }
        }
    }

    /// Record actions; the status says what happened.
    fn record(&mut self, actions: Vec<Action>, done: String) {
        let (Some(desk), Some(open)) = (self.desk.as_mut(), self.open.as_mut()) else {
            return;
        };
        match desk.record(open, &actions, chrono::Utc::now()) {
            Ok(()) => self.status = format!("recorded: {done}"),
            Err(e) => {
                self.status = e.to_string();
                if let Ok(o) = desk.load(open.id) {
                    *open = o;
                }
            }
        }
    }

    fn boards_len(&self) -> usize {
        self.open
            .as_ref()
            .and_then(|o| o.event.divisions.get(self.division))
            .and_then(|d| d.rounds.last())
            .map_or(0, |r| r.boards.len())
    }

    fn current_division(&self) -> Option<&Division> {
        self.open.as_ref()?.event.divisions.get(self.division)
    }

    /// The player `who` names in the current division, or the sentence saying why not.
    fn find(&self, who: &str) -> Result<PlayerId, String> {
        let d = self
            .current_division()
            .ok_or_else(|| "add a division first (d)".to_string())?;
        d.find_player(who).map_err(|e| e.to_string())
    }

    /// The selected board of the last round: (round, board).
    fn selected_board(&self) -> Option<(u32, u32)> {
        let r = self.current_division()?.rounds.last()?;
        r.boards.get(self.board).map(|b| (r.number, b.number))
    }

    /// The file-name stem of the open event's current division (`club-open-open`): the
    /// event's [`slug`] of at most 40 characters, then the division's of at most 20 (no stray
    /// `-`; "event" when nothing is left).
    fn stem(&self) -> String {
        let Some(open) = &self.open else {
            return String::new();
        };
        let division = self.current_division().map_or("", |d| d.name.as_str());
        let parts = [slug(&open.event.info.name, 40), slug(division, 20)];
        let stem = parts
            .iter()
            .filter(|p| !p.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join("-");
        if stem.is_empty() {
            "event".into()
        } else {
            stem
        }
    }
}

impl DeskScreen {
    /// A key, before the scroll is settled.
    fn handle(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let Msg::Key(k) = msg else { return Nav::Stay };
        if let Some((ask, text)) = &mut self.ask {
            let max = ask.max_len();
            match (lookup(ASK_KEYS, k), k.code) {
                (Some(AskAct::Cancel), _) => self.ask = None,
                (Some(AskAct::Answer), _) => {
                    if let Some((ask, text)) = self.ask.take()
                        && !text.trim().is_empty()
                    {
                        self.answer(ask, text, ctx);
                    }
                }
                (Some(AskAct::Delete), _) => {
                    text.pop();
                }
                (Some(AskAct::Clear), _) => text.clear(),
                (None, KeyCode::Char(c)) if text.chars().count() < max => text.push(c),
                (None, KeyCode::Char(_)) => self.status = format!("at most {max} characters"),
                _ => {}
            }
            return Nav::Stay;
        }
        if self.open.is_some() {
            return match lookup(KEYS, k) {
                Some(a) => self.event_update(a, k.code, ctx),
                None => Nav::Stay,
            };
        }
        match lookup(LIST_KEYS, k) {
            Some(ListAct::Up) => self.selected = self.selected.saturating_sub(1),
            Some(ListAct::Down) => {
                self.selected = (self.selected + 1).min(self.events.len().saturating_sub(1))
            }
            Some(ListAct::Open) => {
                if let (Some(desk), Some(e)) = (&self.desk, self.events.get(self.selected)) {
                    match desk.load(e.id) {
                        Ok(o) => {
                            self.open = Some(o);
                            self.division = 0;
                            self.board = 0;
                            self.status.clear();
                        }
                        Err(e) => self.status = e.to_string(),
                    }
                }
            }
            Some(ListAct::New) => self.ask = Some((Ask::EventName, String::new())),
            Some(ListAct::Back) => return Nav::Pop,
            Some(ListAct::Scroll) => self.page = page_of(k.code),
            None => {}
        }
        Nav::Stay
    }
}

impl ScreenState for DeskScreen {
    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let shown = (self.open.is_some(), self.view, self.division);
        let nav = self.handle(msg, ctx);
        if (self.open.is_some(), self.view, self.division) != shown {
            self.scroll = 0;
            self.hscroll = 0;
        }
        self.settle(ctx.area, ctx.appearance.ascii);
        nav
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let width = area.width as usize;
        let Body {
            mut lines, head, ..
        } = self.body(width, look.ascii);
        if let Some(title) = lines.first_mut() {
            *title = Line::from(Span::styled("Tournament desk", look.accent()));
        }
        // The head stays; the rows below it scroll, with a marker counting those out of view.
        let status = self.status_lines(width, look.ascii);
        let height = (area.height as usize).saturating_sub(2 + status.len());
        let head = head.min(height);
        let rows = lines.split_off(head);
        lines.extend(scrolled(
            rows,
            height - head,
            Scroll::Top(self.scroll),
            SCROLL_KEYS,
            look.dim(),
        ));
        // A line too long for the terminal (an event's or a player's long name) ends with the
        // marker rather than being cut silently.
        // In ASCII, half points as `2.5` before the layout (the frame's last pass has no
        // one-character stand-in for them).
        let lines: Vec<Line> = lines
            .into_iter()
            .map(|l| if look.ascii { ascii_line(l) } else { l })
            .map(|l| crate::tui::widgets::fit_line(l, width))
            .collect();
        frame.render_widget(
            Paragraph::new(lines),
            Rect {
                height: height as u16,
                ..area
            },
        );
        let prompt = match &self.ask {
            Some((ask, text)) => format!("{}: {text}_", ask.prompt(self.current_division())),
            None => String::new(),
        };
        let buf = frame.buffer_mut();
        // The status takes the rows it needs above the prompt (a rematch warning read before
        // `y`, a file's path), up to a few.
        let top = area.bottom().saturating_sub(2 + status.len() as u16);
        for (i, row) in status.iter().enumerate() {
            buf.set_string(area.x, top + i as u16, row, look.alert());
        }
        buf.set_string(
            area.x,
            area.bottom().saturating_sub(2),
            // While typing, the end of the line (its cursor) stays in view.
            crate::tui::widgets::fit_tail(&prompt, width),
            look.accent(),
        );
        let keys = if self.ask.is_some() {
            footer(ASK_KEYS)
        } else if self.open.is_some() {
            footer(KEYS)
        } else {
            footer(LIST_KEYS)
        };
        let hint = crate::tui::keys::help_hint(self.ask.is_some());
        buf.set_string(
            area.x,
            area.bottom().saturating_sub(1),
            clip(&format!("{keys} · {hint}"), width),
            look.dim(),
        );
    }

    fn title(&self) -> String {
        "Tournament desk".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.ask.is_some() {
            help(ASK_KEYS)
        } else if self.open.is_some() {
            help(KEYS)
        } else {
            help(LIST_KEYS)
        }
    }

    fn chain(&self) -> Vec<super::keys::Erased> {
        use super::keys::erase;
        if self.ask.is_some() {
            vec![erase(ASK_KEYS)]
        } else if self.open.is_some() {
            vec![erase(KEYS)]
        } else {
            vec![erase(LIST_KEYS)]
        }
    }

    fn typing(&self) -> bool {
        self.ask.is_some()
    }

    fn uncovered(&mut self) {
        self.read_back_match();
    }
}
