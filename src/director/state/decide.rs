//! Decide: a command checked against the match and answered with the events it gives, or
//! refused; nothing changes here.

use super::*;
use crate::director::clock::Commit;
use crate::director::command::{CoinSide, Command, CommandKind, Hand};
use crate::director::event::{Decided, EndReason, GameResult, MatchEvent, MatchOutcome};
use crate::director::limits;
use crate::director::match_score::{self, Change};
use crate::director::settings::{ColourMethod, Player, RejectionPolicy, TieRule};
use crate::engine::{Color, Move, Outcome, Position, parse_move};
use crate::openings::{self};
use chrono::{DateTime, SubsecRound, Utc};

/// A reason or a note must say something, within its bound of [`limits`].
pub(super) fn need(text: &str, what: TextKind) -> Result<(), MatchError> {
    let max = what.max_chars();
    let n = limits::chars(text);
    if text.trim().is_empty() {
        Err(MatchError::EmptyText(what))
    } else if n > max {
        Err(MatchError::TooLong {
            what,
            chars: n,
            max,
        })
    } else {
        Ok(())
    }
}

/// True if the side to move's only move is one jump (the per-move limit is shorter).
pub(super) fn single_jump(pos: &Position) -> bool {
    let moves = pos.distinct_moves();
    moves.len() == 1 && moves[0].is_capture()
}

/// The result the board gives in `pos`, if the side to move has lost.
pub(super) fn board_result(pos: &Position) -> Option<GameResult> {
    if pos.rules().stuck_side_wins() && pos.is_stuck() {
        return Some(GameResult {
            outcome: Outcome::Win(pos.turn()),
            reason: EndReason::FirstOff,
        });
    }
    if !pos.is_lost() {
        return None;
    }
    let loser = pos.turn();
    let reason = if pos.count(loser) == 0 {
        EndReason::NoPieces
    } else {
        EndReason::Blocked
    };
    Some(GameResult {
        outcome: Outcome::Win(loser.opponent()),
        reason,
    })
}

/// The wall-clock stamp of a log entry: whole seconds.
pub(super) fn stamp(wall: DateTime<Utc>) -> DateTime<Utc> {
    wall.trunc_subsecs(0)
}

/// The phase after game `game` of `ballot` has a result (before any match-level event).
pub(super) fn next_after(ballot: u32, game: u8) -> Phase {
    if game == 1 {
        Phase::Ready { ballot, game: 2 }
    } else {
        Phase::Draw {
            ballot: ballot.saturating_add(1),
        }
    }
}

impl Match {
    /// What the rng decides for `cmd` (checking first that the command fits, so a refused
    /// command rolls nothing).
    pub(super) fn roll<R: rand::Rng + ?Sized>(
        &self,
        cmd: &Command,
        rng: &mut R,
    ) -> Result<Roll, MatchError> {
        let heads = |rng: &mut R| rng.next_u32().is_multiple_of(2);
        Ok(match cmd {
            Command::CallCoin { .. } => {
                self.expect_toss(ColourMethod::CoinFlip, CommandKind::CallCoin)?;
                Roll::Coin(if heads(rng) {
                    CoinSide::Heads
                } else {
                    CoinSide::Tails
                })
            }
            Command::DrawColour { .. } => {
                self.expect_toss(ColourMethod::Bag, CommandKind::DrawColour)?;
                Roll::Colour(if heads(rng) { Color::Red } else { Color::White })
            }
            Command::PickHand { .. } => {
                self.expect_toss(ColourMethod::ConcealedHands, CommandKind::PickHand)?;
                Roll::RedHand(if heads(rng) { Hand::Left } else { Hand::Right })
            }
            Command::DrawBallot => {
                let Phase::Draw { ballot } = self.phase else {
                    return Err(self.not_now(CommandKind::DrawBallot));
                };
                match self.given_draw(ballot) {
                    Some(given) => Roll::Draw(given),
                    None => Roll::Draw(openings::draw(
                        &self.draw_settings(),
                        &self.drawn_openings(),
                        rng,
                    )?),
                }
            }
            _ => Roll::None,
        })
    }

