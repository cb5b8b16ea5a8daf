//! The application state and its two entry points: [`App::update`] (message in, effects out)
//! and [`render`] (a pure function of the state).

use super::keys::lookup;
use super::screens::{Ctx, HomeScreen, Nav, RenderCtx, Screen, ScreenState};
use super::theme::Appearance;
use super::widgets::menu::{
    GLOBAL_KEYS, GlobalAct, HELP_KEYS, HelpAct, render_help, render_too_small,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Rect, Size};
use std::time::{Duration, Instant};

/// The smallest terminal the app draws in.
pub const MIN_SIZE: (u16, u16) = (80, 24);

/// How often the screen is redrawn while a clock runs (10 Hz).
pub(super) const TICK: Duration = Duration::from_millis(100);

/// A message to the app: input, a resize, or a clock tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// A key press (releases and repeats are filtered out by [`Msg::from_event`]).
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// The terminal was resized to (columns, rows).
    Resize(u16, u16),
    /// Time passed (only while a clock runs).
    Tick,
}

impl Msg {
    /// The message for a terminal event, if it is one the app cares about.
    pub fn from_event(event: Event) -> Option<Msg> {
        match event {
            Event::Key(k) if k.kind == KeyEventKind::Press => Some(Msg::Key(typed_with_altgr(k))),
            // Plain pointer motion (reported under mouse capture) changes nothing: no redraw.
            Event::Mouse(m) if m.kind != MouseEventKind::Moved => Some(Msg::Mouse(m)),
            Event::Resize(w, h) => Some(Msg::Resize(w, h)),
            _ => None,
        }
    }

    /// A key press message (for tests and scripted input).
    pub fn key(code: KeyCode) -> Msg {
        Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    /// A plain character key press.
    pub fn char(c: char) -> Msg {
        Msg::key(KeyCode::Char(c))
    }
}

/// A character typed with AltGr as Windows reports it, made the plain character it is. To
/// Windows AltGr is Ctrl+Alt, so `\`, `@`, `{` or `€` typed with it on many European keyboards
/// come with both held, and a text field would refuse them (Unix terminals send them plain).
/// Ctrl+Alt with a letter or a digit is left as it is: that is a combination, not a character.
pub fn typed_with_altgr(k: KeyEvent) -> KeyEvent {
    let altgr = KeyModifiers::CONTROL | KeyModifiers::ALT;
    match k.code {
        KeyCode::Char(c)
            if k.modifiers.contains(altgr) && !c.is_ascii_alphanumeric() && !c.is_control() =>
        {
            KeyEvent {
                modifiers: k.modifiers - altgr,
                ..k
            }
        }
        _ => k,
    }
}

/// Something for the event loop to do after an update.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Leave the program.
    Quit,
}

/// Start-up choices of the TUI.
#[derive(Clone, Debug)]
pub struct Options {
    /// Colours, glyphs, no-colour and ASCII modes.
    pub appearance: Appearance,
    /// Seed of the random draws (ballots); the binary seeds from the time of day.
    pub seed: u64,
    /// Capture the mouse.
    pub mouse: bool,
    /// Match defaults and where matches are saved.
    pub matches: crate::tui::match_flow::MatchOptions,
    /// Where practice set-up is remembered (`None`: not remembered, as in tests).
    pub practice_file: Option<std::path::PathBuf>,
    /// The config's folders of PDN files for the game library.
    pub library_folders: Vec<std::path::PathBuf>,
    /// The endgame database folder; when set and the databases are missing, the home screen
    /// offers to build them (`None`, as in tests: never offered).
    pub egdb_dir: Option<std::path::PathBuf>,
    /// The folder crossboard keeps its files in, named on the home screen (`None`, as in
    /// tests: not named).
    pub files_dir: Option<std::path::PathBuf>,
    /// What the console can show ([`console::detect`](super::console::detect)).
    pub console: super::console::ConsoleKind,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            appearance: Appearance::default(),
            seed: 0,
            mouse: true,
            matches: Default::default(),
            practice_file: None,
            library_folders: Vec::new(),
            egdb_dir: None,
            files_dir: None,
            console: super::console::ConsoleKind::Full,
        }
    }
}

