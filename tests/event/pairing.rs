//! Pairing: the Berger tables for 3-16 players, and properties of the Swiss over random events.

use crossboard::director::{GamePoints, Player, Points};
use crossboard::event::propose;
use crossboard::event::{
    Action, BoardGameResult, BoardResult, DivisionSettings, Format, PlayerInfo, ScoreUnit,
    Tournament,
};
use crossboard::event::{RoundKind, records};
use crossboard::event::{berger, berger_round};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, HashMap, HashSet};

#[test]
fn berger_tables_for_3_to_16_players() {
    for players in 3..=16u32 {
        let n = players + players % 2;
        let table = berger(players);
        assert_eq!(table.len() as u32, n - 1, "{players} players: rounds");
        let mut met = HashSet::new();
        let mut firsts = vec![0i32; n as usize + 1];
        for (r, round) in table.iter().enumerate() {
            let mut seen = HashSet::new();
            for &(a, b) in round {
                assert!(
                    seen.insert(a) && seen.insert(b),
                    "{players}: round {r} repeats"
                );
                assert!(met.insert((a.min(b), a.max(b))), "{players}: {a}-{b} twice");
                firsts[a as usize] += 1;
                firsts[b as usize] -= 1;
            }
            assert_eq!(
                seen.len() as u32,
                n,
                "{players}: round {r} leaves someone out"
            );
        }
        assert_eq!(
            met.len() as u32,
            n * (n - 1) / 2,
            "{players}: every pair meets once"
        );
        // Colours balanced: each player is first at most one more time than second.
        for (p, f) in firsts.iter().enumerate().skip(1) {
            assert!(f.abs() <= 1, "{players}: player {p} colour balance {f}");
        }
    }
    // Odd: the dummy (4 for 3 players) is the bye.
    assert_eq!(berger(3)[0], vec![(1, 4), (2, 3)]);
}

