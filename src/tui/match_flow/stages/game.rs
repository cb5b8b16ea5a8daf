//! A game under clocks: the move field (typed, cursor or mouse), draw offers and claims,
//! resignation, the rules in force (a line on the panel, `i` shows them whole), pool's counts
//! (the 13-count while it runs, the strength rule's once asked, `s` to ask, `+` to extend) and
//! huffing's choices (`H`, `C`); and the one game screen of the match, shared by the game about
//! to start ([`super::pre_game`]) and the game just over ([`super::over`]).

use super::super::screen::Popup;
use super::super::session::{flag_text, move_list};
use super::{Step, View, header, names_in};
use crate::director::{Clock, Command, GameRecord, Match, MatchEvent, Phase, Player, StrengthRule};
use crate::engine::{Color, Position, Rules};
use crate::openings::Opening;
use crate::tui::keys::{Binding, ENTER, ESC, Erased, Key, erase, help, lookup};
use crate::tui::move_input::{InputOutcome, MOVE_KEYS, MoveAct, MoveInput};
use crate::tui::rules_text::{self, HUFF_KEYS, HuffAct};
use crate::tui::theme::Appearance;
use crate::tui::widgets::form::render_popup;
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
    /// The rules of the game are shown over the board (`i`).
    pub rules_shown: bool,
}

/// What the keys of a game do (besides the move field's, [`MOVE_KEYS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
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
    /// Show the rules of the game in force.
    Rules,
}

/// What the keys of a pool game add: the strength rule (27A, or 27's 30 + 8 form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PoolAct {
    /// The weaker side asks for the strength count.
    AskStrength,
    /// The director grants the 8 more moves of rule 27.
    ExtendStrength,
}

/// What the key of the rules shown does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RulesAct {
    /// Close them.
    Close,
}

/// What the key of a paused game does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PausedAct {
    /// Resume the clocks (asks first).
    Resume,
}

/// The keys of a game, besides the move field's.
pub(crate) static KEYS: &[Binding<Act>] = &[
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
        "claim a draw: repetition, 40 moves, pool's counts",
    ),
    Binding::new(
        &[Key::Char('r')],
        Act::Resign,
        "resign (asks who, then confirms)",
    )
    .footer("resign"),
    Binding::new(
        &[Key::Char('i')],
        Act::Rules,
        "the rules of this game, its counts and claims",
    ),
];

/// The keys of a pool game, besides [`KEYS`].
pub(crate) static POOL_KEYS: &[Binding<PoolAct>] = &[
    Binding::new(
        &[Key::Char('s')],
        PoolAct::AskStrength,
        "strength rule: the weaker side asks for the count",
    ),
    Binding::new(
        &[Key::Char('+')],
        PoolAct::ExtendStrength,
        "strength rule 27: the director grants 8 more moves",
    ),
];

/// While the rules are shown.
pub(crate) static RULES_KEYS: &[Binding<RulesAct>] = &[Binding::new(
    &[ESC, ENTER, Key::Char('i')],
    RulesAct::Close,
    "close the rules",
)];

