//! Players: the registry's record of a person, as an event entry keeps it.

use super::settings::MAX_TEXT;
use crate::director::NAME_MAX_CHARS;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A player's number in the registry (the database's row id).
pub type PlayerId = u32;

/// Highest rating accepted.
pub(super) const MAX_RATING: u32 = 9999;

/// Who a player is: kept in the registry across events, copied into each entry so that a
/// published event does not change when the registry is edited later.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct PlayerInfo {
    /// Full name as published.
    pub name: String,
    /// Club, may be empty.
    pub club: String,
    /// State, province or country, may be empty.
    pub region: String,
    /// Federation ids, e.g. "ACF 1234, FMJD 5678", may be empty.
    pub federation_ids: String,
    /// Rating, if any (pairing numbers follow it).
    pub rating: Option<u32>,
}

/// A player record that cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayerError {
    /// No name.
    #[error("a player needs a name")]
    NoName,
    /// A text field over the limit.
    #[error("{field} is {len} characters long; the limit is {MAX_TEXT}")]
    TooLong {
        /// Which field.
        field: &'static str,
        /// Its length.
        len: usize,
    },
    /// A control character (a tab or newline would break the published tables), or an
    /// invisible or direction-changing one ([`crate::director::is_unfit`]).
    #[error("{0} contains a control character, or an invisible or direction-changing one")]
    Control(&'static str),
    /// A rating over the limit.
    #[error("rating {0} is above {MAX_RATING}")]
    Rating(u32),
    /// A name longer than a match on crossboard takes (the board could not be played).
    #[error(
        "a player's name is {0} characters long; the limit is {NAME_MAX_CHARS}, as in a match on crossboard"
    )]
    NameTooLong(usize),
}

/// Check one text field against the length limit and control characters.
pub(super) fn check_text(field: &'static str, text: &str) -> Result<(), PlayerError> {
    let len = text.chars().count();
    if len > MAX_TEXT {
        return Err(PlayerError::TooLong { field, len });
    }
    if text.chars().any(crate::director::is_unfit) {
        return Err(PlayerError::Control(field));
    }
    Ok(())
}

impl PlayerInfo {
    /// A player known only by name.
    pub fn named(name: &str) -> PlayerInfo {
        PlayerInfo {
            name: name.to_string(),
            ..PlayerInfo::default()
        }
    }

    /// The first problem, if any.
    pub fn validate(&self) -> Result<(), PlayerError> {
        if self.name.trim().is_empty() {
            return Err(PlayerError::NoName);
        }
        check_text("name", &self.name)?;
        check_text("club", &self.club)?;
        check_text("region", &self.region)?;
        check_text("federation ids", &self.federation_ids)?;
        if let Some(r) = self.rating
            && r > MAX_RATING
        {
            return Err(PlayerError::Rating(r));
        }
        Ok(())
    }

    /// The first problem of a player registered or entered now: [`PlayerInfo::validate`],
    /// and a name of at most [`NAME_MAX_CHARS`], the limit of a match's players, so that
    /// every board can be played on crossboard. Asked by the desk and the command line, not
    /// by the log's check, so a log that entered a longer name still opens.
    pub fn validate_new(&self) -> Result<(), PlayerError> {
        self.validate()?;
        let len = self.name.chars().count();
        if len > NAME_MAX_CHARS {
            return Err(PlayerError::NameTooLong(len));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_refused_not_cut() {
        assert_eq!(PlayerInfo::named(" ").validate(), Err(PlayerError::NoName));
        let long = "x".repeat(MAX_TEXT + 1);
        assert_eq!(
            PlayerInfo::named(&long).validate(),
            Err(PlayerError::TooLong {
                field: "name",
                len: MAX_TEXT + 1
            })
        );
        assert_eq!(
            PlayerInfo::named("A\tB").validate(),
            Err(PlayerError::Control("name"))
        );
        let mut p = PlayerInfo::named("Ann");
        p.rating = Some(10_000);
        assert_eq!(p.validate(), Err(PlayerError::Rating(10_000)));
    }

    #[test]
    fn a_new_name_is_no_longer_than_a_match_takes() {
        let at_limit = PlayerInfo::named(&"x".repeat(NAME_MAX_CHARS));
        assert_eq!(at_limit.validate_new(), Ok(()));
        let long = PlayerInfo::named(&"x".repeat(NAME_MAX_CHARS + 1));
        assert_eq!(long.validate(), Ok(()));
        assert_eq!(
            long.validate_new(),
            Err(PlayerError::NameTooLong(NAME_MAX_CHARS + 1))
        );
    }
}
