//! What a director sets up before a match: the game (English, pool, huffing, losing), players,
//! openings, ballots, time control, scoring, rejection policy, tie rule, how colours are
//! chosen, and for pool the strength rule.
//!
//! Every type is plain data with serde (kebab-case keys, unknown keys refused) and a
//! [`Default`]; [`MatchSettings::validate`] says what does not make sense.

use super::clock::{TimeControl, TimeControlError};
use super::limits;
use crate::engine::Rules;
use crate::openings::DrawSettings;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// One of the two players, by the order they were named in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Player {
    /// The first-named player.
    First,
    /// The second-named player.
    Second,
}

impl Player {
    /// Both players, first first.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second (for `[T; 2]` tables).
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first player",
            Player::Second => "second player",
        })
    }
}

/// Points for a game: a win, a draw, a loss.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GamePoints {
    /// 1 for a win, ½ for a draw, 0 for a loss.
    #[default]
    OneHalfZero,
    /// 2 / 1 / 0.
    TwoOneZero,
    /// The APCA's 4 / 2 / 0.
    Apca,
}

impl GamePoints {
    /// Points for a win and a draw, in half points.
    fn halves(self) -> (u32, u32) {
        match self {
            GamePoints::OneHalfZero => (2, 1),
            GamePoints::TwoOneZero => (4, 2),
            GamePoints::Apca => (8, 4),
        }
    }

    /// Points for a win.
    pub fn win(self) -> Points {
        Points(self.halves().0)
    }

    /// Points for a draw.
    pub fn draw(self) -> Points {
        Points(self.halves().1)
    }

    /// "1/½/0", "2/1/0", "4/2/0".
    pub fn label(self) -> &'static str {
        match self {
            GamePoints::OneHalfZero => "1/½/0",
            GamePoints::TwoOneZero => "2/1/0",
            GamePoints::Apca => "4/2/0 (APCA)",
        }
    }
}

/// A score, exact: stored in half points.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Points(pub u32);

impl Points {
    /// Zero points.
    pub const ZERO: Points = Points(0);

    /// The value as a number (1.5 for three half points).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0.saturating_add(o.0))
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        *self = *self + o;
    }
}

impl fmt::Display for Points {
    /// "3", "2½", "½".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (n, 1) => write!(f, "{n}½"),
            (n, _) => write!(f, "{n}"),
        }
    }
}

/// How games and the match are scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Scoring {
    /// Points per game.
    pub game: GamePoints,
    /// Score each ballot as a mini-match: the player with more game points over its two games
    /// wins the ballot (equal: drawn), and the match score is the sum of ballot points (same
    /// scale as `game`).
    pub per_ballot: bool,
}

/// Whether players may refuse a drawn ballot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RejectionPolicy {
    /// White decides first; if White rejects, Red may still accept; if both reject, a new
    /// ballot is drawn.
    #[default]
    PlayersMayReject,
    /// Every ballot is played except those that lose a man at once, which are redrawn
    /// automatically (the redraw is recorded in the draw's steps).
    AllExceptManDown,
    /// Every ballot drawn is played.
    AllPlayed,
}

impl RejectionPolicy {
    /// Short label for a set-up form.
    pub fn label(self) -> &'static str {
        match self {
            RejectionPolicy::PlayersMayReject => "players may reject (White first, then Red)",
            RejectionPolicy::AllExceptManDown => "all played except man-down (redrawn)",
            RejectionPolicy::AllPlayed => "all played",
        }
    }
}

/// What happens when the planned ballots end level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "rule"
)]
pub enum TieRule {
    /// The match is tied.
    #[default]
    StaysTied,
    /// The title holder retains it.
    HolderRetains {
        /// The holder.
        holder: Player,
    },
    /// Play continues a ballot (a block of two games) at a time until the score differs, for
    /// at most `max_blocks` extra ballots if set (then it stays tied).
    ContinueInBlocks {
        /// Extra ballots at most; none: no limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_blocks: Option<u32>,
    },
}

/// How the colour choice is made, once per match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ColourMethod {
    /// One player calls a coin flip; the winner chooses a colour.
    #[default]
    CoinFlip,
    /// A player draws a colour from a bag and takes it.
    Bag,
    /// A player picks one of two concealed hands holding a red and a white piece and takes
    /// the colour found.
    ConcealedHands,
    /// The director assigns the colours.
    DirectorAssigns,
}