/// While the clocks are paused (before the move field).
pub(crate) static PAUSED_KEYS: &[Binding<PausedAct>] = &[Binding::new(
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
            rules_shown: false,
        }
    }

    /// After a move or a take-back: a fresh field, the cursor kept where it was if it is on a
    /// piece of the side to move.
    pub fn reset(&mut self, m: &Match) {
        let (cursor, rules_shown) = (self.input.cursor, self.rules_shown);
        *self = GameStage::new(m);
        self.rules_shown = rules_shown;
        if let Some(g) = m.playing() {
            let pos = g.game.position();
            if pos.piece_at(cursor).is_some_and(|p| p.color == pos.turn()) {
                self.input.cursor = cursor;
            }
        }
    }

    /// The help lines: the move field's now (its "which capture?" question's while it asks)
    /// and the mouse (or, paused, the resume key), then
    /// the game's and its variant's; while the rules are shown, the key that closes them.
    pub fn help(&self, m: &Match) -> Vec<KeyHelp> {
        if self.rules_shown {
            return help(RULES_KEYS);
        }
        let mut lines = if paused(m) {
            help(PAUSED_KEYS)
        } else {
            self.input.help()
        };
        lines.extend(help(KEYS));
        match m.settings().game {
            Rules::Pool => lines.extend(help(POOL_KEYS)),
            Rules::Huffing => lines.extend(help(HUFF_KEYS)),
            Rules::English | Rules::Losing => {}
        }
        lines
    }

    /// The binding tables in the order keys are looked up (for the key-table test).
    pub fn chain(&self, m: &Match) -> Vec<Erased> {
        if self.rules_shown {
            return vec![erase(RULES_KEYS)];
        }
        let mut chain = if paused(m) {
            vec![erase(PAUSED_KEYS), erase(KEYS)]
        } else {
            vec![self.input.chain(), erase(KEYS)]
        };
        match m.settings().game {
            Rules::Pool => chain.push(erase(POOL_KEYS)),
            Rules::Huffing => chain.push(erase(HUFF_KEYS)),
            Rules::English | Rules::Losing => {}
        }
        chain
    }

    /// Handle a key (`flipped`: the arrows follow the board as shown); `None` when the key
    /// is not the game's (the screen's common keys then).
    pub fn key(&mut self, key: &KeyEvent, m: &Match, flipped: bool) -> Option<Step> {
        if self.rules_shown {
            lookup(RULES_KEYS, key)?;
            self.rules_shown = false;
            return Some(Step::Clear);
        }
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
        if let Some(act) = lookup(KEYS, key) {
            return Some(self.game_key(act, m, turn));
        }
        match m.settings().game {
            Rules::Pool => lookup(POOL_KEYS, key).map(|act| pool_key(act, &pos)),
            Rules::Huffing => lookup(HUFF_KEYS, key).map(|act| self.huff_key(act, g, turn)),
            Rules::English | Rules::Losing => None,
        }
    }

    /// A key of [`KEYS`].
    fn game_key(&mut self, act: Act, m: &Match, turn: Color) -> Step {
        let offer = m.draw_offer();
        match act {
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
            Act::Rules => {
                self.rules_shown = true;
                Step::Clear
            }
        }
    }

    /// Huffing: huff the piece typed (or the only one), or compel the capture.
    fn huff_key(&mut self, act: HuffAct, g: &GameRecord, turn: Color) -> Step {
        let chance = match g.game.huff_chance_or_why() {
            Ok(chance) => chance,
            Err(why) => return Step::Message(why.to_string(), StatusKind::Error),
        };
        match act {
            HuffAct::Huff => match rules_text::huff_square(&chance, &self.input.text) {
                Ok(square) => Step::Command(Command::Huff {
                    colour: turn,
                    square,
                }),
                Err(ask) => Step::Message(ask, StatusKind::Error),
            },
            HuffAct::Compel => Step::Command(Command::Compel { colour: turn }),
        }
    }

    /// A click on a square of the board.
    pub fn click(&mut self, sq: crate::engine::Square, m: &Match) -> Step {
        let Some(g) = m.playing() else {
            return Step::Stay;
        };
        let pos = *g.game.position();
        outcome(self.input.click(&pos, sq), pos.turn())
    }

    /// Draw the stage (and the rules over it when asked).
    pub fn render(&self, frame: &mut Frame, area: Rect, v: &View) {
        match v.m().playing() {
            Some(g) => render_game(frame, area, v, Shown::Playing(g, &self.input)),
            None => render_game(frame, area, v, Shown::Pre),
        }
        if self.rules_shown {
            let look = v.ctx.appearance;
            let lines = rules_lines(v.m())
                .into_iter()
                .map(|l| {
                    Line::from(if look.ascii {
                        crate::tui::theme::ascii_text(&l)
                    } else {
                        l
                    })
                })
                .chain([Line::from(Span::styled(
                    "Esc, Enter or i closes",
                    look.dim(),
                ))])
                .collect();
            render_popup(frame, v.m().settings().game.name(), lines, look);
        }
    }
}

