//! The desk's Swiss pairings against bbpPairings, a FIDE-endorsed Dutch-system engine
//! (<https://github.com/BieremaBoyzProgramming/bbpPairings>), through the FIDE TRF crossboard
//! writes (`crossboard event export --format trf`).
//!
//! Ignored by default (it needs the peer's binary): build bbpPairings outside the project and
//! run `BBPPAIRINGS=/path/to/bbpPairings.exe tests/run -- --ignored bbp` (without the variable,
//! `bbpPairings.exe` or `bbpPairings` on the PATH is used; absent, the test says so and passes).
//!
//! For random events of single-game rounds (with some games won by forfeit, whole-round
//! forfeits and absences), each round is paired by crossboard and, from the TRF of the rounds
//! before it, by bbpPairings; the test checks that bbpPairings reads every file, that the first
//! round is the same, and counts the rounds where the pairings agree (same pairs, same
//! colours); then the same for events paired with the Baku acceleration, which bbpPairings
//! implements too. BENCHMARKS.md gives the figures.

use crate::open_swiss::{open_swiss, rated};
use crossboard::director::Player;
use crossboard::event::{Acceleration, Action, BoardGameResult, BoardResult, Pairing, Tournament};
use crossboard::event::{pairing_order, propose};
use crossboard::publish::trf;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The bbpPairings binary: `$BBPPAIRINGS`, else `bbpPairings.exe` / `bbpPairings` on the PATH.
pub(crate) fn engine() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BBPPAIRINGS") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("bbpPairings.exe"), d.join("bbpPairings")])
        .find(|p| p.is_file())
}

/// A pairing as (first, second) pairs of registry ids and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Boards {
    pub(crate) pairs: BTreeSet<(u32, u32)>,
    pub(crate) bye: Option<u32>,
}

impl Boards {
    fn of(p: &Pairing) -> Boards {
        Boards {
            pairs: p.boards.iter().copied().collect(),
            bye: p.bye,
        }
    }

    /// The same opponents, colours aside.
    fn unordered(&self) -> BTreeSet<(u32, u32)> {
        self.pairs
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect()
    }
}

