//! Practice: play a ballot (or the start position) from both sides, with take-back, flip, square
//! numbers and the man-down check.

use super::practice_engine::PracticeEngine;
use super::practice_keep::{Kept, LEAVE_KEYS, LeaveAct, practice_pdn, render_leave};
use super::review::ReviewScreen;
use super::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::engine::{Bitboard, Color, Game, Move, Outcome, Position, Rules};
use crate::openings::{self, DrawSettings, Opening, System};
use crate::search::HuffChoice;
use crate::tui::Msg;
use crate::tui::analysis_pane::{self, AnalysisPane};
use crate::tui::keys::{BACKSPACE, Binding, Key, help, lookup};
use crate::tui::move_input::{InputOutcome, MoveInput};
use crate::tui::rules_text::{self, HuffAct};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{BoardView, GameScreenView, MoveListView, StatusKind};
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The ballot being practised, as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct BallotInfo {
    /// The system it was drawn from.
    pub system: System,
    /// "3-move restriction 12", "11-Man Ballot 1234".
    pub reference: String,
    /// Its name ("9-14 22-17 11-15", "Remove 11 and 28; 8-11 24-19").
    pub name: String,
    /// 11-man: the public position id.
    pub public_id: Option<u32>,
    /// The moves that set it up.
    pub set_moves: Vec<Move>,
    /// The side that loses a man at once (the man-down check), if any.
    pub loses_man: Option<Color>,
    /// Other openings of the system reaching the same position.
    pub transpositions: Vec<u32>,
    /// Men removed before the set moves (11-man), marked on the board until the first move.
    pub removed: Bitboard,
    /// The opening itself (its `Ballot` and `Opening` tags when the game is kept).
    pub opening: Box<Opening>,
}

impl BallotInfo {
    /// What practice shows of an opening.
    pub fn from_opening(o: &Opening) -> BallotInfo {
        let removed = if o.system == System::ElevenMan {
            Position::start().occupied() & !o.start.occupied()
        } else {
            0
        };
        BallotInfo {
            system: o.system,
            reference: o.reference(),
            name: o.name.clone(),
            public_id: o.public_id,
            set_moves: o.set_moves.clone(),
            loses_man: o.loses_man,
            transpositions: o.transpositions(),
            removed,
            opening: Box::new(o.clone()),
        }
    }
}

/// The practice screen.
#[derive(Clone, Debug)]
pub struct PracticeScreen {
    /// The game being played.
    pub game: Game,
    /// The ballot, if one was drawn.
    pub ballot: Option<BallotInfo>,
    /// The move being entered.
    pub input: MoveInput,
    /// Red at the bottom.
    pub flipped: bool,
    /// Square numbers shown.
    pub numbers: bool,
    /// The last message (a refusal, a take-back...).
    pub message: Option<(String, StatusKind)>,
    /// The built-in engine: opponent, hint, review marks.
    pub engine: PracticeEngine,
    /// The engine thinking aloud about the position on the board (`e`).
    pub analysis: AnalysisPane,
    /// What was last saved of the game.
    kept: Kept,
    /// Asking before leaving a game that is not saved.
    leaving: bool,
}

impl PracticeScreen {
    /// Practise from a position (the start, or a ballot's).
    pub fn new(start: Position, ballot: Option<BallotInfo>) -> PracticeScreen {
        PracticeScreen {
            input: MoveInput::new(&start),
            game: Game::new(start.rules(), start),
            ballot,
            flipped: false,
            numbers: false,
            message: None,
            engine: PracticeEngine::default(),
            analysis: AnalysisPane::default(),
            kept: Kept::default(),
            leaving: false,
        }
    }

    /// Practise an opening from its position after the set moves.
    pub fn from_opening(o: &Opening) -> PracticeScreen {
        PracticeScreen::new(o.position, Some(BallotInfo::from_opening(o)))
    }

    /// Practise from the standard start position.
    pub fn start_position() -> PracticeScreen {
        PracticeScreen::start_position_in(Rules::English)
    }

