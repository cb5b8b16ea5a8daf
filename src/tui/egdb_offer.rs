//! The offer to build the endgame databases: one line on the home screen, shown until the
//! player answers (`b` builds them on a background thread, `x` declines), the answer
//! remembered in the database folder. A build never blocks play: it runs on its own threads
//! (one core fewer than the machine has, so the practice engine keeps one), its progress on
//! the home screen; quitting crossboard mid-build loses at most one slice pair, and the build
//! carries on at the next start. Damaged or refused database files are named on a line of
//! their own, and `e` shows every such message whole.

use crate::store::egdb::{self as files, BuildObserver, Choice, Phase};
use crate::tui::keys::{Binding, ENTER, ESC, Key, footer, help, lookup};
use crate::tui::widgets::menu::KeyHelp;
use ratatui::crossterm::event::KeyEvent;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

/// The databases offered: up to this many pieces.
pub(super) const OFFERED_PIECES: u32 = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    Build,
    Decline,
}

pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[Key::Char('b')],
        Act::Build,
        "build the endgame databases (background)",
    ),
    Binding::new(
        &[Key::Char('x')],
        Act::Decline,
        "no endgame databases (not asked again)",
    ),
];

/// The key that shows the databases' trouble whole, while there is some.
pub(crate) static TROUBLE_KEYS: &[Binding<()>] = &[Binding::new(
    &[Key::Char('e')],
    (),
    "the endgame databases' problems in full",
)];

/// The keys that close the databases' problems (any other key is kept from the screen
/// under them).
pub(crate) static TROUBLE_CLOSE_KEYS: &[Binding<()>] = &[Binding::new(
    &[ESC, ENTER, Key::Char('e')],
    (),
    "close the endgame databases' problems",
)
.footer("close")];

/// Progress shared with the building thread.
#[derive(Debug, Default)]
struct Progress {
    done: AtomicU64,
    total: AtomicU64,
    verifying: AtomicBool,
}

impl BuildObserver for Progress {
    fn phase(&self, phase: Phase, total: u64) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        self.verifying
            .store(phase == Phase::Verify, Ordering::Relaxed);
    }
    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
    fn slice(&self, _material: crate::egdb::Material, _found: bool) {}
}

/// Where the offer stands.
#[derive(Debug)]
enum State {
    /// Nothing to show: no data folder, databases present, or declined.
    Hidden,
    /// Waiting for the player's answer.
    Offered,
    /// Building on a background thread.
    Building {
        progress: Arc<Progress>,
        handle: Option<JoinHandle<Result<(), String>>>,
    },
    /// Built in this session.
    Ready,
    /// The build failed (the message says why).
    Failed(String),
}

/// The offer and, once accepted, the background build.
#[derive(Debug)]
pub struct EgdbOffer {
    dir: Option<PathBuf>,
    pieces: u32,
    state: State,
    /// The databases of the folder, for the engine (loaded at start and after a build).
    loaded: Option<Arc<crate::egdb::Egdb>>,
    /// Files the last load left out, with the reason.
    problems: Vec<String>,
    /// Files the last load used with something to say (an older format).
    warnings: Vec<String>,
    /// Slices the engine has found damaged since, in full (each names its file).
    damage: Vec<String>,
    /// Every problem shown whole, over the home screen (`e`).
    showing: bool,
}

impl EgdbOffer {
    /// The offer for the database folder `dir` (`None`: never offered, as in tests). A build
    /// accepted before and interrupted carries on at once.
    pub fn new(dir: Option<PathBuf>) -> EgdbOffer {
        EgdbOffer::with_pieces(dir, OFFERED_PIECES)
    }

    /// The offer of the databases of up to `pieces` pieces (tests offer small ones).
    pub fn with_pieces(dir: Option<PathBuf>, pieces: u32) -> EgdbOffer {
        let mut offer = EgdbOffer {
            dir,
            pieces,
            state: State::Hidden,
            loaded: None,
            problems: Vec::new(),
            warnings: Vec::new(),
            damage: Vec::new(),
            showing: false,
        };
        offer.load();
        if let Some(dir) = &offer.dir
            && files::verified_pieces(dir) < pieces
        {
            match files::remembered_choice(dir) {
                None => offer.state = State::Offered,
                Some(Choice::Build) => offer.start(),
                Some(Choice::Declined) => {}
            }
        }
        offer
    }

