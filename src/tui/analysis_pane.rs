//! The analysis pane: the engine thinking aloud about the position on the board (depth, the
//! best lines with their scores, nodes per second), live, on its own worker thread.
//!
//! A screen that shows a position adds it with a field and a few calls (as practice and review
//! do):
//!
//! ```text
//! struct MyScreen { analysis: AnalysisPane, .. }           // AnalysisPane::default(): hidden
//! fn chain(&self)  { .. push(analysis_pane::erased_keys()) }  // its key table (e, >, <)
//! fn keys(&self)   { .. extend(analysis_pane::help_lines()) } // and its help row
//! fn update(&mut self, msg, ctx) -> Nav {
//!     let nav = match msg {
//!         Msg::Key(k) if self.analysis.key(k) => Nav::Stay,    // the pane's keys first
//!         _ => self.handle(msg, ctx),
//!     };
//!     self.analysis.follow(positions);  // the game's positions up to the one shown
//!     nav
//! }
//! fn ticking(&self) -> bool { .. || self.analysis.busy() }
//! fn render(..) { // keep self.analysis.height() rows free at the bottom of a panel, then
//!     self.analysis.render_at_bottom(panel, frame.buffer_mut(), look) }
//! ```
//!
//! [`AnalysisPane::follow`] does the work: it takes the reports waiting on the channel (never
//! blocking; the screen ticks while [`AnalysisPane::busy`]) and, when the position is not the
//! one analysed (a move made, a move stepped through), stops the search at once (its stop
//! flag) and starts it on the new one. Hiding the pane stops it. [`AnalysisPane::fed`] makes a
//! pane that shows a given analysis without an engine, for tests and pictures.

use super::keys::{Binding, Erased, Key, erase, help, lookup};
use super::theme::Appearance;
use super::widgets::fit_line;
use super::widgets::menu::KeyHelp;
use crate::engine::Position;
use crate::search::{MultiInfo, Options, Report, Request, Searcher, Task};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use std::time::Duration;

/// Most lines the pane shows.
pub const MAX_LINES: usize = 5;
/// Lines shown at first.
const FIRST_LINES: usize = 3;
/// Table of the pane's search engine, in MB.
const HASH_MB: usize = 16;

/// What the pane's keys do (one help row: which key was pressed tells which).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PaneAct {
    /// `e` shows or hides the pane (hiding stops the engine); `>` and `<` show it with one
    /// line more or fewer.
    Pane,
}

/// The pane's keys, on every screen that has it.
pub(crate) static KEYS: &[Binding<PaneAct>] = &[Binding::new(
    &[Key::Char('e'), Key::Char('>'), Key::Char('<')],
    PaneAct::Pane,
    "engine analysis: e show/hide, > more lines, < fewer",
)];

/// The pane's keys for a screen's `chain`.
pub fn erased_keys() -> Erased {
    erase(KEYS)
}

/// The pane's keys for a screen's help.
pub fn help_lines() -> Vec<KeyHelp> {
    help(KEYS)
}

/// One depth of analysis as the pane shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Thought {
    info: MultiInfo,
    elapsed: Duration,
}

/// The analysis pane (see the module's documentation for how a screen adds it).
#[derive(Default)]
pub struct AnalysisPane {
    shown: bool,
    /// Lines wanted (0: not chosen yet, [`FIRST_LINES`]).
    lines: usize,
    engine: Option<Searcher>,
    /// The running job, until its `Done` report.
    job: Option<u64>,
    /// The position analysed and the lines asked for.
    subject: Option<(Position, usize)>,
    latest: Option<Thought>,
}

impl std::fmt::Debug for AnalysisPane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisPane")
            .field("shown", &self.shown)
            .field("lines", &self.lines())
            .field("job", &self.job)
            .finish_non_exhaustive()
    }
}

impl Clone for AnalysisPane {
    /// The settings (shown, lines) without the running engine: the copy starts its own.
    fn clone(&self) -> AnalysisPane {
        AnalysisPane {
            shown: self.shown,
            lines: self.lines,
            ..AnalysisPane::default()
        }
    }
}

impl AnalysisPane {
    /// A shown pane that displays `info` (found `elapsed` after the start) for `position`, with
    /// no engine: for tests and pictures. It starts the engine only for another position.
    pub fn fed(position: Position, info: MultiInfo, elapsed: Duration) -> AnalysisPane {
        let lines = info.lines.len().clamp(1, MAX_LINES);
        AnalysisPane {
            shown: true,
            lines,
            subject: Some((position, lines)),
            latest: Some(Thought { info, elapsed }),
            ..AnalysisPane::default()
        }
    }

    /// True while the pane is shown.
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// Lines the pane asks the engine for (1 to [`MAX_LINES`]).
    pub fn lines(&self) -> usize {
        if self.lines == 0 {
            FIRST_LINES
        } else {
            self.lines
        }
    }

    /// The analysis last reported for the position analysed (`None`: none yet).
    pub fn info(&self) -> Option<&MultiInfo> {
        self.latest.as_ref().map(|t| &t.info)
    }

    /// Handle `key` if it is one of the pane's ([`KEYS`]); true when it was. The search
    /// starts or stops at the next [`AnalysisPane::follow`].
    pub fn key(&mut self, key: &KeyEvent) -> bool {
        if lookup(KEYS, key).is_none() {
            return false;
        }
        self.press(key.code);
        true
    }

