//! "Resume a match" from the home screen: the saved matches of the data folder and the
//! `--match` file, most recent first, unfinished ones marked; Enter reopens one with its clocks
//! paused; `o` opens any match file by its path. A file another crossboard has open for play can
//! be looked at read-only (nothing is written, no lock taken); a damaged one can be started over
//! (a new match in its place, the damaged file moved aside first).

use super::persist::Saver;
use super::{MatchOptions, MatchScreen};
use crate::director::Phase;
use crate::store::LoadError;
use crate::store::same_file;
use crate::store::{MatchFile, MatchStore, StoreError, list_matches, load_match};
use crate::tui::Msg;
use crate::tui::keys::{Binding, DOWN, ENTER, ESC, Key, UP, footer, help, lookup};
use crate::tui::screens::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::tui::theme::Appearance;
use crate::tui::widgets::StatusKind;
use crate::tui::widgets::form::{TextField, render_popup};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::wrap;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::path::{Path, PathBuf};

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

impl SavedMatch {
    /// The entry of the file at `path`, read as `file`.
    fn new(path: PathBuf, file: &Result<MatchFile, LoadError>) -> SavedMatch {
        match file {
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
                    path,
                }
            }
            Err(e) => SavedMatch {
                label: format!("cannot be read: {}", reason(e)),
                unfinished: false,
                readable: false,
                path,
            },
        }
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

/// A question the list is asking, over it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The path of a match file is being typed.
    Path(TextField),
    /// The file is open for play in another crossboard: look at it read-only?
    Locked {
        /// The file.
        path: PathBuf,
        /// "X is open in another crossboard, pid N since 14:05; it is left untouched".
        why: String,
    },
    /// The file cannot be read: start a new match in its place (the file moved aside)?
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (line and reason).
        why: String,
    },
}

/// The list of saved matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumeScreen {
    /// The matches: the `--match` file first, then the data folder's, most recently saved
    /// first, unreadable last.
    pub matches: Vec<SavedMatch>,
    /// The highlighted one.
    pub selected: usize,
    /// Where they were looked for.
    pub dir: Option<PathBuf>,
    /// Why the last attempt failed.
    pub message: Option<String>,
    /// The open question, if any.
    pub ask: Option<Ask>,
    /// Opened for one file by another screen (the desk, `crossboard resume`): leaving the
    /// match, or the question, goes back there.
    pub back_to_caller: bool,
}

/// True when a load error means the file's contents are wrong (it can be started over), not
/// that it could not be read at all or is a newer crossboard's.
fn is_damage(e: &LoadError) -> bool {
    !matches!(e, LoadError::Io { .. } | LoadError::Newer { .. })
}

/// The match screen of a file only looked at (another crossboard has it, `why`): nothing is
/// written, no lock taken, no command taken; the status line says READ-ONLY.
pub fn look_at(
    file: MatchFile,
    path: &Path,
    why: String,
    now: std::time::Instant,
    wall: chrono::DateTime<chrono::Utc>,
) -> MatchScreen {
    let saver = Saver::ReadOnly {
        path: path.to_path_buf(),
        why,
    };
    let mut s = MatchScreen::resume(file.the_match, saver, now, wall);
    s.say("looking only; q leaves", StatusKind::Warn);
    s
}

/// Why a saved match did not open for play.
enum Refusal {
    /// Another crossboard holds it, or it is damaged: the question of what to do instead.
    Ask(Ask),
    /// It cannot be read at all, or a newer crossboard wrote it: the reason, path included.
    Unreadable(String),
}

