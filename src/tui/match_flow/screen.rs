//! The match screen: one screen whose view follows the director's phase — colour choice,
//! ballot draw, accept/reject, the game under clocks, results between games and at the end —
//! with popups for confirmations, resignations and the director menu.
//!
//! Input only becomes director [`Command`]s (through [`MatchSession::apply`], which saves);
//! everything drawn comes from the [`Match`] and a little UI state (animations, the ballot's
//! cards revealed so far, the move being typed).

use super::director_menu::{DirectorOutcome, DirectorPopup};
use super::persist::{self, Saver};
use super::session::{MatchSession, move_list};
use super::{MatchOptions, results, words};
use crate::director::{
    Awaiting, Clock, CoinSide, ColourMethod, Command, Entry, Event, Hand, Match, MatchSettings,
    Phase, Player,
};
use crate::engine::{Color, DrawClaim, Position};
use crate::openings::{DrawStep, Opening, System};
use crate::tui::Msg;
use crate::tui::move_input::{InputOutcome, MoveInput};
use crate::tui::screens::practice::BallotInfo;
use crate::tui::screens::{Ctx, Nav, RenderCtx, ScreenState};
use crate::tui::theme::Appearance;
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{
    BoardView, ClockFace, ClockPanelView, Confirm, ConfirmOutcome, GameLayout, GameScreenView,
    MoveListView, StatusKind, render_popup,
};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use std::time::Instant;

/// Ticks (of 100 ms) the coin spins, the bag is rummaged, the hands are shown closed.
pub const TOSS_TICKS: u8 = 12;
/// Ticks between two ballot cards being shown.
pub const CARD_TICKS: u8 = 6;

/// What the colour toss showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TossShown {
    /// The coin was flipped.
    Coin {
        /// Who called.
        caller: Player,
        /// The call.
        call: CoinSide,
        /// How it landed.
        landed: CoinSide,
        /// Who won the toss.
        winner: Player,
    },
    /// A colour came out of the bag.
    Bag {
        /// Who drew.
        player: Player,
        /// The colour.
        colour: Color,
    },
    /// A hand was picked and opened.
    Hands {
        /// Who picked.
        player: Player,
        /// Which hand.
        hand: Hand,
        /// The colour in it.
        colour: Color,
    },
    /// The director assigned the colours.
    Assigned {
        /// Red in game one.
        red: Player,
    },
}

/// A drawn ballot being shown card by card.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawShown {
    /// Ballot number.
    pub ballot: u32,
    /// The opening.
    pub opening: Opening,
    /// The cards, in order.
    pub steps: Vec<DrawStep>,
    /// Cards shown so far.
    pub revealed: usize,
    /// Ticks until the next card.
    pub wait: u8,
}

impl DrawShown {
    fn new(ballot: u32, opening: Opening, steps: Vec<DrawStep>, animate: bool) -> DrawShown {
        let revealed = if animate { 0 } else { steps.len() };
        DrawShown {
            ballot,
            opening,
            steps,
            revealed,
            wait: 1,
        }
    }

    /// Every card is shown.
    pub fn done(&self) -> bool {
        self.revealed >= self.steps.len()
    }
}

/// What a confirmation leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A player resigns.
    Resign(Color),
    /// Open the director menu.
    OpenDirector,
    /// A director command, with its summary.
    Director(Command, String),
    /// Back to the home screen (the match is saved).
    Leave,
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
}

/// UI state of the match screen (everything else is in the match).
#[derive(Clone, Debug)]
pub struct MatchUi {
    /// Who calls the coin / draws from the bag / picks a hand.
    pub caller: Player,
    /// What the colour toss showed, until acknowledged.
    pub toss: Option<TossShown>,
    /// Animation ticks left for the toss.
    pub toss_ticks: u8,
    /// The ballot drawn last, until acknowledged.
    pub drawn: Option<DrawShown>,
    /// The move being entered.
    pub input: MoveInput,
    /// White at the top (Red's view).
    pub flipped: bool,
    /// Square numbers shown.
    pub numbers: bool,
    /// The last message (a refusal, a confirmation).
    pub message: Option<(String, StatusKind)>,
    /// The results of the game that just ended are shown.
    pub results: bool,
    /// The game that just ended is shown as it ended (final position, clocks, the flag).
    pub ended: bool,
    /// A popup, if open.
    pub popup: Option<Popup>,
}

