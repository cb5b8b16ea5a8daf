//! An entry list imported into a division: the columns found by their headers, the report
//! (each line naming file, line and field) computed by hand, and the command recording all of
//! the list or none of it, as late entries once round 1 is paired.

use crate::desk_cli::{crossboard, refused, run};
use crate::open_swiss::open_swiss;
use crossboard::event::{Acceleration, EntryList, PlayerInfo, Tournament, read_entry_list};

/// An event with one Swiss division, "Open", holding `entered` (registry ids and names).
fn event(entered: &[(u32, &str)]) -> Tournament {
    let players = entered
        .iter()
        .map(|&(id, name)| (id, PlayerInfo::named(name)));
    open_swiss(3, 2, Acceleration::None, players)
}

fn read(text: &str, registry: &[(u32, PlayerInfo)], t: &Tournament) -> EntryList {
    read_entry_list("list.csv", text.as_bytes(), None, registry, t, 0)
}

fn player(name: &str, ids: &str, rating: Option<u32>) -> PlayerInfo {
    PlayerInfo {
        federation_ids: ids.into(),
        rating,
        ..PlayerInfo::named(name)
    }
}

/// A spreadsheet's export: a byte-order mark, semicolons, headers in their own spelling, a
/// quoted cell holding the delimiter, a blank line, an unrated player and a column the desk
/// does not keep: every cell lands in its field, the column ignored is named.
#[test]
fn a_semicolon_list_with_a_bom_reads_every_field() {
    let text = "\u{feff}PLAYER NAME; Elo ;Federation;Club;ACF ID;E-mail\n\
                Ann Lee;2100;NC;\"Raleigh; Durham\";1234;ann@x\n\
                \n\
                \"Bob  Ross\";;VA;;;bob@x\n";
    let list = read(text, &[], &event(&[]));
    assert_eq!(list.delimiter, b';');
    let got: Vec<(u64, PlayerInfo)> = list
        .players
        .iter()
        .map(|p| (p.line, p.info.clone()))
        .collect();
    let ann = PlayerInfo {
        name: "Ann Lee".into(),
        club: "Raleigh; Durham".into(),
        region: "NC".into(),
        federation_ids: "1234".into(),
        rating: Some(2100),
    };
    let bob = PlayerInfo {
        region: "VA".into(),
        ..PlayerInfo::named("Bob Ross")
    };
    assert_eq!(got, [(2, ann), (4, bob)]);
    assert_eq!(
        list.report(),
        [
            "list.csv:1: note: column \"E-mail\" ignored",
            "list.csv:4: note: id: none (a federation's rating report needs one)",
        ]
    );
    assert_eq!(list.problems(), 0);
    assert_eq!(
        list.summary(),
        "list.csv: 2 player(s), 2 new to the registry, 0 already registered (semicolon-separated)"
    );
}

/// Every kind of problem, each on its line and field; one problem refuses the list.
#[test]
fn the_report_names_line_and_field_of_each_problem() {
    let long = "x".repeat(41);
    let text = format!(
        "Name,Rating,ID\n\
         Ann Lee,21OO,1\n\
         {long},1500,2\n\
         ann  lee,1600,3\n\
         Cid,10000,2\n\
         ,1400,4\n\
         Dee,1500,5,extra\n\
         Eve,-3,6\n"
    );
    let list = read(&text, &[], &event(&[]));
    assert_eq!(
        list.report(),
        [
            "list.csv:2: problem: rating: \"21OO\" is not a rating (a whole number, 0 to 9999)",
            "list.csv:3: problem: name: 41 characters; the limit is 40, as in a match on crossboard",
            "list.csv:5: problem: rating: \"10000\" is not a rating (a whole number, 0 to 9999)",
            "list.csv:6: problem: name: empty",
            "list.csv:7: problem: 4 cells, the header has 3 (a cell holding the delimiter needs quotes)",
            "list.csv:8: problem: rating: \"-3\" is not a rating (a whole number, 0 to 9999)",
        ]
    );
    // Duplicates are looked for among the rows that read: line 4 is Ann again, line 5's id
    // is line 3's.
    let text = "Name,ID\nAnn Lee,1\nBob,2\nann  lee,3\nCid,2\n";
    let list = read(text, &[], &event(&[]));
    assert_eq!(
        list.report(),
        [
            "list.csv:4: problem: name: ann lee is also on line 2",
            "list.csv:5: problem: id: 2 is also on line 3",
        ]
    );
    assert_eq!(list.problems(), 2);
}