/// Open the saved match of `path` for play, clocks paused at the last committed move: the one
/// way a match is reopened (the list, the desk, `crossboard resume`), so every caller gets the
/// same refusals and, for a version 1 file, the same migration note on the status line.
fn open_for_play(
    path: &Path,
    options: &MatchOptions,
    now: std::time::Instant,
    back_to_caller: bool,
) -> Result<MatchScreen, Refusal> {
    match MatchStore::open(path) {
        Ok((store, file)) => {
            let mut s =
                MatchScreen::resume(file.the_match, Saver::File(store), now, options.wall());
            s.back_to_caller = back_to_caller;
            // `--desk`: the match reopened reports to the desk.
            let net = &options.net;
            if let Some(network) = &net.network
                && !net.desk.is_empty()
                && !net.token.is_empty()
            {
                s.report_to(network.as_ref(), &net.desk, &net.token);
            }
            Ok(s)
        }
        Err(e @ StoreError::Locked { .. }) => Err(Refusal::Ask(Ask::Locked {
            path: path.to_path_buf(),
            why: e.to_string(),
        })),
        Err(StoreError::Load(e)) if is_damage(&e) => Err(Refusal::Ask(Ask::Damaged {
            path: path.to_path_buf(),
            why: e.to_string(),
        })),
        Err(e) => Err(Refusal::Unreadable(e.to_string())),
    }
}

/// Reopen the saved match of `path` for a screen other than the list (the desk with
/// `back_to_caller`, `crossboard resume`): the match screen; when another crossboard holds the
/// file or it is damaged, the list's question about it (look read-only; start over); `Err`
/// with the reason when it cannot be read.
pub fn reopen(
    path: &Path,
    options: &MatchOptions,
    now: std::time::Instant,
    back_to_caller: bool,
) -> Result<Screen, String> {
    match open_for_play(path, options, now, back_to_caller) {
        Ok(s) => Ok(Screen::Match(Box::new(s))),
        Err(Refusal::Ask(ask)) => Ok(Screen::MatchList(ResumeScreen {
            matches: vec![SavedMatch::new(path.to_path_buf(), &load_match(path))],
            selected: 0,
            dir: path.parent().map(Path::to_path_buf),
            message: None,
            ask: Some(ask),
            back_to_caller,
        })),
        Err(Refusal::Unreadable(e)) => Err(e),
    }
}

impl ResumeScreen {
    /// List the `--match` file (when it exists) and the matches of `options.dir`.
    pub fn new(options: &MatchOptions) -> ResumeScreen {
        let mut matches = Vec::new();
        let mut message = None;
        if let Some(f) = options.file.as_ref().filter(|f| f.exists()) {
            matches.push(SavedMatch::new(f.clone(), &load_match(f)));
        }
        match &options.dir {
            Some(dir) => match list_matches(dir) {
                Ok(list) => matches.extend(
                    list.into_iter()
                        .filter(|l| !options.file.as_ref().is_some_and(|f| same_file(f, &l.path)))
                        .map(|l| SavedMatch::new(l.path, &l.file)),
                ),
                Err(e) => message = Some(format!("{}: {e}", dir.display())),
            },
            None if matches.is_empty() => {
                message = Some("no data folder is known here: o opens a match file".into())
            }
            None => {}
        }
        ResumeScreen {
            selected: matches.iter().position(|m| m.unfinished).unwrap_or(0),
            matches,
            dir: options.dir.clone(),
            message,
            ask: None,
            back_to_caller: false,
        }
    }

    /// Open the file at `path` for play; if another crossboard has it, or it is damaged, ask
    /// what to do instead.
    pub fn open(&mut self, path: &Path, ctx: &mut Ctx) -> Nav {
        self.message = None;
        match open_for_play(path, ctx.matches, ctx.now, self.back_to_caller) {
            Ok(s) => Nav::Goto(Box::new(Screen::Match(Box::new(s)))),
            Err(Refusal::Ask(ask)) => {
                self.ask = Some(ask);
                Nav::Stay
            }
            Err(Refusal::Unreadable(e)) => {
                self.message = Some(e);
                Nav::Stay
            }
        }
    }

    /// Look at the match of `path` without writing anything or taking its lock.
    fn look(&mut self, path: &Path, why: String, ctx: &mut Ctx) -> Nav {
        match load_match(path) {
            Ok(file) => {
                let mut s = look_at(file, path, why, ctx.now, ctx.matches.wall());
                s.back_to_caller = self.back_to_caller;
                Nav::Goto(Box::new(Screen::Match(Box::new(s))))
            }
            Err(e) => {
                self.message = Some(e.to_string());
                Nav::Stay
            }
        }
    }

    /// Where a cancelled question goes: back to the screen that asked for the file, or to the
    /// list.
    fn after_cancel(&self) -> Nav {
        if self.back_to_caller {
            Nav::Pop
        } else {
            Nav::Stay
        }
    }

