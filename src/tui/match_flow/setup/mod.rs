//! The match set-up form: every [`MatchSettings`] choice with the defaults (or the config
//! file's) filled in, validated as you type; Enter starts the match.

use super::{MatchOptions, MatchScreen};
use crate::director::{MatchSettings, RejectionPolicy, StrengthRule};
use crate::engine::Rules;
use crate::openings::System;
use crate::tui::Msg;
use crate::tui::keys::{
    BACKTAB, Binding, DOWN, ENTER, ESC, Key, LEFT, RIGHT, SPACE, TAB, UP, footer, help, lookup,
};
use crate::tui::screens::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::tui::theme::ascii_text;
use crate::tui::widgets::TextField;
use crate::tui::widgets::form::TEXT_KEYS;
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

pub(crate) mod existing;
pub(crate) mod memory;
mod presets;
mod settings;

use existing::FILE_KEYS;
use memory::{MEMORY_KEYS, Origin};
use presets::PoolPresets;

/// One row of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldId {
    /// The game: English, pool, huffing, losing.
    Game,
    /// Pool: the strength rule.
    Strength,
    /// First player's name.
    Name1,
    /// Second player's name.
    Name2,
    /// Event name.
    Event,
    /// Opening system.
    System,
    /// 3-move deck.
    Deck,
    /// Faithful or uniform draws.
    Mode,
    /// Redraw man-down openings.
    ExcludeManDown,
    /// 11-man: redraw positions KingsRow classes lost.
    ExcludeLost,
    /// Never repeat a position.
    NoRepeat,
    /// Ballots planned.
    Ballots,
    /// Time control (its typed form, read by [`crate::director::TimeControl`]'s `FromStr`).
    Time,
    /// Points per game.
    Points,
    /// Score ballots as mini-matches.
    PerBallot,
    /// Rejection policy.
    Rejection,
    /// Tie rule.
    Tie,
    /// Extra blocks at most (continue in blocks).
    MaxBlocks,
    /// How a ballot's cards are turned.
    BallotDraw,
    /// How colours are chosen.
    Colours,
    /// The desk's address the match reports to (empty: not reporting).
    Desk,
    /// The board's token at the desk.
    Token,
}

impl FieldId {
    /// Every row, in order.
    pub const ALL: [FieldId; 22] = [
        FieldId::Name1,
        FieldId::Name2,
        FieldId::Event,
        FieldId::Game,
        FieldId::Strength,
        FieldId::System,
        FieldId::Deck,
        FieldId::Mode,
        FieldId::ExcludeManDown,
        FieldId::ExcludeLost,
        FieldId::NoRepeat,
        FieldId::Ballots,
        FieldId::Time,
        FieldId::Points,
        FieldId::PerBallot,
        FieldId::Rejection,
        FieldId::Tie,
        FieldId::MaxBlocks,
        FieldId::BallotDraw,
        FieldId::Colours,
        FieldId::Desk,
        FieldId::Token,
    ];

    fn label(self) -> &'static str {
        match self {
            FieldId::Game => "Game",
            FieldId::Strength => "Strength rule",
            FieldId::Name1 => "First player",
            FieldId::Name2 => "Second player",
            FieldId::Event => "Event",
            FieldId::System => "Openings",
            FieldId::Deck => "3-move deck",
            FieldId::Mode => "Draw",
            FieldId::ExcludeManDown => "Redraw man-down",
            FieldId::ExcludeLost => "Redraw KingsRow-lost",
            FieldId::NoRepeat => "No repeated position",
            FieldId::Ballots => "Ballots (2 games each)",
            FieldId::Time => "Time control",
            FieldId::Points => "Points per game",
            FieldId::PerBallot => "Score by ballot",
            FieldId::Rejection => "Ballot rejection",
            FieldId::Tie => "If tied",
            FieldId::MaxBlocks => "Extra ballots at most",
            FieldId::BallotDraw => "Ballot draw",
            FieldId::Colours => "Colour choice",
            FieldId::Desk => "Report to the desk",
            FieldId::Token => "Board's token",
        }
    }

    fn is_text(self) -> bool {
        matches!(
            self,
            FieldId::Name1
                | FieldId::Name2
                | FieldId::Event
                | FieldId::Ballots
                | FieldId::Time
                | FieldId::MaxBlocks
                | FieldId::Desk
                | FieldId::Token
        )
    }
}

