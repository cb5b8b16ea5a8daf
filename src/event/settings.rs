//! What a director sets up for an event and for each of its divisions.
//!
//! Plain data with serde (kebab-case, unknown keys refused) and validation. Points are kept
//! exact in half points ([`Points`]), on the scale of the division's [`GamePoints`].

use super::tiebreak::TieBreak;
use crate::director::{GamePoints, Points, TimeControl};
use crate::engine::Rules;
use crate::openings::DrawSettings;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Longest name, site, club or reason accepted (characters); longer text is refused, never cut.
pub const MAX_TEXT: usize = 200;
/// Most players in one division.
pub(super) const MAX_PLAYERS: usize = 1000;
/// Most rounds in one division.
pub(super) const MAX_ROUNDS: u32 = 99;
/// Most games per round (board).
pub(super) const MAX_GAMES_PER_ROUND: u32 = 8;

/// The event as a whole: what a published crosstable carries in its heading.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct EventInfo {
    /// The event's name, e.g. "2026 ACF National Tournament".
    pub name: String,
    /// Where it is played.
    pub site: String,
    /// First day, `YYYY-MM-DD` (free text accepted).
    pub start_date: String,
    /// Last day.
    pub end_date: String,
    /// The tournament director.
    pub director: String,
    /// The game: "English draughts" (until variants exist).
    pub game: String,
}

/// Round robin or Swiss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind"
)]
pub enum Format {
    /// Everyone plays everyone, `cycles` times (1 single, 2 double), by the Berger tables.
    RoundRobin {
        /// 1 or 2.
        cycles: u32,
    },
    /// A Swiss of `rounds` rounds, paired by the Dutch system (see [`super::swiss`]).
    Swiss {
        /// Rounds planned.
        rounds: u32,
    },
}

impl Default for Format {
    fn default() -> Format {
        Format::Swiss { rounds: 5 }
    }
}

/// What a round's points are counted from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoreUnit {
    /// Each game scores win/draw/loss points.
    #[default]
    Game,
    /// Each ballot (two games, colours reversed) is a mini-match: more game points wins it.
    Ballot,
    /// The whole round is a mini-match: more game points wins it.
    Round,
}

/// How games, rounds and rounds without a game score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct EventScoring {
    /// Points for a win and a draw.
    pub game: GamePoints,
    /// What is scored: games, ballots or whole rounds.
    pub unit: ScoreUnit,
    /// A player's first pairing bye.
    pub first_bye: Points,
    /// Any later bye (round robins with an odd number, or a Swiss bye after a forfeit win).
    pub later_bye: Points,
    /// The player present when the opponent forfeits the whole round.
    pub forfeit_win: Points,
    /// The player who forfeits the whole round.
    pub forfeit_loss: Points,
    /// A round missed by arrangement (announced absence, rounds before a late entry).
    pub absent: Points,
    /// A requested bye (a round the player asked to sit out before it was paired); none:
    /// half a won round, FIDE's half-point bye.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_bye: Option<Points>,
}

impl EventScoring {
    /// Byes and forfeit wins score a won round, absences nothing.
    pub fn standard(game: GamePoints, unit: ScoreUnit, games_per_round: u32) -> EventScoring {
        let round = round_max(game, unit, games_per_round);
        EventScoring {
            game,
            unit,
            first_bye: round,
            later_bye: round,
            forfeit_win: round,
            forfeit_loss: Points::ZERO,
            absent: Points::ZERO,
            requested_bye: None,
        }
    }
}

/// The most points a round can give: a win of every unit.
pub(super) fn round_max(game: GamePoints, unit: ScoreUnit, games_per_round: u32) -> Points {
    let units = match unit {
        ScoreUnit::Game => games_per_round,
        ScoreUnit::Ballot => games_per_round.div_ceil(2),
        ScoreUnit::Round => 1,
    };
    Points(game.win().0.saturating_mul(units))
}

/// Accelerated pairings for a Swiss: how its first rounds are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Acceleration {
    /// Every round paired on the points alone.
    #[default]
    None,
    /// The Baku Acceleration Method (FIDE C.04.5.1): virtual points for the top half in the
    /// first rounds, for the pairing only (see [`super::acceleration`]).
    Baku,
}

impl Acceleration {
    /// Not accelerated (left out of the settings as written).
    pub fn is_none(&self) -> bool {
        *self == Acceleration::None
    }
}

/// One ballot for every board of a round, or one per board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BallotMode {
    /// One ballot drawn for all boards (the usual practice).
    #[default]
    OnePerRound,
    /// Each board draws its own ballot.
    OnePerBoard,
}