    /// The events of `cmd` given what the rng decided (`roll`) and the time the side to move
    /// has spent on its move (`spent`, pauses excluded). Pure: the rules in one place, for
    /// live commands and for checking a log.
    pub(crate) fn rule(
        &self,
        cmd: Command,
        roll: Roll,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let kind = cmd.kind();
        match cmd {
            Command::CallCoin { caller, call } => self.coin_events(caller, call, roll, kind),
            Command::DrawColour { player } => self.bag_events(player, roll, kind),
            Command::PickHand { player, hand } => self.hand_events(player, hand, roll, kind),
            Command::ChooseColour { player, colour } => self.choice_events(player, colour, kind),
            Command::AssignColour { player, colour } => match self.phase {
                Phase::ColourChoice { .. } => Ok(vec![colours_set(player, colour, true)]),
                _ => Err(self.not_now(kind)),
            },
            Command::DrawBallot => self.draw_events(roll),
            Command::Accept { colour } => self.decision_events(colour, true),
            Command::Reject { colour } => self.decision_events(colour, false),
            Command::StartGame => self.start_events(),
            Command::Move { colour, text } => {
                let (_, _, g) = self.turn(colour)?;
                let mv = parse_move(g.game.position(), &text)?;
                self.move_events(colour, mv, spent)
            }
            Command::PlayMove { colour, mv } => self.move_events(colour, mv, spent),
            Command::OfferDraw { colour } => self.offer_events(colour, spent, kind),
            Command::AcceptDraw { colour } => self.accept_draw_events(colour, spent, kind),
            Command::DeclineDraw { colour } => self.decline_draw_events(colour, spent, kind),
            Command::ClaimDraw { colour: _ } => self.claim_events(spent, kind),
            Command::Huff { colour, square } => self.huff_events(colour, square, spent),
            Command::Compel { colour } => self.compel_events(colour, spent),
            Command::AskStrengthCount { colour } => self.strength_count_events(colour, spent, kind),
            Command::ExtendStrengthCount => self.extend_count_events(spent, kind),
            Command::Resign { colour } => self.resign_events(colour, spent, kind),
            Command::Tick => self.tick_events(spent),
            Command::Forfeit { loser, reason } => {
                need(&reason, TextKind::Reason)?;
                let result = GameResult {
                    outcome: Outcome::Win(loser.opponent()),
                    reason: EndReason::Forfeit { note: reason },
                };
                self.director_result(result, spent, kind)
            }
            Command::Adjudicate { outcome, reason } => {
                need(&reason, TextKind::Reason)?;
                let result = GameResult {
                    outcome,
                    reason: EndReason::Adjudicated { note: reason },
                };
                self.director_result(result, spent, kind)
            }
            Command::UndoDecision { reason } => {
                need(&reason, TextKind::Reason)?;
                self.undo_events(reason)
            }
            Command::TakeBack { moves, reason } => {
                need(&reason, TextKind::Reason)?;
                self.take_back_events(moves, reason)
            }
            Command::PauseClocks { reason } => self.pause_events(reason, spent, kind),
            Command::ResumeClocks => self.resume_events(kind),
            Command::AdjustTime {
                colour,
                delta_ms,
                reason,
            } => self.adjust_events(colour, delta_ms, reason, spent, kind),
            Command::Note { text } => self.note_events(text, spent),
        }
    }

    /// The coin tossed for colours: `caller` called `call`, it `landed` so (the roll).
    fn coin_events(
        &self,
        caller: Player,
        call: CoinSide,
        roll: Roll,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        self.expect_toss(ColourMethod::CoinFlip, kind)?;
        let Roll::Coin(landed) = roll else {
            return Err(self.not_now(kind));
        };
        let winner = if landed == call {
            caller
        } else {
            caller.other()
        };
        Ok(vec![MatchEvent::CoinFlipped {
            caller,
            call,
            landed,
            winner,
        }])
    }

    /// `player` draws a colour from the bag (the roll).
    fn bag_events(
        &self,
        player: Player,
        roll: Roll,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        self.expect_toss(ColourMethod::Bag, kind)?;
        let Roll::Colour(colour) = roll else {
            return Err(self.not_now(kind));
        };
        Ok(vec![
            MatchEvent::ColourDrawn { player, colour },
            colours_set(player, colour, false),
        ])
    }

