//! The match screen: one [`Stage`] at a time (colour toss, ballot draw, accept/reject, the
//! game about to start, the game, the game over, the results), with popups for
//! confirmations, resignations, the director menu and the event log.
//!
//! Input only becomes director [`Command`]s, and every command goes through
//! [`MatchScreen::command`] (through [`MatchSession::apply`], which saves); the stage follows
//! the events that come back. Keys are looked up in the stage's binding tables first, then in
//! the screen's own ([`BOARD_KEYS`], [`KEYS`]); the `?` help is made from the same tables.

use super::director_menu::DirectorPopup;
use super::log_view::LogView;
use super::persist::{self, Saver};
use super::results::{self, ResultsStage};
use super::session::MatchSession;
use super::stages::{DrawShown, DrawStage, GameStage, OverStage, Stage, StageKind, Step, View};
use super::{MatchOptions, stages, words};
use crate::director::{Awaiting, Command, LogEntry, Match, MatchEvent, MatchSettings, Phase};
use crate::engine::Color;
use crate::store::{Exported, export_match};
use crate::tui::Msg;
use crate::tui::keys::{Erased, erase, footer, help, help_hint, lookup};
use crate::tui::move_input::{MOVE_KEYS, MoveAct};
use crate::tui::screens::{Ctx, Nav, RenderCtx, ScreenState};
use crate::tui::theme::Appearance;
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{Confirm, GameLayout, StatusKind};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyEvent, MouseButton, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use std::time::Instant;

pub(crate) mod keys;
mod live;
mod popup;

use keys::{Act, BOARD_KEYS, KEYS, RESIGN_KEYS, SERVE_KEYS, SERVING_KEYS, SHEET_KEYS};

/// How often an idle match screen that reports to a desk redraws its link's state.
const LINK_WAKE: std::time::Duration = std::time::Duration::from_millis(500);

/// What a confirmation leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A player resigns.
    Resign(Color),
    /// Open the director menu (pausing a running game's clocks).
    OpenDirector,
    /// A director command, with its summary.
    Director(Command, String),
    /// Back to the home screen (the match is saved).
    Leave,
    /// Quit crossboard (Ctrl-C in a running game; the match is saved).
    Quit,
}

/// A popup over the match screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    /// A yes/no question.
    Confirm(Confirm, Pending),
    /// Which player resigns?
    ResignWho,
    /// The director menu or one of its forms.
    Director(DirectorPopup),
    /// The event log in words.
    Log(LogView),
    /// Serve the match live: to this machine or the hall?
    Serve,
    /// Where the match is served (and stop).
    Serving,
}

impl Popup {
    /// A yes/no question leading to `then`.
    pub fn confirm(title: &str, lines: Vec<String>, then: Pending) -> Popup {
        Popup::Confirm(Confirm::new(title, lines), then)
    }
}

/// A message on the status line: shown until the next event of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Note {
    text: String,
    kind: StatusKind,
    /// The stage's own status follows it (what Enter does now).
    then_own: bool,
    /// The length of the match's log when it was made.
    at: usize,
}

/// The match screen.
#[derive(Debug)]
pub struct MatchScreen {
    /// The match and where it is saved.
    pub session: MatchSession,
    /// The stage shown.
    pub stage: Stage,
    /// White at the top (Red's view).
    pub flipped: bool,
    /// Square numbers shown.
    pub numbers: bool,
    /// A popup, if open.
    pub popup: Option<Popup>,
    /// Where exports go when the match has no file.
    pub export_dir: Option<std::path::PathBuf>,
    message: Option<Note>,
    /// A note for the open dialog (a key it does not take).
    dialog_note: Option<String>,
    /// The director menu paused the clocks: closing it asks whether to resume.
    paused_for_menu: bool,
    /// Leaving goes back to the screen that opened the match (the desk) instead of home.
    pub back_to_caller: bool,
    /// The match served live and reported to the desk.
    live: live::Live,
}

impl MatchScreen {
    /// Start a new match with `settings`, saved as `options` say.
    pub fn start(
        settings: MatchSettings,
        options: &MatchOptions,
        now: Instant,
    ) -> Result<MatchScreen, String> {
        let wall = options.wall();
        let m = Match::new(settings, crate::director::Now { mono_ms: 0, wall })
            .map_err(|e| e.to_string())?;
        let (saver, note) = persist::create(options, &m, wall)?;
        let mut s = MatchScreen::new(MatchSession::new(m, saver, now, wall));
        s.export_dir = options.dir.clone();
        if let Some(n) = note {
            s.say(n, StatusKind::Warn);
        }
        Ok(s)
    }