    /// Practise from the standard start position of the game `rules`.
    pub fn start_position_in(rules: Rules) -> PracticeScreen {
        PracticeScreen::new(Position::start_in(rules), None)
    }

    /// True when the game starts from a position set up by hand (not a ballot's, not the
    /// standard start).
    fn set_up(&self) -> bool {
        self.ballot.is_none() && *self.game.start() != Position::start_in(self.game.rules())
    }

    /// Keep the game: append it to the practice games file; the message says where.
    fn save(&mut self, ctx: &Ctx) {
        let date = ctx.matches.wall().format("%Y.%m.%d").to_string();
        let record = practice_pdn(
            &self.game,
            self.ballot.as_ref(),
            self.engine.opponent.as_ref(),
            self.engine.review.as_ref(),
            &date,
        );
        self.message = Some(
            match self.kept.save(&self.game, record, ctx.practice_file) {
                Ok(said) => (said, StatusKind::Info),
                Err(e) => (e, StatusKind::Error),
            },
        );
    }

    /// The answer to the question before leaving an unsaved game.
    fn leave_answer(&mut self, msg: &Msg, ctx: &Ctx) -> Nav {
        let Msg::Key(key) = msg else {
            return Nav::Stay;
        };
        match lookup(LEAVE_KEYS, key) {
            Some(LeaveAct::Save) => {
                self.leaving = false;
                self.save(ctx);
                if self.kept.unsaved(&self.game) {
                    return Nav::Stay; // not saved: the message says why
                }
                Nav::Home
            }
            Some(LeaveAct::Discard) => Nav::Home,
            Some(LeaveAct::Stay) => {
                self.leaving = false;
                Nav::Stay
            }
            None => Nav::Stay,
        }
    }

    /// Huffing: huff the piece whose square is typed in the move field, or the only one that
    /// may be huffed.
    fn huff(&mut self) {
        let chance = match self.game.huff_chance_or_why() {
            Ok(chance) => chance,
            Err(why) => {
                self.message = Some((why.to_string(), StatusKind::Error));
                return;
            }
        };
        let square = match rules_text::huff_square(&chance, &self.input.text) {
            Ok(sq) => sq,
            Err(ask) => {
                self.message = Some((ask, StatusKind::Error));
                return;
            }
        };
        self.message = Some(match self.game.huff(square) {
            Ok(()) => (
                format!("huffed the piece on {square}; now move"),
                StatusKind::Info,
            ),
            Err(e) => (e.to_string(), StatusKind::Error),
        });
        self.input.clear();
    }

    /// Huffing: have the neglectful move taken back; its player must capture.
    fn compel(&mut self) {
        let offence = self.game.huff_chance().map(|c| c.offence);
        self.message = Some(match self.game.compel() {
            Ok(()) => (
                format!(
                    "took back {}: {} must capture",
                    offence.map(|m| m.to_string()).unwrap_or_default(),
                    self.game.position().turn()
                ),
                StatusKind::Info,
            ),
            Err(e) => (e.to_string(), StatusKind::Error),
        });
        self.input.clear();
    }

    /// Huffing: apply the engine's choice about the capture the human neglected (a huff or a
    /// move let stand is told with the engine's move, [`PracticeScreen::engine_huff_note`]).
    fn engine_huffs(&mut self, choice: HuffChoice) {
        let Some(offence) = self.game.huff_chance().map(|c| c.offence) else {
            return;
        };
        if let Err(e) = choice.apply(&mut self.game) {
            self.message = Some((format!("the engine's huff failed: {e}"), StatusKind::Error));
            return;
        }
        self.input = MoveInput::new(self.game.position());
        if choice == HuffChoice::Compel {
            self.message = Some((
                format!("the engine took back your {offence}: you must capture"),
                StatusKind::Warn,
            ));
        }
    }

    /// Huffing, before the engine's move is played: what it did about the capture the human
    /// neglected (huffed a piece, or let the move stand), from the game itself.
    fn engine_huff_note(&self) -> Option<String> {
        if let Some(square) = self.game.pending().huffed {
            return Some(format!("the engine huffed your piece on {square}"));
        }
        let offence = self.game.huff_chance()?.offence;
        Some(format!("the engine let your {offence} stand"))
    }

