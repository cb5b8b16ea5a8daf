//! Entering a move: typed notation with the candidates narrowing as you type, a keyboard cursor
//! (arrows/hjkl, Enter/Space), and mouse clicks (piece, then destination).
//!
//! [`MoveInput`] never changes a position: it returns [`InputOutcome::Play`] with a legal move and
//! the owner plays it (practice: on its `Game`; a match: through the director, which charges the
//! clock). Refused input comes back as [`InputOutcome::Refused`] with the reason.

use crate::engine::{Bitboard, Color, Move, MoveError, Position, Square, parse_move};
use crate::tui::Msg;
use crate::tui::keys::{
    BACKSPACE, Binding, DOWN, ENTER, ESC, Erased, Key, LEFT, RIGHT, SPACE, TAB, UP, erase, help,
    lookup,
};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{BoardView, GameLayout};
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEventKind};
use ratatui::layout::Rect;

/// What an input step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputOutcome {
    /// The key was not for the move input; the screen may use it.
    Ignored,
    /// The input state changed (redraw).
    Changed,
    /// A legal move was chosen: play it.
    Play(Move),
    /// Refused, with the reason to show; nothing else changed.
    Refused(String),
}

/// What the keys of the move field do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MoveAct {
    /// A character of a move in notation.
    Type,
    /// Enter: play the typed move, or pick the piece (then its destination) at the cursor;
    /// Space: the same, or a separator while typing.
    Pick,
    /// Delete the last character typed.
    Delete,
    /// Clear the typed move or the selection.
    Clear,
    /// Move the cursor.
    Cursor,
}

/// The keys of the move field (shared by practice and the match game).
pub(super) static MOVE_KEYS: &[Binding<MoveAct>] = &[
    Binding::new(
        &[Key::Digit, Key::Char('-'), Key::Char('x'), Key::Char('X')],
        MoveAct::Type,
        "type a move: 11-15, 15x24x31, or short 15x31",
    ),
    Binding::new(
        &[ENTER, SPACE],
        MoveAct::Pick,
        "play the typed move, or pick a piece, then its square",
    ),
    Binding::new(
        &[BACKSPACE],
        MoveAct::Delete,
        "delete the last character typed",
    ),
    Binding::new(
        &[Key::Ctrl('u'), ESC],
        MoveAct::Clear,
        "clear the typed move or the selection",
    ),
    Binding::new(
        &[
            UP,
            DOWN,
            LEFT,
            RIGHT,
            Key::Char('k'),
            Key::Char('j'),
            Key::Char('h'),
            Key::Char('l'),
        ],
        MoveAct::Cursor,
        "move the cursor on the board, or click with the mouse",
    ),
];

/// What the keys do while the field asks which of two captures is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChoiceAct {
    /// The capture above.
    Up,
    /// The capture below.
    Down,
    /// Play the highlighted capture.
    Pick,
    /// Play the capture with that number.
    Number,
    /// Do not choose.
    Cancel,
}

/// The keys of the "which capture?" question.
pub(super) static CHOICE_KEYS: &[Binding<ChoiceAct>] = &[
    Binding::new(&[UP, Key::Char('k')], ChoiceAct::Up, "the capture above"),
    Binding::new(
        &[DOWN, Key::Char('j'), TAB],
        ChoiceAct::Down,
        "the capture below",
    ),
    Binding::new(
        &[ENTER, SPACE],
        ChoiceAct::Pick,
        "play the highlighted capture",
    ),
    Binding::new(
        &[Key::Digit],
        ChoiceAct::Number,
        "play the capture with that number",
    ),
    Binding::new(&[ESC], ChoiceAct::Cancel, "choose neither"),
];

/// The move being entered on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInput {
    /// Typed text.
    pub text: String,
    /// Keyboard cursor (always on a playing square).
    pub cursor: Square,
    /// Selected piece, once chosen.
    pub selected: Option<Square>,
    /// Moves to choose between (two capture paths ending on the same square), if asked.
    pub choice: Option<Vec<Move>>,
    /// Highlighted entry of `choice`.
    pub choice_index: usize,
}

impl MoveInput {
    /// Fresh input with the cursor on a piece of the side to move that can move.
    #[allow(clippy::expect_used, reason = "the board has 32 squares")]
    pub fn new(pos: &Position) -> MoveInput {
        let cursor = pos
            .legal_moves()
            .first()
            .map(|m| m.from())
            .or_else(|| Square::new(if pos.turn() == Color::Red { 9 } else { 22 }))
            .unwrap_or_else(|| Square::all().next().expect("32 squares"));
        MoveInput {
            text: String::new(),
            cursor,
            selected: None,
            choice: None,
            choice_index: 0,
        }
    }

