//! `crossboard event ...` end to end on a fresh database: the registry kept across events,
//! a division's settings (game, scoring, byes, tie-breaks), pairing with its ballot, results,
//! the explanation, a director's swap with its reason, standings, and every published form
//! (text, CSV, HTML, TRF, PDN with `Round "r.b.g"`); bad input is refused and changes nothing.

use crate::desk_cli::{crossboard, refused, run};
use std::path::Path;

#[test]
fn an_event_from_registration_to_the_published_crosstable() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    let said = run(
        &db,
        &[
            "new",
            "State Open",
            "--site",
            "Raleigh",
            "--director",
            "J. Smith",
        ],
    );
    assert!(said.starts_with("recorded: event 1"), "{said}");
    run(
        &db,
        &[
            "division",
            "State Open",
            "Masters",
            "--format",
            "swiss:3",
            "--games",
            "2",
            "--win",
            "2",
            "--tiebreaks",
            "apca",
            "--bye-first",
            "3",
            "--bye-later",
            "2",
            "--game",
            "english",
        ],
    );
    // The registry: a player added once, entered by id; new names registered on entry.
    let said = run(
        &db,
        &[
            "player", "add", "Ann Lee", "--club", "Raleigh", "--rating", "2100",
        ],
    );
    assert!(said.contains("player 1"), "{said}");
    run(
        &db,
        &[
            "enter",
            "State Open",
            "Masters",
            "1",
            "Bob",
            "Cid",
            "Dee",
            "Eve",
        ],
    );
    let list = run(&db, &["player", "list"]);
    assert_eq!(list.lines().count(), 5, "{list}");
    assert!(list.contains("Ann Lee\tRaleigh"), "{list}");
    // Bad input: refused with a reason, nothing recorded.
    let before = run(&db, &["list"]);
    assert!(refused(&db, &["division", "State Open", "X", "--game", "chess"]).contains("--game"));
    assert!(refused(&db, &["result", "State Open", "Masters", "1", "1", "1"]).contains("round"));
    assert_eq!(run(&db, &["list"]), before);

    for round in 1..=3 {
        let paired = run(&db, &["pair", "State Open", "Masters", "--seed", "5"]);
        assert!(
            paired.contains(&format!("recorded: round {round} paired")),
            "{paired}"
        );
        assert!(paired.contains("ballot 1: 11-Man Ballot "), "{paired}");
        assert!(paired.contains("bye"), "five players: a bye\n{paired}");
        if round == 2 {
            // The director exchanges two players of different boards, with the reason.
            let boards: Vec<&str> = paired.lines().filter(|l| l.starts_with("  ")).collect();
            let name = |l: &str| match l.split_whitespace().nth(1).unwrap() {
                "Ann" => "Ann Lee".to_string(),
                n => n.to_string(),
            };
            let (a, b) = (name(boards[0]), name(boards[1]));
            let swapped = run(
                &db,
                &[
                    "swap",
                    "State Open",
                    "Masters",
                    &a,
                    &b,
                    "--reason",
                    "same club",
                    // The two boards' players met in round 1: a rematch, confirmed.
                    "--confirm",
                ],
            );
            assert!(swapped.contains("exchanged in round 2"), "{swapped}");
            let why = run(&db, &["why", "State Open", "Masters", &a]);
            assert!(why.contains("same club"), "{why}");
        }
        for board in 1..=2 {
            // Round 3: a game lost by lateness on board 1, the whole round forfeited on board 2.
            let result = match (round, board) {
                (3, 1) => "1f =",
                (3, 2) => "forfeit 1",
                _ => "1 =",
            };
            let (round, board) = (round.to_string(), board.to_string());
            let args = ["result", "State Open", "Masters", &round, &board, result];
            let said = run(&db, &args);
            assert!(said.ends_with(&format!(": {result}\n")), "{said}");
        }
    }
    // A PDN attached to a board (a bad one refused), exported with its Round tag: another
    // match's game, refused as not the board's games, attached with the director's reason.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pdn");
    let good = fixtures.join("loy_chinook_1991.pdn");
    let attach = [
        "pdn",
        "State Open",
        "Masters",
        "1",
        "1",
        good.to_str().unwrap(),
    ];
    let said = refused(&db, &attach);
    assert!(
        said.contains("not this board's games: number of games"),
        "{said}"
    );
    let mut anyway = attach.to_vec();
    anyway.extend(["--override", "the famous game, shown to the players"]);
    let said = run(&db, &anyway);
    assert!(
        said.contains("recorded: 1 game attached to round 1 board 1, although"),
        "{said}"
    );
    let bad = fixtures.join("one_bad_game.pdn");
    refused(
        &db,
        &[
            "pdn",
            "State Open",
            "Masters",
            "1",
            "2",
            bad.to_str().unwrap(),
        ],
    );
    let why = run(
        &db,
        &["why", "State Open", "Masters", "Ann Lee", "--round", "1"],
    );
    assert!(!why.trim().is_empty());
    let standings = run(&db, &["standings", "State Open", "Masters"]);
    assert!(
        standings.contains("State Open - Masters (Raleigh)"),
        "{standings}"
    );
    for name in ["Ann Lee", "Bob", "Cid", "Dee", "Eve"] {
        assert!(standings.contains(name), "{name}: {standings}");
    }
    // Every published form.
    let export = |format: &str| {
        let out = dir.path().join(format!("masters.{format}"));
        run(
            &db,
            &[
                "export",
                "State Open",
                "Masters",
                "--format",
                format,
                "--out",
                out.to_str().unwrap(),
            ],
        );
        std::fs::read_to_string(out).unwrap()
    };
    let csv = export("csv");
    // The division's points: a first bye 3, a forfeited round 4 to the one present, 0 to the
    // absent (2/1/0 per game).
    assert_eq!(
        csv.matches("bye 3").count(),
        3,
        "three rounds, three first byes:\n{csv}"
    );
    assert!(csv.contains("+F 4") && csv.contains("-F 0"), "{csv}");
    assert!(csv.lines().next().unwrap().contains("R1"), "{csv}");
    assert_eq!(csv.lines().count(), 6, "header and five players:\n{csv}");
    let html = export("html");
    assert!(html.starts_with("<!DOCTYPE html>") && !html.contains("<script"));
    assert_eq!(html.matches("<tr>").count(), 6);
    let trf = export("trf");
    assert!(trf.starts_with("012 State Open"), "{trf}");
    assert_eq!(
        trf.lines().filter(|l| l.starts_with("001")).count(),
        5,
        "{trf}"
    );
    let pdn = export("pdn");
    // Two boards and two games a round, each game with its Round tag (round.board.game).
    assert!(pdn.matches("[Round \"").count() >= 8, "{pdn}");
    assert!(pdn.contains("[Round \"2.2.2\"]"), "{pdn}");
    assert!(
        pdn.contains("10-14 23-19"),
        "the attached game's moves:\n{pdn}"
    );
    assert!(pdn.contains("[Event \"State Open - Masters\"]"), "{pdn}");
    // The registry serves the next event: Ann is entered there by id, not registered again.
    run(&db, &["new", "Club Night"]);
    run(&db, &["division", "Club Night", "Open", "--format", "rr"]);
    let said = run(&db, &["enter", "Club Night", "Open", "1", "Zed"]);
    assert!(said.contains("Ann Lee entered (player 1)"), "{said}");
    assert_eq!(run(&db, &["player", "list"]).lines().count(), 6);
}

