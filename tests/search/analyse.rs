//! `crossboard analyse`: a PDN file's games analysed move by move, the marks and better moves
//! written as annotated PDN and as an HTML report; a bad game named and the others analysed;
//! the same result on one thread or two; no output over the input.

use crate::common::cli::crossboard;
use crossboard::engine::{Move, Position};
use crossboard::search::{Engine, Mark, MoveReview, analyse_game};
use crossboard::store::{PdnGame, read_pdn};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Three short games: a man hung, a shot missed, a quiet opening.
const FIXTURE: &str = "tests/fixtures/pdn/analyse_three_games.pdn";

/// `crossboard analyse FIXTURE --depth 6 --no-egdb` with `more` options; its output.
fn analyse(more: &[&str]) -> std::process::Output {
    let mut args = vec!["analyse", FIXTURE, "--depth", "6", "--no-egdb"];
    args.extend_from_slice(more);
    crossboard(&args)
}

fn games_in(path: &Path) -> Vec<PdnGame> {
    read_pdn(&std::fs::read_to_string(path).unwrap())
        .into_iter()
        .map(Result::unwrap)
        .collect()
}

fn review(start: &str, moves: &[&str], depth: u32) -> Vec<MoveReview> {
    let start = Position::from_fen(start).unwrap();
    let moves: Vec<Move> = moves
        .iter()
        .map(|t| Move::from_notation_path(t).unwrap())
        .collect();
    analyse_game(
        &mut Engine::default(),
        &start,
        &moves,
        depth,
        Arc::new(AtomicBool::new(false)),
        |_| {},
    )
}

#[test]
fn the_annotated_pdn_has_the_marks_and_better_moves_at_a_fixed_depth() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("annotated.pdn");
    let run = analyse(&["--threads", "1", "--pdn", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let games = games_in(&out);
    assert_eq!(games.len(), 3);
    let marks: Vec<Vec<Option<Mark>>> = games
        .iter()
        .map(|g| (0..g.moves.len()).map(|i| g.mark(i)).collect())
        .collect();
    assert_eq!(marks, EXPECTED_MARKS);
    assert_eq!(text, EXPECTED_PDN);
    // The summary names each game with its counts and each marked move with the better one.
    assert!(
        stdout.contains("  1  Ann - Bob  0-1  1 ??  0 ?  0 ?!\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("     1... 29-25??  better 32-28 (-0.12, not -1.90): 32-28 6-10"),
        "{stdout}"
    );
}

#[test]
fn one_thread_or_two_give_the_same_marks() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("t{threads}.pdn"));
        let run = analyse(&["--threads", threads, "--pdn", out.to_str().unwrap()]);
        assert!(run.status.success());
        // The findings, less the line naming the file written.
        let said = String::from_utf8_lossy(&run.stdout).replace(out.to_str().unwrap(), "OUT");
        texts.push((std::fs::read_to_string(&out).unwrap(), said));
    }
    assert_eq!(texts[0], texts[1]);
}

#[test]
fn the_report_has_each_games_header_graph_and_marked_moves() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.html");
    let run = analyse(&["--out", out.to_str().unwrap()]);
    assert!(run.status.success());
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<title>Games analysed: analyse_three_games.pdn</title>"));
    assert!(html.contains("Analysed by crossboard: depth 6 a position; endgame databases: none."));
    assert!(html.contains("@page{size:A4"), "the sheets' print style");
    assert!(html.contains("Game 1: Ann (Red) - Bob (White), 0-1"));
    assert!(html.contains("Game 3: Ed (Red) - Flo (White), *"));
    assert!(html.contains("Event Club night · Date 2026.11.20"));
    // A graph per game, inline SVG, with a dot per marked move.
    assert_eq!(html.matches("<svg class=\"graph\"").count(), 3);
    assert_eq!(html.matches("<polyline class=\"curve\"").count(), 3);
    assert!(html.contains("<title>1. 10-15??</title>"), "{html}");
    // The marked moves with the better move and its line.
    assert!(
        html.contains("<td>1.</td><td>10-15</td><td class=\"sym\">??</td>"),
        "{html}"
    );
    assert!(html.contains("No move lost 0.3 men or more"), "{html}");
}