/// The FIDE tables (C.05 Annex 1) for 3-16 players, round by round and board by board.
#[test]
fn berger_tables_are_the_fide_handbook_tables() {
    let text = include_str!("../fixtures/events/berger_fide_c05_annex1.txt");
    let mut tables: HashMap<u32, Vec<Vec<(u32, u32)>>> = HashMap::new();
    let mut current = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if let Some(n) = line.strip_prefix("players ") {
            current = n.parse().unwrap();
            continue;
        }
        let round = line
            .split_whitespace()
            .map(|p| {
                let (a, b) = p.split_once('-').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        tables.entry(current).or_default().push(round);
    }
    assert_eq!(tables.len(), 7, "tables for 4, 6, ..., 16");
    for players in 3..=16u32 {
        let even = players + players % 2;
        assert_eq!(berger(players), tables[&even], "{players} players");
    }
}

/// A double round robin: the second cycle reverses the colours of the first, whose last two
/// rounds are exchanged, so no player has the same colour three rounds running.
#[test]
fn double_round_robin_colours() {
    for players in 3..=16u32 {
        let n = players + players % 2;
        let rounds = 2 * (n - 1);
        let mut runs: HashMap<u32, (bool, u32)> = HashMap::new();
        let mut met = HashMap::new();
        for r in 1..=rounds {
            let round = berger_round(players, 2, r).unwrap();
            for (a, b) in round {
                *met.entry((a, b)).or_insert(0) += 1;
                if a > players || b > players {
                    // The bye: no game, no colour.
                    runs.insert(a.min(b), (true, 0));
                    continue;
                }
                for (p, first) in [(a, true), (b, false)] {
                    let run = runs.entry(p).or_insert((first, 0));
                    *run = if run.0 == first && run.1 > 0 {
                        (first, run.1 + 1)
                    } else {
                        (first, 1)
                    };
                    assert!(
                        run.1 <= 2,
                        "{players} players: {p} has the same colour 3 times by round {r}"
                    );
                }
            }
        }
        assert!(
            met.values().all(|&k| k == 1),
            "each pairing once per colour"
        );
        assert_eq!(met.len() as u32, n * (n - 1));
        assert_eq!(berger_round(players, 2, rounds + 1), None);
    }
    // Four players: rounds 2 and 3 of the first cycle exchanged; the second cycle in order.
    assert_eq!(berger_round(4, 2, 2), Some(vec![(2, 4), (3, 1)]));
    assert_eq!(berger_round(4, 2, 4), Some(vec![(4, 1), (3, 2)]));
    assert_eq!(berger_round(3, 2, 4), Some(vec![(4, 1), (3, 2)]));
}

/// A Swiss division of `players` players and `rounds` rounds with random ratings.
fn swiss_event(players: u32, rounds: u32, games: u32, rng: &mut ChaCha8Rng) -> Tournament {
    let mut e = Tournament::new();
    let settings = DivisionSettings::new(
        Format::Swiss { rounds },
        games,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    e.apply(&Action::AddDivision {
        name: "Open".into(),
        settings,
    })
    .unwrap();
    for p in 1..=players {
        let mut info = PlayerInfo::named(&format!("Player {p}"));
        info.rating = Some(rng.random_range(1000..2400));
        e.apply(&Action::Enter {
            division: 0,
            player: p,
            info,
        })
        .unwrap();
    }
    e
}

fn random_games(games: u32, rng: &mut ChaCha8Rng) -> Vec<BoardGameResult> {
    (0..games)
        .map(|_| match rng.random_range(0..3) {
            0 => BoardGameResult::Win {
                winner: Player::First,
            },
            1 => BoardGameResult::Win {
                winner: Player::Second,
            },
            _ => BoardGameResult::Draw,
        })
        .collect()
}

/// Pair and play every round, checking each round's pairing.
fn play_out(
    e: &mut Tournament,
    games: u32,
    rng: &mut ChaCha8Rng,
    check: impl Fn(&Tournament, u32),
) {
    let rounds = e.divisions[0].planned_rounds();
    for round in 1..=rounds {
        let action =
            propose(0, &e.divisions[0]).unwrap_or_else(|err| panic!("round {round}: {err}"));
        e.apply(&action).unwrap();
        check(e, round);
        let boards: Vec<u32> = e.divisions[0].rounds[round as usize - 1]
            .boards
            .iter()
            .map(|b| b.number)
            .collect();
        for board in boards {
            let result = BoardResult::Games {
                games: random_games(games, rng),
            };
            e.apply(&Action::Result {
                division: 0,
                round,
                board,
                result,
            })
            .unwrap();
        }
    }
}

/// Score-group crossing counts: for each score (high to low) but the last, how many paired
/// players (or the bye) of that score or more meet someone below it.
fn crossings(scores: &HashMap<u32, Points>, pairs: &[(u32, u32)], bye: Option<u32>) -> Vec<usize> {
    let levels: BTreeSet<Points> = scores.values().copied().collect();
    let levels: Vec<Points> = levels.into_iter().rev().collect();
    levels[..levels.len().saturating_sub(1)]
        .iter()
        .map(|&s| {
            let paired = pairs
                .iter()
                .filter(|&&(a, b)| {
                    let (x, y) = (scores[&a], scores[&b]);
                    x.max(y) >= s && x.min(y) < s
                })
                .count();
            paired + usize::from(bye.is_some_and(|b| scores[&b] >= s))
        })
        .collect()
}

/// A pairing: boards and the bye.
type Pairs = (Vec<(u32, u32)>, Option<u32>);

/// Every way to pair `players` avoiding `met`, with at most one bye to an eligible player.
fn all_pairings(players: &[u32], met: &HashSet<(u32, u32)>, bye_ok: &HashSet<u32>) -> Vec<Pairs> {
    fn go(
        left: &[u32],
        met: &HashSet<(u32, u32)>,
        bye_ok: &HashSet<u32>,
        bye_free: bool,
        acc: &mut Vec<(u32, u32)>,
        bye: Option<u32>,
        out: &mut Vec<Pairs>,
    ) {
        let Some((&a, rest)) = left.split_first() else {
            out.push((acc.clone(), bye));
            return;
        };
        if bye_free && bye_ok.contains(&a) {
            go(rest, met, bye_ok, false, acc, Some(a), out);
        }
        for (k, &b) in rest.iter().enumerate() {
            if met.contains(&(a, b)) {
                continue;
            }
            let mut others = rest.to_vec();
            others.remove(k);
            acc.push((a, b));
            go(&others, met, bye_ok, bye_free, acc, bye, out);
            acc.pop();
        }
    }
    let mut out = Vec::new();
    go(
        players,
        met,
        bye_ok,
        players.len() % 2 == 1,
        &mut Vec::new(),
        None,
        &mut out,
    );
    out
}

/// Checks on the round just paired: everyone available on one board or the bye, no rematch,
/// at most one bye each.
fn check_round(e: &Tournament, round: u32) {
    let d = &e.divisions[0];
    let r = &d.rounds[round as usize - 1];
    let mut seen = HashSet::new();
    for b in &r.boards {
        assert!(
            seen.insert(b.first) && seen.insert(b.second),
            "round {round}: paired twice"
        );
    }
    if let Some(b) = r.bye {
        assert!(seen.insert(b));
    }
    let available: HashSet<u32> = d.available(round).into_iter().collect();
    assert_eq!(seen, available, "round {round}: everyone paired or bye");
    let recs = records(d, round);
    for (i, rs) in recs.iter().enumerate() {
        let byes = rs.iter().filter(|x| x.kind == RoundKind::Bye).count();
        assert!(
            byes <= 1,
            "round {round}: {} has {byes} byes",
            d.entrants[i].info.name
        );
        let opps: Vec<usize> = rs
            .iter()
            .filter(|x| x.kind.played())
            .filter_map(|x| x.opponent)
            .collect();
        let distinct: HashSet<usize> = opps.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            opps.len(),
            "round {round}: a rematch for {}",
            d.entrants[i].info.name
        );
    }
}

#[test]
fn swiss_properties_over_random_events() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let sizes = [8, 9, 13, 16, 21, 32, 47, 64, 85, 120];
    for (k, &players) in sizes.iter().enumerate() {
        let rounds = 5 + (k as u32 * 5) % 9; // 5, 10, 6, 11, 7, 12, 8, 13, 9, 5
        let games = if k % 3 == 0 { 1 } else { 2 };
        // A Swiss of more rounds than about half the field can paint itself into a corner.
        let mut e = swiss_event(players, rounds.min(players / 2 + 1), games, &mut rng);
        play_out(&mut e, games, &mut rng, check_round);
    }
}

