//! The game library: every game of the data folder and of the folders of PDN files named
//! (`store::library`), listed, sorted and searched; a game opened in review, its last position
//! played on, the folders added to. Opened from the home screen, and from review with the
//! position on its board ("games through this position").

use super::library_view;
use super::{Ctx, Nav, PositionSetupScreen, RenderCtx, Screen, ScreenState};
use crate::engine::Position;
use crate::store::library::{
    GameRow, Library, LibrarySources, Query, Sort, library_cache_file, library_folders_file,
    load_game, load_library_folders, save_library_folders,
};
use crate::tui::Msg;
use crate::tui::keys::{
    BACKSPACE, Binding, DOWN, ENTER, ESC, Erased, Key, PAGE_DOWN, PAGE_UP, UP, erase, help, lookup,
};
use crate::tui::widgets::StatusKind;
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use std::path::PathBuf;

/// Where the library's files are: its cache, the file of the folders added on screen, and
/// the sources besides those folders.
#[derive(Clone, Debug, Default)]
pub struct LibraryPlaces {
    /// The cache (`None`: no data folder, nothing kept).
    pub cache: Option<PathBuf>,
    /// The folders added from the screen are kept here.
    pub folders_file: Option<PathBuf>,
    /// The match files, the practice games and the config's folders.
    pub sources: LibrarySources,
}

impl LibraryPlaces {
    /// The places of the data folder the screen's context names (beside the practice file),
    /// with the config's folders.
    pub fn of(ctx: &Ctx) -> LibraryPlaces {
        let data = ctx.practice_file.and_then(std::path::Path::parent);
        LibraryPlaces {
            cache: data.map(library_cache_file),
            folders_file: data.map(library_folders_file),
            sources: LibrarySources {
                match_dir: ctx.matches.dir.clone(),
                practice_games: ctx.practice_file.map(crate::store::practice::games_file),
                folders: ctx.library_folders.to_vec(),
            },
        }
    }
}

/// What the line at the top takes, when it takes text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    /// The search line (what it held before, for Esc).
    Search(String),
    /// A folder to add.
    Folder(String),
}

/// The library screen.
pub struct LibraryScreen {
    places: LibraryPlaces,
    library: Option<Library>,
    /// The games the search found, in order.
    pub rows: Vec<GameRow>,
    /// The highlighted row.
    pub selected: usize,
    /// The search line, as typed.
    pub search: String,
    /// The position searched for (from review), besides the search line.
    pub position: Option<Position>,
    /// The order, and whether reversed.
    pub sort: (Sort, bool),
    /// The field being typed in, if any.
    pub(crate) field: Option<Field>,
    /// The notes shown in the list's place: games skipped, a cache rebuilt.
    pub show_notes: bool,
    /// Notes of the last refresh.
    pub notes: Vec<String>,
    /// What the last key did.
    pub message: Option<(String, StatusKind)>,
}

impl LibraryScreen {
    /// The library at `places`, brought up to date with its files, all its games listed.
    pub fn open(places: LibraryPlaces) -> LibraryScreen {
        let mut screen = LibraryScreen {
            places,
            library: None,
            rows: Vec::new(),
            selected: 0,
            search: String::new(),
            position: None,
            sort: (Sort::Date, false),
            field: None,
            show_notes: false,
            notes: Vec::new(),
            message: None,
        };
        screen.refresh();
        screen
    }

    /// The library's games through `position` (review's "games through this position").
    pub fn through(places: LibraryPlaces, position: Position) -> LibraryScreen {
        let mut screen = LibraryScreen::open(places);
        screen.position = Some(position);
        screen.run_search();
        screen
    }

    /// The sources: the places' and the folders added on screen.
    fn sources(&self) -> Result<LibrarySources, String> {
        let mut sources = self.places.sources.clone();
        if let Some(f) = &self.places.folders_file {
            sources.folders.extend(load_library_folders(f)?);
        }
        Ok(sources)
    }

    /// Open the cache if need be, read what changed, search again.
    fn refresh(&mut self) {
        self.notes.clear();
        let Some(cache) = self.places.cache.clone() else {
            self.message = Some((
                "no data folder: the library has nowhere to keep its index".into(),
                StatusKind::Error,
            ));
            return;
        };
        let sources = match self.sources() {
            Ok(s) => s,
            Err(e) => {
                self.notes.push(e);
                self.places.sources.clone()
            }
        };
        if self.library.is_none() {
            match Library::open(&cache) {
                Ok(lib) => {
                    if let Some(why) = &lib.rebuilt {
                        self.notes
                            .push(format!("the index was built again: the old one was {why}"));
                    }
                    self.library = Some(lib);
                }
                Err(e) => {
                    self.message = Some((e.to_string(), StatusKind::Error));
                    return;
                }
            }
        }
        let Some(lib) = self.library.as_mut() else {
            return;
        };
        match lib.refresh(&sources) {
            Ok(r) => {
                self.message = Some((
                    format!(
                        "{} games; {} files read, {} kept, {} dropped",
                        r.games, r.read, r.kept, r.dropped
                    ),
                    StatusKind::Info,
                ));
            }
            Err(e) => self.message = Some((e.to_string(), StatusKind::Error)),
        }
        if let Ok(skipped) = lib.skipped() {
            for s in skipped {
                self.notes.push(format!(
                    "{}: {} game{} skipped; {}",
                    s.path.display(),
                    s.skipped,
                    if s.skipped == 1 { "" } else { "s" },
                    s.first
                ));
            }
        }
        self.run_search();
    }

