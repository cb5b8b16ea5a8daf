//! Choosing what to practise: an opening system, then a random draw (seeded) or an opening by
//! number (or an 11-man public position id), or the plain start position.

use super::practice_engine::{Opponent, PracticeEngine};
use super::practice_hub::{HubRival, MOVE_TIMES_MS};
use super::{Ctx, Nav, PracticeScreen, RenderCtx, Screen, ScreenState};
use crate::engine::Color;
use crate::engine::Rules;
use crate::openings::{self, DrawSettings, Opening, System};
use crate::store::HubEngineConfig;
use crate::store::practice::{self, PracticeMemory};
use crate::tui::Msg;
use crate::tui::keys::{
    BACKSPACE, Binding, DOWN, ENTER, ESC, Key, TAB, UP, footer, help, help_hint, lookup,
};
use crate::tui::widgets::menu::{KeyHelp, Menu, MenuItem, MenuOutcome};
use crate::tui::widgets::{centered, fit_line, fit_text};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, MouseButton, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

/// The shortest and longest thinking times a move of a Hub engine.
const SHORTEST: u64 = MOVE_TIMES_MS[0];
const LONGEST: u64 = MOVE_TIMES_MS[MOVE_TIMES_MS.len() - 1];

/// The practice set-up screen.
#[derive(Clone, Debug, PartialEq)]
pub struct PracticeSetupScreen {
    /// The systems, then "start position".
    pub menu: Menu,
    /// Digits typed: an opening number (or a public id with `by_id`).
    pub number: String,
    /// 11-man: the number is a public position id (1-2500).
    pub by_id: bool,
    /// Why the last attempt failed.
    pub message: Option<String>,
    /// The computer opponent (`None`: both sides by hand).
    pub opponent: Option<Opponent>,
    /// The colour the engine plays, kept while the opponent passes through "none".
    pub engine_colour: Color,
    /// Where the choices are remembered for next time (`None`: not remembered).
    pub memory: Option<std::path::PathBuf>,
    /// The game played (English, pool, huffing, losing).
    pub rules: Rules,
}

impl Default for PracticeSetupScreen {
    fn default() -> PracticeSetupScreen {
        PracticeSetupScreen::new()
    }
}

impl PracticeSetupScreen {
    /// The screen as it was left last time (remembered in `file`), or on the 11-Man Ballot
    /// with no opponent; a memory that cannot be read is said on the screen. A Hub engine
    /// remembered is chosen again if the config (`engines`) still has it.
    pub fn remembered(
        file: Option<&std::path::Path>,
        engines: &[(String, HubEngineConfig)],
    ) -> PracticeSetupScreen {
        let mut s = PracticeSetupScreen::new();
        let Some(path) = file else {
            return s;
        };
        s.memory = Some(path.to_path_buf());
        match practice::load(path) {
            Ok(m) => {
                s.menu.selected = if m.start_position {
                    System::ALL.len()
                } else {
                    System::ALL.iter().position(|&x| x == m.system).unwrap_or(3)
                };
                s.engine_colour = m.engine_colour;
                let hub = engines
                    .iter()
                    .find(|(name, _)| m.hub_engine.as_ref() == Some(name))
                    .map(|(name, config)| HubRival {
                        move_ms: m
                            .hub_move_ms
                            .map_or(1_000, |ms| ms.clamp(SHORTEST, LONGEST)),
                        ..HubRival::new(name, config)
                    });
                s.opponent = m.opponent.map(|level| Opponent {
                    hub,
                    ..Opponent::at_level(level, m.engine_colour)
                });
            }
            Err(e) => s.message = Some(format!("practice set-up not remembered: {e}")),
        }
        s
    }

    /// Remember the choices made for next time (a failure is said, and changes nothing
    /// else).
    fn remember(&mut self) {
        let Some(path) = &self.memory else {
            return;
        };
        let hub = self.opponent.as_ref().and_then(|o| o.hub.as_ref());
        let m = PracticeMemory {
            system: self.system().unwrap_or(System::ElevenMan),
            start_position: self.system().is_none(),
            opponent: self.opponent.as_ref().map(|o| o.level),
            engine_colour: self.engine_colour,
            hub_engine: hub.map(|h| h.name.clone()),
            hub_move_ms: hub.map(|h| h.move_ms),
        };
        if let Err(e) = practice::save(path, &m) {
            self.message = Some(format!("practice set-up not remembered: {e}"));
        }
    }

    /// The screen on the 11-Man Ballot, no opponent, nothing remembered.
    pub fn new() -> PracticeSetupScreen {
        let keys = ['g', 'w', 'e', 'm', 'y'];
        let mut items: Vec<MenuItem> = System::ALL
            .iter()
            .zip(keys)
            .map(|(s, k)| {
                MenuItem::new(
                    k,
                    s.title(),
                    format!(
                        "{} opening{}",
                        s.count(),
                        if s.count() == 1 { "" } else { "s" }
                    ),
                )
            })
            .collect();
        items.push(MenuItem::new(
            's',
            "Start position",
            "no ballot, from the standard start",
        ));
        let mut menu = Menu::new("Practice: choose an opening system", items);
        menu.selected = System::ALL
            .iter()
            .position(|&s| s == System::ElevenMan)
            .unwrap_or(0);
        PracticeSetupScreen {
            menu,
            number: String::new(),
            by_id: false,
            message: None,
            opponent: None,
            engine_colour: Color::White,
            memory: None,
            rules: Rules::English,
        }
    }