/// Everything about one division: its format, its games, its scoring and its ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct DivisionSettings {
    /// The game every board plays: `english` (the default), `pool`, `huffing` or `losing`
    /// (the match's `game`): the boards' matches and the ballots' positions follow it.
    #[serde(default)]
    pub game: Rules,
    /// Round robin or Swiss.
    pub format: Format,
    /// Games per round on each board: 2 is one ballot (colours reversed), 4 two ballots.
    pub games_per_round: u32,
    /// Points.
    pub scoring: EventScoring,
    /// The opening system and deck, exclusions (man-down, KingsRow-lost), no-repeat.
    pub openings: DrawSettings,
    /// One ballot per round or per board.
    pub ballots: BallotMode,
    /// The clock of every game.
    pub time_control: TimeControl,
    /// Tie-breaks, in order.
    pub tiebreaks: Vec<TieBreak>,
    /// Accelerated pairings (a Swiss only); none by default.
    #[serde(default, skip_serializing_if = "Acceleration::is_none")]
    pub acceleration: Acceleration,
}

impl Default for DivisionSettings {
    /// A 5-round Swiss of two-game rounds (one ballot, colours reversed), 11-man, 1/½/0 per
    /// game, 30 moves per hour, the ICAONA tie-breaks.
    fn default() -> DivisionSettings {
        DivisionSettings::new(
            Format::default(),
            2,
            GamePoints::OneHalfZero,
            ScoreUnit::Game,
        )
    }
}

impl DivisionSettings {
    /// Settings with standard bye and forfeit points and the default tie-breaks.
    pub fn new(
        format: Format,
        games_per_round: u32,
        game: GamePoints,
        unit: ScoreUnit,
    ) -> DivisionSettings {
        DivisionSettings {
            game: Rules::English,
            format,
            games_per_round,
            scoring: EventScoring::standard(game, unit, games_per_round),
            openings: DrawSettings::default(),
            ballots: BallotMode::OnePerRound,
            time_control: TimeControl::default(),
            tiebreaks: super::tiebreak::Preset::Icaona.tiebreaks(),
            acceleration: Acceleration::None,
        }
    }

    /// The most points one round gives.
    pub fn round_max(&self) -> Points {
        round_max(self.scoring.game, self.scoring.unit, self.games_per_round)
    }

    /// Rounds planned (round robin: cycles x rounds per cycle for `players` entered).
    pub fn planned_rounds(&self, players: usize) -> u32 {
        match self.format {
            Format::Swiss { rounds } => rounds,
            Format::RoundRobin { cycles } => {
                let n = players + players % 2;
                cycles.saturating_mul(n.saturating_sub(1) as u32)
            }
        }
    }

    /// The points of a requested bye: the division's, or half a won round.
    pub fn requested_bye(&self) -> Points {
        self.scoring
            .requested_bye
            .unwrap_or(Points(self.round_max().0 / 2))
    }

    /// The first problem, if any.
    pub fn validate(&self) -> Result<(), SettingsError> {
        match self.format {
            Format::RoundRobin { cycles } if !(1..=2).contains(&cycles) => {
                return Err(SettingsError::Cycles(cycles));
            }
            Format::Swiss { rounds } if !(1..=MAX_ROUNDS).contains(&rounds) => {
                return Err(SettingsError::Rounds(rounds));
            }
            _ => {}
        }
        if self.acceleration != Acceleration::None
            && matches!(self.format, Format::RoundRobin { .. })
        {
            return Err(SettingsError::AcceleratedRoundRobin);
        }
        if !(1..=MAX_GAMES_PER_ROUND).contains(&self.games_per_round) {
            return Err(SettingsError::Games(self.games_per_round));
        }
        if self.scoring.unit == ScoreUnit::Ballot && !self.games_per_round.is_multiple_of(2) {
            return Err(SettingsError::BallotUnitOddGames(self.games_per_round));
        }
        let max = self.round_max();
        let s = &self.scoring;
        for (what, p) in [
            ("first bye", s.first_bye),
            ("later bye", s.later_bye),
            ("forfeit win", s.forfeit_win),
            ("forfeit loss", s.forfeit_loss),
            ("absence", s.absent),
            ("requested bye", self.requested_bye()),
        ] {
            if p > max {
                return Err(SettingsError::PointsAboveRound {
                    what,
                    points: p,
                    max,
                });
            }
        }
        if self.openings.exclude_kingsrow_lost && self.game != Rules::English {
            return Err(SettingsError::KingsRowLostNotForGame(self.game));
        }
        self.time_control.validate()?;
        if self.tiebreaks.len() > 12 {
            return Err(SettingsError::TooManyTiebreaks(self.tiebreaks.len()));
        }
        for t in &self.tiebreaks {
            t.validate()?;
        }
        Ok(())
    }
}