#[test]
fn swiss_pairs_score_groups_as_far_as_the_rules_allow() {
    // Small fields: compare each bracket's floaters with every possible pairing.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..12 {
        let players = 8 + case % 3;
        // As above: no more rounds than about half the field (8 players: 5).
        let mut e = swiss_event(players, 6.min(players / 2 + 1), 2, &mut rng);
        play_out(&mut e, 2, &mut rng, |e, round| {
            check_round(e, round);
            let d = &e.divisions[0];
            let before = records(d, round - 1);
            let score: HashMap<u32, Points> = d
                .entrants
                .iter()
                .zip(&before)
                .map(|(en, rs)| (en.player, Points(rs.iter().map(|x| x.points.0).sum())))
                .collect();
            let mut met = HashSet::new();
            let mut bye_ok: HashSet<u32> = score.keys().copied().collect();
            for (en, rs) in d.entrants.iter().zip(&before) {
                for x in rs {
                    if let Some(o) = x.opponent.filter(|_| x.kind.played()) {
                        met.insert((en.player, d.entrants[o].player));
                    }
                    if x.kind == RoundKind::Bye {
                        bye_ok.remove(&en.player);
                    }
                }
            }
            let r = &d.rounds[round as usize - 1];
            let ours: Vec<(u32, u32)> = r.boards.iter().map(|b| (b.first, b.second)).collect();
            let mine = crossings(&score, &ours, r.bye);
            let ids: Vec<u32> = d.entrants.iter().map(|e| e.player).collect();
            let mut every = all_pairings(&ids, &met, &bye_ok);
            // The bye first goes to the lowest score any complete pairing allows (FIDE: before
            // the brackets' quality), so only those pairings compete.
            let lowest_bye = every
                .iter()
                .filter_map(|(_, bye)| bye.map(|b| score[&b]))
                .min();
            every.retain(|(_, bye)| bye.map(|b| score[&b]) == lowest_bye);
            let levels: Vec<Points> = {
                let s: BTreeSet<Points> = score.values().copied().collect();
                s.into_iter().rev().collect()
            };
            for (k, &level) in levels.iter().enumerate().take(mine.len()) {
                // Pairings that keep our pairs of the groups above this one.
                let fixed: Vec<&(u32, u32)> = ours
                    .iter()
                    .filter(|&&(a, b)| score[&a].min(score[&b]) > level)
                    .collect();
                let best = every
                    .iter()
                    .filter(|(p, _)| {
                        fixed
                            .iter()
                            .all(|&&(a, b)| p.contains(&(a, b)) || p.contains(&(b, a)))
                    })
                    .map(|(p, bye)| crossings(&score, p, *bye)[k])
                    .min()
                    .expect("our own pairing is one of them");
                assert_eq!(
                    mine[k], best,
                    "round {round}, group {level}: floaters {mine:?}"
                );
            }
        });
    }
}

