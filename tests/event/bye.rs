//! Requested byes: asked before the round is paired, honoured by the pairing (the player is
//! not paired), scored as the division sets (by default half a won round), refused once the
//! round is paired, taken back before it; not the pairing bye for its eligibility rule (FIDE
//! C.04.1: only a pairing-allocated bye or a forfeit win bars a player from it), and shown as
//! a requested bye by the standings, the crosstable and `why`.

use crate::desk_cli::{refused, run};
use crate::open_swiss::{open_swiss, rated};
use crossboard::director::{GamePoints, Points};
use crossboard::event::{
    Acceleration, Action, BoardGameResult, BoardResult, DivisionSettings, Format, PlayerInfo,
    RoundKind, ScoreUnit, Tournament, propose, records, standings, swiss_input,
};
use crossboard::publish::{
    Federation, Paper, SheetCodes, SheetKind, federation_report, sheet, trf,
};

/// Five players of a three-round Swiss of two-game rounds, Eve the lowest seed.
fn five() -> Tournament {
    let names = ["Ann", "Bob", "Cid", "Dee", "Eve"];
    let players = (1..=5)
        .zip(names)
        .map(|(id, name)| (id, rated(name, 2100 - 100 * id)));
    open_swiss(3, 2, Acceleration::None, players)
}

fn bye(player: u32, round: u32, cancel: bool) -> Action {
    Action::ByeRequest {
        division: 0,
        player,
        round,
        cancel,
    }
}

/// Eve sits out round 1: four players are paired, two boards and no pairing bye; every board
/// drawn, Eve scores half the round's 2 points, 1, as the other four; in round 2 she may still
/// have the pairing bye (a requested bye is not one), one round unplayed.
#[test]
fn a_requested_bye_is_honoured_scored_and_not_the_pairing_bye() {
    let mut t = five();
    t.apply(&bye(5, 1, false)).unwrap();
    let pair = propose(0, &t.divisions[0]).unwrap();
    t.apply(&pair).unwrap();
    let r1 = &t.divisions[0].rounds[0];
    assert_eq!(r1.boards.len(), 2);
    assert_eq!(r1.bye, None);
    assert!(r1.board_of(5).is_none());
    // Asked or taken back once the round is paired: refused.
    let late = t.apply(&bye(4, 1, false)).unwrap_err().to_string();
    assert!(late.starts_with("round 1 is already paired"), "{late}");
    assert!(t.apply(&bye(5, 1, true)).is_err());
    for board in 1..=2 {
        t.apply(&Action::Result {
            division: 0,
            round: 1,
            board,
            result: BoardResult::Games {
                games: vec![BoardGameResult::Draw; 2],
            },
        })
        .unwrap();
    }
    let recs = records(&t.divisions[0], 1);
    let eve = &recs[4][0];
    assert_eq!((eve.kind, eve.points), (RoundKind::RequestedBye, Points(2)));
    assert!(recs[..4].iter().all(|r| r[0].points == Points(2)));
    let input = swiss_input(&t.divisions[0], 2);
    let eve = input.players.iter().find(|p| p.id == 5).unwrap();
    assert!(
        eve.bye_ok,
        "a requested bye bars nobody from the pairing bye"
    );
    assert_eq!(eve.unplayed, 1);
}

/// A division's own points for a requested bye (here none), a request taken back before the
/// pairing (Dee is paired after all), and one asked twice refused.
#[test]
fn a_requested_bye_scores_the_division_s_points_and_can_be_taken_back() {
    let mut t = five();
    let mut s = t.divisions[0].settings.clone();
    s.scoring.requested_bye = Some(Points::ZERO);
    t.apply(&Action::SetSettings {
        division: 0,
        settings: s,
    })
    .unwrap();
    t.apply(&bye(1, 1, false)).unwrap();
    let twice = t.apply(&bye(1, 1, false)).unwrap_err().to_string();
    assert_eq!(twice, "Ann has already asked for a bye in round 1");
    t.apply(&bye(4, 1, false)).unwrap();
    t.apply(&bye(4, 1, true)).unwrap();
    t.apply(&bye(2, 1, false)).unwrap();
    let pair = propose(0, &t.divisions[0]).unwrap();
    t.apply(&pair).unwrap();
    let r1 = &t.divisions[0].rounds[0];
    assert!(r1.board_of(1).is_none() && r1.board_of(2).is_none());
    assert!(r1.board_of(4).is_some());
    assert_eq!(r1.boards.len(), 1);
    let recs = records(&t.divisions[0], 1);
    assert_eq!(
        (recs[0][0].kind, recs[0][0].points),
        (RoundKind::RequestedBye, Points::ZERO)
    );
}

