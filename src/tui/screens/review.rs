//! Review: step through a game (a finished one, or one read from PDN), both ways, from either
//! side of the board, with the game as a graph beside the board: the engine's evaluation of
//! every position (`a` analyses, with the engine the analysis pane runs: crossboard's or a Hub
//! engine chosen with `E`; Esc stops), the biggest swings (`]` and `[` go to them) and the time
//! each side spent per move ([`super::review_graph`]).

use super::practice_engine::PracticeEngine;
use super::{Ctx, Nav, PositionSetupScreen, RenderCtx, Screen, ScreenState};
use crate::engine::{Game, Rules};
use crate::hub::{HubAnalyst, HubProgram, HubReport, HubTask};
use crate::search::GameLimits;
use crate::tui::Msg;
use crate::tui::analysis_pane::{self, AnalysisPane};
use crate::tui::keys::{
    Binding, DOWN, ENTER, ESC, Erased, Key, LEFT, RIGHT, SPACE, UP, erase, help, lookup,
};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{
    BoardView, GameLayout, GameScreenView, GraphRows, MoveListView, StatusKind, plies_and_moves,
};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The review screen.
pub struct ReviewScreen {
    /// The game reviewed.
    pub game: Game,
    /// Moves played to reach the shown position (0 = the start).
    pub ply: usize,
    /// Red at the bottom.
    pub flipped: bool,
    /// Square numbers shown.
    pub numbers: bool,
    /// Title line.
    pub title: String,
    /// Extra lines for the side panel (PDN tags: event, players, result...).
    pub info: Vec<String>,
    /// Clock readings after each move, where known (from PDN `%clock` comments or a match).
    pub clocks: Vec<Option<String>>,
    /// Player names, Red's first (empty if unknown).
    pub players: [String; 2],
    /// Time each move took, milliseconds, where known (a match's records, or worked out from
    /// PDN `%clock` comments).
    pub spent: Vec<Option<u64>>,
    /// The engine that analyses the game, and its analysis.
    pub engine: PracticeEngine,
    /// The engine thinking aloud about the position shown (`e`; in the graph's place).
    pub analysis: AnalysisPane,
    /// What the last key said (until the next key).
    message: Option<(String, StatusKind)>,
    /// A Hub engine analysing the game for the graph, while it runs.
    hub_review: Option<HubReview>,
}

/// A Hub engine's review of the game, on its analyst's thread.
struct HubReview {
    analyst: HubAnalyst,
    job: u64,
    /// Its name: the config's until it says its own.
    name: String,
}

impl ReviewScreen {
    /// Review `game` from its last position.
    /// `q` goes back to the screen under it (it is opened with [`super::Nav::Push`]).
    pub fn new(game: Game, title: String) -> ReviewScreen {
        ReviewScreen {
            ply: game.moves().len(),
            game,
            flipped: false,
            numbers: false,
            title,
            info: Vec::new(),
            players: [String::new(), String::new()],
            clocks: Vec::new(),
            spent: Vec::new(),
            engine: PracticeEngine::new(None),
            analysis: AnalysisPane::default(),
            message: None,
            hub_review: None,
        }
    }

    fn step(&mut self, delta: isize) {
        let n = self.game.moves().len() as isize;
        self.ply = (self.ply as isize + delta).clamp(0, n) as usize;
    }

    /// True while the engine analyses the game.
    pub fn analysing(&self) -> bool {
        self.engine.review_progress.is_some()
    }

    /// Start the analysis (the engine's curve), unless it runs or is done.
    fn analyse(&mut self) {
        self.message = if let Some((done, total)) = self.engine.review_progress {
            Some((
                format!("the analysis is running ({done}/{total}); Esc stops it"),
                StatusKind::Warn,
            ))
        } else if !self.graph().evals.is_empty() {
            Some((
                "the game is analysed: the graph shows it".into(),
                StatusKind::Info,
            ))
        } else if let Some(program) = self.analysis.hub_engine().cloned() {
            self.hub_analyse(program)
                .err()
                .map(|e| (e, StatusKind::Error))
        } else {
            self.engine
                .request_review(&self.game)
                .err()
                .map(|e| (e, StatusKind::Error))
        };
    }

    /// Start the Hub engine `program`'s analysis of the game, each position to the review's
    /// depth, on its own thread; its marks come by the same code as crossboard's.
    fn hub_analyse(&mut self, program: HubProgram) -> Result<(), String> {
        if self.game.moves().is_empty() {
            return Err("no moves to analyse yet".into());
        }
        if self.game.rules() != Rules::English {
            return Err(format!(
                "{}: a Hub engine analyses English draughts only, not {}",
                program.label,
                self.game.rules()
            ));
        }
        let name = program.label.clone();
        let mut analyst = HubAnalyst::spawn(program);
        let limits = GameLimits::from(self.engine.settings.review_depth);
        let moves = self.game.moves().to_vec();
        let job = analyst.start(*self.game.start(), moves, HubTask::Review(limits));
        self.engine.review_progress = Some((0, self.game.positions().len()));
        self.hub_review = Some(HubReview { analyst, job, name });
        Ok(())
    }