    /// Start a new match for a board of an event, with the `settings` the event gives it
    /// ([`crate::event::match_settings`]): the board's first player takes Red in game 1 (the
    /// director assigns colours) and, when the round gave the board its ballot, that ballot
    /// is played (no draw of the match's own).
    pub fn start_for_board(
        settings: MatchSettings,
        options: &MatchOptions,
        now: Instant,
        rng: &mut dyn rand::Rng,
    ) -> Result<MatchScreen, String> {
        let given = !settings.given_ballots.is_empty();
        let mut screen = MatchScreen::start(settings, options, now)?;
        let first_red = Command::AssignColour {
            player: crate::director::Player::First,
            colour: Color::Red,
        };
        screen
            .apply_before_shown(first_red, now, rng)
            .map_err(|e| e.to_string())?;
        if given {
            screen
                .apply_before_shown(Command::DrawBallot, now, rng)
                .map_err(|e| e.to_string())?;
        }
        Ok(screen)
    }

    /// Continue a match read back from disk: clocks held at the last committed move (the
    /// director resumes them), every move and clock reading shown.
    pub fn resume(
        mut m: Match,
        saver: Saver,
        now: Instant,
        wall: chrono::DateTime<chrono::Utc>,
    ) -> MatchScreen {
        // Looking is not writing: the reopening is recorded with the director's next action.
        m.reopen(crate::director::Now { mono_ms: 0, wall });
        let notes: String = saver
            .open_notes()
            .iter()
            .map(|n| format!(" · {n}"))
            .collect();
        let session = MatchSession::new(m, saver, now, wall);
        let mut s = MatchScreen::new(session);
        let text = match s.session.m.awaiting() {
            Awaiting::Resume => {
                "match resumed, clocks paused at the last move: Enter resumes them".to_string()
            }
            _ => format!("match resumed: {}", words::status(&s.session.m)),
        };
        s.say(text + &notes, StatusKind::Warn);
        s
    }

    fn new(session: MatchSession) -> MatchScreen {
        MatchScreen {
            stage: Stage::for_match(&session.m),
            session,
            flipped: false,
            numbers: false,
            popup: None,
            export_dir: None,
            message: None,
            dialog_note: None,
            paused_for_menu: false,
            back_to_caller: false,
            live: live::Live::default(),
        }
    }

    /// Where leaving the match goes.
    fn leave(&self) -> Nav {
        if self.back_to_caller {
            Nav::Pop
        } else {
            Nav::Home
        }
    }

    /// The match.
    pub fn game_match(&self) -> &Match {
        &self.session.m
    }

    /// Which stage is shown.
    pub fn stage(&self) -> StageKind {
        self.stage.kind()
    }

    /// Show a message on the status line until the next event.
    pub(super) fn say(&mut self, text: impl Into<String>, kind: StatusKind) {
        self.message = Some(Note {
            text: text.into(),
            kind,
            then_own: false,
            at: self.session.m.log().len(),
        });
    }

    /// Show what was just done, followed by the stage's own status (what Enter does now), so
    /// the line is never stale.
    fn say_done(&mut self, text: impl Into<String>) {
        self.say(text, StatusKind::Info);
        if let Some(n) = &mut self.message {
            n.then_own = true;
        }
    }

    /// The message to show now (and whether the stage's status follows it): none once an
    /// event has happened since it was made.
    fn current_message(&self) -> Option<(String, StatusKind, bool)> {
        self.message
            .as_ref()
            .filter(|n| n.at == self.session.m.log().len())
            .map(|n| (n.text.clone(), n.kind, n.then_own))
    }

    /// Apply a command for the screen's caller before it is shown (the desk settling the
    /// colours of a board); the screen opens on the stage the match is then at.
    pub fn apply_before_shown(
        &mut self,
        cmd: Command,
        at: Instant,
        rng: &mut dyn rand::Rng,
    ) -> Result<(), crate::director::MatchError> {
        self.session.apply(cmd, at, rng)?;
        self.stage = Stage::for_match(&self.session.m);
        Ok(())
    }

