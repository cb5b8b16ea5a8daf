//! The engines screen: the Hub engines of the config file (`[engines.NAME]`), each with its
//! state: not found, starting, the name and version it reports on start, or why it failed.
//! Each is started on a thread of its own, introduced and initialised, then told to quit: the
//! screen never waits for one.

use super::{Ctx, Nav, RenderCtx, ScreenState};
use crate::hub::HubEngine;
use crate::search::Player;
use crate::store::HubEngineConfig;
use crate::tui::Msg;
use crate::tui::keys::{Binding, ESC, Erased, Key, erase, footer, help, help_hint, lookup};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{fit_line, fit_text};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use std::sync::mpsc::{Receiver, channel};

/// What is known of one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineState {
    /// Its program is not where the config says.
    NotFound,
    /// Started; its introduction awaited.
    Starting,
    /// It introduced itself: its name and version.
    Ready(String),
    /// It did not start, or misbehaved while starting.
    Failed(String),
}

/// One configured engine on the screen.
#[derive(Clone, Debug)]
pub struct EngineRow {
    /// Its name in the config file.
    pub name: String,
    /// Its entry.
    pub config: HubEngineConfig,
    /// What is known of it.
    pub state: EngineState,
}

/// The engines screen.
#[derive(Debug)]
pub struct EnginesScreen {
    /// The engines, in the config file's order of names.
    pub rows: Vec<EngineRow>,
    /// The starts under way: (row, what the start found).
    answers: Option<Receiver<(usize, EngineState)>>,
    /// What the last key did.
    message: Option<String>,
}

impl Clone for EnginesScreen {
    /// The rows as known; a start under way is not carried over.
    fn clone(&self) -> EnginesScreen {
        EnginesScreen {
            rows: self.rows.clone(),
            answers: None,
            message: self.message.clone(),
        }
    }
}

/// Start `config` as `name`, and say what it is.
fn probe(name: &str, config: &HubEngineConfig) -> EngineState {
    let Some(program) = config.resolve() else {
        return EngineState::NotFound;
    };
    match HubEngine::spawn(name, &program, &config.arguments, &config.params()) {
        Ok(engine) => EngineState::Ready(engine.name()),
        Err(e) => EngineState::Failed(e),
    }
}

impl EnginesScreen {
    /// The screen for `engines` (the config's, by name); each found one is started at once.
    pub fn new(engines: &[(String, HubEngineConfig)]) -> EnginesScreen {
        let mut screen = EnginesScreen {
            rows: engines
                .iter()
                .map(|(name, config)| EngineRow {
                    name: name.clone(),
                    config: config.clone(),
                    state: EngineState::Starting,
                })
                .collect(),
            answers: None,
            message: None,
        };
        screen.check();
        screen
    }

    /// Start every engine again (each on its own thread).
    fn check(&mut self) {
        let (tx, rx) = channel();
        for (i, row) in self.rows.iter_mut().enumerate() {
            if row.config.resolve().is_none() {
                row.state = EngineState::NotFound;
                continue;
            }
            row.state = EngineState::Starting;
            let (tx, name, config) = (tx.clone(), row.name.clone(), row.config.clone());
            std::thread::spawn(move || {
                let _ = tx.send((i, probe(&name, &config)));
            });
        }
        self.answers = Some(rx);
    }

    /// Take the answers in (never waiting).
    fn take_answers(&mut self) {
        let Some(rx) = &self.answers else { return };
        while let Ok((i, state)) = rx.try_recv() {
            if let Some(row) = self.rows.get_mut(i) {
                row.state = state;
            }
        }
        if !self.ticking() {
            self.answers = None;
        }
    }

    fn row_lines(row: &EngineRow, look: &crate::tui::Appearance) -> [Line<'static>; 2] {
        let (state, style) = match &row.state {
            EngineState::NotFound => ("not found".to_string(), look.alert()),
            EngineState::Starting => ("starting…".to_string(), look.dim()),
            EngineState::Ready(id) => (format!("ready: {id}"), look.accent()),
            EngineState::Failed(why) => (format!("failed: {why}"), look.alert()),
        };
        let mut program = row.config.path.display().to_string();
        for a in &row.config.arguments {
            program.push(' ');
            program.push_str(a);
        }
        let options: Vec<String> = row
            .config
            .params()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if !options.is_empty() {
            program.push_str(&format!(" · {}", options.join(" ")));
        }
        [
            Line::from(vec![
                Span::styled(format!(" {:<24} ", row.name), look.accent()),
                Span::styled(state, style),
            ]),
            Line::from(Span::styled(format!("   {program}"), look.dim())),
        ]
    }
}

/// What the keys of the engines screen do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Start every engine again.
    Check,
    /// Back.
    Back,
}

/// The keys of the engines screen.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(&[Key::Char('r')], Act::Check, "start each engine again").footer("check"),
    Binding::new(&[Key::Char('q'), ESC], Act::Back, "back").footer("back"),
];

impl ScreenState for EnginesScreen {
    fn chain(&self) -> Vec<Erased> {
        vec![erase(KEYS)]
    }

    fn update(&mut self, msg: &Msg, _ctx: &mut Ctx) -> Nav {
        self.take_answers();
        let Msg::Key(k) = msg else {
            return Nav::Stay;
        };
        match lookup(KEYS, k) {
            Some(Act::Check) if self.rows.is_empty() => {
                self.message = Some("no engine to start: add one to the config file".into());
            }
            Some(Act::Check) => {
                self.check();
                self.message = Some("each engine started again".into());
            }
            Some(Act::Back) => return Nav::Pop,
            None => {}
        }
        Nav::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let width = usize::from(area.width.saturating_sub(1));
        let buf = frame.buffer_mut();
        buf.set_string(area.x + 1, area.y, " Engines (Hub protocol)", look.accent());
        let mut lines = Vec::new();
        if self.rows.is_empty() {
            for text in [
                "No engine in the config file. Add one as [engines.NAME] with its path,",
                "arguments and options (see config.example.toml); `crossboard config` names",
                "the file. Each is then offered in practice, for hints and analysis.",
            ] {
                lines.push(Line::from(format!(" {text}")));
            }
        }
        for row in &self.rows {
            lines.extend(EnginesScreen::row_lines(row, look));
        }
        let bottom = area.bottom().saturating_sub(1);
        for (y, line) in (area.y + 2..bottom.saturating_sub(1)).zip(lines) {
            buf.set_line(area.x, y, &fit_line(line, width), area.width);
        }
        if let Some(m) = &self.message {
            let y = bottom.saturating_sub(1);
            buf.set_string(area.x + 1, y, fit_text(m, width), look.dim());
        }
        let keys = format!("{} · {}", footer(KEYS), help_hint(false));
        buf.set_string(area.x + 1, bottom, fit_text(&keys, width), look.dim());
    }

    fn title(&self) -> String {
        "Engines".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        help(KEYS)
    }

    fn ticking(&self) -> bool {
        self.rows.iter().any(|r| r.state == EngineState::Starting)
    }
}