    /// Take the Hub engine's reports: its progress, then the review for the graph and the
    /// marks, or what it did wrong (it is then let go).
    fn poll_hub_review(&mut self) {
        let Some(run) = &mut self.hub_review else {
            return;
        };
        while let Some(report) = run.analyst.try_recv() {
            match report {
                HubReport::Ready { name } => run.name = name,
                HubReport::ReviewProgress { job, done, total } if job == run.job => {
                    self.engine.review_progress = Some((done, total));
                }
                HubReport::Reviewed { job, review } if job == run.job => {
                    let name = run.name.clone();
                    self.engine.review = Some(super::practice_engine::ReviewMarks {
                        start: *self.game.start(),
                        moves: review.moves.iter().map(|m| (m.played, m.mark)).collect(),
                        reviewed: review.moves,
                    });
                    let said = match review.unread.first() {
                        Some(u) => format!("analysed by {name}; not read: {u}"),
                        None => format!("analysed by {name}"),
                    };
                    self.message = Some((said, StatusKind::Info));
                    self.end_hub_review();
                    return;
                }
                HubReport::Failed { why, .. } => {
                    let said = format!("{why}; the analysis is stopped");
                    self.message = Some((said, StatusKind::Error));
                    self.end_hub_review();
                    return;
                }
                _ => {}
            }
        }
    }

    /// Let the Hub engine's review go (stopped, the engine told to quit).
    fn end_hub_review(&mut self) {
        self.hub_review = None;
        self.engine.review_progress = None;
    }

    /// Go to the next (`forward`) or previous of the biggest swings.
    fn mistake(&mut self, forward: bool) {
        let graph = self.graph();
        if graph.evals.is_empty() {
            self.message = Some((
                "no analysis yet: a analyses the game".into(),
                StatusKind::Warn,
            ));
            return;
        }
        let plies = graph.stops.iter().map(|(p, _)| *p);
        let next = if forward {
            plies.clone().find(|&p| p > self.ply)
        } else {
            plies.clone().rev().find(|&p| p < self.ply)
        };
        self.message = match next {
            Some(p) => {
                self.ply = p;
                None
            }
            None if graph.stops.is_empty() => Some((
                "no mistakes: no move lost 0.7 men or more".into(),
                StatusKind::Info,
            )),
            None => Some((
                format!(
                    "no mistake {} this one",
                    if forward { "after" } else { "before" }
                ),
                StatusKind::Info,
            )),
        };
    }

    fn key(&mut self, key: &ratatui::crossterm::event::KeyEvent, ctx: &Ctx) -> Nav {
        self.message = None;
        if self.analysing() {
            match lookup(ANALYSING_KEYS, key) {
                Some(Busy::Cancel) => {
                    self.engine.cancel();
                    self.end_hub_review();
                    self.message = Some(("the analysis is stopped".into(), StatusKind::Info));
                    return Nav::Stay;
                }
                Some(Busy::Close) => {
                    self.engine.cancel();
                    self.end_hub_review();
                    return Nav::Pop;
                }
                None => {}
            }
        } else if lookup(CLOSE_KEYS, key).is_some() {
            return Nav::Pop;
        }
        match lookup(KEYS, key) {
            Some(Act::Back1) => self.step(-1),
            Some(Act::Forward1) => self.step(1),
            Some(Act::Back10) => self.step(-10),
            Some(Act::Forward10) => self.step(10),
            Some(Act::Start) => self.ply = 0,
            Some(Act::End) => self.ply = self.game.moves().len(),
            Some(Act::Flip) => self.flipped = !self.flipped,
            Some(Act::Numbers) => self.numbers = !self.numbers,
            Some(Act::Analyse) => self.analyse(),
            Some(Act::NextMistake) => self.mistake(true),
            Some(Act::PreviousMistake) => self.mistake(false),
            Some(Act::Library) => {
                let places = super::LibraryPlaces::of(ctx);
                let here = self.game.positions()[self.ply];
                return Nav::Push(Box::new(Screen::Library(Box::new(
                    super::LibraryScreen::through(places, here),
                ))));
            }
            Some(Act::SetUp) => {
                let mut setup = PositionSetupScreen::new(&self.game.positions()[self.ply]);
                setup.flipped = self.flipped;
                return Nav::Push(Box::new(Screen::PositionSetup(Box::new(setup))));
            }
            None => {}
        }
        Nav::Stay
    }

