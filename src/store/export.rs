//! A match's games as PDN: the tags, the ballot position and the clock readings.

use super::pdn::{PdnGame, PdnResult};
use crate::director::{GameRecord, Match};
use crate::openings::{Ballot, Opening, System};

/// Every game started in the match, in order, as PDN (an unfinished game has result `*`).
pub fn match_to_pdn(m: &Match) -> Vec<PdnGame> {
    m.games().map(|g| game_to_pdn(m, g)).collect()
}

/// One game of a match as PDN.
///
/// Tags: `Event` (the match's event, or "First - Second match"), `Site "?"`, `Date` (the
/// day the game started), `Round` (`ballot.game`), `Black` (the Red player), `White`,
/// `Result`, `GameType "21"`, `SetUp`/`FEN` of the ballot position, `TimeControl` (PGN form,
/// see [`crate::director::TimeControl::pgn`]), `Clock` (the time control in words), `Ballot` (see
/// [`ballot_tag`]) and `Termination` (how the game ended).
pub fn game_to_pdn(m: &Match, g: &GameRecord) -> PdnGame {
    let s = m.settings();
    let event = if s.event.trim().is_empty() {
        format!("{} - {} match", s.players[0], s.players[1])
    } else {
        s.event.clone()
    };
    let mut p = PdnGame::from_game(&g.game)
        .with_tag("Event", event)
        .with_tag("Date", g.started.format("%Y.%m.%d").to_string())
        .with_tag("Round", format!("{}.{}", g.ballot, g.number))
        .with_tag("Black", g.red_name.clone())
        .with_tag("White", g.white_name.clone())
        .with_tag("TimeControl", s.time_control.pgn())
        .with_tag("Clock", s.time_control.describe())
        .with_tag("Ballot", ballot_tag(&g.opening));
    p.clocks = g
        .moves
        .iter()
        .map(|r| r.remaining_ms.map(|ms| ms.max(0) as u64))
        .collect();
    // The board decides nothing beyond what the director recorded.
    p.result = match &g.result {
        Some(r) => PdnResult::from(Some(r.outcome)),
        None => PdnResult::Unfinished,
    };
    if let Some(r) = &g.result {
        p.set_tag("Termination", r.to_string());
    }
    p
}

/// The `Ballot` tag: the system's own number, for the 11-Man Ballot the four cards and the
/// public position id, then the ballot in words, e.g.
/// `11-Man Ballot 1234 (cards 4 2 2 3), position 567: Remove 8 and 27; 9-14 23-19`.
pub fn ballot_tag(o: &Opening) -> String {
    let mut text = o.reference();
    if o.system == System::ElevenMan
        && let Ok(b) = Ballot::from_number(o.number)
    {
        text.push_str(&format!(
            " (cards {} {} {} {})",
            b.red_removal, b.white_removal, b.red_move, b.white_move
        ));
    }
    if let Some(id) = o.public_id {
        text.push_str(&format!(", position {id}"));
    }
    if !o.name.is_empty() {
        text.push_str(": ");
        text.push_str(&o.name);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eleven_man_ballot_tag() {
        let o = Ballot::from_number(1).unwrap().opening();
        let t = ballot_tag(&o);
        assert!(
            t.starts_with("11-Man Ballot 1 (cards 1 1 1 1), position "),
            "{t}"
        );
        assert!(t.ends_with(&o.name), "{t}");
    }
}