/// The match screen.
#[derive(Debug)]
pub struct MatchScreen {
    /// The match and where it is saved.
    pub session: MatchSession,
    /// UI state.
    pub ui: MatchUi,
    /// Where exports go when the match has no file.
    pub export_dir: Option<std::path::PathBuf>,
    /// Leaving goes back to the screen that opened the match (the desk) instead of home.
    pub back_to_caller: bool,
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
        s.ui.message = note.map(|n| (n, StatusKind::Warn));
        Ok(s)
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
        s.ui.message = Some((
            match s.session.m.awaiting() {
                Awaiting::Resume => {
                    "match resumed, clocks paused at the last move: Enter resumes them".into()
                }
                _ => format!("match resumed: {}", words::status(&s.session.m)),
            }
            .to_string()
                + &notes,
            StatusKind::Warn,
        ));
        s
    }

    fn new(session: MatchSession) -> MatchScreen {
        let pos = session
            .m
            .current_game()
            .map(|g| *g.game.position())
            .unwrap_or_else(Position::start);
        let drawn = session.m.pending_draw().map(|d| {
            let ballot = match session.m.phase() {
                Phase::Decide { ballot, .. } => ballot,
                _ => 0,
            };
            DrawShown::new(ballot, d.opening.clone(), d.steps.clone(), false)
        });
        MatchScreen {
            ui: MatchUi {
                caller: Player::First,
                toss: None,
                toss_ticks: 0,
                drawn,
                input: MoveInput::new(&pos),
                flipped: false,
                numbers: false,
                message: None,
                results: false,
                ended: false,
                popup: None,
            },
            session,
            export_dir: None,
            back_to_caller: false,
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

    /// Send a command to the director; take note of what happened.
    fn command(&mut self, cmd: Command, ctx: &mut Ctx) -> bool {
        if self.session.read_only().is_some() {
            let text = "read-only: this match is only looked at, nothing changes here";
            self.ui.message = Some((text.into(), StatusKind::Error));
            return false;
        }
        match self.session.apply(cmd, ctx.now, ctx.rng) {
            Ok(entries) => {
                self.ui.message = None;
                self.observe(&entries);
                true
            }
            Err(e) => {
                let text = words::refusal(&self.session.m, &e);
                self.ui.message = Some((text, StatusKind::Error));
                false
            }
        }
    }

    /// React to new log entries: start animations, show results.
    fn observe(&mut self, entries: &[Entry]) {
        for e in entries {
            match &e.event {
                Event::CoinFlipped {
                    caller,
                    call,
                    landed,
                    winner,
                } => {
                    self.ui.toss = Some(TossShown::Coin {
                        caller: *caller,
                        call: *call,
                        landed: *landed,
                        winner: *winner,
                    });
                    self.ui.toss_ticks = TOSS_TICKS;
                }
                Event::ColourDrawn { player, colour } => {
                    self.ui.toss = Some(TossShown::Bag {
                        player: *player,
                        colour: *colour,
                    });
                    self.ui.toss_ticks = TOSS_TICKS;
                }
                Event::HandPicked {
                    player,
                    hand,
                    colour,
                } => {
                    self.ui.toss = Some(TossShown::Hands {
                        player: *player,
                        hand: *hand,
                        colour: *colour,
                    });
                    self.ui.toss_ticks = TOSS_TICKS;
                }
                Event::ColoursSet {
                    red,
                    by_director: true,
                } => self.ui.toss = Some(TossShown::Assigned { red: *red }),
                Event::BallotDrawn { ballot, steps, .. } => {
                    // The opening drawn: pending a decision, or accepted at once.
                    let m = &self.session.m;
                    let opening = m.pending_draw().map(|d| &d.opening).or_else(|| {
                        m.ballots()
                            .last()
                            .filter(|b| b.number == *ballot)
                            .map(|b| &b.opening)
                    });
                    if let Some(o) = opening {
                        self.ui.drawn =
                            Some(DrawShown::new(*ballot, o.clone(), steps.clone(), true));
                    }
                }
                Event::GameStarted { .. } | Event::MovesTakenBack { .. } => {
                    self.ui.results = false;
                    self.ui.ended = false;
                    self.reset_input();
                }
                Event::MovePlayed { .. } => self.reset_input(),
                Event::GameEnded { .. } => {
                    self.ui.ended = true;
                    self.ui.results = false;
                    self.ui.input.clear();
                }
                Event::ResultAmended { .. } => self.ui.results = true,
                _ => {}
            }
        }
    }

    fn reset_input(&mut self) {
        let pos = self
            .session
            .m
            .current_game()
            .map(|g| *g.game.position())
            .unwrap_or_else(Position::start);
        let cursor = self.ui.input.cursor;
        self.ui.input = MoveInput::new(&pos);
        if pos.piece_at(cursor).is_some_and(|p| p.color == pos.turn()) {
            self.ui.input.cursor = cursor;
        }
    }

    /// Which view is shown now.
    pub fn view(&self) -> View {
        let m = &self.session.m;
        if self.ui.ended {
            return View::Over;
        }
        if m.phase() == Phase::Finished {
            return View::Results;
        }
        if self.ui.results {
            return View::Results;
        }
        if self.ui.toss.is_some() || matches!(m.phase(), Phase::ColourChoice { .. }) {
            return View::Toss;
        }
        match m.phase() {
            Phase::Draw { .. } | Phase::Decide { .. } => View::Ballot,
            Phase::Ready { .. } if self.ui.drawn.is_some() => View::Ballot,
            Phase::Ready { .. } => View::PreGame,
            _ => View::Game,
        }
    }

    fn confirm(&mut self, title: &str, lines: Vec<String>, then: Pending) {
        self.ui.popup = Some(Popup::Confirm(Confirm::new(title, lines), then));
    }

    fn popup_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Nav> {
        let popup = self.ui.popup.take()?;
        match popup {
            Popup::Confirm(c, then) => match c.key(key) {
                ConfirmOutcome::Pending => self.ui.popup = Some(Popup::Confirm(c, then)),
                ConfirmOutcome::No => {}
                ConfirmOutcome::Yes => match then {
                    Pending::Resign(colour) => {
                        self.command(Command::Resign { colour }, ctx);
                    }
                    Pending::OpenDirector => {
                        self.ui.popup = Some(Popup::Director(DirectorPopup::menu()))
                    }
                    Pending::Director(cmd, text) => {
                        let quiet =
                            matches!(cmd, Command::PauseClocks { .. } | Command::ResumeClocks);
                        if self.command(cmd, ctx) && !quiet {
                            self.ui.message = Some((format!("{text}: done"), StatusKind::Info));
                        }
                    }
                    Pending::Leave => return Some(self.leave()),
                },
            },
            Popup::ResignWho => {
                let who = match key.code {
                    KeyCode::Char('r') => Some(Color::Red),
                    KeyCode::Char('w') => Some(Color::White),
                    KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('n') => None,
                    _ => {
                        self.ui.popup = Some(Popup::ResignWho);
                        return Some(Nav::Stay);
                    }
                };
                if let Some(c) = who {
                    let name = self.colour_name(c);
                    self.confirm(
                        "Resign",
                        vec![format!("{name} ({c}) resigns this game?")],
                        Pending::Resign(c),
                    );
                }
            }
            Popup::Director(mut d) => match d.key(key) {
                DirectorOutcome::Open => self.ui.popup = Some(Popup::Director(d)),
                DirectorOutcome::Closed => {}
                DirectorOutcome::Submit(cmd, text) => self.confirm(
                    "Director",
                    vec![format!("{text}?")],
                    Pending::Director(cmd, text),
                ),
            },
        }
        Some(Nav::Stay)
    }

    /// The name of the player who has `c` in the game shown (or about to start).
    fn colour_name(&self, c: Color) -> String {
        let m = &self.session.m;
        let red = match m.phase() {
            Phase::Ready { ballot, game } | Phase::Playing { ballot, game } => {
                m.red_in(ballot, game)
            }
            Phase::Decide { ballot, .. } | Phase::Draw { ballot } => m.red_in(ballot, 1),
            _ => m.current_game().map(|g| g.red),
        };
        match red {
            Some(r) => {
                let p = if c == Color::Red { r } else { r.other() };
                m.name(p).to_string()
            }
            None => c.to_string(),
        }
    }

    fn toss_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) {
        if self.ui.toss_ticks > 0 {
            // Any key lands the coin at once.
            self.ui.toss_ticks = 0;
            return;
        }
        let m = &self.session.m;
        let p = self.ui.caller;
        let cmd = match (m.awaiting(), key.code) {
            (Awaiting::Toss(_), KeyCode::Tab | KeyCode::Char('1') | KeyCode::Char('2'))
                if m.settings().colour_method != ColourMethod::DirectorAssigns =>
            {
                self.ui.caller = match key.code {
                    KeyCode::Char('1') => Player::First,
                    KeyCode::Char('2') => Player::Second,
                    _ => p.other(),
                };
                return;
            }
            (Awaiting::Toss(ColourMethod::CoinFlip), KeyCode::Char('h')) => Command::CallCoin {
                caller: p,
                call: CoinSide::Heads,
            },
            (Awaiting::Toss(ColourMethod::CoinFlip), KeyCode::Char('t')) => Command::CallCoin {
                caller: p,
                call: CoinSide::Tails,
            },
            (Awaiting::Toss(ColourMethod::Bag), KeyCode::Enter | KeyCode::Char(' ')) => {
                Command::DrawColour { player: p }
            }
            (Awaiting::Toss(ColourMethod::ConcealedHands), KeyCode::Char('l') | KeyCode::Left) => {
                Command::PickHand {
                    player: p,
                    hand: Hand::Left,
                }
            }
            (Awaiting::Toss(ColourMethod::ConcealedHands), KeyCode::Char('r') | KeyCode::Right) => {
                Command::PickHand {
                    player: p,
                    hand: Hand::Right,
                }
            }
            (Awaiting::Toss(ColourMethod::DirectorAssigns), KeyCode::Char(c @ ('1' | '2'))) => {
                Command::AssignColour {
                    player: if c == '1' {
                        Player::First
                    } else {
                        Player::Second
                    },
                    colour: Color::Red,
                }
            }
            (Awaiting::ColourChoice(w), KeyCode::Char('r')) => Command::ChooseColour {
                player: w,
                colour: Color::Red,
            },
            (Awaiting::ColourChoice(w), KeyCode::Char('w')) => Command::ChooseColour {
                player: w,
                colour: Color::White,
            },
            (Awaiting::BallotDraw(_), KeyCode::Enter | KeyCode::Char(' ')) => {
                // Colours are settled: on to the first ballot.
                self.ui.toss = None;
                return;
            }
            _ => return,
        };
        self.command(cmd, ctx);
    }

    fn ballot_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) {
        if let Some(d) = &mut self.ui.drawn
            && !d.done()
        {
            // Space shows the next card, Enter all of them.
            d.revealed = if key.code == KeyCode::Enter {
                d.steps.len()
            } else {
                d.revealed + 1
            };
            d.wait = CARD_TICKS;
            return;
        }
        let m = &self.session.m;
        match (m.awaiting(), key.code) {
            (Awaiting::BallotDraw(_), KeyCode::Enter | KeyCode::Char('d') | KeyCode::Char(' ')) => {
                self.command(Command::DrawBallot, ctx);
            }
            (Awaiting::Decision { colour, .. }, KeyCode::Char('a')) => {
                self.command(Command::Accept { colour }, ctx);
            }
            (Awaiting::Decision { colour, .. }, KeyCode::Char('r')) => {
                self.command(Command::Reject { colour }, ctx);
            }
            (Awaiting::GameStart { .. }, KeyCode::Enter | KeyCode::Char(' ')) => {
                self.ui.drawn = None;
            }
            _ => {}
        }
    }

    fn game_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) {
        let m = &self.session.m;
        let Some(g) = m.playing() else {
            return;
        };
        let pos = *g.game.position();
        let turn = pos.turn();
        let paused = g.clock.is_paused();
        if paused && key.code == KeyCode::Enter && self.ui.input.text.is_empty() {
            self.confirm(
                "Resume the clocks",
                vec![format!("Start {turn}'s clock again?")],
                Pending::Director(Command::ResumeClocks, "Resume the clocks".into()),
            );
            return;
        }
        let out = self.ui.input.key(&pos, key, self.ui.flipped);
        if out != InputOutcome::Ignored {
            self.input_outcome(out, turn, ctx);
            return;
        }
        let offer = m.draw_offer();
        match key.code {
            KeyCode::Char('o') => {
                let ok = self.command(Command::OfferDraw { colour: turn }, ctx);
                if ok {
                    self.ui.message = Some((
                        format!(
                            "{turn} offers a draw: {} accepts with a, declines with d",
                            turn.opponent()
                        ),
                        StatusKind::Warn,
                    ));
                }
            }
            KeyCode::Char('a') => match offer {
                Some(by) => {
                    self.command(
                        Command::AcceptDraw {
                            colour: by.opponent(),
                        },
                        ctx,
                    );
                }
                None => {
                    self.ui.message = Some(("no draw offer to accept".into(), StatusKind::Error))
                }
            },
            KeyCode::Char('d') => match offer {
                Some(by) => {
                    if self.command(
                        Command::DeclineDraw {
                            colour: by.opponent(),
                        },
                        ctx,
                    ) {
                        self.ui.message = Some((
                            format!("{} declined the draw", by.opponent()),
                            StatusKind::Info,
                        ));
                    }
                }
                None => {
                    self.ui.message = Some(("no draw offer to decline".into(), StatusKind::Error))
                }
            },
            KeyCode::Char('c') => {
                self.command(Command::ClaimDraw { colour: turn }, ctx);
            }
            KeyCode::Char('r') => self.ui.popup = Some(Popup::ResignWho),
            _ => {}
        }
    }

    fn input_outcome(&mut self, out: InputOutcome, turn: Color, ctx: &mut Ctx) {
        match out {
            InputOutcome::Play(mv) => {
                self.command(Command::PlayMove { colour: turn, mv }, ctx);
            }
            InputOutcome::Refused(why) => self.ui.message = Some((why, StatusKind::Error)),
            InputOutcome::Changed => self.ui.message = None,
            InputOutcome::Ignored => {}
        }
    }

    fn results_key(&mut self, key: &KeyEvent, _ctx: &mut Ctx) -> Nav {
        match key.code {
            KeyCode::Char('e') => self.export(),
            KeyCode::Enter | KeyCode::Char(' ') if self.session.m.phase() != Phase::Finished => {
                self.ui.results = false;
                self.ui.message = None;
            }
            KeyCode::Char('q') | KeyCode::Esc if self.session.m.phase() == Phase::Finished => {
                return self.leave();
            }
            _ => {}
        }
        Nav::Stay
    }

    /// Write every game of the match as PDN beside the match file.
    pub fn export(&mut self) {
        let path = persist::export_path(&self.session.saver, self.export_dir.as_deref());
        self.ui.message = Some(match persist::export(&self.session.m, &path) {
            Ok(n) => (
                format!(
                    "exported {n} game{} to {}",
                    if n == 1 { "" } else { "s" },
                    path.display()
                ),
                StatusKind::Info,
            ),
            Err(e) => (format!("export failed: {e}"), StatusKind::Error),
        });
    }

    fn tick(&mut self, ctx: &mut Ctx) {
        if self.ui.toss_ticks > 0 {
            self.ui.toss_ticks -= 1;
        }
        if let Some(d) = &mut self.ui.drawn
            && !d.done()
        {
            d.wait = d.wait.saturating_sub(1);
            if d.wait == 0 {
                d.revealed += 1;
                d.wait = CARD_TICKS;
            }
        }
        let entries = self.session.tick(ctx.now, ctx.rng);
        self.observe(&entries);
    }

    fn click(&mut self, x: u16, y: u16, ctx: &mut Ctx) {
        if self.view() != View::Game {
            return;
        }
        let Some(geo) = GameLayout::new(ctx.area).board_geometry(self.ui.flipped) else {
            return;
        };
        let Some(sq) = geo.square_at(x, y) else {
            return;
        };
        let Some(g) = self.session.m.playing() else {
            return;
        };
        let pos = *g.game.position();
        let out = self.ui.input.click(&pos, sq);
        self.input_outcome(out, pos.turn(), ctx);
    }
}

