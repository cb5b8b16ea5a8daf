//! The score of a match, derived from its games' results: by game, by ballot and in total.

use super::event::GameResult;
use super::settings::{MatchSettings, Player, Points};
use super::state::BallotRecord;
use crate::engine::Outcome;
use serde::Serialize;

/// Points of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameScore {
    /// Ballot number.
    pub ballot: u32,
    /// 1 or 2.
    pub game: u8,
    /// Who had Red.
    pub red: Player,
    /// The result, none while playing.
    pub result: Option<GameResult>,
    /// Points, first and second player.
    pub points: [Points; 2],
}

/// Points of one ballot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BallotScore {
    /// Ballot number.
    pub ballot: u32,
    /// The opening's label.
    pub opening: String,
    /// Game points over its games, first and second player.
    pub games: [Points; 2],
    /// Both games finished.
    pub complete: bool,
    /// Mini-match points when ballots are scored and the ballot is complete.
    pub mini: Option<[Points; 2]>,
}

/// Wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The score by game, by ballot and in total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreTable {
    /// Every started game in order.
    pub games: Vec<GameScore>,
    /// Every accepted ballot in order.
    pub ballots: Vec<BallotScore>,
    /// Match points (ballot points if ballots are scored, else game points), first and second.
    pub total: [Points; 2],
    /// Game record, first and second player.
    pub record: [Wdl; 2],
}

impl ScoreTable {
    /// Match points after the finished ballots up to `ballot`, first and second player.
    pub fn after_ballot(&self, ballot: u32) -> [Points; 2] {
        let mut total = [Points::ZERO; 2];
        for b in self.ballots.iter().filter(|b| b.ballot <= ballot) {
            let points = b.mini.unwrap_or(b.games);
            for (t, p) in total.iter_mut().zip(points) {
                *t += p;
            }
        }
        total
    }
}

/// One game's result replaced, to score what a decision would lead to before it is made.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Change<'a> {
    /// Ballot number.
    pub ballot: u32,
    /// 1 or 2.
    pub game: u8,
    /// The result it would have.
    pub result: Option<&'a GameResult>,
}

/// The score of `ballots` under `settings`, with `change` applied if given.
pub(crate) fn score(
    settings: &MatchSettings,
    ballots: &[BallotRecord],
    change: Option<Change>,
) -> ScoreTable {
    let gp = settings.scoring.game;
    let mut games = Vec::new();
    let mut table_ballots = Vec::new();
    let mut record = [Wdl::default(); 2];
    let mut game_total = [Points::ZERO; 2];
    let mut ballot_total = [Points::ZERO; 2];
    for b in ballots {
        let mut sum = [Points::ZERO; 2];
        let mut finished = 0;
        for g in &b.games {
            let result = match change {
                Some(c) if c.ballot == b.number && c.game == g.number => c.result,
                _ => g.result.as_ref(),
            };
            let mut points = [Points::ZERO; 2];
            if let Some(r) = result {
                finished += 1;
                match r.outcome {
                    Outcome::Win(c) => {
                        let w = g.player(c);
                        points[w.index()] = gp.win();
                        record[w.index()].wins += 1;
                        record[w.other().index()].losses += 1;
                    }
                    Outcome::Draw => {
                        points = [gp.draw(); 2];
                        record[0].draws += 1;
                        record[1].draws += 1;
                    }
                }
            }
            for i in 0..2 {
                sum[i] += points[i];
            }
            games.push(GameScore {
                ballot: b.number,
                game: g.number,
                red: g.red,
                result: result.cloned(),
                points,
            });
        }
        let complete = b.games.len() == 2 && finished == 2;
        let mini = (settings.scoring.per_ballot && complete).then(|| {
            use std::cmp::Ordering::*;
            match sum[0].cmp(&sum[1]) {
                Greater => [gp.win(), Points::ZERO],
                Less => [Points::ZERO, gp.win()],
                Equal => [gp.draw(); 2],
            }
        });
        for i in 0..2 {
            game_total[i] += sum[i];
            ballot_total[i] += mini.map_or(Points::ZERO, |m| m[i]);
        }
        table_ballots.push(BallotScore {
            ballot: b.number,
            opening: b.opening.name.clone(),
            games: sum,
            complete,
            mini,
        });
    }
    ScoreTable {
        games,
        ballots: table_ballots,
        total: if settings.scoring.per_ballot {
            ballot_total
        } else {
            game_total
        },
        record,
    }
}
