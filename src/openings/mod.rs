//! Opening systems: GAYP, the 2-move and 3-move restrictions, the 11-Man Ballot deck and Roll
//! Your Own, and drawing an opening with an injected random number generator.
//!
//! Pure: the opening data is embedded from `assets/` at compile time, every table is built once
//! on first use (`OnceLock`), and randomness comes in as any [`rand::Rng`].
//!
//! Every opening of every system is an [`Opening`]: its number in the system, the position the
//! ballot starts from (standard start, or after the 11-man removals / Roll Your Own placement), the
//! ballot's set moves, the resulting position, and what the rules engine says about it (whether a
//! side loses a man at once, see [`man_down`](mod@man_down)).

mod atlas;
mod draw;
mod eleven_man;
mod man_down;
mod restriction;
mod roll_your_own;

pub use atlas::{
    ATLAS_HEADER, AtlasEntry, AtlasError, HARD_AT, LOST_AT, Verdict, eleven_man_atlas,
    eleven_man_atlas_text, parse_atlas, parse_atlas_line, parse_atlas_part,
};
pub use draw::{
    Draw, DrawMode, DrawSettings, DrawStep, Refusal, StepKind, ThreeMoveDeck, describe_steps, draw,
    eligible, loses_man_text, replay,
};
pub use eleven_man::{
    BALLOTS, Ballot, DECK_CARDS, ElevenManPosition, POSITIONS, RED_MOVE_CARDS, RED_REMOVAL_SQUARES,
    WHITE_MOVE_CARDS, WHITE_REMOVAL_SQUARES, eleven_man_position, eleven_man_positions,
};
pub use man_down::{man_down, man_down_balance};
pub use restriction::{ThreeMoveClass, ThreeMoveFlags, three_move_flags};
pub use roll_your_own::{ROLLS, Roll};

use crate::engine::{Color, Move, Position, Rules};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use thiserror::Error;

/// An opening system: how the start of each game is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// "Go As You Please": the standard start, no restriction.
    Gayp,
    /// The 49 pairs of first moves (47 that do not lose a man).
    TwoMove,
    /// The 174 three-move openings, drawn from a chosen ballot deck.
    ThreeMove,
    /// The 11-Man Ballot: one man of each side removed, one move each (3,136 ballots).
    ElevenMan,
    /// Roll Your Own: each side moves one of its men to a square in front (2,304 rolls).
    RollYourOwn,
}

impl System {
    /// Every system, in the order the seeds present them.
    pub const ALL: [System; 5] = [
        System::Gayp,
        System::TwoMove,
        System::ThreeMove,
        System::ElevenMan,
        System::RollYourOwn,
    ];

    /// The command-line and file name: `gayp`, `two-move`, `three-move`, `eleven-man`,
    /// `roll-your-own`.
    pub fn key(self) -> &'static str {
        match self {
            System::Gayp => "gayp",
            System::TwoMove => "two-move",
            System::ThreeMove => "three-move",
            System::ElevenMan => "eleven-man",
            System::RollYourOwn => "roll-your-own",
        }
    }

    /// The human title: "GAYP", "2-move restriction", "3-move restriction", "11-Man Ballot",
    /// "Roll Your Own".
    pub fn title(self) -> &'static str {
        match self {
            System::Gayp => "GAYP",
            System::TwoMove => "2-move restriction",
            System::ThreeMove => "3-move restriction",
            System::ElevenMan => "11-Man Ballot",
            System::RollYourOwn => "Roll Your Own",
        }
    }

    /// How many openings the system numbers (1..=count).
    pub fn count(self) -> u32 {
        match self {
            System::Gayp => 1,
            System::TwoMove => 49,
            System::ThreeMove => 174,
            System::ElevenMan => 3136,
            System::RollYourOwn => 2304,
        }
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for System {
    type Err = OpeningError;
    fn from_str(s: &str) -> Result<System, OpeningError> {
        let key = s.trim().to_ascii_lowercase().replace('_', "-");
        let alias = match key.as_str() {
            "2-move" | "twomove" => "two-move",
            "3-move" | "threemove" => "three-move",
            "11-man" | "elevenman" | "11man" => "eleven-man",
            "ryo" | "rollyourown" => "roll-your-own",
            other => other,
        };
        System::ALL
            .into_iter()
            .find(|s| s.key() == alias)
            .ok_or_else(|| OpeningError::UnknownSystem(s.to_string()))
    }
}

/// One opening of one system: where a game starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    /// The system it belongs to.
    pub system: System,
    /// The system's own numbering: 3-move 1-174, 2-move 1-49, 11-man ballot 1-3136,
    /// Roll Your Own 1-2304, GAYP 1.
    pub number: u32,
    /// Human label, e.g. "Remove 11 and 28; 8-11 24-19" or "9-13 21-17 5-9".
    pub name: String,
    /// The position before the set moves: standard start, or after the 11-man removals or the
    /// Roll Your Own placement. Red to move.
    pub start: Position,
    /// The ballot's moves, played before the game proper (not timed).
    pub set_moves: Vec<Move>,
    /// `start` with `set_moves` played: the game is played from here.
    pub position: Position,
    /// 11-man: the public position id 1-2500 (KingsRow numbering).
    pub public_id: Option<u32>,
    /// The side that loses a man at once, decided by the rules engine ([`man_down`](fn@man_down)).
    pub loses_man: Option<Color>,
    /// 11-man: KingsRow classes the position "lost".
    pub kingsrow_lost: bool,
}

