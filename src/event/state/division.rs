//! A division and what can be asked of it: its players, its rounds, the next round to pair.

use super::records::Entrant;
use super::{EventError, Round};
use crate::director::Points;
use crate::event::player::PlayerId;
use crate::event::prizes::Prizes;
use crate::event::settings::DivisionSettings;
use std::collections::HashMap;

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
    /// The prize list.
    pub prizes: Prizes,
    /// Each entrant's position in `entrants`.
    pub(super) index: HashMap<PlayerId, usize>,
}

impl Division {
    pub(super) fn new(name: String, settings: DivisionSettings) -> Division {
        Division {
            name,
            settings,
            entrants: Vec::new(),
            rounds: Vec::new(),
            prizes: Prizes::default(),
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

    /// Round `number`, or why there is none to show or change: round 0 ([`EventError::RoundZero`]),
    /// or a round not paired.
    pub fn paired_round(&self, number: u32) -> Result<&Round, EventError> {
        if number == 0 {
            return Err(EventError::RoundZero);
        }
        self.round(number).ok_or(EventError::NoRound(number))
    }

    pub(super) fn round_mut(&mut self, number: u32) -> Result<&mut Round, EventError> {
        number
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i as usize))
            .ok_or(EventError::NoRound(number))
    }

    /// The last round paired (0 before round 1).
    pub fn paired_rounds(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// True when a bye requested now for `round` is late: the round before it is already
    /// paired (a request for round 1, or asked before the round before is paired, is on time).
    pub fn bye_request_late(&self, round: u32) -> bool {
        round > 1 && self.paired_rounds() + 1 >= round
    }

    /// The points of `player`'s requested bye in `round`, if they asked for one: the
    /// division's requested-bye points, nothing for a late request.
    pub fn requested_bye_points(&self, player: PlayerId, round: u32) -> Option<Points> {
        let late = *self.entrant(player)?.requested_byes.get(&round)?;
        Some(self.requested_bye_worth(late))
    }

    /// What a requested bye scores: the division's requested-bye points, nothing if `late`.
    pub fn requested_bye_worth(&self, late: bool) -> Points {
        if late {
            Points::ZERO
        } else {
            self.settings.requested_bye()
        }
    }

    /// Rounds planned for the players entered.
    pub fn planned_rounds(&self) -> u32 {
        self.settings.planned_rounds(self.entrants.len())
    }

    /// The last round whose results are all in, every round before it finished too (0: none):
    /// the round the standings are after.
    pub fn finished_rounds(&self) -> u32 {
        let g = self.settings.games_per_round;
        let done = self
            .rounds
            .iter()
            .take_while(|r| r.boards.iter().all(|b| b.is_complete(g)))
            .count();
        u32::try_from(done).unwrap_or(u32::MAX)
    }

    /// True when every board of every paired round is complete.
    pub fn rounds_complete(&self) -> bool {
        let g = self.settings.games_per_round;
        self.rounds
            .iter()
            .all(|r| r.boards.iter().all(|b| b.is_complete(g)))
    }

    /// True when every planned round is paired and its results are all in: the standings
    /// are final.
    pub fn is_finished(&self) -> bool {
        self.paired_rounds() >= self.planned_rounds() && self.rounds_complete()
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
}
