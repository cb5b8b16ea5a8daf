//! Setting up a position: any position on the board, from the home screen (the standard start),
//! from review (the position on the board, of a finished game or of a PDN), then played on in
//! practice against a level or a second human, or kept as PDN with its `SetUp` and `FEN` tags.
//!
//! The board is edited with keys (a cursor; a piece or an empty square put on it; the side to
//! move; clear; the initial position) and the mouse (a click cycles the square: empty, Red man,
//! Red king, White man, White king; the right button goes the other way), or a FEN is typed or
//! pasted ([`super::position_check::read_fen`]). What is on the board is checked at every change
//! ([`super::position_check::check_position`]): a refused position says why, and neither plays
//! nor saves.

use super::position_check::{Verdict, check_position, read_fen};
use super::practice_engine::{Opponent, PracticeEngine};
use super::practice_keep::{Kept, practice_pdn};
use super::{Ctx, Nav, PracticeScreen, RenderCtx, Screen, ScreenState};
use crate::engine::{Color, Game, Piece, Position, Rules, Square};
use crate::tui::Msg;
use crate::tui::analysis_pane::AnalysisPane;
use crate::tui::keys::{
    Binding, DOWN, ENTER, ESC, Erased, Key, LEFT, RIGHT, SPACE, UP, erase, footer, help, help_hint,
    lookup,
};
use crate::tui::move_input::step_cursor;
use crate::tui::theme::Appearance;
use crate::tui::widgets::form::TEXT_KEYS;
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{
    BoardView, GameLayout, StatusKind, TextField, fit_line, fit_text, wrap_fit,
};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The longest FEN accepted in the field (24 kings with their `K` and commas fit well within).
const FEN_MAX: usize = 160;

/// What a square may hold, in the order a click cycles through.
const CYCLE: [Option<Piece>; 5] = [
    None,
    Some(Piece {
        color: Color::Red,
        king: false,
    }),
    Some(Piece {
        color: Color::Red,
        king: true,
    }),
    Some(Piece {
        color: Color::White,
        king: false,
    }),
    Some(Piece {
        color: Color::White,
        king: true,
    }),
];

/// The position set-up screen.
#[derive(Clone, Debug)]
pub struct PositionSetupScreen {
    /// The board as edited: it may break the rules (13 men, a man on its crowning row) until
    /// it is checked.
    pub board: Position,
    /// The square the keys put a piece on.
    pub cursor: Square,
    /// Red at the bottom.
    pub flipped: bool,
    /// Square numbers shown.
    pub numbers: bool,
    /// The game played from the position.
    pub rules: Rules,
    /// The computer opponent (`None`: two players at the board).
    pub opponent: Option<Opponent>,
    /// The FEN field, while one is typed.
    pub fen: Option<TextField>,
    /// What the last key did, or why it was refused.
    pub message: Option<(String, StatusKind)>,
    /// The engine thinking about the position on the board while it is accepted (`a`).
    pub analysis: AnalysisPane,
}

impl Default for PositionSetupScreen {
    fn default() -> PositionSetupScreen {
        PositionSetupScreen::new(&Position::start())
    }
}

impl PositionSetupScreen {
    /// Set up from `start` (its rules are the game's), the cursor on square 14.
    pub fn new(start: &Position) -> PositionSetupScreen {
        PositionSetupScreen {
            board: *start,
            cursor: Square::from_index(13),
            flipped: false,
            numbers: false,
            rules: start.rules(),
            opponent: None,
            fen: None,
            message: None,
            analysis: AnalysisPane::default(),
        }
    }

    /// The position as checked: the game's position and what it is, or why it is refused.
    pub fn check(&self) -> Result<(Position, Verdict), String> {
        check_position(&self.board, self.rules)
    }

    fn say(&mut self, text: impl Into<String>, kind: StatusKind) {
        self.message = Some((text.into(), kind));
    }

    /// Put `piece` on `sq` (the cursor moves there).
    fn put(&mut self, sq: Square, piece: Option<Piece>) {
        self.cursor = sq;
        self.board.set_piece(sq, piece);
        self.say(format!("{sq}: {}", piece_name(piece)), StatusKind::Info);
    }

