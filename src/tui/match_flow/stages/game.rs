//! A game under clocks: the move field (typed, cursor or mouse), draw offers and claims,
//! resignation; and the one game screen of the match, shared by the game about to start
//! ([`super::pre_game`]) and the game just over ([`super::over`]).

use super::super::screen::Popup;
use super::super::session::{flag_text, move_list};
use super::{Step, View, header, names_in};
use crate::director::{Clock, Command, Event, GameRecord, Match, Phase, Player};
use crate::engine::{Color, DrawClaim, Position};
use crate::tui::keys::{Binding, ENTER, Key, help, lookup};
use crate::tui::move_input::{InputOutcome, MOVE_KEYS, MoveAct, MoveInput};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{ClockPanelView, GameScreenView, MoveListView, StatusKind};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The game stage: the move being entered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStage {
    /// The move field.
    pub input: MoveInput,
}

/// What the keys of a game do (besides the move field's, [`MOVE_KEYS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// The side to move offers a draw.
    Offer,
    /// The side offered a draw accepts it.
    AcceptDraw,
    /// The side offered a draw declines it.
    DeclineDraw,
    /// The side to move claims a draw the rules allow.
    Claim,
    /// A player resigns (asks who, then confirms).
    Resign,
}

/// What the key of a paused game does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PausedAct {
    /// Resume the clocks (asks first).
    Resume,
}

/// The keys of a game, besides the move field's.
pub static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[Key::Char('o')],
        Act::Offer,
        "the side to move offers a draw",
    )
    .footer("offer draw"),
    Binding::new(
        &[Key::Char('a')],
        Act::AcceptDraw,
        "accept the draw offered",
    ),
    Binding::new(
        &[Key::Char('d')],
        Act::DeclineDraw,
        "decline the draw offered",
    ),
    Binding::new(
        &[Key::Char('c')],
        Act::Claim,
        "claim a draw (third repetition, 40 moves)",
    ),
    Binding::new(
        &[Key::Char('r')],
        Act::Resign,
        "resign (asks who, then confirms)",
    )
    .footer("resign"),
];

/// While the clocks are paused (before the move field).
pub static PAUSED_KEYS: &[Binding<PausedAct>] = &[Binding::new(
    &[ENTER],
    PausedAct::Resume,
    "clocks paused: resume them (asks first)",
)];

impl GameStage {
    /// A fresh move field for the game being played.
    pub fn new(m: &Match) -> GameStage {
        let pos = m
            .playing()
            .map(|g| *g.game.position())
            .unwrap_or_else(Position::start);
        GameStage {
            input: MoveInput::new(&pos),
        }
    }

    /// After a move or a take-back: a fresh field, the cursor kept where it was if it is on a
    /// piece of the side to move.
    pub fn reset(&mut self, m: &Match) {
        let cursor = self.input.cursor;
        *self = GameStage::new(m);
        if let Some(g) = m.playing() {
            let pos = g.game.position();
            if pos.piece_at(cursor).is_some_and(|p| p.color == pos.turn()) {
                self.input.cursor = cursor;
            }
        }
    }

    /// The help lines: the move field's and the mouse (or, paused, the resume key), then
    /// the game's.
    pub fn help(&self, m: &Match) -> Vec<KeyHelp> {
        let mut lines = if paused(m) {
            help(PAUSED_KEYS)
        } else {
            let mut l = help(MOVE_KEYS);
            l.push(KeyHelp::new("mouse", "click a piece, then its destination"));
            l
        };
        lines.extend(help(KEYS));
        lines
    }

    /// The binding tables in the order keys are looked up (for the key-table test).
    pub fn chain(m: &Match) -> Vec<crate::tui::keys::Erased> {
        use crate::tui::keys::erase;
        if paused(m) {
            vec![erase(PAUSED_KEYS), erase(KEYS)]
        } else {
            vec![erase(MOVE_KEYS), erase(KEYS)]
        }
    }