    /// Act on a key that a screen's own table binds to the pane: `>` and `<` show it with one
    /// line more or fewer, any other key shows or hides it (the set-up screen's `a`, whose `e`
    /// opens the FEN field).
    pub fn press(&mut self, code: KeyCode) {
        let n = self.lines();
        match code {
            KeyCode::Char('>') => self.lines = (n + 1).min(MAX_LINES),
            KeyCode::Char('<') => self.lines = n.saturating_sub(1).max(1),
            _ => {
                self.shown = !self.shown;
                return;
            }
        }
        self.shown = true;
    }

    /// Keep the analysis on the last of `positions` (a game's, oldest first, up to the one on
    /// the board: the earlier ones tell repetitions): take the reports waiting, and restart on
    /// a new position or line count; stop when hidden. Call it after every message the screen
    /// handles.
    pub fn follow(&mut self, positions: &[Position]) {
        let (Some(position), true) = (positions.last(), self.shown) else {
            self.stop();
            return;
        };
        let history = &positions[..positions.len() - 1];
        self.take_reports();
        let subject = (*position, self.lines());
        if self.subject != Some(subject) {
            self.latest = None;
            self.subject = Some(subject);
            let engine = self.engine.get_or_insert_with(|| {
                Searcher::spawn(Options {
                    hash_mb: HASH_MB,
                    ..Options::default()
                })
            });
            self.job = Some(engine.start(Request {
                position: *position,
                history: history.to_vec(),
                task: Task::Analyse { lines: subject.1 },
            }));
        }
    }

    /// True while the engine is thinking, or is to start (the screen then ticks to take its
    /// reports, or to start it).
    pub fn busy(&self) -> bool {
        self.shown && (self.job.is_some() || self.subject.is_none())
    }

    /// Stop the engine at once (its stop flag); the next [`AnalysisPane::follow`] of a shown
    /// pane starts it again.
    pub fn stop(&mut self) {
        if let (Some(engine), Some(_)) = (&self.engine, self.job.take()) {
            engine.cancel();
        }
        self.subject = None;
        self.latest = None;
    }

    fn take_reports(&mut self) {
        let Some(engine) = &self.engine else { return };
        while let Some(report) = engine.try_recv() {
            if Some(report.job()) != self.job {
                continue;
            }
            match report {
                Report::Analysis { info, elapsed, .. } => {
                    self.latest = Some(Thought { info, elapsed })
                }
                Report::Done { .. } => self.job = None,
                _ => {}
            }
        }
    }

    /// Rows the pane takes when drawn (0 when hidden): its head and one per line.
    pub fn height(&self) -> u16 {
        if self.shown {
            1 + self.lines() as u16
        } else {
            0
        }
    }

    /// The pane's rows: the head (depth, speed), then each line's score and moves.
    pub fn rows(&self, look: &Appearance) -> Vec<Line<'static>> {
        let Some(t) = &self.latest else {
            return vec![Line::from(Span::styled(
                " Engine: thinking…".to_string(),
                look.dim(),
            ))];
        };
        if t.info.lines.is_empty() {
            return vec![Line::from(Span::styled(
                " Engine: no move to analyse".to_string(),
                look.dim(),
            ))];
        }
        let state = if self.job.is_none() && self.engine.is_some() {
            " (final)"
        } else {
            ""
        };
        let mut rows = vec![Line::from(vec![
            Span::styled(" Engine ".to_string(), look.accent()),
            Span::raw(format!("depth {}{state}", t.info.depth)),
            Span::styled(format!(" · {}", speed(t.info.nodes, t.elapsed)), look.dim()),
        ])];
        for (i, line) in t.info.lines.iter().enumerate() {
            rows.push(Line::from(vec![
                Span::styled(format!(" {}. ", i + 1), look.dim()),
                Span::styled(format!("{:>7} ", line.score.to_string()), look.accent()),
                Span::raw(crate::search::pv_text(&line.pv)),
            ]));
        }
        rows
    }

    /// Draw the pane in the last [`AnalysisPane::height`] rows of `panel`.
    pub fn render_at_bottom(&self, panel: Rect, buf: &mut Buffer, look: &Appearance) {
        let height = self.height().min(panel.height);
        let area = Rect {
            y: panel.bottom() - height,
            height,
            ..panel
        };
        self.render(area, buf, look);
    }

    /// Draw the pane into `area` (at most [`AnalysisPane::height`] rows are used); a line too
    /// long for it ends in the cut marker.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        for (row, line) in (area.y..area.bottom()).zip(self.rows(look)) {
            let line = fit_line(line, area.width as usize);
            buf.set_line(area.x, row, &line, area.width);
        }
    }
}

/// Nodes per second in the units of the benchmarks: `1.23 M nodes/s`, `850 k nodes/s`.
fn speed(nodes: u64, elapsed: Duration) -> String {
    let per_s = nodes as f64 / elapsed.as_secs_f64().max(0.001);
    if per_s >= 1e6 {
        format!("{:.2} M nodes/s", per_s / 1e6)
    } else {
        format!("{:.0} k nodes/s", per_s / 1e3)
    }
}