    /// The next (or previous) content of `sq` in the click cycle.
    fn cycle(&mut self, sq: Square, forward: bool) {
        let now = self.board.piece_at(sq);
        let i = CYCLE.iter().position(|&p| p == now).unwrap_or(0);
        let n = CYCLE.len();
        let next = if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        };
        self.put(sq, CYCLE[next]);
    }

    /// Play on from the position, in practice (a refused position says why and stays).
    fn play(&mut self) -> Nav {
        if let Err(why) = Opponent::plays(self.opponent.as_ref(), self.rules) {
            self.say(why, StatusKind::Error);
            return Nav::Stay;
        }
        match self.check() {
            Err(why) => {
                self.say(format!("cannot play from here: {why}"), StatusKind::Error);
                Nav::Stay
            }
            Ok((pos, _)) => {
                let mut practice = PracticeScreen::new(pos, None);
                practice.engine = PracticeEngine::new(self.opponent.clone());
                practice.flipped = self.flipped;
                practice.numbers = self.numbers;
                Nav::Goto(Box::new(Screen::Practice(practice)))
            }
        }
    }

    /// Keep the position as a PDN game of no moves (its FEN, and its result when finished)
    /// in the practice games file.
    fn save(&mut self, ctx: &Ctx) {
        let pos = match self.check() {
            Ok((pos, _)) => pos,
            Err(why) => return self.say(format!("not saved: {why}"), StatusKind::Error),
        };
        let game = Game::new(self.rules, pos);
        let date = ctx.matches.wall().format("%Y.%m.%d").to_string();
        let record = practice_pdn(&game, None, self.opponent.as_ref(), None, &date)
            .with_tag("Event", "Position");
        match Kept::default().save(&game, record, ctx.practice_file) {
            Ok(said) => self.say(said, StatusKind::Info),
            Err(e) => self.say(e, StatusKind::Error),
        }
    }

    /// Read the FEN typed: the board takes it, or the field stays open with the error.
    fn read_typed(&mut self) {
        let Some(field) = &mut self.fen else {
            return;
        };
        match read_fen(&field.value) {
            Ok(pos) => {
                self.board = pos;
                self.fen = None;
                self.say("the FEN is on the board", StatusKind::Info);
            }
            Err(e) => field.error = Some(e),
        }
    }

    fn fen_key(&mut self, key: &KeyEvent) -> Nav {
        match lookup(FEN_KEYS, key) {
            Some(FenAct::Read) => self.read_typed(),
            Some(FenAct::Cancel) => {
                self.fen = None;
                self.say("the board is as it was", StatusKind::Info);
            }
            None => {
                if let Some(field) = &mut self.fen
                    && field.key(key)
                {
                    field.error = None;
                }
            }
        }
        Nav::Stay
    }

    fn key(&mut self, key: &KeyEvent, ctx: &Ctx) -> Nav {
        self.message = None;
        let Some(act) = lookup(KEYS, key) else {
            return Nav::Stay;
        };
        match act {
            Act::Cursor => {
                let dir = match key.code {
                    KeyCode::Up => 0,
                    KeyCode::Down => 1,
                    KeyCode::Left => 2,
                    _ => 3,
                };
                self.cursor = step_cursor(self.cursor, dir, self.flipped);
                let on = piece_name(self.board.piece_at(self.cursor));
                self.say(format!("{}: {on}", self.cursor), StatusKind::Info);
            }
            Act::Cycle => self.cycle(self.cursor, true),
            Act::Place => self.put(self.cursor, placed(key)),
            Act::Turn => {
                let turn = self.board.turn().opponent();
                self.board = self.board.with_turn(turn);
                self.say(format!("{turn} to move"), StatusKind::Info);
            }
            Act::Clear => {
                self.board = Position::empty(self.board.turn());
                self.say("the board is cleared", StatusKind::Info);
            }
            Act::Initial => {
                self.board = Position::start();
                self.say("the initial position, Red to move", StatusKind::Info);
            }
            Act::Fen => {
                let mut field = TextField::new("FEN", self.board.to_fen()).with_max_len(FEN_MAX);
                field.hint = "type or paste; Enter reads it".into();
                self.fen = Some(field);
            }
            Act::Flip => self.flipped = !self.flipped,
            Act::Numbers => self.numbers = !self.numbers,
            Act::Game => {
                let i = Rules::ALL.iter().position(|&r| r == self.rules);
                self.rules = Rules::ALL[i.map_or(0, |i| (i + 1) % Rules::ALL.len())];
                self.say(format!("the game: {}", self.rules.name()), StatusKind::Info);
            }
            Act::Opponent => {
                let colour = self.opponent.as_ref().map_or(Color::White, |o| o.color);
                let engines = &ctx.matches.engines;
                self.opponent = Opponent::cycle(self.opponent.as_ref(), colour, engines);
            }
            Act::Time => match Opponent::next_time(self.opponent.as_mut()) {
                Ok(said) => self.say(said, StatusKind::Info),
                Err(why) => self.say(why, StatusKind::Error),
            },
            Act::Colour => match &mut self.opponent {
                Some(o) => o.color = o.color.opponent(),
                None => self.say(
                    "two players at the board: o chooses an engine opponent",
                    StatusKind::Error,
                ),
            },
            Act::Play => return self.play(),
            Act::Analyse => self.analysis.press(key.code, &ctx.matches.engines),
            Act::Save => self.save(ctx),
            Act::Back => return Nav::Pop,
        }
        Nav::Stay
    }

    fn mouse(&mut self, m: &MouseEvent, area: Rect) -> Nav {
        let forward = match m.kind {
            MouseEventKind::Down(MouseButton::Left) => true,
            MouseEventKind::Down(MouseButton::Right) => false,
            _ => return Nav::Stay,
        };
        let square = GameLayout::new(area)
            .board_geometry(self.flipped)
            .and_then(|g| g.square_at(m.column, m.row));
        if let Some(sq) = square {
            self.cycle(sq, forward);
        }
        Nav::Stay
    }
}