/// How the cards of a drawn ballot are turned on the match screen. The cards and dice are
/// drawn at once and recorded whole either way; this is how they are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BallotDraw {
    /// Each card waits for a key, so that each player may turn one, as at a board with a
    /// real deck (the rest may still be let turn by themselves).
    #[default]
    CardByCard,
    /// The cards turn by themselves, one every 0.6 s (a key shows the rest at once).
    Automatic,
}

/// The pool strength rule in force: when one side is stronger (king 2, man 1), the weaker side
/// may ask for the count, and the stronger must win within so many moves of the weaker side
/// or the game may be claimed drawn (APCA rules 27 and 27A).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StrengthRule {
    /// Rule 27A: 38 moves.
    #[default]
    ThirtyEight,
    /// Rule 27, the older form: 30 moves, then 8 more when the director grants that the
    /// stronger side can complete the win in them.
    ThirtyPlusEight,
}

impl StrengthRule {
    /// The moves of the weaker side before the draw may be claimed (`extended`: the 8 more
    /// moves of rule 27 were granted).
    pub fn limit(self, extended: bool) -> u32 {
        match (self, extended) {
            (StrengthRule::ThirtyEight, _) | (StrengthRule::ThirtyPlusEight, true) => 38,
            (StrengthRule::ThirtyPlusEight, false) => 30,
        }
    }

    /// Short label for a set-up form.
    pub fn label(self) -> &'static str {
        match self {
            StrengthRule::ThirtyEight => "38 moves (rule 27A)",
            StrengthRule::ThirtyPlusEight => "30 + 8 moves (rule 27)",
        }
    }
}

/// The clocks of the APCA pool presets (rule 9, 9C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolClock {
    /// 70 minutes for the first 35 moves, then 30 minutes for each 15.
    Periods,
    /// 5 minutes a move, 1 for a single jump, "Time" called.
    PerMove,
}

/// Exactly two names: a third is refused, never dropped.
fn two_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[String; 2], D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    <[String; 2]>::try_from(names).map_err(|names| {
        serde::de::Error::custom(format!(
            "{} names given: a match has two players",
            names.len()
        ))
    })
}

/// Everything the director decides before a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct MatchSettings {
    /// The game played: `english` (the default), `pool`, `huffing` or `losing`.
    pub game: Rules,
    /// Pool: the strength rule the director chose (ignored in the other games).
    pub strength_rule: StrengthRule,
    /// The two players' names, first and second.
    #[serde(deserialize_with = "two_names")]
    pub players: [String; 2],
    /// The event's name (for game records); may be empty.
    pub event: String,
    /// The opening system and how ballots are drawn.
    pub openings: DrawSettings,
    /// Ballots planned; each ballot is two games, colours reversed.
    pub ballots: u32,
    /// Openings given in advance, by ballot (numbers in the openings' system): ballot `k`
    /// plays `given-ballots[k-1]` without a draw or a rejection (a tournament board playing
    /// the round's ballot); ballots beyond the list are drawn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub given_ballots: Vec<u32>,
    /// The clock: a table, or the typed form (`time-control = "35/70 15/30"`).
    #[serde(deserialize_with = "super::time_control_text::string_or_table")]
    pub time_control: TimeControl,
    /// Points per game, and per ballot if wanted.
    pub scoring: Scoring,
    /// Whether players may refuse a ballot.
    pub rejection: RejectionPolicy,
    /// What a level score at the end means.
    pub tie: TieRule,
    /// How colours are chosen at the start.
    pub colour_method: ColourMethod,
    /// How a drawn ballot's cards are turned: card by card on a key, or by themselves.
    pub ballot_draw: BallotDraw,
}

impl Default for MatchSettings {
    /// 11-Man Ballot, 6 ballots (12 games), 30 moves per hour, 1/½/0, players may reject, a
    /// tie stays a tie, coin flip, the ballot's cards turned card by card.
    fn default() -> Self {
        MatchSettings {
            game: Rules::English,
            strength_rule: StrengthRule::default(),
            players: ["Player 1".to_string(), "Player 2".to_string()],
            event: String::new(),
            openings: DrawSettings::default(),
            ballots: 6,
            given_ballots: Vec::new(),
            time_control: TimeControl::default(),
            scoring: Scoring::default(),
            rejection: RejectionPolicy::default(),
            tie: TieRule::default(),
            colour_method: ColourMethod::default(),
            ballot_draw: BallotDraw::default(),
        }
    }
}

