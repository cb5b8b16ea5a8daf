//! Two desks on one database at once: a command whose event changed since it read it is
//! recorded when what it touches did not change (another board, another division), and
//! refused when it did (the same board), so nobody's entry is lost or silently replaced.

use crate::desk_cli::{crossboard, run};
use crossboard::event::{Action, BoardGameResult, BoardResult, DivisionSettings, EventInfo};
use crossboard::event::{PlayerInfo, propose};
use crossboard::store::{Desk, DeskError};

/// Two processes enter 100 results each, at the same time, on boards of their own: none is
/// refused and every one is recorded.
#[test]
fn two_desks_entering_results_on_different_boards_are_both_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "Club"]);
    run(&db, &["division", "Club", "Open", "--format", "swiss:3"]);
    let names: Vec<String> = (1..=400).map(|k| format!("P{k:03}")).collect();
    let mut enter = vec!["enter", "Club", "Open"];
    enter.extend(names.iter().map(String::as_str));
    run(&db, &enter);
    run(&db, &["pair", "Club", "Open", "--seed", "1"]);
    let refusals: Vec<Vec<String>> = std::thread::scope(|s| {
        let desks: Vec<_> = [1..=100u32, 101..=200]
            .into_iter()
            .map(|boards| {
                let db = &db;
                s.spawn(move || {
                    boards
                        .filter_map(|b| {
                            let board = b.to_string();
                            let out =
                                crossboard(db, &["result", "Club", "Open", "1", &board, "1 ="]);
                            (!out.status.success()).then(|| {
                                format!("board {b}: {}", String::from_utf8_lossy(&out.stderr))
                            })
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        desks.into_iter().map(|d| d.join().unwrap()).collect()
    });
    assert_eq!(refusals, [Vec::<String>::new(), Vec::new()]);
    let desk = Desk::open(&db).unwrap();
    let open = desk.load(desk.find_event("Club").unwrap()).unwrap();
    let round = &open.event.divisions[0].rounds[0];
    assert_eq!(round.boards.len(), 200);
    let want = BoardResult::Games {
        games: vec![
            BoardGameResult::Win {
                winner: crossboard::director::Player::First,
            },
            BoardGameResult::Draw,
        ],
    };
    for b in &round.boards {
        assert_eq!(b.result.as_ref(), Some(&want), "board {}", b.number);
    }
}

/// A result for `board` of round 1.
fn result(board: u32, games: Vec<BoardGameResult>) -> Action {
    Action::Result {
        division: 0,
        round: 1,
        board,
        result: BoardResult::Games { games },
    }
}

/// Two desks read the same event; the first records a result. The second's result for
/// another board is recorded (the first's kept); its result for the same board is refused,
/// and nothing of it is written.
#[test]
fn the_same_board_changed_meanwhile_is_still_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("desk.sqlite3");
    let mut a = Desk::open(&path).unwrap();
    let mut b = Desk::open(&path).unwrap();
    let at = chrono::Utc::now();
    let mut ea = a.create_event(&EventInfo::default(), at).unwrap();
    let add = Action::AddDivision {
        name: "Open".into(),
        settings: DivisionSettings::default(),
    };
    a.record(&mut ea, &[add], at).unwrap();
    for n in ["Ann", "Bob", "Cid", "Dee"] {
        a.enter_new_player(&mut ea, 0, &PlayerInfo::named(n), at)
            .unwrap();
    }
    let pair = propose(0, &ea.event.divisions[0]).unwrap();
    a.record(&mut ea, &[pair], at).unwrap();
    let mut eb = b.load(ea.id).unwrap();
    let same_b = eb.clone();
    a.record(&mut ea, &[result(1, vec![BoardGameResult::Draw])], at)
        .unwrap();
    // Another board: recorded, and the second desk now sees the first's result too.
    b.record(&mut eb, &[result(2, vec![BoardGameResult::Draw])], at)
        .unwrap();
    let now = a.load(ea.id).unwrap();
    assert_eq!(now.event, eb.event);
    let boards = &now.event.divisions[0].rounds[0].boards;
    assert!(boards.iter().all(|b| b.result.is_some()), "{boards:?}");
    // The same board, from what the second desk read before the first's result: refused.
    let mut stale = same_b;
    let second_won = BoardGameResult::Win {
        winner: crossboard::director::Player::Second,
    };
    assert!(matches!(
        b.record(&mut stale, &[result(1, vec![second_won])], at),
        Err(DeskError::Changed)
    ));
    assert_eq!(a.load(ea.id).unwrap().event, now.event);
}
