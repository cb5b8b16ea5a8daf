//! How each action changes the event, once checked.

use super::floor::Floor;
use super::records::Entrant;
use super::{Action, Board, Division, DivisionId, Pairing, Round, Tournament};
use crate::event::ballot::BallotDraw;
use crate::event::player::{PlayerId, PlayerInfo};
use std::collections::{BTreeMap, BTreeSet};

impl Tournament {
    /// Apply a checked action.
    pub(super) fn evolve(&mut self, action: &Action) {
        match action.clone() {
            Action::SetInfo { info } => self.info = info,
            Action::AddDivision { name, settings } => {
                self.divisions
                    .push(Division::new(name.trim().to_string(), settings));
            }
            Action::SetSettings { division, settings } => {
                self.divisions[division].settings = settings;
            }
            Action::SetPrizes { division, prizes } => self.divisions[division].prizes = prizes,
            Action::Enter {
                division,
                player,
                info,
            } => self.divisions[division].add_entrant(player, info),
            Action::Withdraw {
                division, player, ..
            } => self.divisions[division].mark_withdrawn(player),
            Action::Absent {
                division,
                player,
                round,
            } => self.divisions[division].add_absence(player, round),
            Action::ByeRequest {
                division,
                player,
                round,
                cancel,
            } => self.divisions[division].set_bye_request(player, round, cancel),
            Action::Pair { division, pairing } => {
                self.divisions[division].push_round(pairing, Vec::new());
            }
            Action::PairByHand {
                division,
                pairing,
                reason,
            } => self.divisions[division].push_round(pairing, vec![reason]),
            Action::Override {
                division,
                pairing,
                reason,
            } => self.divisions[division].replace_last_round(pairing, reason),
            Action::Unpair { division, .. } => {
                self.divisions[division].rounds.pop();
            }
            Action::Ballots {
                division,
                round,
                draws,
            } => self.divisions[division].set_ballots(round, draws),
            Action::Result {
                division,
                round,
                board,
                result,
            } => self.on_board(division, round, board, |b| b.result = Some(result)),
            Action::AttachPdn {
                division,
                round,
                board,
                pdn,
                overridden,
            } => self.on_board(division, round, board, |b| {
                b.pdn = Some(pdn);
                b.pdn_overridden = overridden;
            }),
            Action::LinkMatch {
                division,
                round,
                board,
                file,
            } => self.on_board(division, round, board, |b| b.match_file = Some(file)),
            Action::FloorResult { .. } | Action::Overrule { .. } => self.evolve_floor(action),
        }
    }

    /// Change board `board` of `round`, if it exists.
    pub(super) fn on_board(
        &mut self,
        division: DivisionId,
        round: u32,
        board: u32,
        change: impl FnOnce(&mut Board),
    ) {
        if let Some(b) = self.board_mut(division, round, board) {
            change(b);
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
                pdn_overridden: None,
                match_file: None,
                floor: Floor::default(),
            })
            .collect(),
        bye: pairing.bye,
        explanation: pairing.explanation,
        overrides,
        ballots: Vec::new(),
    }
}

impl Division {
    /// A new entrant, playing from the next round.
    fn add_entrant(&mut self, player: PlayerId, info: PlayerInfo) {
        let from_round = self.paired_rounds() + 1;
        self.index.insert(player, self.entrants.len());
        self.entrants.push(Entrant {
            player,
            info,
            from_round,
            withdrawn_from: None,
            absences: BTreeSet::new(),
            requested_byes: BTreeMap::new(),
        });
    }

    /// `player` is not paired from the next round on.
    fn mark_withdrawn(&mut self, player: PlayerId) {
        let from = self.paired_rounds() + 1;
        let i = self.index[&player];
        self.entrants[i].withdrawn_from = Some(from);
    }

    /// `player` misses `round`.
    fn add_absence(&mut self, player: PlayerId, round: u32) {
        let i = self.index[&player];
        self.entrants[i].absences.insert(round);
    }

    /// A requested bye for `round` recorded (late or not, as it is now), or taken back
    /// (`cancel`).
    fn set_bye_request(&mut self, player: PlayerId, round: u32, cancel: bool) {
        let late = self.bye_request_late(round);
        let i = self.index[&player];
        let byes = &mut self.entrants[i].requested_byes;
        if cancel {
            byes.remove(&round);
        } else {
            byes.insert(round, late);
        }
    }

    /// The next round, paired.
    fn push_round(&mut self, pairing: Pairing, overrides: Vec<String>) {
        self.rounds.push(round_from(pairing, overrides));
    }

    /// The last round's pairing replaced, the reason added to its overrides.
    fn replace_last_round(&mut self, pairing: Pairing, reason: String) {
        if let Some(old) = self.rounds.pop() {
            let mut overrides = old.overrides;
            overrides.push(reason);
            // The round's ballots were drawn for the round, not for the pairing: an
            // exchange of players keeps them.
            let mut round = round_from(pairing, overrides);
            round.ballots = old.ballots;
            self.rounds.push(round);
        }
    }

    /// The ballots drawn for `round`.
    fn set_ballots(&mut self, round: u32, draws: Vec<BallotDraw>) {
        if let Ok(r) = self.round_mut(round) {
            r.ballots = draws;
        }
    }
}