/// Settings that do not make sense.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingsError {
    /// Round robin cycles other than 1 or 2.
    #[error("a round robin is single (1 cycle) or double (2), not {0}")]
    Cycles(u32),
    /// Swiss rounds out of range.
    #[error("a Swiss has 1 to {MAX_ROUNDS} rounds, not {0}")]
    Rounds(u32),
    /// Games per round out of range.
    #[error("a round has 1 to {MAX_GAMES_PER_ROUND} games per board, not {0}")]
    Games(u32),
    /// Ballot scoring needs pairs of games.
    #[error("scoring by ballot needs an even number of games per round, not {0}")]
    BallotUnitOddGames(u32),
    /// A bye or forfeit worth more than a won round.
    #[error("{what} points ({points}) are more than a round can give ({max})")]
    PointsAboveRound {
        /// Which setting.
        what: &'static str,
        /// Its value.
        points: Points,
        /// The round's maximum.
        max: Points,
    },
    /// The time control is wrong.
    #[error("time control: {0}")]
    TimeControl(#[from] crate::director::TimeControlError),
    /// The KingsRow verdicts that redraw "lost" 11-man positions are English verdicts.
    #[error("the KingsRow-lost redraw judges English draughts positions, not {0}")]
    KingsRowLostNotForGame(Rules),
    /// Acceleration asked for a round robin.
    #[error("accelerated pairings are for a Swiss: a round robin's pairings are fixed")]
    AcceleratedRoundRobin,
    /// Too many tie-breaks.
    #[error("at most 12 tie-breaks, not {0}")]
    TooManyTiebreaks(usize),
    /// A tie-break with impossible parameters.
    #[error("tie-break {0}")]
    Tiebreak(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_round_trip() {
        let s = DivisionSettings::default();
        s.validate().unwrap();
        assert_eq!(s.round_max(), Points(4));
        let text = toml::to_string(&s).unwrap();
        let back: DivisionSettings = toml::from_str(&text).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn acf_style_byes_are_settings() {
        // 2/1/0 per game, two-game rounds: first bye 3, later byes 2, a forfeit 4.
        let mut s = DivisionSettings::new(
            Format::Swiss { rounds: 10 },
            2,
            GamePoints::TwoOneZero,
            ScoreUnit::Game,
        );
        s.scoring.first_bye = Points(6);
        s.scoring.later_bye = Points(4);
        assert_eq!(s.scoring.forfeit_win, Points(8));
        s.validate().unwrap();
        s.scoring.first_bye = Points(10);
        assert!(matches!(
            s.validate(),
            Err(SettingsError::PointsAboveRound { .. })
        ));
    }

    #[test]
    fn bad_settings_are_named() {
        let mut s = DivisionSettings {
            games_per_round: 3,
            ..Default::default()
        };
        s.scoring.unit = ScoreUnit::Ballot;
        assert_eq!(s.validate(), Err(SettingsError::BallotUnitOddGames(3)));
        s.games_per_round = 0;
        assert_eq!(s.validate(), Err(SettingsError::Games(0)));
        s.games_per_round = 2;
        s.format = Format::RoundRobin { cycles: 3 };
        assert_eq!(s.validate(), Err(SettingsError::Cycles(3)));
        s.format = Format::default();
        s.scoring.unit = ScoreUnit::Game;
        s.game = Rules::Pool;
        s.openings.exclude_kingsrow_lost = true;
        assert_eq!(
            s.validate(),
            Err(SettingsError::KingsRowLostNotForGame(Rules::Pool))
        );
    }

    #[test]
    fn the_game_is_read_and_defaults_to_english() {
        let mut s = DivisionSettings::default();
        let old = toml::to_string(&s)
            .unwrap()
            .replace("game = \"english\"\n", "");
        assert!(!old.contains("game = \"english\""));
        let back: DivisionSettings = toml::from_str(&old).unwrap();
        assert_eq!(
            back.game,
            Rules::English,
            "a division logged before the game setting"
        );
        s.game = Rules::Huffing;
        let text = toml::to_string(&s).unwrap();
        assert!(text.contains("game = \"huffing\""), "{text}");
        assert_eq!(toml::from_str::<DivisionSettings>(&text).unwrap(), s);
    }
}