impl Opening {
    /// The set moves in notation, space separated ("9-13 21-17 5-9"); empty for none.
    pub fn moves_text(&self) -> String {
        self.set_moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// "11-Man Ballot 1234" style reference.
    pub fn reference(&self) -> String {
        format!("{} {}", self.system.title(), self.number)
    }

    /// Check that this (e.g. stored) opening is exactly its system's opening with its number.
    pub fn check(&self) -> Result<(), OpeningError> {
        let expected = opening(self.system, self.number)?;
        if *self == expected {
            Ok(())
        } else {
            Err(OpeningError::Mismatch {
                system: self.system,
                number: self.number,
            })
        }
    }

    /// This opening played in the game `rules`: the set moves replayed from the start under
    /// those rules and the man-down check made under them (huffing: as English, since a
    /// neglected capture is huffed). `None` when a set move is not legal in that game (a pool
    /// man capturing backward where the English ballot moves quietly, say).
    pub fn in_rules(&self, rules: Rules) -> Option<Opening> {
        let start = self.start.with_rules(rules);
        let mut position = start;
        for mv in &self.set_moves {
            position.play(mv).ok()?;
        }
        let judged = match rules {
            Rules::Huffing => position.with_rules(Rules::English),
            _ => position,
        };
        Some(Opening {
            start,
            position,
            loses_man: man_down(&judged),
            ..self.clone()
        })
    }

    /// Numbers of the other openings of the same system that reach the same position.
    pub fn transpositions(&self) -> Vec<u32> {
        table_in(self.system, self.position.rules())
            .by_position
            .get(&self.position)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&n| n != self.number)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    }
}

/// What can go wrong looking up or drawing an opening.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OpeningError {
    /// Not one of `gayp`, `two-move`, `three-move`, `eleven-man`, `roll-your-own`.
    #[error(
        "unknown opening system {0:?}: use gayp, two-move, three-move, eleven-man or roll-your-own"
    )]
    UnknownSystem(String),
    /// A number outside the system's range.
    #[error("{system} has openings 1-{max}; there is no number {number}")]
    NumberOutOfRange {
        /// The system asked.
        system: System,
        /// The number asked for.
        number: u32,
        /// The largest number the system has.
        max: u32,
    },
    /// An 11-man public position id outside 1-2500.
    #[error("11-man public position ids run 1-2500; there is no id {0}")]
    NoSuchPublicId(u32),
    /// Every opening the settings allow is excluded or was already played.
    #[error("no {system} opening left to draw: {reason}")]
    NoneLeft {
        /// The system drawn from.
        system: System,
        /// Why nothing is left.
        reason: String,
    },
    /// A recorded card or die face that does not exist.
    #[error("{0}")]
    BadCard(String),
    /// A stored opening that differs from its system's opening with the same number.
    #[error("this is not {system} opening {number} as crossboard knows it")]
    Mismatch {
        /// The system named.
        system: System,
        /// The number named.
        number: u32,
    },
    /// A recorded draw that does not replay.
    #[error("the recorded draw does not replay: {0}")]
    BadRecord(String),
    /// An unknown draw mode or 3-move deck name.
    #[error("{0}")]
    UnknownSetting(String),
}

/// Look up one opening by its number in the system (practice: "pick by number"). For 11-man
/// positions by public id, see [`eleven_man_position`].
pub fn opening(system: System, number: u32) -> Result<Opening, OpeningError> {
    let t = table(system);
    if number == 0 || number as usize > t.openings.len() {
        return Err(OpeningError::NumberOutOfRange {
            system,
            number,
            max: t.openings.len() as u32,
        });
    }
    Ok(t.openings[number as usize - 1].clone())
}

/// The 11-man opening for a public position id (1-2500): the lowest-numbered ballot giving it.
pub fn opening_by_public_id(id: u32) -> Result<Opening, OpeningError> {
    eleven_man_position(id).map(ElevenManPosition::opening)
}

