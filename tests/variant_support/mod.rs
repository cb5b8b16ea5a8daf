//! Matches in the other games, built through the library for the TUI and end-to-end tests: a
//! pool match whose game reaches three kings against a lone king (the 13-count), found by
//! seeded random play from the start and walked on with quiet moves, so every move is a real
//! one and the match file replays.
#![allow(dead_code)] // each test file uses a different part

use chrono::{DateTime, TimeZone, Utc};
use crossboard::director::{
    Command, Match, MatchSettings, Now, Phase, Player, StrengthRule, TimeControl,
};
use crossboard::engine::{Color, Game, Move, Position, Rules};
use crossboard::openings::System;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A small deterministic generator (xorshift64*): the game found must not change when a
/// crate's generator does.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A pool game from the start played at random (seeded by `seed`) up to the first position
/// where `until` holds; `None` when the game ends or draws first.
fn random_pool_game(seed: u64, until: &dyn Fn(&Game) -> bool) -> Option<Game> {
    let mut rng = Xorshift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut game = Game::new(Rules::Pool, Position::start_in(Rules::Pool));
    while !until(&game) {
        if game.result().is_some() || game.claimable_draw().is_some() || game.moves().len() > 400 {
            return None;
        }
        let moves = game.position().distinct_moves();
        let mv = moves[(rng.next() % moves.len() as u64) as usize];
        game.play(&mv).expect("a legal move");
    }
    Some(game)
}

/// A quiet move in `pos`: no capture, none given, to a position not in `seen` (so no
/// repetition cuts a count short).
pub fn quiet_move(pos: &Position, seen: &[Position]) -> Option<Move> {
    pos.distinct_moves().into_iter().find(|mv| {
        let after = pos.after(mv);
        !mv.is_capture() && !after.must_capture() && !seen.contains(&after)
    })
}

/// The moves of a pool game from the start: played at random (seeded) up to the first
/// position where the 13-count runs (three kings against one, four kings on the board), then
/// quiet moves of both sides until the lone king has made `lone_moves` moves of the count, or
/// (`None`) until the count has run out.
pub fn pool_moves_to_thirteen_count(lone_moves: Option<u32>) -> Vec<Move> {
    'seeds: for seed in 1..20_000u64 {
        let Some(mut game) = random_pool_game(seed, &|g| g.thirteen_count().is_some()) else {
            continue;
        };
        let mut seen: Vec<Position> = game.positions().to_vec();
        loop {
            let count = game.thirteen_count().expect("the count runs");
            let done = match lone_moves {
                Some(n) => count.moves >= n,
                None => count.reached(),
            };
            if done {
                return game.moves().to_vec();
            }
            let pos = *game.position();
            let Some(mv) = quiet_move(&pos, &seen) else {
                continue 'seeds;
            };
            seen.push(pos.after(&mv));
            game.play(&mv).expect("a legal move");
        }
    }
    panic!("no random pool game reached three kings against one");
}

/// The moves of a pool game from the start, played at random (seeded), up to the first
/// position of two kings against a lone king (no 13-count: the strength rule's ending).
pub fn pool_moves_to_two_kings_v_one() -> Vec<Move> {
    let ending = |g: &Game| {
        let p = g.position();
        let kings = |c| p.kings_of(c).count_ones();
        p.occupied().count_ones() == 3
            && p.occupied().count_ones() == kings(Color::Red) + kings(Color::White)
            && kings(Color::Red).min(kings(Color::White)) == 1
            && !p.must_capture()
    };
    (1..20_000u64)
        .find_map(|seed| random_pool_game(seed, &ending))
        .map(|g| g.moves().to_vec())
        .expect("a random pool game reaching two kings against one")
}

/// The wall clock of the test matches.
pub fn wall(ms: u64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(1_780_000_000_000 + ms as i64)
        .unwrap()
}

/// A one-ballot pool match between Ann and Bob, GAYP, no clock, the strength rule in its
/// 30 + 8 form.
pub fn pool_settings() -> MatchSettings {
    let mut s = MatchSettings {
        players: ["Ann".into(), "Bob".into()],
        ballots: 1,
        game: Rules::Pool,
        strength_rule: StrengthRule::ThirtyPlusEight,
        time_control: TimeControl::none(),
        ..MatchSettings::default()
    };
    s.openings.system = System::Gayp;
    s
}

/// A match in `settings`, Ann Red in game 1, its first game started and `moves` played.
pub fn match_with_moves(settings: MatchSettings, moves: &[Move]) -> Match {
    let mut t = 0;
    let mut m = Match::new(
        settings,
        Now {
            mono_ms: 0,
            wall: wall(0),
        },
    )
    .expect("valid settings");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut apply = |m: &mut Match, c: Command| {
        t += 1_000;
        let now = Now {
            mono_ms: t,
            wall: wall(t),
        };
        m.apply(c.clone(), now, &mut rng)
            .unwrap_or_else(|e| panic!("{c:?} refused: {e}"));
    };
    apply(
        &mut m,
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
    );
    apply(&mut m, Command::DrawBallot);
    if matches!(m.phase(), Phase::Decide { .. }) {
        apply(
            &mut m,
            Command::Accept {
                colour: Color::White,
            },
        );
    }
    apply(&mut m, Command::StartGame);
    for mv in moves {
        let colour = m.playing().expect("in play").game.position().turn();
        apply(&mut m, Command::PlayMove { colour, mv: *mv });
    }
    m
}
