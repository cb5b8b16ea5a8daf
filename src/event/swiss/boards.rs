//! The boards of a paired round: their order, who is first on each, and why each was paired so.

use super::colour::{Pref, Strength, allocate};
use super::{SwissInput, SwissPlayer};
use crate::director::Points;
use crate::engine::Color;
use crate::event::explain::{Avoided, BoardWhy, ByeWhy, Explanation, Method, Note};

/// The round's pairing: its boards in order, their colours and explanation, and the bye.
pub(super) fn finish(
    input: &SwissInput,
    players: &[&SwissPlayer],
    prefs: &[Option<Pref>],
    mut pairs: Vec<(usize, usize, Points)>,
    bye: Option<usize>,
    natural_notes: Vec<(usize, usize, Avoided)>,
) -> crate::event::state::Pairing {
    // Board order: the higher score of the pair, then the pair's total, then the better rank.
    let better = |i: usize, j: usize| {
        if (players[i].score, std::cmp::Reverse(players[i].rank))
            >= (players[j].score, std::cmp::Reverse(players[j].rank))
        {
            (i, j)
        } else {
            (j, i)
        }
    };
    pairs.sort_by(|&(a1, b1, _), &(a2, b2, _)| {
        let (h1, l1) = better(a1, b1);
        let (h2, l2) = better(a2, b2);
        let key = |h: usize, l: usize| {
            (
                std::cmp::Reverse(players[h].score),
                std::cmp::Reverse(players[h].score.0 + players[l].score.0),
                players[h].rank,
            )
        };
        key(h1, l1).cmp(&key(h2, l2))
    });
    let mut boards = Vec::new();
    let mut whys = Vec::new();
    for &(i, j, group) in &pairs {
        let (hi, lo) = better(i, j);
        let (first, second, granted) = allocate(players, prefs, hi, lo);
        let mut notes = Vec::new();
        if players[hi].score == players[lo].score {
            notes.push(Note::SameGroup);
        } else {
            notes.push(Note::Floated {
                player: players[hi].id,
                from: players[hi].score,
                to: group,
            });
        }
        for &(a, nat, why) in &natural_notes {
            if a == i || a == j {
                notes.push(Note::NaturalAvoided {
                    player: players[a].id,
                    natural: players[nat].id,
                    why,
                });
            }
        }
        notes.push(Note::Colours {
            granted: granted.map(|g| players[g].id),
        });
        notes.extend(relaxed(input, players, prefs, first, second));
        boards.push((players[first].id, players[second].id));
        whys.push(BoardWhy {
            first: players[first].id,
            second: players[second].id,
            scores: (players[first].score, players[second].score),
            notes,
        });
    }
    let bye_why = bye.map(|b| ByeWhy {
        player: players[b].id,
        score: players[b].score,
        skipped: players
            .iter()
            .filter(|p| {
                !p.bye_ok
                    && (p.score, std::cmp::Reverse(p.rank))
                        < (players[b].score, std::cmp::Reverse(players[b].rank))
            })
            .map(|p| p.id)
            .collect(),
    });
    crate::event::state::Pairing {
        round: input.round,
        boards,
        bye: bye.map(|b| players[b].id),
        explanation: Explanation {
            method: Method::Swiss,
            boards: whys,
            bye: bye_why,
            rematches: Vec::new(),
            virtual_points: Vec::new(),
        },
    }
}

/// The absolute colour rules a board of a single-game round gives up (C3): who of `first`
/// (Red) and `second` (White) does not get the colour they must have; FIDE's exception when
/// both are topscorers of the last round, else the desk's (no pairing kept every absolute
/// colour).
fn relaxed(
    input: &SwissInput,
    players: &[&SwissPlayer],
    prefs: &[Option<Pref>],
    first: usize,
    second: usize,
) -> Vec<Note> {
    let top = |i: usize| input.topscorers.is_some_and(|t| players[i].score > t);
    [(first, Color::Red), (second, Color::White)]
        .into_iter()
        .filter(|&(i, got)| {
            input.single_game
                && prefs[i].is_some_and(|p| p.strength == Strength::Absolute && p.colour != got)
        })
        .map(|(i, _)| Note::AbsoluteColourRelaxed {
            player: players[i].id,
            topscorers: top(first) && top(second),
        })
        .collect()
}
