//! The bounds of every setting and every director text, in one place: the config file, the
//! set-up form and the match file accept exactly the settings [`MatchSettings::validate`]
//! accepts, and a screen can refuse at typing time with the same numbers.
//!
//! Every bound keeps the clock arithmetic far from overflow: the longest game time a side can
//! have is a few periods of a day plus increments, in milliseconds, well inside `i64`.
//!
//! [`MatchSettings::validate`]: super::MatchSettings::validate

/// Characters in a player's name.
pub const NAME_MAX_CHARS: usize = 40;
/// Characters in the event's name.
pub const EVENT_MAX_CHARS: usize = 80;
/// Characters in a director's reason (forfeit, adjudication, pause, take-back, ...).
pub const REASON_MAX_CHARS: usize = 200;
/// Characters in a note.
pub const NOTE_MAX_CHARS: usize = 500;
/// Ballots planned in a match (each is two games).
pub const BALLOTS_MAX: u32 = 99;
/// Extra ballots a "continue in blocks" tie rule may be limited to.
pub const EXTRA_BLOCKS_MAX: u32 = 99;
/// Periods of a game clock.
pub const PERIODS_MAX: usize = 8;
/// Moves in one period.
pub const PERIOD_MOVES_MAX: u32 = 200;
/// Time given by one period, seconds (a day).
pub const PERIOD_SECONDS_MAX: u64 = 24 * 60 * 60;
/// A Fischer increment or a delay, seconds (an hour).
pub const BONUS_SECONDS_MAX: u64 = 60 * 60;
/// Each figure of a per-move limit (the move, a single jump, the grace), seconds (an hour).
pub const MOVE_LIMIT_SECONDS_MAX: u64 = 60 * 60;
/// Time one director adjustment adds or removes, milliseconds (a day).
pub const ADJUST_MS_MAX: u64 = 24 * 60 * 60 * 1000;

/// True for a character no name or director text may hold: a control character (a line
/// break or tab would break the published tables), a direction control (U+202A-202E,
/// U+2066-2069 and the marks U+200E, U+200F, U+061C: they reorder what follows, so that a name
/// shows other than it reads) or an invisible one (U+200B-200D, U+2060-2064, U+FEFF: two
/// names that look alike would differ).
pub fn is_unfit(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
                | '\u{200B}'..='\u{200D}'
                | '\u{2060}'..='\u{2064}'
                | '\u{FEFF}'
        )
}

/// The number of characters in `text` (what the limits count).
pub fn chars(text: &str) -> usize {
    text.chars().count()
}
