//! Review: step through a game (a finished one, or one read from PDN), both ways, from either
//! side of the board.

use super::{Ctx, Nav, RenderCtx, ScreenState};
use crate::engine::Game;
use crate::tui::Msg;
use crate::tui::keys::{Binding, DOWN, ENTER, ESC, Key, LEFT, RIGHT, SPACE, UP, help, lookup};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{BoardView, GameScreenView, MoveListView, StatusKind, plies_and_moves};
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
        }
    }

    fn step(&mut self, delta: isize) {
        let n = self.game.moves().len() as isize;
        self.ply = (self.ply as isize + delta).clamp(0, n) as usize;
    }
}

impl ScreenState for ReviewScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        vec![crate::tui::keys::erase(KEYS)]
    }

    fn update(&mut self, msg: &Msg, _ctx: &mut Ctx) -> Nav {
        match msg {
            Msg::Key(key) => match lookup(KEYS, key) {
                Some(Act::Back1) => self.step(-1),
                Some(Act::Forward1) => self.step(1),
                Some(Act::Back10) => self.step(-10),
                Some(Act::Forward10) => self.step(10),
                Some(Act::Start) => self.ply = 0,
                Some(Act::End) => self.ply = self.game.moves().len(),
                Some(Act::Flip) => self.flipped = !self.flipped,
                Some(Act::Numbers) => self.numbers = !self.numbers,
                Some(Act::Close) => return Nav::Pop,
                None => {}
            },
            Msg::Mouse(m) => match m.kind {
                MouseEventKind::ScrollUp => self.step(-1),
                MouseEventKind::ScrollDown => self.step(1),
                _ => {}
            },
            _ => {}
        }
        Nav::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let pos = &self.game.positions()[self.ply];
        let n = self.game.moves().len();
        let last = self.ply.checked_sub(1).map(|i| self.game.moves()[i]);
        let mut moves = MoveListView::plain(
            self.game.start().turn(),
            self.game.moves().iter().map(|m| m.to_string()),
        );
        for (entry, clock) in moves.moves.iter_mut().zip(&self.clocks) {
            entry.clock = clock.clone();
        }
        moves.current = self.ply.checked_sub(1);
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
        let status = match (self.ply, last) {
            (0, _) => "Start position. → or l steps forward".to_string(),
            (_, Some(mv)) if self.ply == n => {
                format!("{mv}, the last move. ← or h steps back, Home goes to the start")
            }
            (_, Some(mv)) => format!("after {mv}; {} to move", pos.turn()),
            _ => String::new(),
        };
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
            info,
            moves,
            input: None,
            candidates: Vec::new(),
            status: (status, StatusKind::Info),
            hint: "? help ".into(),
        };
        view.render(frame, area, look);
    }

    fn title(&self) -> String {
        "Review".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        let mut lines = help(KEYS);
        lines.push(KeyHelp::new("mouse wheel", "previous or next move"));
        lines
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
    /// Back to the screen the review was opened from.
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
    Binding::new(&[Key::Char('q'), ESC], Act::Close, "back").footer("back"),
];
