//! The desk's key tables: the list of events, an open event, a line being typed.

use crate::tui::keys::{
    BACKSPACE, Binding, DOWN, ENTER, ESC, Key, LEFT, PAGE_DOWN, PAGE_UP, RIGHT, TAB, UP,
};
use ratatui::crossterm::event::KeyCode;

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
pub(super) const SCROLL_HELP: &str = "a page up or down (a marker counts the rows out of view)";

/// The scroll keys as the marker names them.
pub(super) const SCROLL_KEYS: &str = "PgUp PgDn";

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
    /// The board's record: attach a PDN of its games (g), or re-sync the desk's copy of its
    /// match file (R: put aside, the board sends its file again).
    BoardRecord,
    Play,
    /// Export (e), or the round's sheets to print (S: asks the paper).
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
        &[Key::Char('a'), Key::Char('I')],
        Act::AddPlayer,
        "enter a player, late once paired (I: import a list, CSV)",
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
        &[Key::Char('A'), Key::Char('B')],
        Act::Absent,
        "a player will miss a round (B: asks for a requested bye)",
    ),
    Binding::new(
        &[Key::Char('P')],
        Act::Play,
        "play the board on crossboard (again: resume its match)",
    )
    .footer("play"),
    Binding::new(
        &[Key::Char('g'), Key::Char('R')],
        Act::BoardRecord,
        "attach a PDN of the board's games (R: re-sync the desk's copy)",
    ),
    Binding::new(
        &[Key::Char('d')],
        Act::AddDivision,
        "add a division: NAME swiss:N|rr|drr GAMES",
    ),
    Binding::new(
        &[Key::Char('e'), Key::Char('S')],
        Act::Export,
        "export crosstable, PDN (S: sheets of the round to print)",
    ),
    Binding::new(
        &[ESC, Key::Char('q')],
        Act::Back,
        "back to the pairings; from them, back to the events",
    )
    .footer("back"),
    Binding::new(&[PAGE_UP, PAGE_DOWN], Act::Scroll, SCROLL_HELP),
];

/// The page a scroll key asks for: -1 up (PgUp), 1 down.
pub(super) fn page_of(key: KeyCode) -> isize {
    if key == KeyCode::PageUp { -1 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn key_tables_reach_every_binding_and_the_help() {
        crate::tui::keys::check_table(KEYS).unwrap();
        crate::tui::keys::check_table(LIST_KEYS).unwrap();
        crate::tui::keys::check_table(ASK_KEYS).unwrap();
    }
}