    /// Forget the typed text, selection and pending choice (after a move or take-back); the
    /// cursor stays.
    pub fn clear(&mut self) {
        self.text.clear();
        self.selected = None;
        self.choice = None;
        self.choice_index = 0;
    }

    /// The keys of the field now, as [`MoveInput::key`] looks them up: the question's
    /// ([`CHOICE_KEYS`]) while it asks which capture, else [`MOVE_KEYS`].
    pub fn chain(&self) -> Erased {
        if self.choice.is_some() {
            erase(CHOICE_KEYS)
        } else {
            erase(MOVE_KEYS)
        }
    }

    /// The help of the field now: the keys of [`MoveInput::chain`] (the cursor's line names the mouse).
    pub fn help(&self) -> Vec<KeyHelp> {
        if self.choice.is_some() {
            help(CHOICE_KEYS)
        } else {
            help(MOVE_KEYS)
        }
    }

    /// Legal moves that still fit the typed text (all legal moves when nothing is typed).
    pub fn candidates(&self, pos: &Position) -> Vec<Move> {
        narrow(pos, &self.text)
    }

    /// Squares to mark as destinations: of the selected piece, or of the typed candidates.
    pub fn targets(&self, pos: &Position) -> Bitboard {
        if let Some(choice) = &self.choice {
            return choice.iter().fold(0, |b, m| b | m.to().bit());
        }
        if let Some(sel) = self.selected {
            return pos
                .legal_moves()
                .iter()
                .filter(|m| m.from() == sel)
                .fold(0, |b, m| b | m.to().bit());
        }
        if !self.text.trim().is_empty() {
            let c = self.candidates(pos);
            let from = c.first().map(|m| m.from());
            if !c.is_empty() && c.iter().all(|m| Some(m.from()) == from) {
                return c.iter().fold(0, |b, m| b | m.to().bit());
            }
        }
        0
    }

    /// The piece to show as selected: chosen, or the single origin of the typed candidates.
    pub fn shown_selection(&self, pos: &Position) -> Option<Square> {
        if self.selected.is_some() {
            return self.selected;
        }
        if self.text.trim().is_empty() {
            return None;
        }
        let c = self.candidates(pos);
        let from = c.first()?.from();
        c.iter().all(|m| m.from() == from).then_some(from)
    }

    /// Handle a key (see [`MOVE_KEYS`] and, while asking which capture, [`CHOICE_KEYS`]).
    /// `flipped` tells which way the arrows move on the board.
    pub fn key(&mut self, pos: &Position, key: &KeyEvent, flipped: bool) -> InputOutcome {
        if let Some(choice) = &self.choice {
            let n = choice.len();
            return match lookup(CHOICE_KEYS, key) {
                Some(ChoiceAct::Up) => {
                    self.choice_index = (self.choice_index + n - 1) % n;
                    InputOutcome::Changed
                }
                Some(ChoiceAct::Down) => {
                    self.choice_index = (self.choice_index + 1) % n;
                    InputOutcome::Changed
                }
                Some(ChoiceAct::Pick) => {
                    let mv = choice[self.choice_index];
                    self.clear();
                    InputOutcome::Play(mv)
                }
                Some(ChoiceAct::Number) => {
                    let i = match key.code {
                        KeyCode::Char(c @ '1'..='9') => c as usize - '1' as usize,
                        _ => n,
                    };
                    match choice.get(i).copied() {
                        Some(mv) => {
                            self.clear();
                            InputOutcome::Play(mv)
                        }
                        None => InputOutcome::Refused(format!("choose 1 to {n}")),
                    }
                }
                Some(ChoiceAct::Cancel) => {
                    self.choice = None;
                    InputOutcome::Changed
                }
                None => InputOutcome::Ignored,
            };
        }
        let typed = !self.text.is_empty();
        match lookup(MOVE_KEYS, key) {
            Some(MoveAct::Type) => {
                if let KeyCode::Char(c) = key.code {
                    self.selected = None;
                    self.text.push(c.to_ascii_lowercase());
                }
                InputOutcome::Changed
            }
            Some(MoveAct::Pick) if typed && key.code == KeyCode::Char(' ') => {
                if !self.text.ends_with(' ') {
                    self.text.push(' ');
                }
                InputOutcome::Changed
            }
            Some(MoveAct::Pick) if typed && !self.text.trim().is_empty() => self.submit(pos),
            Some(MoveAct::Pick) => self.select(pos, self.cursor),
            Some(MoveAct::Delete) if typed => {
                self.text.pop();
                InputOutcome::Changed
            }
            Some(MoveAct::Clear) if typed || self.selected.is_some() => {
                self.clear();
                InputOutcome::Changed
            }
            Some(MoveAct::Cursor) => match key.code {
                KeyCode::Up | KeyCode::Char('k') => self.step(0, flipped),
                KeyCode::Down | KeyCode::Char('j') => self.step(1, flipped),
                KeyCode::Left | KeyCode::Char('h') => self.step(2, flipped),
                _ => self.step(3, flipped),
            },
            _ => InputOutcome::Ignored,
        }
    }