    /// The highlighted system (`None`: the start position).
    pub fn system(&self) -> Option<System> {
        System::ALL.get(self.menu.selected).copied()
    }

    fn menu_rect(&self, area: Rect) -> Rect {
        let (w, h) = self.menu.size();
        let mut r = centered(area, w.max(60), h);
        r.y = area.y + 2;
        r
    }

    /// The practice screen, with the opponent chosen here (remembered for next time).
    fn practice(&mut self, mut screen: PracticeScreen) -> Nav {
        self.remember();
        screen.engine = PracticeEngine::new(self.opponent.clone());
        Nav::Goto(Box::new(Screen::Practice(screen)))
    }

    /// Pick the opening asked for: by number or id when digits were typed, else at random.
    fn go(&mut self, ctx: &mut Ctx) -> Nav {
        if let Err(e) = Opponent::plays(self.opponent.as_ref(), self.rules) {
            self.message = Some(e);
            return Nav::Stay;
        }
        let Some(system) = self.system() else {
            return self.practice(PracticeScreen::start_position_in(self.rules));
        };
        let rules = self.rules;
        let picked: Result<Opening, String> = if self.number.is_empty() {
            let settings = DrawSettings {
                system,
                rules,
                ..DrawSettings::default()
            };
            openings::draw(&settings, &[], ctx.rng)
                .map(|d| d.opening)
                .map_err(|e| e.to_string())
        } else {
            match self.number.parse::<u32>() {
                Err(_) => Err(format!("{} is not a number", self.number)),
                Ok(n) if self.by_id && system == System::ElevenMan => {
                    openings::opening_by_public_id(n).map_err(|e| e.to_string())
                }
                Ok(n) => openings::opening(system, n).map_err(|e| e.to_string()),
            }
            .and_then(|o| {
                o.in_rules(rules).ok_or_else(|| {
                    format!(
                        "{}: a set move is not legal in {}",
                        o.reference(),
                        rules.name()
                    )
                })
            })
        };
        match picked {
            Ok(o) => self.practice(PracticeScreen::from_opening(&o)),
            Err(e) => {
                self.message = Some(e);
                Nav::Stay
            }
        }
    }
}

/// What the keys of practice set-up do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// A digit of the opening number.
    Digit,
    /// Delete the last digit.
    Delete,
    /// 11-man: the number is a public position id.
    ById,
    /// Draw at random.
    Draw,
    /// Start: the number typed, or a random draw.
    Go,
    /// The next opponent (none, then each level).
    Opponent,
    /// The colour the engine plays.
    Colour,
    /// A Hub engine's thinking time a move.
    Time,
    /// The next game (English, pool, huffing, losing).
    Game,
    /// Move in the list of systems.
    Menu,
    /// Back to the home screen.
    Back,
}

/// The keys of practice set-up (the systems' letters choose a system too).
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(&[Key::Digit], Act::Digit, "type an opening number"),
    Binding::new(&[BACKSPACE], Act::Delete, "delete a digit"),
    Binding::new(
        &[Key::Char('i')],
        Act::ById,
        "11-man: the number is a public position id",
    ),
    Binding::new(
        &[ENTER],
        Act::Go,
        "that number, or a random draw when none is typed",
    )
    .footer("start"),
    Binding::new(&[Key::Char('d')], Act::Draw, "draw at random").footer("draw"),
    Binding::new(
        &[Key::Char('o')],
        Act::Opponent,
        "opponent: none, or the engine at a level, or a Hub engine",
    )
    .footer("opponent"),
    Binding::new(
        &[Key::Char('c')],
        Act::Colour,
        "the colour the engine plays",
    )
    .footer("colour"),
    Binding::new(
        &[Key::Char('+')],
        Act::Time,
        "a Hub engine's thinking time a move (0.5 s to 30 s)",
    ),
    Binding::new(
        &[Key::Char('r')],
        Act::Game,
        "the game: English, pool, huffing, the losing game",
    )
    .footer("game"),
    Binding::new(
        &[
            UP,
            DOWN,
            Key::Char('k'),
            Key::Char('j'),
            TAB,
            Key::Code(KeyCode::Home),
            Key::Code(KeyCode::End),
        ],
        Act::Menu,
        "choose a system",
    ),
    Binding::new(&[Key::Char('q'), ESC], Act::Back, "back to the home screen").footer("back"),
];