/// The help overlay (a popup over the current screen).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpPopup;

/// The whole app.
pub struct App {
    /// The screen shown (the top of the stack).
    pub screen: Screen,
    /// The screens under it, opened before it ([`Nav::Push`]); [`Nav::Pop`] goes back.
    pub stack: Vec<Screen>,
    /// The help overlay, when open.
    pub help: Option<HelpPopup>,
    /// Colours, glyphs and modes.
    pub appearance: Appearance,
    /// Randomness for draws.
    pub rng: ChaCha8Rng,
    /// The time of the last message.
    pub now: Instant,
    /// The terminal size.
    pub size: Size,
    /// Match defaults and where matches are saved.
    pub matches: crate::tui::match_flow::MatchOptions,
    /// Where practice set-up is remembered.
    pub practice_file: Option<std::path::PathBuf>,
    /// The config's folders of PDN files for the game library.
    pub library_folders: Vec<std::path::PathBuf>,
    /// The offer to build the endgame databases (and the build, once accepted).
    pub egdb: super::egdb_offer::EgdbOffer,
    /// The folder crossboard keeps its files in, named on the home screen.
    pub files_dir: Option<std::path::PathBuf>,
    /// What the home screen says about the console, if anything.
    pub console_note: Option<&'static str>,
    quit: bool,
}

impl App {
    /// The app on its home screen.
    pub fn new(options: Options, now: Instant, size: Size) -> App {
        App {
            screen: Screen::Home(HomeScreen::new()),
            stack: Vec::new(),
            help: None,
            appearance: options.appearance,
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            now,
            size,
            matches: options.matches,
            practice_file: options.practice_file,
            library_folders: options.library_folders,
            egdb: super::egdb_offer::EgdbOffer::new(options.egdb_dir),
            files_dir: options.files_dir,
            console_note: options.console.note(),
            quit: false,
        }
    }

    /// True once the app wants to stop.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// How long the loop may sleep before redrawing: `None` (until input) unless a clock runs
    /// or the screen shows something that changes by itself.
    pub fn tick_interval(&self) -> Option<Duration> {
        let egdb = self.on_home() && self.egdb.building();
        if self.screen.ticking() || egdb {
            Some(TICK)
        } else {
            self.screen.idle_wake()
        }
    }

    /// The key tables a key is looked up in now, in order, below the keys every screen shares
    /// ([`GLOBAL_KEYS`]): the open help's, or the databases offer's on the home screen, then
    /// the screen's ([`ScreenState::chain`]). For the tests that every key is handled and in
    /// the help.
    pub fn chain(&self) -> Vec<super::keys::Erased> {
        if self.help.is_some() {
            return vec![super::keys::erase(HELP_KEYS)];
        }
        let mut chain = if self.on_home() {
            self.egdb.chain()
        } else {
            Vec::new()
        };
        // The databases' problems shown whole keep every key from the home screen.
        if !(self.on_home() && self.egdb.showing_trouble()) {
            chain.extend(self.screen.chain());
        }
        chain
    }

    /// The help lines of what is shown: the screen's keys (and the databases offer's on the
    /// home screen), as the help overlay lists them.
    pub fn help_lines(&self) -> Vec<super::widgets::menu::KeyHelp> {
        if self.on_home() && self.egdb.showing_trouble() {
            return self.egdb.keys();
        }
        let mut keys = self.screen.keys();
        if self.on_home() {
            keys.extend(self.egdb.keys());
        }
        keys
    }

    fn on_home(&self) -> bool {
        matches!(self.screen, Screen::Home(_))
    }

    /// True when the terminal is below the minimum size.
    pub fn too_small(&self) -> bool {
        self.size.width < MIN_SIZE.0 || self.size.height < MIN_SIZE.1
    }

