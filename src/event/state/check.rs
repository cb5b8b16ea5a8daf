//! The rules an action must meet: [`Tournament::check`], one check per kind of action.

use super::{Action, BoardResult, Division, EventError, Pairing, Round, Tournament};
use crate::event::player::{PlayerError, PlayerId, PlayerInfo, check_text};
use crate::event::settings::{BallotMode, DivisionSettings, EventInfo, Format, MAX_PLAYERS};
use std::collections::BTreeSet;

impl Tournament {
    /// Why `action` would be refused, if it would.
    pub fn check(&self, action: &Action) -> Result<(), EventError> {
        match action {
            Action::SetInfo { info } => check_info(info),
            Action::AddDivision { name, settings } => self.check_new_division(name, settings),
            Action::SetSettings { division, settings } => {
                self.division(*division)?.check_settings(settings)
            }
            Action::Enter {
                division,
                player,
                info,
            } => self.division(*division)?.check_entry(*player, info),
            Action::Withdraw {
                division,
                player,
                reason,
            } => self.division(*division)?.check_withdrawal(*player, reason),
            Action::Absent {
                division,
                player,
                round,
            } => self.division(*division)?.check_absence(*player, *round),
            Action::ByeRequest {
                division,
                player,
                round,
                cancel,
            } => self
                .division(*division)?
                .check_bye_request(*player, *round, *cancel),
            Action::Pair { division, pairing } => self.division(*division)?.check_next(pairing),
            Action::PairByHand {
                division,
                pairing,
                reason,
            } => self.division(*division)?.check_by_hand(pairing, reason),
            Action::Override {
                division,
                pairing,
                reason,
            } => self.division(*division)?.check_override(pairing, reason),
            Action::Unpair {
                division,
                round,
                reason,
            } => self.division(*division)?.check_unpair(*round, reason),
            Action::Ballots {
                division,
                round,
                draws,
            } => self.division(*division)?.check_ballots(*round, draws.len()),
            Action::Result {
                division,
                round,
                board,
                result,
            } => self
                .division(*division)?
                .check_result(*round, *board, result),
            Action::FloorResult { division, .. } | Action::Overrule { division, .. } => {
                self.division(*division)?.check_floor_action(action)
            }
            Action::SetPrizes { division, prizes } => {
                self.division(*division)?;
                Ok(prizes.validate()?)
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
            } => self.division(*division)?.check_board(*round, *board),
        }
    }

    /// A new division: a name not taken, settings that hold.
    fn check_new_division(
        &self,
        name: &str,
        settings: &DivisionSettings,
    ) -> Result<(), EventError> {
        if name.trim().is_empty() {
            return Err(EventError::Text(PlayerError::NoName));
        }
        check_text("division name", name)?;
        if self
            .find_division(name)
            .is_ok_and(|i| self.divisions[i].name.eq_ignore_ascii_case(name.trim()))
        {
            return Err(EventError::DivisionExists(name.to_string()));
        }
        settings.validate()?;
        Ok(())
    }
}

