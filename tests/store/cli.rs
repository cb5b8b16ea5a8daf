//! The store's commands on the real binary: `crossboard pdn` (and `export`).

use super::{crossboard, crossboard_ok, fixture};

/// A fixture's path as an argument.
fn fixture_arg(name: &str) -> String {
    fixture(name).display().to_string()
}

#[test]
fn pdn_check_lists_every_game() {
    let stdout = crossboard_ok(&["pdn", &fixture_arg("pdn/loy_chinook_1991.pdn")]);
    assert_eq!(
        stdout.trim_end(),
        "  1  Loy, Jim - Chinook  0-1  38 plies, 19 moves  B:W11,12,13,17,21,32:B3,4,6,10,14,26"
    );
}

#[test]
fn pdn_check_reports_a_bad_game_and_goes_on() {
    let out = crossboard(&["pdn", &fixture_arg("pdn/one_bad_game.pdn")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with("  1  A - B  1-0  2 plies, 1 move  B:"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("  2  ERROR (C vs D) line 8: move 2... 19x10: 19x10 is illegal"),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("  3  ? - ?  *  3 plies, 2 moves  W:"),
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

/// A new match of `settings` saved at `path`, and the way to go on: apply a command 30 s after
/// the last one, and save.
pub(crate) fn recorded_match(
    path: &std::path::Path,
    settings: crossboard::director::MatchSettings,
) -> (
    crossboard::director::Match,
    impl FnMut(&mut crossboard::director::Match, crossboard::director::Command) + use<>,
) {
    use chrono::{TimeZone, Utc};
    use crossboard::director::{Match, Now};
    use rand::SeedableRng;
    let now = |t: u64| Now {
        mono_ms: t,
        wall: Utc
            .timestamp_millis_opt(1_780_000_000_000 + t as i64)
            .unwrap(),
    };
    let m = Match::new(settings, now(0)).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut store = crossboard::store::MatchStore::create(path, &m).unwrap();
    let mut t = 0u64;
    let apply = move |m: &mut Match, c| {
        t += 30_000;
        m.apply(c, now(t), &mut rng).unwrap();
        store.save(m).unwrap();
    };
    (m, apply)
}

/// A short finished-and-started match on disk: ballot 1 played (a resignation, then a draw by
/// agreement), game one of ballot 2 under way.
pub(crate) fn small_match(dir: &std::path::Path) -> std::path::PathBuf {
    use crossboard::director::{Command, MatchSettings, RejectionPolicy};
    use crossboard::engine::Color;
    let mut s = MatchSettings {
        players: ["Ann".into(), "Bob".into()],
        ballots: 2,
        rejection: RejectionPolicy::AllPlayed,
        ..MatchSettings::default()
    };
    s.event = "Club final".into();
    let path = dir.join("final.jsonl");
    let (mut m, mut apply) = recorded_match(&path, s);
    apply(
        &mut m,
        Command::AssignColour {
            player: crossboard::director::Player::First,
            colour: Color::Red,
        },
    );
    for game in 0..3 {
        if game != 1 {
            apply(&mut m, Command::DrawBallot);
        }
        apply(&mut m, Command::StartGame);
        for _ in 0..6 {
            let g = m.playing().unwrap();
            let colour = g.game.position().turn();
            let mv = g.game.position().distinct_moves()[0];
            apply(&mut m, Command::PlayMove { colour, mv });
        }
        match game {
            0 => apply(
                &mut m,
                Command::Resign {
                    colour: Color::White,
                },
            ),
            1 => {
                apply(&mut m, Command::OfferDraw { colour: Color::Red });
                apply(
                    &mut m,
                    Command::AcceptDraw {
                        colour: Color::White,
                    },
                );
            }
            _ => {}
        }
    }
    path
}

#[test]
fn export_writes_pdn_next_to_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let path = small_match(dir.path());
    let stdout = crossboard_ok(&["export", path.to_str().unwrap()]);
    assert!(
        stdout.contains("wrote 3 games (1 unfinished, result *)"),
        "{stdout}"
    );
    let pdn = std::fs::read_to_string(dir.path().join("final.pdn")).unwrap();
    assert!(pdn.contains("[Event \"Club final\"]"), "{pdn}");
    assert!(pdn.contains("[Round \"1.1\"]") && pdn.contains("[Round \"2.1\"]"));
    assert!(
        pdn.contains("[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"1-0\"]"),
        "{pdn}"
    );
    assert!(
        pdn.contains("[Black \"Bob\"]\n[White \"Ann\"]\n[Result \"1/2-1/2\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("[TimeControl \"30/3600\"]"));
    assert!(pdn.contains("[Ballot \"11-Man Ballot "));
    assert!(pdn.contains("{[%clock 0:59:30]}"), "{pdn}");
    // And crossboard reads its own export back.
    let check = crossboard(&["pdn", dir.path().join("final.pdn").to_str().unwrap()]);
    let lines = String::from_utf8_lossy(&check.stdout).lines().count();
    assert!(check.status.success());
    assert_eq!(lines, 3);
    // --out - writes to standard output.
    let out = crossboard(&["export", path.to_str().unwrap(), "--out", "-"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("[Event \"Club final\"]"));
}

#[test]
fn export_of_a_damaged_file_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = small_match(dir.path());
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replacen("\"ballots\":2", "\"ballots\":two", 1);
    assert_ne!(bad, text);
    std::fs::write(&path, bad).unwrap();
    let out = crossboard(&["export", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The settings are line 2.
    assert!(stderr.contains("final.jsonl:2:"), "{stderr}");
    assert!(!dir.path().join("final.pdn").exists());
}

#[test]
fn config_command_reports_bad_files() {
    let stdout = crossboard_ok(&["--config", &fixture_arg("config/partial.toml"), "config"]);
    assert!(stdout.contains("config file: ") && stdout.contains("partial.toml"));
    assert!(stdout.contains("\"Ann Smith\""), "{stdout}");
    for (name, line) in [("config/unknown_key.toml", 6), ("config/bad_value.toml", 3)] {
        let out = crossboard(&["--config", &fixture_arg(name), "config"]);
        assert!(!out.status.success(), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("{name}:{line}")), "{stderr}");
    }
    let missing = crossboard(&["--config", "/nonexistent/c.toml", "config"]);
    assert!(!missing.status.success());
}

#[test]
fn a_failed_resume_leaves_the_match_file_byte_identical() {
    // No terminal (output captured): `crossboard resume` refuses to start, and the file it read
    // is exactly as it was (reading a match writes nothing until the director acts).
    let dir = tempfile::tempdir().unwrap();
    let path = small_match(dir.path());
    let before = std::fs::read(&path).unwrap();
    let out = crossboard(&["resume", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("terminal"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// A match file may have any name: one ending in `.pdn` is never replaced by its own export.
/// The default output then takes another name (the same name with `.pdn` would be the match
/// file itself); an output named by hand that is the match file (by another path, or another
/// name of the same file) is refused before anything is written.
#[test]
fn export_refuses_to_overwrite_its_own_match_file() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = small_match(dir.path());
    let path = dir.path().join("m.pdn");
    std::fs::copy(&jsonl, &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let stdout = crossboard_ok(&["export", path.to_str().unwrap()]);
    assert!(stdout.contains("m.games.pdn"), "{stdout}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the match was written over"
    );
    let pdn = std::fs::read_to_string(dir.path().join("m.games.pdn")).unwrap();
    assert!(pdn.contains("[Event \"Club final\"]"), "{pdn}");
    let mut same = vec![
        path.clone(),
        dir.path().join(".").join("m.pdn"),
        dir.path().join("sub").join("..").join("m.pdn"),
    ];
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    #[cfg(unix)]
    {
        let link = dir.path().join("link.pdn");
        std::fs::hard_link(&path, &link).unwrap();
        same.push(link);
    }
    for out_path in same {
        let out = crossboard(&[
            "export",
            path.to_str().unwrap(),
            "--out",
            out_path.to_str().unwrap(),
        ]);
        assert!(!out.status.success(), "{}", out_path.display());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("is the match file itself") && stderr.contains("nothing was written"),
            "{stderr}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "{}",
            out_path.display()
        );
    }
}

#[test]
fn tune_refuses_to_write_its_weights_over_a_pdn_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("g.pdn");
    std::fs::copy(fixture("pdn/loy_chinook_1991.pdn"), &pdn).unwrap();
    let before = std::fs::read(&pdn).unwrap();
    let arg = pdn.display().to_string();
    let out = crossboard(&["tune", "--pdn", &arg, "--epochs", "1", "--out", &arg]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "accepted: {stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(std::fs::read(&pdn).unwrap(), before, "the PDN was replaced");
}

/// A match file, a TOML file claiming the JSON format and the config file, each given where the
/// other is wanted, are named for what they are.
#[test]
fn files_of_another_kind_are_named_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let m = small_match(dir.path());
    let out = crossboard(&["pdn", m.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("is a crossboard match file, not PDN")
            && stderr.contains("crossboard export"),
        "{stderr}"
    );
    let toml = dir.path().join("v2.toml");
    std::fs::write(
        &toml,
        "format-version = 2\nsaved-at = 2026-01-01T00:00:00Z\n",
    )
    .unwrap();
    let out = crossboard(&["export", toml.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("JSON lines") && !stderr.contains("cut short"),
        "{stderr}"
    );
    let config = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
    let out = crossboard(&["export", config.to_str().unwrap(), "--out", "-"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("a crossboard config file, not a match file"),
        "{stderr}"
    );
}

#[test]
fn a_utf16_pdn_with_its_byte_order_mark_reads_as_utf8_does() {
    let utf8 = std::fs::read_to_string(fixture("pdn/loy_chinook_1991.pdn")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, bom, unit) in [
        (
            "le.pdn",
            [0xFF, 0xFE],
            u16::to_le_bytes as fn(u16) -> [u8; 2],
        ),
        ("be.pdn", [0xFE, 0xFF], u16::to_be_bytes),
    ] {
        let mut bytes = bom.to_vec();
        bytes.extend(utf8.encode_utf16().flat_map(unit));
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        assert_eq!(
            crossboard_ok(&["pdn", path.to_str().unwrap()]),
            crossboard_ok(&["pdn", &fixture_arg("pdn/loy_chinook_1991.pdn")]),
            "{name}"
        );
    }
}

/// `crossboard config` lists the presets by number, as the set-up form's list has them, and
/// prints each one's settings.
#[test]
fn config_command_lists_the_presets() {
    let stdout = crossboard_ok(&["--config", &fixture_arg("config/presets.toml"), "config"]);
    assert!(
        stdout.contains("# presets (Ctrl-P on the set-up form): 1. APCA pool, 2. Club night"),
        "{stdout}"
    );
    assert!(stdout.contains("[preset.\"Club night\"]"), "{stdout}");
    // Every [match] key is listed, the ballot draw too (the file's and a preset's).
    assert!(
        stdout.contains("ballot-draw = \"card-by-card\""),
        "{stdout}"
    );
    assert!(stdout.contains("ballot-draw = \"automatic\""), "{stdout}");
    assert!(stdout.contains("remember-names = true"), "{stdout}");
    assert!(stdout.contains("# the last match's settings: "), "{stdout}");
    let stdout = crossboard_ok(&["--config", &fixture_arg("config/partial.toml"), "config"]);
    assert!(stdout.contains("# presets: none"), "{stdout}");
}

/// `crossboard config` names each Hub engine with the program found, or says it is not found.
#[cfg(unix)]
#[test]
fn config_command_lists_the_hub_engines() {
    let stdout = crossboard_ok(&["--config", &fixture_arg("config/engines.toml"), "config"]);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("# Hub engines (Home, h): "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        line.contains("gone (/nonexistent/engine: not found), shell (/"),
        "{line}"
    );
    assert!(line.ends_with("/sh)"), "{line}");
    assert!(stdout.contains("[engines.shell]"), "{stdout}");
    assert!(stdout.contains("    \"-c\",\n    \"exit\","), "{stdout}");
    let stdout = crossboard_ok(&["--config", &fixture_arg("config/partial.toml"), "config"]);
    assert!(stdout.contains("# Hub engines: none"), "{stdout}");
}