/// The set-up screen.
#[derive(Clone, Debug)]
pub struct MatchSetupScreen {
    /// Text fields, by [`FieldId`] (unused for choices).
    pub texts: Vec<TextField>,
    /// Choice indices, by [`FieldId`] (unused for text fields).
    pub choices: Vec<usize>,
    /// The focused row (index into [`FieldId::ALL`]).
    pub focus: usize,
    /// The first problem with the settings as they stand (field, message).
    pub problem: Option<(FieldId, String)>,
    /// Where the match will be saved, and the rest of the start-up options.
    pub options: MatchOptions,
    /// What choosing pool replaced by the APCA presets, restored when another game is chosen
    /// (each value the director has not changed since).
    before_pool: Option<PoolPresets>,
    /// Where the values came from: the defaults, the last match or a preset.
    origin: Origin,
    /// The last match's settings, when kept.
    last: Option<Box<MatchSettings>>,
    /// The list of presets, while open.
    presets: Option<crate::tui::widgets::menu::Menu>,
    /// A word for the director until the next key (the last settings unread, no presets).
    note: Option<String>,
}

const YES_NO: [&str; 2] = ["no", "yes"];

/// Presets cycled with Left/Right on the time control.
pub(crate) const TIME_PRESETS: [&str; 8] = [
    "30/60",
    "35/70 15/30",
    "20",
    "20+5",
    "20 d5",
    "20 b5",
    "move",
    "none",
];

fn idx(id: FieldId) -> usize {
    FieldId::ALL.iter().position(|&f| f == id).unwrap_or(0)
}

impl MatchSetupScreen {
    /// The form filled with the last match's settings, or with `options.defaults` when there
    /// are none.
    pub fn new(options: MatchOptions) -> MatchSetupScreen {
        let texts = FieldId::ALL
            .iter()
            .map(|f| TextField::new(f.label(), ""))
            .collect();
        let mut s = MatchSetupScreen {
            texts,
            choices: vec![0; FieldId::ALL.len()],
            focus: 0,
            problem: None,
            options,
            before_pool: None,
            origin: Origin::Defaults,
            last: None,
            presets: None,
            note: None,
        };
        let mut hint = |id: FieldId, v: &str| s.texts[idx(id)].hint = v.into();
        hint(FieldId::Ballots, "1-99");
        hint(FieldId::Time, "←→ presets, or type (F1 lists the forms)");
        hint(FieldId::MaxBlocks, "empty: no limit");
        hint(FieldId::Desk, "empty: not reporting; http://HOST:PORT");
        hint(FieldId::Token, "32 hex digits (crossboard event token)");
        s.texts[idx(FieldId::Desk)].value = s.options.net.desk.clone();
        s.texts[idx(FieldId::Token)].value = s.options.net.token.clone();
        let defaults = s.options.defaults.clone();
        s.fill(&defaults, true);
        s.recall_last();
        s.revalidate();
        s
    }

    /// The rows shown (some only matter for some systems or rules).
    pub fn visible(&self) -> Vec<FieldId> {
        let system = System::ALL[self.choices[idx(FieldId::System)].min(4)];
        FieldId::ALL
            .into_iter()
            .filter(|&f| match f {
                FieldId::Deck => system == System::ThreeMove,
                FieldId::ExcludeLost => {
                    system == System::ElevenMan && self.game() == Rules::English
                }
                FieldId::Strength => self.game() == Rules::Pool,
                FieldId::MaxBlocks => self.choices[idx(FieldId::Tie)] == 3,
                _ => true,
            })
            .collect()
    }

    /// The focused field.
    pub fn focused(&self) -> FieldId {
        let v = self.visible();
        v[self.focus.min(v.len() - 1)]
    }