/// Every opening of a system, in number order.
pub fn all(system: System) -> Vec<Opening> {
    table(system).openings.clone()
}

/// Every opening of a system, borrowed from the table built once.
pub fn all_ref(system: System) -> &'static [Opening] {
    &table(system).openings
}

/// Counts describing a system, as `crossboard openings <system> --summary` prints them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// The system.
    pub system: System,
    /// Openings (ballots, rolls) the system numbers.
    pub openings: usize,
    /// Distinct positions among them.
    pub positions: usize,
    /// Openings in which Red loses a man at once.
    pub openings_red_loses_man: usize,
    /// Openings in which White loses a man at once.
    pub openings_white_loses_man: usize,
    /// Distinct positions in which Red loses a man at once.
    pub positions_red_loses_man: usize,
    /// Distinct positions in which White loses a man at once.
    pub positions_white_loses_man: usize,
    /// 11-man: positions KingsRow classes "lost".
    pub kingsrow_lost_positions: usize,
    /// 11-man: positions both KingsRow-lost and losing a man at once by the engine.
    pub kingsrow_lost_and_man_down: usize,
}

/// Count openings, distinct positions and man-down openings of a system.
pub fn summary(system: System) -> Summary {
    let t = table(system);
    let count = |f: &dyn Fn(&Opening) -> bool| t.openings.iter().filter(|o| f(o)).count();
    let reps = t.representatives();
    let count_pos = |f: &dyn Fn(&Opening) -> bool| reps.iter().filter(|o| f(o)).count();
    Summary {
        system,
        openings: t.openings.len(),
        positions: t.by_position.len(),
        openings_red_loses_man: count(&|o| o.loses_man == Some(Color::Red)),
        openings_white_loses_man: count(&|o| o.loses_man == Some(Color::White)),
        positions_red_loses_man: count_pos(&|o| o.loses_man == Some(Color::Red)),
        positions_white_loses_man: count_pos(&|o| o.loses_man == Some(Color::White)),
        kingsrow_lost_positions: count_pos(&|o| o.kingsrow_lost),
        kingsrow_lost_and_man_down: count_pos(&|o| o.kingsrow_lost && o.loses_man.is_some()),
    }
}

/// One system's openings with its position index.
pub(crate) struct Table {
    pub(crate) openings: Vec<Opening>,
    /// Opening numbers reaching each position, ascending.
    pub(crate) by_position: HashMap<Position, Vec<u32>>,
    /// The same groups, one per distinct position, in order of their lowest number.
    pub(crate) groups: Vec<Vec<u32>>,
    /// Openings whose set moves are not legal in the table's game (kept in English, never
    /// drawn).
    pub(crate) unplayable: HashSet<u32>,
}

impl Table {
    fn new(openings: Vec<Opening>) -> Table {
        let mut by_position: HashMap<Position, Vec<u32>> = HashMap::new();
        for o in &openings {
            by_position.entry(o.position).or_default().push(o.number);
        }
        let groups = openings
            .iter()
            .filter(|o| by_position[&o.position][0] == o.number)
            .map(|o| by_position[&o.position].clone())
            .collect();
        Table {
            openings,
            by_position,
            groups,
            unplayable: HashSet::new(),
        }
    }

    /// The English table's openings played in `rules` ([`Opening::in_rules`]).
    fn in_rules(english: &Table, rules: Rules) -> Table {
        let mut unplayable = HashSet::new();
        let openings = english
            .openings
            .iter()
            .map(|o| {
                o.in_rules(rules).unwrap_or_else(|| {
                    unplayable.insert(o.number);
                    o.clone()
                })
            })
            .collect();
        Table {
            unplayable,
            ..Table::new(openings)
        }
    }

    /// One opening per distinct position: the lowest-numbered one, in number order.
    pub(crate) fn representatives(&self) -> Vec<&Opening> {
        self.groups
            .iter()
            .map(|g| &self.openings[g[0] as usize - 1])
            .collect()
    }
}

/// The table of a system, built on first use.
pub(crate) fn table(system: System) -> &'static Table {
    static TABLES: [OnceLock<Table>; 5] = [const { OnceLock::new() }; 5];
    let i = System::ALL
        .iter()
        .position(|&s| s == system)
        .unwrap_or_default();
    TABLES[i].get_or_init(|| Table::new(build(system)))
}