/// The command and what is shown: `bye` records the request, `why` explains it, the
/// crosstable marks it `rbye`, a late request is refused.
#[test]
fn the_bye_command_is_recorded_and_explained() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "Open", "--format", "swiss:3"]);
    run(
        &db,
        &["enter", "E", "Open", "Ann", "Bob", "Cid", "Dee", "Eve"],
    );
    let said = run(&db, &["bye", "E", "Open", "Eve", "--round", "1"]);
    assert_eq!(
        said,
        "recorded: Eve sits out round 1: a requested bye (1 point)\n"
    );
    let paired = run(&db, &["pair", "E", "Open", "--seed", "1"]);
    assert!(
        paired.contains("\nrequested bye  Eve (1 point)\n"),
        "{paired}"
    );
    let why = run(&db, &["why", "E", "Open", "Eve"]);
    assert!(
        why.starts_with("Eve asked to sit out round 1: a requested bye, scored 1 point"),
        "{why}"
    );
    let late = refused(&db, &["bye", "E", "Open", "Ann", "--round", "1"]);
    assert!(late.contains("round 1 is already paired"), "{late}");
    run(&db, &["result", "E", "Open", "1", "1", "= ="]);
    run(&db, &["result", "E", "Open", "1", "2", "= ="]);
    let table = run(&db, &["standings", "E", "Open"]);
    assert!(table.contains("rbye 1"), "{table}");
}

/// The results of round `round` of `t`'s division: every board drawn.
fn all_drawn(t: &mut Tournament, round: u32) {
    let boards = t.divisions[0].rounds[round as usize - 1].boards.len() as u32;
    for board in 1..=boards {
        t.apply(&Action::Result {
            division: 0,
            round,
            board,
            result: BoardResult::Games {
                games: vec![BoardGameResult::Draw; 2],
            },
        })
        .unwrap();
    }
}

/// The opponents of a round, colours aside, as sorted pairs of ids.
fn pairs(t: &Tournament, round: u32) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = t.divisions[0].rounds[round as usize - 1]
        .boards
        .iter()
        .map(|b| (b.first.min(b.second), b.first.max(b.second)))
        .collect();
    out.sort_unstable();
    out
}