    fn labels(&self, id: FieldId) -> Vec<String> {
        let name = |i: usize| {
            let v = self.texts[idx(if i == 0 {
                FieldId::Name1
            } else {
                FieldId::Name2
            })]
            .value
            .trim()
            .to_string();
            if v.is_empty() {
                format!("player {}", i + 1)
            } else {
                v
            }
        };
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect();
        match id {
            FieldId::Game => Rules::ALL.iter().map(|r| r.name().to_string()).collect(),
            FieldId::Strength => [StrengthRule::ThirtyEight, StrengthRule::ThirtyPlusEight]
                .iter()
                .map(|r| r.label().to_string())
                .collect(),
            FieldId::System => System::ALL
                .iter()
                .map(|x| {
                    let n = x.count();
                    let plural = if n == 1 { "" } else { "s" };
                    format!("{} ({n} opening{plural})", x.title())
                })
                .collect(),
            FieldId::Deck => s(&[
                "current 156 ballots",
                "crossboard 144",
                "computer tough 50",
                "all 174",
            ]),
            FieldId::Mode => s(&[
                "faithful (as the deck or dice do it)",
                "uniform over positions",
            ]),
            FieldId::ExcludeManDown
            | FieldId::ExcludeLost
            | FieldId::NoRepeat
            | FieldId::PerBallot => s(&YES_NO),
            FieldId::Points => s(&["1/½/0", "2/1/0", "4/2/0 (APCA)"]),
            FieldId::Rejection => [
                RejectionPolicy::PlayersMayReject,
                RejectionPolicy::AllExceptManDown,
                RejectionPolicy::AllPlayed,
            ]
            .iter()
            .map(|r| r.label().to_string())
            .collect(),
            FieldId::Tie => vec![
                "the match stays tied".into(),
                format!("{} retains the title", name(0)),
                format!("{} retains the title", name(1)),
                "continue ballot by ballot until decided".into(),
            ],
            FieldId::BallotDraw => s(&[
                "card by card (a key per card)",
                "automatic (the cards turn by themselves)",
            ]),
            FieldId::Colours => s(&[
                "coin flip",
                "colour drawn from a bag",
                "concealed hands",
                "the director assigns",
            ]),
            _ => Vec::new(),
        }
    }

    /// Check the form again (after every change).
    fn revalidate(&mut self) {
        for t in &mut self.texts {
            t.error = None;
        }
        self.problem = self.settings().err().or_else(|| self.desk_link().err());
        if let Some((f, msg)) = &self.problem
            && f.is_text()
        {
            self.texts[idx(*f)].error = Some(msg.clone());
        }
    }

    fn cycle(&mut self, id: FieldId, forward: bool) {
        if id == FieldId::Time {
            let now = self.texts[idx(id)].value.trim().to_string();
            let i = TIME_PRESETS.iter().position(|p| *p == now);
            let n = TIME_PRESETS.len();
            let next = match (i, forward) {
                (Some(i), true) => (i + 1) % n,
                (Some(i), false) => (i + n - 1) % n,
                (None, _) => 0,
            };
            self.texts[idx(id)].value = TIME_PRESETS[next].to_string();
            return;
        }
        let n = self.labels(id).len();
        if n == 0 {
            return;
        }
        let c = &mut self.choices[idx(id)];
        *c = if forward {
            (*c + 1) % n
        } else {
            (*c + n - 1) % n
        };
        if id == FieldId::Game {
            if self.game() == Rules::Pool {
                self.apply_pool_presets();
            } else {
                self.restore_before_pool();
            }
        }
    }

    /// The game chosen.
    pub fn game(&self) -> Rules {
        Rules::ALL[self.choices[idx(FieldId::Game)].min(Rules::ALL.len() - 1)]
    }

    /// What Enter starts: the players, ballots, time control, points and tie rule.
    fn summary(&self, s: &MatchSettings) -> String {
        let chosen = |id: FieldId| {
            self.labels(id)
                .get(self.choices[idx(id)])
                .cloned()
                .unwrap_or_default()
        };
        format!(
            "Enter starts the match: {} v {}, {} ballot{}, {}; points {}; a tie: {}",
            s.players[0],
            s.players[1],
            s.ballots,
            if s.ballots == 1 { "" } else { "s" },
            s.time_control.describe(),
            chosen(FieldId::Points),
            chosen(FieldId::Tie)
        )
    }

    fn start(&mut self, ctx: &mut Ctx) -> Nav {
        let link = match self.desk_link() {
            Ok(link) => link,
            Err((f, _)) => {
                if let Some(i) = self.visible().iter().position(|&v| v == f) {
                    self.focus = i;
                }
                return Nav::Stay;
            }
        };
        match self.settings() {
            Ok(settings) => match MatchScreen::start(settings.clone(), &self.options, ctx.now) {
                Ok(mut screen) => {
                    self.remember(&settings);
                    if let Some((desk, token)) = link {
                        screen.report_from_setup(ctx.matches.net.network.as_deref(), &desk, &token);
                    }
                    Nav::Goto(Box::new(Screen::Match(Box::new(screen))))
                }
                Err(e) => {
                    let way_out = match (self.existing_file(), self.free_name()) {
                        (Some(_), Some(free)) => format!(
                            ": Ctrl-O opens it, Ctrl-N saves the new match as {}",
                            free.file_name().unwrap_or_default().to_string_lossy()
                        ),
                        _ => String::new(),
                    };
                    self.problem = Some((FieldId::Name1, e + &way_out));
                    Nav::Stay
                }
            },
            Err((f, _)) => {
                if let Some(i) = self.visible().iter().position(|&v| v == f) {
                    self.focus = i;
                }
                Nav::Stay
            }
        }
    }
}