/// The views of the match screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Colour choice.
    Toss,
    /// Ballot draw and the accept/reject step.
    Ballot,
    /// A game set up, waiting for its clock to start.
    PreGame,
    /// A game being played.
    Game,
    /// The game that just ended, as it ended.
    Over,
    /// Results between games and at the end.
    Results,
}

impl ScreenState for MatchScreen {
    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        match msg {
            Msg::Tick => {
                self.tick(ctx);
                Nav::Stay
            }
            Msg::Mouse(m) => {
                if self.ui.popup.is_none() && m.kind == MouseEventKind::Down(MouseButton::Left) {
                    self.click(m.column, m.row, ctx);
                }
                Nav::Stay
            }
            Msg::Key(key) => {
                // A flag that fell since the last tick is decided before the key counts.
                let entries = self.session.tick(ctx.now, ctx.rng);
                self.observe(&entries);
                if let Some(nav) = self.popup_key(key, ctx) {
                    return nav;
                }
                let view = self.view();
                let typing = !self.ui.input.text.is_empty();
                match key.code {
                    KeyCode::Char('D') => {
                        self.confirm(
                            "Director menu",
                            vec![
                                "For the match director only.".into(),
                                "Open the director menu?".into(),
                            ],
                            Pending::OpenDirector,
                        );
                        return Nav::Stay;
                    }
                    KeyCode::Char('q') if !typing => {
                        let finished = matches!(view, View::Results | View::Over)
                            && self.session.m.phase() == Phase::Finished;
                        // Nothing to lose: a finished match, or one only looked at.
                        if finished || self.session.read_only().is_some() {
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
                        return Nav::Stay;
                    }
                    KeyCode::Char('f') if view != View::Toss && !typing => {
                        self.ui.flipped = !self.ui.flipped;
                        return Nav::Stay;
                    }
                    KeyCode::Char('n')
                        if matches!(view, View::Game | View::PreGame | View::Over) =>
                    {
                        self.ui.numbers = !self.ui.numbers;
                        return Nav::Stay;
                    }
                    _ => {}
                }
                if key.modifiers.contains(KeyModifiers::CONTROL) {
                    return Nav::Stay;
                }
                match view {
                    View::Toss => self.toss_key(key, ctx),
                    View::Ballot => self.ballot_key(key, ctx),
                    View::PreGame => {
                        if matches!(key.code, KeyCode::Enter | KeyCode::Char('s')) {
                            self.command(Command::StartGame, ctx);
                        }
                    }
                    View::Game => self.game_key(key, ctx),
                    View::Results => return self.results_key(key, ctx),
                    View::Over => match key.code {
                        KeyCode::Enter | KeyCode::Char(' ') => {
                            self.ui.ended = false;
                            self.ui.results = true;
                        }
                        KeyCode::Char('e') => self.export(),
                        _ => {}
                    },
                }
                Nav::Stay
            }
            Msg::Resize(..) => Nav::Stay,
        }
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        match self.view() {
            View::Toss => self.render_toss(frame, area, ctx),
            View::Ballot => self.render_ballot(frame, area, ctx),
            View::PreGame | View::Game | View::Over => self.render_game(frame, area, ctx),
            View::Results => results::render(self, frame, area, ctx),
        }
        let look = ctx.appearance;
        match &self.ui.popup {
            Some(Popup::Confirm(c, _)) => c.render(frame, look),
            Some(Popup::ResignWho) => render_popup(
                frame,
                "Resign",
                vec![
                    Line::from("Who resigns this game?"),
                    Line::from(format!("  r  Red ({})", self.colour_name(Color::Red))),
                    Line::from(format!("  w  White ({})", self.colour_name(Color::White))),
                    Line::from(Span::styled("Esc: nobody", look.dim())),
                ],
                look,
            ),
            Some(Popup::Director(d)) => d.render(frame, look),
            None => {}
        }
    }

