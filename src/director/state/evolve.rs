//! Evolve: one logged event folded into the match; it cannot fail.

use super::*;
use crate::director::clock::Clock;
use crate::director::event::{GameResult, LogEntry, MatchEvent};
use crate::director::settings::Player;
use crate::engine::{Color, Game, Move, Square};
use crate::openings::{self, Draw, DrawStep};
use chrono::{DateTime, Utc};

impl Match {
    /// Fold `entry` in; `at` is the monotonic instant of a live command (none when replaying
    /// a log), from which a clock stretch that starts now runs.
    pub(super) fn evolve_at(&mut self, entry: &LogEntry, at: Option<u64>) {
        let wall = entry.at;
        match &entry.event {
            MatchEvent::MatchCreated
            | MatchEvent::ColourDrawn { .. }
            | MatchEvent::HandPicked { .. } => {}
            MatchEvent::Note { spent_ms, .. } => self.count_thinking(*spent_ms, at),
            MatchEvent::CoinFlipped { winner, .. } => {
                self.phase = Phase::ColourChoice {
                    chooser: Some(*winner),
                }
            }
            MatchEvent::ColoursSet { red, .. } => {
                self.red_first = Some(*red);
                self.phase = Phase::Draw { ballot: 1 };
            }
            MatchEvent::BallotDrawn {
                ballot,
                number,
                steps,
            } => self.ballot_drawn(*ballot, *number, steps),
            MatchEvent::BallotAccepted { ballot, .. } => self.ballot_accepted(*ballot),
            MatchEvent::BallotRejected { ballot, colour, .. } => {
                if *colour == Color::White {
                    self.phase = Phase::Decide {
                        ballot: *ballot,
                        by: Color::Red,
                    };
                }
            }
            MatchEvent::BallotDiscarded { ballot, .. } => self.ballot_discarded(*ballot),
            MatchEvent::GameStarted { ballot, game, red } => {
                self.start_game(*ballot, *game, *red, wall, at)
            }
            MatchEvent::MovePlayed {
                mv,
                spent_ms,
                left_ms,
            } => self.move_played(mv, *spent_ms, *left_ms, wall, at),
            MatchEvent::DrawOffered { colour, spent_ms } => {
                self.draw_offer_event(Some(*colour), *spent_ms, at)
            }
            MatchEvent::Huffed { square, spent_ms } => self.huffed(*square, *spent_ms, at),
            MatchEvent::Compelled => self.compelled(at),
            MatchEvent::StrengthCountAsked { colour, spent_ms } => {
                self.strength_count_asked(*colour, *spent_ms, at)
            }
            MatchEvent::StrengthCountExtended { spent_ms } => {
                self.strength_count_extended(*spent_ms, at)
            }
            MatchEvent::DrawDeclined { spent_ms, .. } => self.draw_offer_event(None, *spent_ms, at),
            MatchEvent::GameEnded {
                ballot,
                game,
                result,
                spent_ms,
            } => self.game_ended(*ballot, *game, result, *spent_ms, wall),
            MatchEvent::ResultAmended {
                ballot,
                game,
                previous,
                result,
            } => self.result_amended(*ballot, *game, previous, result),
            MatchEvent::DecisionUndone {
                ballot,
                game,
                restored,
                ..
            } => self.decision_undone(*ballot, *game, restored.as_ref()),
            MatchEvent::MovesTakenBack {
                ballot,
                game,
                moves,
                reopened,
                ..
            } => self.moves_taken_back(*ballot, *game, moves.len(), reopened.is_some(), at),
            MatchEvent::TimeCalled { .. }
            | MatchEvent::ClocksPaused { .. }
            | MatchEvent::ClocksResumed
            | MatchEvent::TimeAdjusted { .. } => self.clock_event(&entry.event, at),
            MatchEvent::ExtraBallot { ballot } => self.phase = Phase::Draw { ballot: *ballot },
            MatchEvent::MatchFinished { outcome } => {
                self.outcome = Some(*outcome);
                self.phase = Phase::Finished;
            }
            MatchEvent::Reopened => {
                if let Some(g) = self.playing_mut() {
                    g.clock.hold();
                }
            }
        }
        self.log.push(entry.clone());
    }

