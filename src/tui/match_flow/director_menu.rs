//! The director menu and its forms: pause/resume the clocks, adjust time, record a result or a
//! forfeit with a reason, take back moves, add a note. Opened only after a confirmation; every
//! action is confirmed again with a summary before it reaches the director.

use crate::director::Command;
use crate::engine::{Color, Outcome};
use crate::tui::keys::{
    BACKTAB, Binding, DOWN, ENTER, ESC, Key, LEFT, RIGHT, SPACE, TAB, UP, help, lookup,
};
use crate::tui::theme::Appearance;
use crate::tui::widgets::form::TEXT_KEYS;
use crate::tui::widgets::menu::{KeyHelp, Menu, MenuItem, MenuOutcome};
use crate::tui::widgets::{TextField, render_popup};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

/// The longest reason a director's form takes, in characters.
const REASON_MAX: usize = 200;
/// The longest note.
const NOTE_MAX: usize = 500;

/// What the keys of the director's forms do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FormAct {
    /// Close without doing anything.
    Cancel,
    /// The field above.
    Prev,
    /// The field below.
    Next,
    /// Submit (then confirm).
    Submit,
    /// The previous choice.
    Less,
    /// The next choice.
    More,
}

/// The menu's own key (its entries' letters choose an action).
pub(crate) static MENU_CLOSE_KEYS: &[Binding<FormAct>] = &[Binding::new(
    &[ESC, Key::Char('q')],
    FormAct::Cancel,
    "close the director menu",
)];

/// The keys of every form.
pub(crate) static FORM_KEYS: &[Binding<FormAct>] = &[
    Binding::new(&[ESC], FormAct::Cancel, "cancel: nothing is done"),
    Binding::new(&[UP, BACKTAB], FormAct::Prev, "the field above"),
    Binding::new(&[DOWN, TAB], FormAct::Next, "the field below"),
    Binding::new(
        &[ENTER],
        FormAct::Submit,
        "submit (a summary asks to confirm)",
    ),
];

/// The keys of a choice row (a text row takes them as text).
pub(crate) static CHOICE_KEYS: &[Binding<FormAct>] = &[
    Binding::new(&[LEFT], FormAct::Less, "the previous choice"),
    Binding::new(&[RIGHT, SPACE], FormAct::More, "the next choice"),
];

/// A director action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Pause the clocks (a dispute).
    Pause,
    /// Resume the clocks.
    Resume,
    /// Add or remove time.
    AdjustTime,
    /// Decide the game (adjudication).
    RecordResult,
    /// A forfeit.
    Forfeit,
    /// Take back moves.
    TakeBack,
    /// A note for the record.
    Note,
    /// Undo the last decision (a forfeit, an adjudication, an amended result).
    Undo,
}

impl Action {
    const MENU: [Action; 8] = [
        Action::Pause,
        Action::Resume,
        Action::AdjustTime,
        Action::RecordResult,
        Action::Forfeit,
        Action::Undo,
        Action::TakeBack,
        Action::Note,
    ];
}

/// One row of a director form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    /// Free text.
    Text(TextField),
    /// One of a few values (Left/Right).
    Choice(&'static str, Vec<String>, usize),
}

/// The director popup: the menu, then a form for the chosen action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectorPopup {
    /// Choosing an action.
    Menu(Menu),
    /// Filling in an action's form.
    Form {
        /// The action.
        action: Action,
        /// Its rows.
        rows: Vec<Row>,
        /// Focused row.
        focus: usize,
        /// Why the form cannot be submitted yet.
        error: Option<String>,
    },
}

/// What a key did to the director popup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectorOutcome {
    /// Still open.
    Open,
    /// Closed with nothing done.
    Closed,
    /// Submit this command (after a confirmation), described by the text.
    Submit(Command, String),
}

impl DirectorPopup {
    /// The menu.
    pub fn menu() -> DirectorPopup {
        DirectorPopup::Menu(Menu::new(
            "Director",
            vec![
                MenuItem::new('p', "Pause clocks", "a dispute: stop both clocks"),
                MenuItem::new('c', "Resume clocks", "continue after a pause"),
                MenuItem::new('t', "Adjust time", "add or remove time"),
                MenuItem::new('r', "Record a result", "adjudicate the game, with a reason"),
                MenuItem::new('f', "Forfeit", "a player forfeits the game, with a reason"),
                MenuItem::new(
                    'u',
                    "Undo the last decision",
                    "a wrong forfeit, adjudication or result",
                ),
                MenuItem::new(
                    'b',
                    "Take back moves",
                    "correct an illegal move or mis-entry",
                ),
                MenuItem::new('n', "Add a note", "for the record"),
            ],
        ))
    }