/// A list without a column of names is refused at its header; First and Last name make one.
#[test]
fn names_come_from_a_name_column_or_first_and_last() {
    let list = read("Rating,Club\n1500,X\n", &[], &event(&[]));
    assert_eq!(
        list.report(),
        [
            "list.csv:1: problem: no column of names: the header needs one called Name or \
             Player (or First name and Last name)",
            "list.csv:1: note: no column of ids: players are matched to the registry by name",
        ]
    );
    let list = read("First Name,Last Name,Name\nAnn,Lee,\n", &[], &event(&[]));
    assert_eq!(list.players[0].info.name, "Ann Lee");
    let list = read("Name,Player\nA,B\n", &[], &event(&[]));
    assert_eq!(
        list.report()[0],
        "list.csv:1: problem: columns 1 and 2 both give the name"
    );
}

/// Against the registry: a known id (bare or with its federation) or a known name is the
/// registry's player, the registry filling the cells the list leaves empty; an id the registry
/// gives to someone else, a name registered with another id, a name shared by two registered
/// players, and a player already entered are problems.
#[test]
fn players_are_matched_to_the_registry_and_the_division() {
    let registry = [
        (
            1,
            PlayerInfo {
                club: "Raleigh".into(),
                ..player("Ann Lee", "ACF 1234", Some(2000))
            },
        ),
        (2, player("Bob Ross", "", None)),
        (3, player("Cid Moe", "ACF 77", None)),
        (4, player("Dee", "", None)),
        (5, player("Dee", "", None)),
        (6, player("Eve", "", None)),
    ];
    let t = event(&[(6, "Eve")]);
    let list = read(
        "Name,ID,Rating\nann lee,1234,2100\nBob Ross,,\nNew One,9,\n",
        &registry,
        &t,
    );
    assert_eq!(list.problems(), 0, "{:?}", list.report());
    let got: Vec<_> = list
        .players
        .iter()
        .map(|p| (p.registered, p.info.clone()))
        .collect();
    let ann = PlayerInfo {
        name: "ann lee".into(),
        club: "Raleigh".into(),
        federation_ids: "1234".into(),
        rating: Some(2100),
        ..PlayerInfo::default()
    };
    assert_eq!(
        got,
        [
            (Some(1), ann),
            (Some(2), PlayerInfo::named("Bob Ross")),
            (None, player("New One", "9", None)),
        ]
    );
    let text = "Name,ID\nZed,ACF 1234\nCid Moe,88\nDee,\nEve,\n";
    let list = read(text, &registry, &t);
    assert_eq!(
        list.report(),
        [
            "list.csv:2: problem: id: ACF 1234 is Ann Lee's in the registry (player 1), not Zed's",
            "list.csv:3: problem: name: Cid Moe is registered (player 3) with id ACF 77, the list gives 88",
            "list.csv:4: note: id: none (a federation's rating report needs one)",
            "list.csv:4: problem: name: 2 players of the registry are called Dee (players 4, 5): give their ids",
            "list.csv:5: note: id: none (a federation's rating report needs one)",
            "list.csv:5: problem: name: Eve is already entered in Open (player 6)",
        ]
    );
}

/// A file that is not UTF-8 (a list saved as Latin-1) is refused on the line of its first
/// bad byte, nothing read from it.
#[test]
fn a_list_not_in_utf8_is_refused_on_its_line() {
    let list = read_entry_list("l.csv", b"Name\nAnn\nJos\xe9\n", None, &[], &event(&[]), 0);
    assert_eq!(
        list.report(),
        ["l.csv:3: problem: not UTF-8 text: save the list as \"CSV UTF-8\""]
    );
    assert!(list.players.is_empty());
}