    /// Send a command to the director and follow what happened. True if it was accepted;
    /// if refused, the reason is on the status line.
    fn command(&mut self, cmd: Command, ctx: &mut Ctx) -> bool {
        if self.session.read_only().is_some() {
            let text = "read-only: this match is only looked at, nothing changes here";
            self.say(text, StatusKind::Error);
            return false;
        }
        match self.session.apply(cmd, ctx.now, ctx.rng) {
            Ok(entries) => {
                self.observe(&entries);
                true
            }
            Err(e) => {
                let text = words::refusal(&self.session.m, &e);
                self.say(text, StatusKind::Error);
                false
            }
        }
    }

    /// Follow new log entries: the stage they lead to.
    fn observe(&mut self, entries: &[LogEntry]) {
        for e in entries {
            match &e.event {
                MatchEvent::CoinFlipped { .. }
                | MatchEvent::ColourDrawn { .. }
                | MatchEvent::HandPicked { .. }
                | MatchEvent::ColoursSet { .. } => {
                    if let Stage::Toss(t) = &mut self.stage {
                        t.observe(&e.event);
                    }
                }
                MatchEvent::BallotDrawn { ballot, steps, .. } => {
                    // The opening drawn: pending a decision, or accepted at once.
                    let m = &self.session.m;
                    let Some(opening) = m.pending_draw().map(|d| &d.opening).or_else(|| {
                        m.ballots()
                            .last()
                            .filter(|b| b.number == *ballot)
                            .map(|b| &b.opening)
                    }) else {
                        continue;
                    };
                    let by_key = matches!(&self.stage, Stage::Draw(s) if s.by_key);
                    let mut d = DrawShown::new(*ballot, opening.clone(), steps.clone(), true);
                    d.auto = !by_key;
                    self.stage = if d.done() {
                        Stage::Decide(stages::DecideStage::new(d))
                    } else {
                        Stage::Draw(DrawStage {
                            drawn: Some(d),
                            rejected: None,
                            by_key,
                        })
                    };
                }
                MatchEvent::BallotDiscarded { .. } => {
                    let rejected = self.session.m.rejected().last().map(|r| r.opening.clone());
                    self.stage = Stage::Draw(DrawStage::waiting(&self.session.m, rejected));
                }
                MatchEvent::DecisionUndone { restored: None, .. } => {
                    self.stage = Stage::Game(GameStage::new(&self.session.m));
                }
                MatchEvent::DecisionUndone {
                    restored: Some(_), ..
                } => self.stage = Stage::Results(ResultsStage::default()),
                MatchEvent::GameStarted { .. } | MatchEvent::MovesTakenBack { .. } => {
                    self.stage = Stage::Game(GameStage::new(&self.session.m));
                }
                MatchEvent::MovePlayed { .. }
                | MatchEvent::Huffed { .. }
                | MatchEvent::Compelled => {
                    if let Stage::Game(g) = &mut self.stage {
                        g.reset(&self.session.m);
                    }
                }
                MatchEvent::GameEnded { .. } => self.stage = Stage::Over(OverStage),
                MatchEvent::ResultAmended { .. } => {
                    self.stage = Stage::Results(ResultsStage::default())
                }
                _ => {}
            }
        }
    }

    /// Do what a stage asked.
    fn follow(&mut self, step: Step, ctx: &mut Ctx) -> Nav {
        match step {
            Step::Stay => {}
            Step::Command(cmd) => {
                self.command(cmd, ctx);
            }
            Step::To(stage) => {
                self.stage = stage;
                self.message = None;
            }
            Step::Popup(p) => self.open(p),
            Step::Message(text, kind) => self.say(text, kind),
            Step::Clear => self.message = None,
            Step::Review => {
                let m = &self.session.m;
                if let Some(g) = m.current_game() {
                    let review = crate::tui::ReviewScreen::of_match_game(m, g);
                    return Nav::Push(Box::new(crate::tui::Screen::Review(review)));
                }
            }
        }
        Nav::Stay
    }

    fn open(&mut self, p: Popup) {
        self.popup = Some(p);
        self.dialog_note = None;
    }

    fn confirm(&mut self, title: &str, lines: Vec<String>, then: Pending) {
        self.open(Popup::confirm(title, lines, then));
    }