    fn form(action: Action) -> DirectorPopup {
        let colours = || vec!["Red".to_string(), "White".to_string()];
        let reason = || Row::Text(TextField::new("Reason", "").with_max_len(REASON_MAX));
        let rows = match action {
            Action::Pause => vec![reason()],
            Action::Resume => Vec::new(),
            Action::AdjustTime => {
                let mut secs = TextField::new("Seconds", "60");
                secs.hint = "negative removes time".into();
                vec![
                    Row::Choice("Clock of", colours(), 0),
                    Row::Text(secs),
                    reason(),
                ]
            }
            Action::RecordResult => vec![
                Row::Choice(
                    "Result",
                    vec!["Red wins".into(), "White wins".into(), "draw".into()],
                    0,
                ),
                reason(),
            ],
            Action::Forfeit => vec![Row::Choice("Forfeited by", colours(), 0), reason()],
            Action::TakeBack => vec![Row::Text(TextField::new("Moves (plies)", "1")), reason()],
            Action::Note => vec![Row::Text(TextField::new("Note", "").with_max_len(NOTE_MAX))],
            Action::Undo => vec![reason()],
        };
        DirectorPopup::Form {
            action,
            rows,
            focus: 0,
            error: None,
        }
    }

    /// True while a text row has focus (letters are typed, not shortcuts).
    pub fn typing(&self) -> bool {
        match self {
            DirectorPopup::Menu(_) => false,
            DirectorPopup::Form { rows, focus, .. } => {
                matches!(rows.get(*focus), Some(Row::Text(_)))
            }
        }
    }

    /// The help lines of the menu or the form shown.
    pub fn help(&self) -> Vec<KeyHelp> {
        match self {
            DirectorPopup::Menu(menu) => {
                let mut lines = help(MENU_CLOSE_KEYS);
                lines.extend(menu.help());
                lines
            }
            DirectorPopup::Form { rows, focus, .. } => {
                let mut lines = help(FORM_KEYS);
                match rows.get(*focus) {
                    Some(Row::Text(_)) => lines.extend(help(TEXT_KEYS)),
                    Some(Row::Choice(..)) => lines.extend(help(CHOICE_KEYS)),
                    None => {}
                }
                lines
            }
        }
    }

