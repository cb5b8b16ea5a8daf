//! A board's PDN is that board's games: `event pdn` checks the players (either colour order),
//! the round's ballot and the number of games, refuses a mismatch naming the field, and
//! attaches it all the same only with the director's reason, which the export prints.

use crate::after_round::weekend_open;
use crate::desk_cli::run;
use std::path::Path;

/// The games of board `board` of round 1 as the event exports them (no moves: from the
/// ballot position, the board's players and results).
fn board_games(db: &Path, board: u32) -> Vec<String> {
    let pdn = run(
        db,
        &[
            "export",
            "Weekend Open",
            "Open",
            "--format",
            "pdn",
            "--round",
            "1",
            "--out",
            "-",
        ],
    );
    pdn.split("[Event ")
        .filter(|g| g.contains(&format!("[Round \"1.{board}.")))
        .map(|g| format!("[Event {}\n", g.trim_end()))
        .collect()
}

fn attach(db: &Path, file: &Path, board: &str, extra: &[&str]) -> Result<String, String> {
    let mut args = vec![
        "pdn",
        "Weekend Open",
        "Open",
        "1",
        board,
        file.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = crate::desk_cli::crossboard(db, &args);
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(String::from_utf8(out.stderr).unwrap())
    }
}

#[test]
fn a_pdn_of_other_players_ballot_or_games_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    weekend_open(&db);
    let games = board_games(&db, 1);
    assert_eq!(games.len(), 2, "{games:?}");
    let file = dir.path().join("board1.pdn");
    let write = |text: &str| std::fs::write(&file, text).unwrap();
    let before = run(
        &db,
        &[
            "export",
            "Weekend Open",
            "Open",
            "--format",
            "pdn",
            "--out",
            "-",
        ],
    );

    // Board 1's games on board 3: other players.
    write(&games.join("\n"));
    let said = attach(&db, &file, "3", &[]).unwrap_err();
    assert!(said.contains("players of game 1: the PDN has"), "{said}");
    // One game of a two-game round.
    write(&games[0]);
    let said = attach(&db, &file, "1", &[]).unwrap_err();
    assert!(
        said.contains("number of games: the PDN has 1, the board has 2 games a round"),
        "{said}"
    );
    // Another opening: the game from the standard start, no moves.
    let other: String = games[0]
        .lines()
        .filter(|l| !l.starts_with("[FEN") && !l.starts_with("[SetUp"))
        .collect::<Vec<_>>()
        .join("\n");
    write(&format!("{other}\n\n{}", games[1]));
    let said = attach(&db, &file, "1", &[]).unwrap_err();
    assert!(
        said.contains("ballot of game 1: the PDN plays from"),
        "{said}"
    );
    assert!(said.contains("--override"), "{said}");
    // Nothing was recorded.
    assert_eq!(
        run(
            &db,
            &[
                "export",
                "Weekend Open",
                "Open",
                "--format",
                "pdn",
                "--out",
                "-"
            ]
        ),
        before
    );

    // The board's own games, the players named either way round: attached.
    let swapped: Vec<String> = games
        .iter()
        .map(|g| {
            g.replace("[Black ", "[Tmp ")
                .replace("[White ", "[Black ")
                .replace("[Tmp ", "[White ")
        })
        .collect();
    write(&swapped.join("\n"));
    let said = attach(&db, &file, "1", &[]).unwrap();
    assert!(
        said.contains("2 games attached to round 1 board 1"),
        "{said}"
    );
    assert!(!said.contains("although"), "{said}");

    // The one-game file, with the director's reason: recorded, said and exported.
    write(&games[0]);
    let said = attach(
        &db,
        &file,
        "1",
        &["--override", "game 2 was not recorded by the players"],
    )
    .unwrap();
    assert!(
        said.contains("1 game attached to round 1 board 1, although number of games"),
        "{said}"
    );
    assert!(
        said.contains("attached because: game 2 was not recorded by the players"),
        "{said}"
    );
    let pdn = run(
        &db,
        &[
            "export",
            "Weekend Open",
            "Open",
            "--format",
            "pdn",
            "--round",
            "1",
            "--out",
            "-",
        ],
    );
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("{Attached by the director although number of games: the PDN has 1"),
        "{pdn}"
    );
    assert!(
        flat.contains("game 2 was not recorded by the players}"),
        "{pdn}"
    );
    // An empty reason is no reason.
    let said = attach(&db, &file, "1", &["--override", " "]).unwrap_err();
    assert!(said.contains("number of games"), "{said}");
}