    /// Handle a message of a game screen laid out by [`GameLayout`] in `area`: keys, and left
    /// clicks on the board. Anything else is [`InputOutcome::Ignored`].
    pub fn update(&mut self, pos: &Position, msg: &Msg, area: Rect, flipped: bool) -> InputOutcome {
        match msg {
            Msg::Key(key) => self.key(pos, key, flipped),
            Msg::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                let sq = GameLayout::new(area)
                    .board_geometry(flipped)
                    .and_then(|g| g.square_at(m.column, m.row));
                match sq {
                    Some(sq) => self.click(pos, sq),
                    None => InputOutcome::Ignored,
                }
            }
            _ => InputOutcome::Ignored,
        }
    }

    /// The board as this input shows it: cursor, selection (or the typed candidates' origin),
    /// destinations.
    pub fn board<'a>(
        &self,
        pos: &'a Position,
        flipped: bool,
        numbers: bool,
        last_move: Option<Move>,
    ) -> BoardView<'a> {
        BoardView {
            position: pos,
            flipped,
            numbers,
            last_move,
            selected: self.shown_selection(pos),
            targets: self.targets(pos),
            cursor: Some(self.cursor),
            marked: 0,
        }
    }

    /// A click on a square (from the board's hit test).
    pub fn click(&mut self, pos: &Position, sq: Square) -> InputOutcome {
        self.choice = None;
        self.text.clear();
        self.cursor = sq;
        self.select(pos, sq)
    }

    /// Play the typed text: a legal move, or the engine's reason for refusing it. A refused
    /// text is cleared (it is quoted in the reason), so the next move starts afresh.
    fn submit(&mut self, pos: &Position) -> InputOutcome {
        match parse_move(pos, &self.text) {
            Ok(mv) => {
                self.clear();
                InputOutcome::Play(mv)
            }
            Err(e) => {
                let typed = self.text.trim().to_string();
                let fits = self.candidates(pos);
                self.clear();
                if let MoveError::Ambiguous { .. } = e
                    && fits.len() > 1
                {
                    self.choice = Some(fits);
                    self.choice_index = 0;
                }
                InputOutcome::Refused(format!("{typed} refused: {e}"))
            }
        }
    }

    /// Select a piece, or a destination of the selected piece.
    fn select(&mut self, pos: &Position, sq: Square) -> InputOutcome {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return InputOutcome::Refused(MoveError::GameOver.to_string());
        }
        if let Some(from) = self.selected {
            let mut fits: Vec<Move> = distinct(
                pos,
                legal.iter().filter(|m| m.from() == from && m.to() == sq),
            );
            if fits.is_empty() {
                // A square the piece jumps through on the way: the captures passing there.
                fits = distinct(
                    pos,
                    legal
                        .iter()
                        .filter(|m| m.from() == from && m.path().skip(1).any(|s| s == sq)),
                );
            }
            match fits.len() {
                0 if sq == from => {
                    self.selected = None;
                    return InputOutcome::Changed;
                }
                0 => {}
                1 => {
                    self.clear();
                    return InputOutcome::Play(fits[0]);
                }
                _ => {
                    self.choice = Some(fits);
                    self.choice_index = 0;
                    return InputOutcome::Changed;
                }
            }
        }
        match pos.piece_at(sq) {
            Some(p) if p.color == pos.turn() => {
                if legal.iter().any(|m| m.from() == sq) {
                    self.selected = Some(sq);
                    InputOutcome::Changed
                } else if legal[0].is_capture() {
                    InputOutcome::Refused(format!(
                        "a capture is compulsory: {}",
                        legal
                            .iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                } else {
                    InputOutcome::Refused(format!("the piece on {sq} cannot move"))
                }
            }
            Some(p) => InputOutcome::Refused(format!(
                "the piece on {sq} is {}'s; {} is to move",
                p.color,
                pos.turn()
            )),
            None => match self.selected {
                Some(from) => {
                    InputOutcome::Refused(format!("the piece on {from} cannot go to {sq}"))
                }
                None => InputOutcome::Refused(format!("there is no piece on {sq}")),
            },
        }
    }

    /// Move the cursor one step: 0 up, 1 down, 2 left, 3 right, as seen on screen.
    fn step(&mut self, dir: u8, flipped: bool) -> InputOutcome {
        self.cursor = step_cursor(self.cursor, dir, flipped);
        InputOutcome::Changed
    }
}