    fn play(&mut self, mv: Move) {
        match self.game.play(&mv) {
            Ok(()) => {
                self.input.clear();
                self.message = None;
            }
            Err(e) => self.message = Some((e.to_string(), StatusKind::Error)),
        }
    }

    fn take_back(&mut self) {
        self.input.clear();
        let plies = self.engine.take_back_plies(&self.game);
        let mut taken: Vec<String> = (0..plies)
            .map_while(|_| self.game.take_back())
            .map(|mv| mv.to_string())
            .collect();
        taken.reverse();
        self.message = Some(if taken.is_empty() {
            ("nothing to take back".into(), StatusKind::Error)
        } else {
            (format!("took back {}", taken.join(" ")), StatusKind::Info)
        });
    }

    fn restart(&mut self) {
        let start = *self.game.start();
        self.game = Game::new(self.game.rules(), start);
        self.input = MoveInput::new(&start);
        self.engine.new_game();
        self.message = Some(("back to the ballot position".into(), StatusKind::Info));
    }

    /// Draw another opening of the same system (at random, seeded).
    fn redraw(&mut self, ctx: &mut Ctx) {
        let Some(system) = self.ballot.as_ref().map(|b| b.system) else {
            self.message = Some((
                "no ballot system: choose one from Practice on the home screen".into(),
                StatusKind::Error,
            ));
            return;
        };
        let settings = DrawSettings {
            system,
            rules: self.game.rules(),
            ..DrawSettings::default()
        };
        match openings::draw(&settings, &[], ctx.rng) {
            Ok(d) => {
                let (flipped, numbers) = (self.flipped, self.numbers);
                let engine = std::mem::take(&mut self.engine);
                let analysis = std::mem::take(&mut self.analysis);
                *self = PracticeScreen::from_opening(&d.opening);
                self.analysis = analysis;
                self.flipped = flipped;
                self.numbers = numbers;
                self.engine = engine;
                self.engine.new_game();
                self.message = Some((format!("drew {}", d.opening.reference()), StatusKind::Info));
            }
            Err(e) => self.message = Some((e.to_string(), StatusKind::Error)),
        }
    }

    /// What the status line says now.
    pub fn status(&self) -> (String, StatusKind) {
        if let Some(m) = &self.message {
            return m.clone();
        }
        if let Some(s) = self.engine.status(&self.game) {
            return s;
        }
        if let Some(Outcome::Win(c)) = self.game.result() {
            let why = if self.game.rules() == Rules::Losing {
                losing_win_text(c, self.game.position().count(c))
            } else {
                loser_text(c.opponent(), self.game.position().count(c.opponent()))
            };
            return (
                format!("{c} wins: {why}. u takes back, r restarts, q leaves"),
                StatusKind::Warn,
            );
        }
        let turn = self.game.position().turn();
        if let Some(claim) = self.game.claimable_draw() {
            return (
                format!(
                    "{turn} to move; a draw is claimable ({})",
                    rules_text::claim_reason(claim)
                ),
                StatusKind::Warn,
            );
        }
        if let Some(chance) = self.game.huff_chance() {
            return (rules_text::huff_offer(&chance), StatusKind::Warn);
        }
        let must = if self.game.position().must_capture() {
            " (capture compulsory)"
        } else {
            ""
        };
        (
            format!("{turn} to move{must}: type a move or pick a piece"),
            StatusKind::Info,
        )
    }