    fn title(&self) -> String {
        match self.view() {
            View::Toss => "Match: colour choice",
            View::Ballot => "Match: ballot",
            View::PreGame => "Match: before the game",
            View::Game => "Match: game",
            View::Results => "Match: results",
            View::Over => "Match: game over",
        }
        .into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        let mut k = match self.view() {
            View::Toss => vec![
                KeyHelp::new("Tab, 1, 2", "who calls / draws / picks"),
                KeyHelp::new("h, t", "coin: call heads or tails"),
                KeyHelp::new("Enter", "bag: draw a colour; then on to the ballot"),
                KeyHelp::new("l, r", "hands: pick the left or right hand"),
                KeyHelp::new("1, 2", "director assigns: that player has Red"),
                KeyHelp::new("r, w", "the toss winner chooses Red or White"),
            ],
            View::Ballot => vec![
                KeyHelp::new("Space", "show the next card"),
                KeyHelp::new("Enter", "show all cards; draw; continue"),
                KeyHelp::new("a", "accept the ballot (White first, then Red)"),
                KeyHelp::new("r", "reject the ballot"),
                KeyHelp::new("f", "flip the board"),
            ],
            View::PreGame => vec![
                KeyHelp::new("Enter, s", "start the clock"),
                KeyHelp::new("f, n", "flip the board, square numbers"),
            ],
            View::Game => vec![
                KeyHelp::new("11-15, 15x24", "type a move; Enter plays it"),
                KeyHelp::new("arrows, hjkl", "move the cursor; Enter/Space picks"),
                KeyHelp::new("mouse", "click a piece, then its destination"),
                KeyHelp::new("o", "the side to move offers a draw"),
                KeyHelp::new("a, d", "accept or decline a draw offer"),
                KeyHelp::new("c", "claim a draw (repetition, 40 moves)"),
                KeyHelp::new("r", "resign (asks who, then confirms)"),
                KeyHelp::new("Enter", "when paused: resume the clocks (confirms)"),
                KeyHelp::new("f, n", "flip the board, square numbers"),
            ],
            View::Over => vec![
                KeyHelp::new("Enter", "the results and the score"),
                KeyHelp::new("e", "export every game to PDN"),
                KeyHelp::new("f", "flip the board"),
            ],
            View::Results => vec![
                KeyHelp::new("e", "export every game to PDN"),
                KeyHelp::new("Enter", "on to the next game or ballot"),
            ],
        };
        k.push(KeyHelp::new("D", "director menu (asks first)"));
        k.push(KeyHelp::new("q", "leave the match (it is saved)"));
        k
    }

