//! The colour choice, acted out: the coin spins and lands, a colour comes out of the bag, the
//! two hands are opened, or the director assigns; then the toss winner picks a colour.

use super::{Step, TOSS_TICKS, View, header};
use crate::director::{Awaiting, CoinSide, ColourMethod, Command, Hand, Match, MatchEvent, Player};
use crate::engine::Color;
use crate::tui::keys::{
    Binding, ENTER, Key, LEFT, RIGHT, SPACE, TAB, footer, help, help_hint, lookup,
};
use crate::tui::match_flow::words;
use crate::tui::theme::Appearance;
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{StatusKind, fit_line};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// What the colour toss showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TossShown {
    /// The coin was flipped.
    Coin {
        /// Who called.
        caller: Player,
        /// The call.
        call: CoinSide,
        /// How it landed.
        landed: CoinSide,
        /// Who won the toss.
        winner: Player,
    },
    /// A colour came out of the bag.
    Bag {
        /// Who drew.
        player: Player,
        /// The colour.
        colour: Color,
    },
    /// A hand was picked and opened.
    Hands {
        /// Who picked.
        player: Player,
        /// Which hand.
        hand: Hand,
        /// The colour in it.
        colour: Color,
    },
    /// The director assigned the colours.
    Assigned {
        /// Red in game one.
        red: Player,
    },
}

/// The colour-choice stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TossStage {
    /// Who calls the coin / draws from the bag / picks a hand.
    pub caller: Player,
    /// What the toss showed so far.
    pub shown: Option<TossShown>,
    /// Animation ticks left.
    pub ticks: u8,
}

impl Default for TossStage {
    fn default() -> TossStage {
        TossStage::new()
    }
}

/// What the keys of the colour choice do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// The other player calls / draws / picks.
    Switch,
    /// The first player calls.
    First,
    /// The second player calls.
    Second,
    /// Call heads.
    Heads,
    /// Call tails.
    Tails,
    /// Draw a colour from the bag.
    DrawColour,
    /// Pick the left hand.
    Left,
    /// Pick the right hand.
    Right,
    /// The director gives Red to the first player.
    AssignFirst,
    /// The director gives Red to the second player.
    AssignSecond,
    /// The toss winner takes Red.
    Red,
    /// The toss winner takes White.
    White,
    /// Colours settled: on to the ballot.
    Continue,
}

const WHO: [Binding<Act>; 3] = [
    Binding::new(
        &[TAB],
        Act::Switch,
        "the other player calls, draws or picks",
    ),
    Binding::new(
        &[Key::Char('1')],
        Act::First,
        "the first player calls, draws or picks",
    ),
    Binding::new(
        &[Key::Char('2')],
        Act::Second,
        "the second player calls, draws or picks",
    ),
];

/// Coin flip: who calls, and the call.
pub(crate) static COIN_KEYS: &[Binding<Act>] = &[
    WHO[0],
    WHO[1],
    WHO[2],
    Binding::new(&[Key::Char('h')], Act::Heads, "call heads").footer("heads"),
    Binding::new(&[Key::Char('t')], Act::Tails, "call tails").footer("tails"),
];

/// Bag: who draws, and the draw.
pub(crate) static BAG_KEYS: &[Binding<Act>] = &[
    WHO[0],
    WHO[1],
    WHO[2],
    Binding::new(
        &[ENTER, SPACE],
        Act::DrawColour,
        "draw a colour from the bag",
    )
    .footer("draw"),
];

/// Concealed hands: who picks, and the hand.
pub(crate) static HANDS_KEYS: &[Binding<Act>] = &[
    WHO[0],
    WHO[1],
    WHO[2],
    Binding::new(&[Key::Char('l'), LEFT], Act::Left, "pick the left hand").footer("left"),
    Binding::new(&[Key::Char('r'), RIGHT], Act::Right, "pick the right hand").footer("right"),
];