/// Computed by hand. Before round 1 Eve asks to sit out round 1 and Dee round 3, both on time;
/// once round 1 is paired Cid asks for round 2: late, so it scores 0 points.
/// Round 1 pairs Ann, Bob, Cid, Dee (pairing numbers 1-4 by rating): S1 Ann, Bob against S2
/// Cid, Dee, so Ann-Cid and Bob-Dee, all drawn: 1 point each, Eve 1 for her bye.
/// Round 2 pairs Ann, Bob, Dee, Eve, all on 1 point: Ann-Dee and Bob-Eve (Bob-Dee met).
/// The TRF writes Eve's round 1 `H` (half the round's 2 points), Cid's round 2 `Z`, and Dee's
/// round 3, asked before it is paired, `H` in its block; the federation's report, the pairings
/// sheet and the standings say each.
#[test]
fn a_late_request_scores_nothing_and_every_record_shows_the_byes() {
    let mut t = five();
    t.apply(&bye(5, 1, false)).unwrap();
    t.apply(&bye(4, 3, false)).unwrap();
    let absent = Action::Absent {
        division: 0,
        player: 4,
        round: 3,
    };
    let said = t.apply(&absent).unwrap_err().to_string();
    assert_eq!(said, "Dee has already asked for a bye in round 3");
    t.apply(&propose(0, &t.divisions[0]).unwrap()).unwrap();
    assert_eq!(pairs(&t, 1), [(1, 3), (2, 4)]);
    assert!(t.divisions[0].bye_request_late(2));
    t.apply(&bye(3, 2, false)).unwrap();
    all_drawn(&mut t, 1);
    t.apply(&propose(0, &t.divisions[0]).unwrap()).unwrap();
    assert_eq!(pairs(&t, 2), [(1, 4), (2, 5)]);
    all_drawn(&mut t, 2);
    let d = &t.divisions[0];
    let recs = records(d, 2);
    let kinds: Vec<(RoundKind, Points)> = recs[2].iter().map(|r| (r.kind, r.points)).collect();
    assert_eq!(
        kinds,
        [
            (RoundKind::Played, Points(2)),
            (RoundKind::RequestedBye, Points::ZERO)
        ]
    );
    assert_eq!(
        (recs[4][0].kind, recs[4][0].points),
        (RoundKind::RequestedBye, Points(2))
    );
    // Standings after round 2: Cid 1 point (a draw and a late bye), everyone else 2.
    let (_, list) = standings(d, 2);
    let score = |id: u32| {
        let s = list
            .iter()
            .find(|s| d.entrants[s.entrant].player == id)
            .unwrap();
        s.score
    };
    assert_eq!(
        [1, 2, 3, 4, 5].map(score),
        [Points(4), Points(4), Points(2), Points(4), Points(4)]
    );
    let trf_text = trf(&t, d);
    let block = |name: &str, round: usize| {
        let line = trf_text.lines().find(|l| l.contains(name)).unwrap();
        line.chars()
            .skip(91 + 10 * (round - 1))
            .take(8)
            .collect::<String>()
    };
    assert_eq!(block("Eve", 1), "0000 - H", "{trf_text}");
    assert_eq!(block("Cid", 2), "0000 - Z", "{trf_text}");
    assert_eq!(block("Dee", 3), "0000 - H", "{trf_text}");
    let report = federation_report(&t, d, Federation::Acf, &[]);
    let line = |name: &str| {
        report
            .lines()
            .find(|l| l.contains(&format!("requested bye: {name}")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("Eve").ends_with(", 1 points"), "{report}");
    assert!(line("Cid").ends_with(", 0 points"), "{report}");
    let sheet2 = sheet(
        &t,
        d,
        2,
        SheetKind::Pairings,
        Paper::A4,
        &SheetCodes::default(),
    )
    .unwrap();
    assert!(
        sheet2.contains("Requested byes: Cid (0 points)"),
        "{sheet2}"
    );
}

/// No bye to ask for a round the player does not play anyway (absent, withdrawn), none taken
/// back that was not asked, none in a round robin; a round outside the plan is refused.
#[test]
fn a_bye_request_the_division_cannot_take_is_refused() {
    let mut t = five();
    t.apply(&Action::Absent {
        division: 0,
        player: 2,
        round: 2,
    })
    .unwrap();
    let said = t.apply(&bye(2, 2, false)).unwrap_err().to_string();
    assert!(said.starts_with("Bob does not play round 2"), "{said}");
    let said = t.apply(&bye(3, 2, true)).unwrap_err().to_string();
    assert_eq!(said, "Cid has not asked for a bye in round 2");
    assert!(t.apply(&bye(3, 4, false)).is_err(), "a 3-round plan");
    t.apply(&Action::AddDivision {
        name: "Round robin".into(),
        settings: DivisionSettings::new(
            Format::RoundRobin { cycles: 1 },
            2,
            GamePoints::OneHalfZero,
            ScoreUnit::Game,
        ),
    })
    .unwrap();
    t.apply(&Action::Enter {
        division: 1,
        player: 3,
        info: PlayerInfo::named("Cid"),
    })
    .unwrap();
    let rr = Action::ByeRequest {
        division: 1,
        player: 3,
        round: 1,
        cancel: false,
    };
    let said = t.apply(&rr).unwrap_err().to_string();
    assert!(
        said.starts_with("a round robin's pairings are fixed"),
        "{said}"
    );
}
