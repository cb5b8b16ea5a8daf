//! The ballot draw, as the match's settings say ([`BallotDraw`]): card by card, each card
//! waiting for a key (Space the next card, so that each player may turn one; Enter every
//! card; `t` the rest by themselves), or with the cards turning by themselves one by one (any
//! key shows the rest, as the screen says). Waiting for the draw, one key draws the other
//! way (`t`, or `c`). When every card is shown the ballot goes to the players
//! ([`super::decide`]).

use super::cards::{DrawShown, card_lines, rejected_lines, side_width};
use super::{CARD_TICKS, DecideStage, Stage, Step, View, header, names_in};
use crate::director::{BallotDraw, Command, Match, Phase};
use crate::engine::{Color, Position};
use crate::openings::Opening;
use crate::tui::keys::{Binding, ENTER, Key, SPACE, footer, help, lookup};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{GameScreenView, MoveListView, StatusKind};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The ballot-draw stage.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawStage {
    /// The ballot being drawn, once drawn.
    pub drawn: Option<DrawShown>,
    /// The ballot both players just rejected, if that is why a new one is drawn.
    pub rejected: Option<Opening>,
    /// Each card waits for a key (the match's setting, or `c` before the draw).
    pub by_key: bool,
}

/// What the keys of the ballot draw do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Draw the ballot, its cards turning by themselves.
    Draw,
    /// Draw the ballot, each card waiting for a key.
    DrawByKey,
    /// Show the next card.
    NextCard,
    /// Show every card.
    AllCards,
    /// The cards left turn by themselves.
    Auto,
}

/// Before the draw, the match drawing card by card.
pub(crate) static WAIT_BY_KEY_KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[ENTER, SPACE, Key::Char('d')],
        Act::DrawByKey,
        "draw the ballot card by card, each card turned by a key",
    )
    .footer("draw the ballot"),
    Binding::new(
        &[Key::Char('t')],
        Act::Draw,
        "draw the ballot, the cards turning by themselves",
    )
    .footer("by themselves"),
];

/// Before the draw, the match drawing with the cards turning by themselves.
pub(crate) static WAIT_KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[ENTER, SPACE, Key::Char('d')],
        Act::Draw,
        "draw the ballot, the cards turning by themselves",
    )
    .footer("draw the ballot"),
    Binding::new(
        &[Key::Char('c')],
        Act::DrawByKey,
        "draw the ballot card by card, each card turned by a key",
    )
    .footer("card by card"),
];

/// While the cards are shown, each when a key turns it.
pub(crate) static CARD_KEYS: &[Binding<Act>] = &[
    Binding::new(&[SPACE], Act::NextCard, "turn the next card").footer("next card"),
    Binding::new(&[ENTER], Act::AllCards, "show every card").footer("all cards"),
    Binding::new(
        &[Key::Char('t')],
        Act::Auto,
        "the cards left turn by themselves",
    )
    .footer("auto"),
];

/// While the cards turn by themselves: any key shows the rest (these are named in help).
pub(crate) static AUTO_KEYS: &[Binding<Act>] = &[Binding::new(
    &[ENTER, SPACE],
    Act::AllCards,
    "show the cards left at once (any other key too)",
)
.footer("the rest")];

impl DrawStage {
    /// Waiting for `m`'s draw, to be drawn as its settings say (after both players rejected
    /// `rejected`, if given).
    pub fn waiting(m: &Match, rejected: Option<Opening>) -> DrawStage {
        DrawStage {
            drawn: None,
            rejected,
            by_key: m.settings().ballot_draw == BallotDraw::CardByCard,
        }
    }

    /// Every table of this stage (for the key-table test).
    pub const TABLES: [&'static [Binding<Act>]; 4] =
        [WAIT_BY_KEY_KEYS, WAIT_KEYS, CARD_KEYS, AUTO_KEYS];

    /// The table in force.
    pub fn table(&self) -> &'static [Binding<Act>] {
        match &self.drawn {
            None if self.by_key => WAIT_BY_KEY_KEYS,
            None => WAIT_KEYS,
            Some(d) if d.auto => AUTO_KEYS,
            Some(_) => CARD_KEYS,
        }
    }

    /// The help lines in force.
    pub fn help(&self) -> Vec<KeyHelp> {
        help(self.table())
    }

    /// The cards are turning by themselves (the loop ticks).
    pub fn animating(&self) -> bool {
        self.drawn.as_ref().is_some_and(|d| d.auto && !d.done())
    }

