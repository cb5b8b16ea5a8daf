//! Why an action is refused.

use crate::event::player::{PlayerError, PlayerId};
use crate::event::settings::{MAX_PLAYERS, SettingsError};
use thiserror::Error;

/// What a refused action did wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EventError {
    /// No such division.
    #[error("there is no division {0}")]
    NoDivision(String),
    /// A division name taken.
    #[error("there is already a division called {0:?}")]
    DivisionExists(String),
    /// A bad name or reason.
    #[error("{0}")]
    Text(#[from] PlayerError),
    /// Bad settings.
    #[error("{0}")]
    Settings(#[from] SettingsError),
    /// Settings change after play started.
    #[error("the settings cannot change once round 1 is paired (only the tie-breaks can)")]
    SettingsLocked,
    /// Entered twice.
    #[error("{0} is already entered")]
    AlreadyEntered(String),
    /// Too many players.
    #[error("a division takes at most {MAX_PLAYERS} players")]
    TooManyPlayers,
    /// A round robin already started.
    #[error("a round robin cannot take late entries")]
    RoundRobinStarted,
    /// Not in the division.
    #[error("player {0} is not entered in this division")]
    NotEntered(PlayerId),
    /// Withdrawn already.
    #[error("{0} has already withdrawn")]
    AlreadyWithdrawn(String),
    /// A requested bye asked or taken back once its round is paired.
    #[error(
        "round {0} is already paired: a requested bye is asked before the pairing (a player \
         who will not play a paired round forfeits the board: event result ... forfeit)"
    )]
    ByeAfterPairing(u32),
    /// A requested bye asked twice.
    #[error("{name} has already asked for a bye in round {round}")]
    ByeRequested {
        /// Who.
        name: String,
        /// The round.
        round: u32,
    },
    /// A requested bye taken back that was never asked.
    #[error("{name} has not asked for a bye in round {round}")]
    NoByeRequest {
        /// Who.
        name: String,
        /// The round.
        round: u32,
    },
    /// A requested bye for a round the player is not paired in anyway.
    #[error(
        "{name} does not play round {round} (absent, withdrawn or entered later): no bye to ask"
    )]
    ByeNotPlaying {
        /// Who.
        name: String,
        /// The round.
        round: u32,
    },
    /// A requested bye in a round robin.
    #[error(
        "a round robin's pairings are fixed: a player who will miss a round forfeits its board"
    )]
    ByeInRoundRobin,
    /// An absence for a round already paired.
    #[error("round {0} is already paired")]
    RoundPaired(u32),
    /// A round not paired.
    #[error("round {0} is not paired")]
    NoRound(u32),
    /// Round 0, which no division has.
    #[error("there is no round 0: rounds are numbered from 1")]
    RoundZero,
    /// Pairing out of order.
    #[error("the next round to pair is {expected}, not {got}")]
    WrongRound {
        /// The next round.
        expected: u32,
        /// The one given.
        got: u32,
    },
    /// The previous round is still being played.
    #[error("round {0} has boards without a complete result")]
    RoundOpen(u32),
    /// A round outside the division's plan.
    #[error("round {round} is not one of the division's rounds (1 to {planned})")]
    NotInPlan {
        /// As given.
        round: u32,
        /// The rounds planned.
        planned: u32,
    },
    /// Fewer than two players to pair.
    #[error(
        "round {round} has {players} player(s) to pair: enter the players first \
         (crossboard event enter, or a at the desk)"
    )]
    TooFewPlayers {
        /// The round.
        round: u32,
        /// Players available in it.
        players: usize,
    },
    /// Nothing left to pair.
    #[error("all {0} rounds are paired")]
    AllRoundsPaired(u32),
    /// A player not available in that round.
    #[error("{name} cannot play in round {round} (absent, withdrawn or entered later)")]
    NotAvailable {
        /// The player.
        name: String,
        /// The round.
        round: u32,
    },
    /// A player on two boards.
    #[error("{0} is paired twice")]
    PairedTwice(String),
    /// A player left out of a by-hand pairing.
    #[error("{name} can play in round {round} but is on no board and has no bye")]
    Unplaced {
        /// The player.
        name: String,
        /// The round.
        round: u32,
    },
    /// A pairing change after results.
    #[error("round {0} already has results: its pairing can no longer change")]
    HasResults(u32),
    /// Unpairing a round that is not the last.
    #[error("only the last round paired ({0}) can be withdrawn")]
    NotLastRound(u32),
    /// No such board.
    #[error("round {round} has no board {board}")]
    NoBoard {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// More games than the round has.
    #[error("a round has {max} games per board, not {got}")]
    TooManyGames {
        /// Games per round.
        max: u32,
        /// Games given.
        got: u32,
    },
    /// Ballots of the wrong count.
    #[error("{got} ballots for {want} (one per round or one per board)")]
    BallotCount {
        /// Expected.
        want: usize,
        /// Given.
        got: usize,
    },
    /// The pairing engine found no pairing.
    #[error("{0}")]
    Pairing(String),
    /// A reason is required.
    #[error("a reason is required")]
    NoReason,
    /// A floor entry for a board played on crossboard.
    #[error(
        "board {board} is played on crossboard: its result comes from its match file, not \
         from the floor"
    )]
    FloorPlayedHere {
        /// The board.
        board: u32,
    },
    /// A floor entry for a board whose result is recorded.
    #[error("board {board}'s result is recorded: the director corrects it, if it is wrong")]
    FloorRecorded {
        /// The board.
        board: u32,
    },
    /// A floor entry that lacks games.
    #[error("enter the result of every game of the board ({games})")]
    FloorIncomplete {
        /// Games per round.
        games: u32,
    },
    /// An overrule of a board nobody entered from the floor.
    #[error("nobody entered board {board}'s result from the floor: type its result at the desk")]
    NothingToOverrule {
        /// The board.
        board: u32,
    },
    /// No entrant of that name or id.
    #[error("no player {who:?} in division {division}")]
    NoPlayer {
        /// As typed.
        who: String,
        /// The division's name.
        division: String,
    },
    /// A prize list that cannot be accepted.
    #[error(transparent)]
    Prizes(#[from] crate::event::prizes::PrizeError),
    /// Two entrants of that name.
    #[error("{0:?} names two players: use the registry id")]
    AmbiguousPlayer(String),
}
