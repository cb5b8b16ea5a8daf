//! Form pieces for set-up screens and guarded actions: a text field validated as you type, and
//! a confirmation popup.

use super::game_screen::{centered, framed};
use super::{CUT, fit_line, wrap_line};
use crate::tui::keys::{BACKSPACE, Binding, Key, lookup};
use crate::tui::theme::Appearance;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

/// What the editing keys of a text field do (other characters are typed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextAct {
    /// Delete the last character.
    Delete,
    /// Clear the field.
    Clear,
}

/// The editing keys of every text field.
pub static TEXT_KEYS: &[Binding<TextAct>] = &[
    Binding::new(&[BACKSPACE], TextAct::Delete, "delete the last character"),
    Binding::new(&[Key::Ctrl('u')], TextAct::Clear, "clear the field"),
];

/// A one-line text field with a label, a hint and the current validation error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextField {
    /// What the field is ("Red player", "Minutes per game").
    pub label: String,
    /// The text typed.
    pub value: String,
    /// Why the value is not acceptable, set by the owner after each change (validated as you
    /// type).
    pub error: Option<String>,
    /// What may be typed ("1-180").
    pub hint: String,
    /// Longest value accepted, in characters: a character more is refused and the limit
    /// shown (never cut silently).
    pub max_len: usize,
    /// The last character typed was refused: the field is full.
    pub full: bool,
    /// The value is the default, not yet edited: the first character typed replaces it.
    pub pristine: bool,
}

impl TextField {
    /// A field holding `value` (the default).
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> TextField {
        TextField {
            label: label.into(),
            value: value.into(),
            error: None,
            hint: String::new(),
            max_len: 40,
            pristine: true,
            full: false,
        }
    }

    /// The same field with another length limit.
    pub fn with_max_len(mut self, max_len: usize) -> TextField {
        self.max_len = max_len;
        self
    }

    /// Edit with a key: printable characters, Backspace, Ctrl-U (clear). True if the value
    /// changed (then revalidate). A character beyond [`TextField::max_len`] is refused and
    /// [`TextField::full`] set, so the line shows the limit.
    pub fn key(&mut self, key: &KeyEvent) -> bool {
        let before = self.value.clone();
        match lookup(TEXT_KEYS, key) {
            Some(TextAct::Delete) => {
                self.value.pop();
            }
            Some(TextAct::Clear) => self.value.clear(),
            None => match key.code {
                KeyCode::Char(c)
                    if !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
                {
                    if self.pristine {
                        self.value.clear();
                    }
                    if self.value.chars().count() < self.max_len {
                        self.value.push(c);
                    } else {
                        self.full = true;
                        return false;
                    }
                }
                _ => return false,
            },
        }
        self.full = false;
        self.pristine = false;
        self.value != before
    }

    /// The note shown when a character was refused: "at most 40 characters".
    pub fn limit_note(&self) -> Option<String> {
        self.full
            .then(|| format!("at most {} characters", self.max_len))
    }

    /// Validate with `check`: keeps the error (or clears it) and returns whether it is valid.
    pub fn validate<T, E: ToString>(&mut self, check: impl Fn(&str) -> Result<T, E>) -> bool {
        match check(&self.value) {
            Ok(_) => {
                self.error = None;
                true
            }
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    /// [`TextField::line`] in at most `width` columns: an error or limit note that does not
    /// fit is replaced by a pointer to the full message shown elsewhere (never cut), a hint
    /// that does not fit is left out.
    pub fn line_fit(
        &self,
        label_width: usize,
        focused: bool,
        look: &Appearance,
        width: usize,
    ) -> Line<'static> {
        let mut line = self.line(label_width, focused, look);
        if line.width() > width && line.spans.len() > 3 {
            let note = line.spans.pop();
            let failed = self.error.is_some() || self.full;
            if failed {
                let short = match self.limit_note() {
                    Some(n) if line.width() + n.len() + 2 <= width => n,
                    _ => "see below".to_string(),
                };
                line.spans
                    .push(Span::styled(format!("  {short}"), look.alert()));
            }
            drop(note);
        }
        if line.width() > width && line.spans.len() >= 3 {
            // The value itself is longer than the row: while typing, its end (with the
            // cursor) is shown after the marker; otherwise its start, then the marker.
            let others: usize = line
                .spans
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != 2)
                .map(|(_, s)| s.width())
                .sum();
            let room = width.saturating_sub(others).max(2);
            let value = line.spans[2].content.to_string();
            let shown: String = if focused {
                super::fit_tail(&value, room)
            } else {
                super::fit_text(&value, room)
            };
            line.spans[2].content = shown.into();
        }
        line
    }