/// Settings that do not make sense, or go beyond a bound of [`limits`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingsError {
    /// A player's name is empty.
    #[error("the {0} has no name")]
    EmptyName(Player),
    /// Both players have the same name.
    #[error("both players are called {0:?}")]
    SameName(String),
    /// A player's name is too long.
    #[error("the {0}'s name has {1} characters: at most {max}", max = limits::NAME_MAX_CHARS)]
    NameTooLong(Player, usize),
    /// The event's name is too long.
    #[error("the event's name has {0} characters: at most {max}", max = limits::EVENT_MAX_CHARS)]
    EventTooLong(usize),
    /// A name with a line break, tab or other control character, or an invisible or
    /// direction-changing one ([`limits::is_unfit`]).
    #[error(
        "the {0} contains a control character, or an invisible or direction-changing one (a line break, a tab, U+202E?)"
    )]
    ControlCharacter(&'static str),
    /// No ballots.
    #[error("a match needs at least one ballot")]
    NoBallots,
    /// Too many ballots.
    #[error("{0} ballots: at most {max}", max = limits::BALLOTS_MAX)]
    TooManyBallots(u32),
    /// The time control is wrong.
    #[error("time control: {0}")]
    TimeControl(#[from] TimeControlError),
    /// Continue in blocks with a zero limit.
    #[error("continuing in blocks needs at least one extra block (or no limit)")]
    ZeroBlocks,
    /// Continue in blocks with too high a limit.
    #[error("at most {max} extra blocks (or no limit), not {0}", max = limits::EXTRA_BLOCKS_MAX)]
    TooManyBlocks(u32),
    /// The KingsRow verdicts that redraw "lost" 11-man positions are English verdicts.
    #[error("the KingsRow-lost redraw judges English draughts positions, not {0}")]
    KingsRowLostNotForGame(Rules),
    /// More openings given than ballots planned.
    #[error("{given} openings given for {ballots} ballots")]
    TooManyGiven {
        /// Openings given.
        given: usize,
        /// Ballots planned.
        ballots: u32,
    },
    /// A given opening that its system does not have (or that cannot be played in the game).
    #[error("ballot {ballot}: the system has no opening {number} playable in {game}")]
    GivenOpening {
        /// The ballot.
        ballot: usize,
        /// The opening's number.
        number: u32,
        /// The game.
        game: Rules,
    },
}

impl MatchSettings {
    /// Check the settings against the rules and the bounds of [`limits`]; the first problem
    /// found. The one validation of the config file, the set-up form and the match file.
    pub fn validate(&self) -> Result<(), SettingsError> {
        for p in Player::BOTH {
            let name = &self.players[p.index()];
            if name.trim().is_empty() {
                return Err(SettingsError::EmptyName(p));
            }
            let n = limits::chars(name);
            if n > limits::NAME_MAX_CHARS {
                return Err(SettingsError::NameTooLong(p, n));
            }
            if name.chars().any(limits::is_unfit) {
                return Err(SettingsError::ControlCharacter(match p {
                    Player::First => "first player's name",
                    Player::Second => "second player's name",
                }));
            }
        }
        let same = |a: &str, b: &str| a.trim().to_lowercase() == b.trim().to_lowercase();
        if same(&self.players[0], &self.players[1]) {
            return Err(SettingsError::SameName(self.players[0].clone()));
        }
        let n = limits::chars(&self.event);
        if n > limits::EVENT_MAX_CHARS {
            return Err(SettingsError::EventTooLong(n));
        }
        if self.event.chars().any(limits::is_unfit) {
            return Err(SettingsError::ControlCharacter("event's name"));
        }
        if self.ballots == 0 {
            return Err(SettingsError::NoBallots);
        }
        if self.ballots > limits::BALLOTS_MAX {
            return Err(SettingsError::TooManyBallots(self.ballots));
        }
        self.time_control.validate()?;
        match self.tie {
            TieRule::ContinueInBlocks {
                max_blocks: Some(0),
            } => return Err(SettingsError::ZeroBlocks),
            TieRule::ContinueInBlocks {
                max_blocks: Some(n),
            } if n > limits::EXTRA_BLOCKS_MAX => return Err(SettingsError::TooManyBlocks(n)),
            _ => {}
        }
        if self.openings.exclude_kingsrow_lost && self.game != Rules::English {
            return Err(SettingsError::KingsRowLostNotForGame(self.game));
        }
        if self.given_ballots.len() > self.ballots as usize {
            return Err(SettingsError::TooManyGiven {
                given: self.given_ballots.len(),
                ballots: self.ballots,
            });
        }
        let system = self.openings.system;
        let count = crate::openings::all_in(system, self.game).len();
        for (k, &number) in self.given_ballots.iter().enumerate() {
            if number == 0
                || number as usize > count
                || !crate::openings::playable_in(system, number, self.game)
            {
                return Err(SettingsError::GivenOpening {
                    ballot: k + 1,
                    number,
                    game: self.game,
                });
            }
        }
        Ok(())
    }

    /// The APCA presets for a pool match (rules 9/9C, 32): pool, 4/2/0 scoring, a tie played
    /// off in blocks of two games with no limit, and the chosen clock; everything else kept.
    pub fn apca_pool(mut self, clock: PoolClock) -> MatchSettings {
        self.game = Rules::Pool;
        self.scoring.game = GamePoints::Apca;
        self.tie = TieRule::ContinueInBlocks { max_blocks: None };
        self.time_control = match clock {
            PoolClock::Periods => TimeControl::apca(),
            PoolClock::PerMove => TimeControl::per_move_classic(),
        };
        self
    }

    /// A player's name.
    pub fn name(&self, p: Player) -> &str {
        &self.players[p.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_through_toml_in_kebab_case() {
        let s = MatchSettings::default();
        assert!(s.validate().is_ok());
        let text = toml::to_string(&s).unwrap();
        assert!(text.contains("colour-method = \"coin-flip\""), "{text}");
        assert!(text.contains("ballot-draw = \"card-by-card\""), "{text}");
        assert!(
            text.contains("rejection = \"players-may-reject\""),
            "{text}"
        );
        let back: MatchSettings = toml::from_str(&text).unwrap();
        assert_eq!(back, s);
        // Partial files fill in defaults; unknown keys are refused.
        let part: MatchSettings = toml::from_str(
            "players = [\"Ann\", \"Bob\"]\nballots = 2\n[tie]\nrule = \"holder-retains\"\nholder = \"second\"\n",
        )
        .unwrap();
        assert_eq!(part.ballots, 2);
        assert_eq!(
            part.tie,
            TieRule::HolderRetains {
                holder: Player::Second
            }
        );
        assert!(toml::from_str::<MatchSettings>("balots = 2\n").is_err());
    }

    #[test]
    fn validation() {
        let mut s = MatchSettings::default();
        s.players[1] = " ".into();
        assert_eq!(s.validate(), Err(SettingsError::EmptyName(Player::Second)));
        s.players[1] = "Player 1".into();
        assert!(matches!(s.validate(), Err(SettingsError::SameName(_))));
        s.players[1] = "B".into();
        s.ballots = 0;
        assert_eq!(s.validate(), Err(SettingsError::NoBallots));
        s.ballots = 1;
        s.time_control.periods[0].seconds = 0;
        assert!(matches!(s.validate(), Err(SettingsError::TimeControl(_))));
    }

    #[test]
    fn the_game_and_the_pool_presets() {
        let s: MatchSettings =
            toml::from_str("game = \"pool\"\nstrength-rule = \"thirty-plus-eight\"\n").unwrap();
        assert_eq!(s.game, Rules::Pool);
        assert_eq!(s.strength_rule, StrengthRule::ThirtyPlusEight);
        assert!(toml::from_str::<MatchSettings>("game = \"chess\"\n").is_err());
        let text = toml::to_string(&s).unwrap();
        assert!(text.contains("game = \"pool\""), "{text}");
        assert_eq!(toml::from_str::<MatchSettings>(&text).unwrap(), s);
        let p = MatchSettings::default().apca_pool(PoolClock::Periods);
        assert_eq!(p.game, Rules::Pool);
        assert_eq!(p.scoring.game, GamePoints::Apca);
        assert_eq!(p.time_control, TimeControl::apca());
        assert_eq!(p.tie, TieRule::ContinueInBlocks { max_blocks: None });
        assert!(p.validate().is_ok());
        let m = MatchSettings::default().apca_pool(PoolClock::PerMove);
        assert_eq!(m.time_control, TimeControl::per_move_classic());
        let mut k = p;
        k.openings.exclude_kingsrow_lost = true;
        assert_eq!(
            k.validate(),
            Err(SettingsError::KingsRowLostNotForGame(Rules::Pool))
        );
        assert_eq!(StrengthRule::ThirtyPlusEight.limit(false), 30);
        assert_eq!(StrengthRule::ThirtyPlusEight.limit(true), 38);
        assert_eq!(StrengthRule::ThirtyEight.limit(false), 38);
    }

    #[test]
    fn points_are_exact_halves() {
        assert_eq!(GamePoints::OneHalfZero.draw().to_string(), "½");
        let p = GamePoints::OneHalfZero.win() + GamePoints::OneHalfZero.draw();
        assert_eq!(p.to_string(), "1½");
        assert_eq!(p.value(), 1.5);
        assert_eq!(GamePoints::Apca.win().to_string(), "4");
    }
}