impl ScreenState for PracticeSetupScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        vec![crate::tui::keys::erase(KEYS), self.menu.item_keys()]
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        match msg {
            Msg::Key(k) => match lookup(KEYS, k) {
                Some(Act::Digit) => {
                    if let KeyCode::Char(c) = k.code
                        && self.number.len() < 5
                    {
                        self.number.push(c);
                    }
                    self.message = None;
                    Nav::Stay
                }
                Some(Act::Delete) => {
                    self.number.pop();
                    Nav::Stay
                }
                Some(Act::ById) => {
                    self.by_id = !self.by_id;
                    if self.by_id {
                        self.menu.selected = 3;
                    }
                    Nav::Stay
                }
                Some(Act::Draw) => {
                    self.number.clear();
                    self.go(ctx)
                }
                Some(Act::Opponent) => {
                    let engines = &ctx.matches.engines;
                    self.opponent =
                        Opponent::cycle(self.opponent.as_ref(), self.engine_colour, engines);
                    self.message = None;
                    Nav::Stay
                }
                Some(Act::Time) => {
                    self.message =
                        Some(Opponent::next_time(self.opponent.as_mut()).unwrap_or_else(|e| e));
                    Nav::Stay
                }
                Some(Act::Colour) => {
                    match &mut self.opponent {
                        Some(o) => {
                            o.color = o.color.opponent();
                            self.engine_colour = o.color;
                        }
                        None => {
                            self.message =
                                Some("no engine opponent to give a colour: o chooses one".into())
                        }
                    }
                    Nav::Stay
                }
                Some(Act::Game) => {
                    let i = Rules::ALL
                        .iter()
                        .position(|&r| r == self.rules)
                        .unwrap_or(0);
                    self.rules = Rules::ALL[(i + 1) % Rules::ALL.len()];
                    self.message = None;
                    Nav::Stay
                }
                Some(Act::Back) => Nav::Pop,
                Some(Act::Go) => self.go(ctx),
                Some(Act::Menu) | None => {
                    if let MenuOutcome::Moved | MenuOutcome::Chosen(_) = self.menu.key(k) {
                        self.message = None;
                        if self.system() != Some(System::ElevenMan) {
                            self.by_id = false;
                        }
                    }
                    Nav::Stay
                }
            },
            Msg::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                match self.menu.hit(self.menu_rect(ctx.area), m.column, m.row) {
                    Some(i) => {
                        self.menu.selected = i;
                        self.go(ctx)
                    }
                    None => Nav::Stay,
                }
            }
            _ => Nav::Stay,
        }
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let r = self.menu_rect(area);
        let buf = frame.buffer_mut();
        self.menu.render(r, buf, look);
        let mut y = r.bottom() + 1;
        let x = r.x + 1;
        let range = match self.system() {
            Some(System::ElevenMan) if self.by_id => "public position id 1-2500".to_string(),
            Some(s) => format!("number 1-{}", s.count()),
            None => "no number needed".into(),
        };
        let field = Line::from(vec![
            Span::styled("Number: ", look.dim()),
            Span::styled(
                format!("{:_<5}", self.number),
                look.accent().add_modifier(Modifier::UNDERLINED),
            ),
            Span::styled(format!("  ({range})"), look.dim()),
        ]);
        buf.set_line(x, y, &field, r.width);
        y += 1;
        let opponent = Line::from(vec![
            Span::styled("Opponent: ", look.dim()),
            Span::styled(Opponent::describe(self.opponent.as_ref()), look.accent()),
            Span::styled("  (o: opponent, c: colour)", look.dim()),
        ]);
        let width = usize::from(area.width.saturating_sub(x + 1));
        buf.set_line(
            x,
            y,
            &fit_line(opponent, width),
            area.width.saturating_sub(x),
        );
        y += 1;
        if let Some(h) = self.opponent.as_ref().and_then(|o| o.hub.as_ref()) {
            let time = Line::from(vec![
                Span::styled("Time: ", look.dim()),
                Span::styled(h.time_text(), look.accent()),
                Span::styled("  (+: next time)", look.dim()),
            ]);
            buf.set_line(x, y, &time, area.width.saturating_sub(x));
            y += 1;
        }
        let game = Line::from(vec![
            Span::styled("Game: ", look.dim()),
            Span::styled(self.rules.name(), look.accent()),
            Span::styled("  (r: next game)", look.dim()),
        ]);
        buf.set_line(x, y, &game, area.width.saturating_sub(x));
        y += 2;
        let lines = [
            "Enter with no number: draw one at random (d also draws)",
            "Type a number, then Enter: that opening",
            "i: 11-Man Ballot by public position id",
            "Letters pick a system; q goes back",
        ];
        for l in lines {
            buf.set_string(x, y, l, look.dim());
            y += 1;
        }
        if let Some(m) = &self.message {
            buf.set_line(
                x,
                y + 1,
                &Line::from(Span::styled(m.clone(), look.alert())),
                area.width.saturating_sub(x),
            );
        }
        let keys = format!("{} · {}", footer(KEYS), help_hint(false));
        let width = usize::from(area.width.saturating_sub(1));
        buf.set_string(
            area.x + 1,
            area.bottom().saturating_sub(1),
            fit_text(&keys, width),
            look.dim(),
        );
    }

    fn title(&self) -> String {
        "Practice set-up".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        let mut lines = help(KEYS);
        lines.extend(self.menu.item_help());
        lines
    }
}