/// What the keys of the set-up form do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Start the match.
    Start,
    /// Back to the home screen.
    Back,
    /// The field above.
    Prev,
    /// The field below.
    Next,
    /// The previous choice or time-control preset.
    Less,
    /// The next choice or time-control preset.
    More,
}

/// The keys of every row of the form (text rows take the other keys as text).
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[ENTER],
        Act::Start,
        "start the match (when the form is valid)",
    )
    .footer("start"),
    Binding::new(&[ESC], Act::Back, "back to the home screen").footer("back"),
    Binding::new(&[UP, BACKTAB], Act::Prev, "the field above"),
    Binding::new(&[DOWN, TAB], Act::Next, "the field below"),
];

/// The arrows of a choice row and of the time control (its presets); other text rows have
/// no use for them.
pub(crate) static ARROW_KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[LEFT],
        Act::Less,
        "the previous choice; time control: the previous preset",
    ),
    Binding::new(
        &[RIGHT],
        Act::More,
        "the next choice; time control: the next preset",
    ),
];

/// The keys of a choice row (a text row takes these as text).
pub(crate) static CHOICE_KEYS: &[Binding<Act>] = &[
    Binding::new(&[SPACE], Act::More, "the next choice"),
    Binding::new(&[Key::Char('k')], Act::Prev, "the field above"),
    Binding::new(&[Key::Char('j')], Act::Next, "the field below"),
    Binding::new(&[Key::Char('q')], Act::Back, "back to the home screen"),
];

/// True if the arrows choose on this row: a choice, or the time control's presets.
fn has_arrows(id: FieldId) -> bool {
    !id.is_text() || id == FieldId::Time
}

