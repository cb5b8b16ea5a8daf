//! What the console can show, decided before the screen opens: colours and cursor addressing
//! (every terminal on Linux and macOS, the console of Windows 10 and later, Windows Terminal),
//! cursor addressing only (a Windows console without escape codes: the colours the screens use
//! would come out black on black, so it is drawn plain), or nothing usable (`TERM=dumb`).
//!
//! The decision ([`classify`]) is plain logic, tested on every platform; only [`detect`]
//! asks the platform.

/// What the console can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsoleKind {
    /// Colours, Unicode and cursor addressing.
    Full,
    /// Cursor addressing, but not the colours the screens use: drawn without colours, in ASCII.
    NoColours,
    /// No cursor addressing (`TERM=dumb`, as in an editor's shell buffer): the screen cannot
    /// be drawn.
    Dumb,
}

/// What a console with this `TERM` (if set) can show, when it does (or not) take escape codes.
pub(super) fn classify(term: Option<&str>, escape_codes: bool) -> ConsoleKind {
    if term == Some("dumb") {
        ConsoleKind::Dumb
    } else if !escape_codes {
        ConsoleKind::NoColours
    } else {
        ConsoleKind::Full
    }
}

/// The console crossboard runs in. On Windows, whether it takes escape codes (crossterm turns
/// them on where the console allows); elsewhere terminals do.
pub fn detect() -> ConsoleKind {
    let term = std::env::var("TERM").ok();
    #[cfg(windows)]
    let escape_codes = ratatui::crossterm::ansi_support::supports_ansi();
    #[cfg(not(windows))]
    let escape_codes = true;
    classify(term.as_deref(), escape_codes)
}

impl ConsoleKind {
    /// What the home screen says about it, if anything.
    pub fn note(self) -> Option<&'static str> {
        match self {
            ConsoleKind::NoColours => {
                Some("This console shows no colours: plain mode. Windows Terminal shows them.")
            }
            ConsoleKind::Full | ConsoleKind::Dumb => None,
        }
    }
}

/// The home screen's line on where crossboard keeps its files, cut from the left (`…`) to
/// `width` columns.
pub(super) fn files_line(dir: &std::path::Path, width: usize) -> String {
    let full = format!("Your files: {}", dir.display());
    let n = full.chars().count();
    if n <= width {
        return full;
    }
    let keep = width.saturating_sub("Your files: …".chars().count());
    let path = dir.display().to_string();
    let tail: String = path
        .chars()
        .skip(path.chars().count().saturating_sub(keep))
        .collect();
    format!("Your files: …{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dumb_terminal_cannot_draw_and_a_console_without_escape_codes_is_plain() {
        assert_eq!(classify(Some("dumb"), true), ConsoleKind::Dumb);
        assert_eq!(classify(Some("dumb"), false), ConsoleKind::Dumb);
        assert_eq!(classify(None, false), ConsoleKind::NoColours);
        assert_eq!(classify(None, true), ConsoleKind::Full);
        assert_eq!(classify(Some("xterm-256color"), true), ConsoleKind::Full);
        assert!(ConsoleKind::NoColours.note().is_some());
        assert_eq!(ConsoleKind::Full.note(), None);
    }

    #[test]
    fn the_files_line_keeps_the_end_of_a_long_path() {
        let dir = std::path::Path::new("/home/a/.local/share/crossboard");
        assert_eq!(
            files_line(dir, 80),
            "Your files: /home/a/.local/share/crossboard"
        );
        let cut = files_line(dir, 30);
        assert_eq!(cut.chars().count(), 30, "{cut}");
        assert!(cut.ends_with("share/crossboard"), "{cut}");
        assert!(cut.starts_with("Your files: …"), "{cut}");
    }
}
