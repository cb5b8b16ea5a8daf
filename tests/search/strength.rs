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