    /// `player` picks a `hand`; the roll says which hand holds Red.
    fn hand_events(
        &self,
        player: Player,
        hand: Hand,
        roll: Roll,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        self.expect_toss(ColourMethod::ConcealedHands, kind)?;
        let Roll::RedHand(red_hand) = roll else {
            return Err(self.not_now(kind));
        };
        let colour = if hand == red_hand {
            Color::Red
        } else {
            Color::White
        };
        Ok(vec![
            MatchEvent::HandPicked {
                player,
                hand,
                colour,
            },
            colours_set(player, colour, false),
        ])
    }

    /// `player`, who won the toss, chooses `colour`.
    fn choice_events(
        &self,
        player: Player,
        colour: Color,
        kind: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let method = self.settings.colour_method;
        match self.phase {
            Phase::ColourChoice { chooser: Some(p) } if p == player => {
                Ok(vec![colours_set(player, colour, false)])
            }
            Phase::ColourChoice { chooser: None } if method != ColourMethod::CoinFlip => {
                Err(MatchError::WrongMethod(method))
            }
            _ => Err(self.not_now(kind)),
        }
    }

    pub(super) fn expect_toss(
        &self,
        method: ColourMethod,
        asked: CommandKind,
    ) -> Result<(), MatchError> {
        match self.phase {
            Phase::ColourChoice { chooser: None } if self.settings.colour_method == method => {
                Ok(())
            }
            Phase::ColourChoice { chooser: None } => {
                Err(MatchError::WrongMethod(self.settings.colour_method))
            }
            _ => Err(self.not_now(asked)),
        }
    }

    /// The game in play, with its ballot and game numbers.
    pub(super) fn in_play(&self, asked: CommandKind) -> Result<(u32, u8, &GameRecord), MatchError> {
        match (self.phase, self.playing()) {
            (Phase::Playing { ballot, game }, Some(g)) => Ok((ballot, game, g)),
            _ => Err(self.not_now(asked)),
        }
    }

    /// The game in play if `colour` may move in it now: its clock runs and it is that side's
    /// turn. The one place the checks of a move live.
    pub(super) fn turn(&self, colour: Color) -> Result<(u32, u8, &GameRecord), MatchError> {
        let (ballot, game, g) = self.in_play(CommandKind::Move)?;
        if g.clock.is_paused() {
            return Err(MatchError::Paused);
        }
        let expected = g.game.position().turn();
        if colour != expected {
            return Err(MatchError::NotYourTurn {
                expected,
                got: colour,
            });
        }
        Ok((ballot, game, g))
    }

    pub(super) fn draw_events(&self, roll: Roll) -> Result<Vec<MatchEvent>, MatchError> {
        let Phase::Draw { ballot } = self.phase else {
            return Err(self.not_now(CommandKind::DrawBallot));
        };
        let Roll::Draw(draw) = roll else {
            return Err(self.not_now(CommandKind::DrawBallot));
        };
        let mut ev = vec![MatchEvent::BallotDrawn {
            ballot,
            number: draw.opening.number,
            steps: draw.steps,
        }];
        // A given ballot is played as given: no one may reject it.
        let given = self.given_draw(ballot).is_some();
        if given || self.settings.rejection != RejectionPolicy::PlayersMayReject {
            ev.push(MatchEvent::BallotAccepted {
                ballot,
                colour: None,
            });
        }
        Ok(ev)
    }

    pub(super) fn decision_events(
        &self,
        colour: Color,
        accept: bool,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let kind = if accept {
            CommandKind::Accept
        } else {
            CommandKind::Reject
        };
        let Phase::Decide { ballot, by } = self.phase else {
            return Err(self.not_now(kind));
        };
        if colour != by {
            return Err(MatchError::NotYourTurn {
                expected: by,
                got: colour,
            });
        }
        let Some(draw) = &self.pending else {
            return Err(self.not_now(kind));
        };
        if accept {
            return Ok(vec![MatchEvent::BallotAccepted {
                ballot,
                colour: Some(colour),
            }]);
        }
        let red = self.red_in(ballot, 1).unwrap_or(Player::First);
        let player = if colour == Color::Red {
            red
        } else {
            red.other()
        };
        let mut ev = vec![MatchEvent::BallotRejected {
            ballot,
            colour,
            player,
        }];
        if colour == Color::Red {
            ev.push(MatchEvent::BallotDiscarded {
                ballot,
                number: draw.opening.number,
            });
        }
        Ok(ev)
    }

