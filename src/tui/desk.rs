//! The tournament desk screen (home `t`): the events of the desk's database, then one event:
//! its divisions, the round's pairings with board numbers and states, a result in a few keys,
//! standings, the crosstable and the pairing explanation. Every change is one transaction in
//! the database (see [`crate::store::eventdb`]) and is shown only once committed.

use super::Msg;
use super::keys::{
    BACKSPACE, Binding, DOWN, ENTER, ESC, Key, LEFT, PAGE_DOWN, PAGE_UP, RIGHT, TAB, UP, footer,
    help, lookup,
};
use super::match_flow::resume::reopen;
use super::match_flow::{MatchOptions, MatchScreen};
use super::screens::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use super::theme::ascii_line;
use super::widgets::menu::KeyHelp;
use super::widgets::{Scroll, scroll_room, scrolled};
use crate::director::{Command, Player};
use crate::engine::Color;
use crate::event::propose;
use crate::event::{
    Action, BoardGameResult, BoardResult, Division, DivisionSettings, EventError, EventInfo,
    Format, PlayerId, PlayerInfo,
};
use crate::event::{board_result, match_settings};
use crate::event::{by_hand, swap, swap_repeats, with_reason_note};
use crate::publish::Published;
use crate::publish::sentences::{
    attached_text, ballot_text, by_hand_noted, pdn_note, repeats_text, result_text, unpaired_note,
    why,
};
use crate::store::{Desk, EventSummary, OpenEvent, default_db_path};
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::path::PathBuf;

/// What the event view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum View {
    /// The round's boards.
    Pairings,
    /// The standings.
    Standings,
    /// The crosstable.
    Crosstable,
    /// Why the selected board is paired so.
    Why,
}

/// A line being typed, and what it answers.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ask {
    EventName,
    Division,
    Player,
    Forfeit,
    /// The two players to exchange in the round's pairing.
    SwapPlayers,
    /// Why (logged): the two players found.
    SwapReason(PlayerId, PlayerId),
    /// The exchange makes a rematch or a second bye (`said`): exchange anyway?
    SwapConfirm {
        a: PlayerId,
        b: PlayerId,
        reason: String,
        said: String,
    },
    WithdrawPlayer,
    /// Why (logged).
    WithdrawReason(PlayerId),
    /// A player and the round they will miss.
    Absent,
    /// A PDN file for the selected board.
    Pdn,
    /// The next round's boards, paired by hand.
    ByHand,
    /// Why (logged): the boards typed.
    ByHandReason(BoardsByHand),
}

/// A round typed by hand: its boards (first player Red in game 1) and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BoardsByHand {
    boards: Vec<(PlayerId, PlayerId)>,
    bye: Option<PlayerId>,
}

impl Ask {
    /// The prompt in front of the typed text.
    fn prompt(&self, d: Option<&Division>) -> String {
        let name = |id: &PlayerId| d.map_or("?".to_string(), |d| d.name(*id).to_string());
        match self {
            Ask::EventName => "Event name".into(),
            Ask::Division => "Division (NAME swiss:N|rr|drr GAMES GAME)".into(),
            Ask::Player => "Player name".into(),
            Ask::Forfeit => "Forfeit: who came (1, 2 or none)".into(),
            Ask::SwapPlayers => "Exchange two players (NAME, NAME)".into(),
            Ask::SwapReason(a, b) => format!("Why exchange {} and {} (logged)", name(a), name(b)),
            Ask::SwapConfirm { .. } => "Exchange them anyway (y/n)".into(),
            Ask::WithdrawPlayer => "Withdraw which player".into(),
            Ask::WithdrawReason(p) => format!("Why does {} withdraw (logged)", name(p)),
            Ask::Absent => "Absent: NAME [ROUND] (default: the next round)".into(),
            Ask::Pdn => "PDN file of the board's games".into(),
            Ask::ByHand => "Pair by hand: FIRST - SECOND, ... [, bye NAME]".into(),
            Ask::ByHandReason(_) => "Why pair this round by hand (logged)".into(),
        }
    }
}

/// The desk screen.
pub struct DeskScreen {
    desk: Option<Desk>,
    events: Vec<EventSummary>,
    selected: usize,
    open: Option<OpenEvent>,
    division: usize,
    board: usize,
    view: View,
    ask: Option<(Ask, String)>,
    status: String,
    exports: PathBuf,
    /// The board being played on crossboard (division, round, board, match file): its results
    /// are read back from the match file when the match screen closes.
    playing: Option<(usize, u32, u32, PathBuf)>,
    /// Rows of the body scrolled out of view above (below its head, which stays).
    scroll: usize,
    /// The page the last key asks for (-1 up, 1 down).
    page: isize,
    /// Characters of the crosstable scrolled out of view to the left (behind its names).
    hscroll: usize,
    /// The sideways step the last key asks for (-1 left, 1 right).
    pan: isize,
}

/// What the desk shows above its status line: the lines, how many of them stay at the top
/// (title, event, the table's column header), and the line of the selection (kept in view).
struct Body {
    lines: Vec<Line<'static>>,
    head: usize,
    focus: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListAct {
    Up,
    Down,
    Open,
    New,
    Back,
    /// A page up or down, by the key.
    Scroll,
}

pub(crate) static LIST_KEYS: &[Binding<ListAct>] = &[
    Binding::new(&[UP, Key::Char('k')], ListAct::Up, "previous event"),
    Binding::new(&[DOWN, Key::Char('j')], ListAct::Down, "next event"),
    Binding::new(&[ENTER], ListAct::Open, "open the event").footer("open"),
    Binding::new(&[Key::Char('n')], ListAct::New, "new event").footer("new"),
    Binding::new(&[ESC, Key::Char('q')], ListAct::Back, "back").footer("back"),
    Binding::new(&[PAGE_UP, PAGE_DOWN], ListAct::Scroll, SCROLL_HELP),
];

/// The help of the scroll keys (the events, an event's rows).
const SCROLL_HELP: &str = "a page up or down (a marker counts the rows out of view)";

/// The scroll keys as the marker names them.
const SCROLL_KEYS: &str = "PgUp PgDn";

/// What the keys of a line being typed do (other characters are typed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AskAct {
    Answer,
    Cancel,
    Delete,
    Clear,
}