#[test]
fn late_entries_withdrawals_and_absences_are_not_paired() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut e = swiss_event(10, 5, 2, &mut rng);
    e.apply(&Action::Absent {
        division: 0,
        player: 3,
        round: 2,
    })
    .unwrap();
    let mut late_done = false;
    play_out(&mut e, 2, &mut rng, |e, round| {
        check_round(e, round);
        let d = &e.divisions[0];
        let r = &d.rounds[round as usize - 1];
        if round == 2 {
            assert!(r.board_of(3).is_none() && r.bye != Some(3));
        }
        let _ = late_done;
    });
    late_done = true;
    assert!(late_done);
    // A late entry after round 1 scores the absence points for round 1.
    let mut e = swiss_event(6, 4, 2, &mut rng);
    let a = propose(0, &e.divisions[0]).unwrap();
    e.apply(&a).unwrap();
    e.apply(&Action::Enter {
        division: 0,
        player: 99,
        info: PlayerInfo::named("Late"),
    })
    .unwrap();
    e.apply(&Action::Withdraw {
        division: 0,
        player: 1,
        reason: "ill".into(),
    })
    .unwrap();
    for b in 1..=3 {
        e.apply(&Action::Result {
            division: 0,
            round: 1,
            board: b,
            result: BoardResult::Forfeit {
                present: Some(Player::First),
            },
        })
        .unwrap();
    }
    let a = propose(0, &e.divisions[0]).unwrap();
    e.apply(&a).unwrap();
    let r2 = &e.divisions[0].rounds[1];
    assert!(r2.board_of(1).is_none(), "withdrawn");
    assert!(
        r2.board_of(99).is_some() || r2.bye == Some(99),
        "the late entry plays round 2"
    );
    let recs = records(&e.divisions[0], 1);
    let late = e.divisions[0].position(99).unwrap();
    assert_eq!(recs[late][0].kind, RoundKind::Absent);
}

// The Dutch criteria one by one: small hand-built rounds where the named criterion decides.
// Scores are in half points (`Points(4)` is 2 points); players are numbered by rank.

mod dutch {
    use crossboard::director::Points;
    use crossboard::engine::Color::{self, Red, White};
    use crossboard::event::{Float, SwissInput, SwissPlayer, pair};
    use std::collections::BTreeSet;

    /// Players `(id, score)` who met as `met` says (both ways), no floats, no colours.
    fn field(players: &[(u32, u32)], met: &[(u32, u32)]) -> Vec<SwissPlayer> {
        players
            .iter()
            .map(|&(id, score)| SwissPlayer {
                id,
                rank: id,
                score: Points(score),
                met: met
                    .iter()
                    .filter_map(|&(a, b)| {
                        if a == id {
                            Some((b, 1))
                        } else if b == id {
                            Some((a, 1))
                        } else {
                            None
                        }
                    })
                    .collect(),
                bye_ok: true,
                unplayed: 0,
                colours: Vec::new(),
                last_float: Float::None,
                float_two_back: Float::None,
            })
            .collect()
    }

    fn round(players: Vec<SwissPlayer>, single_game: bool) -> SwissInput {
        SwissInput {
            round: 4,
            single_game,
            topscorers: None,
            players,
        }
    }

