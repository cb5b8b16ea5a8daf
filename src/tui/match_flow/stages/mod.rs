//! The stages of the match screen, one file each with its update and render: the colour
//! [`toss`], the ballot [`draw`] card by card, the accept/reject [`decide`] step, the game
//! about to start ([`pre_game`]), the [`game`] under clocks, the game just [`over`], and the
//! results ([`super::results`], drawn from the match alone).
//!
//! A stage never sends a command itself: its key handler returns a [`Step`] (a command for
//! the director, another stage, a popup, a message) and the screen applies it, so every
//! command goes through one place ([`super::screen::MatchScreen`]) and is saved at once.
//! What a stage draws comes from the match and the stage's own UI state (animations, the
//! cards shown so far, the move being typed).

pub(crate) mod cards;
pub(crate) mod decide;
pub(crate) mod draw;
pub(crate) mod game;
pub(crate) mod over;
pub(crate) mod pre_game;
pub(crate) mod toss;

use super::results::ResultsStage;
use super::screen::Popup;
use super::session::MatchSession;
use crate::director::{Command, Match, Phase, Player};
use crate::engine::{Bitboard, Color, Move, Position};
use crate::tui::screens::RenderCtx;
use crate::tui::widgets::{BoardView, StatusKind};
use std::time::Instant;

pub(crate) use cards::DrawShown;
pub(crate) use decide::DecideStage;
pub(crate) use draw::DrawStage;
pub(crate) use game::GameStage;
pub(crate) use over::OverStage;
pub(crate) use pre_game::PreGameStage;
pub(crate) use toss::TossStage;

/// Ticks (of 100 ms) the coin spins, the bag is rummaged, the hands are shown closed.
pub(crate) const TOSS_TICKS: u8 = 12;
/// Ticks between two ballot cards being shown.
pub(crate) const CARD_TICKS: u8 = 6;

/// Where the match screen is.
#[derive(Clone, Debug)]
pub enum Stage {
    /// The colour choice, acted out.
    Toss(TossStage),
    /// A ballot to draw, or being drawn card by card.
    Draw(DrawStage),
    /// The drawn ballot, shown whole: White, then Red, accept or reject it.
    Decide(DecideStage),
    /// A game set up, waiting for its clock to start.
    PreGame(PreGameStage),
    /// A game under clocks.
    Game(GameStage),
    /// The game that just ended, as it ended (final position, clocks, the flag).
    Over(OverStage),
    /// The score by game and by ballot, between games and at the end.
    Results(ResultsStage),
}

/// The stages by name, for tests and titles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageKind {
    /// [`Stage::Toss`].
    Toss,
    /// [`Stage::Draw`].
    Draw,
    /// [`Stage::Decide`].
    Decide,
    /// [`Stage::PreGame`].
    PreGame,
    /// [`Stage::Game`].
    Game,
    /// [`Stage::Over`].
    Over,
    /// [`Stage::Results`].
    Results,
}

impl Stage {
    /// The stage a match read back (or just created) opens on.
    pub fn for_match(m: &Match) -> Stage {
        match m.phase() {
            Phase::ColourChoice { .. } => Stage::Toss(TossStage::new()),
            Phase::Draw { .. } => Stage::Draw(DrawStage::waiting(m, None)),
            Phase::Decide { ballot, .. } => match m.pending_draw() {
                Some(d) => Stage::Decide(DecideStage::new(DrawShown::new(
                    ballot,
                    d.opening.clone(),
                    d.steps.clone(),
                    false,
                ))),
                None => Stage::Draw(DrawStage::waiting(m, None)),
            },
            Phase::Ready { .. } => Stage::PreGame(PreGameStage),
            Phase::Playing { .. } => Stage::Game(GameStage::new(m)),
            Phase::Finished => Stage::Results(ResultsStage::default()),
        }
    }

    /// The stage that follows an acknowledgement (Enter) when nothing else is shown: the
    /// next step the match waits for.
    pub fn next_for(m: &Match) -> Stage {
        Stage::for_match(m)
    }

    /// Which stage this is.
    pub fn kind(&self) -> StageKind {
        match self {
            Stage::Toss(_) => StageKind::Toss,
            Stage::Draw(_) => StageKind::Draw,
            Stage::Decide(_) => StageKind::Decide,
            Stage::PreGame(_) => StageKind::PreGame,
            Stage::Game(_) => StageKind::Game,
            Stage::Over(_) => StageKind::Over,
            Stage::Results(_) => StageKind::Results,
        }
    }

