//! Decide, during a game: the players' draw offers and claims, compelling after a huff, the
//! strength count, resigning, the director's clock commands and notes, each checked against
//! the game in play and answered with its events.

use super::*;
use crate::director::clock::ClockError;
use crate::director::event::{EndReason, GameResult, MatchEvent};
use crate::director::limits;
use crate::director::settings::StrengthRule;
use crate::engine::{Color, DrawClaim, HuffError, Outcome, Rules};

impl Match {
    /// `colour` offers a draw.
    pub(super) fn offer_events(
        &self,
        colour: Color,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (_, _, g) = self.in_play(kind)?;
        if let Some(c) = self.draw_offer {
            return Err(MatchError::OfferPending(c));
        }
        g.clock.check_spent(spent)?;
        Ok(vec![MatchEvent::DrawOffered {
            colour,
            spent_ms: Some(spent),
        }])
    }

    /// `colour` accepts the opponent's offer: the game is drawn.
    pub(super) fn accept_draw_events(
        &self,
        colour: Color,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g) = self.in_play(kind)?;
        if self.draw_offer != Some(colour.opponent()) {
            return Err(MatchError::NoOffer(colour.opponent()));
        }
        g.clock.check_spent(spent)?;
        let result = GameResult {
            outcome: Outcome::Draw,
            reason: EndReason::Agreed,
        };
        Ok(self.end_events(ballot, game, result, spent))
    }

    /// `colour` declines the opponent's offer.
    pub(super) fn decline_draw_events(
        &self,
        colour: Color,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (_, _, g) = self.in_play(kind)?;
        if self.draw_offer != Some(colour.opponent()) {
            return Err(MatchError::NoOffer(colour.opponent()));
        }
        g.clock.check_spent(spent)?;
        Ok(vec![MatchEvent::DrawDeclined {
            colour,
            spent_ms: Some(spent),
        }])
    }

    /// A draw claimed by rule: a repetition, the forty-move or thirteen-count rules, or the
    /// strength count reached.
    pub(super) fn claim_events(
        &self,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g) = self.in_play(kind)?;
        let strength = g.strength_reading(self.settings.strength_rule);
        let reason = match g.game.claimable_draw() {
            Some(DrawClaim::Repetition) => EndReason::Repetition,
            Some(DrawClaim::FortyMoves) => EndReason::FortyMoves,
            Some(DrawClaim::ThirteenCount) => EndReason::ThirteenCount,
            None if strength.is_some_and(|s| s.reached()) => EndReason::StrengthRule,
            None => return Err(MatchError::NotClaimable),
        };
        g.clock.check_spent(spent)?;
        let result = GameResult {
            outcome: Outcome::Draw,
            reason,
        };
        Ok(self.end_events(ballot, game, result, spent))
    }

    /// `colour` takes back the huffed player's move and compels the capture it left.
    pub(super) fn compel_events(
        &self,
        colour: Color,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (_, _, g) = self.turn(colour)?;
        g.clock.check_spent(spent)?;
        g.game.clone().compel()?;
        if g.clock.committed() == 0 {
            return Err(MatchError::Huff(HuffError::NoChance));
        }
        Ok(vec![MatchEvent::Compelled])
    }

    /// `colour`, the weaker side in pool checkers, asks for the strength count.
    pub(super) fn strength_count_events(
        &self,
        colour: Color,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (_, _, g) = self.in_play(kind)?;
        let pos = g.game.position();
        let refuse = |why| Err(MatchError::Strength(why));
        if self.settings.game != Rules::Pool {
            return refuse(StrengthRefusal::NotPool);
        }
        if pos.strength(colour) >= pos.strength(colour.opponent()) {
            return refuse(StrengthRefusal::NotWeaker);
        }
        if g.strength_reading(self.settings.strength_rule).is_some() {
            return refuse(StrengthRefusal::Running);
        }
        g.clock.check_spent(spent)?;
        Ok(vec![MatchEvent::StrengthCountAsked {
            colour,
            spent_ms: Some(spent),
        }])
    }

    /// The strength count extended by its eight moves (the 30 + 8 rule, once reached).
    pub(super) fn extend_count_events(
        &self,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (_, _, g) = self.in_play(kind)?;
        let rule = self.settings.strength_rule;
        match g.strength_reading(rule) {
            None => Err(MatchError::Strength(StrengthRefusal::NotRunning)),
            Some(r) if rule == StrengthRule::ThirtyPlusEight && !r.extended && r.reached() => {
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::StrengthCountExtended {
                    spent_ms: Some(spent),
                }])
            }
            Some(_) => Err(MatchError::Strength(StrengthRefusal::NotExtendable)),
        }
    }

    /// `colour` resigns the game.
    pub(super) fn resign_events(
        &self,
        colour: Color,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g) = self.in_play(kind)?;
        g.clock.check_spent(spent)?;
        let result = GameResult {
            outcome: Outcome::Win(colour.opponent()),
            reason: EndReason::Resigned,
        };
        Ok(self.end_events(ballot, game, result, spent))
    }

    /// The director pauses the clocks, for `reason`.
    pub(super) fn pause_events(
        &self,
        reason: String,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        need(&reason, TextKind::Reason)?;
        let (_, _, g) = self.in_play(kind)?;
        if g.clock.is_paused() {
            return Err(MatchError::Paused);
        }
        g.clock.check_spent(spent)?;
        Ok(vec![MatchEvent::ClocksPaused {
            reason,
            spent_ms: spent,
        }])
    }

    /// The director restarts the paused clocks.
    pub(super) fn resume_events(&self, kind: CommandKind) -> Result<Vec<MatchEvent>, MatchError> {
        let (_, _, g) = self.in_play(kind)?;
        if !g.clock.is_paused() {
            return Err(MatchError::Clock(ClockError::NotPaused));
        }
        Ok(vec![MatchEvent::ClocksResumed])
    }

    /// The director adds `delta_ms` to `colour`'s time left, for `reason`.
    pub(super) fn adjust_events(
        &self,
        colour: Color,
        delta_ms: i64,
        reason: String,
        spent: u64,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        need(&reason, TextKind::Reason)?;
        if delta_ms.unsigned_abs() > limits::ADJUST_MS_MAX {
            return Err(MatchError::AdjustTooLarge(delta_ms));
        }
        let (_, _, g) = self.in_play(kind)?;
        let remaining_ms = g.clock.adjusted(colour, delta_ms)?;
        g.clock.check_spent(spent)?;
        Ok(vec![MatchEvent::TimeAdjusted {
            colour,
            delta_ms,
            remaining_ms,
            reason,
            spent_ms: Some(spent),
        }])
    }

    /// A note in the log; during a game it records the time the side to move has spent.
    pub(super) fn note_events(
        &self,
        text: String,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        need(&text, TextKind::Note)?;
        let spent_ms = match self.playing() {
            Some(g) => {
                g.clock.check_spent(spent)?;
                Some(spent)
            }
            None => None,
        };
        Ok(vec![MatchEvent::Note { text, spent_ms }])
    }
}
