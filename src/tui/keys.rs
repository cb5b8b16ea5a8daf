//! Key-binding tables: one table of `(keys, action, help text)` per screen (or stage), from
//! which both the key handling ([`lookup`]) and the `?` help and footers ([`help`],
//! [`footer`]) are produced, so the help can never drift from the keys.
//!
//! A screen declares `static KEYS: &[Binding<Act>]` with its own action enum, looks a key up
//! with [`lookup`] and matches the action; [`help`] turns the same table into help lines.

use super::widgets::menu::KeyHelp;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key as a binding table names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A character typed without Ctrl or Alt (Shift is part of the character: `D`).
    Char(char),
    /// Ctrl and a letter (`Ctrl('u')` is Ctrl-U).
    Ctrl(char),
    /// A named key (Enter, Esc, Tab, arrows, Home, F1, ...), without Ctrl or Alt.
    Code(KeyCode),
    /// Any digit 0-9.
    Digit,
}

/// `Key::Code(KeyCode::Enter)`, shorter.
pub(super) const ENTER: Key = Key::Code(KeyCode::Enter);
/// Esc.
pub(super) const ESC: Key = Key::Code(KeyCode::Esc);
/// Space.
pub(super) const SPACE: Key = Key::Char(' ');
/// Tab.
pub(super) const TAB: Key = Key::Code(KeyCode::Tab);
/// Shift-Tab.
pub(super) const BACKTAB: Key = Key::Code(KeyCode::BackTab);
/// Backspace.
pub(super) const BACKSPACE: Key = Key::Code(KeyCode::Backspace);
/// Arrow up.
pub(super) const UP: Key = Key::Code(KeyCode::Up);
/// Arrow down.
pub(super) const DOWN: Key = Key::Code(KeyCode::Down);
/// Arrow left.
pub(super) const LEFT: Key = Key::Code(KeyCode::Left);
/// Arrow right.
pub(super) const RIGHT: Key = Key::Code(KeyCode::Right);
/// Page up.
pub(super) const PAGE_UP: Key = Key::Code(KeyCode::PageUp);
/// Page down.
pub(super) const PAGE_DOWN: Key = Key::Code(KeyCode::PageDown);
/// F1, the help in text fields (where `?` is text).
pub(super) const F1: Key = Key::Code(KeyCode::F(1));

impl Key {
    /// True if the key event is this key.
    pub fn matches(self, k: &KeyEvent) -> bool {
        let plain = !k
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match self {
            Key::Char(c) => plain && k.code == KeyCode::Char(c),
            Key::Ctrl(c) => {
                k.modifiers.contains(KeyModifiers::CONTROL)
                    && matches!(k.code, KeyCode::Char(x) if x.eq_ignore_ascii_case(&c))
            }
            Key::Code(code) => plain && k.code == code,
            Key::Digit => plain && matches!(k.code, KeyCode::Char(c) if c.is_ascii_digit()),
        }
    }

    /// How the help names the key: `a`, `Enter`, `Space`, `Ctrl-U`, `↑`, `F1`, `0-9`.
    pub fn label(self) -> String {
        match self {
            Key::Char(' ') => "Space".into(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
            Key::Digit => "0-9".into(),
            Key::Code(code) => match code {
                KeyCode::Enter => "Enter".into(),
                KeyCode::Esc => "Esc".into(),
                KeyCode::Tab => "Tab".into(),
                KeyCode::BackTab => "Shift-Tab".into(),
                KeyCode::Backspace => "Backspace".into(),
                KeyCode::Up => "↑".into(),
                KeyCode::Down => "↓".into(),
                KeyCode::Left => "←".into(),
                KeyCode::Right => "→".into(),
                KeyCode::Home => "Home".into(),
                KeyCode::End => "End".into(),
                KeyCode::PageUp => "PgUp".into(),
                KeyCode::PageDown => "PgDn".into(),
                KeyCode::Delete => "Del".into(),
                KeyCode::F(n) => format!("F{n}"),
                KeyCode::Char(c) => c.to_string(),
                other => format!("{other:?}"),
            },
        }
    }

    /// A key event that is this key (for tests: every key of a table is fed to its screen).
    pub fn event(self) -> KeyEvent {
        match self {
            Key::Char(c) => KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
            Key::Ctrl(c) => KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL),
            Key::Code(code) => KeyEvent::new(code, KeyModifiers::NONE),
            Key::Digit => KeyEvent::new(KeyCode::Char('1'), KeyModifiers::NONE),
        }
    }

    fn is_arrow(self) -> bool {
        matches!(
            self,
            Key::Code(KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right)
        )
    }
}

/// One row of a binding table: the keys, what they do, and the help text.
#[derive(Clone, Copy, Debug)]
pub struct Binding<A: 'static> {
    /// The keys (any of them).
    pub keys: &'static [Key],
    /// The action they trigger.
    pub action: A,
    /// What the help overlay says.
    pub help: &'static str,
    /// The word of the footer hint, if the binding appears there ("accept", "help").
    pub footer: &'static str,
}

impl<A: Copy> Binding<A> {
    /// A binding shown in the help only.
    pub const fn new(keys: &'static [Key], action: A, help: &'static str) -> Binding<A> {
        Binding {
            keys,
            action,
            help,
            footer: "",
        }
    }

    /// The same binding, also shown in the footer as `word`.
    pub const fn footer(self, word: &'static str) -> Binding<A> {
        Binding {
            footer: word,
            ..self
        }
    }
}

impl<A> Binding<A> {
    /// The keys as the help names them: `Enter, Space`; adjacent arrows run together (`↑↓`).
    pub fn label(&self) -> String {
        let mut out = String::new();
        let mut prev: Option<Key> = None;
        for &k in self.keys {
            if let Some(p) = prev
                && !(p.is_arrow() && k.is_arrow())
            {
                out.push_str(", ");
            }
            out.push_str(&k.label());
            prev = Some(k);
        }
        out
    }
}

