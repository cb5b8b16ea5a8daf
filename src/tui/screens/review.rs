//! Review: step through a game (a finished one, or one read from PDN), both ways, from either
//! side of the board.

use super::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::engine::Game;
use crate::tui::Msg;
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{BoardView, GameScreenView, MoveListView, StatusKind};
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
    /// Where `q` goes back to (home if none).
    pub back: Option<Box<Screen>>,
}

impl ReviewScreen {
    /// Review `game` from its last position.
    pub fn new(game: Game, title: String, back: Option<Box<Screen>>) -> ReviewScreen {
        ReviewScreen {
            ply: game.moves().len(),
            game,
            flipped: false,
            numbers: false,
            title,
            info: Vec::new(),
            players: [String::new(), String::new()],
            clocks: Vec::new(),
            back,
        }
    }

    fn step(&mut self, delta: isize) {
        let n = self.game.moves().len() as isize;
        self.ply = (self.ply as isize + delta).clamp(0, n) as usize;
    }
}

impl ScreenState for ReviewScreen {
    fn update(&mut self, msg: &Msg, _ctx: &mut Ctx) -> Nav {
        match msg {
            Msg::Key(key) => match key.code {
                KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('k') | KeyCode::Up => {
                    self.step(-1)
                }
                KeyCode::Right
                | KeyCode::Char('l')
                | KeyCode::Char('j')
                | KeyCode::Down
                | KeyCode::Char(' ')
                | KeyCode::Enter => self.step(1),
                KeyCode::PageUp => self.step(-10),
                KeyCode::PageDown => self.step(10),
                KeyCode::Home | KeyCode::Char('g') => self.ply = 0,
                KeyCode::End | KeyCode::Char('G') => self.ply = self.game.moves().len(),
                KeyCode::Char('f') => self.flipped = !self.flipped,
                KeyCode::Char('n') => self.numbers = !self.numbers,
                KeyCode::Char('q') | KeyCode::Esc => {
                    return match self.back.take() {
                        Some(s) => Nav::Goto(s),
                        None => Nav::Home,
                    };
                }
                _ => {}
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
        info.push(Line::from(Span::styled(
            format!("Move {} of {n}", self.ply),
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
        vec![
            KeyHelp("→, l, Space", "next move"),
            KeyHelp("←, h", "previous move"),
            KeyHelp("PgUp, PgDn", "ten moves back or forward"),
            KeyHelp("Home/g, End/G", "the start, the end"),
            KeyHelp("f", "flip the board"),
            KeyHelp("n", "show or hide square numbers"),
            KeyHelp("q, Esc", "back"),
        ]
    }
}
