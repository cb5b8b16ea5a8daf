//! Home: new match, resume a match, join a board at the desk, practice, open a PDN for
//! review, the tournament desk, quit.

use super::{
    Ctx, EnginesScreen, Nav, OpenPdnScreen, PracticeSetupScreen, RenderCtx, Screen, ScreenState,
};
use crate::tui::Msg;
use crate::tui::widgets::centered;
use crate::tui::widgets::menu::{KeyHelp, Menu, MenuItem, MenuOutcome};
use ratatui::Frame;
use ratatui::crossterm::event::{MouseButton, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The home screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HomeScreen {
    /// The menu.
    pub menu: Menu,
}

/// Entries of the home menu, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HomeItem {
    /// Set up and start a new match.
    NewMatch,
    /// Resume a saved match.
    Resume,
    /// Join a board of the round at the desk (its address and the board's code).
    Join,
    /// Practise a ballot.
    Practice,
    /// Set up any position, then play on from it.
    SetUp,
    /// Open a PDN file and review its games.
    OpenPdn,
    /// The 11-man atlas: verdicts, main lines, drills.
    Atlas,
    /// The game library: every game at hand, searched.
    Library,
    /// The tournament desk: events, divisions, pairings, results, standings.
    Desk,
    /// The Hub engines of the config file.
    Engines,
    /// Leave.
    Quit,
}

impl HomeItem {
    /// All entries, in menu order.
    pub(crate) const ALL: [HomeItem; 11] = [
        HomeItem::NewMatch,
        HomeItem::Resume,
        HomeItem::Join,
        HomeItem::Practice,
        HomeItem::SetUp,
        HomeItem::OpenPdn,
        HomeItem::Atlas,
        HomeItem::Library,
        HomeItem::Desk,
        HomeItem::Engines,
        HomeItem::Quit,
    ];
}

impl Default for HomeScreen {
    fn default() -> HomeScreen {
        HomeScreen::new()
    }
}

impl HomeScreen {
    /// The home screen with "New match" highlighted.
    pub fn new() -> HomeScreen {
        HomeScreen {
            menu: Menu::new(
                "Start",
                vec![
                    MenuItem::new('n', "New match", "set up a match for two players"),
                    MenuItem::new('r', "Resume a match", "continue a saved match"),
                    MenuItem::new('a', "Join a board", "the desk's board, by its code"),
                    MenuItem::new('p', "Practice", "play a ballot from both sides"),
                    MenuItem::new('s', "Set up a position", "any position: board or FEN"),
                    MenuItem::new('o', "Open a PDN", "review the games of a PDN file"),
                    MenuItem::new('m', "11-man atlas", "verdicts, main lines, drills"),
                    MenuItem::new(
                        'l',
                        "Game library",
                        "find any game: player, opening, position",
                    ),
                    MenuItem::new('t', "Tournament desk", "pairings, results, standings"),
                    MenuItem::new('h', "Hub engines", "other engines, as configured"),
                    MenuItem::new('q', "Quit", ""),
                ],
            ),
        }
    }

    fn menu_rect(&self, area: Rect) -> Rect {
        let (w, h) = self.menu.size();
        let mut r = centered(area, w, h);
        r.y = r.y.saturating_add(2).min(area.bottom().saturating_sub(h));
        r
    }

    fn choose(&self, item: HomeItem, ctx: &mut Ctx) -> Nav {
        match item {
            HomeItem::NewMatch => Nav::Push(Box::new(Screen::MatchSetup(
                crate::tui::match_flow::MatchSetupScreen::new(ctx.matches.clone()),
            ))),
            HomeItem::Resume => Nav::Push(Box::new(Screen::MatchList(
                crate::tui::match_flow::ResumeScreen::new(ctx.matches),
            ))),
            HomeItem::Join => Nav::Push(Box::new(Screen::Join(
                crate::tui::match_flow::JoinScreen::new(),
            ))),
            HomeItem::Practice => Nav::Push(Box::new(Screen::PracticeSetup(
                PracticeSetupScreen::remembered(ctx.practice_file, &ctx.matches.engines),
            ))),
            HomeItem::SetUp => Nav::Push(Box::new(Screen::PositionSetup(Box::default()))),
            HomeItem::OpenPdn => Nav::Push(Box::new(Screen::OpenPdn(OpenPdnScreen::new()))),
            HomeItem::Atlas => Nav::Push(Box::new(Screen::Atlas(Box::new(
                super::AtlasScreen::opened(ctx),
            )))),
            HomeItem::Library => Nav::Push(Box::new(Screen::Library(Box::new(
                super::LibraryScreen::open(super::LibraryPlaces::of(ctx)),
            )))),
            HomeItem::Desk => Nav::Push(Box::new(Screen::Desk(Box::new(
                crate::tui::desk::DeskScreen::new(None),
            )))),
            HomeItem::Engines => Nav::Push(Box::new(Screen::Engines(EnginesScreen::new(
                &ctx.matches.engines,
            )))),
            HomeItem::Quit => Nav::Quit,
        }
    }
}

impl ScreenState for HomeScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        vec![
            crate::tui::keys::erase(crate::tui::widgets::menu::MENU_KEYS),
            self.menu.item_keys(),
        ]
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let chosen = match msg {
            Msg::Key(k) => match self.menu.key(k) {
                MenuOutcome::Chosen(i) => Some(i),
                _ => None,
            },
            Msg::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                let r = self.menu_rect(ctx.area);
                self.menu
                    .hit(r, m.column, m.row)
                    .inspect(|&i| self.menu.selected = i)
            }
            _ => None,
        };
        match chosen.and_then(|i| HomeItem::ALL.get(i).copied()) {
            Some(item) => self.choose(item, ctx),
            None => Nav::Stay,
        }
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let r = self.menu_rect(area);
        let g = look.glyphs();
        let banner = Line::from(vec![
            Span::styled(format!("{} {}  ", g.pieces[0], g.pieces[2]), look.dim()),
            Span::styled("crossboard", look.accent()),
            Span::styled(format!("  {} {}", g.pieces[3], g.pieces[1]), look.dim()),
        ]);
        let sub = Line::from(Span::styled(
            "American checkers: matches, ballots and practice at one board",
            look.dim(),
        ));
        let buf = frame.buffer_mut();
        let y = r.y.saturating_sub(4).max(area.y);
        let bx = area.x + area.width.saturating_sub(banner.width() as u16) / 2;
        buf.set_line(bx, y, &banner, area.width);
        let sx = area.x + area.width.saturating_sub(sub.width() as u16) / 2;
        buf.set_line(sx, y + 1, &sub, area.width);
        self.menu.render(r, buf, look);
        let hint = "arrows + Enter, or the letter; ? help";
        let hx = area.x + area.width.saturating_sub(hint.len() as u16) / 2;
        buf.set_string(hx, area.bottom() - 1, hint, look.dim());
    }

    fn title(&self) -> String {
        "Home".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        self.menu.help()
    }
}