pub(crate) static ASK_KEYS: &[Binding<AskAct>] = &[
    Binding::new(&[ENTER], AskAct::Answer, "answer (an empty line: nothing)").footer("answer"),
    Binding::new(&[ESC], AskAct::Cancel, "cancel: nothing is done").footer("cancel"),
    Binding::new(&[BACKSPACE], AskAct::Delete, "delete the last character"),
    Binding::new(&[Key::Ctrl('u')], AskAct::Clear, "clear the line"),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Up or down a board, by the key.
    Board,
    NextDivision,
    /// Pair the next round: by the engine (p) or by hand (H).
    Pair,
    /// A game's result, by the key.
    Game,
    Undo,
    Forfeit,
    Pairings,
    Standings,
    Crosstable,
    Why,
    AddPlayer,
    AddDivision,
    Swap,
    Withdraw,
    Absent,
    AttachPdn,
    Play,
    Export,
    Back,
    /// A page up or down, by the key.
    Scroll,
}

pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[UP, Key::Char('k'), DOWN, Key::Char('j')],
        Act::Board,
        "previous board (up, k), next board (down, j)",
    ),
    Binding::new(&[TAB], Act::NextDivision, "next division"),
    Binding::new(
        &[Key::Char('p'), Key::Char('H')],
        Act::Pair,
        "pair the next round, draw its ballots (H: by hand, a reason)",
    )
    .footer("pair"),
    Binding::new(
        &[Key::Char('1'), Key::Char('2'), Key::Char('=')],
        Act::Game,
        "next game: 1 first player won, 2 second won, = drawn",
    )
    .footer("result"),
    Binding::new(
        &[BACKSPACE],
        Act::Undo,
        "take back the board's last game result",
    ),
    Binding::new(
        &[Key::Char('!')],
        Act::Forfeit,
        "the whole round forfeited (asks who came)",
    ),
    Binding::new(&[Key::Char('r')], Act::Pairings, "the round's pairings"),
    Binding::new(&[Key::Char('s')], Act::Standings, "standings").footer("standings"),
    Binding::new(
        &[Key::Char('c'), LEFT, RIGHT],
        Act::Crosstable,
        "crosstable (left, right: scroll its columns)",
    ),
    Binding::new(&[Key::Char('w')], Act::Why, "why is this board paired so").footer("why"),
    Binding::new(
        &[Key::Char('a')],
        Act::AddPlayer,
        "enter a player (new names registered; late once paired)",
    ),
    Binding::new(
        &[Key::Char('x')],
        Act::Swap,
        "exchange two players in the round (the reason is logged)",
    ),
    Binding::new(
        &[Key::Char('W')],
        Act::Withdraw,
        "a player withdraws from the next round (reason logged)",
    ),
    Binding::new(
        &[Key::Char('A')],
        Act::Absent,
        "a player will miss a round (scores the absence points)",
    ),
    Binding::new(
        &[Key::Char('P')],
        Act::Play,
        "play the board on crossboard (again: resume its match)",
    )
    .footer("play"),
    Binding::new(
        &[Key::Char('g')],
        Act::AttachPdn,
        "attach a PDN file of the board's games",
    ),
    Binding::new(
        &[Key::Char('d')],
        Act::AddDivision,
        "add a division: NAME swiss:N|rr|drr GAMES",
    ),
    Binding::new(
        &[Key::Char('e')],
        Act::Export,
        "export the crosstable (HTML and text) and the PDN",
    ),
    Binding::new(
        &[ESC, Key::Char('q')],
        Act::Back,
        "back to the pairings; from them, back to the events",
    )
    .footer("back"),
    Binding::new(&[PAGE_UP, PAGE_DOWN], Act::Scroll, SCROLL_HELP),
];

impl DeskScreen {
    /// The desk on the database of the data folder (or `path`).
    pub fn new(path: Option<PathBuf>) -> DeskScreen {
        let path = path.or_else(default_db_path);
        let exports = path
            .as_ref()
            .and_then(|p| p.parent().map(|d| d.join("exports")))
            .unwrap_or_else(|| PathBuf::from("."));
        let mut s = DeskScreen {
            desk: None,
            events: Vec::new(),
            selected: 0,
            open: None,
            division: 0,
            board: 0,
            view: View::Pairings,
            ask: None,
            status: String::new(),
            exports,
            playing: None,
            scroll: 0,
            page: 0,
            hscroll: 0,
            pan: 0,
        };
        match path.map(|p| Desk::open(&p)) {
            Some(Ok(d)) => s.desk = Some(d),
            Some(Err(e)) => s.status = e.to_string(),
            None => s.status = "no data folder on this machine".into(),
        }
        s.refresh();
        s
    }

    fn refresh(&mut self) {
        if let Some(d) = &self.desk {
            match d.events() {
                Ok(e) => self.events = e,
                Err(e) => self.status = e.to_string(),
            }
        }
    }

    /// Record actions; the status says what happened.
    fn record(&mut self, actions: Vec<Action>, done: String) {
        let (Some(desk), Some(open)) = (self.desk.as_mut(), self.open.as_mut()) else {
            return;
        };
        match desk.record(open, &actions, chrono::Utc::now()) {
            Ok(()) => self.status = format!("recorded: {done}"),
            Err(e) => {
                self.status = e.to_string();
                if let Ok(o) = desk.load(open.id) {
                    *open = o;
                }
            }
        }
    }

    fn boards_len(&self) -> usize {
        self.open
            .as_ref()
            .and_then(|o| o.event.divisions.get(self.division))
            .and_then(|d| d.rounds.last())
            .map_or(0, |r| r.boards.len())
    }

    fn game(&mut self, o: Option<BoardGameResult>) {
        let Some(open) = &self.open else { return };
        let Some(d) = open.event.divisions.get(self.division) else {
            return;
        };
        let Some(r) = d.rounds.last() else {
            self.status = "pair a round first (p)".into();
            return;
        };
        let Some(b) = r.boards.get(self.board) else {
            return;
        };
        let mut games = match &b.result {
            Some(BoardResult::Games { games }) => games.clone(),
            _ => Vec::new(),
        };
        match o {
            Some(o) => {
                if games.len() as u32 >= d.settings.games_per_round {
                    self.status = format!(
                        "board {} is complete (Backspace takes a game back)",
                        b.number
                    );
                    return;
                }
                games.push(o);
            }
            None => {
                games.pop();
            }
        }
        let (round, board) = (r.number, b.number);
        self.record_result(round, board, BoardResult::Games { games });
    }

    /// Record `result` for `board` of `round` in the current division.
    fn record_result(&mut self, round: u32, board: u32, result: BoardResult) {
        let text = format!(
            "round {round} board {board}: {}",
            result_text(Some(&result))
        );
        let action = Action::Result {
            division: self.division,
            round,
            board,
            result,
        };
        self.record(vec![action], text);
    }