    /// The query of the search line, the position and the order.
    fn query(&self) -> Result<Query, String> {
        let mut q = Query::parse(&self.search)?;
        if q.position.is_none() {
            q.position = self.position;
        }
        (q.sort, q.descending) = self.sort;
        Ok(q)
    }

    fn run_search(&mut self) {
        let Some(lib) = &self.library else {
            return;
        };
        match self
            .query()
            .and_then(|q| lib.search(&q).map_err(|e| e.to_string()))
        {
            Ok(rows) => {
                self.rows = rows;
                self.selected = self.selected.min(self.rows.len().saturating_sub(1));
            }
            Err(e) => self.message = Some((e, StatusKind::Error)),
        }
    }

    /// The library's total, for the title.
    pub(super) fn total(&self) -> usize {
        self.library
            .as_ref()
            .and_then(|l| l.count().ok())
            .unwrap_or(0)
    }

    /// The highlighted game opened in review.
    fn review(&mut self) -> Nav {
        let (Some(lib), Some(row)) = (&self.library, self.rows.get(self.selected)) else {
            return Nav::Stay;
        };
        match load_game(lib, row).and_then(|g| super::open_pdn::review_of(&g)) {
            Ok(review) => Nav::Push(Box::new(Screen::Review(review))),
            Err(e) => {
                self.message = Some((e, StatusKind::Error));
                Nav::Stay
            }
        }
    }

    /// The highlighted game's last position on the set-up screen, to play on from it.
    fn play_on(&mut self) -> Nav {
        let (Some(lib), Some(row)) = (&self.library, self.rows.get(self.selected)) else {
            return Nav::Stay;
        };
        let game = load_game(lib, row).and_then(|g| g.replay().map_err(|e| e.to_string()));
        match game {
            Ok(game) => Nav::Push(Box::new(Screen::PositionSetup(Box::new(
                PositionSetupScreen::new(game.position()),
            )))),
            Err(e) => {
                self.message = Some((e, StatusKind::Error));
                Nav::Stay
            }
        }
    }

    /// Add a folder of PDN files: kept in the folders file, then indexed.
    fn add_folder(&mut self, typed: &str) {
        let folder = PathBuf::from(typed.trim());
        if !folder.is_dir() {
            self.message = Some((
                format!("{} is not a folder", folder.display()),
                StatusKind::Error,
            ));
            return;
        }
        let Some(file) = self.places.folders_file.clone() else {
            self.message = Some((
                "no data folder to keep the folder in".into(),
                StatusKind::Error,
            ));
            return;
        };
        let saved = load_library_folders(&file).and_then(|mut folders| {
            if !folders.contains(&folder) {
                folders.push(folder.clone());
            }
            save_library_folders(&file, &folders)
        });
        match saved {
            Ok(()) => self.refresh(),
            Err(e) => self.message = Some((e, StatusKind::Error)),
        }
    }

    fn list_key(&mut self, key: &KeyEvent) -> Nav {
        let page = 10;
        let last = self.rows.len().saturating_sub(1);
        match lookup(KEYS, key) {
            Some(Act::Open) => return self.review(),
            Some(Act::PlayOn) => return self.play_on(),
            Some(Act::Down) => self.selected = (self.selected + 1).min(last),
            Some(Act::Up) => self.selected = self.selected.saturating_sub(1),
            Some(Act::PageDown) => self.selected = (self.selected + page).min(last),
            Some(Act::PageUp) => self.selected = self.selected.saturating_sub(page),
            Some(Act::Search) => self.field = Some(Field::Search(self.search.clone())),
            Some(Act::Sort) => {
                let i = Sort::ALL
                    .iter()
                    .position(|s| *s == self.sort.0)
                    .unwrap_or(0);
                self.sort.0 = Sort::ALL[(i + 1) % Sort::ALL.len()];
                self.run_search();
            }
            Some(Act::Reverse) => {
                self.sort.1 = !self.sort.1;
                self.run_search();
            }
            Some(Act::ClearPosition) => {
                self.position = None;
                self.search.clear();
                self.run_search();
            }
            Some(Act::AddFolder) => self.field = Some(Field::Folder(String::new())),
            Some(Act::Refresh) => self.refresh(),
            Some(Act::Notes) => self.show_notes = !self.show_notes,
            Some(Act::Back) => return Nav::Pop,
            None => {}
        }
        Nav::Stay
    }

