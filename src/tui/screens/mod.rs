//! The screens: one file each, one variant each in [`Screen`].
//!
//! A screen is a struct implementing [`ScreenState`]: `update` turns a message into a change of
//! its own state plus a [`Nav`] (stay, open or replace a screen, go back, go home, quit);
//! `render` draws it from `&self` only; `keys` lists its keys for the `?` help overlay, from
//! the same binding table ([`crate::tui::keys`]) its `update` looks keys up in. See the module doc of
//! [`crate::tui`] for the recipe to add one.

pub(super) mod atlas;
pub mod atlas_drill;
pub mod atlas_record;
pub(super) mod engines;
pub(super) mod home;
pub(super) mod library;
mod library_view;
pub(super) mod open_pdn;
pub mod position_check;
pub(super) mod position_setup;
pub(super) mod practice;
pub mod practice_engine;
pub mod practice_hub;
pub(super) mod practice_keep;
pub(super) mod practice_setup;
pub(super) mod review;
pub(super) mod review_graph;

use super::Msg;
use super::keys::Erased;
use super::theme::Appearance;
use super::widgets::menu::KeyHelp;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::time::Instant;

pub use atlas::AtlasScreen;
pub use atlas_drill::DrillScreen;
pub(super) use engines::EnginesScreen;
pub(super) use home::HomeScreen;
pub use library::{LibraryPlaces, LibraryScreen};
pub(super) use open_pdn::OpenPdnScreen;
pub use position_setup::PositionSetupScreen;
pub use practice::PracticeScreen;
pub(super) use practice_setup::PracticeSetupScreen;
pub use review::ReviewScreen;

/// What a screen's update may read and change besides its own state.
pub struct Ctx<'a> {
    /// The time of this message (from the injected clock).
    pub now: Instant,
    /// The whole terminal area the screen is drawn in (for mouse hit-tests).
    pub area: Rect,
    /// Colours, glyphs, flags.
    pub appearance: &'a Appearance,
    /// Randomness for draws (seeded; a fixed seed in tests).
    pub rng: &'a mut ChaCha8Rng,
    /// Match defaults and where matches are saved.
    pub matches: &'a crate::tui::match_flow::MatchOptions,
    /// Where practice set-up is remembered (`None`: not remembered).
    pub practice_file: Option<&'a std::path::Path>,
    /// The config's folders of PDN files for the game library.
    pub library_folders: &'a [std::path::PathBuf],
}

/// What a screen's render may read besides its own state.
pub struct RenderCtx<'a> {
    /// The time of the last message: clocks are computed for this instant.
    pub now: Instant,
    /// Colours, glyphs, flags.
    pub appearance: &'a Appearance,
}

/// Where to go after a message. The app keeps a stack of screens: [`Nav::Push`] opens one
/// over the current screen (which keeps its state, an engine worker included) and
/// [`Nav::Pop`] goes back to it.
pub enum Nav {
    /// Stay on this screen.
    Stay,
    /// Replace this screen by another (this one is dropped).
    Goto(Box<Screen>),
    /// Open a screen over this one; [`Nav::Pop`] comes back here.
    Push(Box<Screen>),
    /// Close this screen and go back to the one under it (home if none).
    Pop,
    /// Back to the home screen (every screen on the stack is closed).
    Home,
    /// Leave the program.
    Quit,
}

/// One screen's behaviour. Implemented by every variant's struct.
pub trait ScreenState {
    /// Handle a message (key presses only, mouse, resize, tick).
    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav;
    /// Draw into `area` (the whole terminal, already checked to be large enough).
    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx);
    /// The screen's name, for the help overlay.
    fn title(&self) -> String;
    /// The keys of this screen, for the help overlay.
    fn keys(&self) -> Vec<KeyHelp>;
    /// True while a clock runs: the loop then wakes at 10 Hz to redraw.
    fn ticking(&self) -> bool {
        false
    }
    /// How often the loop wakes to redraw while no clock runs and no key comes: `None` (only
    /// on input) unless the screen shows something that changes by itself (the link to the
    /// desk).
    fn idle_wake(&self) -> Option<std::time::Duration> {
        None
    }
    /// True while the screen takes free text (a name, a file path): `?` and `q` are then typed
    /// rather than handled globally (the help is on F1).
    fn typing(&self) -> bool {
        false
    }
    /// Ctrl-C was pressed: return true if the screen asked for a confirmation instead (a
    /// running game); it then returns [`Nav::Quit`] once confirmed. Asked again while its
    /// question is open, return false: the app quits.
    /// The screen opened over this one ([`Nav::Push`]) was closed: this one is shown again
    /// (the desk reads back the match played from it).
    fn uncovered(&mut self) {}
    fn confirm_quit(&mut self) -> bool {
        false
    }
    /// The key tables the screen looks a key up in now, in that order (for the tests that
    /// every key of every table is handled and in the help). Empty: not declared.
    fn chain(&self) -> Vec<Erased> {
        Vec::new()
    }
}