    /// The field as one line: label, value (a cursor when focused), then the error or hint.
    pub fn line(&self, label_width: usize, focused: bool, look: &Appearance) -> Line<'static> {
        let marker = if focused { look.glyphs().to_move } else { " " };
        let mut value_style = if focused {
            look.accent().add_modifier(Modifier::UNDERLINED)
        } else {
            ratatui::style::Style::new()
        };
        if self.error.is_some() {
            value_style = value_style.patch(look.alert());
        }
        let mut spans = vec![
            Span::styled(format!("{marker} "), look.accent()),
            Span::styled(format!("{:<label_width$}  ", self.label), look.dim()),
            Span::styled(
                format!("{}{}", self.value, if focused { "_" } else { "" }),
                value_style,
            ),
        ];
        match (&self.error, self.limit_note()) {
            (_, Some(note)) => spans.push(Span::styled(format!("  {note}"), look.alert())),
            (Some(e), None) => spans.push(Span::styled(format!("  {e}"), look.alert())),
            (None, None) if !self.hint.is_empty() => {
                spans.push(Span::styled(format!("  {}", self.hint), look.dim()))
            }
            (None, None) => {}
        }
        Line::from(spans)
    }
}

/// A question that needs an explicit "y" (guards director actions and anything irreversible).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirm {
    /// Box title.
    pub title: String,
    /// The question, one entry per line.
    pub lines: Vec<String>,
}

/// The answer to a [`Confirm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfirmOutcome {
    /// Not answered yet (any other key).
    Pending,
    /// "y" was pressed.
    Yes,
    /// "n" or Esc was pressed.
    No,
}

impl Confirm {
    /// A confirmation.
    pub fn new(title: impl Into<String>, lines: Vec<String>) -> Confirm {
        Confirm {
            title: title.into(),
            lines,
        }
    }

    /// Read the answer from a key ([`CONFIRM_KEYS`]): only `y`/`Y` confirms,
    /// `n`/`N`/Esc/`q` cancels.
    pub fn key(&self, key: &KeyEvent) -> ConfirmOutcome {
        match lookup(CONFIRM_KEYS, key) {
            Some(ConfirmAct::Yes) => ConfirmOutcome::Yes,
            Some(ConfirmAct::No) => ConfirmOutcome::No,
            None => ConfirmOutcome::Pending,
        }
    }

    /// Draw centred over the frame.
    pub fn render(&self, frame: &mut Frame, look: &Appearance) {
        let mut lines: Vec<Line> = self.lines.iter().map(|l| Line::from(l.clone())).collect();
        lines.push(Line::from(""));
        lines.push(Line::from(vec![
            Span::styled(" y ", look.accent().add_modifier(Modifier::REVERSED)),
            Span::raw(" yes    "),
            Span::styled(" n ", look.accent().add_modifier(Modifier::REVERSED)),
            Span::raw(" no (Esc)"),
        ]));
        render_popup(frame, &self.title, lines, look);
    }
}

/// What the keys of a yes/no question do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfirmAct {
    /// Yes.
    Yes,
    /// No.
    No,
}

/// The keys of every yes/no question (only `y` confirms).
pub static CONFIRM_KEYS: &[Binding<ConfirmAct>] = &[
    Binding::new(&[Key::Char('y'), Key::Char('Y')], ConfirmAct::Yes, "yes"),
    Binding::new(
        &[
            Key::Char('n'),
            Key::Char('N'),
            Key::Char('q'),
            crate::tui::keys::ESC,
        ],
        ConfirmAct::No,
        "no",
    ),
];

