//! Tie-breaks and their presets.
//!
//! Definitions (all computed from the division's results; "played" means met over the board,
//! so byes, whole-round forfeits and absences are unplayed rounds; a game won by forfeit is not
//! a game won over the board):
//!
//! - **Wins**: games won over the board.
//! - **Head-to-head** (direct encounter): among the players still tied, the points each scored
//!   in the games between them; it separates only when every two of them have met (two tied
//!   players: when they met).
//! - **Head-to-head, MSO style**: among the players still tied, one who beat every other one is
//!   placed first and one who lost to every other one last; otherwise it does not separate.
//! - **Buchholz** (opponents' points): the sum of the final scores of the opponents of every
//!   round; a cut drops the lowest (and/or highest) of those values first (Cut-1, Median, ...).
//! - **Sonneborn-Berger**: for each opponent, the points scored against them times their
//!   final score, divided by the most points a round gives (so a win against a player with 5
//!   points adds 5, a draw 2½ in 1/½/0 single-game rounds).
//! - **Progressive** (cumulative): the sum of the player's running score after each round.
//! - **Wins with White**: games won over the board with the White pieces (who move second).
//!
//! Unplayed rounds in a Swiss follow the FIDE Tie-Break Regulations (C.07, article 16, as in
//! force 2024-2025): a round without an opponent (bye, whole-round forfeit, absence) counts
//! as played against a dummy with the player's own final score, for Buchholz and
//! Sonneborn-Berger alike; an opponent's requested bye (absence, withdrawal) followed only by
//! voluntary unplayed rounds, or in the last round, counts as a draw in the opponent's score;
//! a cut drops the lowest value of a voluntary unplayed round (absence, withdrawal, forfeit
//! loss) first. Checked against a published 49-player Swiss (`tests/event/standings.rs`). The
//! 2026 text adds caps on the dummy's score, not applied here. In a round robin only games
//! with an opponent count for Sonneborn-Berger, and Buchholz counts final scores as they are.
//!
//! Presets (the order a federation publishes):
//! - **APCA** (American Pool Checkers Association): wins, then head-to-head.
//! - **ICAONA** (International Checkers Association of North America, tournament rules):
//!   opponents' points, then the result between the tied players if they met, then wins
//!   (<http://www.icaona.org/index/rules_information/0-79>).
//! - **Mind Sports Olympiad** (MSO rules for two-player games): head-to-head when one player
//!   beat or lost to all the others, then points spread ignoring the best result, then
//!   Sonneborn-Berger, none reapplied. Draughts results carry no points spread, so the preset
//!   is head-to-head (MSO style), then Sonneborn-Berger.

use super::settings::SettingsError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One tie-break criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind"
)]
pub enum TieBreak {
    /// Games won over the board.
    Wins,
    /// Points in the games between the tied players (all must have met).
    HeadToHead,
    /// MSO: first if beat all the other tied players, last if lost to all of them.
    HeadToHeadMso,
    /// Opponents' points with cuts.
    Buchholz {
        /// Lowest values dropped.
        cut_lowest: u32,
        /// Highest values dropped.
        cut_highest: u32,
    },
    /// Sonneborn-Berger.
    SonnebornBerger,
    /// Progressive (cumulative) score.
    Progressive,
    /// Games won with White.
    WhiteWins,
}

impl TieBreak {
    /// Plain Buchholz, no cut.
    pub const BUCHHOLZ: TieBreak = TieBreak::Buchholz {
        cut_lowest: 0,
        cut_highest: 0,
    };

    /// Short column heading: "Wins", "H2H", "Buch", "BuchC1", "Median", "SB", "Prog", "WW".
    pub fn short(self) -> String {
        match self {
            TieBreak::Wins => "Wins".into(),
            TieBreak::HeadToHead => "H2H".into(),
            TieBreak::HeadToHeadMso => "H2H".into(),
            TieBreak::Buchholz {
                cut_lowest: 0,
                cut_highest: 0,
            } => "Buch".into(),
            TieBreak::Buchholz {
                cut_lowest: 1,
                cut_highest: 1,
            } => "Median".into(),
            TieBreak::Buchholz {
                cut_lowest,
                cut_highest: 0,
            } => format!("BuchC{cut_lowest}"),
            TieBreak::Buchholz {
                cut_lowest,
                cut_highest,
            } => format!("Buch-{cut_lowest}/{cut_highest}"),
            TieBreak::SonnebornBerger => "SB".into(),
            TieBreak::Progressive => "Prog".into(),
            TieBreak::WhiteWins => "WW".into(),
        }
    }

    /// The key used on the command line: `wins`, `h2h`, `h2h-mso`, `buchholz`,
    /// `buchholz-cut1`, `median`, `sb`, `progressive`, `white-wins`.
    pub fn key(self) -> String {
        match self {
            TieBreak::Wins => "wins".into(),
            TieBreak::HeadToHead => "h2h".into(),
            TieBreak::HeadToHeadMso => "h2h-mso".into(),
            TieBreak::Buchholz {
                cut_lowest: 0,
                cut_highest: 0,
            } => "buchholz".into(),
            TieBreak::Buchholz {
                cut_lowest: 1,
                cut_highest: 1,
            } => "median".into(),
            TieBreak::Buchholz {
                cut_lowest,
                cut_highest: 0,
            } => format!("buchholz-cut{cut_lowest}"),
            TieBreak::Buchholz {
                cut_lowest,
                cut_highest,
            } => format!("buchholz-cut{cut_lowest}-top{cut_highest}"),
            TieBreak::SonnebornBerger => "sb".into(),
            TieBreak::Progressive => "progressive".into(),
            TieBreak::WhiteWins => "white-wins".into(),
        }
    }