    /// Handle a key on the home screen; true when it was the offer's (or the problems'
    /// shown whole, which keep every key from the screen under them).
    pub fn key(&mut self, k: &KeyEvent) -> bool {
        if self.showing {
            if lookup(TROUBLE_CLOSE_KEYS, k).is_some() {
                self.showing = false;
            }
            return true;
        }
        if self.has_trouble() && lookup(TROUBLE_KEYS, k).is_some() {
            self.showing = true;
            return true;
        }
        if !matches!(self.state, State::Offered) {
            return false;
        }
        let Some(act) = lookup(KEYS, k) else {
            return false;
        };
        let choice = match act {
            Act::Build => Choice::Build,
            Act::Decline => Choice::Declined,
        };
        let remembered = self
            .dir
            .as_deref()
            .map(|d| files::remember_choice(d, choice));
        match (act, remembered) {
            (_, Some(Err(e))) => self.state = State::Failed(e.to_string()),
            (Act::Build, _) => self.start(),
            (Act::Decline, _) => self.state = State::Hidden,
        }
        true
    }

    fn start(&mut self) {
        let Some(dir) = self.dir.clone() else {
            return;
        };
        let progress = Arc::new(Progress::default());
        let shared = Arc::clone(&progress);
        let pieces = self.pieces;
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get().saturating_sub(1))
            .max(1);
        let handle = std::thread::Builder::new()
            .name("egdb-build".into())
            .spawn(move || {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| e.to_string())?;
                pool.install(|| files::build(&dir, pieces, &*shared))
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            });
        self.state = match handle {
            Ok(h) => State::Building {
                progress,
                handle: Some(h),
            },
            Err(e) => State::Failed(e.to_string()),
        };
    }

    /// Notice a finished build and damage the engine found since (call on each tick).
    pub fn poll(&mut self) {
        if let Some(db) = &self.loaded {
            let found = db.damage();
            if found.len() != self.damage.len() {
                self.damage = found.iter().map(ToString::to_string).collect();
            }
        }
        if let State::Building { handle, .. } = &mut self.state
            && handle.as_ref().is_some_and(JoinHandle::is_finished)
        {
            let result = handle.take().map(JoinHandle::join);
            self.state = match result {
                Some(Ok(Ok(()))) => {
                    self.loaded = None;
                    self.load();
                    State::Ready
                }
                Some(Ok(Err(e))) => State::Failed(e),
                _ => State::Failed("the build stopped unexpectedly".into()),
            };
        }
    }

    /// Map the folder's verified databases (none while a build writes them).
    fn load(&mut self) {
        if let Some(dir) = &self.dir
            && files::verified_pieces(dir) >= 2
        {
            let loaded = files::load(dir);
            self.problems = loaded.problems;
            self.warnings = loaded.warnings;
            self.damage.clear();
            let db = loaded.db;
            self.loaded = (db.complete_pieces() > 0).then(|| Arc::new(db));
        }
    }

    /// What is wrong with the folder's databases, in full: files left out at load, slices
    /// found damaged since, then files used with a warning (each names its file).
    pub fn trouble(&self) -> Vec<String> {
        self.problems
            .iter()
            .chain(&self.damage)
            .chain(&self.warnings)
            .cloned()
            .collect()
    }

    /// True when some database file is damaged, refused or read with a warning.
    fn has_trouble(&self) -> bool {
        !(self.problems.is_empty() && self.damage.is_empty() && self.warnings.is_empty())
    }

    /// True while every problem is shown whole (`e`).
    pub fn showing_trouble(&self) -> bool {
        self.showing
    }

    /// The databases' trouble on one line of `width` columns: the whole item where it is
    /// the only one and fits, else the first with the folder left out of the file's name,
    /// cut with `…`, and the key that shows them all whole.
    pub fn trouble_line(&self, width: usize) -> Option<String> {
        let all = self.trouble();
        let first = all.first()?;
        let whole = format!("endgame databases: {first}");
        if all.len() == 1 && whole.chars().count() <= width {
            return Some(whole);
        }
        let head = match all.len() {
            1 => "endgame databases (e: in full)".to_string(),
            n => format!("endgame databases (1 of {n}, e: all)"),
        };
        let short = self
            .dir
            .as_deref()
            .and_then(|d| first.strip_prefix(&*d.to_string_lossy()))
            .map_or(first.as_str(), |rest| rest.trim_start_matches(['/', '\\']));
        Some(crate::tui::widgets::fit_text(
            &format!("{head}: {short}"),
            width,
        ))
    }

    /// The databases the engine probes (`None` until verified ones are in the folder).
    pub fn databases(&self) -> Option<Arc<crate::egdb::Egdb>> {
        self.loaded.clone()
    }

    /// True while a build runs (the home screen then redraws its progress).
    pub fn building(&self) -> bool {
        matches!(self.state, State::Building { .. })
    }

    /// The line to show on the home screen, if any.
    pub fn line(&self) -> Option<String> {
        match &self.state {
            State::Hidden => None,
            State::Offered => {
                let bytes: u64 = crate::egdb::plan(self.pieces)
                    .slices()
                    .map(|m| crate::egdb::table_len(m.size()))
                    .sum();
                Some(format!(
                    "Endgame databases ({} pieces, {} MiB, minutes): b build them, x no",
                    self.pieces,
                    bytes.div_ceil(1024 * 1024)
                ))
            }
            State::Building { progress, .. } => {
                let total = progress.total.load(Ordering::Relaxed).max(1);
                let done = progress.done.load(Ordering::Relaxed).min(total);
                let what = if progress.verifying.load(Ordering::Relaxed) {
                    "verifying"
                } else {
                    "building"
                };
                Some(format!(
                    "{what} the endgame databases in the background: {}%",
                    done * 100 / total
                ))
            }
            State::Ready => Some(format!("endgame databases ready ({} pieces)", self.pieces)),
            State::Failed(e) => Some(format!("endgame databases not built: {e}")),
        }
    }

    /// The offer's key tables (the app looks keys up in them before the home screen's): the
    /// problems' while they are shown whole (then no other), else the key that shows them
    /// when there are some, and the offer's while it waits for an answer.
    pub fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        use crate::tui::keys::erase;
        if self.showing {
            return vec![erase(TROUBLE_CLOSE_KEYS)];
        }
        let mut chain = Vec::new();
        if self.has_trouble() {
            chain.push(erase(TROUBLE_KEYS));
        }
        if matches!(self.state, State::Offered) {
            chain.push(erase(KEYS));
        }
        chain
    }

    /// The keys of [`EgdbOffer::chain`]'s tables for the help.
    pub fn keys(&self) -> Vec<KeyHelp> {
        if self.showing {
            return help(TROUBLE_CLOSE_KEYS);
        }
        let mut lines = Vec::new();
        if self.has_trouble() {
            lines.extend(help(TROUBLE_KEYS));
        }
        if matches!(self.state, State::Offered) {
            lines.extend(help(KEYS));
        }
        lines
    }
}

