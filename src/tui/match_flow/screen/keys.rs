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
    /// Write the match's sheets to print.
    Sheets,
    /// Flip the board.
    Flip,
    /// Square numbers.
    Numbers,
    /// Serve the match live to browsers, or see where it is served (and stop).
    Serve,
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
        &[Key::Char('S')],
        Act::Serve,
        "serve the match live to browsers (or stop)",
    ),
    Binding::new(
        &[Key::Char('q')],
        Act::Leave,
        "leave the match (it is saved; asks first)",
    )
    .footer("leave"),
];

/// The key of the stages between games (a game's own keys fill its help).
pub(crate) static SHEET_KEYS: &[Binding<Act>] = &[Binding::new(
    &[Key::Char('P')],
    Act::Sheets,
    "print: score sheets, result slip, report (HTML, A4)",
)];

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

/// What the keys of the "serve live to whom?" question do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ServeAct {
    /// This machine only (127.0.0.1).
    Here,
    /// The hall: every interface of this machine (0.0.0.0).
    Hall,
    /// Not now.
    Cancel,
}

/// The keys of the "serve live to whom?" question.
pub(crate) static SERVE_KEYS: &[Binding<ServeAct>] = &[
    Binding::new(
        &[Key::Char('l'), Key::Char('1')],
        ServeAct::Here,
        "serve to this machine only (127.0.0.1)",
    ),
    Binding::new(
        &[Key::Char('h'), Key::Char('2')],
        ServeAct::Hall,
        "serve to the hall (0.0.0.0: every network of this machine)",
    ),
    Binding::new(
        &[crate::tui::keys::ESC, Key::Char('q')],
        ServeAct::Cancel,
        "do not serve",
    ),
];

/// What the keys of the "served at" box do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ServingAct {
    /// Stop serving.
    Stop,
    /// Close the box (serving goes on).
    Close,
}

/// The keys of the "served at" box.
pub(crate) static SERVING_KEYS: &[Binding<ServingAct>] = &[
    Binding::new(
        &[Key::Char('s')],
        ServingAct::Stop,
        "stop serving the match",
    ),
    Binding::new(
        &[
            crate::tui::keys::ESC,
            crate::tui::keys::ENTER,
            Key::Char('q'),
        ],
        ServingAct::Close,
        "close this box (the match is still served)",
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
        crate::tui::keys::check_table(SERVE_KEYS).unwrap();
        crate::tui::keys::check_table(SERVING_KEYS).unwrap();
    }
}
