//! The match screen's key tables: the game, the board, the resign question.

use crate::tui::keys::{Binding, Key};

/// What the screen's own keys do (every stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// The director menu (asks first).
    Director,
    /// Leave the match (asks first; it is saved).
    Leave,
    /// The event log.
    Log,
    /// Export every game as PDN.
    Export,
    /// Flip the board.
    Flip,
    /// Square numbers.
    Numbers,
}

/// The keys of every stage.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(&[Key::Char('e')], Act::Export, "export every game to PDN").footer("export"),
    Binding::new(
        &[Key::Char('L')],
        Act::Log,
        "the event log (director decisions, notes)",
    )
    .footer("log"),
    Binding::new(
        &[Key::Char('D')],
        Act::Director,
        "director menu (asks first)",
    )
    .footer("director"),
    Binding::new(
        &[Key::Char('q')],
        Act::Leave,
        "leave the match (it is saved; asks first)",
    )
    .footer("leave"),
];

/// The keys of the stages that show the board.
pub(crate) static BOARD_KEYS: &[Binding<Act>] = &[
    Binding::new(&[Key::Char('f')], Act::Flip, "flip the board"),
    Binding::new(
        &[Key::Char('n')],
        Act::Numbers,
        "show or hide square numbers",
    ),
];

/// What the keys of the "who resigns?" question do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ResignAct {
    /// Red resigns.
    Red,
    /// White resigns.
    White,
    /// Nobody.
    Nobody,
}

/// The keys of the "who resigns?" question.
pub(crate) static RESIGN_KEYS: &[Binding<ResignAct>] = &[
    Binding::new(
        &[Key::Char('r')],
        ResignAct::Red,
        "Red resigns (then confirm)",
    ),
    Binding::new(
        &[Key::Char('w')],
        ResignAct::White,
        "White resigns (then confirm)",
    ),
    Binding::new(
        &[crate::tui::keys::ESC, Key::Char('n'), Key::Char('q')],
        ResignAct::Nobody,
        "nobody resigns",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn the_screen_tables_are_consistent() {
        crate::tui::keys::check_table(KEYS).unwrap();
        crate::tui::keys::check_table(BOARD_KEYS).unwrap();
        crate::tui::keys::check_table(RESIGN_KEYS).unwrap();
    }
}