/// The director assigns Red in game one.
pub(crate) static ASSIGN_KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[Key::Char('1')],
        Act::AssignFirst,
        "the first player has Red in game 1",
    ),
    Binding::new(
        &[Key::Char('2')],
        Act::AssignSecond,
        "the second player has Red in game 1",
    ),
];

/// The toss winner chooses.
pub(crate) static CHOOSE_KEYS: &[Binding<Act>] = &[
    Binding::new(&[Key::Char('r')], Act::Red, "the toss winner takes Red").footer("Red"),
    Binding::new(&[Key::Char('w')], Act::White, "the toss winner takes White").footer("White"),
];

/// Colours settled.
pub(crate) static DONE_KEYS: &[Binding<Act>] =
    &[Binding::new(&[ENTER, SPACE], Act::Continue, "on to the ballot draw").footer("continue")];

impl TossStage {
    /// Nothing tossed yet; the first player calls.
    pub fn new() -> TossStage {
        TossStage {
            caller: Player::First,
            shown: None,
            ticks: 0,
        }
    }

    /// The animation is running (any key lands it).
    pub fn spinning(&self) -> bool {
        self.ticks > 0
    }

    /// One tick of the animation.
    pub fn tick(&mut self) {
        self.ticks = self.ticks.saturating_sub(1);
    }

    /// Take note of an event: a toss starts its animation.
    pub fn observe(&mut self, event: &MatchEvent) {
        let (shown, animate) = match event {
            MatchEvent::CoinFlipped {
                caller,
                call,
                landed,
                winner,
            } => (
                TossShown::Coin {
                    caller: *caller,
                    call: *call,
                    landed: *landed,
                    winner: *winner,
                },
                true,
            ),
            MatchEvent::ColourDrawn { player, colour } => (
                TossShown::Bag {
                    player: *player,
                    colour: *colour,
                },
                true,
            ),
            MatchEvent::HandPicked {
                player,
                hand,
                colour,
            } => (
                TossShown::Hands {
                    player: *player,
                    hand: *hand,
                    colour: *colour,
                },
                true,
            ),
            MatchEvent::ColoursSet {
                red,
                by_director: true,
            } => (TossShown::Assigned { red: *red }, false),
            _ => return,
        };
        self.shown = Some(shown);
        self.ticks = if animate { TOSS_TICKS } else { 0 };
    }

