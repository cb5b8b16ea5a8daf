//! The tags as read: known names in any case, the roster's "unknown" values, and the rules
//! and start position a game's `GameType`, `Variant` and `FEN` tags name.

use super::{PdnErrorKind, ROSTER, VARIANT_TAG};
use crate::engine::{Position, Rules};

/// Tag names crossboard reads or writes, spelt as PDN spells them.
const KNOWN_TAGS: [&str; 17] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "Black",
    "White",
    "Result",
    "GameType",
    VARIANT_TAG,
    "SetUp",
    "FEN",
    "Red",
    "TimeControl",
    "Clock",
    "Ballot",
    "Opening",
    "Termination",
];

/// A tag name as read: a known tag in any case (`[fen ...]`, `[BLACK ...]`, as CheckerBoard
/// reads them) under its PDN spelling; any other name as written.
pub(super) fn known_tag(name: String) -> String {
    KNOWN_TAGS
        .iter()
        .find(|k| k.eq_ignore_ascii_case(&name))
        .map_or(name, |k| k.to_string())
}

/// A roster tag holding the "unknown" value a writer puts in (`?`, `????.??.??`, empty).
pub(super) fn unknown_roster(name: &str, value: &str) -> bool {
    ROSTER.contains(&name) && matches!(value.trim(), "" | "?" | "????.??.??")
}

/// The rules a game's `GameType` and `Variant` tags name (no `GameType`: English draughts).
fn rules_of(tags: &[(String, String)]) -> Result<Rules, PdnErrorKind> {
    let find = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    let game_type = match find("GameType") {
        None => 21,
        Some(gt) => match gt.split(',').next().unwrap_or("").trim() {
            "" => 21,
            kind => match kind.parse::<u32>() {
                Ok(n @ (21 | 23)) => n,
                _ => return Err(PdnErrorKind::GameType(gt.clone())),
            },
        },
    };
    let variant = find(VARIANT_TAG)
        .map(|v| v.trim())
        .filter(|v| !v.is_empty());
    let refused = |value: &str| PdnErrorKind::Variant {
        value: value.to_string(),
        game_type,
    };
    match (game_type, variant) {
        (23, None) => Ok(Rules::Pool),
        (23, Some(v)) => Err(refused(v)),
        (_, None) => Ok(Rules::English),
        (_, Some(v)) => match v.parse::<Rules>() {
            Ok(r) if r != Rules::Pool => Ok(r),
            _ => Err(refused(v)),
        },
    }
}

/// The start position a game's tags describe, under the rules they name.
pub(super) fn start_position(tags: &[(String, String)]) -> Result<Position, PdnErrorKind> {
    let rules = rules_of(tags)?;
    let find = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    match find("FEN") {
        Some(fen) if !fen.trim().is_empty() => {
            Position::from_fen_in(rules, fen).map_err(|error| PdnErrorKind::Fen {
                fen: fen.clone(),
                error,
            })
        }
        _ => Ok(Position::start_in(rules)),
    }
}