/// An event "E" with a division "D" (a Swiss of 3 two-game rounds) and five players entered.
fn five_player_swiss(db: &Path) {
    run(db, &["new", "E", "--start", "2026-05-15"]);
    run(db, &["division", "E", "D", "--format", "swiss:3"]);
    run(db, &["enter", "E", "D", "Ann", "Bob", "Cid", "Dee", "Eve"]);
}

#[test]
fn a_swap_keeps_the_rounds_ballot() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    let paired = run(&db, &["pair", "E", "D", "--seed", "3"]);
    let ballot = paired
        .lines()
        .find(|l| l.starts_with("ballot 1: "))
        .unwrap()
        .to_string();
    let boards: Vec<&str> = paired.lines().filter(|l| l.starts_with("  ")).collect();
    let name = |l: &str| l.split_whitespace().nth(1).unwrap().to_string();
    let (a, b) = (name(boards[0]), name(boards[1]));
    let swapped = run(&db, &["swap", "E", "D", &a, &b, "--reason", "same club"]);
    assert!(swapped.contains(&ballot), "{swapped}");
    let shown = run(&db, &["pairings", "E", "D"]);
    assert!(shown.contains(&ballot), "{shown}");
    run(&db, &["result", "E", "D", "1", "1", "1 ="]);
    let pdn = run(&db, &["export", "E", "D", "--format", "pdn", "--out", "-"]);
    assert!(
        pdn.contains("[FEN "),
        "the games start from the round's ballot:\n{pdn}"
    );
    assert!(
        pdn.contains(r#"[Date "2026.05.15"]"#),
        "the event's first day is the games' date:\n{pdn}"
    );
}