    fn field_key(&mut self, key: &KeyEvent) {
        let Some(field) = self.field.as_mut() else {
            return;
        };
        let text = match field {
            Field::Search(_) => &mut self.search,
            Field::Folder(t) => t,
        };
        match lookup(FIELD_KEYS, key) {
            Some(FieldAct::Done) => match self.field.take() {
                Some(Field::Folder(t)) => self.add_folder(&t),
                _ => {
                    self.message = None;
                    self.selected = 0;
                    self.run_search();
                }
            },
            Some(FieldAct::Cancel) => {
                if let Some(Field::Search(before)) = self.field.take() {
                    self.search = before;
                }
            }
            Some(FieldAct::Delete) => {
                text.pop();
            }
            Some(FieldAct::Clear) => text.clear(),
            None => {
                if let KeyCode::Char(c) = key.code
                    && !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                {
                    text.push(c);
                }
            }
        }
    }

    pub(super) fn places(&self) -> &LibraryPlaces {
        &self.places
    }
}

impl ScreenState for LibraryScreen {
    fn chain(&self) -> Vec<Erased> {
        if self.field.is_some() {
            vec![erase(FIELD_KEYS)]
        } else {
            vec![erase(KEYS)]
        }
    }

    fn update(&mut self, msg: &Msg, _ctx: &mut Ctx) -> Nav {
        let Msg::Key(key) = msg else {
            return Nav::Stay;
        };
        if self.field.is_some() {
            self.field_key(key);
            return Nav::Stay;
        }
        self.message = None;
        self.list_key(key)
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        library_view::render(self, frame, area, ctx.appearance);
    }

    fn title(&self) -> String {
        "Game library".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.field.is_some() {
            let mut lines = vec![KeyHelp::new("letters", "type")];
            lines.extend(help(FIELD_KEYS));
            lines
        } else {
            help(KEYS)
        }
    }

    fn typing(&self) -> bool {
        self.field.is_some()
    }
}

/// What the keys of the list do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Review the highlighted game.
    Open,
    /// Play on from its last position.
    PlayOn,
    /// The next game.
    Down,
    /// The previous game.
    Up,
    /// Ten games down.
    PageDown,
    /// Ten games up.
    PageUp,
    /// Type the search line.
    Search,
    /// The next order.
    Sort,
    /// Reverse the order.
    Reverse,
    /// Forget the search and the position.
    ClearPosition,
    /// Add a folder of PDN files.
    AddFolder,
    /// Read the files again.
    Refresh,
    /// Show or hide the notes.
    Notes,
    /// Back.
    Back,
}

/// The keys of the list.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(&[ENTER], Act::Open, "review the game").footer("review"),
    Binding::new(
        &[Key::Char('p')],
        Act::PlayOn,
        "play on from the game's last position (set-up, then practice)",
    ),
    Binding::new(&[DOWN, Key::Char('j')], Act::Down, "next game"),
    Binding::new(&[UP, Key::Char('k')], Act::Up, "previous game"),
    Binding::new(&[PAGE_DOWN], Act::PageDown, "ten games down"),
    Binding::new(&[PAGE_UP], Act::PageUp, "ten games up"),
    Binding::new(
        &[Key::Char('/')],
        Act::Search,
        "search: player:, red:, white:, event:, opening:, from:, to:, result:, moves:, fen:",
    )
    .footer("search"),
    Binding::new(&[Key::Char('o')], Act::Sort, "sort by the next field").footer("sort"),
    Binding::new(&[Key::Char('O')], Act::Reverse, "reverse the order"),
    Binding::new(
        &[Key::Char('x')],
        Act::ClearPosition,
        "clear the search and the position: every game",
    ),
    Binding::new(
        &[Key::Char('a')],
        Act::AddFolder,
        "add a folder of PDN files",
    ),
    Binding::new(&[Key::Char('r')], Act::Refresh, "read changed files again"),
    Binding::new(
        &[Key::Char('n')],
        Act::Notes,
        "show or hide the notes (games skipped)",
    ),
    Binding::new(&[ESC, Key::Char('q')], Act::Back, "back").footer("back"),
];

/// What the keys of a field do (other characters are typed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldAct {
    /// Search, or add the folder.
    Done,
    /// Leave the field as it was.
    Cancel,
    /// Delete a character.
    Delete,
    /// Clear the field.
    Clear,
}

/// The keys of the search line and the folder field.
pub(crate) static FIELD_KEYS: &[Binding<FieldAct>] = &[
    Binding::new(&[ENTER], FieldAct::Done, "search, or add the folder").footer("done"),
    Binding::new(&[ESC], FieldAct::Cancel, "leave it as it was").footer("cancel"),
    Binding::new(&[BACKSPACE], FieldAct::Delete, "delete a character"),
    Binding::new(&[Key::Ctrl('u')], FieldAct::Clear, "clear the field"),
];
