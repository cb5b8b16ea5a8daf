//! `crossboard engine-match --game`: the engine plays pool, huffing and the losing game from
//! drawn ballots, and the PDN names the game and replays under its rules. The strength matches
//! of the README (master against beginner in every game) are ignored tests: `tests/run --
//! --ignored master_beats_beginner`.

use crossboard::engine::Rules;
use crossboard::store::{PdnGame, read_pdn};
use std::process::Command;

fn crossboard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
}

/// Run an engine match; its games and what it printed.
fn engine_match(args: &[&str]) -> (Vec<PdnGame>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.pdn");
    let run = crossboard()
        .arg("engine-match")
        .args(args)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    let stderr = String::from_utf8_lossy(&run.stderr).to_string();
    assert!(run.status.success(), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let games = read_pdn(&text)
        .into_iter()
        .map(|g| g.expect("valid PDN"))
        .collect();
    (games, stdout, stderr)
}

#[test]
fn engine_match_plays_every_game_under_its_rules() {
    for game in [Rules::Pool, Rules::Huffing, Rules::Losing] {
        let (games, stdout, stderr) = engine_match(&[
            "--game",
            game.key(),
            "--ballots",
            "1",
            "--seed",
            "5",
            "--nodes",
            "2000",
            "--depth",
            "3",
            "--max-plies",
            "60",
            "--level",
            "expert",
            "--opponent",
            "beginner",
            "--jobs",
            "1",
        ]);
        assert!(stderr.contains(game.name()), "{game:?}: {stderr}");
        assert_eq!(games.len(), 2, "{game:?}: one ballot, both colours");
        for g in &games {
            assert_eq!(g.rules(), game, "{game:?}: the PDN names the game");
            assert!(g.result.outcome().is_some(), "finished: {:?}", g.result);
            let replayed = g.replay().expect("legal moves under the game's rules");
            assert_eq!(replayed.rules(), game);
        }
        assert!(stdout.contains("over 2 games"), "{stdout}");
    }
}

#[test]
fn an_unknown_game_is_refused_naming_the_games() {
    let out = crossboard()
        .args(["engine-match", "--game", "checkers", "--out", "x.pdn"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("choose one of english, pool, huffing, losing"),
        "{err}"
    );
    let out = crossboard()
        .args([
            "engine-match",
            "--game",
            "pool",
            "--hub",
            "true",
            "--out",
            "x.pdn",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--hub plays English draughts only"), "{err}");
    assert!(!std::path::Path::new("x.pdn").exists());
}

/// Master (node-limited) against beginner over 4 ballots from both sides, in `game`: master's
/// share of the points.
fn master_against_beginner(game: Rules) -> f64 {
    let (games, stdout, _) = engine_match(&[
        "--game",
        game.key(),
        "--ballots",
        "4",
        "--seed",
        "1",
        "--nodes",
        "20000",
        "--level",
        "master",
        "--opponent",
        "beginner",
        "--jobs",
        "2",
    ]);
    eprintln!("{game:?}: {stdout}");
    assert_eq!(games.len(), 8);
    let line = stdout.lines().next().unwrap();
    let pct: f64 = line
        .rsplit('(')
        .next()
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a percentage in {line:?}"));
    pct
}

#[test]
#[ignore = "an engine match: minutes of CPU (tests/run -- --ignored)"]
fn master_beats_beginner_in_every_game() {
    for game in Rules::ALL {
        let pct = master_against_beginner(game);
        assert!(pct > 75.0, "{game:?}: master scored only {pct} %");
    }
}
