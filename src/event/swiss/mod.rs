//! Swiss pairing after the FIDE Dutch system (C.04.3), as far as it applies to draughts.
//!
//! What is implemented, in order of priority:
//!
//! 1. **No rematch** (C1): two players who met over the board are never paired again (a
//!    whole-round forfeit is not a meeting, as in FIDE).
//! 2. **At most one bye** (C2): the bye goes only to a player who has had neither a bye nor a
//!    forfeit win.
//! 3. **Completion** (C4): the pairing of a score group must leave the rest pairable; if no
//!    pairing of the whole field exists, pairing is refused (the director pairs by hand).
//! 4. **Absolute colours** (C3, single-game rounds only): two players who must both have the
//!    same colour (colour difference beyond ±1, or the same colour twice running) are not
//!    paired. Deviation: treated as the top quality criterion rather than absolute, so a round
//!    is never refused for colours alone.
//! 5. **Score groups from the top** (C5, C6, C7): the groups are paired from the highest score
//!    down; each pairs as many of its players as possible (C5), then with the smallest
//!    pairing score difference (C6, exact as a count list: for each score of the bracket,
//!    highest first, the pairs whose higher player has it; with C5's number of pairs fixed,
//!    that list's lexicographic maximum is the PSD's minimum of A.8), then chooses its
//!    floaters so that the next group pairs as many as it can with the smallest PSD (C7).
//! 6. **Colours** (C10, then C11, single-game rounds only): fewest players without their
//!    colour preference, then fewest without a strong one. In rounds of two or more games
//!    everyone has both colours, so colour preferences do not choose opponents there.
//! 7. **Floats** (C12-C19): fewest players floated down again who floated down last round
//!    (C12), up again who floated up (C13), the same two rounds back (C14, C15); then the same
//!    four by score, highest first (C16-C19: the repeated floaters' score differences). A
//!    player paired with a lower score floats down, with a higher score up; one who scored
//!    more than a loss without playing (bye, forfeit win, a scoring absence) floated down.
//! 8. **Order** (C.04.3's sequence of transpositions and exchanges): among the pairings equally
//!    good by all of the above, the first one FIDE's sequence gives, decided a choice at a time
//!    (see `settle`): the movers paired, highest first, each with the highest resident it can
//!    have; in the remainder the fewest exchanges between S1 and S2, the smallest difference
//!    of the exchanged numbers, the lowest of S1 and the highest of S2 exchanged; then each S1
//!    player, in order, with the first S2 player for whom an optimal pairing of the rest exists.
//!
//! Each group is paired by maximum-weight matchings ([`super::matching`]) over the group and
//! every lower player, the criteria above encoded as one weight in order of priority (so
//! completion is exact, never a heuristic), the order as small bonuses below them. The bye is
//! the dummy vertex of an odd field: it falls to the lowest-scored eligible player of the last
//! group, the one FIDE's order leaves unpaired.
//!
//! Colours of a pair (the first player has Red in game 1, which moves first): both
//! preferences if compatible, else the stronger preference, else alternate from the last
//! round they had different colours, else the higher-ranked player's preference; with no
//! preference at all (round 1), the higher-ranked player has Red on odd boards and White on
//! even boards (deviation: FIDE draws the initial colour by lot). In rounds of two or more
//! games each player has both colours anyway, and the same rules only decide who starts.
//!
//! Not implemented: the last-round exception for top scorers, pairing-allocated byes for more
//! than one player, accelerated pairings.
//!
//! Here the field and [`pair`], which pairs it a bracket at a time (`bracket`); the criteria as
//! weights in `criteria`, the order among equals in `settle`, the bye's score in `bye`, colour
//! preferences and allocation in `colour`, the boards and their explanation in `boards`.

mod boards;
mod bracket;
mod bye;
mod colour;
mod criteria;
mod settle;
#[cfg(test)]
mod tests;

use super::player::PlayerId;
use crate::director::Points;
use crate::engine::Color;
use bracket::Bracket;
use colour::{Pref, Strength, preference};
use std::collections::HashSet;

/// A float a player had in a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Float {
    /// Paired in their own score group (or not paired).
    #[default]
    None,
    /// Paired with a lower score.
    Down,
    /// Paired with a higher score.
    Up,
}

/// A player as the pairing sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPlayer {
    /// The registry id.
    pub id: PlayerId,
    /// Pairing number: 1 is the top seed.
    pub rank: u32,
    /// Score so far.
    pub score: Points,
    /// Opponents met over the board, with the round.
    pub met: Vec<(PlayerId, u32)>,
    /// May receive the bye (no bye nor forfeit win yet).
    pub bye_ok: bool,
    /// Colour of game 1 in each round played, oldest first (Red: first player).
    pub colours: Vec<Color>,
    /// The float of the last round.
    pub last_float: Float,
    /// The float of the round before the last.
    pub float_two_back: Float,
}

/// The round to pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissInput {
    /// The round number.
    pub round: u32,
    /// Single-game rounds: colours matter (absolute preferences apply).
    pub single_game: bool,
    /// The last round: players with more than this score are topscorers (C.04.3 A.7), two of
    /// whom may be paired against an absolute colour preference (C3's exception; C8 and C9
    /// then keep their colour differences within ±2 and no colour three times if they can).
    pub topscorers: Option<Points>,
    /// Everyone to pair (absent and withdrawn players left out).
    pub players: Vec<SwissPlayer>,
}