    /// The clocks of a running game (not paused) would run on under a popup.
    fn clocks_running(&self) -> bool {
        self.session
            .m
            .playing()
            .is_some_and(|g| g.clock.is_running())
    }

    /// The director menu closed: if it paused the clocks, ask whether to resume them.
    fn after_menu(&mut self) {
        if !std::mem::take(&mut self.paused_for_menu) {
            return;
        }
        if let Some(g) = self.session.m.playing()
            && g.clock.is_paused()
        {
            let turn = g.game.position().turn();
            self.confirm(
                "Resume the clocks",
                vec![
                    "The director menu is closed; both clocks are paused.".into(),
                    format!("Start {turn}'s clock again? (n: they stay paused)"),
                ],
                Pending::Director(Command::ResumeClocks, "Resume the clocks".into()),
            );
        }
    }

    /// A key a dialog does not take: a move typed then is refused, with a note.
    fn stray_key(&mut self, key: &KeyEvent) {
        if lookup(MOVE_KEYS, key) == Some(MoveAct::Type) {
            self.dialog_note =
                Some("No move while this dialog is open: answer it or Esc first.".into());
        }
    }

    /// Write every game of the match as PDN beside the match file.
    pub fn export(&mut self) {
        let path = persist::export_path(&self.session.saver, self.export_dir.as_deref());
        match export_match(&self.session.m, &path, self.session.saver.path()) {
            Ok(done) => self.say_done(export_sentence(done, &path)),
            Err(e) => self.say(format!("export failed: {e}"), StatusKind::Error),
        }
    }

    /// The sheets are printed between games, not while one is played.
    fn sheets_offered(&self) -> bool {
        !matches!(self.stage, Stage::Game(_))
    }

    /// The screen's own keys.
    fn own_key(&mut self, key: &KeyEvent) -> Nav {
        let board = self.stage.has_board();
        let act = lookup(KEYS, key)
            .or_else(|| if board { lookup(BOARD_KEYS, key) } else { None })
            .or_else(|| {
                self.sheets_offered()
                    .then(|| lookup(SHEET_KEYS, key))
                    .flatten()
            });
        match act {
            Some(Act::Director) => {
                let mut lines = vec!["For the match director only.".to_string()];
                if self.clocks_running() {
                    lines.push("Both clocks are paused while the menu is open.".into());
                }
                lines.push("Open the director menu?".into());
                self.confirm("Director menu", lines, Pending::OpenDirector);
            }
            Some(Act::Leave) => {
                // Nothing to lose: a finished match, or one only looked at.
                if self.session.m.phase() == Phase::Finished || self.session.read_only().is_some() {
                    self.stop_live();
                    return self.leave();
                }
                let saved = match self.session.saver.path() {
                    Some(p) => format!("The match is saved in {}.", p.display()),
                    None => "This match is not being saved.".into(),
                };
                self.confirm(
                    "Leave the match",
                    vec![
                        saved,
                        "Resume it later (clocks paused).".into(),
                        "Leave now?".into(),
                    ],
                    Pending::Leave,
                );
            }
            Some(Act::Log) => self.open(Popup::Log(LogView::default())),
            Some(Act::Export) => self.export(),
            Some(Act::Sheets) => {
                let dir = self.export_dir.clone();
                let paper = crate::publish::Paper::A4;
                match persist::write_sheets(
                    &self.session.m,
                    &self.session.saver,
                    dir.as_deref(),
                    paper,
                ) {
                    Ok(files) => self.say_done(sheets_sentence(&files)),
                    Err(e) => self.say(format!("sheets not written: {e}"), StatusKind::Error),
                }
            }
            Some(Act::Flip) => self.flipped = !self.flipped,
            Some(Act::Numbers) => self.numbers = !self.numbers,
            Some(Act::Serve) => self.serve_key(),
            None => {}
        }
        Nav::Stay
    }

    fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Nav {
        // A flag that fell since the last tick is decided before the key counts.
        let entries = self.session.tick(ctx.now, ctx.rng);
        self.observe(&entries);
        if let Some(nav) = self.popup_key(key, ctx) {
            return nav;
        }
        let m = &self.session.m;
        let step = match &mut self.stage {
            Stage::Toss(t) => t.key(key, m),
            Stage::Draw(d) => d.key(key),
            Stage::Decide(d) => d.key(key, m),
            Stage::PreGame(p) => p.key(key),
            Stage::Game(g) => g.key(key, m, self.flipped),
            Stage::Over(o) => o.key(key),
            Stage::Results(r) => r.key(key, m),
        };
        match step {
            Some(step) => self.follow(step, ctx),
            None => self.own_key(key),
        }
    }

    fn tick(&mut self, ctx: &mut Ctx) {
        let step = match &mut self.stage {
            Stage::Toss(t) => {
                t.tick();
                Step::Stay
            }
            Stage::Draw(d) => d.tick(),
            _ => Step::Stay,
        };
        self.follow(step, ctx);
        let entries = self.session.tick(ctx.now, ctx.rng);
        self.observe(&entries);
    }

    fn click(&mut self, x: u16, y: u16, ctx: &mut Ctx) {
        let Stage::Game(g) = &mut self.stage else {
            return;
        };
        let Some(geo) = GameLayout::new(ctx.area).board_geometry(self.flipped) else {
            return;
        };
        let Some(sq) = geo.square_at(x, y) else {
            return;
        };
        let step = g.click(sq, &self.session.m);
        self.follow(step, ctx);
    }

    /// The binding tables keys are looked up in now, in order (for the key-table test).
    pub fn chain(&self) -> Vec<Erased> {
        match &self.popup {
            Some(Popup::Confirm(..)) => {
                return vec![erase(crate::tui::widgets::form::CONFIRM_KEYS)];
            }
            Some(Popup::ResignWho) => return vec![erase(RESIGN_KEYS)],
            Some(Popup::Director(d)) => return d.chain(),
            Some(Popup::Log(_)) => return vec![erase(super::log_view::KEYS)],
            Some(Popup::Serve) => return vec![erase(SERVE_KEYS)],
            Some(Popup::Serving) => return vec![erase(SERVING_KEYS)],
            None => {}
        }
        let m = &self.session.m;
        let mut chain: Vec<Erased> = match &self.stage {
            Stage::Toss(t) if t.spinning() => Vec::new(),
            Stage::Toss(t) => vec![erase(t.table(m))],
            Stage::Draw(d) => vec![erase(d.table())],
            Stage::Decide(_) => vec![erase(stages::DecideStage::table(m))],
            Stage::PreGame(_) => vec![erase(stages::pre_game::KEYS)],
            Stage::Game(g) => g.chain(m),
            Stage::Over(_) => vec![erase(stages::over::KEYS)],
            Stage::Results(_) => vec![erase(ResultsStage::table(m))],
        };
        chain.push(erase(KEYS));
        if self.sheets_offered() {
            chain.push(erase(SHEET_KEYS));
        }
        if self.stage.has_board() {
            chain.push(erase(BOARD_KEYS));
        }
        chain
    }

    /// The footer of the results: their keys and the screen's.
    fn results_hint(&self) -> String {
        let own = footer(ResultsStage::table(&self.session.m));
        let all = footer(KEYS);
        let joined = if own.is_empty() {
            all
        } else {
            format!("{own} · {all}")
        };
        format!("{joined} · {}", help_hint(false))
    }

    /// The NOT SAVED mark, top right, on every stage while the last save failed.
    fn render_not_saved(&self, frame: &mut Frame, area: Rect, look: &Appearance) {
        if self.session.save_error.is_none() {
            return;
        }
        let mark = " NOT SAVED ";
        let w = mark.len() as u16;
        if area.width > w {
            frame.buffer_mut().set_string(
                area.right() - w,
                area.y,
                mark,
                look.alert()
                    .add_modifier(Modifier::REVERSED | Modifier::BOLD),
            );
        }
    }
}

/// "wrote DIR/final-scoresheets.html and the result slip (and the report)".
fn sheets_sentence(files: &[std::path::PathBuf]) -> String {
    let first = files
        .first()
        .map_or(String::new(), |f| f.display().to_string());
    let rest = if files.len() > 2 {
        "the result slip and the report"
    } else {
        "the result slip (the report comes when the match is over)"
    };
    format!("wrote {first}, {rest}")
}