    /// The binding table in force: it follows what the match waits for.
    pub fn table(&self, m: &Match) -> &'static [Binding<Act>] {
        match m.awaiting() {
            Awaiting::Toss(ColourMethod::CoinFlip) => COIN_KEYS,
            Awaiting::Toss(ColourMethod::Bag) => BAG_KEYS,
            Awaiting::Toss(ColourMethod::ConcealedHands) => HANDS_KEYS,
            Awaiting::Toss(ColourMethod::DirectorAssigns) => ASSIGN_KEYS,
            Awaiting::ColourChoice(_) => CHOOSE_KEYS,
            _ => DONE_KEYS,
        }
    }

    /// Every table of this stage (for the key-table test).
    pub const TABLES: [&'static [Binding<Act>]; 6] = [
        COIN_KEYS,
        BAG_KEYS,
        HANDS_KEYS,
        ASSIGN_KEYS,
        CHOOSE_KEYS,
        DONE_KEYS,
    ];

    /// The help lines in force.
    pub fn help(&self, m: &Match) -> Vec<KeyHelp> {
        if self.spinning() {
            return vec![KeyHelp::new("any key", "land it at once")];
        }
        help(self.table(m))
    }

    /// Handle a key; `None` when it is not one of the stage's.
    pub fn key(&mut self, key: &KeyEvent, m: &Match) -> Option<Step> {
        if self.spinning() {
            self.ticks = 0;
            return Some(Step::Stay);
        }
        let act = lookup(self.table(m), key)?;
        let p = self.caller;
        let cmd = match act {
            Act::Switch => {
                self.caller = p.other();
                return Some(Step::Stay);
            }
            Act::First => {
                self.caller = Player::First;
                return Some(Step::Stay);
            }
            Act::Second => {
                self.caller = Player::Second;
                return Some(Step::Stay);
            }
            Act::Heads => Command::CallCoin {
                caller: p,
                call: CoinSide::Heads,
            },
            Act::Tails => Command::CallCoin {
                caller: p,
                call: CoinSide::Tails,
            },
            Act::DrawColour => Command::DrawColour { player: p },
            Act::Left => Command::PickHand {
                player: p,
                hand: Hand::Left,
            },
            Act::Right => Command::PickHand {
                player: p,
                hand: Hand::Right,
            },
            Act::AssignFirst | Act::AssignSecond => Command::AssignColour {
                player: if act == Act::AssignFirst {
                    Player::First
                } else {
                    Player::Second
                },
                colour: Color::Red,
            },
            Act::Red | Act::White => match m.awaiting() {
                Awaiting::ColourChoice(w) => Command::ChooseColour {
                    player: w,
                    colour: if act == Act::Red {
                        Color::Red
                    } else {
                        Color::White
                    },
                },
                _ => return Some(Step::Stay),
            },
            Act::Continue => return Some(Step::To(super::Stage::next_for(m))),
        };
        Some(Step::Command(cmd))
    }

    /// Draw the stage.
    pub fn render(&self, frame: &mut Frame, area: Rect, v: &View) {
        let look = v.ctx.appearance;
        let m = v.m();
        let mut lines: Vec<Line> = vec![
            crate::tui::widgets::fit_line(
                Line::from(Span::styled(
                    format!(" Colour choice · {}", header(m)),
                    look.accent(),
                )),
                area.width as usize,
            ),
            Line::from(""),
        ];
        for a in self.art(m, look) {
            lines.push(Line::from(format!("   {a}")));
        }
        lines.push(Line::from(""));
        for part in crate::tui::widgets::wrap(&self.prompt(m), area.width as usize - 4) {
            lines.push(Line::from(Span::styled(
                format!("   {part}"),
                look.accent(),
            )));
        }
        let buf = frame.buffer_mut();
        for (i, l) in lines.iter().enumerate() {
            let y = area.y + i as u16;
            if y + 2 >= area.bottom() {
                break;
            }
            buf.set_line(area.x, y, l, area.width);
        }
        let status = if self.spinning() {
            "the toss is under way...".to_string()
        } else {
            status(m)
        };
        let (text, kind) = v.status((status, StatusKind::Info));
        let style = match kind {
            StatusKind::Error => look.alert(),
            StatusKind::Warn => look.accent(),
            StatusKind::Info => look.dim(),
        };
        buf.set_line(
            area.x,
            area.bottom().saturating_sub(2),
            &Line::from(Span::styled(format!(" {text}"), style)),
            area.width,
        );
        // The key line, from the table in force.
        let keys = format!(" {} · {}", footer(self.table(m)), help_hint(false));
        buf.set_line(
            area.x,
            area.bottom().saturating_sub(1),
            &fit_line(
                Line::from(Span::styled(keys, look.dim())),
                area.width.into(),
            ),
            area.width,
        );
    }

    /// The picture of the toss, line by line.
    fn art(&self, m: &Match, look: &Appearance) -> Vec<String> {
        let name = |p: Player| m.name(p).to_string();
        let spinning = self.spinning();
        match &self.shown {
            Some(TossShown::Coin {
                caller,
                call,
                landed,
                winner,
            }) => {
                let mut v = vec![format!(
                    "{} called {}.",
                    name(*caller),
                    words::coin_side(*call)
                )];
                if spinning {
                    let face = ["H", "T"][usize::from(self.ticks) % 2];
                    let height = [0, 1, 2, 3, 2, 1][usize::from(self.ticks) % 6];
                    v.push(String::new());
                    for _ in 0..(3 - height) {
                        v.push(String::new());
                    }
                    v.push(format!("        ( {face} )   the coin is in the air..."));
                    for _ in 0..height {
                        v.push(String::new());
                    }
                } else {
                    v.push(String::new());
                    v.push(format!(
                        "        ( {} )   it landed {}",
                        if *landed == CoinSide::Heads { "H" } else { "T" },
                        words::coin_side(*landed)
                    ));
                    v.push(String::new());
                    v.push(format!("{} won the toss.", name(*winner)));
                }
                v
            }
            Some(TossShown::Bag { player, colour }) => {
                if spinning {
                    vec![
                        format!("{} reaches into the bag...", name(*player)),
                        String::new(),
                        "        \\____/".into(),
                        "        | ?? |".into(),
                        "        \\____/".into(),
                    ]
                } else {
                    vec![
                        format!("{} drew {} from the bag:", name(*player), colour),
                        String::new(),
                        format!("        ( {} )", piece(look, *colour)),
                        String::new(),
                        format!("{} plays {colour} in game 1 of ballot 1.", name(*player)),
                    ]
                }
            }
            Some(TossShown::Hands {
                player,
                hand,
                colour,
            }) => {
                let (l, r) = if spinning {
                    ("[ ? ]".to_string(), "[ ? ]".to_string())
                } else {
                    let other = colour.opponent();
                    let (lc, rc) = if *hand == Hand::Left {
                        (*colour, other)
                    } else {
                        (other, *colour)
                    };
                    (
                        format!("[ {} ]", piece(look, lc)),
                        format!("[ {} ]", piece(look, rc)),
                    )
                };
                let mut v = vec![
                    format!(
                        "{} picks the {} hand.",
                        name(*player),
                        if *hand == Hand::Left { "left" } else { "right" }
                    ),
                    String::new(),
                    format!("      left {l}     right {r}"),
                ];
                if !spinning {
                    v.push(String::new());
                    v.push(format!(
                        "{} found {colour}: plays {colour} in game 1 of ballot 1.",
                        name(*player)
                    ));
                }
                v
            }
            Some(TossShown::Assigned { red }) => vec![format!(
                "The director assigned Red in game 1 of ballot 1 to {}.",
                name(*red)
            )],
            None => Vec::new(),
        }
    }

    /// What is asked now, with the keys.
    fn prompt(&self, m: &Match) -> String {
        let name = |p: Player| m.name(p).to_string();
        if self.spinning() {
            return "(any key lands it)".into();
        }
        match m.awaiting() {
            Awaiting::Toss(ColourMethod::CoinFlip) => format!(
                "{} calls the coin: h heads, t tails   (Tab: the other player calls)",
                name(self.caller)
            ),
            Awaiting::Toss(ColourMethod::Bag) => format!(
                "{} draws a colour from the bag: Enter   (Tab: the other player draws)",
                name(self.caller)
            ),
            Awaiting::Toss(ColourMethod::ConcealedHands) => format!(
                "{} picks a hand: l left, r right   (Tab: the other player picks)",
                name(self.caller)
            ),
            Awaiting::Toss(ColourMethod::DirectorAssigns) => format!(
                "Director: who has Red in game 1? 1 {}, 2 {}",
                name(Player::First),
                name(Player::Second)
            ),
            Awaiting::ColourChoice(p) => format!("{} chooses a colour: r Red, w White", name(p)),
            _ => {
                let red = m.red_first().unwrap_or(Player::First);
                format!(
                    "{} has Red in game 1. Enter: on to the ballot draw",
                    name(red)
                )
            }
        }
    }
}

/// The status line of the colour choice.
fn status(m: &Match) -> String {
    match m.awaiting() {
        a @ (Awaiting::Toss(_) | Awaiting::ColourChoice(_)) => words::awaiting(m, a),
        _ => "colours are settled: Enter goes on to the ballot draw".into(),
    }
}

fn piece(look: &Appearance, c: Color) -> &'static str {
    look.glyphs().piece(crate::engine::Piece {
        color: c,
        king: false,
    })
}