/// A game won by forfeit (`1f`, lateness) or a forfeited round was not played: the PDN, a
/// collection of played games, leaves it out (a game with a result and no moves would count as
/// a win in any game database), and the export says how many it left out.
#[test]
fn a_forfeited_game_is_left_out_of_the_pdn_and_the_export_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    run(&db, &["pair", "E", "D", "--seed", "1"]);
    run(&db, &["result", "E", "D", "1", "1", "1 2f"]);
    run(&db, &["result", "E", "D", "1", "2", "forfeit 1"]);
    let out = dir.path().join("e.pdn");
    let said = run(
        &db,
        &[
            "export",
            "E",
            "D",
            "--format",
            "pdn",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        said.contains("1 game") && said.contains("3 forfeited games left out"),
        "{said}"
    );
    let pdn = std::fs::read_to_string(&out).unwrap();
    assert!(pdn.contains(r#"[Round "1.1.1"]"#), "{pdn}");
    assert!(
        !pdn.contains(r#"[Round "1.1.2"]"#),
        "a forfeit is no game:\n{pdn}"
    );
    assert!(
        !pdn.contains(r#"[Round "1.2."#),
        "a forfeited round:\n{pdn}"
    );
    assert_eq!(pdn.matches("[Round ").count(), 1, "{pdn}");
    // To standard output the PDN alone; the summary on standard error.
    let o = crossboard(&db, &["export", "E", "D", "--format", "pdn", "--out", "-"]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout), pdn);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("3 forfeited games left out"), "{err}");
    // The crosstable still shows the forfeits.
    let text = run(&db, &["export", "E", "D", "--format", "text", "--out", "-"]);
    assert!(text.contains("+F") && text.contains("-F"), "{text}");
}

/// An event exported before any round is paired: the files are still written (the entry list
/// is worth publishing), and both the output and the crosstable say that no round is paired.
#[test]
fn an_event_with_no_round_exports_its_entry_list_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    for format in ["html", "text", "csv", "trf", "pdn"] {
        let out = dir.path().join(format!("e.{format}"));
        let said = run(
            &db,
            &[
                "export",
                "E",
                "D",
                "--format",
                format,
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert!(said.contains("no round paired yet"), "{format}: {said}");
        let file = std::fs::read_to_string(&out).unwrap();
        if format == "html" || format == "text" {
            assert!(file.contains("No round has been paired yet"), "{file}");
            assert!(file.contains("Ann"), "{file}");
        }
        if format == "pdn" {
            assert!(said.contains("no games"), "{said}");
        }
    }
    let text = run(&db, &["export", "E", "D", "--format", "text", "--out", "-"]);
    assert!(text.contains("No round has been paired yet"), "{text}");
    // A division without players says that too.
    run(&db, &["division", "E", "Empty", "--format", "rr"]);
    let out = dir.path().join("empty.html");
    let said = run(
        &db,
        &["export", "E", "Empty", "--out", out.to_str().unwrap()],
    );
    assert!(said.contains("no player entered"), "{said}");
}

/// The board line of `who` in `pairings` output: (first, second).
fn board_of(pairings: &str, who: &str) -> Option<(String, String)> {
    pairings.lines().find_map(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        (w.len() >= 3 && w[0].parse::<u32>().is_ok() && (w[1] == who || w[2] == who))
            .then(|| (w[1].to_string(), w[2].to_string()))
    })
}

/// An exchange that makes a rematch or gives a second bye is refused, saying so, unless
/// confirmed with `--confirm`; then the output and the logged reason say what it repeats.
#[test]
fn a_swap_that_makes_a_rematch_or_a_second_bye_is_refused_unless_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    let by_hand = [
        "pair", "E", "D", "--seed", "1", "--board", "Ann", "Bob", "--board", "Cid", "Dee", "--bye",
        "Eve", "--reason", "seeded",
    ];
    run(&db, &by_hand);
    run(&db, &["result", "E", "D", "1", "1", "1 ="]);
    run(&db, &["result", "E", "D", "1", "2", "= ="]);
    let round2 = run(&db, &["pair", "E", "D", "--seed", "1"]);
    let bye = round2
        .lines()
        .find_map(|l| l.strip_prefix("bye  "))
        .unwrap()
        .trim()
        .to_string();
    assert_ne!(bye, "Eve", "{round2}");
    // Ann's opponent exchanged with Bob: Ann meets Bob again.
    let (f, s) = board_of(&round2, "Ann").unwrap();
    let other = if f == "Ann" { s } else { f };
    let before = run(&db, &["pairings", "E", "D"]);
    let why = refused(&db, &["swap", "E", "D", &other, "Bob", "--reason", "x"]);
    assert!(
        (why.contains("Ann and Bob already met in round 1")
            || why.contains("Bob and Ann already met in round 1"))
            && why.contains("--confirm"),
        "{why}"
    );
    // Round 2's bye exchanged with Eve: her second.
    let why = refused(&db, &["swap", "E", "D", &bye, "Eve", "--reason", "x"]);
    assert!(why.contains("Eve already had a bye in round 1"), "{why}");
    assert_eq!(run(&db, &["pairings", "E", "D"]), before);
    let said = run(
        &db,
        &[
            "swap",
            "E",
            "D",
            &bye,
            "Eve",
            "--reason",
            "late",
            "--confirm",
        ],
    );
    assert!(
        said.contains("exchanged in round 2 (confirmed: ")
            && said.contains("Eve already had a bye in round 1"),
        "{said}"
    );
    assert!(said.contains("bye  Eve"), "{said}");
    // Confirmed, an exchange still needs its reason (the note is none).
    let why = refused(
        &db,
        &["swap", "E", "D", &bye, "Eve", "--reason", " ", "--confirm"],
    );
    assert!(why.contains("a reason is required"), "{why}");
    let why = run(&db, &["why", "E", "D", &bye]);
    assert!(
        why.contains("The director changed this round's pairing: late; confirmed: ")
            && why.contains("Eve already had a bye in round 1"),
        "{why}"
    );
}

#[test]
fn an_entry_refused_enters_nobody_and_an_unknown_id_is_not_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    run(&db, &["division", "E", "B", "--format", "swiss:3"]);
    let registry = run(&db, &["player", "list"]);
    let standings = run(&db, &["standings", "E", "B"]);
    // Ann is registry player 1; an empty name is refused, so neither Ann nor Zed is entered
    // nor Zed registered.
    let said = refused(&db, &["enter", "E", "B", "1", "Zed", " ", "Bob"]);
    assert!(said.contains("name"), "{said}");
    // A number that is no registry id is not registered as a player called "99".
    let said = refused(&db, &["enter", "E", "B", "99"]);
    assert!(said.contains("no player 99 in the registry"), "{said}");
    // The same player twice in one command.
    refused(&db, &["enter", "E", "B", "Cid", "Cid"]);
    assert_eq!(run(&db, &["player", "list"]), registry);
    assert_eq!(run(&db, &["standings", "E", "B"]), standings);
    let said = run(&db, &["enter", "E", "B", "1", "Zed"]);
    assert!(said.contains("Ann entered (player 1)"), "{said}");
    assert!(
        said.contains("Zed registered and entered (player 6)"),
        "{said}"
    );
}