    /// The rows of the graph at the bottom of the side panel in `area` (none when the panel
    /// is too short for it).
    fn graph_rows(&self, area: Rect) -> Option<GraphRows> {
        let side = GameLayout::new(area).side;
        // The players' two lines, the information lines, and four rows of the move list.
        let above = 2 + self.info.len() as u16 + 2 + 4;
        let room = side.height.saturating_sub(above).max(GraphRows::MIN);
        GraphRows::fit(room.min(side.height), side.height / 3)
    }
}

impl ReviewScreen {
    /// The moves, with their clock readings and the analysis' marks.
    fn move_list(&self) -> MoveListView {
        let marks = super::review_graph::analysis_of(self.engine.review.as_ref(), &self.game);
        let mut moves = MoveListView::plain(
            self.game.start().turn(),
            self.game.moves().iter().enumerate().map(|(i, m)| {
                match marks.and_then(|r| r.moves.get(i)).and_then(|(_, k)| *k) {
                    Some(k) => format!("{m}{}", k.symbol()),
                    None => m.to_string(),
                }
            }),
        );
        for (entry, clock) in moves.moves.iter_mut().zip(&self.clocks) {
            entry.clock = clock.clone();
        }
        moves.current = self.ply.checked_sub(1);
        moves
    }

    /// The side panel's lines: the PDN's tags, where the board stands, the game's length.
    fn info_lines(&self, look: &crate::tui::theme::Appearance) -> Vec<Line<'static>> {
        let n = self.game.moves().len();
        let mut info: Vec<Line> = self
            .info
            .iter()
            .map(|s| Line::from(Span::raw(s.clone())))
            .collect();
        let first = self.game.start().turn();
        let at = match self.ply {
            0 => "the start".to_string(),
            p => format!(
                "ply {p} of {n} (move {})",
                crate::store::move_label(first, p - 1)
            ),
        };
        info.push(Line::from(Span::styled(format!("At {at}"), look.dim())));
        info.push(Line::from(Span::styled(
            format!("Game: {}", plies_and_moves(n, first)),
            look.dim(),
        )));
        info
    }

    /// The status line: what the last key said, the analysis' progress, or where the board
    /// stands.
    fn status(&self) -> (String, StatusKind) {
        if let Some(m) = &self.message {
            return m.clone();
        }
        if let Some((done, total)) = self.engine.review_progress {
            return (
                format!("analysing the game… {done}/{total} positions (Esc stops)"),
                StatusKind::Info,
            );
        }
        let n = self.game.moves().len();
        let last = self.ply.checked_sub(1).map(|i| self.game.moves()[i]);
        let pos = &self.game.positions()[self.ply];
        let text = match (self.ply, last) {
            (0, _) => "Start position. → or l steps forward".to_string(),
            (_, Some(mv)) if self.ply == n => {
                format!("{mv}, the last move. ← or h steps back, Home goes to the start")
            }
            (_, Some(mv)) => format!("after {mv}; {} to move", pos.turn()),
            _ => String::new(),
        };
        (text, StatusKind::Info)
    }
}

impl ScreenState for ReviewScreen {
    fn chain(&self) -> Vec<Erased> {
        if self.analysing() {
            vec![
                erase(ANALYSING_KEYS),
                erase(KEYS),
                analysis_pane::erased_keys(),
            ]
        } else {
            vec![erase(KEYS), erase(CLOSE_KEYS), analysis_pane::erased_keys()]
        }
    }

    fn ticking(&self) -> bool {
        self.engine.busy(&self.game) || self.analysis.busy() || self.hub_review.is_some()
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let nav = match msg {
            Msg::Key(key) if self.analysis.key(key, &ctx.matches.engines) => Nav::Stay,
            _ => self.handle(msg, ctx),
        };
        self.analysis.follow(&self.game.positions()[..=self.ply]);
        nav
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        self.draw(frame, area, ctx);
    }

    fn title(&self) -> String {
        "Review".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        let mut lines = if self.analysing() {
            help(ANALYSING_KEYS)
        } else {
            Vec::new()
        };
        lines.extend(help(KEYS));
        if !self.analysing() {
            lines.extend(help(CLOSE_KEYS));
        }
        lines.extend(analysis_pane::help_lines());
        lines.push(KeyHelp::new("mouse wheel", "previous or next move"));
        lines
    }
}