/// The table of a system played in `rules`, built on first use (English: [`table`]).
pub(crate) fn table_in(system: System, rules: Rules) -> &'static Table {
    static TABLES: [[OnceLock<Table>; 5]; 3] = [const { [const { OnceLock::new() }; 5] }; 3];
    let r = match rules {
        Rules::English => return table(system),
        Rules::Pool => 0,
        Rules::Huffing => 1,
        Rules::Losing => 2,
    };
    let i = System::ALL
        .iter()
        .position(|&s| s == system)
        .unwrap_or_default();
    TABLES[r][i].get_or_init(|| Table::in_rules(table(system), rules))
}

/// Every opening of a system played in `rules` (English: [`all_ref`]); an opening whose set
/// moves are not legal in that game stays in its English form and is never drawn
/// ([`playable_in`]).
pub fn all_in(system: System, rules: Rules) -> &'static [Opening] {
    &table_in(system, rules).openings
}

/// True when opening `number` of `system` can be played in `rules` (its set moves are legal).
pub fn playable_in(system: System, number: u32, rules: Rules) -> bool {
    !table_in(system, rules).unplayable.contains(&number)
}

/// Build every opening of a system from scratch (no caching); `crossboard bench openings` times it.
pub fn build(system: System) -> Vec<Opening> {
    match system {
        System::Gayp => vec![gayp()],
        System::TwoMove => restriction::two_move(),
        System::ThreeMove => restriction::three_move(),
        System::ElevenMan => eleven_man::build(),
        System::RollYourOwn => roll_your_own::build(),
    }
}

fn gayp() -> Opening {
    let start = Position::start();
    Opening {
        system: System::Gayp,
        number: 1,
        name: "GAYP: the standard start".to_string(),
        start,
        set_moves: Vec::new(),
        position: start,
        public_id: None,
        loses_man: None,
        kingsrow_lost: false,
    }
}

/// Build an opening from a start position and set moves given in notation, checking every move
/// against the rules. Panics only on a bug in the embedded tables (covered by tests).
pub(crate) fn with_moves(
    system: System,
    number: u32,
    name: String,
    start: Position,
    moves: &[&str],
) -> Opening {
    let mut position = start;
    let mut set_moves = Vec::with_capacity(moves.len());
    for text in moves {
        let mv = crate::engine::parse_move(&position, text)
            .unwrap_or_else(|e| panic!("{system} {number}: set move {text}: {e}"));
        position = position.after(&mv);
        set_moves.push(mv);
    }
    finish(system, number, name, start, set_moves, position)
}

/// As [`with_moves`], for moves already built (cheaper than reading notation).
pub(crate) fn with_set_moves(
    system: System,
    number: u32,
    name: String,
    start: Position,
    set_moves: Vec<Move>,
) -> Opening {
    let mut position = start;
    for mv in &set_moves {
        if let Err(e) = position.play(mv) {
            panic!("{system} {number}: set move {mv}: {e}");
        }
    }
    finish(system, number, name, start, set_moves, position)
}

fn finish(
    system: System,
    number: u32,
    name: String,
    start: Position,
    set_moves: Vec<Move>,
    position: Position,
) -> Opening {
    Opening {
        system,
        number,
        name,
        start,
        set_moves,
        position,
        public_id: None,
        loses_man: man_down(&position),
        kingsrow_lost: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_names_round_trip() {
        for s in System::ALL {
            assert_eq!(s.key().parse::<System>(), Ok(s));
            assert_eq!(s.to_string(), s.key());
        }
        assert_eq!("11-man".parse::<System>(), Ok(System::ElevenMan));
        assert!("chess".parse::<System>().is_err());
    }

    #[test]
    fn serde_names_are_kebab_case() {
        let json = serde_json_like(System::RollYourOwn);
        assert_eq!(json, "roll-your-own");
    }

    fn serde_json_like(s: System) -> String {
        // toml serialises a bare enum value as a string.
        toml::Value::try_from(s)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    #[test]
    fn stored_openings_are_checked() {
        let mut o = opening(System::TwoMove, 3).unwrap();
        assert_eq!(o.check(), Ok(()));
        o.position = Position::start();
        assert!(matches!(o.check(), Err(OpeningError::Mismatch { .. })));
    }

    #[test]
    fn partial_settings_take_defaults() {
        let s: DrawSettings = toml::from_str("system = \"two-move\"\nmode = \"uniform\"").unwrap();
        assert_eq!(s.system, System::TwoMove);
        assert_eq!(s.mode, DrawMode::Uniform);
        assert_eq!(s.three_move_deck, ThreeMoveDeck::Current156);
        assert!(!s.no_repeat);
    }

    #[test]
    fn out_of_range_numbers_are_errors() {
        assert!(opening(System::TwoMove, 0).is_err());
        assert!(opening(System::TwoMove, 50).is_err());
        assert_eq!(
            opening(System::Gayp, 1).map(|o| o.position),
            Ok(Position::start())
        );
    }
}
