//! `crossboard bench event`: pairing a Swiss round of 120 players after 10 rounds, standings
//! with every tie-break, opening an event of 120 players x 13 rounds from the database.

use super::eventdb::Desk;
use crate::director::{GamePoints, Player};
use crate::event::TieBreak;
use crate::event::propose;
use crate::event::standings;
use crate::event::{
    Action, BoardGameResult, BoardResult, DivisionSettings, Format, PlayerInfo, ScoreUnit,
    Tournament,
};
use rand::{RngExt, SeedableRng};
use std::time::Instant;

const PLAYERS: u32 = 120;
const ROUNDS: u32 = 13;

fn every_tiebreak() -> Vec<TieBreak> {
    vec![
        TieBreak::Wins,
        TieBreak::HeadToHead,
        TieBreak::BUCHHOLZ,
        TieBreak::Buchholz {
            cut_lowest: 1,
            cut_highest: 0,
        },
        TieBreak::Buchholz {
            cut_lowest: 1,
            cut_highest: 1,
        },
        TieBreak::SonnebornBerger,
        TieBreak::Progressive,
        TieBreak::WhiteWins,
    ]
}

/// The actions of a 120-player, two-games-a-round Swiss played for `rounds` rounds.
#[allow(
    clippy::expect_used,
    reason = "a benchmark of fixed, valid events: a failure is a bug in the benchmark"
)]
fn actions(rounds: u32) -> Vec<Action> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(120);
    let mut e = Tournament::new();
    let mut log = Vec::new();
    let push = |e: &mut Tournament, a: Action, log: &mut Vec<Action>| {
        e.apply(&a).expect("bench event");
        log.push(a);
    };
    let mut settings = DivisionSettings::new(
        Format::Swiss { rounds: ROUNDS },
        2,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    settings.tiebreaks = every_tiebreak();
    push(
        &mut e,
        Action::AddDivision {
            name: "Masters".into(),
            settings,
        },
        &mut log,
    );
    for p in 1..=PLAYERS {
        let mut info = PlayerInfo::named(&format!("Player {p}"));
        info.rating = Some(rng.random_range(1200..2400));
        push(
            &mut e,
            Action::Enter {
                division: 0,
                player: p,
                info,
            },
            &mut log,
        );
    }
    for round in 1..=rounds {
        let a = propose(0, &e.divisions[0]).expect("pairing");
        push(&mut e, a, &mut log);
        let boards = e.divisions[0].rounds[round as usize - 1].boards.len() as u32;
        for board in 1..=boards {
            let games = (0..2)
                .map(|_| match rng.random_range(0..3) {
                    0 => BoardGameResult::Win {
                        winner: Player::First,
                    },
                    1 => BoardGameResult::Win {
                        winner: Player::Second,
                    },
                    _ => BoardGameResult::Draw,
                })
                .collect();
            push(
                &mut e,
                Action::Result {
                    division: 0,
                    round,
                    board,
                    result: BoardResult::Games { games },
                },
                &mut log,
            );
        }
    }
    log
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The figures, one line each.
#[allow(
    clippy::expect_used,
    reason = "a benchmark of fixed, valid events: a failure is a bug in the benchmark"
)]
pub fn bench_event() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    let ten = Tournament::replay(&actions(10)).map_err(|(i, e)| format!("action {i}: {e}"))?;
    let d = &ten.divisions[0];
    let pairing: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            let a = propose(0, d).expect("round 11");
            std::hint::black_box(a);
            ms(t)
        })
        .collect();
    out.push(format!(
        "pair round 11 of a 120-player Swiss (after 10 rounds): median {:.1} ms of 7 (target < 100 ms)",
        median(pairing)
    ));
    let table: Vec<f64> = (0..21)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(standings(d, u32::MAX));
            ms(t)
        })
        .collect();
    out.push(format!(
        "standings with all 8 tie-breaks, 120 players x 10 rounds: median {:.2} ms of 21 (target < 10 ms)",
        median(table)
    ));
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("bench.sqlite3");
    let log = actions(ROUNDS);
    let id = {
        let mut desk = Desk::open(&path)?;
        let mut open =
            desk.create_event(&crate::event::EventInfo::default(), chrono::Utc::now())?;
        desk.record(&mut open, &log, chrono::Utc::now())?;
        open.id
    };
    let opening: Vec<f64> = (0..21)
        .map(|_| {
            let t = Instant::now();
            let desk = Desk::open(&path).expect("open");
            std::hint::black_box(desk.load(id).expect("load"));
            ms(t)
        })
        .collect();
    out.push(format!(
        "open an event of 120 players x 13 rounds ({} actions) from the database: median {:.1} ms of 21, best {:.1} ms (target < 50 ms)",
        log.len() + 1,
        median(opening.clone()),
        opening.iter().copied().fold(f64::INFINITY, f64::min)
    ));
    Ok(out)
}