/// Pool: the weaker side (king 2, man 1) asks for the strength count; the director grants
/// rule 27's 8 more moves.
fn pool_key(act: PoolAct, pos: &Position) -> Step {
    match act {
        PoolAct::AskStrength => {
            let (red, white) = (pos.strength(Color::Red), pos.strength(Color::White));
            let weaker = match red.cmp(&white) {
                std::cmp::Ordering::Less => Color::Red,
                std::cmp::Ordering::Greater => Color::White,
                std::cmp::Ordering::Equal => {
                    return Step::Message(
                        format!(
                            "neither side is stronger (king 2, man 1: {red} each): no strength count"
                        ),
                        StatusKind::Error,
                    );
                }
            };
            Step::Command(Command::AskStrengthCount { colour: weaker })
        }
        PoolAct::ExtendStrength => Step::Command(Command::ExtendStrengthCount),
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
pub(crate) enum Shown<'a> {
    /// The game set up, its clock not started.
    Pre,
    /// The game being played, with the move field.
    Playing(&'a GameRecord, &'a MoveInput),
    /// The game that just ended.
    Over(&'a GameRecord),
}

/// The game screen of the match: board, clocks (from [`ClockPanelView::of_clock`]), ballot,
/// score, move list with clock readings, and the status line.
pub(crate) fn render_game(frame: &mut Frame, area: Rect, v: &View, shown: Shown) {
    let look = v.ctx.appearance;
    let m = v.m();
    let record = match shown {
        Shown::Playing(g, _) | Shown::Over(g) => Some(g),
        Shown::Pre => None,
    };
    let (ballot, game) = shown_game(m, record);
    let opening = m.ballots().last().map(|b| b.opening.clone());
    let names = names_in(m, ballot, game);
    let (position, moves, clocks) = board_and_clocks(v, record, opening.as_ref(), &names);
    let info = info_lines(
        m,
        look,
        (ballot, game),
        opening.as_ref(),
        clocks.is_none(),
        &shown,
    );
    let status = match &shown {
        Shown::Over(g) => over_status(g),
        Shown::Pre => pre_status(&position, (ballot, game), &names),
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
        reserved: 0,
    }
    .render(frame, area, look);
}

/// The ballot and game shown: the record's, else the phase's (0, 0 when there is none).
fn shown_game(m: &Match, record: Option<&GameRecord>) -> (u32, u8) {
    match (record, m.phase()) {
        (Some(g), _) => (g.ballot, g.number),
        (None, Phase::Ready { ballot, game } | Phase::Playing { ballot, game }) => (ballot, game),
        _ => (0, 0),
    }
}

/// The position, move list and clocks: the game's, or the opening's with the clocks as
/// they will start.
fn board_and_clocks(
    v: &View,
    record: Option<&GameRecord>,
    opening: Option<&Opening>,
    names: &[String; 2],
) -> (Position, MoveListView, Option<ClockPanelView>) {
    if let Some(g) = record {
        return (
            *g.game.position(),
            move_list(g),
            v.session.clock_view(v.now()),
        );
    }
    let pos = opening.map(|o| o.position).unwrap_or_else(Position::start);
    let clock = Clock::new(&v.m().settings().time_control, pos.turn());
    let clocks = ClockPanelView::of_clock(&clock, 0, [&names[0], &names[1]], None);
    (
        pos,
        MoveListView::plain(pos.turn(), Vec::<String>::new()),
        clocks,
    )
}

/// The panel beside the board: ballot and game, opening, score, "No clock" when there is
/// none, rules in force, and while a game is played its counts and a draw offer.
fn info_lines<'a>(
    m: &Match,
    look: &Appearance,
    (ballot, game): (u32, u8),
    opening: Option<&Opening>,
    no_clock: bool,
    shown: &Shown,
) -> Vec<Line<'a>> {
    let mut info: Vec<Line> = vec![Line::from(Span::styled(
        format!("Ballot {ballot} · game {game} of 2"),
        look.accent(),
    ))];
    if let Some(o) = opening {
        let mut t = o.reference();
        if let Some(id) = o.public_id {
            t.push_str(&format!(" · id {id}"));
        }
        info.push(Line::from(Span::styled(t, look.dim())));
    }
    info.push(score_line(m, look));
    if no_clock {
        info.push(Line::from(Span::styled("No clock", look.dim())));
    }
    info.push(Line::from(Span::styled(
        rules_text::in_force(m.settings().game),
        look.accent(),
    )));
    if let Shown::Playing(..) = shown {
        info.extend(
            counts(m)
                .into_iter()
                .map(|t| Line::from(Span::styled(t, look.alert()))),
        );
        if let Some(by) = m.draw_offer() {
            info.push(Line::from(Span::styled(
                format!("{by} offers a draw"),
                look.accent(),
            )));
        }
    }
    info
}

/// "Score Ann 1 · Bob 0".
fn score_line<'a>(m: &Match, look: &Appearance) -> Line<'a> {
    let score = m.score();
    let t = format!(
        "{} {} · {} {}",
        m.name(Player::First),
        score.total[0],
        m.name(Player::Second),
        score.total[1]
    );
    Line::from(vec![
        Span::styled("Score ", look.dim()),
        Span::raw(if look.ascii {
            crate::tui::theme::ascii_text(&t)
        } else {
            t
        }),
    ])
}

/// The status before a game: what Enter does first (long names may not leave room for it
/// after them).
fn pre_status(
    position: &Position,
    (ballot, game): (u32, u8),
    names: &[String; 2],
) -> (String, StatusKind) {
    (
        format!(
            "Enter starts {}'s clock · ballot {ballot}, game {game}: {} (Red) v {} (White)",
            position.turn(),
            names[0],
            names[1],
        ),
        StatusKind::Info,
    )
}