    /// The set-up form of a new match at `path`, which moves the damaged file aside when the
    /// match starts.
    fn start_over(&self, path: &Path, ctx: &Ctx) -> Nav {
        let options = MatchOptions {
            file: Some(path.to_path_buf()),
            start_over: true,
            ..ctx.matches.clone()
        };
        Nav::Goto(Box::new(Screen::match_setup(options)))
    }

    fn update_list(&mut self, act: Act, ctx: &mut Ctx) -> Nav {
        let n = self.matches.len().max(1);
        match act {
            Act::Up => self.selected = (self.selected + n - 1) % n,
            Act::Down => self.selected = (self.selected + 1) % n,
            Act::Open => {
                if let Some(path) = self.matches.get(self.selected).map(|m| m.path.clone()) {
                    return self.open(&path, ctx);
                }
            }
            Act::OpenFile => {
                let typed = ctx.matches.file.as_ref().map(|f| f.display().to_string());
                let mut field = TextField::new("Match file", typed.unwrap_or_default())
                    .with_max_len(PATH_MAX_CHARS);
                field.hint = "a path; Enter opens it".into();
                self.ask = Some(Ask::Path(field));
            }
            Act::Back => return Nav::Pop,
        }
        Nav::Stay
    }
}

/// The longest path the field takes, in characters.
pub const PATH_MAX_CHARS: usize = 1024;

/// What the keys of the list of saved matches do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// The match above.
    Up,
    /// The match below.
    Down,
    /// Resume the highlighted match.
    Open,
    /// Type the path of a match file to open.
    OpenFile,
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
        "resume it, clocks paused at the last move (a damaged one: start over)",
    )
    .footer("resume"),
    Binding::new(
        &[Key::Char('o')],
        Act::OpenFile,
        "open a match file by its path (the --match file, or one typed)",
    )
    .footer("open a file…"),
    Binding::new(&[ESC, Key::Char('q')], Act::Back, "back to the home screen").footer("back"),
];

/// What the keys of the path field do (other characters are typed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathAct {
    /// Open the file typed.
    Open,
    /// Back to the list.
    Cancel,
}

/// The keys of the path field (and the text field's editing keys).
pub static PATH_KEYS: &[Binding<PathAct>] = &[
    Binding::new(&[ENTER], PathAct::Open, "open the match file typed").footer("open"),
    Binding::new(&[ESC], PathAct::Cancel, "back to the list").footer("back"),
];

/// What the keys of a question about a file do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskAct {
    /// Look at the locked file read-only.
    Look,
    /// Start a new match in place of the damaged file.
    StartOver,
    /// Back to the list, nothing done.
    Cancel,
}

/// The keys while another crossboard has the file.
pub static LOCKED_KEYS: &[Binding<AskAct>] = &[
    Binding::new(
        &[Key::Char('v')],
        AskAct::Look,
        "view it read-only (nothing is written)",
    )
    .footer("view read-only"),
    Binding::new(&[ESC, Key::Char('q')], AskAct::Cancel, "back to the list").footer("back"),
];

/// The keys while the file is damaged.
pub static DAMAGED_KEYS: &[Binding<AskAct>] = &[
    Binding::new(
        &[Key::Char('s')],
        AskAct::StartOver,
        "start a new match in its place (set-up first; the damaged file is moved aside)",
    )
    .footer("start over"),
    Binding::new(&[ESC, Key::Char('q')], AskAct::Cancel, "back to the list").footer("back"),
];