#[test]
fn a_result_again_changes_nothing_an_empty_one_is_refused_a_correction_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    run(&db, &["pair", "E", "D", "--seed", "1"]);
    let said = run(&db, &["result", "E", "D", "1", "1", "1 ="]);
    assert!(said.starts_with("recorded: round 1 board 1: 1 ="), "{said}");
    let actions = run(&db, &["list"]);
    // The same result again: nothing written.
    let said = run(&db, &["result", "E", "D", "1", "1", "1="]);
    assert!(
        said.starts_with("unchanged: round 1 board 1 already has 1 ="),
        "{said}"
    );
    assert_eq!(run(&db, &["list"]), actions);
    // An empty result would have wiped the board's games.
    for empty in ["", "  ", ","] {
        let said = refused(&db, &["result", "E", "D", "1", "1", empty]);
        assert!(said.contains("no result given"), "{empty:?}: {said}");
    }
    assert_eq!(run(&db, &["list"]), actions);
    // A correction names what it replaces; once the next round is paired, says it stands.
    let said = run(&db, &["result", "E", "D", "1", "1", "= ="]);
    assert!(said.contains("= = (replaces 1 =)"), "{said}");
    run(&db, &["result", "E", "D", "1", "2", "2 2"]);
    run(&db, &["pair", "E", "D", "--seed", "1"]);
    let said = run(&db, &["result", "E", "D", "1", "2", "1 1"]);
    assert!(
        said.contains("(replaces 2 2); round 2 was paired before this result"),
        "{said}"
    );
}

