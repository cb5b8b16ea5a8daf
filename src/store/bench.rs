//! Speed figures for `crossboard bench store`: saving and loading a long match file, PDN export
//! and import. Printed, never asserted.

use super::atomic::write_atomic;
use super::export::match_to_pdn;
use super::matchfile::{MatchFile, load_match};
use super::pdn::{read_pdn, write_pdn};
use crate::director::{Command, Match, MatchSettings, Now, Player};
use crate::engine::Color;
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// A match of `ballots` ballots, both games of each played to `plies` moves (or the end) with
/// random moves, then resigned.
pub fn scripted_match(ballots: u32, plies: usize) -> Match {
    let settings = MatchSettings {
        players: ["Ann".into(), "Bob".into()],
        ballots,
        ..MatchSettings::default()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut moves = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    let mut ms = 0u64;
    let mut now = || {
        ms += 7_000;
        Now {
            mono_ms: ms,
            wall: chrono::DateTime::from_timestamp_millis(1_780_000_000_000 + ms as i64)
                .unwrap_or_default(),
        }
    };
    let Ok(mut m) = Match::new(settings, now()) else {
        unreachable!("default settings with two names are valid")
    };
    let mut apply = |m: &mut Match, c: Command| {
        let _ = m.apply(c, now(), &mut rng);
    };
    apply(
        &mut m,
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
    );
    for _ in 0..ballots {
        apply(&mut m, Command::DrawBallot);
        apply(
            &mut m,
            Command::Accept {
                colour: Color::White,
            },
        );
        for _ in 0..2 {
            apply(&mut m, Command::StartGame);
            for _ in 0..plies {
                let Some(g) = m.playing() else { break };
                let pos = *g.game.position();
                let list = pos.distinct_moves();
                if list.is_empty() {
                    break;
                }
                let mv = list[moves.random_range(0..list.len())];
                apply(
                    &mut m,
                    Command::PlayMove {
                        colour: pos.turn(),
                        mv,
                    },
                );
            }
            if let Some(g) = m.playing() {
                let colour = g.game.position().turn();
                apply(&mut m, Command::Resign { colour });
            }
        }
    }
    m
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Save/load/export figures for a 12-ballot (24-game) match, one line each.
pub fn bench_lines() -> Vec<String> {
    let mut out = Vec::new();
    let m = scripted_match(12, 80);
    let moves: usize = m.games().map(|g| g.moves.len()).sum();
    let file = MatchFile::new(m.clone(), chrono::Utc::now());
    let t = Instant::now();
    let text = file.to_text().unwrap_or_default();
    let ser = ms(t);
    out.push(format!(
        "match file: {} games, {moves} moves, {} log entries, {} KB ({:.0} bytes a move)",
        m.games().count(),
        m.log().len(),
        text.len() / 1024,
        text.len() as f64 / moves.max(1) as f64
    ));
    out.push(format!("  serialise to TOML: {ser:.1} ms"));
    let dir = std::env::temp_dir().join(format!("crossboard-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("bench.toml");
    let t = Instant::now();
    let runs = 10;
    for _ in 0..runs {
        let _ = write_atomic(&path, text.as_bytes());
    }
    out.push(format!(
        "  atomic write (temp file, fsync, rename, fsync dir): {:.1} ms",
        ms(t) / runs as f64
    ));
    let t = Instant::now();
    let loaded = load_match(&path);
    out.push(format!(
        "  load (parse, check keys, replay games): {:.1} ms{}",
        ms(t),
        if loaded.is_ok() { "" } else { " (FAILED)" }
    ));
    let t = Instant::now();
    let pdn = write_pdn(&match_to_pdn(&m));
    out.push(format!(
        "PDN export: {:.1} ms for {} KB",
        ms(t),
        pdn.len() / 1024
    ));
    let t = Instant::now();
    let games = read_pdn(&pdn);
    let secs = t.elapsed().as_secs_f64();
    out.push(format!(
        "PDN import (parse and replay): {:.1} ms, {:.0} games/s",
        secs * 1000.0,
        games.len() as f64 / secs
    ));
    let _ = std::fs::remove_dir_all(&dir);
    out
}
