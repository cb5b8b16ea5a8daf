//! The analysis pane: the engine thinking aloud about the position on the board (depth, the
//! best lines with their scores, nodes per second), live, on its own worker thread. `E` picks
//! the engine: crossboard's (multi-PV) or one of the config's Hub engines (one line, as the
//! protocol gives it; started on the analyst's thread, [`crate::hub::HubAnalyst`]).
//!
//! A screen that shows a position adds it with a field and a few calls (as practice and review
//! do):
//!
//! ```text
//! struct MyScreen { analysis: AnalysisPane, .. }           // AnalysisPane::default(): hidden
//! fn chain(&self)  { .. push(analysis_pane::erased_keys()) }  // its key table (e, E, >, <)
//! fn keys(&self)   { .. extend(analysis_pane::help_lines()) } // and its help row
//! fn update(&mut self, msg, ctx) -> Nav {
//!     let nav = match msg {                                   // the pane's keys first
//!         Msg::Key(k) if self.analysis.key(k, &ctx.matches.engines) => Nav::Stay,
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
//!
//! A Hub engine that misbehaves (quits, writes garbage, plays an illegal move) is let go: the
//! pane says what it did, naming it, and analyses no more until a pane key is pressed (`e`
//! twice: crossboard's engine again; `E`: the next engine).

use super::keys::{Binding, Erased, Key, erase, help, lookup};
use super::theme::Appearance;
use super::widgets::fit_line;
use super::widgets::menu::KeyHelp;
use crate::engine::{Position, Rules};
use crate::hub::{HubAnalyst, HubInfo, HubProgram, HubReport, HubTask};
use crate::search::{GameLimits, MultiInfo, Options, Report, Request, Searcher, Task};
use crate::store::HubEngineConfig;
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
    /// `e` shows or hides the pane (hiding stops the engine); `E` shows it with the next
    /// engine; `>` and `<` show it with one line more or fewer.
    Pane,
}

/// The pane's keys, on every screen that has it.
pub(crate) static KEYS: &[Binding<PaneAct>] = &[Binding::new(
    &[
        Key::Char('e'),
        Key::Char('E'),
        Key::Char('>'),
        Key::Char('<'),
    ],
    PaneAct::Pane,
    "engine analysis: e show/hide, E which engine, > < lines",
)];

/// A Hub engine's analysis: until stopped.
const ENDLESS: GameLimits = GameLimits {
    depth: None,
    time_ms: None,
};

/// The engines the `E` key goes through: the config's Hub engines, by name.
pub type Engines = [(String, HubEngineConfig)];

/// The pane's keys for a screen's `chain`.
pub fn erased_keys() -> Erased {
    erase(KEYS)
}

/// The pane's keys for a screen's help.
pub fn help_lines() -> Vec<KeyHelp> {
    help(KEYS)
}

/// What an engine last said, as the pane shows it.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    /// crossboard's engine: a depth with its lines.
    Own(MultiInfo),
    /// A Hub engine's `info` line.
    Hub(HubInfo),
}

/// One depth of analysis as the pane shows it.
#[derive(Clone, Debug, PartialEq)]
struct Thought {
    seen: Seen,
    elapsed: Duration,
}

/// The Hub engine the pane runs, on its analyst's thread.
struct HubRun {
    analyst: HubAnalyst,
    /// The name (and version) it gave, once started.
    name: Option<String>,
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
    /// The Hub engine chosen (`None`: crossboard's).
    choice: Option<HubProgram>,
    hub: Option<HubRun>,
    /// Said instead of the analysis, until a pane key: why a Hub engine was let go (the pane
    /// then analyses no more), or why `E` chose none.
    notice: Option<(String, bool)>,
}

impl std::fmt::Debug for AnalysisPane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisPane")
            .field("shown", &self.shown)
            .field("lines", &self.lines())
            .field("job", &self.job)
            .field("choice", &self.choice)
            .finish_non_exhaustive()
    }
}

impl Clone for AnalysisPane {
    /// The settings (shown, lines, the engine chosen) without the running engine: the copy
    /// starts its own.
    fn clone(&self) -> AnalysisPane {
        AnalysisPane {
            shown: self.shown,
            lines: self.lines,
            choice: self.choice.clone(),
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
            latest: Some(Thought {
                seen: Seen::Own(info),
                elapsed,
            }),
            ..AnalysisPane::default()
        }
    }