    fn pair(&mut self, ctx: &mut Ctx) {
        let Some(open) = &self.open else { return };
        let Some(d) = open.event.divisions.get(self.division) else {
            self.status = "add a division first (d)".into();
            return;
        };
        if let Err(e) = d.round_to_pair() {
            self.status = e.to_string();
            return;
        }
        match propose(self.division, d) {
            Ok(pair) => self.record_pairing(pair, String::new(), ctx),
            // The engine found no pairing (every pairing repeats a meeting): the director's.
            Err(e @ EventError::Pairing(_)) => {
                self.status = format!("{e}: H pairs it by hand");
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// Record the next round's pairing `pair` with its ballots drawn; `note` ends the sentence.
    fn record_pairing(&mut self, pair: Action, note: String, ctx: &mut Ctx) {
        let Some(open) = &self.open else { return };
        let mut after = open.event.clone();
        if let Err(e) = after.apply(&pair) {
            self.status = e.to_string();
            return;
        }
        let round = after.divisions[self.division].paired_rounds();
        match crate::event::draw_ballots(
            self.division,
            &after.divisions[self.division],
            round,
            ctx.rng,
        ) {
            Ok(b) => {
                self.record(vec![pair, b], format!("round {round} paired{note}"));
                self.board = 0;
                self.view = View::Pairings;
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// The boards typed for a pairing by hand: `FIRST - SECOND` (or two one-word names),
    /// separated by commas, and `bye NAME`.
    fn parse_boards(&self, text: &str) -> Result<BoardsByHand, String> {
        let usage = "by hand: FIRST - SECOND, ... [, bye NAME]";
        let mut boards = Vec::new();
        let mut bye = None;
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if let Some(who) = item.strip_prefix("bye ") {
                if bye.is_some() {
                    return Err(format!("{usage}: one bye"));
                }
                bye = Some(self.find(who.trim())?);
                continue;
            }
            let words: Vec<&str> = item.split_whitespace().collect();
            let (a, b) = match item.split_once(" - ") {
                Some((a, b)) => (a.trim(), b.trim()),
                None if words.len() == 2 => (words[0], words[1]),
                None => return Err(format!("{item:?}? {usage}")),
            };
            boards.push((self.find(a)?, self.find(b)?));
        }
        if boards.is_empty() {
            return Err(usage.into());
        }
        Ok(BoardsByHand { boards, bye })
    }

    #[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
    fn answer(&mut self, ask: Ask, text: String, ctx: &mut Ctx) {
        let text = text.trim().to_string();
        match ask {
            Ask::ByHand => match self.parse_boards(&text) {
                Ok(boards) => self.ask = Some((Ask::ByHandReason(boards), String::new())),
                Err(e) => {
                    self.status = e;
                    self.ask = Some((Ask::ByHand, text));
                }
            },
            Ask::ByHandReason(BoardsByHand { boards, bye }) => {
                let Some(d) = self.current_division() else {
                    return;
                };
                let pair = match by_hand(self.division, d, boards, bye, &text) {
                    Ok(p) => p,
                    Err(e) => {
                        self.status = e.to_string();
                        return;
                    }
                };
                // What it repeats is said and logged with the reason.
                let (pair, note) = by_hand_noted(d, pair);
                self.record_pairing(pair, note, ctx);
            }
            Ask::EventName => {
                let Some(desk) = self.desk.as_mut() else {
                    return;
                };
                let info = EventInfo {
                    name: text.clone(),
                    game: "English draughts".into(),
                    ..EventInfo::default()
                };
                match desk.create_event(&info, chrono::Utc::now()) {
                    Ok(o) => {
                        self.open = Some(o);
                        self.division = 0;
                        self.status = format!("recorded: event {text:?}");
                    }
                    Err(e) => self.status = e.to_string(),
                }
                self.refresh();
            }
            Ask::Division => {
                let (name, settings) = match parse_division(&text) {
                    Ok(d) => d,
                    Err(e) => {
                        self.status = e;
                        return;
                    }
                };
                let n = self.open.as_ref().map_or(0, |o| o.event.divisions.len());
                self.record(
                    vec![Action::AddDivision {
                        name: name.clone(),
                        settings,
                    }],
                    format!("division {name:?}"),
                );
                if self.open.as_ref().map_or(0, |o| o.event.divisions.len()) > n {
                    self.division = n;
                }
            }
            Ask::Player => {
                let (Some(desk), Some(open)) = (self.desk.as_mut(), self.open.as_mut()) else {
                    return;
                };
                if open.event.divisions.is_empty() {
                    self.status = "add a division first (d)".into();
                    return;
                }
                let known = desk.players().ok().and_then(|list| {
                    list.into_iter()
                        .find(|(_, p)| p.name.eq_ignore_ascii_case(&text))
                });
                let result = match known {
                    Some((id, info)) => desk
                        .record(
                            open,
                            &[Action::Enter {
                                division: self.division,
                                player: id,
                                info,
                            }],
                            chrono::Utc::now(),
                        )
                        .map(|()| id),
                    None => desk.enter_new_player(
                        open,
                        self.division,
                        &PlayerInfo::named(&text),
                        chrono::Utc::now(),
                    ),
                };
                match result {
                    Ok(id) => {
                        let paired = open.event.divisions[self.division].paired_rounds();
                        let late = match paired {
                            0 => String::new(),
                            1 => " as a late entry (round 1 scores as an absence)".into(),
                            n => format!(" as a late entry (rounds 1-{n} score as absences)"),
                        };
                        self.status = format!(
                            "recorded: {text} entered{late} (player {id}); type the next name or Esc"
                        );
                        self.ask = Some((Ask::Player, String::new()));
                    }
                    Err(e) => self.status = e.to_string(),
                }
            }
            Ask::SwapPlayers => {
                let names: Vec<&str> = text.split(',').map(str::trim).collect();
                let [a, b] = names.as_slice() else {
                    self.status = "exchange: type two names separated by a comma".into();
                    self.ask = Some((Ask::SwapPlayers, text));
                    return;
                };
                match (self.find(a), self.find(b)) {
                    (Ok(a), Ok(b)) if a != b => {
                        self.ask = Some((Ask::SwapReason(a, b), String::new()))
                    }
                    (Ok(_), Ok(_)) => self.status = "exchange: two different players".into(),
                    (Err(e), _) | (_, Err(e)) => self.status = e,
                }
            }
            Ask::SwapReason(a, b) => {
                let Some(d) = self.current_division() else {
                    return;
                };
                let done = format!(
                    "{} and {} exchanged in round {} ({text})",
                    d.name(a),
                    d.name(b),
                    d.paired_rounds()
                );
                match swap_repeats(self.division, d, a, b, &text) {
                    Ok((action, repeats)) if repeats.is_empty() => self.record(vec![action], done),
                    // A rematch or a second bye: said, and done only once confirmed.
                    Ok((_, repeats)) => {
                        let said = repeats_text(d, &repeats);
                        self.status = format!("{said}: y exchanges them anyway (logged)");
                        self.ask = Some((
                            Ask::SwapConfirm {
                                a,
                                b,
                                reason: text,
                                said,
                            },
                            String::new(),
                        ));
                    }
                    Err(e) => self.status = e.to_string(),
                }
            }
            Ask::SwapConfirm { a, b, reason, said } => {
                let Some(d) = self.current_division() else {
                    return;
                };
                if !matches!(text.to_ascii_lowercase().as_str(), "y" | "yes") {
                    self.status = format!("nothing exchanged ({said})");
                    return;
                }
                let done = format!(
                    "{} and {} exchanged in round {} ({reason}; confirmed: {said})",
                    d.name(a),
                    d.name(b),
                    d.paired_rounds()
                );
                match swap(self.division, d, a, b, &reason) {
                    Ok(action) => {
                        let action = with_reason_note(action, &format!("confirmed: {said}"));
                        self.record(vec![action], done)
                    }
                    Err(e) => self.status = e.to_string(),
                }
            }
            Ask::WithdrawPlayer => match self.find(&text) {
                Ok(p) => self.ask = Some((Ask::WithdrawReason(p), String::new())),
                Err(e) => self.status = e,
            },
            Ask::WithdrawReason(p) => {
                let Some(d) = self.current_division() else {
                    return;
                };
                let done = format!(
                    "{} withdrawn: not paired from round {} ({text})",
                    d.name(p),
                    d.paired_rounds() + 1
                );
                let action = Action::Withdraw {
                    division: self.division,
                    player: p,
                    reason: text,
                };
                self.record(vec![action], done);
            }
            Ask::Absent => {
                let Some(d) = self.current_division() else {
                    return;
                };
                let (who, round) = match text.rsplit_once(' ') {
                    Some((who, r)) if r.parse::<u32>().is_ok() => {
                        (who.trim().to_string(), r.parse().unwrap_or(0))
                    }
                    _ => (text.clone(), d.paired_rounds() + 1),
                };
                if let Err(e) = d.absence_round(round) {
                    self.status = e.to_string();
                    return;
                }
                match self.find(&who) {
                    Ok(p) => {
                        let done = format!("{} absent in round {round}", d.name(p));
                        let action = Action::Absent {
                            division: self.division,
                            player: p,
                            round,
                        };
                        self.record(vec![action], done);
                    }
                    Err(e) => self.status = e,
                }
            }
            Ask::Pdn => {
                let Some((round, board)) = self.selected_board() else {
                    return;
                };
                match crate::store::board_pdn(std::path::Path::new(&text)) {
                    Ok((pdn, games)) => {
                        let action = Action::AttachPdn {
                            division: self.division,
                            round,
                            board,
                            pdn,
                        };
                        self.record(vec![action], attached_text(games, round, board));
                    }
                    Err(e) => self.status = e,
                }
            }
            Ask::Forfeit => {
                let present = match text.as_str() {
                    "1" => Some(Player::First),
                    "2" => Some(Player::Second),
                    "none" | "0" => None,
                    _ => {
                        self.status = "forfeit: type 1, 2 or none (who came)".into();
                        return;
                    }
                };
                let Some((round, board)) = self.selected_board() else {
                    return;
                };
                self.record_result(round, board, BoardResult::Forfeit { present });
            }
        }
    }

    fn current_division(&self) -> Option<&Division> {
        self.open.as_ref()?.event.divisions.get(self.division)
    }

    /// The player `who` names in the current division, or the sentence saying why not.
    fn find(&self, who: &str) -> Result<PlayerId, String> {
        let d = self
            .current_division()
            .ok_or_else(|| "add a division first (d)".to_string())?;
        d.find_player(who).map_err(|e| e.to_string())
    }

    /// The selected board of the last round: (round, board).
    fn selected_board(&self) -> Option<(u32, u32)> {
        let r = self.current_division()?.rounds.last()?;
        r.boards.get(self.board).map(|b| (r.number, b.number))
    }

    /// Ask `ask` if there is a division to act on.
    fn ask_if_division(&mut self, ask: Ask) {
        if self.current_division().is_some() {
            self.ask = Some((ask, String::new()));
        } else {
            self.status = "add a division first (d)".into();
        }
    }

    /// Play the selected board on crossboard: a new match with the division's settings (the
    /// board's first player has Red in game 1), saved in the desk's `matches` folder and
    /// linked to the board; a board already linked resumes its match.
    fn play(&mut self, ctx: &mut Ctx) -> Nav {
        let (Some(open), Some((round, number))) = (&self.open, self.selected_board()) else {
            self.status = "pair a round first (p)".into();
            return Nav::Stay;
        };
        let d = &open.event.divisions[self.division];
        let Some(board) = d.rounds.last().and_then(|r| r.boards.get(self.board)) else {
            return Nav::Stay;
        };
        if board.is_complete(d.settings.games_per_round) {
            self.status = format!("board {number} is complete (Backspace takes a game back)");
            return Nav::Stay;
        }
        let screen = match &board.match_file {
            Some(file) => {
                let path = PathBuf::from(file);
                reopen(&path, ctx.matches, ctx.now, true).map(|s| (s, path, None))
            }
            None => self
                .new_board_match(ctx, round, board)
                .map(|(s, path, link)| (Screen::Match(Box::new(s)), path, link)),
        };
        match screen {
            Ok((screen, path, link)) => {
                if let Some(action) = link {
                    self.record(
                        vec![action],
                        format!("round {round} board {number} on crossboard"),
                    );
                }
                self.playing = Some((self.division, round, number, path));
                Nav::Push(Box::new(screen))
            }
            Err(e) => {
                self.status = e;
                Nav::Stay
            }
        }
    }

    /// A new match for `board` of round `round`, its file and the action linking it.
    fn new_board_match(
        &self,
        ctx: &mut Ctx,
        round: u32,
        board: &crate::event::Board,
    ) -> Result<(MatchScreen, PathBuf, Option<Action>), String> {
        let open = self.open.as_ref().ok_or("no event open")?;
        let d = &open.event.divisions[self.division];
        let settings = match_settings(
            &ctx.matches.defaults,
            &open.event.info.name,
            d,
            round,
            board,
        )
        .map_err(|e| e.to_string())?;
        let path = self.matches_dir().join(format!(
            "{}-r{round}-b{}.{}",
            self.stem(),
            board.number,
            crate::store::EXTENSION
        ));
        let options = MatchOptions {
            file: Some(path.clone()),
            dir: None,
            ..ctx.matches.clone()
        };
        let given = !settings.given_ballots.is_empty();
        let mut screen = MatchScreen::start(settings, &options, ctx.now)?;
        screen.back_to_caller = true;
        screen
            .apply_before_shown(
                Command::AssignColour {
                    player: Player::First,
                    colour: Color::Red,
                },
                ctx.now,
                ctx.rng,
            )
            .map_err(|e| e.to_string())?;
        if given {
            // The round's ballot, not a draw of the match's own.
            screen
                .apply_before_shown(Command::DrawBallot, ctx.now, ctx.rng)
                .map_err(|e| e.to_string())?;
        }
        let link = Action::LinkMatch {
            division: self.division,
            round,
            board: board.number,
            file: path.display().to_string(),
        };
        Ok((screen, path, Some(link)))
    }

    /// Where the matches of boards played on crossboard are saved: `matches` beside the
    /// desk's `exports` folder.
    fn matches_dir(&self) -> PathBuf {
        self.exports
            .parent()
            .map_or_else(|| PathBuf::from("matches"), |p| p.join("matches"))
    }

    /// The file-name stem of the open event's current division (`club-open-open`).
    fn stem(&self) -> String {
        let Some(open) = &self.open else {
            return String::new();
        };
        let division = self.current_division().map_or("", |d| d.name.as_str());
        format!("{}-{division}", open.event.info.name)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect()
    }

    /// The match of the board played on crossboard has closed: record its finished games as
    /// the board's result (the match file stays the record of the moves).
    fn read_back_match(&mut self) {
        let Some((division, round, number, path)) = self.playing.take() else {
            return;
        };
        let m = match crate::store::load_match(&path) {
            Ok(f) => f.the_match,
            Err(e) => {
                self.status = format!("round {round} board {number}: {e}");
                return;
            }
        };
        let Some(open) = &self.open else { return };
        let Some((d, b)) = open.event.divisions.get(division).and_then(|d| {
            let b = d.round(round)?.boards.iter().find(|b| b.number == number)?;
            Some((d, b))
        }) else {
            return;
        };
        let games = match board_result(&m, d, round, b) {
            Ok(g) => g,
            Err(e) => {
                self.status = format!("round {round} board {number}: {e}");
                return;
            }
        };
        let entered = match &b.result {
            Some(BoardResult::Games { games }) => games.clone(),
            _ => Vec::new(),
        };
        if games.is_empty() || games == entered {
            self.status =
                format!("round {round} board {number}: no new game finished on crossboard");
            return;
        }
        let result = BoardResult::Games { games };
        let text = format!(
            "round {round} board {number} from crossboard: {}",
            result_text(Some(&result))
        );
        self.record(
            vec![Action::Result {
                division,
                round,
                board: number,
                result,
            }],
            text,
        );
    }

    fn export(&mut self) {
        let Some(open) = &self.open else { return };
        let Some(d) = open.event.divisions.get(self.division) else {
            return;
        };
        let p = Published::new(&open.event, d, u32::MAX);
        let pdn = crate::publish::pdn(&open.event, d, None);
        let stem = self.stem();
        let _ = std::fs::create_dir_all(&self.exports);
        // What the files hold first (the path is long): no round yet, games left out.
        let mut notes: Vec<String> = unpaired_note(d).into_iter().collect();
        notes.push(format!("PDN: {}", pdn_note(&pdn)));
        let files = [
            (self.exports.join(format!("{stem}.html")), p.html()),
            (self.exports.join(format!("{stem}.txt")), p.text()),
            (self.exports.join(format!("{stem}.pdn")), pdn.text),
        ];
        // None is written if one of them would replace one of the desk's own files.
        if let Some(desk) = &self.desk {
            for (path, _) in &files {
                if let Err(e) = desk.check_output(path) {
                    self.status = e.to_string();
                    return;
                }
            }
        }
        for (path, text) in &files {
            if let Err(e) = crate::store::write_atomic(path, text.as_bytes()) {
                self.status = format!("cannot write {}: {e}", path.display());
                return;
            }
        }
        self.status = format!(
            "{}; wrote {}, .txt, .pdn",
            notes.join("; "),
            files[0].0.display()
        );
    }

    fn event_update(&mut self, act: Act, key: KeyCode, ctx: &mut Ctx) -> Nav {
        let n = self.boards_len();
        match act {
            Act::Board if matches!(key, KeyCode::Up | KeyCode::Char('k')) => {
                self.board = self.board.saturating_sub(1)
            }
            Act::Board => self.board = (self.board + 1).min(n.saturating_sub(1)),
            Act::NextDivision => {
                let count = self.open.as_ref().map_or(0, |o| o.event.divisions.len());
                if count > 0 {
                    self.division = (self.division + 1) % count;
                    self.board = 0;
                }
            }
            Act::Pair if key != KeyCode::Char('H') => self.pair(ctx),
            Act::Pair => match self.current_division().map(|d| d.round_to_pair()) {
                Some(Ok(_)) => self.ask = Some((Ask::ByHand, String::new())),
                Some(Err(e)) => self.status = e.to_string(),
                None => self.status = "add a division first (d)".into(),
            },
            Act::Game => self.game(Some(match key {
                KeyCode::Char('1') => BoardGameResult::Win {
                    winner: Player::First,
                },
                KeyCode::Char('2') => BoardGameResult::Win {
                    winner: Player::Second,
                },
                _ => BoardGameResult::Draw,
            })),
            Act::Undo => self.game(None),
            Act::Forfeit => self.ask = Some((Ask::Forfeit, String::new())),
            Act::Pairings => self.view = View::Pairings,
            Act::Standings => self.view = View::Standings,
            Act::Crosstable => {
                // Left/Right on another view open the crosstable where it was.
                if self.view == View::Crosstable {
                    self.pan = match key {
                        KeyCode::Left => -1,
                        KeyCode::Right => 1,
                        _ => 0,
                    };
                }
                self.view = View::Crosstable;
            }
            Act::Why => self.view = View::Why,
            Act::AddPlayer => self.ask = Some((Ask::Player, String::new())),
            Act::AddDivision => self.ask = Some((Ask::Division, String::new())),
            Act::Swap => self.ask_if_division(Ask::SwapPlayers),
            Act::Withdraw => self.ask_if_division(Ask::WithdrawPlayer),
            Act::Absent => self.ask_if_division(Ask::Absent),
            Act::AttachPdn => {
                if self.selected_board().is_some() {
                    self.ask = Some((Ask::Pdn, String::new()));
                } else {
                    self.status = "pair a round first (p)".into();
                }
            }
            Act::Play => return self.play(ctx),
            Act::Export => self.export(),
            Act::Scroll => self.page = page_of(key),
            // A view (standings, crosstable, why) goes back to the round's pairings first.
            Act::Back if self.view != View::Pairings => self.view = View::Pairings,
            Act::Back => {
                self.open = None;
                self.refresh();
            }
        }
        Nav::Stay
    }

    /// The open event's lines; `ascii`: points in ASCII (`2.5`). With them, how many stay at
    /// the top when the rest scrolls (up to the table's column header) and the selected
    /// board's line.
    #[expect(clippy::cognitive_complexity, reason = "to be split into its steps")]
    #[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
    fn event_lines(
        &self,
        open: &OpenEvent,
        width: usize,
        ascii: bool,
    ) -> (Vec<Line<'static>>, usize, Option<usize>) {
        let mut out = Vec::new();
        let mut focus = None;
        let e = &open.event;
        let tabs: Vec<String> = e
            .divisions
            .iter()
            .enumerate()
            .map(|(k, d)| {
                if k == self.division {
                    format!("[{}]", d.name)
                } else {
                    d.name.clone()
                }
            })
            .collect();
        out.push(Line::from(format!(
            "{}   divisions: {}",
            e.info.name,
            if tabs.is_empty() {
                "none (d adds one)".into()
            } else {
                tabs.join(" ")
            }
        )));
        let Some(d) = e.divisions.get(self.division) else {
            return (out, 1, None);
        };
        let g = d.settings.games_per_round;
        out.push(Line::from(format!(
            "{} players, round {} of {}, {} games a round",
            d.entrants.len(),
            d.paired_rounds(),
            d.planned_rounds(),
            g
        )));
        out.push(Line::from(""));
        // The lines above the table's rows: a column header, where there is one, stays too.
        let mut head = out.len();
        match self.view {
            View::Pairings => match d.rounds.last() {
                None => {
                    for en in &d.entrants {
                        out.push(Line::from(format!("  {}", en.info.name)));
                    }
                    out.push(Line::from(
                        "No round paired yet: a enters players, p pairs round 1.",
                    ));
                }
                Some(r) => {
                    // Names as wide as the screen allows the state and its marks; the
                    // column heads laid out as the rows are.
                    let nw = (width.saturating_sub(40) / 2).clamp(8, 24);
                    out.push(Line::from(format!(
                        "Round {}: the first player has Red in game 1",
                        r.number
                    )));
                    out.push(Line::from(format!(
                        " {:>3}  {:<nw$} {:<nw$} {:<9} state",
                        "bd", "first", "second", "result"
                    )));
                    head = out.len();
                    for (k, b) in r.boards.iter().enumerate() {
                        let state = if b.is_complete(g) {
                            "done"
                        } else if b.result.is_some() {
                            "playing"
                        } else {
                            "waiting"
                        };
                        let mark = if k == self.board {
                            focus = Some(out.len());
                            ">"
                        } else {
                            " "
                        };
                        let pdn = match (&b.match_file, &b.pdn) {
                            (Some(_), Some(_)) => " crossboard pdn",
                            (Some(_), None) => " crossboard",
                            (None, Some(_)) => " pdn",
                            (None, None) => "",
                        };
                        out.push(Line::from(format!(
                            "{mark}{:>3}  {:<nw$} {:<nw$} {:<9} {state}{pdn}",
                            b.number,
                            clip(d.name(b.first), nw),
                            clip(d.name(b.second), nw),
                            result_text(b.result.as_ref())
                        )));
                    }
                    if let Some(b) = r.bye {
                        out.push(Line::from(format!("  bye  {}", d.name(b))));
                    }
                    let out_of: Vec<String> = d
                        .entrants
                        .iter()
                        .filter(|e| r.board_of(e.player).is_none() && r.bye != Some(e.player))
                        .map(|e| {
                            let why = if e.withdrawn_from.is_some_and(|w| w <= r.number) {
                                "withdrawn"
                            } else if e.from_round > r.number {
                                "entered later"
                            } else {
                                "absent"
                            };
                            format!("{} ({why})", e.info.name)
                        })
                        .collect();
                    if !out_of.is_empty() {
                        out.push(Line::from(clip(
                            &format!("  not paired: {}", out_of.join(", ")),
                            width,
                        )));
                    }
                    let next: Vec<String> = d
                        .entrants
                        .iter()
                        .filter(|e| e.absences.contains(&(r.number + 1)))
                        .map(|e| e.info.name.clone())
                        .collect();
                    if !next.is_empty() {
                        out.push(Line::from(clip(
                            &format!("  absent in round {}: {}", r.number + 1, next.join(", ")),
                            width,
                        )));
                    }
                    for (k, ballot) in r.ballots.iter().enumerate() {
                        out.push(Line::from(clip(
                            &format!("  ballot {}: {}", k + 1, ballot_text(&ballot.opening)),
                            width,
                        )));
                    }
                }
            },
            View::Standings | View::Crosstable => {
                let p = Published::new(e, d, u32::MAX).in_ascii(ascii);
                if self.view == View::Standings {
                    out.push(Line::from(format!(
                        "{:>5}  {:<28} {:>5}  tie-breaks",
                        "place", "name", "pts"
                    )));
                    head = out.len();
                    for s in &p.list {
                        let tb: Vec<String> = d
                            .settings
                            .tiebreaks
                            .iter()
                            .zip(&s.values)
                            .map(|(t, v)| format!("{} {}", t.short(), p.value(*t, *v)))
                            .collect();
                        out.push(Line::from(format!(
                            "{:>5}  {:<28} {:>5}  {}",
                            Published::place_text(s),
                            clip(&d.entrants[s.entrant].info.name, 28),
                            p.points(s.score),
                            tb.join("  ")
                        )));
                    }
                } else {
                    // Its column header stays.
                    let text = p.text();
                    let lines: Vec<&str> = text.lines().skip(2).collect();
                    // The table (to its first empty line) scrolls sideways behind its first
                    // columns (place, name); a line says which way there is more.
                    let table = lines
                        .iter()
                        .position(|l| l.is_empty())
                        .unwrap_or(lines.len());
                    let (frozen, most) = cross_layout(&lines[..table], width);
                    let at = self.hscroll.min(most);
                    if most > 0 {
                        out.push(Line::from(match (at, at == most) {
                            (0, _) => "Right scrolls the table: more columns to the right",
                            (_, true) => "Left scrolls the table back: more columns to the left",
                            _ => "Left/Right scroll the table: more columns on both sides",
                        }));
                    }
                    head = out.len() + 1;
                    for (k, l) in lines.iter().enumerate() {
                        if k < table {
                            let shown: String = l
                                .chars()
                                .take(frozen)
                                .chain(l.chars().skip(frozen + at))
                                .collect();
                            out.push(Line::from(clip(&shown, width)));
                        } else if l.starts_with(|c: char| c.is_alphabetic()) && l.contains(": ") {
                            // The notes wrap.
                            for w in super::widgets::wrap(l, width.max(20)) {
                                out.push(Line::from(w));
                            }
                        } else {
                            out.push(Line::from(clip(l, width)));
                        }
                    }
                }
            }
            View::Why => match d
                .rounds
                .last()
                .and_then(|r| r.boards.get(self.board).map(|b| (r, b)))
            {
                Some((r, b)) => {
                    for l in why(d, r, b.first) {
                        // Wrapped as drawn: in ASCII a half is `0.5`, longer than `½`.
                        let l = if ascii {
                            crate::publish::ascii_halves(&l)
                        } else {
                            l
                        };
                        for w in super::widgets::wrap(&l, width.max(20)) {
                            out.push(Line::from(w));
                        }
                    }
                }
                None => out.push(Line::from("No board selected.")),
            },
        }
        (out, head, focus)
    }

    /// How far the open division's crosstable can scroll sideways at `width`.
    fn cross_most(&self, width: usize, ascii: bool) -> usize {
        let Some((o, d)) = self
            .open
            .as_ref()
            .and_then(|o| Some((o, o.event.divisions.get(self.division)?)))
        else {
            return 0;
        };
        let text = Published::new(&o.event, d, u32::MAX).in_ascii(ascii).text();
        let lines: Vec<&str> = text.lines().skip(2).collect();
        let table = lines
            .iter()
            .position(|l| l.is_empty())
            .unwrap_or(lines.len());
        cross_layout(&lines[..table], width).1
    }

    /// What the screen shows above the status line, `width` columns wide.
    fn body(&self, width: usize, ascii: bool) -> Body {
        let mut lines: Vec<Line> = vec![Line::from("Tournament desk")];
        let (mut head, mut focus) = (1, None);
        match &self.open {
            Some(o) => {
                let (l, h, f) = self.event_lines(o, width, ascii);
                lines.extend(l);
                head += h;
                focus = f.map(|f| f + 1);
            }
            None => {
                if self.events.is_empty() {
                    lines.push(Line::from("No event yet: n creates one."));
                }
                for (k, e) in self.events.iter().enumerate() {
                    let mark = if k == self.selected {
                        focus = Some(lines.len());
                        ">"
                    } else {
                        " "
                    };
                    lines.push(Line::from(format!(
                        "{mark} {:>3}  {}",
                        e.id,
                        clip(&e.name, width.saturating_sub(8))
                    )));
                }
            }
        }
        Body { lines, head, focus }
    }

    /// After a key: the page asked for, or (any other key) the selection kept in view; the
    /// scroll kept within the rows. `area`: the screen's.
    fn settle(&mut self, area: Rect, ascii: bool) {
        let b = self.body(area.width as usize, ascii);
        let height = area.height.saturating_sub(3) as usize;
        let room = height.saturating_sub(b.head);
        let rows = b.lines.len().saturating_sub(b.head);
        let show = scroll_room(rows, room);
        let pan = std::mem::take(&mut self.pan);
        if pan != 0 {
            let most = self.cross_most(area.width as usize, ascii);
            let at = self.hscroll.min(most);
            self.hscroll = if pan < 0 {
                at.saturating_sub(PAN)
            } else {
                (at + PAN).min(most)
            };
        }
        let page = std::mem::take(&mut self.page);
        if page < 0 {
            self.scroll = self.scroll.saturating_sub(show);
        } else if page > 0 {
            self.scroll += show;
        } else if let Some(f) = b.focus.and_then(|f| f.checked_sub(b.head)) {
            if f < self.scroll {
                self.scroll = f;
            } else if f >= self.scroll + show {
                self.scroll = f + 1 - show;
            }
        }
        self.scroll = self.scroll.min(rows - show);
    }
}

/// The crosstable's rows (header first) on a screen `width` wide: the characters that stay
/// when it scrolls sideways (place and name, or the place alone when the names take more
/// than half the width), and how far it can scroll.
fn cross_layout(rows: &[&str], width: usize) -> (usize, usize) {
    let header = rows.first().copied().unwrap_or("");
    let frozen = match header.find("Club") {
        Some(at) if at <= width / 2 => at,
        _ => header.find("Name").unwrap_or(0),
    };
    let widest = rows.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (frozen, widest.saturating_sub(width.max(frozen)))
}

/// How far Left/Right scroll the crosstable.
const PAN: usize = 8;

/// The page a scroll key asks for: -1 up (PgUp), 1 down.
fn page_of(key: KeyCode) -> isize {
    if key == KeyCode::PageUp { -1 } else { 1 }
}

/// `s` in `n` columns, shortened with the marker (never silently cut).
fn clip(s: &str, n: usize) -> String {
    super::widgets::fit_text(s, n)
}

impl DeskScreen {
    /// A key, before the scroll is settled.
    fn handle(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let Msg::Key(k) = msg else { return Nav::Stay };
        if let Some((_, text)) = &mut self.ask {
            match (lookup(ASK_KEYS, k), k.code) {
                (Some(AskAct::Cancel), _) => self.ask = None,
                (Some(AskAct::Answer), _) => {
                    if let Some((ask, text)) = self.ask.take()
                        && !text.trim().is_empty()
                    {
                        self.answer(ask, text, ctx);
                    }
                }
                (Some(AskAct::Delete), _) => {
                    text.pop();
                }
                (Some(AskAct::Clear), _) => text.clear(),
                (None, KeyCode::Char(c)) if text.chars().count() < crate::event::MAX_TEXT => {
                    text.push(c)
                }
                (None, KeyCode::Char(_)) => {
                    self.status = format!("at most {} characters", crate::event::MAX_TEXT)
                }
                _ => {}
            }
            return Nav::Stay;
        }
        if self.open.is_some() {
            return match lookup(KEYS, k) {
                Some(a) => self.event_update(a, k.code, ctx),
                None => Nav::Stay,
            };
        }
        match lookup(LIST_KEYS, k) {
            Some(ListAct::Up) => self.selected = self.selected.saturating_sub(1),
            Some(ListAct::Down) => {
                self.selected = (self.selected + 1).min(self.events.len().saturating_sub(1))
            }
            Some(ListAct::Open) => {
                if let (Some(desk), Some(e)) = (&self.desk, self.events.get(self.selected)) {
                    match desk.load(e.id) {
                        Ok(o) => {
                            self.open = Some(o);
                            self.division = 0;
                            self.board = 0;
                            self.status.clear();
                        }
                        Err(e) => self.status = e.to_string(),
                    }
                }
            }
            Some(ListAct::New) => self.ask = Some((Ask::EventName, String::new())),
            Some(ListAct::Back) => return Nav::Pop,
            Some(ListAct::Scroll) => self.page = page_of(k.code),
            None => {}
        }
        Nav::Stay
    }
}

impl ScreenState for DeskScreen {
    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let shown = (self.open.is_some(), self.view, self.division);
        let nav = self.handle(msg, ctx);
        if (self.open.is_some(), self.view, self.division) != shown {
            self.scroll = 0;
            self.hscroll = 0;
        }
        self.settle(ctx.area, ctx.appearance.ascii);
        nav
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let width = area.width as usize;
        let Body {
            mut lines, head, ..
        } = self.body(width, look.ascii);
        if let Some(title) = lines.first_mut() {
            *title = Line::from(Span::styled("Tournament desk", look.accent()));
        }
        // The head stays; the rows below it scroll, with a marker counting those out of view.
        let height = area.height.saturating_sub(3) as usize;
        let head = head.min(height);
        let rows = lines.split_off(head);
        lines.extend(scrolled(
            rows,
            height - head,
            Scroll::Top(self.scroll),
            SCROLL_KEYS,
            look.dim(),
        ));
        // A line too long for the terminal (an event's or a player's long name) ends with the
        // marker rather than being cut silently.
        // In ASCII, half points as `2.5` before the layout (the frame's last pass has no
        // one-character stand-in for them).
        let lines: Vec<Line> = lines
            .into_iter()
            .map(|l| if look.ascii { ascii_line(l) } else { l })
            .map(|l| super::widgets::fit_line(l, width))
            .collect();
        frame.render_widget(
            Paragraph::new(lines),
            Rect {
                height: area.height.saturating_sub(3),
                ..area
            },
        );
        let prompt = match &self.ask {
            Some((ask, text)) => format!("{}: {text}_", ask.prompt(self.current_division())),
            None => String::new(),
        };
        let buf = frame.buffer_mut();
        buf.set_string(
            area.x,
            area.bottom().saturating_sub(3),
            clip(&look.text(&self.status), width),
            look.alert(),
        );
        buf.set_string(
            area.x,
            area.bottom().saturating_sub(2),
            // While typing, the end of the line (its cursor) stays in view.
            super::widgets::fit_tail(&prompt, width),
            look.accent(),
        );
        let keys = if self.ask.is_some() {
            footer(ASK_KEYS)
        } else if self.open.is_some() {
            footer(KEYS)
        } else {
            footer(LIST_KEYS)
        };
        let hint = super::keys::help_hint(self.ask.is_some());
        buf.set_string(
            area.x,
            area.bottom().saturating_sub(1),
            clip(&format!("{keys} · {hint}"), width),
            look.dim(),
        );
    }

    fn title(&self) -> String {
        "Tournament desk".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.ask.is_some() {
            help(ASK_KEYS)
        } else if self.open.is_some() {
            help(KEYS)
        } else {
            help(LIST_KEYS)
        }
    }

    fn chain(&self) -> Vec<super::keys::Erased> {
        use super::keys::erase;
        if self.ask.is_some() {
            vec![erase(ASK_KEYS)]
        } else if self.open.is_some() {
            vec![erase(KEYS)]
        } else {
            vec![erase(LIST_KEYS)]
        }
    }

    fn typing(&self) -> bool {
        self.ask.is_some()
    }

    fn uncovered(&mut self) {
        self.read_back_match();
    }
}

/// A division typed at the desk: `NAME [swiss:N|rr|drr] [GAMES] [english|pool|huffing|losing]`
/// (defaults: a 5-round Swiss of two-game rounds of English draughts). A word that is none of
/// these is refused, naming it.
pub(super) fn parse_division(text: &str) -> Result<(String, DivisionSettings), String> {
    let usage = "division: NAME swiss:N|rr|drr GAMES GAME, e.g. Masters swiss:5 2 pool";
    let mut words = text.split_whitespace();
    let name = words.next().ok_or(usage)?.to_string();
    let (mut format, mut games, mut game) = (Format::default(), 2, crate::engine::Rules::English);
    for w in words {
        if w == "rr" || w == "drr" {
            format = Format::RoundRobin {
                cycles: if w == "rr" { 1 } else { 2 },
            };
        } else if let Some(n) = w.strip_prefix("swiss:") {
            let rounds = n.parse().map_err(|_| format!("{w:?}: swiss:N, N rounds"))?;
            format = Format::Swiss { rounds };
        } else if let Ok(n) = w.parse::<u32>() {
            games = n;
        } else if let Ok(r) = w.parse() {
            game = r;
        } else {
            return Err(format!("{w:?}? {usage}"));
        }
    }
    let mut settings = DivisionSettings::new(
        format,
        games,
        crate::director::GamePoints::OneHalfZero,
        crate::event::ScoreUnit::Game,
    );
    settings.game = game;
    Ok((name, settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_tables_reach_every_binding_and_the_help() {
        crate::tui::keys::check_table(KEYS).unwrap();
        crate::tui::keys::check_table(LIST_KEYS).unwrap();
        crate::tui::keys::check_table(ASK_KEYS).unwrap();
    }
}