    fn ticking(&self) -> bool {
        let m = &self.session.m;
        self.ui.toss_ticks > 0
            || self.ui.drawn.as_ref().is_some_and(|d| !d.done())
            || m.playing().is_some_and(|g| g.clock.is_running())
    }

    fn typing(&self) -> bool {
        match &self.ui.popup {
            Some(Popup::Director(d)) => d.typing(),
            _ => false,
        }
    }
}

// ----- rendering -----

impl MatchScreen {
    fn header(&self) -> String {
        let s = self.session.m.settings();
        let mut t = format!("{} v {}", s.players[0], s.players[1]);
        if !s.event.trim().is_empty() {
            t = format!("{} · {t}", s.event);
        }
        t
    }

    fn status_or(&self, default: (String, StatusKind)) -> (String, StatusKind) {
        // A failed save stays in front of every later message until a save succeeds.
        let message = self.ui.message.clone().unwrap_or(default);
        match self.session.status_mark(&message.0) {
            Some(text) => (text, StatusKind::Error),
            None => message,
        }
    }

    fn render_toss(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let m = &self.session.m;
        let name = |p: Player| m.name(p).to_string();
        let mut lines: Vec<Line> = vec![
            Line::from(Span::styled(
                format!(" Colour choice · {}", self.header()),
                look.accent(),
            )),
            Line::from(""),
        ];
        let method = m.settings().colour_method;
        let spinning = self.ui.toss_ticks > 0;
        let art: Vec<String> = match &self.ui.toss {
            Some(TossShown::Coin {
                caller,
                call,
                landed,
                winner,
            }) => {
                let mut v = vec![format!("{} called {}.", name(*caller), side_name(*call))];
                if spinning {
                    let face = if self.ui.toss_ticks % 2 == 0 {
                        "H"
                    } else {
                        "T"
                    };
                    let height = [0, 1, 2, 3, 2, 1][usize::from(self.ui.toss_ticks) % 6];
                    v.push(String::new());
                    for _ in 0..(3 - height) {
                        v.push(String::new());
                    }
                    v.push(format!("        ( {face} )   the coin is in the air..."));
                    for _ in 0..height {
                        v.push(String::new());
                    }
                } else {
                    v.push(String::new());
                    v.push(format!(
                        "        ( {} )   it landed {}",
                        if *landed == CoinSide::Heads { "H" } else { "T" },
                        side_name(*landed)
                    ));
                    v.push(String::new());
                    v.push(format!("{} won the toss.", name(*winner)));
                }
                v
            }
            Some(TossShown::Bag { player, colour }) => {
                if spinning {
                    vec![
                        format!("{} reaches into the bag...", name(*player)),
                        String::new(),
                        "        \\____/".into(),
                        "        | ?? |".into(),
                        "        \\____/".into(),
                    ]
                } else {
                    vec![
                        format!("{} drew {} from the bag:", name(*player), colour),
                        String::new(),
                        format!("        ( {} )", piece(look, *colour)),
                        String::new(),
                        format!("{} plays {colour} in game 1 of ballot 1.", name(*player)),
                    ]
                }
            }
            Some(TossShown::Hands {
                player,
                hand,
                colour,
            }) => {
                let (l, r) = if spinning {
                    ("[ ? ]".to_string(), "[ ? ]".to_string())
                } else {
                    let other = colour.opponent();
                    let (lc, rc) = if *hand == Hand::Left {
                        (*colour, other)
                    } else {
                        (other, *colour)
                    };
                    (
                        format!("[ {} ]", piece(look, lc)),
                        format!("[ {} ]", piece(look, rc)),
                    )
                };
                let mut v = vec![
                    format!(
                        "{} picks the {} hand.",
                        name(*player),
                        if *hand == Hand::Left { "left" } else { "right" }
                    ),
                    String::new(),
                    format!("      left {l}     right {r}"),
                ];
                if !spinning {
                    v.push(String::new());
                    v.push(format!(
                        "{} found {colour}: plays {colour} in game 1 of ballot 1.",
                        name(*player)
                    ));
                }
                v
            }
            Some(TossShown::Assigned { red }) => vec![format!(
                "The director assigned Red in game 1 of ballot 1 to {}.",
                name(*red)
            )],
            None => Vec::new(),
        };
        for a in art {
            lines.push(Line::from(format!("   {a}")));
        }
        lines.push(Line::from(""));
        let prompt: String = if spinning {
            "   (any key lands it)".into()
        } else {
            match m.awaiting() {
                Awaiting::Toss(ColourMethod::CoinFlip) => format!(
                    "   {} calls the coin: h heads, t tails   (Tab: the other player calls)",
                    name(self.ui.caller)
                ),
                Awaiting::Toss(ColourMethod::Bag) => format!(
                    "   {} draws a colour from the bag: Enter   (Tab: the other player draws)",
                    name(self.ui.caller)
                ),
                Awaiting::Toss(ColourMethod::ConcealedHands) => format!(
                    "   {} picks a hand: l left, r right   (Tab: the other player picks)",
                    name(self.ui.caller)
                ),
                Awaiting::Toss(ColourMethod::DirectorAssigns) => format!(
                    "   Director: who has Red in game 1? 1 {}, 2 {}",
                    name(Player::First),
                    name(Player::Second)
                ),
                Awaiting::ColourChoice(p) => {
                    format!("   {} chooses a colour: r Red, w White", name(p))
                }
                _ => {
                    let red = m.red_first().unwrap_or(Player::First);
                    format!(
                        "   {} has Red in game 1. Enter: on to the ballot draw",
                        name(red)
                    )
                }
            }
        };
        lines.push(Line::from(Span::styled(prompt, look.accent())));
        let _ = method;
        let buf = frame.buffer_mut();
        for (i, l) in lines.iter().enumerate() {
            let y = area.y + i as u16;
            if y + 1 >= area.bottom() {
                break;
            }
            buf.set_line(area.x, y, l, area.width);
        }
        let status = if spinning {
            "the toss is under way...".to_string()
        } else {
            words::status(m)
        };
        let (text, kind) = self.status_or((status, StatusKind::Info));
        let style = match kind {
            StatusKind::Error => look.alert(),
            StatusKind::Warn => look.accent(),
            StatusKind::Info => look.dim(),
        };
        buf.set_line(
            area.x,
            area.bottom() - 1,
            &Line::from(Span::styled(format!(" {text}"), style)),
            area.width,
        );
    }