    /// A shown pane that displays the Hub engine `name`'s `info` for `position`, with no
    /// engine: for tests and pictures.
    pub fn fed_hub(position: Position, name: &str, info: HubInfo, elapsed: Duration) -> Self {
        AnalysisPane {
            shown: true,
            lines: 1,
            subject: Some((position, 1)),
            latest: Some(Thought {
                seen: Seen::Hub(info),
                elapsed,
            }),
            choice: Some(HubProgram {
                label: name.to_string(),
                program: std::path::PathBuf::new(),
                args: Vec::new(),
                params: Vec::new(),
            }),
            ..AnalysisPane::default()
        }
    }

    /// The Hub engine chosen (`None`: crossboard's), for a screen that runs it for more (the
    /// review's graph).
    pub fn hub_engine(&self) -> Option<&HubProgram> {
        self.choice.as_ref()
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

    /// crossboard's analysis last reported for the position analysed (`None`: none yet).
    pub fn info(&self) -> Option<&MultiInfo> {
        match &self.latest.as_ref()?.seen {
            Seen::Own(info) => Some(info),
            Seen::Hub(_) => None,
        }
    }

    /// A Hub engine's `info` line last reported for the position analysed.
    pub fn hub_info(&self) -> Option<&HubInfo> {
        match &self.latest.as_ref()?.seen {
            Seen::Hub(info) => Some(info),
            Seen::Own(_) => None,
        }
    }

    /// What the pane says instead of its analysis (a Hub engine let go, or no engine to
    /// choose), if anything.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_ref().map(|(n, _)| n.as_str())
    }

    /// Handle `key` if it is one of the pane's ([`KEYS`]); true when it was. `engines` are
    /// the ones `E` goes through. The search starts or stops at the next
    /// [`AnalysisPane::follow`].
    pub fn key(&mut self, key: &KeyEvent, engines: &Engines) -> bool {
        if lookup(KEYS, key).is_none() {
            return false;
        }
        self.press(key.code, engines);
        true
    }

    /// Act on a key that a screen's own table binds to the pane: `E` shows it with the next
    /// engine of crossboard's and `engines`; `>` and `<` show it with one line more or fewer,
    /// any other key shows or hides it (the set-up screen's `a`, whose `e` opens the FEN
    /// field).
    pub fn press(&mut self, code: KeyCode, engines: &Engines) {
        let n = self.lines();
        self.notice = None;
        match code {
            KeyCode::Char('E') => self.next_engine(engines),
            KeyCode::Char('>') => self.lines = (n + 1).min(MAX_LINES),
            KeyCode::Char('<') => self.lines = n.saturating_sub(1).max(1),
            _ => {
                self.shown = !self.shown;
                return;
            }
        }
        self.shown = true;
    }