    /// Information lines of the side panel.
    fn info(&self, look: &crate::tui::theme::Appearance) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        match &self.ballot {
            Some(b) => {
                lines.push(Line::from(vec![
                    Span::styled("Opening ", look.dim()),
                    Span::raw(b.reference.clone()),
                ]));
                lines.push(Line::from(vec![
                    Span::styled("        ", look.dim()),
                    Span::raw(b.name.clone()),
                ]));
                if let Some(id) = b.public_id {
                    lines.push(Line::from(vec![
                        Span::styled("Id      ", look.dim()),
                        Span::raw(format!("public position {id}")),
                    ]));
                }
                if !b.transpositions.is_empty() {
                    let list: Vec<String> = b
                        .transpositions
                        .iter()
                        .take(6)
                        .map(|n| n.to_string())
                        .collect();
                    let more = if b.transpositions.len() > 6 {
                        " ..."
                    } else {
                        ""
                    };
                    lines.push(Line::from(vec![
                        Span::styled("Same as ", look.dim()),
                        Span::raw(format!("{}{more}", list.join(", "))),
                    ]));
                }
                match b.loses_man {
                    Some(side) => lines.push(Line::from(Span::styled(
                        format!("! man-down check: {side} loses a man"),
                        look.alert(),
                    ))),
                    None => lines.push(Line::from(Span::styled(
                        "man-down check: no man lost",
                        look.dim(),
                    ))),
                }
            }
            None => lines.push(Line::from(Span::styled(
                if self.set_up() {
                    "Set-up position (no ballot)"
                } else {
                    "Start position (no ballot)"
                },
                look.dim(),
            ))),
        }
        let pos = self.game.position();
        lines.push(Line::from(Span::styled(
            rules_text::in_force(self.game.rules()),
            look.accent(),
        )));
        if let Some(c) = self.game.thirteen_count() {
            lines.push(Line::from(Span::styled(
                rules_text::thirteen_count(&c),
                look.alert(),
            )));
        }
        lines.push(Line::from(Span::styled(
            format!(
                "Pieces Red {} · White {}",
                pos.count(Color::Red),
                pos.count(Color::White)
            ),
            look.dim(),
        )));
        lines.extend(self.engine.info(&self.game, look));
        lines
    }

    fn apply(&mut self, out: InputOutcome) {
        match out {
            InputOutcome::Play(_) if self.engine.engine_to_move(&self.game) => {
                self.input.clear();
                self.message = Some((
                    "the engine is thinking; u takes back your move".into(),
                    StatusKind::Error,
                ));
            }
            InputOutcome::Play(mv) => self.play(mv),
            InputOutcome::Refused(why) => self.message = Some((why, StatusKind::Error)),
            InputOutcome::Changed => self.message = None,
            InputOutcome::Ignored => {}
        }
    }
}

impl ScreenState for PracticeScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        if self.leaving {
            return vec![crate::tui::keys::erase(LEAVE_KEYS)];
        }
        let mut chain = vec![
            self.input.chain(),
            crate::tui::keys::erase(KEYS),
            analysis_pane::erased_keys(),
        ];
        if self.game.rules() == Rules::Huffing {
            chain.push(crate::tui::keys::erase(rules_text::HUFF_KEYS));
        }
        chain
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let nav = match msg {
            Msg::Key(key) if !self.leaving && self.analysis.key(key, &ctx.matches.engines) => {
                Nav::Stay
            }
            _ => self.handle(msg, ctx),
        };
        match &nav {
            Nav::Stay => self.analysis.follow(self.game.positions()),
            // Out of sight (under the review, say): stopped, and started again on return.
            _ => self.analysis.stop(),
        }
        nav
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        self.draw(frame, area, ctx);
    }

    fn title(&self) -> String {
        "Practice".into()
    }

    fn ticking(&self) -> bool {
        self.engine.busy(&self.game) || self.analysis.busy()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.leaving {
            return help(LEAVE_KEYS);
        }
        let mut lines = self.input.help();
        lines.extend(help(KEYS));
        lines.extend(analysis_pane::help_lines());
        if self.game.rules() == Rules::Huffing {
            lines.extend(help(rules_text::HUFF_KEYS));
        }
        lines.extend(rules_text::help(self.game.rules()));
        lines
    }
}