/// "Red man", "White king", "empty".
fn piece_name(piece: Option<Piece>) -> String {
    match piece {
        None => "empty".into(),
        Some(p) => format!("{} {}", p.color, if p.king { "king" } else { "man" }),
    }
}

/// What a key of [`Act::Place`] puts on the square.
fn placed(key: &KeyEvent) -> Option<Piece> {
    let piece = |color, king| Some(Piece { color, king });
    match key.code {
        KeyCode::Char('r') => piece(Color::Red, false),
        KeyCode::Char('R') => piece(Color::Red, true),
        KeyCode::Char('w') => piece(Color::White, false),
        KeyCode::Char('W') => piece(Color::White, true),
        _ => None,
    }
}

/// What the keys of the set-up board do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Move the cursor.
    Cursor,
    /// The next content of the cursor's square.
    Cycle,
    /// Put a piece (or nothing) on the cursor's square.
    Place,
    /// The other side to move.
    Turn,
    /// Take every piece off.
    Clear,
    /// The standard start.
    Initial,
    /// Type or paste a FEN.
    Fen,
    /// Flip the board.
    Flip,
    /// Square numbers.
    Numbers,
    /// The next game (English, pool, huffing, losing).
    Game,
    /// The next opponent: none, then each level.
    Opponent,
    /// The colour the engine plays.
    Colour,
    /// A Hub engine's thinking time a move.
    Time,
    /// Play on from the position.
    Play,
    /// Show or hide the analysis pane (`a`), or one line more or fewer in it (`>`, `<`).
    Analyse,
    /// Keep the position as PDN.
    Save,
    /// Back to the screen under this one.
    Back,
}

