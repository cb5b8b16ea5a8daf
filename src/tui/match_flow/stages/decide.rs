//! The drawn ballot, shown whole (its cards, removed men marked, public id, transpositions, a
//! warning when it loses a man at once), and the accept/reject step: White answers first,
//! then Red, as the rejection policy says.

use super::cards::{DrawShown, card_lines, rejected_lines, side_width};
use super::{PreGameStage, Stage, Step, View, header, names_in};
use crate::director::{Awaiting, Command, Match};
use crate::engine::Color;
use crate::openings::System;
use crate::tui::keys::{Binding, ENTER, Key, SPACE, help, lookup};
use crate::tui::screens::practice::BallotInfo;
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{GameScreenView, MoveListView, StatusKind, wrap};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The accept/reject stage: the ballot shown whole.
#[derive(Clone, Debug, PartialEq)]
pub struct DecideStage {
    /// The ballot, every card shown.
    pub shown: DrawShown,
}

/// What the keys of the accept/reject step do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// The player asked accepts the ballot.
    Accept,
    /// The player asked rejects it.
    Reject,
    /// The ballot is accepted: on to the board.
    Continue,
}

/// A player decides.
pub(crate) static DECIDE_KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[Key::Char('a')],
        Act::Accept,
        "accept the ballot (White first, then Red)",
    )
    .footer("accept"),
    Binding::new(&[Key::Char('r')], Act::Reject, "reject the ballot").footer("reject"),
];

/// The ballot is to be played.
pub(crate) static ACCEPTED_KEYS: &[Binding<Act>] =
    &[Binding::new(&[ENTER, SPACE], Act::Continue, "on to the board").footer("to the board")];

impl DecideStage {
    /// The ballot `shown` (all its cards are shown).
    pub fn new(mut shown: DrawShown) -> DecideStage {
        shown.revealed = shown.steps.len();
        DecideStage { shown }
    }

    /// Every table of this stage (for the key-table test).
    pub const TABLES: [&'static [Binding<Act>]; 2] = [DECIDE_KEYS, ACCEPTED_KEYS];

    /// The table in force.
    pub fn table(m: &Match) -> &'static [Binding<Act>] {
        match m.awaiting() {
            Awaiting::Decision { .. } => DECIDE_KEYS,
            _ => ACCEPTED_KEYS,
        }
    }

    /// The help lines in force.
    pub fn help(&self, m: &Match) -> Vec<KeyHelp> {
        help(Self::table(m))
    }

    /// Handle a key; `None` when it is not one of the stage's.
    pub fn key(&mut self, key: &KeyEvent, m: &Match) -> Option<Step> {
        let act = lookup(Self::table(m), key)?;
        Some(match (act, m.awaiting()) {
            (Act::Accept, Awaiting::Decision { colour, .. }) => {
                Step::Command(Command::Accept { colour })
            }
            (Act::Reject, Awaiting::Decision { colour, .. }) => {
                Step::Command(Command::Reject { colour })
            }
            (Act::Continue, Awaiting::GameStart { .. }) => Step::To(Stage::PreGame(PreGameStage)),
            _ => Step::Stay,
        })
    }

    /// The status line: who decides, or what Enter does.
    fn status(&self, m: &Match) -> (String, StatusKind) {
        match m.awaiting() {
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
            _ => (
                "Ballot accepted: Enter goes to the board".into(),
                StatusKind::Info,
            ),
        }
    }

    /// Draw the stage.
    pub fn render(&self, frame: &mut Frame, area: Rect, v: &View) {
        let look = v.ctx.appearance;
        let m = v.m();
        let d = &self.shown;
        let side_w = side_width(area);
        let mut info = card_lines(d, &m.settings().openings, side_w, look);
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
            for part in wrap(&format!("Transposes to {}{more}", list.join(", ")), side_w) {
                info.push(Line::from(Span::styled(part, look.dim())));
            }
        }
        if d.opening.system == System::ElevenMan && b.removed != 0 {
            for part in wrap(
                &format!(
                    "Removed men marked: {}",
                    crate::tui::widgets::board::square_list(b.removed)
                ),
                side_w,
            ) {
                info.push(Line::from(Span::styled(part, look.dim())));
            }
        }
        match b.loses_man {
            Some(side) => {
                for part in wrap(
                    &format!("WARNING: {side} loses a man at once in this ballot"),
                    side_w,
                ) {
                    info.push(Line::from(Span::styled(part, look.alert())));
                }
            }
            None => info.push(Line::from(Span::styled(
                "Man-down check: no man is lost",
                look.dim(),
            ))),
        }
        info.extend(rejected_lines(m, side_w, look));
        let mut moves = MoveListView::plain(
            Color::Red,
            d.opening.set_moves.iter().map(|m| m.to_string()),
        );
        moves.title = "Ballot moves (not timed)".into();
        GameScreenView {
            title: format!(
                "Ballot {} · {} · {}",
                d.ballot,
                d.opening.reference(),
                header(m)
            ),
            board: v.board(
                &d.opening.position,
                d.opening.set_moves.last().copied(),
                b.removed,
            ),
            players: names_in(m, d.ballot, 1),
            clocks: None,
            info,
            moves,
            input: None,
            candidates: Vec::new(),
            status: v.status(self.status(m)),
            hint: "? help ".into(),
            reserved: 0,
        }
        .render(frame, area, look);
    }
}