/// The command: a list with a problem records nothing (registry and log unchanged), a dry
/// run records nothing, a clean list enters all its players in one go, the known ones
/// without registering them again.
#[test]
fn the_command_imports_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "Open", "--format", "swiss:3"]);
    run(&db, &["player", "add", "Ann Lee", "--ids", "ACF 1"]);
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "Name,Rating\nBob,1500\nCid,fast\n").unwrap();
    let before = (run(&db, &["list"]), run(&db, &["player", "list"]));
    let said = refused(&db, &["import", "E", "Open", bad.to_str().unwrap()]);
    assert!(said.contains("1 problem(s): nothing imported"), "{said}");
    let out = crossboard(&db, &["import", "E", "Open", bad.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("bad.csv:3: problem: rating: \"fast\" is not a rating"),
        "{report}"
    );
    let good = dir.path().join("good.csv");
    std::fs::write(&good, "Name,ID\nBob,ACF 2\nAnn Lee,1\n").unwrap();
    let dry = run(
        &db,
        &["import", "E", "Open", good.to_str().unwrap(), "--dry-run"],
    );
    assert!(dry.ends_with("dry run: nothing recorded\n"), "{dry}");
    assert_eq!((run(&db, &["list"]), run(&db, &["player", "list"])), before);
    let done = run(&db, &["import", "E", "Open", good.to_str().unwrap()]);
    assert!(
        done.ends_with("recorded: 2 player(s) entered in Open (1 registered)\n"),
        "{done}"
    );
    let registry = run(&db, &["player", "list"]);
    assert_eq!(registry.matches("Ann Lee").count(), 1, "{registry}");
    let again = refused(&db, &["import", "E", "Open", good.to_str().unwrap()]);
    assert!(again.contains("2 problem(s): nothing imported"), "{again}");
}

/// Imported after round 1 is paired, players are late entries exactly as `enter` makes them:
/// the same round 2 pairing and the same standings as a desk that entered them by name.
#[test]
fn an_import_after_round_one_enters_late_as_enter_does() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("late.csv");
    std::fs::write(&list, "Player\nEve\nFay\n").unwrap();
    let mut shown = Vec::new();
    for how in ["enter", "import"] {
        let db = dir.path().join(format!("{how}.sqlite3"));
        run(&db, &["new", "E"]);
        run(&db, &["division", "E", "Open", "--format", "swiss:3"]);
        run(&db, &["enter", "E", "Open", "Ann", "Bob", "Cid", "Dee"]);
        run(&db, &["pair", "E", "Open", "--seed", "1"]);
        run(&db, &["result", "E", "Open", "1", "1", "1 1"]);
        run(&db, &["result", "E", "Open", "1", "2", "= ="]);
        let said = if how == "enter" {
            run(&db, &["enter", "E", "Open", "Eve", "Fay"])
        } else {
            run(&db, &["import", "E", "Open", list.to_str().unwrap()])
        };
        assert!(
            how == "enter" || said.contains("late entries from round 2"),
            "{said}"
        );
        run(&db, &["pair", "E", "Open", "--seed", "2"]);
        // Each board's code comes from the desk's own key: left out.
        let pairings = run(&db, &["pairings", "E", "Open"])
            .split_whitespace()
            .filter(|w| !(w.len() == 9 && w.as_bytes()[4] == b'-'))
            .collect::<Vec<_>>()
            .join(" ");
        shown.push((
            pairings,
            run(&db, &["standings", "E", "Open", "--round", "1"]),
        ));
    }
    assert!(
        shown[0].0.contains("Eve") && shown[0].0.contains("Fay"),
        "{}",
        shown[0].0
    );
    assert_eq!(shown[0], shown[1]);
}