    /// The title of the stage's help.
    pub fn title(&self) -> &'static str {
        match self {
            Stage::Toss(_) => "Match: colour choice",
            Stage::Draw(_) => "Match: ballot draw",
            Stage::Decide(_) => "Match: accept or reject the ballot",
            Stage::PreGame(_) => "Match: before the game",
            Stage::Game(_) => "Match: game",
            Stage::Over(_) => "Match: game over",
            Stage::Results(_) => "Match: results",
        }
    }

    /// The board is shown (flip and square numbers apply).
    pub fn has_board(&self) -> bool {
        !matches!(self, Stage::Toss(_) | Stage::Results(_))
    }
}

/// What a stage's key (or tick) asks the screen to do.
#[derive(Debug)]
pub enum Step {
    /// Nothing more.
    Stay,
    /// Send this command to the director (then the screen follows the events).
    Command(Command),
    /// Go to another stage.
    To(Stage),
    /// Open a popup.
    Popup(Popup),
    /// Show a message on the status line (until the next event).
    Message(String, StatusKind),
    /// Clear the status line's message (the input changed).
    Clear,
    /// Open the last game in review.
    Review,
}

/// What every stage may read to draw itself.
pub struct View<'a> {
    /// The match and its save state.
    pub session: &'a MatchSession,
    /// Board orientation and square numbers.
    pub flipped: bool,
    /// Square numbers shown.
    pub numbers: bool,
    /// The render context (time, appearance).
    pub ctx: &'a RenderCtx<'a>,
    /// The status line's message, if one is shown now, and whether the stage's own status
    /// follows it.
    pub message: Option<(String, StatusKind, bool)>,
    /// The link to the desk in words, while the match reports to one, and how the status
    /// line shows it.
    pub link: Option<(String, StatusKind)>,
}

impl View<'_> {
    /// The match.
    pub fn m(&self) -> &Match {
        &self.session.m
    }

    /// The status line: the message if one is shown, else the stage's own, after what the last
    /// save did to the file if the director should know it (a version 1 file rewritten); while
    /// the last save failed, NOT SAVED in front of it
    /// ([`persist::not_saved`](super::persist::not_saved)).
    pub fn status(&self, own: (String, StatusKind)) -> (String, StatusKind) {
        let message = match self.message.clone() {
            Some((text, kind, true)) => {
                let kind = if kind == StatusKind::Info {
                    own.1
                } else {
                    kind
                };
                (format!("{text} · {}", own.0), kind)
            }
            Some((text, kind, false)) => (text, kind),
            None => own,
        };
        let message = match self.session.file_note() {
            Some(note) => (format!("{note} · {}", message.0), StatusKind::Warn),
            None => message,
        };
        let message = match &self.link {
            Some((link, link_kind)) => {
                let kind = match (link_kind, message.1) {
                    (StatusKind::Error, _) | (StatusKind::Warn, StatusKind::Info) => *link_kind,
                    (_, own) => own,
                };
                (format!("{link} · {}", message.0), kind)
            }
            None => message,
        };
        match self.session.status_mark(&message.0) {
            Some(text) => (text, StatusKind::Error),
            None => message,
        }
    }

    /// The board as the match screen shows it: orientation and numbers from the screen,
    /// highlights from the stage.
    pub fn board<'p>(
        &self,
        position: &'p Position,
        last_move: Option<Move>,
        marked: Bitboard,
    ) -> BoardView<'p> {
        BoardView {
            position,
            flipped: self.flipped,
            numbers: self.numbers,
            last_move,
            selected: None,
            targets: 0,
            cursor: None,
            marked,
        }
    }

    /// The instant clocks are read at.
    pub fn now(&self) -> Instant {
        self.ctx.now
    }
}

/// "Event · First v Second", the title of every stage.
pub(crate) fn header(m: &Match) -> String {
    let s = m.settings();
    let mut t = format!("{} v {}", s.players[0], s.players[1]);
    if !s.event.trim().is_empty() {
        t = format!("{} · {t}", s.event);
    }
    t
}

/// The names of Red and White in game `game` of `ballot` (the colours when the colours are
/// not chosen yet).
pub(crate) fn names_in(m: &Match, ballot: u32, game: u8) -> [String; 2] {
    match m.red_in(ballot, game) {
        Some(red) => [m.name(red).to_string(), m.name(red.other()).to_string()],
        None => [Color::Red.to_string(), Color::White.to_string()],
    }
}

/// The name of the player who has `c` in the game shown or about to start.
pub(crate) fn colour_name(m: &Match, c: Color) -> String {
    let red = match m.phase() {
        Phase::Ready { ballot, game } | Phase::Playing { ballot, game } => m.red_in(ballot, game),
        Phase::Decide { ballot, .. } | Phase::Draw { ballot } => m.red_in(ballot, 1),
        _ => m.current_game().map(|g| g.red),
    };
    match red {
        Some(r) => {
            let p: Player = if c == Color::Red { r } else { r.other() };
            m.name(p).to_string()
        }
        None => c.to_string(),
    }
}