impl ScreenState for ResumeScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        use crate::tui::keys::erase;
        match &self.ask {
            None => vec![erase(KEYS)],
            Some(Ask::Path(_)) => vec![
                erase(PATH_KEYS),
                erase(crate::tui::widgets::form::TEXT_KEYS),
            ],
            Some(Ask::Locked { .. }) => vec![erase(LOCKED_KEYS)],
            Some(Ask::Damaged { .. }) => vec![erase(DAMAGED_KEYS)],
        }
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let Msg::Key(k) = msg else {
            return Nav::Stay;
        };
        match self.ask.take() {
            None => match lookup(KEYS, k) {
                Some(act) => self.update_list(act, ctx),
                None => Nav::Stay,
            },
            Some(Ask::Path(mut field)) => match lookup(PATH_KEYS, k) {
                Some(PathAct::Open) => {
                    let typed = field.value.trim();
                    if typed.is_empty() {
                        field.error = Some("type the path of a match file".into());
                        self.ask = Some(Ask::Path(field));
                        return Nav::Stay;
                    }
                    let path = PathBuf::from(typed);
                    let nav = self.open(&path, ctx);
                    if let (Nav::Stay, None, Some(e)) = (&nav, &self.ask, self.message.take()) {
                        // Not found or not readable: the field stays, with the reason.
                        field.error = Some(e);
                        self.ask = Some(Ask::Path(field));
                    }
                    nav
                }
                Some(PathAct::Cancel) => Nav::Stay,
                None => {
                    if field.key(k) {
                        field.error = None;
                    }
                    self.ask = Some(Ask::Path(field));
                    Nav::Stay
                }
            },
            Some(Ask::Locked { path, why }) => match lookup(LOCKED_KEYS, k) {
                Some(AskAct::Look) => self.look(&path, why, ctx),
                Some(_) => self.after_cancel(),
                None => {
                    self.ask = Some(Ask::Locked { path, why });
                    Nav::Stay
                }
            },
            Some(Ask::Damaged { path, why }) => match lookup(DAMAGED_KEYS, k) {
                Some(AskAct::StartOver) => self.start_over(&path, ctx),
                Some(_) => self.after_cancel(),
                None => {
                    self.ask = Some(Ask::Damaged { path, why });
                    Nav::Stay
                }
            },
        }
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let buf = frame.buffer_mut();
        self.render_heading(buf, area, look);
        let top = area.y + 3;
        // The message (why a match did not open) takes the rows it needs above the footer.
        let message = self
            .message
            .as_ref()
            .map(|m| wrap(m, area.width.saturating_sub(2) as usize))
            .unwrap_or_default();
        let bottom = area.bottom().saturating_sub(1 + message.len() as u16);
        if self.matches.is_empty() {
            buf.set_string(
                area.x + 2,
                top,
                "No saved matches were found: o opens a match file by its path.",
                look.dim(),
            );
        }
        let entries = self.entry_lines(area.width.saturating_sub(6) as usize);
        self.render_entries(buf, area, &entries, (top, bottom), look);
        for (i, part) in message.iter().enumerate() {
            buf.set_line(
                area.x + 1,
                bottom + i as u16,
                &Line::from(Span::styled(part.clone(), look.alert())),
                area.width.saturating_sub(2),
            );
        }
        self.render_footer(buf, area, look);
        self.render_ask(frame, area, ctx);
    }

    fn title(&self) -> String {
        "Resume a match".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        match &self.ask {
            None => help(KEYS),
            Some(Ask::Path(_)) => {
                let mut k = help(PATH_KEYS);
                k.extend(help(crate::tui::widgets::form::TEXT_KEYS));
                k
            }
            Some(Ask::Locked { .. }) => help(LOCKED_KEYS),
            Some(Ask::Damaged { .. }) => help(DAMAGED_KEYS),
        }
    }

    fn typing(&self) -> bool {
        matches!(self.ask, Some(Ask::Path(_)))
    }
}