    /// The pairs, each lower id first, sorted.
    fn pairs(input: &SwissInput) -> Vec<(u32, u32)> {
        let p = pair(input).unwrap();
        let set: BTreeSet<(u32, u32)> = p
            .boards
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        set.into_iter().collect()
    }

    fn set(players: &mut [SwissPlayer], id: u32, f: impl FnOnce(&mut SwissPlayer)) {
        f(players.iter_mut().find(|p| p.id == id).unwrap());
    }

    #[test]
    fn c6_pairs_the_mover_before_the_next_bracket_pairs_more() {
        // 1 (3 points) floats into the 2-point group of 2 and 3, who both met 4, 5 and 6 (1
        // point). Pairing 1 (C6) floats 2 or 3 into a group where it meets no one; floating 1
        // would let the next group pair everyone (C7). C6 comes first: 1 meets 2, the highest
        // resident; 3 floats on with 6 to 7 and 8.
        let met = [(2, 4), (2, 5), (2, 6), (3, 4), (3, 5), (3, 6)];
        let players = field(
            &[
                (1, 6),
                (2, 4),
                (3, 4),
                (4, 2),
                (5, 2),
                (6, 2),
                (7, 0),
                (8, 0),
            ],
            &met,
        );
        assert_eq!(
            pairs(&round(players, false)),
            vec![(1, 2), (3, 7), (4, 5), (6, 8)]
        );
    }

    #[test]
    fn c7_floats_the_player_the_next_bracket_can_pair() {
        // 1, 2, 3 on 2 points: one floats. The order would float 3, who met 4, 5 and 6; 2
        // floats instead, so the 1-point group pairs all its players (C7).
        let met = [(3, 4), (3, 5), (3, 6)];
        let players = field(
            &[
                (1, 4),
                (2, 4),
                (3, 4),
                (4, 2),
                (5, 2),
                (6, 2),
                (7, 0),
                (8, 0),
            ],
            &met,
        );
        assert_eq!(
            pairs(&round(players, false)),
            vec![(1, 3), (2, 4), (5, 6), (7, 8)]
        );
    }

    /// Four level players with these colour histories (single-game rounds).
    fn four_with_colours(colours: [&[Color]; 4]) -> SwissInput {
        let mut players = field(&[(1, 2), (2, 2), (3, 2), (4, 2)], &[]);
        for (p, c) in players.iter_mut().zip(colours) {
            p.colours = c.to_vec();
        }
        round(players, true)
    }

    #[test]
    fn c10_fewest_players_without_their_colour() {
        // Mild preferences: 1 and 3 want White, 2 and 4 Red. The natural 1-3, 2-4 refuses
        // all four; 1-4, 2-3 none.
        let input = four_with_colours([&[White, Red], &[Red, White], &[White, Red], &[Red, White]]);
        assert_eq!(pairs(&input), vec![(1, 4), (2, 3)]);
    }

    #[test]
    fn c11_fewest_players_without_a_strong_preference() {
        // 1 and 3 strongly want White (one White more), 2 strongly wants Red, 4 mildly White.
        // Every pairing refuses one preference (C10 ties); 1-3 would refuse a strong one, 1-4
        // and 1-2/3-4 a mild one (C11); of those the transposition comes first.
        let input = four_with_colours([
            &[Red, White, Red],
            &[White, Red, White],
            &[Red, Red, White],
            &[White, Red],
        ]);
        assert_eq!(pairs(&input), vec![(1, 4), (2, 3)]);
    }

    /// Round 4: players 1-3 on 2 points, 4-6 on none, none of them met.
    fn three_over_three() -> Vec<SwissPlayer> {
        field(&[(1, 4), (2, 4), (3, 4), (4, 0), (5, 0), (6, 0)], &[])
    }

    #[test]
    fn c14_no_downfloat_again_two_rounds_later() {
        // 3 would float; it floated down two rounds ago, so 2 floats and 3 meets 1.
        let mut players = three_over_three();
        set(&mut players, 3, |p| p.float_two_back = Float::Down);
        assert_eq!(pairs(&round(players, false)), vec![(1, 3), (2, 4), (5, 6)]);
    }