impl PracticeScreen {
    /// A message: the engine's reports first, then a key or a click.
    fn handle(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        // Huffing: the engine punishes a neglected capture (or not) before it moves.
        if let Some(choice) = self.engine.huff_choice(&self.game) {
            self.engine_huffs(choice);
        }
        // The engine's reports first: its move, a hint, review progress.
        if let Some(mv) = self.engine.poll(&self.game, ctx.rng) {
            let note = self.engine_huff_note();
            self.play(mv);
            if let Some(note) = note {
                self.message = Some((format!("{note}, then played {mv}"), StatusKind::Info));
            }
        }
        if self.leaving {
            return self.leave_answer(msg, ctx);
        }
        match msg {
            Msg::Key(_) | Msg::Mouse(_) => {
                let pos = *self.game.position();
                let out = self.input.update(&pos, msg, ctx.area, self.flipped);
                if out != InputOutcome::Ignored {
                    self.apply(out);
                    return Nav::Stay;
                }
                let Msg::Key(key) = msg else {
                    return Nav::Stay;
                };
                if self.game.rules() == Rules::Huffing {
                    match lookup(rules_text::HUFF_KEYS, key) {
                        Some(HuffAct::Huff) => {
                            self.huff();
                            return Nav::Stay;
                        }
                        Some(HuffAct::Compel) => {
                            self.compel();
                            return Nav::Stay;
                        }
                        None => {}
                    }
                }
                match lookup(KEYS, key) {
                    Some(Act::View) if key.code == KeyCode::Char('n') => {
                        self.numbers = !self.numbers;
                    }
                    Some(Act::View) => self.flipped = !self.flipped,
                    Some(Act::TakeBack) => self.take_back(),
                    Some(Act::Again) if key.code == KeyCode::Char('d') => self.redraw(ctx),
                    Some(Act::Again) => self.restart(),
                    Some(Act::Hint) if key.code == KeyCode::Char('T') => {
                        let said = self.engine.next_hinter(&ctx.matches.engines);
                        self.message = Some((said, StatusKind::Info));
                    }
                    Some(Act::Hint) => {
                        if let Err(e) = self.engine.request_hint(&self.game) {
                            self.message = Some((e, StatusKind::Error));
                        } else {
                            self.message = None;
                        }
                    }
                    Some(Act::Analyse) => {
                        if let Err(e) = self.engine.request_review(&self.game) {
                            self.message = Some((e, StatusKind::Error));
                        } else {
                            self.message = None;
                        }
                    }
                    Some(Act::Review) => {
                        let mut review = ReviewScreen::new(
                            self.game.clone(),
                            "Review of the practice game".into(),
                        );
                        // A finished analysis of this game comes along; the review's own
                        // engine analyses it again only when asked.
                        review.engine.settings = self.engine.settings;
                        review.engine.review = self.engine.review.clone();
                        // The board as the player turned it, and the graph from their side.
                        review.flipped = self.flipped;
                        review.analysis = self.analysis.clone();
                        return Nav::Push(Box::new(Screen::Review(review)));
                    }
                    Some(Act::Save) => self.save(ctx),
                    Some(Act::Crossboard) => {
                        self.message = Some(match self.engine.play_on_with_crossboard() {
                            Ok(said) => (said, StatusKind::Info),
                            Err(why) => (why, StatusKind::Error),
                        });
                    }
                    Some(Act::Leave) if self.kept.unsaved(&self.game) => self.leaving = true,
                    Some(Act::Leave) => return Nav::Home,
                    None => {}
                }
                Nav::Stay
            }
            _ => Nav::Stay,
        }
    }