    pub(super) fn start_events(&self) -> Result<Vec<MatchEvent>, MatchError> {
        let Phase::Ready { ballot, game } = self.phase else {
            return Err(self.not_now(CommandKind::StartGame));
        };
        let Some(b) = self.ballots.last().filter(|b| b.number == ballot) else {
            return Err(self.not_now(CommandKind::StartGame));
        };
        let red = self.red_in(ballot, game).unwrap_or(Player::First);
        let mut ev = vec![MatchEvent::GameStarted { ballot, game, red }];
        if let Some(result) = board_result(&b.opening.position) {
            ev.extend(self.end_events(ballot, game, result, 0));
        }
        Ok(ev)
    }

    pub(super) fn move_events(
        &self,
        colour: Color,
        mv: Move,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g) = self.turn(colour)?;
        g.clock.check_spent(spent)?;
        // Legality first (an illegal entry changes nothing), then the clock.
        let mut after = *g.game.position();
        after.play(&mv)?;
        let figures = match g.clock.figures(spent)? {
            Commit::Flag(flag) => {
                let result = GameResult {
                    outcome: Outcome::Win(flag.color.opponent()),
                    reason: EndReason::Time { flag: flag.kind },
                };
                return Ok(self.end_events(ballot, game, result, spent));
            }
            Commit::Moved(c) => c,
        };
        let mut ev = vec![MatchEvent::MovePlayed {
            mv,
            spent_ms: spent,
            left_ms: figures.remaining_ms,
        }];
        if self.draw_offer == Some(colour.opponent()) {
            ev.push(MatchEvent::DrawDeclined {
                colour,
                spent_ms: None,
            });
        }
        if let Some(result) = board_result(&after) {
            ev.extend(self.end_events(ballot, game, result, 0));
        }
        Ok(ev)
    }

    /// Huffing: `colour`, to move, huffs the piece on `square`; a huff that takes the
    /// offender's last piece wins the game.
    pub(super) fn huff_events(
        &self,
        colour: Color,
        square: crate::engine::Square,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g) = self.turn(colour)?;
        g.clock.check_spent(spent)?;
        let mut after = g.game.clone();
        after.huff(square)?;
        let mut ev = vec![MatchEvent::Huffed {
            square,
            spent_ms: Some(spent),
        }];
        if after.position().count(colour.opponent()) == 0 {
            let result = GameResult {
                outcome: Outcome::Win(colour),
                reason: EndReason::NoPieces,
            };
            ev.extend(self.end_events(ballot, game, result, spent));
        }
        Ok(ev)
    }

    pub(super) fn tick_events(&self, spent: u64) -> Result<Vec<MatchEvent>, MatchError> {
        let Ok((ballot, game, g)) = self.in_play(CommandKind::Tick) else {
            return Ok(Vec::new());
        };
        if let Some(flag) = g.clock.flag_for(spent) {
            g.clock.check_spent(spent)?;
            let result = GameResult {
                outcome: Outcome::Win(flag.color.opponent()),
                reason: EndReason::Time { flag: flag.kind },
            };
            return Ok(self.end_events(ballot, game, result, spent));
        }
        match g.clock.time_call_due(spent) {
            Some(colour) => {
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::TimeCalled {
                    colour,
                    spent_ms: spent,
                }])
            }
            None => Ok(Vec::new()),
        }
    }

    /// The game in play ends with `result` after `spent` ms on the move being made.
    pub(super) fn end_events(
        &self,
        ballot: u32,
        game: u8,
        result: GameResult,
        spent: u64,
    ) -> Vec<MatchEvent> {
        let then = self.after_game(ballot, game, &result);
        let mut ev = vec![MatchEvent::GameEnded {
            ballot,
            game,
            result,
            spent_ms: spent,
        }];
        ev.extend(then);
        ev
    }

    /// What follows at match level once game `game` of `ballot` has `result`: the match
    /// finishes, or a tie-break ballot is added, or nothing.
    pub(super) fn after_game(&self, ballot: u32, game: u8, result: &GameResult) -> Vec<MatchEvent> {
        if game == 1 || ballot < self.settings.ballots {
            return Vec::new();
        }
        let change = Change {
            ballot,
            game,
            result: Some(result),
        };
        let points = match_score::score(&self.settings, &self.ballots, Some(change)).total;
        let (winner, decided) = if points[0] != points[1] {
            let w = if points[0] > points[1] {
                Player::First
            } else {
                Player::Second
            };
            (Some(w), Decided::Score)
        } else {
            match self.settings.tie {
                TieRule::StaysTied => (None, Decided::Tie),
                TieRule::HolderRetains { holder } => (Some(holder), Decided::HolderRetains),
                TieRule::ContinueInBlocks { max_blocks } => {
                    let extra = ballot.saturating_sub(self.settings.ballots);
                    if max_blocks.is_none_or(|m| extra < m) {
                        return vec![MatchEvent::ExtraBallot {
                            ballot: ballot.saturating_add(1),
                        }];
                    }
                    (None, Decided::Tie)
                }
            }
        };
        vec![MatchEvent::MatchFinished {
            outcome: MatchOutcome {
                winner,
                decided,
                points,
            },
        }]
    }

    /// The last finished game, if its result may still be changed (the next game has not
    /// started and no later ballot is accepted or pending).
    pub(super) fn amendable(&self) -> Option<(u32, u8)> {
        let g = self.current_game()?;
        g.result.as_ref()?;
        let ok = match self.phase {
            Phase::Ready { ballot, game } => ballot == g.ballot && game == 2,
            Phase::Draw { .. } | Phase::Finished => true,
            _ => false,
        };
        ok.then_some((g.ballot, g.number))
    }

    /// A forfeit or adjudication: ends the game in play, or amends the last finished one.
    pub(super) fn director_result(
        &self,
        result: GameResult,
        spent: u64,
        asked: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        if let Ok((ballot, game, g)) = self.in_play(asked) {
            g.clock.check_spent(spent)?;
            return Ok(self.end_events(ballot, game, result, spent));
        }
        let (Some((ballot, game)), Some(g)) = (self.amendable(), self.current_game()) else {
            return Err(self.not_now(asked));
        };
        let Some(previous) = g.result.clone() else {
            return Err(self.not_now(asked));
        };
        let then = self.after_game(ballot, game, &result);
        let mut ev = vec![MatchEvent::ResultAmended {
            ballot,
            game,
            previous,
            result,
        }];
        ev.extend(then);
        Ok(ev)
    }

    pub(super) fn undo_events(&self, reason: String) -> Result<Vec<MatchEvent>, MatchError> {
        let Some((ballot, game)) = self.amendable() else {
            return Err(self.not_now(CommandKind::UndoDecision));
        };
        let Some((undone, restored)) = self.undoable() else {
            return Err(MatchError::NothingToUndo);
        };
        let (undone, restored) = (undone.clone(), restored.cloned());
        let then = match &restored {
            Some(r) => self.after_game(ballot, game, r),
            None => Vec::new(),
        };
        let mut ev = vec![MatchEvent::DecisionUndone {
            ballot,
            game,
            undone,
            restored,
            reason,
        }];
        ev.extend(then);
        Ok(ev)
    }

    pub(super) fn take_back_events(
        &self,
        moves: u32,
        reason: String,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g, reopened) = match self.in_play(CommandKind::TakeBack) {
            Ok((ballot, game, g)) => {
                if moves == 0 {
                    return Err(MatchError::TakeBack {
                        asked: 0,
                        made: g.moves.len(),
                    });
                }
                (ballot, game, g, None)
            }
            Err(e) => {
                let (Some((ballot, game)), Some(g)) = (self.amendable(), self.current_game())
                else {
                    return Err(e);
                };
                (ballot, game, g, g.result.clone())
            }
        };
        let made = g.moves.len().min(g.clock.committed());
        let n = usize::try_from(moves).unwrap_or(usize::MAX);
        if n > made {
            return Err(MatchError::TakeBack { asked: moves, made });
        }
        let taken = g.moves[g.moves.len() - n..].iter().map(|r| r.mv).collect();
        Ok(vec![MatchEvent::MovesTakenBack {
            ballot,
            game,
            moves: taken,
            reopened,
            reason,
        }])
    }
}

/// `player` takes `colour` in game one of ballot one.
pub(super) fn colours_set(player: Player, colour: Color, by_director: bool) -> MatchEvent {
    let red = if colour == Color::Red {
        player
    } else {
        player.other()
    };
    MatchEvent::ColoursSet { red, by_director }
}