/// The event's heading: every text within the limits.
fn check_info(info: &EventInfo) -> Result<(), EventError> {
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

/// A director's reason: required, and a text within the limits.
pub(super) fn check_reason(reason: &str) -> Result<(), EventError> {
    if reason.trim().is_empty() {
        return Err(EventError::NoReason);
    }
    Ok(check_text("reason", reason)?)
}

impl Division {
    /// New settings: valid, and only the tie-breaks changed once a round is paired.
    fn check_settings(&self, settings: &DivisionSettings) -> Result<(), EventError> {
        settings.validate()?;
        let mut same = settings.clone();
        same.tiebreaks = self.settings.tiebreaks.clone();
        if !self.rounds.is_empty() && same != self.settings {
            return Err(EventError::SettingsLocked);
        }
        Ok(())
    }

    /// An entry: a valid player, not entered yet, room left, and no round robin under way.
    fn check_entry(&self, player: PlayerId, info: &PlayerInfo) -> Result<(), EventError> {
        info.validate()?;
        if self.entrant(player).is_some() {
            return Err(EventError::AlreadyEntered(info.name.clone()));
        }
        if self.entrants.len() >= MAX_PLAYERS {
            return Err(EventError::TooManyPlayers);
        }
        if matches!(self.settings.format, Format::RoundRobin { .. }) && !self.rounds.is_empty() {
            return Err(EventError::RoundRobinStarted);
        }
        Ok(())
    }

    /// A withdrawal: an entrant still playing.
    fn check_withdrawal(&self, player: PlayerId, reason: &str) -> Result<(), EventError> {
        check_text("reason", reason)?;
        let e = self.entrant(player).ok_or(EventError::NotEntered(player))?;
        if e.withdrawn_from.is_some() {
            return Err(EventError::AlreadyWithdrawn(e.info.name.clone()));
        }
        Ok(())
    }

    /// An absence: an entrant, in a round not yet paired, who has not asked to sit it out.
    fn check_absence(&self, player: PlayerId, round: u32) -> Result<(), EventError> {
        let e = self.entrant(player).ok_or(EventError::NotEntered(player))?;
        if round <= self.paired_rounds() {
            return Err(EventError::RoundPaired(round));
        }
        if e.requested_byes.contains_key(&round) {
            return Err(EventError::ByeRequested {
                name: e.info.name.clone(),
                round,
            });
        }
        Ok(())
    }

    /// A requested bye: an entrant still playing, a Swiss round of the plan not yet paired (a
    /// player who will not play a paired round forfeits the board), asked once; taken back
    /// only when asked and before the round is paired.
    fn check_bye_request(
        &self,
        player: PlayerId,
        round: u32,
        cancel: bool,
    ) -> Result<(), EventError> {
        let e = self.entrant(player).ok_or(EventError::NotEntered(player))?;
        if matches!(self.settings.format, Format::RoundRobin { .. }) {
            return Err(EventError::ByeInRoundRobin);
        }
        self.absence_round(round)?;
        if round <= self.paired_rounds() {
            return Err(EventError::ByeAfterPairing(round));
        }
        let name = e.info.name.clone();
        match (cancel, e.requested_byes.contains_key(&round)) {
            (false, true) => Err(EventError::ByeRequested { name, round }),
            (true, false) => Err(EventError::NoByeRequest { name, round }),
            (false, false) if !e.available(round) => Err(EventError::ByeNotPlaying { name, round }),
            _ => Ok(()),
        }
    }

    /// A round paired by hand: a reason, and every player available placed once.
    fn check_by_hand(&self, pairing: &Pairing, reason: &str) -> Result<(), EventError> {
        check_reason(reason)?;
        self.check_next(pairing)?;
        self.check_complete(pairing)
    }

    /// An override: a reason, the last round, no result in it yet.
    fn check_override(&self, pairing: &Pairing, reason: &str) -> Result<(), EventError> {
        check_reason(reason)?;
        let last = self.paired_rounds();
        if pairing.round != last {
            return Err(EventError::NotLastRound(last));
        }
        let r = self.round(last).ok_or(EventError::NoRound(pairing.round))?;
        if !r.untouched() {
            return Err(EventError::HasResults(last));
        }
        self.check_pairing(pairing)
    }

    /// An unpairing: a reason, the last round, no result in it yet.
    fn check_unpair(&self, round: u32, reason: &str) -> Result<(), EventError> {
        check_reason(reason)?;
        if round != self.paired_rounds() || round == 0 {
            return Err(EventError::NotLastRound(self.paired_rounds()));
        }
        if !self.round(round).is_some_and(Round::untouched) {
            return Err(EventError::HasResults(round));
        }
        Ok(())
    }

    /// Ballots: a round paired, and as many draws as its ballots need.
    fn check_ballots(&self, round: u32, draws: usize) -> Result<(), EventError> {
        let r = self.round(round).ok_or(EventError::NoRound(round))?;
        let want = match self.settings.ballots {
            BallotMode::OnePerRound => 1,
            BallotMode::OnePerBoard => r.boards.len(),
        };
        let per_ballot = self.settings.games_per_round.div_ceil(2) as usize;
        if draws != want * per_ballot {
            return Err(EventError::BallotCount {
                want: want * per_ballot,
                got: draws,
            });
        }
        Ok(())
    }

    /// A board's result: the board exists, and no more games than a round has.
    pub(super) fn check_result(
        &self,
        round: u32,
        board: u32,
        result: &BoardResult,
    ) -> Result<(), EventError> {
        self.check_board(round, board)?;
        if let BoardResult::Games { games } = result {
            let max = self.settings.games_per_round;
            if games.len() as u32 > max {
                return Err(EventError::TooManyGames {
                    max,
                    got: games.len() as u32,
                });
            }
        }
        Ok(())
    }

    /// Board `board` of round `round` exists.
    fn check_board(&self, round: u32, board: u32) -> Result<(), EventError> {
        let r = self.paired_round(round)?;
        r.board(board).ok_or(EventError::NoBoard { round, board })?;
        Ok(())
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