    #[test]
    fn c15_no_upfloat_again_two_rounds_later() {
        // 3 floats to 4, 5, 6; 4 floated up two rounds ago, so 3 meets 5.
        let mut players = three_over_three();
        set(&mut players, 4, |p| p.float_two_back = Float::Up);
        assert_eq!(pairs(&round(players, false)), vec![(1, 2), (3, 5), (4, 6)]);
    }

    /// 1 and 2 (2 points, they met) both float to 3 (1 point); one is paired with 3, the other
    /// floats on to 4, 5, 6. By the order 1 meets 3; `float` of player 2 decides otherwise.
    fn two_movers_one_resident(float: impl FnOnce(&mut SwissPlayer)) -> SwissInput {
        let mut players = field(&[(1, 4), (2, 4), (3, 2), (4, 0), (5, 0), (6, 0)], &[(1, 2)]);
        set(&mut players, 2, float);
        round(players, false)
    }

    #[test]
    fn c16_the_mover_who_floated_down_last_round_is_paired() {
        // C12 counts only residents; by score (C16) the mover 2, who floated down last round,
        // is the repeated downfloater to avoid: 2 meets 3 and 1 floats on.
        let input = two_movers_one_resident(|p| p.last_float = Float::Down);
        assert_eq!(pairs(&input), vec![(1, 4), (2, 3), (5, 6)]);
    }

    #[test]
    fn c18_the_mover_who_floated_down_two_rounds_ago_is_paired() {
        let input = two_movers_one_resident(|p| p.float_two_back = Float::Down);
        assert_eq!(pairs(&input), vec![(1, 4), (2, 3), (5, 6)]);
    }

    /// 1 (3 points) and 2 (2 points; they met) float into the 1-point group 3, 4, 5; 3 met 6
    /// (0 points), so 3 is paired up with a mover whatever happens. `float` of player 3 decides
    /// with whom.
    fn repeated_upfloater(float: impl FnOnce(&mut SwissPlayer)) -> SwissInput {
        let mut players = field(
            &[(1, 6), (2, 4), (3, 2), (4, 2), (5, 2), (6, 0)],
            &[(1, 2), (3, 6)],
        );
        set(&mut players, 3, float);
        round(players, false)
    }

    #[test]
    fn c17_a_repeated_upfloater_meets_the_lowest_mover() {
        // 3 floated up last round and floats up again either way (C13 ties); the score
        // difference is smaller against 2 (C17), so 1 meets 4 instead of 3.
        let input = repeated_upfloater(|p| p.last_float = Float::Up);
        assert_eq!(pairs(&input), vec![(1, 4), (2, 3), (5, 6)]);
    }

    #[test]
    fn c19_a_repeated_upfloater_of_two_rounds_ago_meets_the_lowest_mover() {
        let input = repeated_upfloater(|p| p.float_two_back = Float::Up);
        assert_eq!(pairs(&input), vec![(1, 4), (2, 3), (5, 6)]);
    }

    #[test]
    fn without_a_repeated_upfloater_the_movers_take_the_top_residents() {
        // The control of the two above: the order alone, 1-3 and 2-4.
        let input = repeated_upfloater(|_| {});
        assert_eq!(pairs(&input), vec![(1, 3), (2, 4), (5, 6)]);
    }