/// The keys of the set-up board.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[UP, DOWN, LEFT, RIGHT],
        Act::Cursor,
        "move the cursor (or click a square)",
    ),
    Binding::new(
        &[SPACE],
        Act::Cycle,
        "cycle the square: empty, Red man, Red king, White man, White king",
    )
    .footer("cycle"),
    Binding::new(
        &[
            Key::Char('r'),
            Key::Char('R'),
            Key::Char('w'),
            Key::Char('W'),
            Key::Char('x'),
            Key::Code(KeyCode::Delete),
        ],
        Act::Place,
        "put a Red man, Red king, White man, White king; x empties",
    ),
    Binding::new(&[Key::Char('t')], Act::Turn, "the side to move").footer("turn"),
    Binding::new(&[Key::Char('c')], Act::Clear, "clear the board").footer("clear"),
    Binding::new(&[Key::Char('i')], Act::Initial, "the initial position"),
    Binding::new(&[Key::Char('e')], Act::Fen, "type or paste a FEN").footer("FEN"),
    Binding::new(&[Key::Char('f')], Act::Flip, "flip the board"),
    Binding::new(
        &[Key::Char('n')],
        Act::Numbers,
        "show or hide square numbers",
    ),
    Binding::new(
        &[Key::Char('g')],
        Act::Game,
        "the game: English, pool, huffing, the losing game",
    ),
    Binding::new(
        &[Key::Char('o')],
        Act::Opponent,
        "opponent: a second player, the engine at a level, or a Hub engine",
    ),
    Binding::new(
        &[Key::Char('v')],
        Act::Colour,
        "the colour the engine plays",
    ),
    Binding::new(
        &[Key::Char('+')],
        Act::Time,
        "a Hub engine's thinking time a move (0.5 s to 30 s)",
    ),
    Binding::new(&[ENTER], Act::Play, "play on from this position").footer("play"),
    Binding::new(
        &[
            Key::Char('a'),
            Key::Char('E'),
            Key::Char('>'),
            Key::Char('<'),
        ],
        Act::Analyse,
        "engine analysis: a show/hide, E which engine, > < lines",
    ),
    Binding::new(
        &[Key::Char('s')],
        Act::Save,
        "save it as PDN (SetUp and FEN) in practice-games.pdn",
    )
    .footer("save"),
    Binding::new(&[Key::Char('q'), ESC], Act::Back, "back").footer("back"),
];

/// What the keys of the FEN field do (besides editing it, [`TEXT_KEYS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FenAct {
    /// Read the FEN onto the board.
    Read,
    /// Close the field; the board is unchanged.
    Cancel,
}

/// The keys of the FEN field.
pub(crate) static FEN_KEYS: &[Binding<FenAct>] = &[
    Binding::new(&[ENTER], FenAct::Read, "put the FEN on the board").footer("read"),
    Binding::new(&[ESC], FenAct::Cancel, "close the field, board unchanged").footer("cancel"),
];

impl ScreenState for PositionSetupScreen {
    fn chain(&self) -> Vec<Erased> {
        if self.fen.is_some() {
            vec![erase(FEN_KEYS), erase(TEXT_KEYS)]
        } else {
            vec![erase(KEYS)]
        }
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let nav = match msg {
            Msg::Key(k) if self.fen.is_some() => self.fen_key(k),
            Msg::Key(k) => self.key(k, ctx),
            Msg::Mouse(m) => self.mouse(m, ctx.area),
            _ => Nav::Stay,
        };
        // The pane follows the board as edited while it is accepted; out of sight, it stops.
        match (&nav, self.check()) {
            (Nav::Stay, Ok((pos, _))) => self.analysis.follow(&[pos]),
            _ => self.analysis.follow(&[]),
        }
        nav
    }

    fn ticking(&self) -> bool {
        self.analysis.busy()
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let layout = GameLayout::new(area);
        let buf = frame.buffer_mut();
        let title = format!(" Set up a position · {} ", self.rules.name());
        buf.set_string(layout.title.x, layout.title.y, title, look.accent());
        BoardView {
            flipped: self.flipped,
            numbers: self.numbers,
            cursor: Some(self.cursor),
            ..BoardView::new(&self.board)
        }
        .render(layout.board, buf, look);
        let pane = self.analysis.height().min(layout.side.height);
        let side = Rect {
            height: layout.side.height - pane,
            ..layout.side
        };
        self.render_side(side, buf, look);
        self.render_pane(layout.side, buf, look);
        let width = usize::from(area.width.saturating_sub(1));
        let fen_line = match &self.fen {
            Some(field) => field.line_fit(3, true, look, width),
            None => Line::from(vec![
                Span::styled("  FEN  ", look.dim()),
                Span::raw(fit_text(&self.board.to_fen(), width.saturating_sub(7))),
            ]),
        };
        buf.set_line(area.x, layout.input.y, &fen_line, area.width);
        let (text, kind) = self.status();
        let style = match kind {
            StatusKind::Info => ratatui::style::Style::new(),
            StatusKind::Warn => look.accent(),
            StatusKind::Error => look.alert(),
        };
        let y = layout.status.y;
        buf.set_string(area.x + 1, y, fit_text(&text, width), style);
        let keys = if self.fen.is_some() {
            format!("{} · {}", footer(FEN_KEYS), help_hint(true))
        } else {
            format!("{} · {}", footer(KEYS), help_hint(false))
        };
        buf.set_string(area.x + 1, y + 1, fit_text(&keys, width), look.dim());
    }

