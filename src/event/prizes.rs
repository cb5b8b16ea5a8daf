//! Prizes: a division's prize list as the director sets it (the log's
//! [`Action::SetPrizes`](super::Action::SetPrizes)), and who wins what.
//!
//! A prize is for a place, for a class (players rated in a band) or for a rating (players rated
//! under a limit); unrated players are eligible for place prizes only. Each player wins at most
//! one prize, the highest: the prizes are given out from the largest down (at equal amounts:
//! place, then class, then rating prizes, then in list order), each to the best-placed eligible
//! player who has none yet. Players level on points share what they won of one kind with those
//! of them eligible for it and without another prize: equally, or by the Hort method (half of
//! each prize to its winner by the tie-breaks, the other half shared equally), as the director
//! chooses. Amounts are kept in hundredths, exact; a share that does not divide gives its odd
//! hundredths to the best-placed first.

use super::standings::{Standing, standings};
use super::state::Division;
use crate::director::Points;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// Most prizes in one division.
const MAX_PRIZES: usize = 100;
/// Largest amount of one prize, in hundredths (ten million).
const MAX_AMOUNT: u64 = 1_000_000_000;

/// How players level on points share their prizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieShare {
    /// The prizes added up and split equally.
    #[default]
    Equal,
    /// Half of each prize to its winner by the tie-breaks, the other halves split equally.
    Hort,
}

/// Who may win a prize.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind"
)]
pub enum Eligible {
    /// Everyone: a place prize.
    Place,
    /// Players rated `low` to `high` (both included): a class prize.
    Class {
        /// The lowest rating of the class.
        low: u32,
        /// The highest.
        high: u32,
    },
    /// Players rated under `limit`: a rating prize.
    Under {
        /// The limit (not included).
        limit: u32,
    },
}

impl TieShare {
    /// How ties share, in words: "equally", "by the Hort method".
    pub fn words(self) -> &'static str {
        match self {
            TieShare::Equal => "equally",
            TieShare::Hort => "by the Hort method",
        }
    }
}

impl Eligible {
    /// True when a player rated `rating` may win it.
    pub fn admits(self, rating: Option<u32>) -> bool {
        match (self, rating) {
            (Eligible::Place, _) => true,
            (Eligible::Class { low, high }, Some(r)) => (low..=high).contains(&r),
            (Eligible::Under { limit }, Some(r)) => r < limit,
            (_, None) => false,
        }
    }

    /// Place prizes first, then class, then rating prizes.
    fn order(self) -> u8 {
        match self {
            Eligible::Place => 0,
            Eligible::Class { .. } => 1,
            Eligible::Under { .. } => 2,
        }
    }
}

impl fmt::Display for Eligible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eligible::Place => f.write_str("place"),
            Eligible::Class { low, high } => write!(f, "class {low}-{high}"),
            Eligible::Under { limit } => write!(f, "under {limit}"),
        }
    }
}

/// One prize.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Prize {
    /// Who may win it.
    pub eligible: Eligible,
    /// Its amount in hundredths (`100.50` is 10050).
    pub amount: u64,
}

/// A division's prize list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Prizes {
    /// How ties on points share.
    pub share: TieShare,
    /// The prizes in the order set.
    pub list: Vec<Prize>,
}

/// A prize list that cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PrizeError {
    /// Too many prizes.
    #[error("{0} prizes: the limit is {MAX_PRIZES}")]
    TooMany(usize),
    /// An amount of nothing or over the limit.
    #[error("a prize of {0} is not a prize: amounts are from 0.01 to 10000000")]
    Amount(Money),
    /// A class whose band is empty.
    #[error("class {low}-{high}: the lowest rating comes first")]
    Band {
        /// As given.
        low: u32,
        /// As given.
        high: u32,
    },
    /// A prize typed wrong.
    #[error(
        "{0:?} is no prize: use `place AMOUNT`, `class LOW-HIGH AMOUNT` or `under RATING AMOUNT`"
    )]
    Syntax(String),
}

impl Prizes {
    /// The first problem, if any.
    pub fn validate(&self) -> Result<(), PrizeError> {
        if self.list.len() > MAX_PRIZES {
            return Err(PrizeError::TooMany(self.list.len()));
        }
        for p in &self.list {
            if p.amount == 0 || p.amount > MAX_AMOUNT {
                return Err(PrizeError::Amount(Money(p.amount)));
            }
            if let Eligible::Class { low, high } = p.eligible
                && low > high
            {
                return Err(PrizeError::Band { low, high });
            }
        }
        Ok(())
    }