/// The playing square one step from `cursor`: 0 up, 1 down, 2 left, 3 right, as seen on
/// screen (`flipped`: Red at the bottom); the same square at the board's edge.
pub(crate) fn step_cursor(cursor: Square, dir: u8, flipped: bool) -> Square {
    let (mut r, mut c) = (cursor.row() as i8, cursor.col() as i8);
    if flipped {
        (r, c) = (7 - r, 7 - c);
    }
    let target = match dir {
        0 | 1 => {
            let nr = if dir == 0 { r - 1 } else { r + 1 };
            [c - 1, c + 1]
                .into_iter()
                .find(|&nc| (0..8).contains(&nr) && (0..8).contains(&nc))
                .map(|nc| (nr, nc))
        }
        _ => {
            let nc = if dir == 2 { c - 2 } else { c + 2 };
            (0..8).contains(&nc).then_some((r, nc))
        }
    };
    let Some((mut nr, mut nc)) = target else {
        return cursor;
    };
    if flipped {
        (nr, nc) = (7 - nr, 7 - nc);
    }
    Square::at(nr as u8, nc as u8).unwrap_or(cursor)
}

/// Keep one move per resulting position (what a person picks from).
fn distinct<'a>(pos: &Position, moves: impl Iterator<Item = &'a Move>) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    let mut seen: Vec<Position> = Vec::new();
    for m in moves {
        let after = pos.after(m);
        if !seen.contains(&after) {
            seen.push(after);
            out.push(*m);
        }
    }
    out
}

