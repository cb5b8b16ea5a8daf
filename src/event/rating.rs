//! A rating preview: each player's performance in a division and the rating it would give, by
//! the American Checker Federation's published formula ("How ACF Ratings Are Calculated",
//! usacheckers.com/ratingsformula.php):
//!
//! `Rp = Rc + Window_Size * (W - L) / N`, where `Rc` is the average rating of the competition
//! played, `W` and `L` the units won and lost and `N` the units played; `Window_Size` is 400
//! for events scored by round and 670 for events scored by game. The ACF averages the
//! performance with the player's last 128 games, weighted by the games played.
//!
//! What the published text leaves open, decided here (and written in the docs):
//! - only rounds whose results are all in count, and only games over the board: a bye, a
//!   forfeit, an absence is no game;
//! - a ballot scored as a mini-match counts as a unit scored by round (400);
//! - a game against an unrated player is left out for both (there is no rating to measure it
//!   by); an unrated player's preview is their performance against rated opponents;
//! - the rated player's history is taken as a full 128 games at the old rating: the new rating
//!   is `old + (Rp - old) * g / 128` for `g` games played (at most 128).
//!
//! All arithmetic is exact on integers; the published figures are rounded half away from zero.

use super::round_points::{GameRecord, RoundKind, records};
use super::settings::ScoreUnit;
use super::state::Division;
use crate::director::{GamePoints, Points};

/// `Window_Size` of an event scored by round (or by ballot).
pub const WINDOW_BY_ROUND: i64 = 400;
/// `Window_Size` of an event scored by game.
pub const WINDOW_BY_GAME: i64 = 670;
/// The games a rating is averaged over.
pub const HISTORY_GAMES: i64 = 128;

/// One player's preview.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingChange {
    /// The entrant's position in the division.
    pub entrant: usize,
    /// The rating before the event (`None`: unrated).
    pub old: Option<u32>,
    /// Units (games, ballots or rounds, as the division scores) won against rated opponents.
    pub won: u32,
    /// Units lost.
    pub lost: u32,
    /// Units drawn.
    pub drawn: u32,
    /// Games over the board in those units.
    pub games: u32,
    /// The average rating of the competition, rounded (`None`: no unit counted).
    pub competition: Option<i64>,
    /// The performance rating, rounded.
    pub performance: Option<i64>,
    /// The rating after the event, rounded (unchanged when no unit counted).
    pub new: Option<i64>,
}

impl RatingChange {
    /// Units counted (`N`).
    pub fn units(&self) -> u32 {
        self.won + self.lost + self.drawn
    }

    /// New minus old, when both exist.
    pub fn change(&self) -> Option<i64> {
        Some(self.new? - i64::from(self.old?))
    }
}

/// The division's `Window_Size`.
pub fn window_size(unit: ScoreUnit) -> i64 {
    match unit {
        ScoreUnit::Game => WINDOW_BY_GAME,
        ScoreUnit::Ballot | ScoreUnit::Round => WINDOW_BY_ROUND,
    }
}

/// `num / den` rounded half away from zero (`den` > 0).
fn div_round(num: i64, den: i64) -> i64 {
    let q = (2 * num.abs() + den) / (2 * den);
    if num < 0 { -q } else { q }
}

/// The opponent's points in a game over the board, from the player's record of it.
fn opponent_points(g: &GameRecord, game: GamePoints) -> Points {
    if g.won {
        Points::ZERO
    } else if g.points == Points::ZERO {
        game.win()
    } else {
        g.points
    }
}

/// Totals over the units counted: won, lost, drawn, games, the sum of the opponents' ratings
/// (once per unit).
#[derive(Default)]
struct Tally {
    won: u32,
    lost: u32,
    drawn: u32,
    games: u32,
    ratings: i64,
}

impl Tally {
    /// A unit of `games` against an opponent rated `rating`; a unit with a forfeited game is
    /// not a unit played.
    fn unit(&mut self, games: &[GameRecord], rating: u32, game: GamePoints) {
        if games.iter().any(|g| g.forfeit) {
            return;
        }
        let mine: u32 = games.iter().map(|g| g.points.0).sum();
        let theirs: u32 = games.iter().map(|g| opponent_points(g, game).0).sum();
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => self.won += 1,
            std::cmp::Ordering::Less => self.lost += 1,
            std::cmp::Ordering::Equal => self.drawn += 1,
        }
        self.games += games.len() as u32;
        self.ratings += i64::from(rating);
    }
}

/// Every entrant's preview, in entry order, from the rounds finished.
pub fn rating_preview(division: &Division) -> Vec<RatingChange> {
    let s = &division.settings;
    let per_unit = match s.scoring.unit {
        ScoreUnit::Game => 1,
        ScoreUnit::Ballot => 2,
        ScoreUnit::Round => s.games_per_round.max(1) as usize,
    };
    let window = window_size(s.scoring.unit);
    records(division, u32::MAX)
        .iter()
        .enumerate()
        .map(|(i, rounds)| {
            let mut t = Tally::default();
            for r in rounds.iter().filter(|r| r.kind == RoundKind::Played) {
                let Some(rating) = r.opponent.and_then(|o| division.entrants[o].info.rating) else {
                    continue;
                };
                for unit in r.games.chunks(per_unit).filter(|u| u.len() == per_unit) {
                    t.unit(unit, rating, s.scoring.game);
                }
            }
            change(i, division.entrants[i].info.rating, &t, window)
        })
        .collect()
}

/// The preview from a player's tally.
fn change(entrant: usize, old: Option<u32>, t: &Tally, window: i64) -> RatingChange {
    let n = i64::from(t.won + t.lost + t.drawn);
    // N * Rp, exactly.
    let perf_n = t.ratings + window * (i64::from(t.won) - i64::from(t.lost));
    let (competition, performance) = if n == 0 {
        (None, None)
    } else {
        (Some(div_round(t.ratings, n)), Some(div_round(perf_n, n)))
    };
    let new = match (old, n) {
        (Some(old), 0) => Some(i64::from(old)),
        (Some(old), n) => {
            let g = i64::from(t.games).min(HISTORY_GAMES);
            let old = i64::from(old);
            Some(div_round(
                old * n * (HISTORY_GAMES - g) + perf_n * g,
                HISTORY_GAMES * n,
            ))
        }
        (None, _) => performance,
    };
    RatingChange {
        entrant,
        old,
        won: t.won,
        lost: t.lost,
        drawn: t.drawn,
        games: t.games,
        competition,
        performance,
        new,
    }
}