/// A pairing that cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    /// No pairing avoids every rematch (or the bye rule).
    /// (The callers say how to pair it by hand: a desk key, a command.)
    #[error("no pairing of round {round} avoids every rematch ({players} players)")]
    Impossible {
        /// The round.
        round: u32,
        /// Players to pair.
        players: usize,
    },
    /// The weights would overflow (an enormous division).
    #[error("too many players for the Swiss pairing weights")]
    TooLarge,
}

/// The field to pair, in pairing order (score, then rank), and what binds any two of them.
struct Field<'a> {
    input: &'a SwissInput,
    players: Vec<&'a SwissPlayer>,
    prefs: Vec<Option<Pref>>,
    /// Who met whom, both ways.
    met: HashSet<(PlayerId, PlayerId)>,
    /// Someone may have the bye (if no one may, anyone can).
    any_bye_ok: bool,
    /// The highest score the bye may go to (`None`: any).
    bye_score: Option<Points>,
}

impl<'a> Field<'a> {
    fn new(input: &'a SwissInput) -> Field<'a> {
        let mut players: Vec<&SwissPlayer> = input.players.iter().collect();
        players.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
        let prefs = players.iter().map(|p| preference(&p.colours)).collect();
        let met = players
            .iter()
            .flat_map(|p| p.met.iter().map(move |&(o, _)| (p.id, o)))
            .collect();
        let any_bye_ok = players.iter().any(|p| p.bye_ok);
        Field {
            input,
            players,
            prefs,
            met,
            any_bye_ok,
            bye_score: None,
        }
    }

    /// An odd number to pair: someone has the bye.
    fn odd(&self) -> bool {
        self.players.len() % 2 == 1
    }

    /// The distinct scores, highest first.
    fn scores(&self) -> Vec<Points> {
        let mut s: Vec<Points> = self.players.iter().map(|p| p.score).collect();
        s.dedup();
        s
    }

    /// `i` and `j` may meet: they have not met yet.
    fn compatible(&self, i: usize, j: usize) -> bool {
        !self.met.contains(&(self.players[i].id, self.players[j].id))
    }

    /// `i` may have the bye, whatever the score.
    fn bye_eligible(&self, i: usize) -> bool {
        self.players[i].bye_ok || !self.any_bye_ok
    }

    /// `i` may have the bye in this round's pairing.
    fn bye_ok(&self, i: usize) -> bool {
        self.bye_eligible(i) && self.bye_score.is_none_or(|s| self.players[i].score <= s)
    }

    fn topscorer(&self, i: usize) -> bool {
        self.input
            .topscorers
            .is_some_and(|t| self.players[i].score > t)
    }

    /// `i` and `j` must both have the same colour (C3), neither a topscorer.
    fn absolute_clash(&self, i: usize, j: usize) -> bool {
        self.input.single_game
            && !self.topscorer(i)
            && !self.topscorer(j)
            && matches!((self.prefs[i], self.prefs[j]), (Some(a), Some(b))
                if a.strength == Strength::Absolute && b.strength == Strength::Absolute
                    && a.colour == b.colour)
    }
}

/// Pair a Swiss round.
pub fn pair(input: &SwissInput) -> Result<super::state::Pairing, SwissError> {
    let mut field = Field::new(input);
    let scores = field.scores();
    // The bye goes to an eligible player of the lowest score a complete pairing allows (FIDE:
    // the PAB's score as low as possible, before any bracket's quality).
    if field.odd() {
        field.bye_score = bye::lowest_bye_score(
            &field.players,
            &scores,
            &|i, j| field.compatible(i, j),
            &|i| field.bye_eligible(i),
        );
    }
    let mut remaining: Vec<usize> = (0..field.players.len()).collect();
    let mut movers: Vec<usize> = Vec::new(); // moved down into the next group
    let mut pairs: Vec<(usize, usize, Points)> = Vec::new(); // (i, j, group score)
    let mut bye: Option<usize> = None;
    let mut natural_notes = Vec::new();
    for gi in 0..scores.len() {
        let Some(bracket) = Bracket::new(&field, &scores, gi, &movers, &remaining) else {
            continue;
        };
        let paired = bracket.pair(&field)?;
        pairs.extend(paired.pairs);
        bye = bye.or(paired.bye);
        natural_notes.extend(paired.notes);
        let done: HashSet<usize> = pairs
            .iter()
            .flat_map(|&(i, j, _)| [i, j])
            .chain(bye)
            .collect();
        remaining.retain(|i| !done.contains(i) && !paired.movers.contains(i));
        remaining.extend(&paired.movers);
        movers = paired.movers;
    }
    if !movers.is_empty() || (field.odd() && bye.is_none()) {
        return Err(SwissError::Impossible {
            round: input.round,
            players: field.players.len(),
        });
    }
    Ok(boards::finish(
        input,
        &field.players,
        &field.prefs,
        pairs,
        bye,
        natural_notes,
    ))
}
