//! The event, derived from its log: every director action is an [`Action`]; [`Tournament::apply`]
//! checks it against the state and applies it, or refuses it and changes nothing. The store
//! keeps the log; reading an event back replays it ([`Event::replay`]), so the state is never
//! stored twice.

use super::ballot::BallotDraw;
use super::explain::Explanation;
use super::player::{PlayerError, PlayerId, PlayerInfo, check_text};
use super::settings::{DivisionSettings, EventInfo, Format, MAX_PLAYERS, SettingsError};
use crate::director::{Player, Points};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use thiserror::Error;

/// A division's index in the event (divisions are never removed).
pub type DivisionId = usize;

/// One game's result on a board, seen from the board's first player (who has Red in games 1,
/// 3, ...; the second player has Red in games 2, 4, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "result"
)]
pub enum BoardGameResult {
    /// Won over the board by that player.
    Win {
        /// The winner.
        winner: Player,
    },
    /// Drawn.
    Draw,
    /// Won by forfeit (lateness, no-show for that game): scores as a win, but is not a game
    /// played for the tie-breaks.
    Forfeit {
        /// The player present.
        winner: Player,
    },
}

impl BoardGameResult {
    /// Game points in half points of `game` for `who`.
    pub fn points(self, who: Player, game: crate::director::GamePoints) -> Points {
        match self {
            BoardGameResult::Draw => game.draw(),
            BoardGameResult::Win { winner } | BoardGameResult::Forfeit { winner }
                if winner == who =>
            {
                game.win()
            }
            _ => Points::ZERO,
        }
    }
}

/// The result of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind"
)]
pub enum BoardResult {
    /// Game results in order; fewer than the round's games while the board is still playing.
    Games {
        /// One per game played so far.
        games: Vec<BoardGameResult>,
    },
    /// The whole round forfeited: the player present (if any) scores a forfeit win.
    Forfeit {
        /// The player who came; none: both forfeited.
        present: Option<Player>,
    },
}

/// A board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Board {
    /// Board number, 1 = top board.
    pub number: u32,
    /// The player with Red in game 1.
    pub first: PlayerId,
    /// The player with White in game 1.
    pub second: PlayerId,
    /// The result as entered so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<BoardResult>,
    /// PDN of the board's games, if attached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdn: Option<String>,
    /// The crossboard match file of the board, if it was played on crossboard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_file: Option<String>,
}