impl ScreenState for MatchSetupScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        use crate::tui::keys::erase;
        if let Some(menu) = &self.presets {
            return Self::preset_chain(menu);
        }
        let id = self.focused();
        let mut chain = vec![erase(KEYS), erase(MEMORY_KEYS)];
        if self.existing_file().is_some() {
            chain.push(erase(FILE_KEYS));
        }
        if has_arrows(id) {
            chain.push(erase(ARROW_KEYS));
        }
        chain.push(if id.is_text() {
            erase(TEXT_KEYS)
        } else {
            erase(CHOICE_KEYS)
        });
        chain
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let Msg::Key(k) = msg else {
            return Nav::Stay;
        };
        self.note = None;
        if self.presets.is_some() {
            self.preset_key(k);
            self.revalidate();
            return Nav::Stay;
        }
        if let Some(act) = lookup(MEMORY_KEYS, k) {
            self.memory_key(act);
            self.revalidate();
            return Nav::Stay;
        }
        if self.existing_file().is_some()
            && let Some(act) = lookup(FILE_KEYS, k)
        {
            return self.existing_file_key(act, ctx);
        }
        let n = self.visible().len();
        let id = self.focused();
        let act = lookup(KEYS, k)
            .or_else(|| has_arrows(id).then(|| lookup(ARROW_KEYS, k)).flatten())
            .or_else(|| (!id.is_text()).then(|| lookup(CHOICE_KEYS, k)).flatten());
        match act {
            Some(Act::Back) => return Nav::Pop,
            Some(Act::Start) => return self.start(ctx),
            Some(Act::Prev) => self.focus = (self.focus + n - 1) % n,
            Some(Act::Next) => self.focus = (self.focus + 1) % n,
            Some(Act::Less) => self.cycle(id, false),
            Some(Act::More) => self.cycle(id, true),
            None if id.is_text() => {
                self.texts[idx(id)].key(k);
            }
            None => {}
        }
        self.revalidate();
        Nav::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let buf = frame.buffer_mut();
        buf.set_line(
            area.x,
            area.y,
            &self.title_line(look, area.width),
            area.width,
        );
        let visible = self.visible();
        let label_w = 22;
        let focus = self.focused();
        let x = area.x + 1;
        let width = area.width.saturating_sub(2);
        // Three rows for the summary or the problem, wrapped, above the footer.
        let status_rows = 3u16;
        let status_top = area.bottom().saturating_sub(1 + status_rows);
        // The rows scroll to keep the focused one in view when they do not all fit, the last
        // line then saying how many are hidden.
        let room = usize::from(status_top.saturating_sub(area.y + 2)).max(1);
        let rows = crate::tui::widgets::scroll_room(visible.len(), room);
        let at = visible.iter().position(|&f| f == focus).unwrap_or(0);
        let skip = (at + 1).saturating_sub(rows);
        if rows < visible.len() {
            let below = visible.len() - skip - rows;
            let y = area.y + 2 + rows as u16;
            if y < status_top {
                let more = format!("  ({skip} rows above, {below} below: ↑↓)");
                buf.set_stringn(x, y, more, width as usize, look.dim());
            }
        }
        for (y, &f) in (area.y + 2..).zip(visible.iter().skip(skip).take(rows)) {
            if y >= status_top {
                break;
            }
            let focused = f == focus;
            let line = if f.is_text() {
                self.texts[idx(f)].line_fit(label_w, focused, look, width as usize)
            } else {
                let labels = self.labels(f);
                let v = labels
                    .get(self.choices[idx(f)])
                    .cloned()
                    .unwrap_or_default();
                let v = if look.ascii { ascii_text(&v) } else { v };
                let marker = if focused { look.glyphs().to_move } else { " " };
                let style = if focused {
                    look.accent().add_modifier(Modifier::UNDERLINED)
                } else {
                    ratatui::style::Style::new()
                };
                Line::from(vec![
                    Span::styled(format!("{marker} "), look.accent()),
                    Span::styled(format!("{:<label_w$}  ", f.label()), look.dim()),
                    Span::styled(if focused { "‹ " } else { "  " }, look.dim()),
                    Span::styled(v, style),
                    Span::styled(if focused { " ›" } else { "" }, look.dim()),
                ])
            };
            buf.set_line(x, y, &line, width);
        }
        let full = focus
            .is_text()
            .then(|| self.texts[idx(focus)].limit_note())
            .flatten();
        let (text, style) = match (&self.problem, self.settings()) {
            _ if full.is_some() => (
                format!(
                    "{}: {} (nothing more is taken)",
                    focus.label(),
                    full.unwrap_or_default()
                ),
                look.alert(),
            ),
            _ if self.note.is_some() => (self.note.clone().unwrap_or_default(), look.alert()),
            (Some((_, msg)), _) => (format!("Not ready: {msg}"), look.alert()),
            (None, Ok(s)) => (self.summary(&s), look.accent()),
            (None, Err((_, msg))) => (msg, look.alert()),
        };
        // A path in the message keeps its end; a cut is marked (never silent).
        let lines = crate::tui::widgets::wrap_fit(&text, width as usize, status_rows as usize);
        let top = area
            .bottom()
            .saturating_sub(1 + lines.len().min(status_rows as usize) as u16);
        for (i, part) in lines.iter().take(status_rows as usize).enumerate() {
            buf.set_line(
                x,
                top + i as u16,
                &Line::from(Span::styled(part.clone(), style)),
                width,
            );
        }
        let hint = format!(
            "↑↓ field · ←→ change · type to edit · {} · {}",
            footer(KEYS),
            crate::tui::keys::help_hint(self.typing())
        );
        buf.set_string(x, area.bottom() - 1, hint, look.dim());
        if let Some(menu) = &self.presets {
            let (w, h) = menu.size();
            let at = crate::tui::widgets::game_screen::centered(area, w, h);
            ratatui::widgets::Widget::render(ratatui::widgets::Clear, at, frame.buffer_mut());
            menu.render(at, frame.buffer_mut(), look);
        }
    }

    fn title(&self) -> String {
        "Match set-up".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if let Some(menu) = &self.presets {
            return Self::preset_help(menu);
        }
        // Every row's keys, whichever has the focus: the form is learnt from one screen.
        let mut lines = help(KEYS);
        lines.extend(help(MEMORY_KEYS));
        lines.extend(help(ARROW_KEYS));
        lines.extend(help(CHOICE_KEYS));
        lines.extend(help(TEXT_KEYS));
        if self.existing_file().is_some() {
            lines.extend(help(FILE_KEYS));
        }
        lines.push(KeyHelp::new(
            "letters",
            "type into a text row: the first key replaces the default",
        ));
        lines.push(KeyHelp::new(
            "time control",
            "30/60 30 moves an hour; 35/70 15/30 APCA; 20 sudden death",
        ));
        lines.push(KeyHelp::new(
            "",
            "20+5 +5 s/move; 20 d5 / 20 b5 delays; move 5 min/move; none",
        ));
        lines
    }

    fn typing(&self) -> bool {
        self.presets.is_none() && self.focused().is_text()
    }
}

#[cfg(test)]
mod tests;