    /// Switch to the engine after the one chosen: crossboard's, then each of `engines` in
    /// turn, then crossboard's again. The running one is stopped (a Hub engine let go).
    fn next_engine(&mut self, engines: &Engines) {
        let at = self
            .choice
            .as_ref()
            .and_then(|c| engines.iter().position(|(name, _)| *name == c.label));
        let next = at.map_or(0, |i| i + 1);
        self.stop();
        self.hub = None;
        self.choice = None;
        let Some((name, config)) = engines.get(next) else {
            if engines.is_empty() {
                let why = "no Hub engine in the config file: add one as [engines.NAME]";
                self.notice = Some((why.into(), false));
            }
            return;
        };
        match config.program(name) {
            Ok(program) => {
                self.choice = Some(HubProgram {
                    label: name.clone(),
                    program,
                    args: config.arguments.clone(),
                    params: config.params(),
                });
            }
            Err(why) => self.notice = Some((format!("{why}; crossboard's engine"), false)),
        }
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
        self.take_reports();
        if self.stopped() {
            return;
        }
        let subject = (*position, self.lines());
        if self.subject != Some(subject) {
            self.latest = None;
            self.subject = Some(subject);
            if let Some(program) = self.choice.clone() {
                self.job = self.start_hub(positions, program);
                return;
            }
            let history = &positions[..positions.len() - 1];
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

    /// Start the chosen Hub engine's analysis of the last of `positions` (the engine started
    /// first, on its thread); its job.
    fn start_hub(&mut self, positions: &[Position], program: HubProgram) -> Option<u64> {
        let (start, moves) = crate::search::moves_between(positions);
        if start.rules() != Rules::English {
            let why = format!(
                "{}: a Hub engine analyses English draughts only, not {}",
                program.label,
                start.rules()
            );
            self.notice = Some((why, true));
            return None;
        }
        let run = self.hub.get_or_insert_with(|| HubRun {
            analyst: HubAnalyst::spawn(program),
            name: None,
        });
        Some(run.analyst.start(start, moves, HubTask::Analyse(ENDLESS)))
    }

    /// True while the engine is thinking, or is to start (the screen then ticks to take its
    /// reports, or to start it).
    pub fn busy(&self) -> bool {
        self.shown && (self.job.is_some() || self.subject.is_none())
    }

    /// Stop the engine at once (its stop flag, or a Hub engine told `stop`); the next
    /// [`AnalysisPane::follow`] of a shown pane starts it again.
    pub fn stop(&mut self) {
        if self.job.take().is_some() {
            if let Some(engine) = &self.engine {
                engine.cancel();
            }
            if let Some(run) = &mut self.hub {
                run.analyst.cancel();
            }
        }
        self.subject = None;
        self.latest = None;
    }

    fn take_reports(&mut self) {
        self.take_hub_reports();
        let Some(engine) = &self.engine else { return };
        // While a Hub engine runs, crossboard's last reports are stale (and their job numbers
        // are not the analyst's).
        let own = self.choice.is_none();
        while let Some(report) = engine.try_recv() {
            if !own || Some(report.job()) != self.job {
                continue;
            }
            match report {
                Report::Analysis { info, elapsed, .. } => {
                    self.latest = Some(Thought {
                        seen: Seen::Own(info),
                        elapsed,
                    });
                }
                Report::Done { .. } => self.job = None,
                _ => {}
            }
        }
    }

    /// The Hub engine's reports; one that failed is let go, and the pane says why.
    fn take_hub_reports(&mut self) {
        let Some(run) = &mut self.hub else { return };
        while let Some(report) = run.analyst.try_recv() {
            match report {
                HubReport::Ready { name } => run.name = Some(name),
                HubReport::Info { job, info, elapsed } if Some(job) == self.job => {
                    self.latest = Some(Thought {
                        seen: Seen::Hub(info),
                        elapsed,
                    });
                }
                HubReport::Done { job, .. } if Some(job) == self.job => self.job = None,
                HubReport::Failed { why, .. } => {
                    self.hub = None;
                    self.choice = None;
                    self.job = None;
                    self.latest = None;
                    self.notice = Some((why, true));
                    return;
                }
                _ => {}
            }
        }
    }

    /// The name the pane's head gives the Hub engine: its own once it said it.
    fn hub_name(&self) -> String {
        match (&self.hub, &self.choice) {
            (Some(HubRun { name: Some(n), .. }), _) => n.clone(),
            (_, Some(p)) => p.label.clone(),
            _ => "Engine".into(),
        }
    }

    /// Rows the pane takes when drawn (0 when hidden): its head and one per line (a Hub
    /// engine: its line and a note), and a notice's row.
    pub fn height(&self) -> u16 {
        let notice = self.notice_texts().len() as u16;
        match (self.shown, &self.choice) {
            (false, _) => 0,
            (true, _) if self.stopped() => notice,
            (true, Some(_)) => 3 + notice,
            (true, None) => 1 + self.lines() as u16 + notice,
        }
    }

    /// True when a Hub engine was let go: the pane analyses no more until a pane key.
    fn stopped(&self) -> bool {
        self.notice.as_ref().is_some_and(|(_, stopped)| *stopped)
    }

    /// The notice's rows: who, then what (a Hub engine let go: and the keys).
    fn notice_texts(&self) -> Vec<String> {
        let Some((text, stopped)) = &self.notice else {
            return Vec::new();
        };
        let mut rows = match text.split_once(": ") {
            Some((who, what)) if *stopped => vec![format!(" {who}, stopped:"), format!(" {what}")],
            Some((who, what)) => vec![format!(" {who}:"), format!(" {what}")],
            None => vec![format!(" {text}")],
        };
        if *stopped {
            rows.push(" e: hide · E: next engine".into());
        }
        rows
    }

    /// The pane's rows: a notice, the head (depth, speed), then each line's score and moves.
    pub fn rows(&self, look: &Appearance) -> Vec<Line<'static>> {
        let notice = self.notice_texts();
        let last = notice.len().saturating_sub(1);
        let mut rows: Vec<Line<'static>> = notice
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let style = if self.stopped() && i == last {
                    look.dim()
                } else {
                    look.alert()
                };
                Line::from(Span::styled(t, style))
            })
            .collect();
        if !self.stopped() {
            rows.extend(self.analysis_rows(look));
        }
        rows
    }

    fn analysis_rows(&self, look: &Appearance) -> Vec<Line<'static>> {
        let who = if self.choice.is_some() {
            self.hub_name()
        } else {
            "Engine".into()
        };
        let Some(t) = &self.latest else {
            let what = if self.job.is_none() && self.subject.is_some() {
                "no move to analyse"
            } else {
                "thinking…"
            };
            return vec![Line::from(Span::styled(
                format!(" {who}: {what}"),
                look.dim(),
            ))];
        };
        let info = match &t.seen {
            Seen::Own(info) => info,
            Seen::Hub(info) => return self.hub_rows(&who, info, t.elapsed, look),
        };
        if info.lines.is_empty() {
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
            Span::raw(format!("depth {}{state}", info.depth)),
            Span::styled(format!(" · {}", speed(info.nodes, t.elapsed)), look.dim()),
        ])];
        for (i, line) in info.lines.iter().enumerate() {
            rows.push(Line::from(vec![
                Span::styled(format!(" {}. ", i + 1), look.dim()),
                Span::styled(format!("{:>7} ", line.score.to_string()), look.accent()),
                Span::raw(crate::search::pv_text(&line.pv)),
            ]));
        }
        rows
    }

    /// A Hub engine's rows: its name, depth and speed as it reports them, its one line, and a
    /// note: what it said that could not be read, or that it gives one line.
    fn hub_rows(
        &self,
        who: &str,
        info: &HubInfo,
        elapsed: Duration,
        look: &Appearance,
    ) -> Vec<Line<'static>> {
        let state = if self.job.is_none() && self.hub.is_some() {
            " (final)"
        } else {
            ""
        };
        let depth = info.depth.map_or("?".into(), |d| d.to_string());
        let per_s = info.nps.or_else(|| {
            let secs = elapsed.as_secs_f64();
            info.nodes.map(|n| n as f64 / secs.max(0.001))
        });
        let mut head = vec![
            Span::styled(format!(" {who} "), look.accent()),
            Span::raw(format!("depth {depth}{state}")),
        ];
        if let Some(per_s) = per_s {
            head.push(Span::styled(
                format!(" · {}", nodes_per_s(per_s)),
                look.dim(),
            ));
        }
        let score = info.score.map_or("?".into(), |s| s.to_string());
        let note = match info.unread.first() {
            Some(u) => format!(" not read ({}): {u}", info.unread.len()),
            None => " one line: Hub has no multi-PV".into(),
        };
        let alert = if info.unread.is_empty() {
            look.dim()
        } else {
            look.alert()
        };
        vec![
            Line::from(head),
            Line::from(vec![
                Span::styled(" 1. ".to_string(), look.dim()),
                Span::styled(format!("{score:>7} "), look.accent()),
                Span::raw(crate::search::pv_text(&info.pv)),
            ]),
            Line::from(Span::styled(note, alert)),
        ]
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
    nodes_per_s(nodes as f64 / elapsed.as_secs_f64().max(0.001))
}

/// A speed in the units of the benchmarks.
fn nodes_per_s(per_s: f64) -> String {
    if per_s >= 1e6 {
        format!("{:.2} M nodes/s", per_s / 1e6)
    } else {
        format!("{:.0} k nodes/s", per_s / 1e3)
    }
}