    fn render_ballot(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let m = &self.session.m;
        let side_w = GameLayout::new(area).side.width.saturating_sub(1) as usize;
        let start = Position::start();
        let (ballot_no, shown) = match (&self.ui.drawn, m.phase()) {
            (Some(d), _) => (d.ballot, Some(d)),
            (None, Phase::Draw { ballot }) => (ballot, None),
            (None, _) => (0, None),
        };
        let red = m.red_in(ballot_no, 1);
        let rname = |c: Color| match red {
            Some(r) => m
                .name(if c == Color::Red { r } else { r.other() })
                .to_string(),
            None => c.to_string(),
        };
        let mut info: Vec<Line> = Vec::new();
        let mut status = (words::status(m), StatusKind::Info);
        let (position, marked, last, set_moves, title) = match shown {
            None => {
                info.push(Line::from(Span::styled(
                    format!(
                        "{} · {} rejected so far",
                        m.settings().openings.system.title(),
                        m.rejected().len()
                    ),
                    look.dim(),
                )));
                status = (
                    format!("Ballot {ballot_no}: Enter draws the ballot"),
                    StatusKind::Info,
                );
                (
                    start,
                    0,
                    None,
                    Vec::new(),
                    format!("Ballot {ballot_no} · draw"),
                )
            }
            Some(d) => {
                let meanings = crate::openings::describe_steps(&m.settings().openings, &d.steps);
                for (i, (s, meaning)) in d.steps.iter().zip(&meanings).enumerate().take(d.revealed)
                {
                    let text = format!("{}. {} {}: {meaning}", i + 1, s.kind.label(), s.card);
                    for (j, part) in wrap(&text, side_w).into_iter().enumerate() {
                        let style = if s.kind == crate::openings::StepKind::Redraw
                            || meaning.contains("instead")
                        {
                            look.accent()
                        } else {
                            ratatui::style::Style::new()
                        };
                        info.push(Line::from(Span::styled(
                            if j == 0 { part } else { format!("   {part}") },
                            style,
                        )));
                    }
                }
                if !d.done() {
                    info.push(Line::from(Span::styled(
                        format!("drawing card {} of {}...", d.revealed + 1, d.steps.len()),
                        look.dim(),
                    )));
                    status = (
                        "Drawing the ballot: Space shows the next card, Enter all".into(),
                        StatusKind::Info,
                    );
                    (
                        start,
                        0,
                        None,
                        Vec::new(),
                        format!("Ballot {} · drawing", d.ballot),
                    )
                } else {
                    let b = BallotInfo::from_opening(&d.opening);
                    for part in wrap(&format!("{}: {}", b.reference, b.name), side_w) {
                        info.push(Line::from(Span::styled(part, look.accent())));
                    }
                    if let Some(id) = b.public_id {
                        info.push(Line::from(vec![
                            Span::styled("Public position id ", look.dim()),
                            Span::raw(id.to_string()),
                        ]));
                    }
                    if !b.transpositions.is_empty() {
                        let list: Vec<String> = b
                            .transpositions
                            .iter()
                            .take(8)
                            .map(|n| n.to_string())
                            .collect();
                        let more = if b.transpositions.len() > 8 {
                            " ..."
                        } else {
                            ""
                        };
                        for part in
                            wrap(&format!("Transposes to {}{more}", list.join(", ")), side_w)
                        {
                            info.push(Line::from(Span::styled(part, look.dim())));
                        }
                    }
                    if d.opening.system == System::ElevenMan && b.removed != 0 {
                        info.push(Line::from(Span::styled(
                            format!(
                                "Removed men marked: {}",
                                crate::tui::widgets::board::square_list(b.removed)
                            ),
                            look.dim(),
                        )));
                    }
                    match b.loses_man {
                        Some(side) => info.push(Line::from(Span::styled(
                            format!("WARNING: {side} loses a man at once in this ballot"),
                            look.alert(),
                        ))),
                        None => info.push(Line::from(Span::styled(
                            "Man-down check: no man is lost",
                            look.dim(),
                        ))),
                    }
                    status = match m.awaiting() {
                        Awaiting::Decision { colour, player, .. } => {
                            let first = if colour == Color::White {
                                "White decides first"
                            } else {
                                "White rejected; now Red"
                            };
                            (
                                format!(
                                    "{first}: {} ({colour}), a accepts, r rejects",
                                    m.name(player)
                                ),
                                StatusKind::Warn,
                            )
                        }
                        Awaiting::GameStart { .. } => (
                            "Ballot accepted: Enter goes to the board".into(),
                            StatusKind::Info,
                        ),
                        Awaiting::BallotDraw(_) => (
                            format!(
                                "Both players rejected {}: Enter draws a new ballot",
                                d.opening.reference()
                            ),
                            StatusKind::Warn,
                        ),
                        _ => status,
                    };
                    (
                        d.opening.position,
                        b.removed,
                        d.opening.set_moves.last().copied(),
                        d.opening.set_moves.clone(),
                        format!("Ballot {} · {}", d.ballot, d.opening.reference()),
                    )
                }
            }
        };
        if !m.rejected().is_empty() {
            let list: Vec<String> = m
                .rejected()
                .iter()
                .map(|r| r.opening.number.to_string())
                .collect();
            for part in wrap(&format!("Rejected: {}", list.join(", ")), side_w) {
                info.push(Line::from(Span::styled(part, look.dim())));
            }
        }
        let mut moves = MoveListView::plain(Color::Red, set_moves.iter().map(|m| m.to_string()));
        moves.title = "Ballot moves (not timed)".into();
        let view = GameScreenView {
            title: format!("{} · {}", title, self.header()),
            board: BoardView {
                position: &position,
                flipped: self.ui.flipped,
                numbers: false,
                last_move: last,
                selected: None,
                targets: 0,
                cursor: None,
                marked,
            },
            players: [rname(Color::Red), rname(Color::White)],
            clocks: None,
            info,
            moves,
            input: None,
            candidates: Vec::new(),
            status: self.status_or(status),
            hint: "? help ".into(),
        };
        view.render(frame, area, look);
    }