/// Legal moves whose notation can still become `text`: the first typed square is the start, later
/// complete squares appear on the path in order, and a square being typed is a prefix of one.
pub(super) fn narrow(pos: &Position, text: &str) -> Vec<Move> {
    let legal = pos.legal_moves();
    let t = text.trim_start();
    let tokens: Vec<&str> = t
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .collect();
    if tokens.is_empty() {
        return legal;
    }
    let typing = t.ends_with(|c: char| c.is_ascii_digit());
    let (complete, partial) = if typing {
        (&tokens[..tokens.len() - 1], Some(tokens[tokens.len() - 1]))
    } else {
        (&tokens[..], None)
    };
    legal
        .into_iter()
        .filter(|m| {
            let path: Vec<u8> = m.path().map(|s| s.number()).collect();
            let mut idx = 0;
            for (i, tok) in complete.iter().enumerate() {
                let Ok(n) = tok.parse::<u8>() else {
                    return false;
                };
                if i == 0 {
                    if path[0] != n {
                        return false;
                    }
                    idx = 1;
                } else {
                    match path[idx..].iter().position(|&p| p == n) {
                        Some(j) => idx += j + 1,
                        None => return false,
                    }
                }
            }
            match partial {
                None => true,
                Some(p) if complete.is_empty() => path[0].to_string().starts_with(p),
                Some(p) => path[idx..].iter().any(|n| n.to_string().starts_with(p)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEvent;
    use ratatui::crossterm::event::KeyModifiers;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    fn typed(input: &mut MoveInput, pos: &Position, s: &str) -> InputOutcome {
        let mut last = InputOutcome::Ignored;
        for c in s.chars() {
            last = input.key(pos, &key(KeyCode::Char(c)), false);
        }
        last
    }

    #[test]
    fn the_key_tables_are_consistent() {
        crate::tui::keys::check_table(MOVE_KEYS).unwrap();
        crate::tui::keys::check_table(CHOICE_KEYS).unwrap();
    }

    #[test]
    fn candidates_narrow_as_you_type() {
        let pos = Position::start();
        assert_eq!(narrow(&pos, "").len(), 7);
        let n1: Vec<String> = narrow(&pos, "1").iter().map(|m| m.to_string()).collect();
        assert_eq!(n1, ["10-14", "10-15", "11-15", "11-16", "12-16"]);
        assert_eq!(narrow(&pos, "11").len(), 2);
        assert_eq!(narrow(&pos, "11-1").len(), 2);
        assert_eq!(narrow(&pos, "11-15").len(), 1);
        assert!(narrow(&pos, "11-14").is_empty());
    }

    #[test]
    fn typed_move_plays_on_enter_and_illegal_says_why() {
        let pos = Position::start();
        let mut input = MoveInput::new(&pos);
        assert_eq!(typed(&mut input, &pos, "11-15"), InputOutcome::Changed);
        match input.key(&pos, &key(KeyCode::Enter), false) {
            InputOutcome::Play(m) => assert_eq!(m.to_string(), "11-15"),
            other => panic!("{other:?}"),
        }
        assert!(input.text.is_empty());
        typed(&mut input, &pos, "11-16x");
        typed(&mut input, &pos, "");
        input.text = "22-18".into();
        match input.key(&pos, &key(KeyCode::Enter), false) {
            InputOutcome::Refused(why) => {
                assert!(why.starts_with("22-18 refused: "), "{why}");
                assert!(why.contains("Red"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        assert!(input.text.is_empty(), "a refused move is cleared");
        typed(&mut input, &pos, "11-1");
        assert_eq!(
            input.key(
                &pos,
                &KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
                false
            ),
            InputOutcome::Changed
        );
        assert!(input.text.is_empty(), "Ctrl-U clears the field");
        typed(&mut input, &pos, "9");
        assert_eq!(
            input.key(&pos, &key(KeyCode::Esc), false),
            InputOutcome::Changed
        );
        assert!(input.text.is_empty(), "Esc clears the field");
    }

    #[test]
    fn piece_then_destination_plays_when_one_move_fits() {
        let pos = Position::start();
        let mut input = MoveInput::new(&pos);
        let s = |n| Square::new(n).unwrap();
        assert_eq!(input.click(&pos, s(11)), InputOutcome::Changed);
        assert_eq!(input.targets(&pos), s(15).bit() | s(16).bit());
        match input.click(&pos, s(16)) {
            InputOutcome::Play(m) => assert_eq!(m.to_string(), "11-16"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(input.click(&pos, s(22)), InputOutcome::Refused(_)));
        assert!(matches!(input.click(&pos, s(1)), InputOutcome::Refused(_)));
    }

    #[test]
    fn two_capture_paths_to_one_square_ask_which() {
        // 12x19x28 and 12x3x10x19x28 both end on 28.
        let pos = Position::from_fen("B:W7,8,15,16,24:BK12").unwrap();
        let s = |n| Square::new(n).unwrap();
        let mut input = MoveInput::new(&pos);
        input.click(&pos, s(12));
        assert_eq!(input.click(&pos, s(28)), InputOutcome::Changed);
        let choice = input.choice.clone().expect("asked which");
        assert_eq!(choice.len(), 2);
        input.key(&pos, &key(KeyCode::Down), false);
        assert_eq!(
            input.key(&pos, &key(KeyCode::Enter), false),
            InputOutcome::Play(choice[1])
        );
        assert!(input.choice.is_none());
    }

    #[test]
    fn a_square_jumped_through_picks_the_captures_passing_there() {
        // Legal: 12x3x10x19x12, 12x3x10x19x28, 12x19x10x3x12 (same result as the first),
        // 12x19x28.
        let pos = Position::from_fen("B:W7,8,15,16,24:BK12").unwrap();
        let s = |n| Square::new(n).unwrap();
        let mut input = MoveInput::new(&pos);
        input.click(&pos, s(12));
        assert_eq!(input.click(&pos, s(3)), InputOutcome::Changed);
        let choice: Vec<String> = input
            .choice
            .as_ref()
            .unwrap()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(choice, ["12x3x10x19x12", "12x3x10x19x28"]);
        // Back to its own square: the round trip, one result, played.
        input.clear();
        input.click(&pos, s(12));
        match input.click(&pos, s(12)) {
            InputOutcome::Play(m) => assert_eq!(m.to(), s(12)),
            other => panic!("{other:?}"),
        }
        // Without such a capture, clicking the selected piece again lets go of it.
        let start = Position::start();
        input.click(&start, s(11));
        assert_eq!(input.click(&start, s(11)), InputOutcome::Changed);
        assert_eq!(input.selected, None);
    }

    #[test]
    fn cursor_moves_on_playing_squares_both_ways_up() {
        let pos = Position::start();
        let mut input = MoveInput::new(&pos);
        input.cursor = Square::new(29).unwrap();
        input.key(&pos, &key(KeyCode::Up), false);
        assert_eq!(input.cursor.number(), 25);
        input.key(&pos, &key(KeyCode::Right), false);
        assert_eq!(input.cursor.number(), 26);
        input.key(&pos, &key(KeyCode::Up), true);
        // Flipped: screen-up is towards higher numbers.
        assert!(input.cursor.number() > 26);
    }
}