    /// Once every card is shown: the ballot goes to the players.
    fn settle(&self) -> Step {
        match &self.drawn {
            Some(d) if d.done() => Step::To(Stage::Decide(DecideStage::new(d.clone()))),
            _ => Step::Stay,
        }
    }

    /// One tick: the next card when its time has come.
    pub fn tick(&mut self) -> Step {
        if let Some(d) = &mut self.drawn
            && d.auto
            && !d.done()
        {
            d.wait = d.wait.saturating_sub(1);
            if d.wait == 0 {
                d.revealed += 1;
                d.wait = CARD_TICKS;
            }
        }
        self.settle()
    }

    /// Handle a key; `None` when it is not one of the stage's. While the cards turn by
    /// themselves every key is the draw's: it shows the cards left.
    pub fn key(&mut self, key: &KeyEvent) -> Option<Step> {
        let act = match &self.drawn {
            Some(d) if d.auto && !d.done() => Act::AllCards,
            _ => lookup(self.table(), key)?,
        };
        Some(match (act, &mut self.drawn) {
            (Act::Draw, None) => {
                self.by_key = false;
                Step::Command(Command::DrawBallot)
            }
            (Act::DrawByKey, None) => {
                self.by_key = true;
                Step::Command(Command::DrawBallot)
            }
            (Act::NextCard, Some(d)) => {
                d.revealed += 1;
                d.wait = CARD_TICKS;
                self.settle()
            }
            (Act::AllCards, Some(d)) => {
                d.revealed = d.steps.len();
                self.settle()
            }
            (Act::Auto, Some(d)) => {
                d.auto = true;
                d.wait = CARD_TICKS;
                Step::Stay
            }
            _ => Step::Stay,
        })
    }

    /// Draw the stage.
    pub fn render(&self, frame: &mut Frame, area: Rect, v: &View) {
        let look = v.ctx.appearance;
        let m = v.m();
        let side_w = side_width(area);
        let ballot = match (&self.drawn, m.phase()) {
            (Some(d), _) => d.ballot,
            (None, Phase::Draw { ballot }) => ballot,
            _ => 0,
        };
        let mut info: Vec<Line> = Vec::new();
        let (status, title) = match &self.drawn {
            None => {
                info.push(Line::from(Span::styled(
                    format!(
                        "{} · {} rejected so far",
                        m.settings().openings.system.title(),
                        m.rejected().len()
                    ),
                    look.dim(),
                )));
                let status = match &self.rejected {
                    Some(o) => (
                        format!(
                            "Both players rejected {}: Enter draws a new ballot {ballot}",
                            o.reference()
                        ),
                        StatusKind::Warn,
                    ),
                    None if self.by_key => (
                        format!(
                            "Ballot {ballot}: Enter draws the ballot card by card (t: automatic)"
                        ),
                        StatusKind::Info,
                    ),
                    None => (
                        format!("Ballot {ballot}: Enter draws the ballot (c: card by card)"),
                        StatusKind::Info,
                    ),
                };
                (status, format!("Ballot {ballot} · draw"))
            }
            Some(d) => {
                info.extend(card_lines(d, &m.settings().openings, side_w, look));
                let (n, of) = (d.revealed + 1, d.steps.len());
                let (card, status) = if d.auto {
                    (
                        format!("drawing card {n} of {of}..."),
                        "The cards turn by themselves: any key shows the rest".to_string(),
                    )
                } else {
                    (
                        format!("card {n} of {of} waits for a key"),
                        format!("Card by card: {}", footer(CARD_KEYS)),
                    )
                };
                info.push(Line::from(Span::styled(card, look.dim())));
                (
                    (status, StatusKind::Info),
                    format!("Ballot {} · drawing", d.ballot),
                )
            }
        };
        info.extend(rejected_lines(m, side_w, look));
        let start = Position::start();
        let mut moves = MoveListView::plain(Color::Red, Vec::<String>::new());
        moves.title = "Ballot moves (not timed)".into();
        GameScreenView {
            title: format!("{title} · {}", header(m)),
            board: v.board(&start, None, 0),
            players: names_in(m, ballot, 1),
            clocks: None,
            info,
            moves,
            input: None,
            candidates: Vec::new(),
            status: v.status(status),
            hint: "? help ".into(),
            reserved: 0,
        }
        .render(frame, area, look);
    }
}
