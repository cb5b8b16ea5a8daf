//! The tournament desk's sentences, shared by the desk screen and `crossboard event`: a
//! board's result, the pairing explanation ("why is A playing B"), a round's pairings.

use crate::director::{Player, Points};
use crate::event::{Action, BoardGameResult, BoardResult, Division, PlayerId, Round};
use crate::event::{Avoided, Method, Note};
use crate::event::{Repeat, repeats, with_reason_note};
use crate::publish::export::EventPdn;

/// A board's result in a few characters: games as `1` (first won), `2`, `=`, `1f`/`2f` (won by
/// forfeit), or `forfeit 1`/`forfeit 2`/`forfeit none`; `-` before any result.
pub fn result_text(result: Option<&BoardResult>) -> String {
    match result {
        None => "-".into(),
        Some(BoardResult::Forfeit { present }) => match present {
            Some(Player::First) => "forfeit 1".into(),
            Some(Player::Second) => "forfeit 2".into(),
            None => "forfeit none".into(),
        },
        Some(BoardResult::Games { games }) => games
            .iter()
            .map(|g| match g {
                BoardGameResult::Win {
                    winner: Player::First,
                } => "1",
                BoardGameResult::Win {
                    winner: Player::Second,
                } => "2",
                BoardGameResult::Draw => "=",
                BoardGameResult::Forfeit {
                    winner: Player::First,
                } => "1f",
                BoardGameResult::Forfeit {
                    winner: Player::Second,
                } => "2f",
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// A round's ballot as the desk and `crossboard event` show it: system, number and opening
/// (`11-Man Ballot 1306: ...`), the same words the match screen heads a ballot with.
pub fn ballot_text(opening: &crate::openings::Opening) -> String {
    format!(
        "{} {}: {}",
        opening.system.title(),
        opening.number,
        opening.name
    )
}

/// What re-syncing board `board` of round `round` did: the desk's copy of its match file kept
/// aside as `aside` (the board then sends its whole file again), or `None`: there was none.
pub fn resync_text(round: u32, board: u32, aside: Option<&std::path::Path>) -> String {
    match aside {
        Some(p) => format!(
            "round {round} board {board}: the desk's copy is kept as {}; the board sends its file again",
            p.display()
        ),
        None => format!("round {round} board {board}: the desk has no copy of this board"),
    }
}

/// What attaching a PDN of `games` games to a board records.
pub fn attached_text(games: usize, round: u32, board: u32, action: &Action) -> String {
    let noun = if games == 1 { "game" } else { "games" };
    let mut said = format!("{games} {noun} attached to round {round} board {board}");
    if let Action::AttachPdn {
        overridden: Some(why),
        ..
    } = action
    {
        said += &format!(", although {why}");
    }
    said
}

/// Read a result typed as [`result_text`] writes it (`1 =`, `12`, `forfeit 2`, ...).
pub fn parse_result(text: &str, games: u32) -> Result<BoardResult, String> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(rest) = t.strip_prefix("forfeit") {
        let present = match rest.trim() {
            "1" => Some(Player::First),
            "2" => Some(Player::Second),
            "none" | "0" | "" => None,
            other => {
                return Err(format!(
                    "forfeit {other:?}: use forfeit 1, forfeit 2 or forfeit none"
                ));
            }
        };
        return Ok(BoardResult::Forfeit { present });
    }
    let mut out = Vec::new();
    let chars: Vec<char> = t
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    if chars.is_empty() {
        return Err(
            "no result given: type the games as 1 (first won), 2, = (draw), 1f/2f (forfeit), \
             or forfeit 1|2|none"
                .into(),
        );
    }
    let mut k = 0;
    while k < chars.len() {
        let forfeit = chars.get(k + 1) == Some(&'f');
        let o = match chars[k] {
            '1' if forfeit => BoardGameResult::Forfeit {
                winner: Player::First,
            },
            '2' if forfeit => BoardGameResult::Forfeit {
                winner: Player::Second,
            },
            '1' => BoardGameResult::Win {
                winner: Player::First,
            },
            '2' => BoardGameResult::Win {
                winner: Player::Second,
            },
            '=' | 'd' | '½' => BoardGameResult::Draw,
            c => {
                return Err(format!(
                    "{c:?} is not a game result: 1 (first won), 2, = (draw), 1f/2f (forfeit)"
                ));
            }
        };
        out.push(o);
        k += if forfeit { 2 } else { 1 };
    }
    if out.len() as u32 > games {
        return Err(format!("{} results for {games} games a round", out.len()));
    }
    Ok(BoardResult::Games { games: out })
}

/// What a director's pairing repeats, as a sentence: "Ann and Bob already met in round 1; Eve
/// already had a bye in round 2".
pub fn repeats_text(division: &Division, repeats: &[Repeat]) -> String {
    let name = |id: PlayerId| division.name(id).to_string();
    repeats
        .iter()
        .map(|r| match *r {
            Repeat::Rematch {
                first,
                second,
                round,
            } => format!(
                "{} and {} already met in round {round}",
                name(first),
                name(second)
            ),
            Repeat::SecondBye {
                player,
                round,
                forfeit_win,
            } => format!(
                "{} already had {} in round {round}",
                name(player),
                if forfeit_win {
                    "a forfeit win"
                } else {
                    "a bye"
                }
            ),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A pairing by hand (`Action::PairByHand`) with what it repeats added to its logged reason
/// ("...; repeats: Ann and Bob already met in round 1"), and the end of the sentence saying it
/// was recorded (" by hand (Ann and Bob already met in round 1)").
pub fn by_hand_noted(division: &Division, action: Action) -> (Action, String) {
    let Action::PairByHand { pairing, .. } = &action else {
        return (action, String::new());
    };
    let said = repeats_text(division, &repeats(division, pairing));
    if said.is_empty() {
        (action, " by hand".into())
    } else {
        let note = format!(" by hand ({said})");
        (with_reason_note(action, &format!("repeats: {said}")), note)
    }
}

/// What an export of `division` lacks before its first round ("no round paired yet: the 6
/// players entered only"); none once a round is paired.
pub fn unpaired_note(division: &Division) -> Option<String> {
    if division.paired_rounds() > 0 {
        return None;
    }
    Some(match division.entrants.len() {
        0 => "no player entered, no round paired yet".into(),
        1 => "no round paired yet: the 1 player entered only".into(),
        n => format!("no round paired yet: the {n} players entered only"),
    })
}

/// What an exported PDN holds: "12 games", "no games; 2 forfeited games left out (not played)".
pub fn pdn_note(pdn: &EventPdn) -> String {
    let games = match pdn.games {
        0 => "no games".to_string(),
        1 => "1 game".into(),
        n => format!("{n} games"),
    };
    match pdn.forfeited {
        0 => games,
        1 => format!("{games}; 1 forfeited game left out (not played)"),
        n => format!("{games}; {n} forfeited games left out (not played)"),
    }
}

/// A number of points in a sentence: "1 point", "half a point", "0 points", "1½ points" (the
/// half as the display writes it; in ASCII the screen makes it "1.5 points").
pub fn points_text(p: Points) -> String {
    match p.0 {
        1 => "half a point".into(),
        2 => "1 point".into(),
        _ => format!("{p} points"),
    }
}

/// What recording a requested bye says, from the division before it is recorded: "Eve sits
/// out round 3: a requested bye (1 point)", "... (0 points: asked after round 2 was paired)",
/// "Eve's bye in round 3 taken back".
pub fn bye_request_text(division: &Division, player: PlayerId, round: u32, cancel: bool) -> String {
    let name = division.name(player);
    if cancel {
        return format!("{name}'s bye in round {round} taken back");
    }
    let late = division.bye_request_late(round);
    format!(
        "{name} sits out round {round}: a requested bye ({}{})",
        points_text(division.requested_bye_worth(late)),
        late_text(late, round)
    )
}

/// Why a requested bye scores nothing: ": asked after round 2 was paired".
fn late_text(late: bool, round: u32) -> String {
    if late {
        format!(": asked after round {} was paired", round - 1)
    } else {
        String::new()
    }
}

/// Why `player` is not paired in round `round`, when they asked to sit it out.
fn requested_bye_text(division: &Division, round: u32, player: PlayerId) -> Option<String> {
    let points = division.requested_bye_points(player, round)?;
    let late = division.entrant(player)?.requested_byes.get(&round) == Some(&true);
    Some(format!(
        "{} asked to sit out round {round}: a requested bye, scored {} ({}not the pairing bye: \
         it leaves them eligible for that in a later round).",
        division.name(player),
        points_text(points),
        if late {
            format!("asked after round {} was paired; ", round - 1)
        } else {
            String::new()
        }
    ))
}

/// The virtual points of a board's players in an accelerated round, as a sentence: "Accelerated
/// round (Baku method): virtual points Ann 1 point, Eve 0 points, added to the points for this
/// pairing only (...)"; none in a round not accelerated.
fn virtual_text(division: &Division, round: &Round, players: [PlayerId; 2]) -> Option<String> {
    let x = &round.explanation;
    if x.virtual_points.is_empty() {
        return None;
    }
    let each: Vec<String> = players
        .iter()
        .map(|&p| {
            format!(
                "{} {}",
                division.name(p),
                points_text(x.virtual_points_of(p))
            )
        })
        .collect();
    Some(format!(
        "Accelerated round (Baku method): virtual points {}, added to the points for this \
         pairing only (the scores below are pairing scores; the standings count points alone).",
        each.join(", ")
    ))
}

/// The reasons for the board `player` plays on in `round`, as sentences.
pub fn why(division: &Division, round: &Round, player: PlayerId) -> Vec<String> {
    let name = |id: PlayerId| division.name(id).to_string();
    let mut out = Vec::new();
    if round.bye == Some(player) {
        out.push(format!(
            "{} has the bye in round {}.",
            name(player),
            round.number
        ));
        if let Some(b) = &round.explanation.bye {
            out.push(format!(
                "It goes to a player of the lowest score a complete pairing allows ({}) who has not had a bye or a forfeit win: of them, one with the fewest rounds not played, the lowest-placed of those the pairing leaves over.",
                points_text(b.score)
            ));
            if !b.skipped.is_empty() {
                let names: Vec<String> = b.skipped.iter().map(|&p| name(p)).collect();
                out.push(format!(
                    "Passed over (already had one): {}.",
                    names.join(", ")
                ));
            }
        }
        return out;
    }
    if let Some(said) = requested_bye_text(division, round.number, player) {
        out.push(said);
        return out;
    }
    let Some(board) = round.board_of(player) else {
        out.push(format!(
            "{} is not paired in round {} (absent, withdrawn or entered later).",
            name(player),
            round.number
        ));
        return out;
    };
    out.push(format!(
        "Round {}, board {}: {} (Red in game 1) against {}.",
        round.number,
        board.number,
        name(board.first),
        name(board.second)
    ));
    for reason in &round.overrides {
        out.push(format!(
            "The director changed this round's pairing: {reason}."
        ));
    }
    if let Some(said) = virtual_text(division, round, [board.first, board.second]) {
        out.push(said);
    }
    let Some(w) = round.explanation.board_of(player) else {
        return out;
    };
    let accelerated = !round.explanation.virtual_points.is_empty();
    if round.explanation.method == Method::Director && w.notes.contains(&Note::Director) {
        out.push("This board was set by the director.".into());
    }
    for n in &w.notes {
        match n {
            Note::SameGroup => out.push(format!(
                "Both had {}{}: paired within their score group.",
                if accelerated { "a pairing score of " } else { "" },
                points_text(w.scores.0)
            )),
            Note::Floated { player: p, from, to } => out.push(format!(
                "{} ({}) floated down to the {to}-point group: their own group could not pair everyone.",
                name(*p),
                points_text(*from)
            )),
            Note::NaturalAvoided { player: p, natural, why } => {
                let because = match why {
                    Avoided::Rematch { round } => format!("they already met in round {round}"),
                    Avoided::Colour => "both needed the same colour".into(),
                    Avoided::Elsewhere => "that opponent was needed on another board to pair everyone with the fewest floats".into(),
                };
                out.push(format!(
                    "{}'s natural opponent (top half against bottom half) was {}, avoided because {because}.",
                    name(*p),
                    name(*natural)
                ));
            }
            Note::Colours { granted: Some(g) } => out.push(format!("Colours: {}'s preference decided.", name(*g))),
            Note::Colours { granted: None } => {}
            Note::Berger { table_round, first, second } => out.push(format!(
                "Round robin: round {table_round} of the Berger table pairs numbers {first} and {second}."
            )),
            Note::Director => {}
            Note::AbsoluteColourRelaxed { player: p, topscorers: true } => out.push(format!(
                "{} does not get the colour they must have: two topscorers of the last round may meet against it (FIDE's exception).",
                name(*p)
            )),
            Note::AbsoluteColourRelaxed { player: p, topscorers: false } => out.push(format!(
                "{} does not get the colour they must have: no pairing of the round kept every absolute colour, and the desk pairs the round rather than refuse it.",
                name(*p)
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_point_half_a_point_and_points() {
        let said: Vec<String> = [0, 1, 2, 3, 4].map(|p| points_text(Points(p))).into();
        assert_eq!(
            said,
            [
                "0 points",
                "half a point",
                "1 point",
                "1½ points",
                "2 points"
            ]
        );
    }
}