    /// Handle a key (`flipped`: the arrows follow the board as shown); `None` when the key
    /// is not the game's (the screen's common keys then).
    pub fn key(&mut self, key: &KeyEvent, m: &Match, flipped: bool) -> Option<Step> {
        let g = m.playing()?;
        let pos = *g.game.position();
        let turn = pos.turn();
        if g.clock.is_paused() {
            if lookup(PAUSED_KEYS, key) == Some(PausedAct::Resume) {
                return Some(Step::Popup(Popup::confirm(
                    "Resume the clocks",
                    vec![format!("Start {turn}'s clock again?")],
                    super::super::screen::Pending::Director(
                        Command::ResumeClocks,
                        "Resume the clocks".into(),
                    ),
                )));
            }
            if lookup(MOVE_KEYS, key) == Some(MoveAct::Type) {
                return Some(Step::Message(
                    "the clocks are paused: no move until they run again (Enter resumes them)"
                        .into(),
                    StatusKind::Error,
                ));
            }
        } else {
            let out = self.input.key(&pos, key, flipped);
            if out != InputOutcome::Ignored {
                return Some(outcome(out, turn));
            }
        }
        let offer = m.draw_offer();
        Some(match lookup(KEYS, key)? {
            Act::Offer => Step::Command(Command::OfferDraw { colour: turn }),
            Act::AcceptDraw => match offer {
                Some(by) => Step::Command(Command::AcceptDraw {
                    colour: by.opponent(),
                }),
                None => Step::Message("no draw offer to accept".into(), StatusKind::Error),
            },
            Act::DeclineDraw => match offer {
                Some(by) => Step::Command(Command::DeclineDraw {
                    colour: by.opponent(),
                }),
                None => Step::Message("no draw offer to decline".into(), StatusKind::Error),
            },
            Act::Claim => Step::Command(Command::ClaimDraw { colour: turn }),
            Act::Resign => Step::Popup(Popup::ResignWho),
        })
    }

    /// A click on a square of the board.
    pub fn click(&mut self, sq: crate::engine::Square, m: &Match) -> Step {
        let Some(g) = m.playing() else {
            return Step::Stay;
        };
        let pos = *g.game.position();
        outcome(self.input.click(&pos, sq), pos.turn())
    }

    /// Draw the stage.
    pub fn render(&self, frame: &mut Frame, area: Rect, v: &View) {
        match v.m().playing() {
            Some(g) => render_game(frame, area, v, Shown::Playing(g, &self.input)),
            None => render_game(frame, area, v, Shown::Pre),
        }
    }
}

/// The game's clocks are paused (moves wait until they run again).
fn paused(m: &Match) -> bool {
    m.playing().is_some_and(|g| g.clock.is_paused())
}

/// What the move field's outcome asks.
fn outcome(out: InputOutcome, turn: Color) -> Step {
    match out {
        InputOutcome::Play(mv) => Step::Command(Command::PlayMove { colour: turn, mv }),
        InputOutcome::Refused(why) => Step::Message(why, StatusKind::Error),
        InputOutcome::Changed => Step::Clear,
        InputOutcome::Ignored => Step::Stay,
    }
}

/// Which game the game screen shows.
pub enum Shown<'a> {
    /// The game set up, its clock not started.
    Pre,
    /// The game being played, with the move field.
    Playing(&'a GameRecord, &'a MoveInput),
    /// The game that just ended.
    Over(&'a GameRecord),
}