    /// An event on the clock of the game in play: time called on the move, the clocks paused
    /// or resumed, a side's time adjusted (the other events change no clock here).
    fn clock_event(&mut self, event: &MatchEvent, at: Option<u64>) {
        let spent = match event {
            MatchEvent::TimeCalled { spent_ms, .. } => Some(*spent_ms),
            MatchEvent::TimeAdjusted { spent_ms, .. } => *spent_ms,
            _ => None,
        };
        if let Some(g) = self.playing_mut() {
            match event {
                MatchEvent::TimeCalled { .. } => g.clock.call_time(),
                MatchEvent::ClocksPaused { spent_ms, .. } => {
                    let _ = g.clock.pause(*spent_ms);
                }
                MatchEvent::ClocksResumed => {
                    let _ = g.clock.resume(at);
                }
                MatchEvent::TimeAdjusted {
                    colour,
                    remaining_ms,
                    ..
                } => g.clock.set_remaining(*colour, *remaining_ms),
                _ => {}
            }
        }
        self.count_thinking(spent, at);
    }

    /// Ballot `number` of the match's openings drawn (by `steps`), pending until White decides.
    fn ballot_drawn(&mut self, ballot: u32, number: u32, steps: &[DrawStep]) {
        if let Some(opening) = openings::all_in(self.settings.openings.system, self.settings.game)
            .get((number as usize).wrapping_sub(1))
        {
            self.pending = Some(Draw {
                opening: opening.clone(),
                steps: steps.to_vec(),
            });
        }
        self.phase = Phase::Decide {
            ballot,
            by: Color::White,
        };
    }

    /// The pending ballot accepted: its record opened, its first game ready.
    fn ballot_accepted(&mut self, ballot: u32) {
        if let Some(draw) = self.pending.take() {
            let red_first = self.red_in(ballot, 1).unwrap_or(Player::First);
            self.ballots.push(BallotRecord {
                number: ballot,
                opening: draw.opening,
                steps: draw.steps,
                red_first,
                games: Vec::new(),
            });
        }
        self.phase = Phase::Ready { ballot, game: 1 };
    }

    /// The pending ballot thrown out (both sides rejected it): kept as rejected, drawn again.
    fn ballot_discarded(&mut self, ballot: u32) {
        if let Some(draw) = self.pending.take() {
            self.rejected.push(RejectedBallot {
                ballot,
                opening: draw.opening,
                steps: draw.steps,
            });
        }
        self.phase = Phase::Draw { ballot };
    }

    /// A move made on the board of the game in play, charged to its player's clock.
    fn move_played(
        &mut self,
        mv: &Move,
        spent_ms: u64,
        left_ms: Option<i64>,
        wall: DateTime<Utc>,
        at: Option<u64>,
    ) {
        let Some(g) = self.playing_mut() else {
            return;
        };
        let colour = g.game.position().turn();
        if g.game.play(mv).is_ok() {
            let next = single_jump(g.game.position());
            g.clock.commit(spent_ms, next, at);
            let period = g.clock.side(colour).period + 1;
            g.moves.push(MoveRecord {
                mv: *mv,
                colour,
                spent_ms,
                remaining_ms: left_ms,
                period,
                at: wall,
            });
        }
    }

    /// A draw offered by a side (`Some`), or the offer declined (`None`).
    fn draw_offer_event(&mut self, offer: Option<Color>, spent_ms: Option<u64>, at: Option<u64>) {
        self.draw_offer = offer;
        self.count_thinking(spent_ms, at);
    }

    /// The piece on `square` huffed by the side to move.
    fn huffed(&mut self, square: Square, spent_ms: Option<u64>, at: Option<u64>) {
        if let Some(g) = self.playing_mut() {
            let _ = g.game.huff(square);
        }
        self.count_thinking(spent_ms, at);
    }

    /// The strength count extended by its eight moves.
    fn strength_count_extended(&mut self, spent_ms: Option<u64>, at: Option<u64>) {
        if let Some(c) = self.playing_mut().and_then(|g| g.strength.as_mut()) {
            c.extended = true;
        }
        self.count_thinking(spent_ms, at);
    }

    /// The huffed player's move taken back: the capture it left is compelled.
    fn compelled(&mut self, at: Option<u64>) {
        if let Some(g) = self.playing_mut() {
            if g.game.compel().is_ok() {
                g.moves.pop();
                let _ = g.clock.take_back(1, at);
            }
            g.forget_strength_count_past_the_end();
        }
    }