/// The help of a yes/no question.
pub fn confirm_help() -> Vec<crate::tui::widgets::menu::KeyHelp> {
    crate::tui::keys::help(CONFIRM_KEYS)
}

/// A titled box of lines centred over the frame, clearing what is under it. Lines wider than
/// the frame wrap and the box grows to hold them; when the frame is too short even so, the
/// last line (a question's keys) stays whole and the text above it is shortened, marked.
pub fn render_popup(frame: &mut Frame, title: &str, lines: Vec<Line>, look: &Appearance) {
    let area = frame.area();
    let w = lines
        .iter()
        .map(|l| l.width() as u16)
        .max()
        .unwrap_or(10)
        .max(title.chars().count() as u16 + 4)
        + 4;
    let w = w.min(area.width.saturating_sub(4));
    let rows = popup_rows(
        lines,
        w.saturating_sub(2) as usize,
        area.height.saturating_sub(2) as usize,
    );
    let r = centered(area, w, rows.len() as u16 + 2);
    frame.render_widget(Clear, r);
    let block = framed(title, look.accent(), look);
    frame.render_widget(
        Paragraph::new(rows).block(block).wrap(Wrap { trim: false }),
        r,
    );
}

/// A popup's lines wrapped to `width`, in at most `room` rows: when they do not fit, the
/// last line is kept and the rows above it cut, the last one kept ending with the marker.
fn popup_rows(mut lines: Vec<Line>, width: usize, room: usize) -> Vec<Line> {
    let keys: Vec<Line> = lines.pop().map(|l| wrap_line(l, width)).unwrap_or_default();
    let mut rows: Vec<Line> = lines
        .into_iter()
        .flat_map(|l| wrap_line(l, width))
        .collect();
    let body_room = room.saturating_sub(keys.len());
    if rows.len() > body_room {
        rows.truncate(body_room);
        if let Some(last) = rows.pop() {
            let mut marked = last;
            marked.spans.push(Span::raw(CUT.to_string()));
            rows.push(fit_line(marked, width));
        }
    }
    rows.extend(keys);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn field_edits_and_validates_as_you_type() {
        let mut f = TextField::new("Minutes", "30");
        // The default gives way to the first key typed; then keys go on from what is there.
        assert!(f.key(&k(KeyCode::Char('4'))));
        assert_eq!(f.value, "4");
        f.value = "30".into();
        assert!(f.key(&k(KeyCode::Char('x'))));
        assert!(!f.validate(|v| v.parse::<u32>()));
        assert!(f.error.is_some());
        assert!(f.key(&k(KeyCode::Backspace)));
        assert!(f.validate(|v| v.parse::<u32>()));
        assert_eq!(f.value, "30");
        assert!(f.error.is_none());
        assert!(f.key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)));
        assert!(f.value.is_empty());
    }

    #[test]
    fn a_character_past_the_limit_is_refused_and_the_limit_shown() {
        let mut f = TextField::new("Name", "abc").with_max_len(3);
        f.pristine = false;
        assert!(!f.key(&k(KeyCode::Char('d'))));
        assert_eq!(f.value, "abc");
        assert_eq!(f.limit_note().as_deref(), Some("at most 3 characters"));
        let line: String = f
            .line(6, true, &Appearance::plain())
            .spans
            .iter()
            .map(|s| s.content.to_string())
            .collect();
        assert!(line.contains("at most 3 characters"), "{line}");
        assert!(f.key(&k(KeyCode::Backspace)));
        assert_eq!(f.limit_note(), None);
        crate::tui::keys::check_table(TEXT_KEYS).unwrap();
    }

    #[test]
    fn only_y_confirms() {
        let c = Confirm::new("Forfeit", vec!["Record a forfeit?".into()]);
        assert_eq!(c.key(&k(KeyCode::Enter)), ConfirmOutcome::Pending);
        assert_eq!(c.key(&k(KeyCode::Char(' '))), ConfirmOutcome::Pending);
        assert_eq!(c.key(&k(KeyCode::Char('y'))), ConfirmOutcome::Yes);
        assert_eq!(c.key(&k(KeyCode::Esc)), ConfirmOutcome::No);
    }
}