impl Board {
    /// The player on `side` of the board.
    pub fn player(&self, side: Player) -> PlayerId {
        match side {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }

    /// Which side `id` plays, if on this board.
    pub fn side_of(&self, id: PlayerId) -> Option<Player> {
        if id == self.first {
            Some(Player::First)
        } else if id == self.second {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// True once every game has a result (or the round was forfeited).
    pub fn is_complete(&self, games_per_round: u32) -> bool {
        match &self.result {
            None => false,
            Some(BoardResult::Forfeit { .. }) => true,
            Some(BoardResult::Games { games }) => games.len() as u32 >= games_per_round,
        }
    }
}

/// The pairing of a round: what the pairing engine (or the director) decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Pairing {
    /// The round paired.
    pub round: u32,
    /// Boards in order: (first, second).
    pub boards: Vec<(PlayerId, PlayerId)>,
    /// The player given the pairing bye, if the number was odd.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
    /// Why each board was paired so.
    pub explanation: Explanation,
}

/// One director action, as the log keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "action"
)]
pub enum Action {
    /// Name, site, dates, director.
    SetInfo {
        /// The new information.
        info: EventInfo,
    },
    /// A new division (its own players, pairings and standings).
    AddDivision {
        /// Unique within the event.
        name: String,
        /// Format, games, scoring, tie-breaks.
        settings: DivisionSettings,
    },
    /// Change a division's settings (only before its first round is paired, except the
    /// tie-breaks, which may change at any time).
    SetSettings {
        /// The division.
        division: DivisionId,
        /// The new settings.
        settings: DivisionSettings,
    },
    /// A player enters a division (after round 1 is paired: a late entry, rounds missed score
    /// as absences).
    Enter {
        /// The division.
        division: DivisionId,
        /// The registry id.
        player: PlayerId,
        /// The player as entered.
        info: PlayerInfo,
    },
    /// A player leaves: not paired from the next round on.
    Withdraw {
        /// The division.
        division: DivisionId,
        /// Who.
        player: PlayerId,
        /// Why (logged).
        reason: String,
    },
    /// A player will miss a round not yet paired (scores the absence points).
    Absent {
        /// The division.
        division: DivisionId,
        /// Who.
        player: PlayerId,
        /// Which round.
        round: u32,
    },
    /// A round's pairing.
    Pair {
        /// The division.
        division: DivisionId,
        /// The pairing and its explanation.
        pairing: Pairing,
    },
    /// The director replaces a round's pairing (before any result), with the reason logged.
    Override {
        /// The division.
        division: DivisionId,
        /// The replacement (the explanation says what the engine had proposed).
        pairing: Pairing,
        /// Why.
        reason: String,
    },
    /// The director pairs the next round by hand (e.g. when the engine finds no pairing
    /// without a rematch), with the reason logged.
    PairByHand {
        /// The division.
        division: DivisionId,
        /// The director's pairing: every player available in the round on a board or the bye.
        pairing: Pairing,
        /// Why.
        reason: String,
    },
    /// The director withdraws the last round's pairing (before any result).
    Unpair {
        /// The division.
        division: DivisionId,
        /// The round (the last paired).
        round: u32,
        /// Why.
        reason: String,
    },
    /// Ballots drawn for a round: one for all boards, or one per board in board order.
    Ballots {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// What was drawn, card by card.
        draws: Vec<BallotDraw>,
    },
    /// A board's result (replaces what was entered before: corrections are logged too).
    Result {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// The result so far.
        result: BoardResult,
    },
    /// A PDN of the board's games.
    AttachPdn {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// The PDN text (already checked by the caller).
        pdn: String,
    },
    /// The board is played on crossboard: its match file belongs to the event.
    LinkMatch {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// The match file's path.
        file: String,
    },
}

/// A player in a division.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The registry id.
    pub player: PlayerId,
    /// As entered.
    pub info: PlayerInfo,
    /// The first round the player can be paired in (1 unless a late entry).
    pub from_round: u32,
    /// Not paired from this round on (withdrawn).
    pub withdrawn_from: Option<u32>,
    /// Rounds the player said they will miss.
    pub absences: BTreeSet<u32>,
}

impl Entrant {
    /// True when the player can be paired in `round`.
    pub fn available(&self, round: u32) -> bool {
        round >= self.from_round
            && self.withdrawn_from.is_none_or(|w| round < w)
            && !self.absences.contains(&round)
    }
}

/// A round as it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// 1, 2, ...
    pub number: u32,
    /// The boards, top first.
    pub boards: Vec<Board>,
    /// The pairing bye.
    pub bye: Option<PlayerId>,
    /// Why each board was paired so.
    pub explanation: Explanation,
    /// Director overrides of this round's pairing, with their reasons.
    pub overrides: Vec<String>,
    /// Ballots drawn (empty until drawn).
    pub ballots: Vec<BallotDraw>,
}

impl Round {
    /// The board `number`.
    pub fn board(&self, number: u32) -> Option<&Board> {
        self.boards.iter().find(|b| b.number == number)
    }

    /// The board `id` plays on.
    pub fn board_of(&self, id: PlayerId) -> Option<&Board> {
        self.boards.iter().find(|b| b.side_of(id).is_some())
    }

    /// True when no board has a result yet.
    pub fn untouched(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_none())
    }
}

/// A division: its settings, players and rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Division {
    /// Its name.
    pub name: String,
    /// Its settings.
    pub settings: DivisionSettings,
    /// Players in entry order.
    pub entrants: Vec<Entrant>,
    /// Rounds paired so far.
    pub rounds: Vec<Round>,
    index: HashMap<PlayerId, usize>,
}