    /// Each prize's name: its kind and its rank among the prizes of that kind, by list order
    /// (`1st place`, `2nd class 1600-1799`).
    pub fn names(&self) -> Vec<String> {
        self.list
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let rank = self.list[..=i]
                    .iter()
                    .filter(|q| q.eligible == p.eligible)
                    .count();
                format!("{} {}", ordinal(rank), p.eligible)
            })
            .collect()
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// An amount in hundredths, printed `100` or `100.50`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Money(pub u64);

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 % 100 {
            0 => write!(f, "{}", self.0 / 100),
            c => write!(f, "{}.{c:02}", self.0 / 100),
        }
    }
}

impl std::str::FromStr for Money {
    type Err = PrizeError;
    /// `100`, `100.5`, `100.50`; a currency sign in front is allowed (`$100`).
    fn from_str(s: &str) -> Result<Money, PrizeError> {
        let bad = || PrizeError::Syntax(s.to_string());
        let t = s.trim().trim_start_matches(['$', '£', '€']);
        let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
        if whole.is_empty() || !whole.chars().all(|c| c.is_ascii_digit()) || frac.len() > 2 {
            return Err(bad());
        }
        let whole: u64 = whole.parse().map_err(|_| bad())?;
        let cents: u64 = match frac.len() {
            0 => 0,
            1 => frac.parse::<u64>().map_err(|_| bad())? * 10,
            _ => frac.parse().map_err(|_| bad())?,
        };
        whole
            .checked_mul(100)
            .and_then(|w| w.checked_add(cents))
            .map(Money)
            .ok_or_else(bad)
    }
}

impl Prize {
    /// A prize as typed: `place 100`, `class 1600-1799 50`, `under 1600 40`.
    pub fn parse(words: &[&str]) -> Result<Prize, PrizeError> {
        let bad = || PrizeError::Syntax(words.join(" "));
        let number = |w: &str| w.parse::<u32>().map_err(|_| bad());
        let (eligible, amount) = match words {
            ["place", amount] => (Eligible::Place, amount),
            ["class", band, amount] => {
                let (low, high) = band.split_once('-').ok_or_else(bad)?;
                let (low, high) = (number(low)?, number(high)?);
                (Eligible::Class { low, high }, amount)
            }
            ["under", limit, amount] => (
                Eligible::Under {
                    limit: number(limit)?,
                },
                amount,
            ),
            _ => return Err(bad()),
        };
        let prize = Prize {
            eligible,
            amount: amount.parse::<Money>()?.0,
        };
        Prizes {
            share: TieShare::Equal,
            list: vec![prize],
        }
        .validate()?;
        Ok(prize)
    }
}

/// A player in the final order, as the prizes see them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contender {
    /// The entrant's position in the division.
    pub entrant: usize,
    /// Points.
    pub score: Points,
    /// Rating, if any.
    pub rating: Option<u32>,
}

/// What a player wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Award {
    /// The entrant's position in the division.
    pub entrant: usize,
    /// The prize (index in the list) won by the tie-breaks, if any; a player level on points
    /// who shares without one has the first prize of the pool shared.
    pub prize: usize,
    /// What they are paid, in hundredths.
    pub amount: u64,
    /// Players sharing the pool (1: not shared).
    pub shared_by: usize,
}

/// The awards of a division's prize list by the standings of its finished rounds, in
/// standings order.
pub fn prize_awards(division: &Division) -> Vec<Award> {
    prize_list(division)
        .winners
        .into_iter()
        .map(|(_, w)| w)
        .collect()
}

/// A division's prize list as published beside its standings: the one reading the text and
/// the HTML both print.
#[derive(Clone, Debug)]
pub struct PrizeList {
    /// Each prize's name ([`Prizes::names`]).
    pub names: Vec<String>,
    /// How ties on points share, in words: "equally", "by the Hort method".
    pub share: &'static str,
    /// Each winner's standing (after the last round finished) and award, in standings order.
    pub winners: Vec<(Standing, Award)>,
    /// The prizes no eligible player could win, by index in the list.
    pub not_won: Vec<usize>,
    /// True while the division is not finished: the winners may still change.
    pub provisional: bool,
}