/// Every problem of the databases whole, in a box over the home screen, each wrapped (a path
/// split across rows, never cut); the keys that close it on its last line.
pub(super) fn render_trouble(
    offer: &EgdbOffer,
    frame: &mut ratatui::Frame,
    look: &crate::tui::theme::Appearance,
) {
    use ratatui::text::Line;
    let mut lines: Vec<Line> = Vec::new();
    for (i, text) in offer.trouble().into_iter().enumerate() {
        if i > 0 {
            lines.push(Line::from(""));
        }
        lines.push(Line::from(text));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(footer(TROUBLE_CLOSE_KEYS)));
    crate::tui::widgets::render_popup(frame, "Endgame databases", lines, look);
}

/// Draw the offer's line (wrapped to two rows when long) above the home screen's hint.
pub(super) fn render_line(
    offer: &EgdbOffer,
    frame: &mut ratatui::Frame,
    area: ratatui::layout::Rect,
    look: &crate::tui::theme::Appearance,
) {
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Paragraph, Wrap};
    let width = area.width.saturating_sub(2);
    let trouble = offer.trouble_line(usize::from(width));
    let Some(text) = offer.line() else {
        if let Some(t) = trouble {
            put_line(
                frame,
                area,
                area.bottom().saturating_sub(3),
                &t,
                look.alert(),
            );
        }
        return;
    };
    let style = match offer.state {
        State::Failed(_) => look.alert(),
        State::Offered => look.accent(),
        _ => look.dim(),
    };
    let rows: u16 = if text.chars().count() > usize::from(width) {
        2
    } else {
        1
    };
    let y = area.bottom().saturating_sub(2 + rows);
    let used = (text.chars().count() as u16).min(width);
    let x = area.x + area.width.saturating_sub(used) / 2;
    let r = ratatui::layout::Rect::new(x, y.max(area.y), used, rows);
    let para = Paragraph::new(Line::from(Span::styled(text, style))).wrap(Wrap { trim: true });
    frame.render_widget(para, r);
    if let Some(t) = trouble {
        put_line(frame, area, y.saturating_sub(1), &t, look.alert());
    }
}

/// Draw `text` (already fitted to the area's width less two) centred on row `y` of `area`.
fn put_line(
    frame: &mut ratatui::Frame,
    area: ratatui::layout::Rect,
    y: u16,
    text: &str,
    style: ratatui::style::Style,
) {
    let width = usize::from(area.width.saturating_sub(2));
    let used = text.chars().count().min(width) as u16;
    let x = area.x + area.width.saturating_sub(used) / 2;
    frame
        .buffer_mut()
        .set_stringn(x, y.max(area.y), text, width, style);
}
