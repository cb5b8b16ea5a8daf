//! Strength check (ignored: slow): with the same node budget per move, the full-strength level
//! beats the beginner decisively over 11-man ballots played from both sides.
//! Run: `cargo test --profile opt-test --test search strength:: -- --ignored --nocapture`.

use crossboard::openings::eleven_man_positions;
use crossboard::search::Level;
use crossboard::search::selfplay::{MoveLimit, SelfPlay, points_for};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[test]
#[ignore = "plays 16 engine games"]
fn master_beats_beginner_from_both_sides() {
    let stop = Arc::new(AtomicBool::new(false));
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut sp = SelfPlay::default();
    let mut games = Vec::new();
    // Eight standard ballots spread over the list.
    let ballots: Vec<_> = eleven_man_positions()
        .iter()
        .filter(|p| !p.kingsrow_lost)
        .step_by(281)
        .take(8)
        .collect();
    for b in &ballots {
        for (red, white) in [
            (Level::Master, Level::Beginner),
            (Level::Beginner, Level::Master),
        ] {
            let g = sp.play(
                b.position,
                red,
                white,
                MoveLimit {
                    nodes: Some(30_000),
                    ..MoveLimit::default()
                },
                &mut rng,
                &stop,
            );
            println!(
                "ballot {:4} {red} vs {white}: {:?} ({:?}, {} plies)",
                b.id,
                g.outcome,
                g.reason,
                g.game.moves().len()
            );
            games.push(g);
        }
    }
    let master = points_for("crossboard master", &games);
    let beginner = points_for("crossboard beginner", &games);
    println!("master {master} - beginner {beginner}");
    assert!(
        master >= 0.85 * games.len() as f64,
        "master {master} of {}",
        games.len()
    );
}

/// Each level beats the next one down by at least 75 %: the adjacent matches of BENCHMARKS.md
/// ("The levels"), 10 ballots from both sides at 20,000 nodes a move, replayed exactly from
/// their seed by the real binary.
#[test]
#[ignore = "plays 100 engine games"]
fn each_level_beats_the_next_one_down() {
    let dir = tempfile::tempdir().unwrap();
    let levels = Level::ALL;
    for pair in levels.windows(2) {
        let (lower, upper) = (pair[0].name(), pair[1].name());
        let out = dir.path().join(format!("{upper}-{lower}.pdn"));
        let stdout = super::common::cli::crossboard_ok(&[
            "engine-match",
            "--ballots",
            "10",
            "--seed",
            "1",
            "--nodes",
            "20000",
            "--level",
            upper,
            "--opponent",
            lower,
            "--jobs",
            "1",
            "--no-egdb",
            "--out",
            out.to_str().unwrap(),
        ]);
        let head = format!("crossboard {upper} ");
        let summary = stdout
            .lines()
            .find(|l| l.starts_with(&head) && l.contains(" over 20 games"))
            .unwrap_or_else(|| panic!("no summary line: {stdout}"));
        println!("{summary}");
        let points: f64 = summary[head.len()..]
            .split_whitespace()
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no score in {summary:?}"));
        assert!(points >= 15.0, "{upper} against {lower}: {summary}");
    }
}