/// Every screen of the app. To add one: a file in `screens/` (or `match_flow/`), a variant here,
/// and an arm in `each_screen!`.
pub enum Screen {
    /// Home menu.
    Home(HomeScreen),
    /// Choose what to practise.
    PracticeSetup(PracticeSetupScreen),
    /// Practice a ballot from both sides.
    Practice(PracticeScreen),
    /// Set up any position: board editor and FEN.
    PositionSetup(Box<PositionSetupScreen>),
    /// Step through a game.
    Review(ReviewScreen),
    /// Open a PDN file and pick a game to review.
    OpenPdn(OpenPdnScreen),
    /// The game library: every game at hand, searched.
    Library(Box<LibraryScreen>),
    /// Match set-up form.
    MatchSetup(crate::tui::match_flow::MatchSetupScreen),
    /// A match: colour choice, ballots, games, results.
    Match(Box<crate::tui::match_flow::MatchScreen>),
    /// The saved matches, to resume one.
    MatchList(crate::tui::match_flow::ResumeScreen),
    /// The tournament desk.
    Desk(Box<crate::tui::desk::DeskScreen>),
    /// A board's laptop joining the round at the desk.
    Join(crate::tui::match_flow::JoinScreen),
    /// The 11-man atlas.
    Atlas(Box<AtlasScreen>),
    /// Drill an 11-man position from the atlas.
    AtlasDrill(Box<DrillScreen>),
    /// The Hub engines of the config file.
    Engines(EnginesScreen),
}

/// Run `$body` with `$s` bound to the variant's struct (as `&` or `&mut` as `$screen` is).
macro_rules! each_screen {
    ($screen:expr, $s:ident => $body:expr) => {
        match $screen {
            Screen::Home($s) => $body,
            Screen::PracticeSetup($s) => $body,
            Screen::Practice($s) => $body,
            Screen::PositionSetup($s) => $body,
            Screen::Review($s) => $body,
            Screen::OpenPdn($s) => $body,
            Screen::Library($s) => $body,
            Screen::MatchSetup($s) => $body,
            Screen::Match($s) => $body,
            Screen::MatchList($s) => $body,
            Screen::Desk($s) => $body,
            Screen::Join($s) => $body,
            Screen::Atlas($s) => $body,
            Screen::AtlasDrill($s) => $body,
            Screen::Engines($s) => $body,
        }
    };
}

impl Screen {
    /// The set-up form of a new match saved as `options` say (for screens that offer to
    /// start one, such as the resume list's start over).
    pub(crate) fn match_setup(options: crate::tui::match_flow::MatchOptions) -> Screen {
        Screen::MatchSetup(crate::tui::match_flow::MatchSetupScreen::new(options))
    }
}

impl ScreenState for Screen {
    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        each_screen!(self, s => s.update(msg, ctx))
    }
    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        each_screen!(self, s => s.render(frame, area, ctx))
    }
    fn title(&self) -> String {
        each_screen!(self, s => s.title())
    }
    fn keys(&self) -> Vec<KeyHelp> {
        each_screen!(self, s => s.keys())
    }
    fn ticking(&self) -> bool {
        each_screen!(self, s => s.ticking())
    }
    fn idle_wake(&self) -> Option<std::time::Duration> {
        each_screen!(self, s => s.idle_wake())
    }
    fn typing(&self) -> bool {
        each_screen!(self, s => s.typing())
    }
    fn confirm_quit(&mut self) -> bool {
        each_screen!(self, s => s.confirm_quit())
    }
    fn chain(&self) -> Vec<Erased> {
        each_screen!(self, s => s.chain())
    }
    fn uncovered(&mut self) {
        each_screen!(self, s => s.uncovered())
    }
}