#[test]
fn a_bad_game_is_named_and_the_others_are_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pdn");
    let fixture = std::fs::read_to_string(FIXTURE).unwrap();
    let bad = "[Black \"X\"]\n[White \"Y\"]\n1. 11-15 23-19 2. 15-20 *\n\n";
    std::fs::write(&input, format!("{bad}{fixture}")).unwrap();
    let out = dir.path().join("annotated.pdn");
    let run = crossboard(&[
        "analyse",
        input.to_str().unwrap(),
        "--depth",
        "4",
        "--no-egdb",
        "--pdn",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: game 1 (X vs Y), line 3: move 2. 15-20",
            input.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 of 4 games could not be analysed"),
        "{stderr}"
    );
    for line in ["  2  Ann - Bob", "  3  Cy - Di", "  4  Ed - Flo"] {
        assert!(stdout.contains(line), "{line}: {stdout}");
    }
    assert_eq!(games_in(&out).len(), 3, "the others are written");
}

#[test]
fn no_output_replaces_the_file_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pdn");
    let fixture = std::fs::read_to_string(FIXTURE).unwrap();
    std::fs::write(&input, &fixture).unwrap();
    for flag in ["--pdn", "--out"] {
        let run = crossboard(&[
            "analyse",
            input.to_str().unwrap(),
            flag,
            input.to_str().unwrap(),
        ]);
        assert_eq!(run.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("is the PDN file analysed"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&input).unwrap(), fixture);
    }
}

#[test]
fn a_note_names_the_better_move_its_scores_and_line() {
    // Red misses the 2-for-1 shot 15-18 with 10-14.
    let r = review("B:W22,23,29,32:B6,7,10,15", &["10-14", "29-25", "15-18"], 8);
    let note = r[0].note().expect("a marked move has a note");
    assert!(note.starts_with("better 15-18 (+"), "{note}");
    assert_eq!(
        r[0].line.first().map(ToString::to_string).as_deref(),
        Some("15-18")
    );
    assert!(r[0].line.len() > 2, "{:?}", r[0].line);
    // An unmarked move has none.
    assert!(
        r.iter()
            .filter(|m| m.mark.is_none())
            .all(|m| m.note().is_none())
    );
}

/// A config file in `dir` naming crossboard's own `crossboard hub` as the engine `own`, with
/// the built-in analysis' settings: one thread, a 16 MB table, no databases.
fn own_engine_config(dir: &Path) -> std::path::PathBuf {
    let config = dir.join("config.toml");
    let text = format!(
        "[engines.own]\npath = {:?}\narguments = [\"hub\", \"--threads\", \"1\", \"--hash\", \"16\", \"--no-egdb\"]\n",
        env!("CARGO_BIN_EXE_crossboard")
    );
    std::fs::write(&config, text).unwrap();
    config
}