/// What bbpPairings pairs next, from `trf_text`: its output is the number of pairs, then one
/// `white black` line per board in pairing numbers (`n 0`: the bye). `None`: no valid pairing
/// (its exit code 1).
pub(crate) fn bbp_pairing(exe: &Path, dir: &Path, trf_text: &str, ids: &[u32]) -> Option<Boards> {
    let input = dir.join("in.trf");
    let output = dir.join("out.txt");
    std::fs::write(&input, trf_text).unwrap();
    let run = Command::new(exe)
        .arg("--dutch")
        .arg(&input)
        .arg("-p")
        .arg(&output)
        .output()
        .unwrap();
    if run.status.code() == Some(1) {
        return None;
    }
    assert!(
        run.status.success(),
        "bbpPairings refused the TRF ({}): {}\n{trf_text}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&output).unwrap();
    let mut lines = text.lines();
    let count: usize = lines.next().unwrap().trim().parse().unwrap();
    let mut out = Boards {
        pairs: BTreeSet::new(),
        bye: None,
    };
    for line in lines.take(count) {
        let mut f = line.split_whitespace().map(|x| x.parse::<usize>().unwrap());
        let (a, b) = (f.next().unwrap(), f.next().unwrap());
        if b == 0 {
            out.bye = Some(ids[a - 1]);
        } else {
            out.pairs.insert((ids[a - 1], ids[b - 1]));
        }
    }
    Some(out)
}

fn event(
    players: u32,
    rounds: u32,
    acceleration: Acceleration,
    rng: &mut ChaCha8Rng,
) -> Tournament {
    // Distinct ratings, so both engines number the players alike.
    let mut ratings: Vec<u32> = (0..players).map(|k| 1200 + 7 * k).collect();
    for k in (1..ratings.len()).rev() {
        ratings.swap(k, rng.random_range(0..=k));
    }
    let entries = (1..=players).zip(ratings);
    let players = entries.map(|(p, rating)| (p, rated(&format!("Player {p}"), rating)));
    open_swiss(rounds, 1, acceleration, players)
}

/// Rounds compared, rounds with the same opponents, with the same colours too; rounds
/// crossboard refused (the rest of that event is not compared).
#[derive(Default, Debug)]
struct Tally {
    rounds: usize,
    same_opponents: usize,
    same: usize,
    refused: usize,
    /// Rounds one engine refused and the other paired.
    refused_by_one: usize,
}

/// From round 2, one round in four a random player is absent.
fn absences(e: &mut Tournament, round: u32, rng: &mut ChaCha8Rng) {
    if round < 2 || rng.random_range(0..4) != 0 {
        return;
    }
    let d = &e.divisions[0];
    let player = d.entrants[rng.random_range(0..d.entrants.len())].player;
    e.apply(&Action::Absent {
        division: 0,
        player,
        round,
    })
    .unwrap();
}

/// A board's result: mostly a game played; one in 25 won by forfeit (`1f`/`2f`), one in 25 a
/// whole-round forfeit.
fn result(rng: &mut ChaCha8Rng) -> BoardResult {
    let side = if rng.random_range(0..2) == 0 {
        Player::First
    } else {
        Player::Second
    };
    let game = match rng.random_range(0..25) {
        0 => {
            return BoardResult::Forfeit {
                present: Some(side),
            };
        }
        1 => BoardGameResult::Forfeit { winner: side },
        _ => match rng.random_range(0..5) {
            0 | 1 => BoardGameResult::Win {
                winner: Player::First,
            },
            2 | 3 => BoardGameResult::Win {
                winner: Player::Second,
            },
            _ => BoardGameResult::Draw,
        },
    };
    BoardResult::Games { games: vec![game] }
}

#[test]
#[ignore = "needs bbpPairings: BBPPAIRINGS=/path/to/bbpPairings.exe"]
fn dutch_pairings_agree_with_bbp_pairings() {
    compare_with_bbp(Acceleration::None, Told::ByType);
}

/// The same with the Baku Acceleration Method, bbpPairings told by the TRF's tournament type
/// (`192 FIDE_DUTCH_BAKU`, the TRF's own `XXA` lines left out) and applying its own rule. Its
/// group A is the first half of the players rounded up, where C.04.5.1 rounds up to an even
/// number: the two agree when the number of players is a multiple of 4 or one less, so only
/// such events are compared.
#[test]
#[ignore = "needs bbpPairings: BBPPAIRINGS=/path/to/bbpPairings.exe"]
fn baku_pairings_agree_with_bbp_pairings() {
    compare_with_bbp(Acceleration::Baku, Told::ByType);
}

/// The same, bbpPairings told the virtual points by the TRF's `XXA` lines alone: any number of
/// players, so that another pairing engine given crossboard's TRF pairs as the desk does.
#[test]
#[ignore = "needs bbpPairings: BBPPAIRINGS=/path/to/bbpPairings.exe"]
fn baku_pairings_from_the_trfs_acceleration_lines_agree_with_bbp_pairings() {
    compare_with_bbp(Acceleration::Baku, Told::ByLines);
}

/// How bbpPairings learns of an accelerated event.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Told {
    /// The tournament type: bbpPairings applies its own Baku rule.
    ByType,
    /// The TRF's `XXA` lines, as crossboard writes them.
    ByLines,
}

/// The TRF as bbpPairings is given it.
pub(crate) fn with_type(acceleration: Acceleration, told: Told, trf_text: &str) -> String {
    match (acceleration, told) {
        (Acceleration::Baku, Told::ByType) => {
            let lines = trf_text.lines().filter(|l| !l.starts_with("XXA"));
            format!(
                "192 FIDE_DUTCH_BAKU\n{}\n",
                lines.collect::<Vec<_>>().join("\n")
            )
        }
        _ => trf_text.to_string(),
    }
}