    /// The key tables of the menu or the form shown, in the order [`DirectorPopup::key`] looks
    /// a key up in them.
    pub fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        use crate::tui::keys::erase;
        match self {
            DirectorPopup::Menu(menu) => vec![
                erase(MENU_CLOSE_KEYS),
                erase(crate::tui::widgets::menu::MENU_KEYS),
                menu.item_keys(),
            ],
            DirectorPopup::Form { rows, focus, .. } => {
                let mut chain = vec![erase(FORM_KEYS)];
                match rows.get(*focus) {
                    Some(Row::Text(_)) => chain.push(erase(TEXT_KEYS)),
                    Some(Row::Choice(..)) => chain.push(erase(CHOICE_KEYS)),
                    None => {}
                }
                chain
            }
        }
    }

    /// Handle a key.
    pub fn key(&mut self, key: &KeyEvent) -> DirectorOutcome {
        match self {
            DirectorPopup::Menu(menu) => match lookup(MENU_CLOSE_KEYS, key) {
                Some(FormAct::Cancel) => DirectorOutcome::Closed,
                _ => match menu.key(key) {
                    MenuOutcome::Chosen(i) => {
                        let action = Action::MENU[i];
                        if action == Action::Resume {
                            return DirectorOutcome::Submit(
                                Command::ResumeClocks,
                                "Resume the clocks".into(),
                            );
                        }
                        *self = DirectorPopup::form(action);
                        DirectorOutcome::Open
                    }
                    _ => DirectorOutcome::Open,
                },
            },
            DirectorPopup::Form {
                action,
                rows,
                focus,
                error,
            } => {
                let n = rows.len().max(1);
                match lookup(FORM_KEYS, key) {
                    Some(FormAct::Cancel) => return DirectorOutcome::Closed,
                    Some(FormAct::Prev) => *focus = (*focus + n - 1) % n,
                    Some(FormAct::Next) => *focus = (*focus + 1) % n,
                    Some(FormAct::Submit) => match build(*action, rows) {
                        Ok((cmd, text)) => return DirectorOutcome::Submit(cmd, text),
                        Err(e) => *error = Some(e),
                    },
                    Some(_) | None => match rows.get_mut(*focus) {
                        Some(Row::Text(t)) => {
                            t.key(key);
                            *error = None;
                        }
                        Some(Row::Choice(_, options, i)) => {
                            let m = options.len();
                            match lookup(CHOICE_KEYS, key) {
                                Some(FormAct::Less) => *i = (*i + m - 1) % m,
                                Some(FormAct::More) => *i = (*i + 1) % m,
                                _ => {}
                            }
                        }
                        None => {}
                    },
                }
                DirectorOutcome::Open
            }
        }
    }

    /// Draw over the frame.
    pub fn render(&self, frame: &mut Frame, look: &Appearance) {
        match self {
            DirectorPopup::Menu(menu) => {
                let (w, h) = menu.size();
                let r = crate::tui::widgets::centered(frame.area(), w, h);
                frame.render_widget(ratatui::widgets::Clear, r);
                menu.render(r, frame.buffer_mut(), look);
            }
            DirectorPopup::Form {
                action,
                rows,
                focus,
                error,
            } => {
                let mut lines: Vec<Line> = Vec::new();
                for (i, row) in rows.iter().enumerate() {
                    let focused = i == *focus;
                    lines.push(match row {
                        Row::Text(t) => t.line(14, focused, look),
                        Row::Choice(label, options, v) => {
                            let marker = if focused { look.glyphs().to_move } else { " " };
                            Line::from(vec![
                                Span::styled(format!("{marker} "), look.accent()),
                                Span::styled(format!("{label:<14}  "), look.dim()),
                                Span::styled(
                                    format!("‹ {} ›", options[*v]),
                                    if focused {
                                        look.accent().add_modifier(Modifier::UNDERLINED)
                                    } else {
                                        ratatui::style::Style::new()
                                    },
                                ),
                            ])
                        }
                    });
                }
                lines.push(Line::from(""));
                if let Some(e) = error {
                    lines.push(Line::from(Span::styled(e.clone(), look.alert())));
                }
                lines.push(Line::from(Span::styled(
                    "↑↓ field · ←→ choose · Enter submit · Esc cancel",
                    look.dim(),
                )));
                let title = format!("Director: {}", action_title(*action));
                render_popup(frame, &title, lines, look);
            }
        }
    }
}

fn action_title(a: Action) -> &'static str {
    match a {
        Action::Pause => "pause clocks",
        Action::Resume => "resume clocks",
        Action::AdjustTime => "adjust time",
        Action::RecordResult => "record a result",
        Action::Forfeit => "forfeit",
        Action::TakeBack => "take back moves",
        Action::Note => "add a note",
        Action::Undo => "undo the last decision",
    }
}

fn text(rows: &[Row], i: usize) -> String {
    match rows.get(i) {
        Some(Row::Text(t)) => t.value.trim().to_string(),
        _ => String::new(),
    }
}

fn choice(rows: &[Row], i: usize) -> usize {
    match rows.get(i) {
        Some(Row::Choice(_, _, v)) => *v,
        _ => 0,
    }
}

fn colour(i: usize) -> Color {
    if i == 0 { Color::Red } else { Color::White }
}

/// The command a filled form asks for, with a one-line summary; or what is missing.
fn build(action: Action, rows: &[Row]) -> Result<(Command, String), String> {
    match action {
        Action::Pause => pause(rows),
        Action::Resume => Ok((Command::ResumeClocks, "Resume the clocks".into())),
        Action::AdjustTime => adjust_time(rows),
        Action::RecordResult => record_result(rows),
        Action::Forfeit => forfeit(rows),
        Action::TakeBack => take_back(rows),
        Action::Undo => undo(rows),
        Action::Note => note(rows),
    }
}

/// `s`, or that a `what` is needed when it is empty.
fn needed(s: String, what: &str) -> Result<String, String> {
    if s.is_empty() {
        Err(format!("a {what} is needed"))
    } else {
        Ok(s)
    }
}

/// Pause both clocks, for a reason.
fn pause(rows: &[Row]) -> Result<(Command, String), String> {
    let reason = needed(text(rows, 0), "reason")?;
    let summary = format!("Pause both clocks ({reason})");
    Ok((Command::PauseClocks { reason }, summary))
}

