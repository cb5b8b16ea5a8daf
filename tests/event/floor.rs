//! Results from the floor: both players enter a board's result, each with their own code; it
//! is recorded when they agree, a conflict when they do not, until the director overrules.

use crossboard::director::{GamePoints, Player};
use crossboard::event::{
    Action, BoardGameResult, BoardResult, DivisionSettings, EventError, FloorState, Format,
    PlayerInfo, ScoreUnit, Tournament, propose, standings,
};

const DRAW: BoardGameResult = BoardGameResult::Draw;
const FIRST: BoardGameResult = BoardGameResult::Win {
    winner: Player::First,
};

/// The log of four players in a two-game Swiss, round 1 paired.
fn paired_log() -> Vec<Action> {
    let mut e = Tournament::new();
    let settings = DivisionSettings::new(
        Format::Swiss { rounds: 3 },
        2,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    let mut log = vec![Action::AddDivision {
        name: "Open".into(),
        settings,
    }];
    for (k, name) in ["Ann", "Bob", "Cid", "Dee"].iter().enumerate() {
        let mut info = PlayerInfo::named(name);
        info.rating = Some(2000 - k as u32);
        log.push(Action::Enter {
            division: 0,
            player: k as u32 + 1,
            info,
        });
    }
    for a in &log {
        e.apply(a).unwrap();
    }
    log.push(propose(0, &e.divisions[0]).unwrap());
    log
}

/// The event of [`paired_log`].
fn paired() -> Tournament {
    Tournament::replay(&paired_log()).unwrap()
}

fn games(g: &[BoardGameResult]) -> BoardResult {
    BoardResult::Games { games: g.to_vec() }
}

fn entry(side: Player, result: &BoardResult) -> Action {
    Action::FloorResult {
        division: 0,
        round: 1,
        board: 1,
        side,
        result: result.clone(),
    }
}

fn board(e: &Tournament) -> &crossboard::event::Board {
    e.divisions[0].round(1).unwrap().board(1).unwrap()
}

#[test]
fn a_result_is_recorded_when_both_players_enter_it() {
    let mut e = paired();
    let result = games(&[FIRST, DRAW]);
    e.apply(&entry(Player::First, &result)).unwrap();
    assert_eq!(board(&e).result, None, "one player's entry is not a result");
    assert_eq!(
        board(&e).floor.state(None),
        FloorState::Waiting {
            by: Player::First,
            result: &result
        }
    );
    e.apply(&entry(Player::Second, &result)).unwrap();
    assert_eq!(board(&e).result, Some(result.clone()));
    assert_eq!(board(&e).floor.state(Some(&result)), FloorState::Agreed);
    // The standings follow: the first player of board 1 has 1½ of 2.
    let d = &e.divisions[0];
    let first = d.entrants.iter().position(|x| x.player == board(&e).first);
    let (table, _) = standings(d, 1);
    assert_eq!(table.scores[first.unwrap()].to_string(), "1½");
    // Recorded: a further entry is refused, and says why.
    let again = e.apply(&entry(Player::First, &games(&[DRAW, DRAW])));
    assert!(matches!(again, Err(EventError::FloorRecorded { board: 1 })));
}

#[test]
fn a_different_result_is_a_conflict_until_the_director_overrules() {
    let mut e = paired();
    let mine = games(&[FIRST, DRAW]);
    let theirs = games(&[DRAW, DRAW]);
    e.apply(&entry(Player::First, &mine)).unwrap();
    e.apply(&entry(Player::Second, &theirs)).unwrap();
    assert_eq!(board(&e).result, None, "a conflict records nothing");
    assert_eq!(board(&e).floor.state(None), FloorState::Conflict);
    assert_eq!(
        board(&e).floor.first,
        Some(mine.clone()),
        "nothing overwritten"
    );
    let overrule = |reason: &str| Action::Overrule {
        division: 0,
        round: 1,
        board: 1,
        result: theirs.clone(),
        reason: reason.into(),
    };
    assert!(matches!(e.apply(&overrule(" ")), Err(EventError::NoReason)));
    e.apply(&overrule("the score sheets show two draws"))
        .unwrap();
    assert_eq!(board(&e).result, Some(theirs.clone()));
    assert_eq!(
        board(&e).floor.state(Some(&theirs)),
        FloorState::Overruled("the score sheets show two draws")
    );
}

#[test]
fn the_floor_refuses_what_it_cannot_record() {
    let mut e = paired();
    // Half a board's games.
    let half = e.apply(&entry(Player::First, &games(&[DRAW])));
    assert!(matches!(
        half,
        Err(EventError::FloorIncomplete { games: 2 })
    ));
    // A board played on crossboard.
    e.apply(&Action::LinkMatch {
        division: 0,
        round: 1,
        board: 2,
        file: "b2.cbm".into(),
    })
    .unwrap();
    let played = e.apply(&Action::FloorResult {
        division: 0,
        round: 1,
        board: 2,
        side: Player::Second,
        result: games(&[DRAW, DRAW]),
    });
    let err = played.unwrap_err();
    assert!(matches!(err, EventError::FloorPlayedHere { board: 2 }));
    assert!(err.to_string().contains("played on crossboard"), "{err}");
    // An overrule of a board nobody entered from the floor.
    let nothing = e.apply(&Action::Overrule {
        division: 0,
        round: 1,
        board: 1,
        result: games(&[DRAW, DRAW]),
        reason: "why not".into(),
    });
    assert!(matches!(
        nothing,
        Err(EventError::NothingToOverrule { board: 1 })
    ));
    // Refused actions changed nothing.
    assert!(board(&e).floor.is_empty());
}

#[test]
fn the_floor_is_derived_from_the_log() {
    let mut e = paired();
    let mine = games(&[FIRST, DRAW]);
    let actions = [
        entry(Player::First, &games(&[DRAW, DRAW])),
        entry(Player::First, &mine),
        entry(Player::Second, &mine),
    ];
    for a in &actions {
        e.apply(a).unwrap();
        // Each action reads back as the log keeps it.
        let text = serde_json::to_string(a).unwrap();
        assert_eq!(&serde_json::from_str::<Action>(&text).unwrap(), a);
    }
    assert_eq!(board(&e).result, Some(mine.clone()));
    assert_eq!(board(&e).floor.first, Some(mine));
    // Nothing but the log: the event replayed from it is the same.
    let mut log = paired_log();
    log.extend(actions);
    let replayed = Tournament::replay(&log).unwrap();
    assert_eq!(replayed.divisions[0].rounds, e.divisions[0].rounds);
}

#[test]
fn the_desk_row_and_the_directors_page_say_where_the_floor_stands() {
    use crossboard::publish::hall::floor_text;
    let mut e = paired();
    let text = |e: &Tournament, wide| floor_text(&e.divisions[0], board(e), wide);
    let d = &e.divisions[0];
    let (first, second) = (
        d.name(board(&e).first).to_string(),
        d.name(board(&e).second).to_string(),
    );
    assert_eq!(text(&e, false), None);
    e.apply(&entry(Player::First, &games(&[FIRST, DRAW])))
        .unwrap();
    assert_eq!(text(&e, false).unwrap(), format!("floor: {first} entered"));
    assert_eq!(
        text(&e, true).unwrap(),
        format!("from the floor: {first} entered 1 =, {second} to confirm")
    );
    e.apply(&entry(Player::Second, &games(&[DRAW, DRAW])))
        .unwrap();
    assert_eq!(text(&e, false).unwrap(), "floor: CONFLICT");
    assert_eq!(
        text(&e, true).unwrap(),
        format!(
            "CONFLICT from the floor: {first} entered 1 =, {second} entered = =; the director \
             decides"
        )
    );
    e.apply(&Action::Overrule {
        division: 0,
        round: 1,
        board: 1,
        result: games(&[DRAW, DRAW]),
        reason: "the sheets".into(),
    })
    .unwrap();
    assert_eq!(text(&e, false).unwrap(), "floor: overruled");
    assert!(text(&e, true).unwrap().ends_with("): the sheets"));
}
