//! The store's commands on the real binary: `crossboard pdn` (and `export`).

use std::process::{Command, Output};

fn crossboard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run crossboard")
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn pdn_check_lists_every_game() {
    let out = crossboard(&["pdn", &fixture("pdn/loy_chinook_1991.pdn")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        stdout.trim_end(),
        "  1  Loy, Jim - Chinook  0-1  38 moves  B:W11,12,13,17,21,32:B3,4,6,10,14,26"
    );
}

#[test]
fn pdn_check_reports_a_bad_game_and_goes_on() {
    let out = crossboard(&["pdn", &fixture("pdn/one_bad_game.pdn")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with("  1  A - B  1-0  2 moves  B:"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("  2  ERROR (C vs D) line 8: move 2... 19x10: 19x10 is illegal"),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("  3  ? - ?  *  3 moves  W:"),
        "{stdout}"
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1 of 3 games did not replay"), "{stderr}");
}

#[test]
fn pdn_check_missing_file() {
    let out = crossboard(&["pdn", "/nonexistent/games.pdn"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read /nonexistent/games.pdn"),
        "{stderr}"
    );
}