/// Add time to a clock or take it off (negative seconds), for a reason.
fn adjust_time(rows: &[Row]) -> Result<(Command, String), String> {
    let c = colour(choice(rows, 0));
    let secs: i64 = text(rows, 1)
        .parse()
        .map_err(|_| "seconds: a whole number, negative to remove".to_string())?;
    let reason = needed(text(rows, 2), "reason")?;
    let summary = format!(
        "{} {} s {} {c}'s clock ({reason})",
        if secs < 0 { "Remove" } else { "Add" },
        secs.abs(),
        if secs < 0 { "from" } else { "to" }
    );
    let command = Command::AdjustTime {
        colour: c,
        delta_ms: secs * 1000,
        reason,
    };
    Ok((command, summary))
}

/// Adjudicate the game: a win for either colour or a draw, for a reason.
fn record_result(rows: &[Row]) -> Result<(Command, String), String> {
    let outcome = match choice(rows, 0) {
        0 => Outcome::Win(Color::Red),
        1 => Outcome::Win(Color::White),
        _ => Outcome::Draw,
    };
    let reason = needed(text(rows, 1), "reason")?;
    let what = match outcome {
        Outcome::Win(c) => format!("{c} wins"),
        Outcome::Draw => "a draw".into(),
    };
    let summary = format!("Record the game as {what} ({reason})");
    Ok((Command::Adjudicate { outcome, reason }, summary))
}

/// A colour forfeits the game, for a reason.
fn forfeit(rows: &[Row]) -> Result<(Command, String), String> {
    let loser = colour(choice(rows, 0));
    let reason = needed(text(rows, 1), "reason")?;
    let summary = format!("{loser} forfeits the game ({reason})");
    Ok((Command::Forfeit { loser, reason }, summary))
}

/// Take back a number of plies, for a reason.
fn take_back(rows: &[Row]) -> Result<(Command, String), String> {
    let moves: u32 = text(rows, 0)
        .parse()
        .map_err(|_| "moves: a whole number of plies".to_string())?;
    let reason = needed(text(rows, 1), "reason")?;
    let summary = take_back_summary(moves, &reason);
    Ok((Command::TakeBack { moves, reason }, summary))
}

/// "Take back 2 plies (reason)": the number typed counts plies, and says so.
fn take_back_summary(plies: u32, reason: &str) -> String {
    let unit = if plies == 1 { "ply" } else { "plies" };
    format!("Take back {plies} {unit} ({reason})")
}

/// Undo the last director decision, for a reason.
fn undo(rows: &[Row]) -> Result<(Command, String), String> {
    let reason = needed(text(rows, 0), "reason")?;
    let summary = format!("Undo the last director decision ({reason})");
    Ok((Command::UndoDecision { reason }, summary))
}

/// A note for the record.
fn note(rows: &[Row]) -> Result<(Command, String), String> {
    let t = needed(text(rows, 0), "note")?;
    let summary = format!("Add the note: {t}");
    Ok((Command::Note { text: t }, summary))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};

    fn k(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn a_forfeit_needs_a_reason_and_names_the_loser() {
        let mut p = DirectorPopup::menu();
        assert_eq!(p.key(&k(KeyCode::Char('f'))), DirectorOutcome::Open);
        assert_eq!(p.key(&k(KeyCode::Right)), DirectorOutcome::Open);
        assert_eq!(p.key(&k(KeyCode::Enter)), DirectorOutcome::Open);
        assert!(matches!(&p, DirectorPopup::Form { error: Some(_), .. }));
        p.key(&k(KeyCode::Down));
        assert!(p.typing());
        for c in "late".chars() {
            p.key(&k(KeyCode::Char(c)));
        }
        let DirectorOutcome::Submit(cmd, text) = p.key(&k(KeyCode::Enter)) else {
            panic!("submits");
        };
        assert_eq!(
            cmd,
            Command::Forfeit {
                loser: Color::White,
                reason: "late".into()
            }
        );
        assert_eq!(text, "White forfeits the game (late)");
    }

    #[test]
    fn the_form_tables_are_consistent() {
        for t in [MENU_CLOSE_KEYS, FORM_KEYS, CHOICE_KEYS] {
            crate::tui::keys::check_table(t).unwrap();
        }
    }
    #[test]
    fn a_take_back_counts_plies_in_its_words() {
        assert_eq!(
            super::take_back_summary(2, "slip"),
            "Take back 2 plies (slip)"
        );
        assert_eq!(
            super::take_back_summary(1, "slip"),
            "Take back 1 ply (slip)"
        );
    }
}