/// The game screen of the match: board, clocks (from [`ClockPanelView::of_clock`]), ballot,
/// score, move list with clock readings, and the status line.
pub fn render_game(frame: &mut Frame, area: Rect, v: &View, shown: Shown) {
    let look = v.ctx.appearance;
    let m = v.m();
    let record = match shown {
        Shown::Playing(g, _) | Shown::Over(g) => Some(g),
        Shown::Pre => None,
    };
    let (ballot, game) = match (record, m.phase()) {
        (Some(g), _) => (g.ballot, g.number),
        (None, Phase::Ready { ballot, game } | Phase::Playing { ballot, game }) => (ballot, game),
        _ => (0, 0),
    };
    let opening = m.ballots().last().map(|b| b.opening.clone());
    let names = names_in(m, ballot, game);
    let (position, moves, clocks) = match record {
        Some(g) => (
            *g.game.position(),
            move_list(g),
            v.session.clock_view(v.now()),
        ),
        None => {
            let pos = opening
                .as_ref()
                .map(|o| o.position)
                .unwrap_or_else(Position::start);
            let clock = Clock::new(&m.settings().time_control, pos.turn());
            let clocks = ClockPanelView::of_clock(&clock, 0, [&names[0], &names[1]], None);
            (
                pos,
                MoveListView::plain(pos.turn(), Vec::<String>::new()),
                clocks,
            )
        }
    };
    let mut info: Vec<Line> = vec![Line::from(Span::styled(
        format!("Ballot {ballot} · game {game} of 2"),
        look.accent(),
    ))];
    if let Some(o) = &opening {
        let mut t = o.reference();
        if let Some(id) = o.public_id {
            t.push_str(&format!(" · id {id}"));
        }
        info.push(Line::from(Span::styled(t, look.dim())));
    }
    let score = m.score();
    let t = format!(
        "{} {} · {} {}",
        m.name(Player::First),
        score.total[0],
        m.name(Player::Second),
        score.total[1]
    );
    info.push(Line::from(vec![
        Span::styled("Score ", look.dim()),
        Span::raw(if look.ascii {
            crate::tui::theme::ascii_text(&t)
        } else {
            t
        }),
    ]));
    if clocks.is_none() {
        info.push(Line::from(Span::styled("No clock", look.dim())));
    }
    if let (Some(by), Shown::Playing(..)) = (m.draw_offer(), &shown) {
        info.push(Line::from(Span::styled(
            format!("{by} offers a draw"),
            look.accent(),
        )));
    }
    let status = match &shown {
        Shown::Over(g) => over_status(g),
        Shown::Pre => (
            // What Enter does first: long names may not leave room for it after them.
            format!(
                "Enter starts {}'s clock · ballot {ballot}, game {game}: {} (Red) v {} (White)",
                position.turn(),
                names[0],
                names[1],
            ),
            StatusKind::Info,
        ),
        Shown::Playing(g, _) => playing_status(m, g, v),
    };
    let last_move = record
        .and_then(|g| g.game.moves().last().copied())
        .or_else(|| opening.as_ref().and_then(|o| o.set_moves.last().copied()));
    let mut board = v.board(&position, last_move, 0);
    let mut candidates = Vec::new();
    let mut input = None;
    if let Shown::Playing(_, field) = shown {
        board.selected = field.shown_selection(&position);
        board.targets = field.targets(&position);
        board.cursor = Some(field.cursor);
        candidates = field.candidates(&position);
        input = Some(field);
    }
    GameScreenView {
        title: format!("Ballot {ballot}.{game} · {}", header(m)),
        board,
        players: names,
        clocks,
        info,
        moves,
        input,
        candidates,
        status: v.status(status),
        hint: "? help ".into(),
    }
    .render(frame, area, look);
}

/// "Game over: White wins on time: Red's flag fell. Enter: results and score".
pub fn over_status(g: &GameRecord) -> (String, StatusKind) {
    let r = g.result.as_ref().map(|r| r.to_string()).unwrap_or_default();
    (
        format!("Game over: {r}. Enter: results and score"),
        StatusKind::Warn,
    )
}

/// What the status line says while a game is played: a flag, a pause, a draw offer or
/// claim, a declined offer, or who is to move.
fn playing_status(m: &Match, g: &GameRecord, v: &View) -> (String, StatusKind) {
    let position = g.game.position();
    let turn = position.turn();
    let now_ms = v.session.now(v.now()).mono_ms;
    if let Some(f) = m.flag_due(now_ms) {
        return (
            format!(
                "FLAG: {} (decided at the next tick)",
                flag_text(f.kind, f.color)
            ),
            StatusKind::Error,
        );
    }
    if g.clock.is_paused() {
        return (
            "Clocks paused: Enter resumes them (asks first)".into(),
            StatusKind::Warn,
        );
    }
    if let Some(by) = m.draw_offer() {
        return (
            format!(
                "{by} offers a draw: {} accepts with a, declines with d (or plays on)",
                by.opponent()
            ),
            StatusKind::Warn,
        );
    }
    let who = super::colour_name(m, turn);
    let declined = match m.log().last().map(|e| &e.event) {
        Some(Event::DrawDeclined { colour, .. }) => format!("{colour} declined the draw. "),
        _ => String::new(),
    };
    if let Some(claim) = m.claimable_draw() {
        let why = match claim {
            DrawClaim::Repetition => "third repetition",
            DrawClaim::FortyMoves => "40 moves without a man move or capture",
            DrawClaim::ThirteenCount => "the 13-count ran out",
        };
        return (
            format!("{declined}{who} ({turn}) to move; a draw is claimable ({why}): c claims"),
            StatusKind::Warn,
        );
    }
    let must = if position.must_capture() {
        " (capture compulsory)"
    } else {
        ""
    };
    (
        format!("{declined}{who} ({turn}) to move{must}: type a move or pick a piece"),
        StatusKind::Info,
    )
}