    /// Handle one message at time `now`.
    pub fn update(&mut self, msg: Msg, now: Instant) -> Vec<Effect> {
        self.now = now;
        if let Msg::Resize(w, h) = msg {
            self.size = Size::new(w, h);
        }
        if let Msg::Key(k) = &msg {
            let global = lookup(GLOBAL_KEYS, k);
            if global == Some(GlobalAct::Quit) {
                self.help = None;
                if self.screen.confirm_quit() {
                    return Vec::new();
                }
                self.quit = true;
                return vec![Effect::Quit];
            }
            if self.help.is_some() {
                if lookup(HELP_KEYS, k) == Some(HelpAct::Close) {
                    self.help = None;
                }
                return Vec::new();
            }
            // `?` is text while the screen takes text: the help is on F1 there.
            let typed = self.screen.typing() && k.code == KeyCode::Char('?');
            if global == Some(GlobalAct::Help) && !typed {
                self.help = Some(HelpPopup);
                return Vec::new();
            }
        }
        if self.too_small() && matches!(msg, Msg::Mouse(_)) {
            return Vec::new();
        }
        self.egdb.poll();
        if let Msg::Key(k) = &msg
            && self.on_home()
            && self.egdb.key(k)
        {
            return Vec::new();
        }
        let mut ctx = Ctx {
            now,
            area: Rect::new(0, 0, self.size.width, self.size.height),
            appearance: &self.appearance,
            rng: &mut self.rng,
            matches: &self.matches,
            practice_file: self.practice_file.as_deref(),
            library_folders: &self.library_folders,
        };
        let nav = self.screen.update(&msg, &mut ctx);
        self.navigate(nav)
    }

    /// Follow a screen's [`Nav`]: replace, push or pop screens, go home, quit.
    fn navigate(&mut self, nav: Nav) -> Vec<Effect> {
        match nav {
            Nav::Stay => {}
            Nav::Goto(screen) => self.screen = *screen,
            Nav::Push(screen) => {
                let below = std::mem::replace(&mut self.screen, *screen);
                self.stack.push(below);
            }
            Nav::Pop => {
                self.screen = self
                    .stack
                    .pop()
                    .unwrap_or_else(|| Screen::Home(HomeScreen::new()));
                self.screen.uncovered();
            }
            Nav::Home => {
                self.stack.clear();
                self.screen = Screen::Home(HomeScreen::new());
            }
            Nav::Quit => {
                self.quit = true;
                return vec![Effect::Quit];
            }
        }
        match &mut self.screen {
            Screen::Practice(p) => p.engine.set_egdb(self.egdb.databases()),
            Screen::AtlasDrill(d) => d.practice.engine.set_egdb(self.egdb.databases()),
            Screen::Review(r) => r.engine.set_egdb(self.egdb.databases()),
            _ => {}
        }
        Vec::new()
    }
}

/// Draw the app: the screen, the help overlay over it, or the too-small notice.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        render_too_small(frame, MIN_SIZE);
        return;
    }
    let ctx = RenderCtx {
        now: app.now,
        appearance: &app.appearance,
    };
    app.screen.render(frame, area, &ctx);
    let home = app.on_home();
    if home {
        super::egdb_offer::render_line(&app.egdb, frame, area, &app.appearance);
        render_home_notes(app, frame, area);
        if app.egdb.showing_trouble() {
            super::egdb_offer::render_trouble(&app.egdb, frame, &app.appearance);
        }
    }
    if app.help.is_some() {
        render_help(
            frame,
            &app.screen.title(),
            &app.help_lines(),
            &app.appearance,
        );
    }
    if app.appearance.ascii {
        super::theme::asciify(frame.buffer_mut());
    }
}