    fn title(&self) -> String {
        "Set up a position".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.fen.is_some() {
            let mut lines = help(FEN_KEYS);
            lines.extend(help(TEXT_KEYS));
            lines
        } else {
            help(KEYS)
        }
    }

    fn typing(&self) -> bool {
        self.fen.is_some()
    }
}

impl PositionSetupScreen {
    /// The status line: the last key's word, the FEN field's error, or what to do.
    fn status(&self) -> (String, StatusKind) {
        if let Some(e) = self.fen.as_ref().and_then(|f| f.error.clone()) {
            return (e, StatusKind::Error);
        }
        if let Some(m) = &self.message {
            return m.clone();
        }
        if self.fen.is_some() {
            return (
                "a FEN such as W:W21,22,K30:B1,2,3 (Ctrl-U clears the field)".into(),
                StatusKind::Info,
            );
        }
        (
            "r R w W x put a piece on the cursor's square; Enter plays on".into(),
            StatusKind::Info,
        )
    }

    /// The analysis pane at the bottom of the side panel, when shown; a refused position has
    /// none, and says so.
    fn render_pane(&self, side: Rect, buf: &mut Buffer, look: &Appearance) {
        if !self.analysis.shown() {
            return;
        }
        if self.check().is_ok() {
            self.analysis.render_at_bottom(side, buf, look);
        } else if side.height > 0 {
            let y = side.bottom() - self.analysis.height().min(side.height);
            let line = Line::from(Span::styled(
                " Engine: none for a refused position",
                look.dim(),
            ));
            buf.set_line(
                side.x,
                y,
                &fit_line(line, usize::from(side.width)),
                side.width,
            );
        }
    }

    /// The side panel: side to move, pieces, game, opponent, then the verdict in words.
    fn render_side(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let width = usize::from(area.width.saturating_sub(2));
        let count = |c: Color| {
            let men = (self.board.pieces(c) & !self.board.kings()).count_ones();
            let kings = self.board.kings_of(c).count_ones();
            let kings_word = if kings == 1 { "king" } else { "kings" };
            let men_word = if men == 1 { "man" } else { "men" };
            format!("{:<6}{men} {men_word}, {kings} {kings_word}", c.to_string())
        };
        let mut lines = vec![
            Line::from(vec![
                Span::styled("To move   ", look.dim()),
                Span::styled(self.board.turn().to_string(), look.side(self.board.turn())),
            ]),
            Line::from(Span::raw(count(Color::Red))),
            Line::from(Span::raw(count(Color::White))),
            Line::from(vec![
                Span::styled("Opponent  ", look.dim()),
                Span::raw(Opponent::describe(self.opponent.as_ref())),
            ]),
        ];
        if let Some(h) = self.opponent.as_ref().and_then(|o| o.hub.as_ref()) {
            lines.push(Line::from(vec![
                Span::styled("Time      ", look.dim()),
                Span::raw(format!("{} (+)", h.time_text())),
            ]));
        }
        lines.extend([
            Line::from(vec![
                Span::styled("Cursor    ", look.dim()),
                Span::raw(format!(
                    "{}: {}",
                    self.cursor,
                    piece_name(self.board.piece_at(self.cursor))
                )),
            ]),
            Line::from(""),
        ]);
        let (head, text, style) = match self.check() {
            Ok((pos, verdict @ Verdict::Playable(_))) => {
                ("Ready", verdict.describe(&pos), look.accent())
            }
            Ok((pos, verdict)) => ("Accepted", verdict.describe(&pos), look.accent()),
            Err(why) => ("Refused", why, look.alert()),
        };
        lines.push(Line::from(Span::styled(head, style)));
        let room = usize::from(area.height).saturating_sub(lines.len()).max(1);
        for l in wrap_fit(&text, width, room) {
            lines.push(Line::from(Span::styled(l, style)));
        }
        for (i, line) in lines.iter().enumerate() {
            let y = area.y + i as u16;
            if y >= area.bottom() {
                break;
            }
            let line = fit_line(line.clone(), width);
            buf.set_line(area.x + 1, y, &line, area.width.saturating_sub(1));
        }
    }
}