/// "exported 3 games (1 unfinished, result *) to PATH".
fn export_sentence(done: Exported, path: &std::path::Path) -> String {
    let unfinished = match done.unfinished {
        0 => String::new(),
        n => format!(" ({n} unfinished, result *)"),
    };
    format!(
        "exported {} game{}{unfinished} to {}",
        done.games,
        if done.games == 1 { "" } else { "s" },
        path.display()
    )
}

impl ScreenState for MatchScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        MatchScreen::chain(self)
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        match msg {
            Msg::Tick => {
                self.tick(ctx);
                Nav::Stay
            }
            Msg::Mouse(m) => {
                if self.popup.is_none() && m.kind == MouseEventKind::Down(MouseButton::Left) {
                    self.click(m.column, m.row, ctx);
                }
                Nav::Stay
            }
            Msg::Key(key) => self.key(key, ctx),
            Msg::Resize(..) => Nav::Stay,
        }
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let v = View {
            session: &self.session,
            flipped: self.flipped,
            numbers: self.numbers,
            ctx,
            message: self.current_message(),
            link: self.link_words(),
        };
        match &self.stage {
            Stage::Toss(t) => t.render(frame, area, &v),
            Stage::Draw(d) => d.render(frame, area, &v),
            Stage::Decide(d) => d.render(frame, area, &v),
            Stage::PreGame(p) => p.render(frame, area, &v),
            Stage::Game(g) => g.render(frame, area, &v),
            Stage::Over(o) => o.render(frame, area, &v),
            Stage::Results(r) => {
                let status = v.status(results::status(&self.session.m, self.back_to_caller));
                results::render(
                    &self.session.m,
                    r,
                    status,
                    &self.results_hint(),
                    frame,
                    area,
                    look,
                );
            }
        }
        self.render_not_saved(frame, area, look);
        self.render_popup(frame, look);
    }

    fn title(&self) -> String {
        match &self.popup {
            Some(Popup::Director(_)) => "Match: director menu".into(),
            Some(Popup::Log(_)) => "Match: event log".into(),
            Some(Popup::Serve | Popup::Serving) => "Match: served live".into(),
            _ => self.stage.title().into(),
        }
    }

    fn keys(&self) -> Vec<KeyHelp> {
        let m = &self.session.m;
        match &self.popup {
            Some(Popup::Director(d)) => return d.help(),
            Some(Popup::Log(_)) => return LogView::help(),
            Some(Popup::ResignWho) => return help(RESIGN_KEYS),
            Some(Popup::Confirm(..)) => return crate::tui::widgets::form::confirm_help(),
            Some(Popup::Serve) => return help(SERVE_KEYS),
            Some(Popup::Serving) => return help(SERVING_KEYS),
            None => {}
        }
        let mut lines = match &self.stage {
            Stage::Toss(t) => t.help(m),
            Stage::Draw(d) => d.help(),
            Stage::Decide(d) => d.help(m),
            Stage::PreGame(p) => p.help(),
            Stage::Game(g) => g.help(m),
            Stage::Over(o) => o.help(),
            Stage::Results(_) => ResultsStage::help(m),
        };
        lines.extend(help(KEYS));
        if self.sheets_offered() {
            lines.extend(help(SHEET_KEYS));
        }
        if self.stage.has_board() {
            lines.extend(help(BOARD_KEYS));
        }
        lines
    }

    fn ticking(&self) -> bool {
        match &self.stage {
            Stage::Toss(t) => t.spinning(),
            Stage::Draw(d) => d.animating(),
            _ => self.clocks_running(),
        }
    }

    fn idle_wake(&self) -> Option<std::time::Duration> {
        self.reporting().then_some(LINK_WAKE)
    }

    fn typing(&self) -> bool {
        match &self.popup {
            Some(Popup::Director(d)) => d.typing(),
            _ => false,
        }
    }

    fn confirm_quit(&mut self) -> bool {
        if matches!(self.popup, Some(Popup::Confirm(_, Pending::Quit))) {
            return false;
        }
        if self.session.m.playing().is_none() {
            return false;
        }
        self.confirm(
            "Quit crossboard",
            vec![
                "A game is being played. The match is saved either way:".into(),
                "crossboard resume reopens it, clocks paused at the last move.".into(),
                "Quit now? (Ctrl-C again quits too)".into(),
            ],
            Pending::Quit,
        );
        true
    }
}