    #[test]
    fn an_exchange_moves_the_lowest_of_s1_and_the_highest_of_s2() {
        // Six level players, S1 = 1, 2, 3 and S2 = 4, 5, 6; 1 met all of S2, so no
        // transposition pairs everyone. The first exchange swaps 3 and 4: S1 = 1, 2, 4 against
        // 3, 5, 6 (1-2 would be an exchange of a higher S1 player).
        let players = field(
            &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)],
            &[(1, 4), (1, 5), (1, 6)],
        );
        assert_eq!(pairs(&round(players, false)), vec![(1, 3), (2, 5), (4, 6)]);
    }

    #[test]
    fn transpositions_come_in_order_for_each_s1_player() {
        // S1 = 1, 2, 3 against 4, 5, 6; 1 met 4 and 2 met 5. The first transposition that
        // pairs everyone: 1-5, 2-4, 3-6 (not 1-6, which comes later for 1).
        let players = field(
            &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)],
            &[(1, 4), (2, 5)],
        );
        assert_eq!(pairs(&round(players, false)), vec![(1, 5), (2, 4), (3, 6)]);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_score_a_complete_pairing_allows() {
        // 1 and 2 (1 point) met; 3 has none. The bye cannot go to 3 (1 and 2 would meet
        // again), so it goes to a 1-point player: both float to 3, the higher (1) is paired
        // and 2 has the bye.
        let players = field(&[(1, 2), (2, 2), (3, 0)], &[(1, 2)]);
        let p = pair(&round(players, false)).unwrap();
        assert_eq!(p.bye, Some(2));
        assert_eq!(p.boards, vec![(1, 3)]);
    }

    #[test]
    fn the_bye_at_the_lowest_score_floats_players_of_a_higher_group() {
        // 1-4 (1 point) could pair themselves, but then 5 and 6 (½ point, they met) would
        // float to 7 and the bye fall to a ½-point player. The bye goes to 7 (no points)
        // instead, so two of 1-4 float to 5 and 6: 1 meets 2, the first of S2, and 3, 4 float.
        let players = field(
            &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 1), (6, 1), (7, 0)],
            &[(5, 6)],
        );
        let input = round(players, false);
        assert_eq!(pair(&input).unwrap().bye, Some(7));
        assert_eq!(pairs(&input), vec![(1, 2), (3, 5), (4, 6)]);
    }

    #[test]
    fn last_round_topscorers_may_meet_against_absolute_colours() {
        // Last round: 1 and 2 lead with 3 of 3 and both must have White (Red twice running);
        // 3 and 4 have 1 point each. Without the topscorers' exception 1 and 2 could not meet
        // and both would float; with it they meet (C5 before C8/C9).
        let mut players = field(&[(1, 6), (2, 6), (3, 2), (4, 2)], &[]);
        for p in &mut players {
            p.colours = if p.id <= 2 {
                vec![White, Red, Red]
            } else {
                vec![Red, White, Red]
            };
        }
        let mut input = round(players, true);
        assert_eq!(pairs(&input), vec![(1, 3), (2, 4)], "not the last round");
        input.topscorers = Some(Points(3));
        assert_eq!(pairs(&input), vec![(1, 2), (3, 4)], "the last round");
    }
}

/// FIDE C.04.3 (2025) 1.4.3: a player who scores without playing more than a loss (a bye, a
/// forfeit win, a scoring absence) has a downfloat; one who scores nothing (a forfeit loss, an
/// absence worth no points) has none.
#[test]
fn an_unplayed_round_is_a_downfloat_only_when_it_scored() {
    use crossboard::event::Float;
    use crossboard::event::swiss_input;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // Seven players: round 1 has a bye; 7 is absent (no points by default).
    let mut e = swiss_event(8, 4, 1, &mut rng);
    e.apply(&Action::Absent {
        division: 0,
        player: 7,
        round: 1,
    })
    .unwrap();
    let a = propose(0, &e.divisions[0]).unwrap();
    e.apply(&a).unwrap();
    let r1 = e.divisions[0].rounds[0].clone();
    let bye = r1.bye.expect("seven players: a bye");
    let forfeit = r1.boards[0].clone();
    e.apply(&Action::Result {
        division: 0,
        round: 1,
        board: forfeit.number,
        result: BoardResult::Forfeit {
            present: Some(Player::First),
        },
    })
    .unwrap();
    for b in &r1.boards[1..] {
        e.apply(&Action::Result {
            division: 0,
            round: 1,
            board: b.number,
            result: BoardResult::Games {
                games: vec![BoardGameResult::Draw],
            },
        })
        .unwrap();
    }
    let input = swiss_input(&e.divisions[0], 2);
    let float = |id: u32| {
        input
            .players
            .iter()
            .find(|p| p.id == id)
            .unwrap()
            .last_float
    };
    assert_eq!(float(bye), Float::Down, "the bye");
    assert_eq!(float(forfeit.first), Float::Down, "the forfeit win");
    assert_eq!(float(forfeit.second), Float::None, "the forfeit loss");
    assert_eq!(float(7), Float::None, "the absence worth nothing");
    assert_eq!(
        float(r1.boards[1].first),
        Float::None,
        "a drawn game, level scores"
    );
}