/// The action of the first binding one of whose keys is `key`.
pub(super) fn lookup<A: Copy>(table: &[Binding<A>], key: &KeyEvent) -> Option<A> {
    table
        .iter()
        .find(|b| b.keys.iter().any(|k| k.matches(key)))
        .map(|b| b.action)
}

/// The help lines of a table, in its order.
pub(super) fn help<A>(table: &[Binding<A>]) -> Vec<KeyHelp> {
    table
        .iter()
        .map(|b| KeyHelp::new(b.label(), b.help))
        .collect()
}

/// The footer hint of a table: `a accept · r reject`, from the bindings with a footer word
/// (their first key only).
pub(super) fn footer<A>(table: &[Binding<A>]) -> String {
    table
        .iter()
        .filter(|b| !b.footer.is_empty())
        .filter_map(|b| {
            b.keys
                .first()
                .map(|k| format!("{} {}", k.label(), b.footer))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The footer's note on help: `? help`, or `F1 help` while a text field takes `?` as text.
pub(super) fn help_hint(typing: bool) -> &'static str {
    if typing { "F1 help" } else { "? help" }
}

/// A binding table without its action type: (keys, help text) per binding, for checking the
/// tables a screen looks keys up in, in order ([`ScreenState::chain`]).
///
/// [`ScreenState::chain`]: crate::tui::screens::ScreenState::chain
pub type Erased = Vec<(Vec<Key>, String)>;

/// The table without its actions.
pub(super) fn erase<A>(table: &[Binding<A>]) -> Erased {
    table
        .iter()
        .map(|b| (b.keys.to_vec(), b.help.to_string()))
        .collect()
}

/// A check for tests of a screen that looks a key up in several tables in turn (`chain`, in
/// that order): every key of every binding reaches its binding (no earlier binding, in its
/// table or an earlier one, takes it), and the screen's help shows its label with its text.
pub fn check_chain(chain: &[Erased], help_lines: &[KeyHelp]) -> Result<(), String> {
    let mut earlier: Vec<(&[Key], &str)> = Vec::new();
    for table in chain {
        for (keys, text) in table {
            for k in keys {
                let e = k.event();
                if let Some((_, other)) = earlier
                    .iter()
                    .find(|(ks, _)| ks.iter().any(|x| x.matches(&e)))
                {
                    return Err(format!(
                        "key {} ({text}) is taken first by \"{other}\"",
                        k.label()
                    ));
                }
                if !help_lines
                    .iter()
                    .any(|l| l.keys.contains(&k.label()) && l.text == *text)
                {
                    return Err(format!("key {} ({text}) is not in the help", k.label()));
                }
            }
            if text.is_empty() {
                return Err(format!("keys {keys:?} have no help text"));
            }
            earlier.push((keys, text));
        }
    }
    Ok(())
}

/// A check for tests: every key of every binding reaches that binding (no earlier binding
/// takes it) and its label appears in the help. Returns the first problem.
pub(super) fn check_table<A: Copy + PartialEq + std::fmt::Debug>(
    table: &[Binding<A>],
) -> Result<(), String> {
    let lines = help(table);
    for b in table {
        for &k in b.keys {
            let got = lookup(table, &k.event());
            if got != Some(b.action) {
                return Err(format!(
                    "key {} of {:?} reaches {got:?} instead",
                    k.label(),
                    b.action
                ));
            }
            if !lines
                .iter()
                .any(|l| l.keys.contains(&k.label()) && l.text == b.help)
            {
                return Err(format!("key {} is not in the help", k.label()));
            }
        }
        if b.help.is_empty() {
            return Err(format!("{:?} has no help text", b.action));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Act {
        Go,
        Clear,
        Move,
    }

    static TABLE: &[Binding<Act>] = &[
        Binding::new(&[ENTER, SPACE], Act::Go, "go").footer("go"),
        Binding::new(&[Key::Ctrl('u'), ESC], Act::Clear, "clear"),
        Binding::new(
            &[UP, DOWN, Key::Char('k'), Key::Char('j')],
            Act::Move,
            "move",
        ),
    ];

    #[test]
    fn keys_match_and_label_as_the_help_shows_them() {
        let e = |c, m| KeyEvent::new(c, m);
        assert!(Key::Char('a').matches(&e(KeyCode::Char('a'), KeyModifiers::NONE)));
        assert!(!Key::Char('a').matches(&e(KeyCode::Char('a'), KeyModifiers::CONTROL)));
        assert!(Key::Char('D').matches(&e(KeyCode::Char('D'), KeyModifiers::SHIFT)));
        assert!(Key::Ctrl('u').matches(&e(KeyCode::Char('u'), KeyModifiers::CONTROL)));
        assert!(Key::Digit.matches(&e(KeyCode::Char('7'), KeyModifiers::NONE)));
        assert_eq!(lookup(TABLE, &SPACE.event()), Some(Act::Go));
        assert_eq!(lookup(TABLE, &Key::Char('x').event()), None);
        assert_eq!(TABLE[0].label(), "Enter, Space");
        assert_eq!(TABLE[1].label(), "Ctrl-U, Esc");
        assert_eq!(TABLE[2].label(), "↑↓, k, j");
        assert_eq!(footer(TABLE), "Enter go");
        assert_eq!(check_table(TABLE), Ok(()));
        static SHADOWED: &[Binding<Act>] = &[
            Binding::new(&[ENTER], Act::Go, "go"),
            Binding::new(&[ENTER], Act::Clear, "clear"),
        ];
        assert!(check_table(SHADOWED).is_err());
    }
}