    /// The name in words.
    pub fn title(self) -> String {
        match self {
            TieBreak::Wins => "games won".into(),
            TieBreak::HeadToHead => "head-to-head".into(),
            TieBreak::HeadToHeadMso => "head-to-head (MSO: beat or lost to all)".into(),
            TieBreak::Buchholz {
                cut_lowest: 0,
                cut_highest: 0,
            } => "opponents' points (Buchholz)".into(),
            TieBreak::Buchholz {
                cut_lowest,
                cut_highest,
            } => format!(
                "opponents' points (Buchholz) without the {cut_lowest} lowest and {cut_highest} highest"
            ),
            TieBreak::SonnebornBerger => "Sonneborn-Berger".into(),
            TieBreak::Progressive => "progressive score".into(),
            TieBreak::WhiteWins => "games won with White".into(),
        }
    }

    /// Cuts must leave something to count.
    pub fn validate(self) -> Result<(), SettingsError> {
        if let TieBreak::Buchholz {
            cut_lowest,
            cut_highest,
        } = self
            && cut_lowest.saturating_add(cut_highest) > 10
        {
            return Err(SettingsError::Tiebreak(format!(
                "{}: at most 10 values cut",
                self.key()
            )));
        }
        Ok(())
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

impl FromStr for TieBreak {
    type Err = SettingsError;
    fn from_str(s: &str) -> Result<TieBreak, SettingsError> {
        let k = s.trim().to_ascii_lowercase();
        let simple = match k.as_str() {
            "wins" => Some(TieBreak::Wins),
            "h2h" | "head-to-head" => Some(TieBreak::HeadToHead),
            "h2h-mso" => Some(TieBreak::HeadToHeadMso),
            "buchholz" | "opponents" => Some(TieBreak::BUCHHOLZ),
            "median" => Some(TieBreak::Buchholz {
                cut_lowest: 1,
                cut_highest: 1,
            }),
            "sb" | "sonneborn-berger" => Some(TieBreak::SonnebornBerger),
            "progressive" | "cumulative" => Some(TieBreak::Progressive),
            "white-wins" => Some(TieBreak::WhiteWins),
            _ => None,
        };
        if let Some(t) = simple {
            return Ok(t);
        }
        let cut = k.strip_prefix("buchholz-cut").and_then(|rest| {
            let (low, high) = match rest.split_once("-top") {
                Some((l, h)) => (l, h),
                None => (rest, "0"),
            };
            Some(TieBreak::Buchholz {
                cut_lowest: low.parse().ok()?,
                cut_highest: high.parse().ok()?,
            })
        });
        match cut {
            Some(t) => t.validate().map(|()| t),
            None => Err(SettingsError::Tiebreak(format!(
                "{s:?} unknown: use wins, h2h, h2h-mso, buchholz, buchholz-cut1, median, sb, \
                 progressive or white-wins"
            ))),
        }
    }
}

/// A federation's tie-break order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// American Pool Checkers Association: wins, head-to-head.
    Apca,
    /// International Checkers Association of North America: opponents' points, head-to-head,
    /// wins.
    Icaona,
    /// Mind Sports Olympiad: head-to-head (beat or lost to all), Sonneborn-Berger.
    Mso,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Apca, Preset::Icaona, Preset::Mso];

    /// The criteria in order.
    pub fn tiebreaks(self) -> Vec<TieBreak> {
        match self {
            Preset::Apca => vec![TieBreak::Wins, TieBreak::HeadToHead],
            Preset::Icaona => vec![TieBreak::BUCHHOLZ, TieBreak::HeadToHead, TieBreak::Wins],
            Preset::Mso => vec![TieBreak::HeadToHeadMso, TieBreak::SonnebornBerger],
        }
    }

    /// `apca`, `icaona`, `mso`.
    pub fn key(self) -> &'static str {
        match self {
            Preset::Apca => "apca",
            Preset::Icaona => "icaona",
            Preset::Mso => "mso",
        }
    }
}

/// A list of tie-breaks: a preset name or criteria separated by commas.
pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, SettingsError> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(p) = Preset::ALL.into_iter().find(|p| p.key() == t) {
        return Ok(p.tiebreaks());
    }
    if t.is_empty() || t == "none" {
        return Ok(Vec::new());
    }
    t.split(',').map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_back() {
        for t in [
            TieBreak::Wins,
            TieBreak::HeadToHead,
            TieBreak::HeadToHeadMso,
            TieBreak::BUCHHOLZ,
            TieBreak::Buchholz {
                cut_lowest: 1,
                cut_highest: 0,
            },
            TieBreak::Buchholz {
                cut_lowest: 1,
                cut_highest: 1,
            },
            TieBreak::Buchholz {
                cut_lowest: 2,
                cut_highest: 1,
            },
            TieBreak::SonnebornBerger,
            TieBreak::Progressive,
            TieBreak::WhiteWins,
        ] {
            assert_eq!(t.key().parse::<TieBreak>(), Ok(t), "{}", t.key());
        }
        assert_eq!(
            parse_list("icaona").unwrap(),
            vec![TieBreak::BUCHHOLZ, TieBreak::HeadToHead, TieBreak::Wins]
        );
        assert_eq!(parse_list("wins, sb").unwrap().len(), 2);
        assert!(parse_list("wins,bogus").is_err());
        assert!("buchholz-cut11".parse::<TieBreak>().is_err());
    }
}