#[test]
fn a_round_is_not_paired_before_two_players_are_entered() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "S", "--format", "swiss:3"]);
    run(&db, &["division", "E", "R", "--format", "rr"]);
    let actions = run(&db, &["list"]);
    // Paired empty, round 1 would be lost: everyone entered after it starts with an absence.
    for div in ["S", "R"] {
        let said = refused(&db, &["pair", "E", div]);
        assert!(
            said.contains("round 1 has 0 player(s) to pair"),
            "{div}: {said}"
        );
    }
    run(&db, &["enter", "E", "S", "Solo"]);
    let actions_one = run(&db, &["list"]);
    assert_ne!(actions_one, actions);
    assert!(refused(&db, &["pair", "E", "S"]).contains("1 player(s)"));
    assert_eq!(run(&db, &["list"]), actions_one);
    run(&db, &["enter", "E", "S", "Duo"]);
    assert!(run(&db, &["pair", "E", "S"]).contains("recorded: round 1 paired"));
}

#[test]
fn an_event_needs_a_name_and_real_days() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    let events = run(&db, &["list"]);
    assert!(refused(&db, &["new", " "]).contains("an event needs a name"));
    // The days go into every published form (the TRF's 042/052 lines): checked here.
    for (flag, day) in [("--start", "2026-13-45"), ("--end", "yesterday")] {
        let said = refused(&db, &["new", "F", flag, day]);
        assert!(said.contains("a day is YYYY-MM-DD"), "{said}");
    }
    let said = refused(
        &db,
        &["new", "F", "--start", "2026-05-16", "--end", "2026-05-15"],
    );
    assert!(said.contains("before --start"), "{said}");
    assert_eq!(run(&db, &["list"]), events);
    run(
        &db,
        &["new", "F", "--start", "2026-05-15", "--end", "2026-05-16"],
    );
}