/// The home screen's top lines: where the files are kept, and what the console cannot show.
fn render_home_notes(app: &App, frame: &mut Frame, area: Rect) {
    let width = usize::from(area.width.saturating_sub(2));
    let look = &app.appearance;
    let lines = [
        app.files_dir
            .as_deref()
            .map(|d| (super::console::files_line(d, width), look.dim())),
        app.console_note.map(|n| (n.to_string(), look.alert())),
    ];
    let buf = frame.buffer_mut();
    for (y, (text, style)) in (area.y..area.bottom()).zip(lines.into_iter().flatten()) {
        let used = text.chars().count().min(width) as u16;
        let x = area.x + area.width.saturating_sub(used) / 2;
        buf.set_stringn(x, y, &text, width, style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyEventState, MouseButton};

    fn mouse(kind: MouseEventKind) -> Event {
        Event::Mouse(MouseEvent {
            kind,
            column: 1,
            row: 1,
            modifiers: KeyModifiers::NONE,
        })
    }

    #[test]
    fn only_presses_clicks_and_resizes_become_messages() {
        let release = Event::Key(KeyEvent {
            code: KeyCode::Char('q'),
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
        });
        assert_eq!(Msg::from_event(release), None);
        assert_eq!(Msg::from_event(mouse(MouseEventKind::Moved)), None);
        assert!(Msg::from_event(mouse(MouseEventKind::Down(MouseButton::Left))).is_some());
        assert_eq!(Msg::from_event(Event::FocusGained), None);
        assert_eq!(
            Msg::from_event(Event::Resize(90, 30)),
            Some(Msg::Resize(90, 30))
        );
    }

    #[test]
    fn f1_opens_the_help_even_in_a_text_field() {
        let now = Instant::now();
        let mut app = App::new(Options::default(), now, Size::new(80, 24));
        app.update(Msg::char('o'), now);
        assert!(app.screen.typing(), "the PDN path field takes text");
        app.update(Msg::char('?'), now);
        assert!(app.help.is_none(), "? is text in a text field");
        app.update(Msg::key(KeyCode::F(1)), now);
        assert!(app.help.is_some());
        app.update(Msg::key(KeyCode::F(1)), now);
        assert!(app.help.is_none());
    }

    #[test]
    fn pushed_screens_pop_back_with_their_state() {
        let now = Instant::now();
        let mut app = App::new(Options::default(), now, Size::new(80, 24));
        app.update(Msg::char('p'), now);
        app.update(Msg::char('s'), now);
        app.update(Msg::key(KeyCode::Enter), now);
        assert!(matches!(app.screen, Screen::Practice(_)));
        for k in "11-15\n".chars() {
            let m = if k == '\n' {
                Msg::key(KeyCode::Enter)
            } else {
                Msg::char(k)
            };
            app.update(m, now);
        }
        app.update(Msg::char('v'), now);
        assert!(matches!(app.screen, Screen::Review(_)));
        app.update(Msg::char('q'), now);
        let Screen::Practice(p) = &app.screen else {
            panic!("back on the practice screen");
        };
        assert_eq!(p.game.moves().len(), 1, "its game is still there");
        // Leaving a game not kept asks first; y leaves it.
        app.update(Msg::char('q'), now);
        assert!(matches!(app.screen, Screen::Practice(_)));
        app.update(Msg::char('y'), now);
        assert!(matches!(app.screen, Screen::Home(_)));
        assert!(app.stack.is_empty());
    }

    #[test]
    fn home_names_the_files_folder_and_a_plain_console() {
        let now = Instant::now();
        let options = Options {
            files_dir: Some(std::path::PathBuf::from(
                r"C:\Users\Zoë Smith\AppData\Roaming\crossboard\data",
            )),
            console: super::super::console::ConsoleKind::NoColours,
            ..Options::default()
        };
        let app = App::new(options, now, Size::new(80, 24));
        let text = crate::tui::testing::render_text(&app);
        assert!(
            text.contains(r"Your files: C:\Users\Zoë Smith\AppData\Roaming\crossboard\data"),
            "{text}"
        );
        assert!(text.contains("This console shows no colours"), "{text}");
        assert!(text.contains("New match"), "{text}");
    }

    #[test]
    fn ctrl_c_quits_from_anywhere_and_help_swallows_keys() {
        let now = Instant::now();
        let mut app = App::new(Options::default(), now, Size::new(80, 24));
        app.update(Msg::char('?'), now);
        assert!(app.help.is_some());
        app.update(Msg::char('p'), now);
        assert!(
            matches!(app.screen, Screen::Home(_)),
            "keys go to the help, not the screen"
        );
        let effects = app.update(
            Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            now,
        );
        assert_eq!(effects, vec![Effect::Quit]);
        assert!(app.should_quit());
    }
}