/// Who wins what in `division` by the standings after its last round finished.
pub fn prize_list(division: &Division) -> PrizeList {
    let prizes = &division.prizes;
    let (_, list) = standings(division, division.finished_rounds());
    let field: Vec<Contender> = list
        .iter()
        .map(|s| Contender {
            entrant: s.entrant,
            score: s.score,
            rating: division.entrants[s.entrant].info.rating,
        })
        .collect();
    let awards = award(prizes, &field);
    let not_won = (0..prizes.list.len())
        .filter(|&i| awards.iter().all(|w| w.prize != i))
        .collect();
    let winners = list
        .into_iter()
        .filter_map(|s| {
            let w = awards.iter().find(|w| w.entrant == s.entrant)?.clone();
            Some((s, w))
        })
        .collect();
    PrizeList {
        names: prizes.names(),
        share: prizes.share.words(),
        winners,
        not_won,
        provisional: !division.is_finished(),
    }
}

/// The awards of `prizes` to `field` (in standings order), in standings order.
pub fn award(prizes: &Prizes, field: &[Contender]) -> Vec<Award> {
    // Each prize, largest first, to the best-placed eligible player without one.
    let mut order: Vec<usize> = (0..prizes.list.len()).collect();
    order.sort_by_key(|&i| {
        let p = &prizes.list[i];
        (std::cmp::Reverse(p.amount), p.eligible.order(), i)
    });
    let mut held: Vec<Option<usize>> = vec![None; field.len()];
    for &i in &order {
        let e = prizes.list[i].eligible;
        if let Some(k) = (0..field.len()).find(|&k| held[k].is_none() && e.admits(field[k].rating))
        {
            held[k] = Some(i);
        }
    }
    let mut paid: Vec<Option<(usize, u64, usize)>> = held
        .iter()
        .map(|h| h.map(|i| (i, prizes.list[i].amount, 1)))
        .collect();
    // Players level on points share, one kind of prize at a time, largest first.
    let mut joined = vec![false; field.len()];
    let mut start = 0;
    while start < field.len() {
        let end = (start..field.len())
            .find(|&k| field[k].score != field[start].score)
            .unwrap_or(field.len());
        for &i in &order {
            let e = prizes.list[i].eligible;
            share(prizes, field, &held, &mut joined, &mut paid, start..end, e);
        }
        start = end;
    }
    paid.iter()
        .enumerate()
        .filter_map(|(k, p)| {
            p.map(|(prize, amount, shared_by)| Award {
                entrant: field[k].entrant,
                prize,
                amount,
                shared_by,
            })
        })
        .collect()
}

/// The prizes of kind `e` won in the group `group` of players level on points, shared with
/// the group's players eligible for it who hold no prize of another kind.
fn share(
    prizes: &Prizes,
    field: &[Contender],
    held: &[Option<usize>],
    joined: &mut [bool],
    paid: &mut [Option<(usize, u64, usize)>],
    group: std::ops::Range<usize>,
    e: Eligible,
) {
    let of_kind = |k: usize| held[k].filter(|&i| prizes.list[i].eligible == e);
    let sharers: Vec<usize> = group
        .filter(|&k| {
            !joined[k] && e.admits(field[k].rating) && (of_kind(k).is_some() || held[k].is_none())
        })
        .collect();
    let total: u64 = sharers
        .iter()
        .filter_map(|&k| of_kind(k))
        .map(|i| prizes.list[i].amount)
        .sum();
    if total == 0 {
        return;
    }
    let first = sharers.iter().find_map(|&k| of_kind(k)).unwrap_or_default();
    let n = sharers.len() as u64;
    // Each share exactly as num / den, floored; the odd hundredths to the best-placed first.
    let exact: Vec<(u64, u64)> = sharers
        .iter()
        .map(|&k| {
            let own = of_kind(k).map_or(0, |i| prizes.list[i].amount);
            match prizes.share {
                TieShare::Equal => (total, n),
                TieShare::Hort => (own * n + total, 2 * n),
            }
        })
        .collect();
    let mut amounts: Vec<u64> = exact.iter().map(|&(num, den)| num / den).collect();
    let mut left = total - amounts.iter().sum::<u64>();
    for a in &mut amounts {
        if left == 0 {
            break;
        }
        *a += 1;
        left -= 1;
    }
    for (&k, amount) in sharers.iter().zip(amounts) {
        joined[k] = true;
        paid[k] = Some((of_kind(k).unwrap_or(first), amount, sharers.len()));
    }
}