#[test]
fn head_to_head_of_players_who_never_met_is_not_published_as_nought() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(
        &db,
        &[
            "division",
            "E",
            "D",
            "--format",
            "swiss:1",
            "--tiebreaks",
            "h2h",
        ],
    );
    run(&db, &["enter", "E", "D", "Ann", "Bob", "Cid", "Dee"]);
    run(&db, &["pair", "E", "D", "--seed", "1"]);
    // Both first players win both games: level on 2, never met.
    run(&db, &["result", "E", "D", "1", "1", "1 1"]);
    run(&db, &["result", "E", "D", "1", "2", "1 1"]);
    let csv = run(&db, &["export", "E", "D", "--format", "csv", "--out", "-"]);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert!(
        rows[0].starts_with("1-2,") && rows[1].starts_with("1-2,"),
        "{csv}"
    );
    for row in &rows[..2] {
        assert!(row.ends_with(",2,-"), "no head-to-head value:\n{csv}");
    }
}

/// Four players, four rounds: after three rounds every pair has met, the engine refuses round 4
/// (no pairing without a rematch), and the director pairs it by hand with a reason; a by-hand
/// pairing that leaves a player out, pairs one twice or gives no reason is refused.
#[test]
fn a_round_the_engine_cannot_pair_is_paired_by_hand_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E", "--start", "2026-05-15"]);
    run(&db, &["division", "E", "D", "--format", "swiss:4"]);
    run(&db, &["enter", "E", "D", "Ann", "Bob", "Cid", "Dee"]);
    for round in ["1", "2", "3"] {
        run(&db, &["pair", "E", "D", "--seed", "1"]);
        run(&db, &["result", "E", "D", round, "1", "1 ="]);
        run(&db, &["result", "E", "D", round, "2", "= ="]);
    }
    let why = refused(&db, &["pair", "E", "D", "--seed", "1"]);
    assert!(
        why.contains(
            "pair it by hand: crossboard event pair E D --board FIRST SECOND [--board FIRST \
             SECOND ...] [--bye NAME] --reason WHY"
        ),
        "{why}"
    );
    let board = |a: &str, b: &str| ["--board".to_string(), a.into(), b.into()];
    let by_hand = |boards: &[[String; 3]], reason: Option<&str>| {
        let mut args: Vec<String> = ["pair", "E", "D", "--seed", "1"].map(String::from).to_vec();
        for b in boards {
            args.extend(b.iter().cloned());
        }
        if let Some(r) = reason {
            args.extend(["--reason".to_string(), r.to_string()]);
        }
        args
    };
    let before = run(&db, &["pairings", "E", "D"]);
    for (args, says) in [
        (
            by_hand(&[board("Ann", "Bob"), board("Cid", "Dee")], None),
            "reason",
        ),
        (
            by_hand(&[board("Ann", "Bob"), board("Cid", "Ann")], Some("x")),
            "Ann",
        ),
        (by_hand(&[board("Ann", "Bob")], Some("x")), "Cid"),
    ] {
        let why = refused(&db, &strs(&args));
        assert!(why.contains(says), "{args:?}: {why}");
        assert_eq!(
            run(&db, &["pairings", "E", "D"]),
            before,
            "{args:?} changed the round"
        );
    }
    let paired = run(
        &db,
        &strs(&by_hand(
            &[board("Ann", "Bob"), board("Cid", "Dee")],
            Some("every pair has met"),
        )),
    );
    assert!(paired.contains("Round 4 of 4"), "{paired}");
    // What the director's pairing repeats is said, and logged with the reason.
    assert!(
        paired.contains("recorded: round 4 paired by hand (Ann and Bob already met in round"),
        "{paired}"
    );
    assert!(paired.contains("ballot 1: "), "{paired}");
    let why = run(&db, &["why", "E", "D", "Ann"]);
    assert!(
        why.contains("every pair has met; repeats: Ann and Bob already met"),
        "{why}"
    );
    run(&db, &["result", "E", "D", "4", "1", "1 1"]);
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn an_absence_is_for_a_round_of_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    let actions = run(&db, &["list"]);
    for round in ["0", "4", "99"] {
        let said = refused(&db, &["absent", "E", "D", "Ann", round]);
        assert!(said.contains("(1 to 3)"), "{round}: {said}");
    }
    assert_eq!(run(&db, &["list"]), actions);
    assert!(run(&db, &["absent", "E", "D", "Ann", "3"]).contains("absent in round 3"));
}