impl Division {
    fn new(name: String, settings: DivisionSettings) -> Division {
        Division {
            name,
            settings,
            entrants: Vec::new(),
            rounds: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The entrant with registry id `id`.
    pub fn entrant(&self, id: PlayerId) -> Option<&Entrant> {
        self.index.get(&id).map(|&i| &self.entrants[i])
    }

    /// The entrant `who` names: a registry id, or a name (case-insensitive).
    pub fn find_player(&self, who: &str) -> Result<PlayerId, EventError> {
        let t = who.trim();
        if let Ok(id) = t.parse::<PlayerId>()
            && self.entrant(id).is_some()
        {
            return Ok(id);
        }
        let mut hits = self
            .entrants
            .iter()
            .filter(|e| e.info.name.eq_ignore_ascii_case(t))
            .map(|e| e.player);
        match (hits.next(), hits.next()) {
            (Some(id), None) => Ok(id),
            (None, _) => Err(EventError::NoPlayer {
                who: t.to_string(),
                division: self.name.clone(),
            }),
            _ => Err(EventError::AmbiguousPlayer(t.to_string())),
        }
    }

    /// The entrant's position in [`Division::entrants`].
    pub fn position(&self, id: PlayerId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// A player's name ("?" for an id not entered).
    pub fn name(&self, id: PlayerId) -> &str {
        self.entrant(id).map_or("?", |e| e.info.name.as_str())
    }

    /// Round `number` if paired.
    pub fn round(&self, number: u32) -> Option<&Round> {
        number
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
    }

    fn round_mut(&mut self, number: u32) -> Result<&mut Round, EventError> {
        number
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i as usize))
            .ok_or(EventError::NoRound(number))
    }

    /// The last round paired (0 before round 1).
    pub fn paired_rounds(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// Rounds planned for the players entered.
    pub fn planned_rounds(&self) -> u32 {
        self.settings.planned_rounds(self.entrants.len())
    }

    /// True when every board of every paired round is complete.
    pub fn rounds_complete(&self) -> bool {
        let g = self.settings.games_per_round;
        self.rounds
            .iter()
            .all(|r| r.boards.iter().all(|b| b.is_complete(g)))
    }

    /// The next round to pair, if one may be paired now: the previous one complete and rounds
    /// left.
    pub fn next_round(&self) -> Result<u32, EventError> {
        let next = self.paired_rounds() + 1;
        if !self.rounds_complete() {
            return Err(EventError::RoundOpen(self.paired_rounds()));
        }
        if next > self.planned_rounds() {
            return Err(EventError::AllRoundsPaired(self.planned_rounds()));
        }
        Ok(next)
    }

    /// The next round, if the director may pair it now: [`Division::next_round`], with at
    /// least two players to pair (a round paired before the entries would score an absence
    /// for everyone entered after it). Asked by the desk and the command line before pairing,
    /// not by the log's check, so a log that paired such a round still opens.
    pub fn round_to_pair(&self) -> Result<u32, EventError> {
        let next = self.next_round();
        let round = self.paired_rounds() + 1;
        let players = self.available(round).len();
        match next {
            Ok(_) | Err(EventError::AllRoundsPaired(0)) if players < 2 => {
                Err(EventError::TooFewPlayers { round, players })
            }
            next => next,
        }
    }

    /// Whether an absence may be announced for `round`: a round of the division's plan (round
    /// 0 or round 99 of a five-round Swiss would be recorded and never met). Asked by the desk
    /// and the command line, not by the log's check, so a log that holds one still opens.
    pub fn absence_round(&self, round: u32) -> Result<u32, EventError> {
        let planned = self.planned_rounds();
        if round == 0 || round > planned {
            return Err(EventError::NotInPlan { round, planned });
        }
        Ok(round)
    }

    /// Players who can be paired in `round`, in entry order.
    pub fn available(&self, round: u32) -> Vec<PlayerId> {
        self.entrants
            .iter()
            .filter(|e| e.available(round))
            .map(|e| e.player)
            .collect()
    }

    fn check_pairing(&self, pairing: &Pairing) -> Result<(), EventError> {
        let mut seen = BTreeSet::new();
        let players = pairing
            .boards
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .chain(pairing.bye);
        for id in players {
            let e = self.entrant(id).ok_or(EventError::NotEntered(id))?;
            if !e.available(pairing.round) {
                return Err(EventError::NotAvailable {
                    name: e.info.name.clone(),
                    round: pairing.round,
                });
            }
            if !seen.insert(id) {
                return Err(EventError::PairedTwice(e.info.name.clone()));
            }
        }
        Ok(())
    }

    /// A pairing of the next round whose players can all play in it, each once.
    fn check_next(&self, pairing: &Pairing) -> Result<(), EventError> {
        let next = self.next_round()?;
        if pairing.round != next {
            return Err(EventError::WrongRound {
                expected: next,
                got: pairing.round,
            });
        }
        self.check_pairing(pairing)
    }

    /// Every player available in the pairing's round is on a board or has the bye.
    fn check_complete(&self, pairing: &Pairing) -> Result<(), EventError> {
        let placed: BTreeSet<PlayerId> = pairing
            .boards
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .chain(pairing.bye)
            .collect();
        match self
            .available(pairing.round)
            .into_iter()
            .find(|p| !placed.contains(p))
        {
            Some(p) => Err(EventError::Unplaced {
                name: self.name(p).to_string(),
                round: pairing.round,
            }),
            None => Ok(()),
        }
    }
}

/// A director's reason: required, and a text within the limits.
fn check_reason(reason: &str) -> Result<(), EventError> {
    if reason.trim().is_empty() {
        return Err(EventError::NoReason);
    }
    Ok(check_text("reason", reason)?)
}

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
    /// An absence for a round already paired.
    #[error("round {0} is already paired")]
    RoundPaired(u32),
    /// A round not paired.
    #[error("round {0} is not paired")]
    NoRound(u32),
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
    /// No entrant of that name or id.
    #[error("no player {who:?} in division {division}")]
    NoPlayer {
        /// As typed.
        who: String,
        /// The division's name.
        division: String,
    },
    /// Two entrants of that name.
    #[error("{0:?} names two players: use the registry id")]
    AmbiguousPlayer(String),
}

/// The whole event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tournament {
    /// Heading information.
    pub info: EventInfo,
    /// Divisions in the order they were added.
    pub divisions: Vec<Division>,
    /// Actions applied (the log's length).
    pub actions: usize,
}