fn compare_with_bbp(acceleration: Acceleration, told: Told) {
    let Some(exe) = engine() else {
        // (The events below draw absences and forfeits too: see `absences` and `result`.)
        eprintln!("skipped: bbpPairings not found (set BBPPAIRINGS=/path/to/bbpPairings.exe)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut tally = Tally::default();
    let mut first_rounds = 0;
    // Six fixed events, then random ones (8-60 players, 5-11 rounds; how many:
    // BBP_RANDOM_EVENTS, default 30).
    let random: u64 = std::env::var("BBP_RANDOM_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let mut sizes = ChaCha8Rng::seed_from_u64(2026);
    let events: Vec<(u64, u32, u32)> = [
        (1u64, 8u32, 5u32),
        (2, 11, 5),
        (3, 16, 6),
        (4, 21, 7),
        (5, 30, 7),
        (6, 41, 9),
    ]
    .into_iter()
    .chain((0..random).map(|k| {
        let players = sizes.random_range(8..=60);
        let rounds = sizes.random_range(5..=11u32).min(players / 2);
        (100 + k, players, rounds)
    }))
    .collect();
    let mut per_round: std::collections::BTreeMap<u32, (usize, usize)> = Default::default();
    for (seed, players, rounds) in events {
        let players = match acceleration {
            Acceleration::Baku if told == Told::ByType && matches!(players % 4, 1 | 2) => {
                players - players % 4
            }
            _ => players,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut e = event(players, rounds, acceleration, &mut rng);
        for round in 1..=rounds {
            absences(&mut e, round, &mut rng);
            let d = &e.divisions[0];
            let ids: Vec<u32> = pairing_order(d)
                .into_iter()
                .map(|i| d.entrants[i].player)
                .collect();
            let trf_text = with_type(acceleration, told, &trf(&e, d));
            let theirs = bbp_pairing(&exe, dir.path(), &trf_text, &ids);
            let (action, theirs) = match (propose(0, d), theirs) {
                (Ok(action), Some(theirs)) => (action, theirs),
                // No pairing (every pair met, or no one may have the bye): the director pairs
                // it by hand; the event ends here.
                (ours, theirs) => {
                    tally.refused += 1;
                    tally.refused_by_one += usize::from(ours.is_ok() || theirs.is_some());
                    eprintln!(
                        "seed {seed} round {round}: crossboard {:?}, bbpPairings {}",
                        ours.map(|_| ()),
                        theirs.map_or("refuses", |_| "pairs")
                    );
                    break;
                }
            };
            let Action::Pair { pairing, .. } = &action else {
                unreachable!()
            };
            let ours = Boards::of(pairing);
            tally.rounds += 1;
            let same_opponents = ours.unordered() == theirs.unordered() && ours.bye == theirs.bye;
            tally.same_opponents += usize::from(same_opponents);
            tally.same += usize::from(ours == theirs);
            let r = per_round.entry(round).or_default();
            r.0 += 1;
            r.1 += usize::from(ours == theirs);
            if round == 1 {
                assert_eq!(ours, theirs, "seed {seed}: round 1");
                first_rounds += 1;
            } else if ours != theirs {
                // BBP_DUMP=DIR keeps the TRF of every round that differs, to study it with
                // bbpPairings' checklist (`--dutch FILE -p out -l`).
                if let Some(dump) = std::env::var_os("BBP_DUMP") {
                    let file = Path::new(&dump).join(format!("seed{seed}-round{round}.trf"));
                    std::fs::write(file, &trf_text).unwrap();
                }
                let only = |a: &Boards, b: &Boards| -> Vec<(u32, u32)> {
                    a.pairs.difference(&b.pairs).copied().collect()
                };
                eprintln!(
                    "seed {seed} ({players} players) round {round}: crossboard {:?} bye {:?}; \
                     bbpPairings {:?} bye {:?}",
                    only(&ours, &theirs),
                    ours.bye,
                    only(&theirs, &ours),
                    theirs.bye
                );
            }
            e.apply(&action).unwrap();
            let boards = e.divisions[0].rounds.last().unwrap().boards.len() as u32;
            for board in 1..=boards {
                e.apply(&Action::Result {
                    division: 0,
                    round,
                    board,
                    result: result(&mut rng),
                })
                .unwrap();
            }
        }
        // The whole event read back by bbpPairings' checker (-c): it reads the file and lists
        // the rounds it would have paired otherwise.
        let input = dir.path().join("final.trf");
        std::fs::write(
            &input,
            with_type(acceleration, told, &trf(&e, &e.divisions[0])),
        )
        .unwrap();
        let check = Command::new(&exe)
            .arg("--dutch")
            .arg(&input)
            .arg("-c")
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "seed {seed}: bbpPairings -c: {}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    eprintln!("{tally:?}");
    assert_eq!(
        tally.refused_by_one, 0,
        "a round one engine refused, the other paired"
    );
    eprintln!("same pairings and colours by round (round: same/compared): {per_round:?}");
    assert_eq!(first_rounds, 6 + random as usize);
}
