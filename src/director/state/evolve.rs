//! Evolve: one logged event folded into the match; it cannot fail.

use super::*;
use crate::director::clock::Clock;
use crate::director::event::{LogEntry, MatchEvent};
use crate::director::settings::Player;
use crate::engine::{Color, Game};
use crate::openings::{self, Draw};
use chrono::{DateTime, Utc};

impl Match {
    /// Fold `entry` in; `at` is the monotonic instant of a live command (none when replaying
    /// a log), from which a clock stretch that starts now runs.
    #[expect(clippy::cognitive_complexity, reason = "to be split into its steps")]
    #[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
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
            } => {
                if let Some(opening) =
                    openings::all_in(self.settings.openings.system, self.settings.game)
                        .get((*number as usize).wrapping_sub(1))
                {
                    self.pending = Some(Draw {
                        opening: opening.clone(),
                        steps: steps.clone(),
                    });
                }
                self.phase = Phase::Decide {
                    ballot: *ballot,
                    by: Color::White,
                };
            }
            MatchEvent::BallotAccepted { ballot, .. } => {
                if let Some(draw) = self.pending.take() {
                    let red_first = self.red_in(*ballot, 1).unwrap_or(Player::First);
                    self.ballots.push(BallotRecord {
                        number: *ballot,
                        opening: draw.opening,
                        steps: draw.steps,
                        red_first,
                        games: Vec::new(),
                    });
                }
                self.phase = Phase::Ready {
                    ballot: *ballot,
                    game: 1,
                };
            }
            MatchEvent::BallotRejected { ballot, colour, .. } => {
                if *colour == Color::White {
                    self.phase = Phase::Decide {
                        ballot: *ballot,
                        by: Color::Red,
                    };
                }
            }
            MatchEvent::BallotDiscarded { ballot, .. } => {
                if let Some(draw) = self.pending.take() {
                    self.rejected.push(RejectedBallot {
                        ballot: *ballot,
                        opening: draw.opening,
                        steps: draw.steps,
                    });
                }
                self.phase = Phase::Draw { ballot: *ballot };
            }
            MatchEvent::GameStarted { ballot, game, red } => {
                self.start_game(*ballot, *game, *red, wall, at)
            }
            MatchEvent::MovePlayed {
                mv,
                spent_ms,
                left_ms,
            } => {
                if let Some(g) = self.playing_mut() {
                    let colour = g.game.position().turn();
                    if g.game.play(mv).is_ok() {
                        let next = single_jump(g.game.position());
                        g.clock.commit(*spent_ms, next, at);
                        let period = g.clock.side(colour).period + 1;
                        g.moves.push(MoveRecord {
                            mv: *mv,
                            colour,
                            spent_ms: *spent_ms,
                            remaining_ms: *left_ms,
                            period,
                            at: wall,
                        });
                    }
                }
            }
            MatchEvent::DrawOffered { colour, spent_ms } => {
                self.draw_offer = Some(*colour);
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::Huffed { square, spent_ms } => {
                if let Some(g) = self.playing_mut() {
                    let _ = g.game.huff(*square);
                }
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::Compelled => {
                if let Some(g) = self.playing_mut() {
                    if g.game.compel().is_ok() {
                        g.moves.pop();
                        let _ = g.clock.take_back(1, at);
                    }
                    g.forget_strength_count_past_the_end();
                }
            }
            MatchEvent::StrengthCountAsked { colour, spent_ms } => {
                if let Some(g) = self.playing_mut() {
                    g.strength = Some(StrengthCount {
                        weaker: *colour,
                        from_ply: g.moves.len(),
                        extended: false,
                    });
                }
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::StrengthCountExtended { spent_ms } => {
                if let Some(c) = self.playing_mut().and_then(|g| g.strength.as_mut()) {
                    c.extended = true;
                }
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::DrawDeclined { spent_ms, .. } => {
                self.draw_offer = None;
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::GameEnded {
                ballot,
                game,
                result,
                spent_ms,
            } => {
                if let Some(g) = self.playing_mut() {
                    g.clock.stop(*spent_ms);
                    g.result = Some(result.clone());
                    g.finished = Some(wall);
                    if result.reason.is_director_decision() {
                        g.overruled.push(None);
                    }
                }
                self.draw_offer = None;
                self.phase = next_after(*ballot, *game);
            }
            MatchEvent::ResultAmended {
                ballot,
                game,
                previous,
                result,
            } => {
                if let Some(g) = self.current_game_mut() {
                    g.result = Some(result.clone());
                    g.overruled.push(Some(previous.clone()));
                }
                self.outcome = None;
                self.phase = next_after(*ballot, *game);
            }
            MatchEvent::DecisionUndone {
                ballot,
                game,
                restored,
                ..
            } => {
                self.outcome = None;
                if let Some(g) = self.current_game_mut() {
                    g.overruled.pop();
                    g.result = restored.clone();
                    if restored.is_none() {
                        g.finished = None;
                        g.clock.reopen();
                    }
                }
                self.phase = match restored {
                    Some(_) => next_after(*ballot, *game),
                    None => Phase::Playing {
                        ballot: *ballot,
                        game: *game,
                    },
                };
            }
            MatchEvent::MovesTakenBack {
                ballot,
                game,
                moves,
                reopened,
                ..
            } => {
                if reopened.is_some() {
                    self.outcome = None;
                    self.phase = Phase::Playing {
                        ballot: *ballot,
                        game: *game,
                    };
                    if let Some(g) = self.playing_mut() {
                        g.result = None;
                        g.finished = None;
                        g.overruled.clear();
                        g.clock.reopen();
                    }
                }
                if let Some(g) = self.playing_mut() {
                    for _ in moves {
                        g.game.take_back();
                        g.moves.pop();
                    }
                    let _ = g.clock.take_back(moves.len(), at);
                    g.forget_strength_count_past_the_end();
                }
                self.draw_offer = None;
            }
            MatchEvent::TimeCalled { spent_ms, .. } => {
                if let Some(g) = self.playing_mut() {
                    g.clock.call_time();
                }
                self.count_thinking(Some(*spent_ms), at);
            }
            MatchEvent::ClocksPaused { spent_ms, .. } => {
                if let Some(g) = self.playing_mut() {
                    let _ = g.clock.pause(*spent_ms);
                }
            }
            MatchEvent::ClocksResumed => {
                if let Some(g) = self.playing_mut() {
                    let _ = g.clock.resume(at);
                }
            }
            MatchEvent::TimeAdjusted {
                colour,
                remaining_ms,
                spent_ms,
                ..
            } => {
                if let Some(g) = self.playing_mut() {
                    g.clock.set_remaining(*colour, *remaining_ms);
                }
                self.count_thinking(*spent_ms, at);
            }
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