    /// The game screen, with the analysis pane at the bottom of the side panel when shown.
    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let pos = self.game.position();
        let over = self.game.result().is_some();
        let last_move = self
            .game
            .moves()
            .last()
            .or_else(|| self.ballot.as_ref().and_then(|b| b.set_moves.last()))
            .copied();
        let view = GameScreenView {
            title: match &self.ballot {
                Some(b) => format!("Practice · {} · {}", b.reference, b.name),
                None if self.set_up() => "Practice · set-up position".into(),
                None => "Practice · start position".into(),
            },
            board: self.engine.show_hint(
                &self.game,
                BoardView {
                    marked: match (&self.ballot, self.game.moves().is_empty()) {
                        (Some(b), true) => b.removed,
                        _ => 0,
                    },
                    ..self.input.board(pos, self.flipped, self.numbers, last_move)
                },
            ),
            players: [String::new(), String::new()],
            clocks: None,
            info: self.info(look),
            moves: MoveListView::plain(
                self.game.start().turn(),
                self.game.moves().iter().enumerate().map(|(i, m)| {
                    match self.engine.mark(&self.game, i) {
                        Some(mark) => format!("{m}{}", mark.symbol()),
                        None => m.to_string(),
                    }
                }),
            ),
            input: (!over).then_some(&self.input),
            candidates: self.input.candidates(pos),
            status: self.status(),
            hint: "? help ".into(),
            reserved: self.analysis.height(),
        };
        view.render(frame, area, look);
        let side = crate::tui::widgets::GameLayout::new(area).side;
        self.analysis
            .render_at_bottom(side, frame.buffer_mut(), look);
        if self.leaving {
            render_leave(frame, self.game.moves().len(), look);
        }
    }
}

/// What the keys of the practice screen do (besides the move field's, [`MoveInput::chain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Take back a move.
    TakeBack,
    /// Flip the board (`f`) or show the square numbers (`n`): one help row.
    View,
    /// Back to the ballot position (`r`), or another opening of the system (`d`): one help row.
    Again,
    /// Review the game.
    Review,
    /// The engine's hint (`t`), or which engine gives it (`T`): one help row.
    Hint,
    /// Analyse the game.
    Analyse,
    /// Keep the game: append it to the practice games file.
    Save,
    /// crossboard's engine plays on after a Hub engine was stopped.
    Crossboard,
    /// Back to the home screen (asking first when the game is not saved).
    Leave,
}

/// The keys of the practice screen.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[Key::Char('u'), BACKSPACE],
        Act::TakeBack,
        "take back a move (Backspace: when nothing is typed)",
    )
    .footer("take back"),
    Binding::new(
        &[Key::Char('f'), Key::Char('n')],
        Act::View,
        "flip the board (f), show or hide square numbers (n)",
    )
    .footer("flip"),
    Binding::new(
        &[Key::Char('r'), Key::Char('d')],
        Act::Again,
        "restart the opening (r), draw another of its system (d)",
    ),
    Binding::new(
        &[Key::Char('v')],
        Act::Review,
        "review this game move by move",
    ),
    Binding::new(
        &[Key::Char('t'), Key::Char('T')],
        Act::Hint,
        "hint: the engine's move and score (T: which engine)",
    ),
    Binding::new(
        &[Key::Char('a')],
        Act::Analyse,
        "analyse the game: mark ?! ? ?? where it swung",
    ),
    Binding::new(
        &[Key::Char('w')],
        Act::Save,
        "keep the game in practice-games.pdn",
    ),
    Binding::new(
        &[Key::Char('o')],
        Act::Crossboard,
        "a Hub engine stopped: crossboard's engine plays on",
    ),
    Binding::new(
        &[Key::Char('q')],
        Act::Leave,
        "leave (asks if the game is not kept)",
    ),
];

/// Why `winner` won the losing game: no pieces left (as the match screen says) or no move.
fn losing_win_text(winner: Color, pieces: u32) -> String {
    if pieces == 0 {
        format!("{winner} has no pieces left, and in the losing game that wins")
    } else {
        format!("{winner} has no move left, and in the losing game that wins")
    }
}

/// Why `loser` lost: all its pieces taken, or none of them can move.
fn loser_text(loser: Color, pieces: u32) -> String {
    if pieces == 0 {
        format!("{loser} has no pieces left")
    } else {
        format!("{loser} cannot move")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_losing_game_won_off_the_board_says_no_pieces_left() {
        let t = super::losing_win_text(crate::engine::Color::Red, 0);
        assert!(t.contains("Red has no pieces left"), "{t}");
        let t = super::losing_win_text(crate::engine::Color::White, 3);
        assert!(t.contains("White has no move left"), "{t}");
    }
}