/// The rules shown whole (`i`): the game's rules in a few lines, the counts of pool as set up
/// and as they stand, what may be claimed now.
pub(crate) fn rules_lines(m: &Match) -> Vec<String> {
    let rules = m.settings().game;
    let mut lines: Vec<String> = rules_text::explain(rules)
        .iter()
        .map(|l| l.to_string())
        .collect();
    lines.push(String::new());
    if rules == Rules::Pool {
        lines.push(format!(
            "Strength rule: {}.",
            m.settings().strength_rule.label()
        ));
    }
    lines.extend(counts(m));
    if let Some(claim) = m.claimable_draw() {
        lines.push(format!(
            "A draw is claimable now ({}): c claims.",
            rules_text::claim_reason(claim)
        ));
    }
    lines
}

/// The pool counts running in the game being played: the 13-count, the strength count.
fn counts(m: &Match) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(c) = m.playing().and_then(|g| g.game.thirteen_count()) {
        lines.push(rules_text::thirteen_count(&c));
    }
    if let Some(r) = m.strength_reading() {
        lines.push(rules_text::strength_count(&r));
    }
    lines
}

/// "Game over: White wins on time: Red's flag fell. Enter: results and score".
pub(crate) fn over_status(g: &GameRecord) -> (String, StatusKind) {
    let r = g.result.as_ref().map(|r| r.to_string()).unwrap_or_default();
    (
        format!("Game over: {r}. Enter: results and score"),
        StatusKind::Warn,
    )
}

/// The huffing choice or strength count just made, for the front of the status line.
fn variant_event(m: &Match, turn: Color) -> String {
    match m.log().last().map(|e| &e.event) {
        Some(MatchEvent::Huffed { square, .. }) => format!("{turn} huffed the piece on {square}. "),
        Some(MatchEvent::Compelled) => format!("{turn}'s move was taken back: capture. "),
        Some(MatchEvent::StrengthCountAsked { colour, .. }) => {
            format!("{colour} asked for the strength count. ")
        }
        Some(MatchEvent::StrengthCountExtended { .. }) => "8 more moves granted (rule 27). ".into(),
        _ => String::new(),
    }
}

/// What the status line says while a game is played: a flag, a pause, a draw offer or
/// claim, a declined offer, or who is to move.
/// The status of a standing draw offer by `by` with `turn` to move: the opponent answers, or
/// plays on when it is its turn; on the offerer's own turn it still has to move.
fn draw_offer_text(by: Color, turn: Color) -> String {
    let other = by.opponent();
    if turn == other {
        format!("{by} offers a draw: {other} accepts with a, declines with d (or plays on)")
    } else {
        format!("{by} offers a draw and is to move: {other} accepts with a or declines with d")
    }
}

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
        return (draw_offer_text(by, turn), StatusKind::Warn);
    }
    let who = super::colour_name(m, turn);
    let declined = match m.log().last().map(|e| &e.event) {
        Some(MatchEvent::DrawDeclined { colour, .. }) => format!("{colour} declined the draw. "),
        _ => String::new(),
    };
    let declined = declined + &variant_event(m, turn);
    if let Some(claim) = m.claimable_draw() {
        return (
            format!(
                "{declined}{who} ({turn}) to move; a draw is claimable ({}): c claims",
                rules_text::claim_reason(claim)
            ),
            StatusKind::Warn,
        );
    }
    if let Some(r) = m.strength_reading().filter(|r| r.reached()) {
        let extend = if m.settings().strength_rule == StrengthRule::ThirtyPlusEight && !r.extended {
            ", + grants 8 more"
        } else {
            ""
        };
        return (
            format!(
                "{declined}{who} ({turn}) to move; the strength count ran out: c claims the draw{extend}"
            ),
            StatusKind::Warn,
        );
    }
    if let Some(chance) = g.game.huff_chance() {
        return (
            format!("{declined}{}", rules_text::huff_offer(&chance)),
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

#[cfg(test)]
mod tests {
    use crate::engine::Color;

    #[test]
    fn a_draw_offer_on_the_offerers_turn_does_not_say_the_other_plays_on() {
        let t = super::draw_offer_text(Color::White, Color::White);
        assert!(!t.contains("plays on"), "{t}");
        assert!(t.contains("White offers a draw and is to move"), "{t}");
        let t = super::draw_offer_text(Color::White, Color::Red);
        assert!(
            t.contains("Red accepts with a, declines with d (or plays on)"),
            "{t}"
        );
    }
}
