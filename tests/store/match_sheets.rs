//! `crossboard sheets MATCH`: a lone match on paper. A score sheet per game planned, the
//! result slip, and once the match is over its report; names escaped; printed by headless
//! Chromium on A4 and US Letter, each score sheet a page; never over the match file, never
//! through a planted link.

use super::cli::{recorded_match, small_match};
use super::{crossboard, crossboard_ok};
use crate::common::browser::{page_texts, pages, pdf_info, print_to_pdf};
use std::path::{Path, PathBuf};

/// A name that is HTML: it must be printed as the text it is.
const MARKUP_NAME: &str = r#"<b>&"Al"</b>"#;

/// A finished match of one ballot: game 1 resigned by White after 6 plies with a time
/// adjustment and a note on the way, game 2 resigned by Red.
fn finished_match(dir: &Path) -> PathBuf {
    use crossboard::director::{Command, MatchSettings, Player, RejectionPolicy};
    use crossboard::engine::Color;
    let s = MatchSettings {
        players: [MARKUP_NAME.into(), "Bea Lopez".into()],
        ballots: 1,
        rejection: RejectionPolicy::AllPlayed,
        ..MatchSettings::default()
    };
    let path = dir.join("day.jsonl");
    let (mut m, mut apply) = recorded_match(&path, s);
    apply(
        &mut m,
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
    );
    apply(&mut m, Command::DrawBallot);
    for game in 0..2 {
        apply(&mut m, Command::StartGame);
        for ply in 0..6 {
            let g = m.playing().unwrap();
            let colour = g.game.position().turn();
            let mv = g.game.position().distinct_moves()[0];
            apply(&mut m, Command::PlayMove { colour, mv });
            if game == 0 && ply == 2 {
                apply(
                    &mut m,
                    Command::AdjustTime {
                        colour: Color::White,
                        delta_ms: 60_000,
                        reason: "clock knocked over".into(),
                    },
                );
                apply(
                    &mut m,
                    Command::Note {
                        text: "spectator asked to step back".into(),
                    },
                );
            }
        }
        let colour = if game == 0 { Color::White } else { Color::Red };
        apply(&mut m, Command::Resign { colour });
    }
    assert!(m.outcome().is_some(), "the match is over");
    path
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The HTML escaped as maud escapes it.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[test]
fn a_finished_match_gets_its_score_sheets_slip_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = finished_match(dir.path());
    let out = dir.path().join("paper");
    let stdout = crossboard_ok(&[
        "sheets",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--paper",
        "letter",
    ]);
    for name in ["day-scoresheets.html", "day-slip.html", "day-report.html"] {
        assert!(stdout.contains(name), "{stdout}");
    }
    let sheets = read(&out.join("day-scoresheets.html"));
    assert!(sheets.contains("@page{size:letter"), "letter paper");
    assert_eq!(
        sheets.matches("<div class=\"sheet\">").count(),
        2,
        "a sheet per game"
    );
    for part in [
        "Score sheet · Ballot 1, game 1",
        "Score sheet · Ballot 1, game 2",
        "Clock: 30 moves in 60 min, repeating",
        "Red: <strong>&lt;b&gt;&amp;&quot;Al&quot;&lt;/b&gt;</strong>",
        "White: <strong>Bea Lopez</strong>",
        "Ballot 1: 11-Man Ballot",
        "Opening moves, played before the game: ",
        "White wins: Red resigned",
    ] {
        assert!(sheets.contains(part), "{part}:\n{sheets}");
    }
    assert!(!sheets.contains(MARKUP_NAME), "a name printed as markup");
    // Game 1's first move is written in on its numbered line.
    assert!(sheets.contains("<td class=\"no\">1</td><td>"), "{sheets}");
    let slip = read(&out.join("day-slip.html"));
    assert!(slip.contains("Result slip"), "{slip}");
    assert!(slip.contains(&esc(MARKUP_NAME)), "{slip}");
    assert_eq!(slip.matches("Signature: ").count(), 2, "{slip}");
    assert!(slip.contains("Match points: "), "{slip}");
    let report = read(&out.join("day-report.html"));
    for part in [
        "Match report",
        "Score by ballot",
        "The games",
        "1. ",
        "Director: gave 0:01:00 to White's clock",
        "1 ballot planned",
        "clock knocked over",
        "spectator asked to step back",
        "Ballot 1, game 1, after 3 plies",
    ] {
        assert!(report.contains(part), "{part}:\n{report}");
    }
}