    /// `colour` asks for a count of moves under the strength rule, from this ply.
    fn strength_count_asked(&mut self, colour: Color, spent_ms: Option<u64>, at: Option<u64>) {
        if let Some(g) = self.playing_mut() {
            g.strength = Some(StrengthCount {
                weaker: colour,
                from_ply: g.moves.len(),
                extended: false,
            });
        }
        self.count_thinking(spent_ms, at);
    }

    /// The game in play ended with `result`: its clock stopped, the match moved on.
    fn game_ended(
        &mut self,
        ballot: u32,
        game: u8,
        result: &GameResult,
        spent_ms: u64,
        wall: DateTime<Utc>,
    ) {
        if let Some(g) = self.playing_mut() {
            g.clock.stop(spent_ms);
            g.result = Some(result.clone());
            g.finished = Some(wall);
            if result.reason.is_director_decision() {
                g.overruled.push(None);
            }
        }
        self.draw_offer = None;
        self.phase = next_after(ballot, game);
    }

    /// The director changed the last game's result from `previous` to `result`.
    fn result_amended(
        &mut self,
        ballot: u32,
        game: u8,
        previous: &GameResult,
        result: &GameResult,
    ) {
        if let Some(g) = self.current_game_mut() {
            g.result = Some(result.clone());
            g.overruled.push(Some(previous.clone()));
        }
        self.outcome = None;
        self.phase = next_after(ballot, game);
    }

    /// The director's last decision on the game undone: the result it replaced restored, or
    /// none (the game is played on).
    fn decision_undone(&mut self, ballot: u32, game: u8, restored: Option<&GameResult>) {
        self.outcome = None;
        if let Some(g) = self.current_game_mut() {
            g.overruled.pop();
            g.result = restored.cloned();
            if restored.is_none() {
                g.finished = None;
                g.clock.reopen();
            }
        }
        self.phase = match restored {
            Some(_) => next_after(ballot, game),
            None => Phase::Playing { ballot, game },
        };
    }

    /// `count` moves taken back from the game, which is `reopened` when it had ended.
    fn moves_taken_back(
        &mut self,
        ballot: u32,
        game: u8,
        count: usize,
        reopened: bool,
        at: Option<u64>,
    ) {
        if reopened {
            self.outcome = None;
            self.phase = Phase::Playing { ballot, game };
            if let Some(g) = self.playing_mut() {
                g.result = None;
                g.finished = None;
                g.overruled.clear();
                g.clock.reopen();
            }
        }
        if let Some(g) = self.playing_mut() {
            for _ in 0..count {
                g.game.take_back();
                g.moves.pop();
            }
            let _ = g.clock.take_back(count, at);
            g.forget_strength_count_past_the_end();
        }
        self.draw_offer = None;
    }

    /// The time on the move an event made during it records (none: nothing to count), counted
    /// on the clock of the game in play; its stretch runs on from `at`.
    pub(super) fn count_thinking(&mut self, spent: Option<u64>, at: Option<u64>) {
        if let (Some(spent), Some(g)) = (spent, self.playing_mut()) {
            g.clock.mark(spent, at);
        }
    }

    pub(super) fn start_game(
        &mut self,
        ballot: u32,
        game: u8,
        red: Player,
        wall: DateTime<Utc>,
        at: Option<u64>,
    ) {
        let (red_name, white_name) = (
            self.name(red).to_string(),
            self.name(red.other()).to_string(),
        );
        let control = self.settings.time_control.clone();
        let Some(b) = self.ballots.last_mut() else {
            return;
        };
        let start = b.opening.position;
        let mut clock = Clock::new(&control, start.turn());
        let _ = clock.start(at, single_jump(&start));
        b.games.push(GameRecord {
            ballot,
            number: game,
            opening: b.opening.clone(),
            red,
            red_name,
            white_name,
            game: Game::new(self.settings.game, start),
            moves: Vec::new(),
            clock,
            started: wall,
            finished: None,
            result: None,
            overruled: Vec::new(),
            strength: None,
        });
        self.phase = Phase::Playing { ballot, game };
        self.draw_offer = None;
    }
}