#[test]
fn an_export_onto_the_desk_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    let before = std::fs::read(&db).unwrap();
    let said = refused(
        &db,
        &[
            "export",
            "E",
            "D",
            "--format",
            "html",
            "--out",
            db.to_str().unwrap(),
        ],
    );
    assert!(said.contains("is the desk's database"), "{said}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "the database changed");
    // The database still opens.
    assert!(run(&db, &["list"]).contains('E'));
}

#[test]
fn csv_cells_that_a_spreadsheet_would_run_are_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E", "--start", "2026-05-15"]);
    run(&db, &["division", "E", "D", "--format", "rr"]);
    run(
        &db,
        &[
            "enter",
            "E",
            "D",
            "--",
            "=HYPERLINK(\"http://x\",\"y\")",
            "+Bob",
            "-Cid",
            "@Dee",
            "Eve",
        ],
    );
    let csv = run(&db, &["export", "E", "D", "--format", "csv", "--out", "-"]);
    for raw in ["=HYPERLINK", "+Bob", "-Cid", "@Dee"] {
        assert!(
            !csv.lines().any(|l| l
                .split(',')
                .any(|c| c.trim_start_matches('"').starts_with(raw))),
            "{raw} is written raw: {csv}"
        );
    }
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        "{csv}"
    );
    assert!(
        csv.contains(",'+Bob,") && csv.contains(",'-Cid,") && csv.contains(",'@Dee,"),
        "{csv}"
    );
    assert!(csv.contains(",Eve,"), "{csv}");
}

/// The copy of the database kept before a pairing is one of the desk's files too: an export
/// onto it is refused, and the copy still opens.
#[test]
fn an_export_onto_the_copy_kept_before_pairing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    run(&db, &["pair", "E", "D", "--seed", "1"]);
    let copy = dir.path().join("desk.backup.sqlite3");
    let before = std::fs::read(&copy).unwrap();
    let out = copy.to_str().unwrap();
    let said = refused(&db, &["export", "E", "D", "--format", "csv", "--out", out]);
    assert!(said.contains("the copy of the desk's database"), "{said}");
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    assert!(run(&copy, &["list"]).contains('E'));
}

/// An export into a folder that does not exist says which folder, not the name of the
/// temporary file it would have written first.
#[test]
fn an_export_into_a_missing_folder_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    five_player_swiss(&db);
    let folder = dir.path().join("no-such-folder");
    let out = folder.join("e.csv");
    let said = refused(
        &db,
        &[
            "export",
            "E",
            "D",
            "--format",
            "csv",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        said.contains(&format!("no folder {}", folder.display())),
        "{said}"
    );
    assert!(!said.contains(".e.csv."), "no temporary file named: {said}");
    assert!(!folder.exists());
}

/// `event list`: an event a line, its creation as a date and time said to be UTC, and its
/// actions counted in words ("1 action", "2 actions").
#[test]
fn the_list_says_when_in_plain_time_and_counts_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    let list = run(&db, &["list"]);
    let fields: Vec<&str> = list.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 4, "{list}");
    assert_eq!(fields[..2], ["1", "E"], "{list}");
    // "2026-12-07 05:12 UTC"
    let when = fields[2];
    assert!(when.ends_with(" UTC") && when.len() == 20, "{list}");
    assert!(
        chrono::NaiveDateTime::parse_from_str(&when[..16], "%Y-%m-%d %H:%M").is_ok(),
        "{list}"
    );
    assert_eq!(fields[3], "1 action", "{list}");
    run(&db, &["division", "E", "S", "--format", "swiss:3"]);
    let list = run(&db, &["list"]);
    assert!(list.trim_end().ends_with("\t2 actions"), "{list}");
}