#[test]
fn a_match_under_way_gets_sheets_for_every_game_planned_and_no_report_yet() {
    let dir = tempfile::tempdir().unwrap();
    let path = small_match(dir.path());
    let stdout = crossboard_ok(&["sheets", path.to_str().unwrap()]);
    assert!(stdout.contains("the match is not over"), "{stdout}");
    assert!(!dir.path().join("final-report.html").exists());
    let sheets = read(&dir.path().join("final-scoresheets.html"));
    assert!(sheets.contains("@page{size:A4"), "A4 by default");
    assert_eq!(
        sheets.matches("<div class=\"sheet\">").count(),
        4,
        "two ballots planned, two games each"
    );
    assert!(sheets.contains("Club final"), "{sheets}");
}

#[test]
fn score_sheets_print_a_page_each_on_a4_and_letter() {
    let dir = tempfile::tempdir().unwrap();
    let path = finished_match(dir.path());
    for (paper, size) in [("a4", "(A4)"), ("letter", "(letter)")] {
        let out = dir.path().join(paper);
        crossboard_ok(&[
            "sheets",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--paper",
            paper,
        ]);
        let pdf = print_to_pdf(&out.join("day-scoresheets.html"));
        assert!(pdf_info(&pdf, "Page size").contains(size), "{paper}");
        assert_eq!(pages(&pdf), 2, "{paper}: a page per game");
        for (k, text) in page_texts(&pdf).iter().enumerate() {
            let game = k + 1;
            assert!(
                text.contains(&format!("Ballot 1, game {game}")),
                "{paper} page {game}:\n{text}"
            );
            assert!(text.contains(MARKUP_NAME), "{paper} page {game}:\n{text}");
            assert_eq!(text.matches("Signature: ").count(), 2, "{paper}:\n{text}");
        }
        let pdf = print_to_pdf(&out.join("day-slip.html"));
        assert_eq!(pages(&pdf), 1, "{paper}: the slip is one page");
        let pdf = print_to_pdf(&out.join("day-report.html"));
        let text = page_texts(&pdf).join("\n");
        assert!(text.contains("Score by ballot"), "{paper}:\n{text}");
    }
}

/// The sheets never replace the match file, and a link planted at a sheet's name is replaced,
/// not written through.
#[test]
fn sheets_never_overwrite_the_match_nor_write_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let path = finished_match(dir.path());
    let before = std::fs::read(&path).unwrap();
    #[cfg(unix)]
    {
        // A sheet's name that is a link to the match file: refused, nothing written.
        let odd = dir.path().join("x-slip.html");
        let odd_match = dir.path().join("x.jsonl");
        std::fs::copy(&path, &odd_match).unwrap();
        std::os::unix::fs::symlink(&odd_match, &odd).unwrap();
        let out = crossboard(&["sheets", odd_match.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(stderr.contains("is the match file itself"), "{stderr}");
        assert!(!dir.path().join("x-scoresheets.html").exists());
        // A link to another file: replaced by the sheet, the file it pointed at untouched.
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep me").unwrap();
        let link = dir.path().join("day-slip.html");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        crossboard_ok(&["sheets", path.to_str().unwrap()]);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(!std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert!(read(&link).contains("Result slip"));
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let bad = crossboard(&["sheets", path.to_str().unwrap(), "--paper", "a3"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--paper"));
}