impl ResumeScreen {
    /// The title, and the folder listed under it (a folder too long keeps its end, marked).
    fn render_heading(&self, buf: &mut Buffer, area: Rect, look: &Appearance) {
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
            let shown = if n > w {
                let tail: String = text.chars().skip(n - w + 1).collect();
                format!("…{tail}")
            } else {
                text
            };
            buf.set_string(area.x + 1, area.y + 1, shown, look.dim());
        }
    }

    /// Each entry's lines in `width` columns: what it is (or why it cannot be read), wrapped;
    /// then its file.
    fn entry_lines(&self, width: usize) -> Vec<Vec<String>> {
        self.matches
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
            .collect()
    }

    /// The entries that fit between rows `top` and `bottom`, scrolled so the selected one is
    /// shown whole, with how many are above and below.
    fn render_entries(
        &self,
        buf: &mut Buffer,
        area: Rect,
        entries: &[Vec<String>],
        (top, bottom): (u16, u16),
        look: &Appearance,
    ) {
        let room = bottom.saturating_sub(top + 1) as usize;
        let first = first_shown(entries, self.selected, room);
        if first > 0 {
            buf.set_string(
                area.x + 2,
                top.saturating_sub(1),
                format!("↑ {first} more above"),
                look.dim(),
            );
        }
        let mut y = top;
        let mut shown_to = first;
        for (i, lines) in entries.iter().enumerate().skip(first) {
            if (y as usize) + lines.len() > (bottom as usize).saturating_sub(1) {
                break;
            }
            self.render_entry(buf, area, i, lines, y, look);
            y += lines.len() as u16 + 1;
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
    }

    /// Entry `i` from row `y`: its label in the style of its state, its file dimmed.
    fn render_entry(
        &self,
        buf: &mut Buffer,
        area: Rect,
        i: usize,
        lines: &[String],
        y: u16,
        look: &Appearance,
    ) {
        let m = &self.matches[i];
        let on = i == self.selected;
        let style = if on {
            look.accent().add_modifier(Modifier::REVERSED)
        } else if !m.readable {
            look.alert()
        } else if m.unfinished {
            Style::new()
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
            buf.set_line(
                x,
                y + j as u16,
                &line,
                area.width.saturating_sub(x - area.x + 1),
            );
        }
    }

    /// The keys of the list or of the question open, on the last row.
    fn render_footer(&self, buf: &mut Buffer, area: Rect, look: &Appearance) {
        let keys = match &self.ask {
            None => footer(KEYS),
            Some(Ask::Path(_)) => footer(PATH_KEYS),
            Some(Ask::Locked { .. }) => footer(LOCKED_KEYS),
            Some(Ask::Damaged { .. }) => footer(DAMAGED_KEYS),
        };
        let arrows = if self.ask.is_none() {
            "↑↓ choose · "
        } else {
            ""
        };
        buf.set_string(
            area.x + 1,
            area.bottom() - 1,
            format!(
                "{arrows}{keys} · {}",
                crate::tui::keys::help_hint(self.typing())
            ),
            look.dim(),
        );
    }
}

/// The first entry shown: the list scrolled just enough that `selected` fits whole in `room`
/// rows (an entry takes its lines and a blank).
fn first_shown(entries: &[Vec<String>], selected: usize, room: usize) -> usize {
    let height = |range: std::ops::Range<usize>| -> usize {
        entries[range].iter().map(|e| e.len() + 1).sum()
    };
    let mut first = 0;
    while first < selected && height(first..selected + 1) > room {
        first += 1;
    }
    first
}

/// The width the questions' text is wrapped to.
const ASK_WIDTH: usize = 68;

impl ResumeScreen {
    fn render_ask(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let width = ASK_WIDTH.min(usize::from(area.width.saturating_sub(8)));
        let text = |s: &str| -> Vec<Line<'static>> {
            wrap(s, width).into_iter().map(Line::from).collect()
        };
        let (title, lines) = match &self.ask {
            None => return,
            Some(Ask::Path(field)) => {
                // The reason goes below the field, wrapped, rather than after it on its line.
                let bare = TextField {
                    error: None,
                    ..field.clone()
                };
                let mut lines = vec![bare.line(10, true, look)];
                if let Some(e) = &field.error {
                    lines.extend(
                        wrap(e, width)
                            .into_iter()
                            .map(|l| Line::from(Span::styled(l, look.alert()))),
                    );
                }
                ("Open a match file", lines)
            }
            Some(Ask::Locked { why, .. }) => {
                let mut lines = text(why);
                lines.push(Line::from(""));
                lines.extend(text(
                    "v views it read-only: every move and clock as saved, nothing written, \
                     no lock taken. Esc goes back.",
                ));
                ("Open in another crossboard", lines)
            }
            Some(Ask::Damaged { path, why }) => {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let mut lines = text(why);
                lines.push(Line::from(""));
                lines.extend(text(&format!(
                    "s starts a new match in its place: the set-up form first, then {name} is \
                     moved aside as {name}.damaged-DATE (kept, never deleted). Esc goes back."
                )));
                ("The match file cannot be read", lines)
            }
        };
        render_popup(frame, title, lines, look);
    }
}