impl ReviewScreen {
    /// A key, a tick (the engine's reports) or the mouse wheel.
    fn handle(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        match msg {
            Msg::Key(key) => return self.key(key, ctx),
            Msg::Tick => {
                self.engine.poll(&self.game, ctx.rng);
                self.poll_hub_review();
            }
            Msg::Mouse(m) => match m.kind {
                MouseEventKind::ScrollUp => self.step(-1),
                MouseEventKind::ScrollDown => self.step(1),
                _ => {}
            },
            _ => {}
        }
        Nav::Stay
    }

    /// The game screen, with the graph (or the analysis pane, when shown, in its place) at
    /// the bottom of the side panel.
    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let pos = &self.game.positions()[self.ply];
        let last = self.ply.checked_sub(1).map(|i| self.game.moves()[i]);
        let rows = self.graph_rows(area).filter(|_| !self.analysis.shown());
        let view = GameScreenView {
            title: self.title.clone(),
            board: BoardView {
                position: pos,
                flipped: self.flipped,
                numbers: self.numbers,
                last_move: last,
                selected: None,
                targets: 0,
                cursor: None,
                marked: 0,
            },
            players: self.players.clone(),
            clocks: None,
            info: self.info_lines(look),
            moves: self.move_list(),
            input: None,
            candidates: Vec::new(),
            status: self.status(),
            hint: "? help ".into(),
            reserved: rows.map_or(self.analysis.height(), GraphRows::height),
        };
        view.render(frame, area, look);
        let side = GameLayout::new(area).side;
        self.analysis
            .render_at_bottom(side, frame.buffer_mut(), look);
        if let Some(rows) = rows {
            let r = Rect {
                y: side.bottom() - rows.height(),
                height: rows.height(),
                ..side
            };
            self.graph().render(r, rows, frame.buffer_mut(), look);
        }
    }
}

/// What the keys of the review screen do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// One move back.
    Back1,
    /// One move forward.
    Forward1,
    /// Ten moves back.
    Back10,
    /// Ten moves forward.
    Forward10,
    /// The start position.
    Start,
    /// The last position.
    End,
    /// Flip the board.
    Flip,
    /// Square numbers.
    Numbers,
    /// Analyse the game (the engine's curve).
    Analyse,
    /// The next of the biggest swings.
    NextMistake,
    /// The previous one.
    PreviousMistake,
    /// Set up a position from the one on the board.
    SetUp,
    /// The library's games through the position on the board.
    Library,
}

/// Back to the screen the review was opened from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Close;

/// What the keys do while the engine analyses the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Busy {
    /// Stop the analysis.
    Cancel,
    /// Stop it and go back.
    Close,
}

/// The keys of the review screen.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[RIGHT, DOWN, Key::Char('l'), Key::Char('j'), SPACE, ENTER],
        Act::Forward1,
        "next move",
    )
    .footer("next"),
    Binding::new(
        &[LEFT, UP, Key::Char('h'), Key::Char('k')],
        Act::Back1,
        "previous move",
    )
    .footer("previous"),
    Binding::new(
        &[Key::Code(KeyCode::PageDown)],
        Act::Forward10,
        "ten moves forward",
    ),
    Binding::new(&[Key::Code(KeyCode::PageUp)], Act::Back10, "ten moves back"),
    Binding::new(
        &[Key::Code(KeyCode::Home), Key::Char('g')],
        Act::Start,
        "the start position",
    ),
    Binding::new(
        &[Key::Code(KeyCode::End), Key::Char('G')],
        Act::End,
        "the last position",
    ),
    Binding::new(&[Key::Char('f')], Act::Flip, "flip the board"),
    Binding::new(
        &[Key::Char('n')],
        Act::Numbers,
        "show or hide square numbers",
    ),
    Binding::new(
        &[Key::Char('a')],
        Act::Analyse,
        "analyse the game: the engine's curve",
    ),
    Binding::new(
        &[Key::Char(']')],
        Act::NextMistake,
        "next mistake (the biggest swings)",
    ),
    Binding::new(&[Key::Char('[')], Act::PreviousMistake, "previous mistake"),
    Binding::new(
        &[Key::Char('s')],
        Act::SetUp,
        "set up from this position: edit it, play on, save",
    ),
    Binding::new(
        &[Key::Char('/')],
        Act::Library,
        "the library's games through this position",
    ),
];

/// The review's way back, when no analysis runs.
pub(crate) static CLOSE_KEYS: &[Binding<Close>] =
    &[Binding::new(&[Key::Char('q'), ESC], Close, "back").footer("back")];

/// While the engine analyses the game: Esc stops it.
pub(crate) static ANALYSING_KEYS: &[Binding<Busy>] = &[
    Binding::new(&[ESC], Busy::Cancel, "stop the analysis").footer("stop"),
    Binding::new(
        &[Key::Char('q')],
        Busy::Close,
        "stop the analysis and go back",
    ),
];