    fn render_game(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let m = &self.session.m;
        let over = self.ui.ended;
        let shown = if over { m.current_game() } else { m.playing() };
        let pre = shown.is_none();
        let (ballot, game) = match (shown, m.phase()) {
            (Some(g), _) => (g.ballot, g.number),
            (None, Phase::Ready { ballot, game } | Phase::Playing { ballot, game }) => {
                (ballot, game)
            }
            _ => (0, 0),
        };
        let opening = m.ballots().last().map(|b| b.opening.clone());
        let red = m.red_in(ballot, game).unwrap_or(Player::First);
        let names = [m.name(red).to_string(), m.name(red.other()).to_string()];
        let (position, moves, clocks) = match (pre, shown) {
            (false, Some(g)) => (
                *g.game.position(),
                move_list(g),
                self.session.clock_view(ctx.now),
            ),
            _ => {
                let pos = opening
                    .as_ref()
                    .map(|o| o.position)
                    .unwrap_or_else(Position::start);
                let tc = &m.settings().time_control;
                let clocks = (!tc.is_none()).then(|| {
                    let r = Clock::new(tc, pos.turn()).reading(0);
                    let face = |side: Color, name: &str| ClockFace {
                        side,
                        name: name.to_string(),
                        remaining_ms: r
                            .side(side)
                            .remaining_ms
                            .or(r.side(side).move_limit_left_ms)
                            .unwrap_or(0),
                        period: None,
                        moves_to_control: r.side(side).moves_to_control,
                        flagged: false,
                    };
                    ClockPanelView {
                        red: face(Color::Red, &names[0]),
                        white: face(Color::White, &names[1]),
                        to_move: Some(pos.turn()),
                        paused: true,
                    }
                });
                let mut list = MoveListView::plain(pos.turn(), Vec::<String>::new());
                list.title = "Moves".into();
                (pos, list, clocks)
            }
        };
        let g = shown;
        let mut info: Vec<Line> = Vec::new();
        info.push(Line::from(vec![Span::styled(
            format!("Ballot {ballot} · game {game} of 2"),
            look.accent(),
        )]));
        if let Some(o) = &opening {
            let mut t = o.reference();
            if let Some(id) = o.public_id {
                t.push_str(&format!(" · id {id}"));
            }
            info.push(Line::from(Span::styled(t, look.dim())));
        }
        let score = m.score();
        info.push(Line::from(vec![
            Span::styled("Score ", look.dim()),
            Span::raw({
                let t = format!(
                    "{} {} · {} {}",
                    m.name(Player::First),
                    score.total[0],
                    m.name(Player::Second),
                    score.total[1]
                );
                if look.ascii {
                    crate::tui::theme::ascii_text(&t)
                } else {
                    t
                }
            }),
        ]));
        if clocks.is_none() {
            info.push(Line::from(Span::styled("No clock", look.dim())));
        }
        if let Some(by) = m.draw_offer() {
            info.push(Line::from(Span::styled(
                format!("{by} offers a draw"),
                look.accent(),
            )));
        }
        let status = if let Some(r) = g.and_then(|g| g.result.as_ref()) {
            (
                format!("Game over: {r}. Enter: results and score"),
                StatusKind::Warn,
            )
        } else if pre {
            (
                format!(
                    "Ballot {ballot}, game {game}: {} (Red) v {} (White). Enter starts {}'s clock",
                    names[0],
                    names[1],
                    position.turn()
                ),
                StatusKind::Info,
            )
        } else {
            let turn = position.turn();
            let paused = g.is_some_and(|g| g.clock.is_paused());
            let flag = m.flag_due(m.playing().map_or(0, |_| self.session.now(ctx.now).mono_ms));
            if let Some(f) = flag {
                (
                    format!("FLAG: {}", super::session::flag_text(f.kind, f.color)),
                    StatusKind::Error,
                )
            } else if paused {
                (
                    "Clocks paused: Enter resumes them (asks first)".into(),
                    StatusKind::Warn,
                )
            } else if let Some(by) = m.draw_offer() {
                (
                    format!(
                        "{by} offers a draw: {} accepts with a, declines with d (or plays on)",
                        by.opponent()
                    ),
                    StatusKind::Warn,
                )
            } else if let Some(claim) = m.claimable_draw() {
                let why = match claim {
                    DrawClaim::Repetition => "third repetition",
                    DrawClaim::FortyMoves => "40 moves without a man move or capture",
                    DrawClaim::ThirteenCount => "the 13-count ran out",
                };
                (
                    format!("{turn} to move; a draw is claimable ({why}): c claims"),
                    StatusKind::Warn,
                )
            } else {
                let who = self.colour_name(turn);
                let must = if position.must_capture() {
                    " (capture compulsory)"
                } else {
                    ""
                };
                (
                    format!("{who} ({turn}) to move{must}: type a move or pick a piece"),
                    StatusKind::Info,
                )
            }
        };
        let input = (!pre && !over).then_some(&self.ui.input);
        let view = GameScreenView {
            title: format!("Ballot {ballot}.{game} · {}", self.header()),
            board: BoardView {
                position: &position,
                flipped: self.ui.flipped,
                numbers: self.ui.numbers,
                last_move: g
                    .and_then(|g| g.game.moves().last().copied())
                    .or_else(|| opening.as_ref().and_then(|o| o.set_moves.last().copied())),
                selected: if pre {
                    None
                } else {
                    self.ui.input.shown_selection(&position)
                },
                targets: if pre {
                    0
                } else {
                    self.ui.input.targets(&position)
                },
                cursor: (!pre).then_some(self.ui.input.cursor),
                marked: 0,
            },
            players: names,
            clocks,
            info,
            moves,
            input,
            candidates: if pre {
                Vec::new()
            } else {
                self.ui.input.candidates(&position)
            },
            status: self.status_or(status),
            hint: "? help ".into(),
        };
        view.render(frame, area, look);
    }
}

fn side_name(s: CoinSide) -> &'static str {
    match s {
        CoinSide::Heads => "heads",
        CoinSide::Tails => "tails",
    }
}

fn piece(look: &Appearance, c: Color) -> &'static str {
    look.glyphs().piece(crate::engine::Piece {
        color: c,
        king: false,
    })
}

pub use crate::tui::widgets::wrap;