/// The protocol fixes the depth (`level depth=6`): crossboard's own engine over the protocol
/// marks the file as the built-in engine does, with the same notes; only the annotator differs.
#[test]
fn a_hub_engine_at_a_fixed_depth_marks_as_the_built_in_engine() {
    let dir = tempfile::tempdir().unwrap();
    let config = own_engine_config(dir.path());
    let out = dir.path().join("annotated.pdn");
    let run = crossboard(&[
        "--config",
        config.to_str().unwrap(),
        "analyse",
        FIXTURE,
        "--depth",
        "6",
        "--engine",
        "own",
        "--pdn",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}{stderr}");
    assert!(stderr.is_empty(), "every info line read: {stderr}");
    let games = games_in(&out);
    let marks: Vec<Vec<Option<Mark>>> = games
        .iter()
        .map(|g| (0..g.moves.len()).map(|i| g.mark(i)).collect())
        .collect();
    assert_eq!(marks, EXPECTED_MARKS);
    let version = env!("CARGO_PKG_VERSION");
    let text = std::fs::read_to_string(&out).unwrap().replace(
        &format!("depth 6 a position; engine: crossboard {version} (Hub protocol)"),
        "depth 6 a position; endgame databases: none",
    );
    assert_eq!(text, EXPECTED_PDN);
    assert!(
        stdout.contains("     1... 29-25??  better 32-28 (-0.12, not -1.90): 32-28 6-10"),
        "{stdout}"
    );
}

/// An engine that crashes or plays an illegal move stops the analysis with its name and what
/// it did, and nothing is written; an engine the config does not name is refused.
#[cfg(unix)]
#[test]
fn a_misbehaving_hub_engine_stops_the_analysis_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("annotated.pdn");
    let html = dir.path().join("report.html");
    let stub = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/hub/stub-engine.sh"
    );
    for (mode, said) in [
        (
            "crash",
            "crossboard: Stubby 1.0: the engine quit (exit status: 3)",
        ),
        (
            "illegal",
            "crossboard: Stubby 1.0: played \"1-32\", not a legal move here",
        ),
    ] {
        let command = format!("{stub} {mode} Stubby");
        let run = crossboard(&[
            "analyse",
            FIXTURE,
            "--depth",
            "2",
            "--hub",
            &command,
            "--pdn",
            pdn.to_str().unwrap(),
            "--out",
            html.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{mode}: {stderr}");
        assert!(stderr.starts_with(said), "{mode}: {stderr}");
        assert!(run.stdout.is_empty(), "{mode}: nothing said of the games");
        assert!(!pdn.exists() && !html.exists(), "{mode}: nothing written");
    }
    let config = own_engine_config(dir.path());
    let run = crossboard(&[
        "--config",
        config.to_str().unwrap(),
        "analyse",
        FIXTURE,
        "--engine",
        "kingsrow",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("--engine kingsrow: no such engine in the config file (it has own)"),
        "{stderr}"
    );
}

/// The marks at depth 6: Ann hangs a man where 1-5 wins; Cy misses the shot 15-18, Di and
/// Cy each miss the next shot; the quiet opening has none.
const EXPECTED_MARKS: [&[Option<Mark>]; 3] = [
    &[Some(Mark::Blunder), None, None],
    &[
        Some(Mark::Blunder),
        Some(Mark::Blunder),
        Some(Mark::Blunder),
    ],
    &[None; 6],
];

/// The annotated file at depth 6.
const EXPECTED_PDN: &str = r#"[Event "Club night"]
[Site "?"]
[Date "2026.11.20"]
[Round "?"]
[Black "Ann"]
[White "Bob"]
[Result "0-1"]
[GameType "21"]
[SetUp "1"]
[FEN "B:W18:B1,10"]
[Annotator "crossboard, depth 6 a position; endgame databases: none"]

1. 10-15?? {better 1-5 (win in 3, not -0.09): 1-5 18-15 10x19} 1... 18x11
2. 1-5 0-1

[Event "Club night"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[Black "Cy"]
[White "Di"]
[Result "*"]
[GameType "21"]
[SetUp "1"]
[FEN "B:W22,23,29,32:B6,7,10,15"]
[Annotator "crossboard, depth 6 a position; endgame databases: none"]

1. 10-14?? {better 15-18 (+2.63, not +0.12): 15-18 23x14 10x17x26 29-25 6-9
25-21 9-13} 1... 29-25?? {better 32-28 (-0.12, not -1.90): 32-28 6-10 23-19
15x24 28x19 7-11 29-25 11-15} 2. 15-18?? {better 7-10 (+1.90, not -1.40): 7-10
23-19 15x24 25-21 14-18 22x15 10x19 21-17 …} *

[Event "Club night"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[Black "Ed"]
[White "Flo"]
[Result "*"]
[GameType "21"]
[Annotator "crossboard, depth 6 a position; endgame databases: none"]

1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 *
"#;
