//! Shared harness for the director tests: a match with a fake monotonic clock, a fixed wall
//! clock and a seeded rng.
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use crossboard::director::*;
use crossboard::engine::{Color, Move, Outcome, Position};
use crossboard::openings::System;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub const MIN: u64 = 60_000;

/// A match under test plus its fake time and rng.
pub struct H {
    pub m: Match,
    pub t: u64,
    pub rng: ChaCha8Rng,
}

pub fn wall(ms: u64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(1_780_000_000_000 + ms as i64)
        .unwrap()
}

/// Settings: two named players, `ballots` ballots, GAYP (so games start from the standard
/// position unless a test wants another system), no clock unless set.
pub fn settings(ballots: u32) -> MatchSettings {
    let mut s = MatchSettings {
        players: ["Ann".into(), "Bob".into()],
        ballots,
        ..MatchSettings::default()
    };
    s.openings.system = System::Gayp;
    s
}

impl H {
    pub fn new(s: MatchSettings, seed: u64) -> H {
        let m = Match::new(
            s,
            Now {
                mono_ms: 0,
                wall: wall(0),
            },
        )
        .unwrap();
        H {
            m,
            t: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn now(&self) -> Now {
        Now {
            mono_ms: self.t,
            wall: wall(self.t),
        }
    }

    /// Let `ms` pass on the fake clock.
    pub fn wait(&mut self, ms: u64) -> &mut Self {
        self.t += ms;
        self
    }

    /// Apply a command that must succeed; returns the events.
    pub fn ok(&mut self, c: Command) -> Vec<MatchEvent> {
        let now = self.now();
        match self.m.apply(c.clone(), now, &mut self.rng) {
            Ok(entries) => entries.into_iter().map(|e| e.event).collect(),
            Err(e) => panic!("{c:?} refused: {e} (awaiting: {:?})", self.m.awaiting()),
        }
    }

    /// Apply a command that must fail, and check that nothing changed.
    pub fn refused(&mut self, c: Command) -> MatchError {
        let before = self.m.clone();
        let now = self.now();
        let err = match self.m.apply(c.clone(), now, &mut self.rng) {
            Ok(ev) => panic!("{c:?} accepted: {ev:?}"),
            Err(e) => e,
        };
        assert_eq!(self.m, before, "{c:?} failed ({err}) but changed the match");
        assert!(!err.to_string().is_empty());
        err
    }

    /// Colours by director: `red` has Red in game one of ballot one.
    pub fn colours(&mut self, red: Player) -> &mut Self {
        self.ok(Command::AssignColour {
            player: red,
            colour: Color::Red,
        });
        self
    }

    /// Draw, accept by White, start the game.
    pub fn ballot(&mut self) -> &mut Self {
        self.ok(Command::DrawBallot);
        if matches!(self.m.phase(), Phase::Decide { .. }) {
            self.ok(Command::Accept {
                colour: Color::White,
            });
        }
        self.ok(Command::StartGame);
        self
    }

    pub fn position(&self) -> Position {
        *self.m.playing().expect("a game in play").game.position()
    }

    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// The first legal move of the side to move.
    pub fn some_move(&self) -> Move {
        self.position().distinct_moves()[0]
    }

    /// Play the first legal move after `ms` of thought.
    pub fn play(&mut self, ms: u64) -> Vec<MatchEvent> {
        self.wait(ms);
        let colour = self.turn();
        let mv = self.some_move();
        self.ok(Command::PlayMove { colour, mv })
    }

    /// End the current game with `winner` (or a draw) by resignation or agreement.
    pub fn finish_game(&mut self, winner: Option<Color>) -> Vec<MatchEvent> {
        match winner {
            Some(w) => self.ok(Command::Resign {
                colour: w.opponent(),
            }),
            None => {
                self.ok(Command::OfferDraw { colour: Color::Red });
                self.ok(Command::AcceptDraw {
                    colour: Color::White,
                })
            }
        }
    }

    /// Play a whole ballot (draw, accept, two games) with the given winners by player.
    pub fn ballot_won_by(&mut self, g1: Option<Player>, g2: Option<Player>) {
        self.ballot();
        let c1 = g1.map(|p| self.m.playing().unwrap().colour_of(p));
        self.finish_game(c1);
        self.ok(Command::StartGame);
        let c2 = g2.map(|p| self.m.playing().unwrap().colour_of(p));
        self.finish_game(c2);
    }

    /// Round-trip the match through TOML (its settings and log) and reopen it in a "new
    /// process" whose monotonic clock restarts at `mono_ms`.
    pub fn reload(&mut self, mono_ms: u64) -> String {
        let text = toml::to_string(&self.m).expect("match serialises to TOML");
        let back: Match = toml::from_str(&text).expect("match reads back from TOML");
        assert_eq!(back, self.m, "the log rebuilds the same match");
        self.m = back;
        self.t = mono_ms;
        let now = self.now();
        self.m.reopen(now);
        text
    }
}

pub fn ended(ev: &[MatchEvent]) -> Option<GameResult> {
    ev.iter().find_map(|e| match e {
        MatchEvent::GameEnded { result, .. } => Some(result.clone()),
        _ => None,
    })
}

/// What the match waits for, as a command (so streams get deep into matches).
pub fn expected(h: &H, arg: u8) -> Command {
    let colour = if arg.is_multiple_of(2) {
        Color::Red
    } else {
        Color::White
    };
    match h.m.awaiting() {
        Awaiting::Toss(_) | Awaiting::Nothing => Command::AssignColour {
            player: Player::First,
            colour,
        },
        Awaiting::ColourChoice(player) => Command::ChooseColour { player, colour },
        Awaiting::BallotDraw(_) => Command::DrawBallot,
        Awaiting::Decision { colour, .. } if arg.is_multiple_of(4) => Command::Reject { colour },
        Awaiting::Decision { colour, .. } => Command::Accept { colour },
        Awaiting::GameStart { .. } => Command::StartGame,
        Awaiting::Resume => Command::ResumeClocks,
        Awaiting::Move { .. } => command(h, 7, arg.wrapping_mul(31)),
    }
}

/// A command from a menu, with the move (if any) chosen among the legal ones by index.
pub fn command(h: &H, pick: u8, arg: u8) -> Command {
    let colour = if arg.is_multiple_of(2) {
        Color::Red
    } else {
        Color::White
    };
    let player = if arg.is_multiple_of(3) {
        Player::First
    } else {
        Player::Second
    };
    match pick % 22 {
        0 => Command::CallCoin {
            caller: player,
            call: if arg.is_multiple_of(5) {
                CoinSide::Heads
            } else {
                CoinSide::Tails
            },
        },
        1 => Command::ChooseColour { player, colour },
        2 => Command::AssignColour { player, colour },
        3 => Command::DrawBallot,
        4 => Command::Accept { colour },
        5 => Command::Reject { colour },
        6 => Command::StartGame,
        7..=11 => match h.m.playing() {
            Some(g) => {
                let pos = g.game.position();
                let moves = pos.distinct_moves();
                let colour = if arg.is_multiple_of(7) {
                    pos.turn().opponent()
                } else {
                    pos.turn()
                };
                match moves.get(arg as usize % moves.len().max(1)) {
                    Some(mv) => Command::PlayMove { colour, mv: *mv },
                    None => Command::Tick,
                }
            }
            None => Command::Move {
                colour,
                text: "11-15".into(),
            },
        },
        12 => Command::OfferDraw { colour },
        13 => Command::AcceptDraw { colour },
        14 => Command::Resign { colour },
        15 => Command::Tick,
        16 => Command::PauseClocks {
            reason: "dispute".into(),
        },
        17 => Command::ResumeClocks,
        18 => Command::TakeBack {
            moves: u32::from(arg % 4),
            reason: "mis-entry".into(),
        },
        19 => Command::AdjustTime {
            colour,
            delta_ms: i64::from(arg) * 1000 - 100_000,
            reason: "ruling".into(),
        },
        20 => Command::Adjudicate {
            outcome: if arg.is_multiple_of(2) {
                Outcome::Draw
            } else {
                Outcome::Win(colour)
            },
            reason: "ruling".into(),
        },
        _ => Command::ClaimDraw { colour },
    }
}