impl Tournament {
    /// An event with nothing in it.
    pub fn new() -> Tournament {
        Tournament::default()
    }

    /// The event a log describes; the first refused action is an error with its position.
    pub fn replay<'a>(
        actions: impl IntoIterator<Item = &'a Action>,
    ) -> Result<Tournament, (usize, EventError)> {
        let mut e = Tournament::new();
        for (i, a) in actions.into_iter().enumerate() {
            e.apply(a).map_err(|err| (i, err))?;
        }
        Ok(e)
    }

    /// The division called `name` (case-insensitive), or numbered `name` (1-based).
    pub fn find_division(&self, name: &str) -> Result<DivisionId, EventError> {
        let t = name.trim();
        if let Some(i) = self
            .divisions
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(t))
        {
            return Ok(i);
        }
        match t.parse::<usize>() {
            Ok(n) if (1..=self.divisions.len()).contains(&n) => Ok(n - 1),
            _ => Err(EventError::NoDivision(t.to_string())),
        }
    }

    /// Division `id`.
    pub fn division(&self, id: DivisionId) -> Result<&Division, EventError> {
        self.divisions
            .get(id)
            .ok_or_else(|| EventError::NoDivision((id + 1).to_string()))
    }

    /// Check `action` against the state and apply it; a refused action changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<(), EventError> {
        self.check(action)?;
        self.evolve(action);
        self.actions += 1;
        Ok(())
    }

    /// Why `action` would be refused, if it would.
    #[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
    pub fn check(&self, action: &Action) -> Result<(), EventError> {
        match action {
            Action::SetInfo { info } => {
                for (f, t) in [
                    ("event name", &info.name),
                    ("site", &info.site),
                    ("start date", &info.start_date),
                    ("end date", &info.end_date),
                    ("director", &info.director),
                    ("game", &info.game),
                ] {
                    check_text(f, t)?;
                }
                Ok(())
            }
            Action::AddDivision { name, settings } => {
                if name.trim().is_empty() {
                    return Err(EventError::Text(PlayerError::NoName));
                }
                check_text("division name", name)?;
                if self
                    .find_division(name)
                    .is_ok_and(|i| self.divisions[i].name.eq_ignore_ascii_case(name.trim()))
                {
                    return Err(EventError::DivisionExists(name.clone()));
                }
                settings.validate()?;
                Ok(())
            }
            Action::SetSettings { division, settings } => {
                let d = self.division(*division)?;
                settings.validate()?;
                let mut same = settings.clone();
                same.tiebreaks = d.settings.tiebreaks.clone();
                if !d.rounds.is_empty() && same != d.settings {
                    return Err(EventError::SettingsLocked);
                }
                Ok(())
            }
            Action::Enter {
                division,
                player,
                info,
            } => {
                let d = self.division(*division)?;
                info.validate()?;
                if d.entrant(*player).is_some() {
                    return Err(EventError::AlreadyEntered(info.name.clone()));
                }
                if d.entrants.len() >= MAX_PLAYERS {
                    return Err(EventError::TooManyPlayers);
                }
                if matches!(d.settings.format, Format::RoundRobin { .. }) && !d.rounds.is_empty() {
                    return Err(EventError::RoundRobinStarted);
                }
                Ok(())
            }
            Action::Withdraw {
                division,
                player,
                reason,
            } => {
                let d = self.division(*division)?;
                check_text("reason", reason)?;
                let e = d.entrant(*player).ok_or(EventError::NotEntered(*player))?;
                if e.withdrawn_from.is_some() {
                    return Err(EventError::AlreadyWithdrawn(e.info.name.clone()));
                }
                Ok(())
            }
            Action::Absent {
                division,
                player,
                round,
            } => {
                let d = self.division(*division)?;
                d.entrant(*player).ok_or(EventError::NotEntered(*player))?;
                if *round <= d.paired_rounds() {
                    return Err(EventError::RoundPaired(*round));
                }
                Ok(())
            }
            Action::Pair { division, pairing } => self.division(*division)?.check_next(pairing),
            Action::PairByHand {
                division,
                pairing,
                reason,
            } => {
                let d = self.division(*division)?;
                check_reason(reason)?;
                d.check_next(pairing)?;
                d.check_complete(pairing)
            }
            Action::Override {
                division,
                pairing,
                reason,
            } => {
                let d = self.division(*division)?;
                check_reason(reason)?;
                let last = d.paired_rounds();
                if pairing.round != last {
                    return Err(EventError::NotLastRound(last));
                }
                let r = d.round(last).ok_or(EventError::NoRound(pairing.round))?;
                if !r.untouched() {
                    return Err(EventError::HasResults(last));
                }
                d.check_pairing(pairing)
            }
            Action::Unpair {
                division,
                round,
                reason,
            } => {
                let d = self.division(*division)?;
                check_reason(reason)?;
                if *round != d.paired_rounds() || *round == 0 {
                    return Err(EventError::NotLastRound(d.paired_rounds()));
                }
                if !d.round(*round).is_some_and(Round::untouched) {
                    return Err(EventError::HasResults(*round));
                }
                Ok(())
            }
            Action::Ballots {
                division,
                round,
                draws,
            } => {
                let d = self.division(*division)?;
                let r = d.round(*round).ok_or(EventError::NoRound(*round))?;
                let want = match d.settings.ballots {
                    super::settings::BallotMode::OnePerRound => 1,
                    super::settings::BallotMode::OnePerBoard => r.boards.len(),
                };
                let per_ballot = d.settings.games_per_round.div_ceil(2) as usize;
                if draws.len() != want * per_ballot {
                    return Err(EventError::BallotCount {
                        want: want * per_ballot,
                        got: draws.len(),
                    });
                }
                Ok(())
            }
            Action::Result {
                division,
                round,
                board,
                result,
            } => {
                let d = self.division(*division)?;
                let r = d.round(*round).ok_or(EventError::NoRound(*round))?;
                r.board(*board).ok_or(EventError::NoBoard {
                    round: *round,
                    board: *board,
                })?;
                if let BoardResult::Games { games } = result {
                    let max = d.settings.games_per_round;
                    if games.len() as u32 > max {
                        return Err(EventError::TooManyGames {
                            max,
                            got: games.len() as u32,
                        });
                    }
                }
                Ok(())
            }
            Action::AttachPdn {
                division,
                round,
                board,
                ..
            }
            | Action::LinkMatch {
                division,
                round,
                board,
                ..
            } => {
                let d = self.division(*division)?;
                let r = d.round(*round).ok_or(EventError::NoRound(*round))?;
                r.board(*board).ok_or(EventError::NoBoard {
                    round: *round,
                    board: *board,
                })?;
                Ok(())
            }
        }
    }

    /// Apply a checked action.
    #[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
    fn evolve(&mut self, action: &Action) {
        match action.clone() {
            Action::SetInfo { info } => self.info = info,
            Action::AddDivision { name, settings } => {
                self.divisions
                    .push(Division::new(name.trim().to_string(), settings));
            }
            Action::SetSettings { division, settings } => {
                self.divisions[division].settings = settings;
            }
            Action::Enter {
                division,
                player,
                info,
            } => {
                let d = &mut self.divisions[division];
                let from_round = d.paired_rounds() + 1;
                d.index.insert(player, d.entrants.len());
                d.entrants.push(Entrant {
                    player,
                    info,
                    from_round,
                    withdrawn_from: None,
                    absences: BTreeSet::new(),
                });
            }
            Action::Withdraw {
                division, player, ..
            } => {
                let d = &mut self.divisions[division];
                let from = d.paired_rounds() + 1;
                let i = d.index[&player];
                d.entrants[i].withdrawn_from = Some(from);
            }
            Action::Absent {
                division,
                player,
                round,
            } => {
                let d = &mut self.divisions[division];
                let i = d.index[&player];
                d.entrants[i].absences.insert(round);
            }
            Action::Pair { division, pairing } => {
                let d = &mut self.divisions[division];
                d.rounds.push(round_from(pairing, Vec::new()));
            }
            Action::PairByHand {
                division,
                pairing,
                reason,
            } => {
                self.divisions[division]
                    .rounds
                    .push(round_from(pairing, vec![reason]));
            }
            Action::Override {
                division,
                pairing,
                reason,
            } => {
                let d = &mut self.divisions[division];
                if let Some(old) = d.rounds.pop() {
                    let mut overrides = old.overrides;
                    overrides.push(reason);
                    // The round's ballots were drawn for the round, not for the pairing: an
                    // exchange of players keeps them.
                    let mut round = round_from(pairing, overrides);
                    round.ballots = old.ballots;
                    d.rounds.push(round);
                }
            }
            Action::Unpair { division, .. } => {
                self.divisions[division].rounds.pop();
            }
            Action::Ballots {
                division,
                round,
                draws,
            } => {
                if let Ok(r) = self.divisions[division].round_mut(round) {
                    r.ballots = draws;
                }
            }
            Action::Result {
                division,
                round,
                board,
                result,
            } => {
                if let Some(b) = self.board_mut(division, round, board) {
                    b.result = Some(result);
                }
            }
            Action::AttachPdn {
                division,
                round,
                board,
                pdn,
            } => {
                if let Some(b) = self.board_mut(division, round, board) {
                    b.pdn = Some(pdn);
                }
            }
            Action::LinkMatch {
                division,
                round,
                board,
                file,
            } => {
                if let Some(b) = self.board_mut(division, round, board) {
                    b.match_file = Some(file);
                }
            }
        }
    }

    fn board_mut(&mut self, division: DivisionId, round: u32, board: u32) -> Option<&mut Board> {
        let r = self.divisions.get_mut(division)?.round_mut(round).ok()?;
        r.boards.iter_mut().find(|b| b.number == board)
    }
}

fn round_from(pairing: Pairing, overrides: Vec<String>) -> Round {
    Round {
        number: pairing.round,
        boards: pairing
            .boards
            .iter()
            .enumerate()
            .map(|(i, &(first, second))| Board {
                number: i as u32 + 1,
                first,
                second,
                result: None,
                pdn: None,
                match_file: None,
            })
            .collect(),
        bye: pairing.bye,
        explanation: pairing.explanation,
        overrides,
        ballots: Vec::new(),
    }
}
