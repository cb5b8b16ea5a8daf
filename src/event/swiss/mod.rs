//! Swiss pairing after the FIDE Dutch system (C.04.3), as far as it applies to draughts.
//!
//! What is implemented, in order of priority:
//!
//! 1. **No rematch** (C1): two players who met over the board are never paired again (a
//!    whole-round forfeit, or a round whose every game was forfeited, is not a meeting, as in
//!    FIDE).
//! 2. **At most one bye** (C2): the bye goes only to a player who has had neither a bye nor a
//!    forfeit win; when no one to pair may have it, pairing is refused.
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
//! the dummy vertex of an odd field: it falls to an eligible player of the lowest score a
//! complete pairing allows (keeping the absolute colours if one keeps them), of them one with
//! the fewest unplayed rounds (C9 of the 2025 rules, a criterion after C7), then the one FIDE's
//! order leaves unpaired.
//!
//! Colours of a pair (the first player has Red in game 1, which moves first): both
//! preferences if compatible, else the stronger preference (of two absolute ones, the wider
//! colour difference's), else alternate from the last round they had different colours, else
//! the higher-ranked player's preference; with no preference at all (no game played yet), the
//! higher-ranked player has Red with an odd pairing number and White with an even one
//! (deviation: FIDE draws the initial colour by lot; here it is always Red). In rounds of two
//! or more games each player has both colours anyway, and the same rules only decide who
//! starts. A board that gives up an absolute colour says so in its explanation.
//!
//! Not implemented: pairing-allocated byes for more than one player. Accelerated pairings come
//! in as the players' scores: [`SwissPlayer::score`] is the pairing score (see
//! `super::acceleration`).
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
    /// Pairing score: the points so far, plus any virtual points of an accelerated round.
    pub score: Points,
    /// Opponents met over the board, with the round.
    pub met: Vec<(PlayerId, u32)>,
    /// May receive the bye (no bye nor forfeit win yet).
    pub bye_ok: bool,
    /// Rounds so far without a game over the board (byes, forfeits, absences): the bye goes
    /// to the fewest (C.04.3 2025, C9).
    pub unplayed: u32,
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
    /// No pairing avoids every rematch (or gives the bye to a player who may have it).
    /// (The callers say how to pair it by hand: a desk key, a command.)
    #[error("no pairing of round {round} avoids every rematch ({players} players)")]
    Impossible {
        /// The round.
        round: u32,
        /// Players to pair.
        players: usize,
    },
    /// An odd number to pair and every one of them had a bye or a forfeit win (C2).
    #[error(
        "no one in round {round} may have the bye: all {players} players had a bye or a forfeit win"
    )]
    NoBye {
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
        Field {
            input,
            players,
            prefs,
            met,
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
        self.players[i].bye_ok
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
    let mut first_single = false;
    // The bye goes to an eligible player of the lowest score a complete pairing allows (FIDE:
    // the PAB's score as low as possible, before any bracket's quality), with the absolute
    // colours kept when some complete pairing keeps them (C3 is absolute in FIDE).
    if field.odd() {
        if !(0..field.players.len()).any(|i| field.bye_eligible(i)) {
            return Err(SwissError::NoBye {
                round: input.round,
                players: field.players.len(),
            });
        }
        let lowest = |keep_colours: bool| {
            bye::lowest_bye_score(
                &field.players,
                &scores,
                &|i, j| field.compatible(i, j) && !(keep_colours && field.absolute_clash(i, j)),
                &|i| field.bye_eligible(i),
            )
        };
        let lowest = lowest(true).or_else(|| lowest(false));
        field.bye_score = lowest.map(|(s, _)| s);
        first_single = lowest.is_some_and(|(_, single)| single);
    }
    let mut remaining: Vec<usize> = (0..field.players.len()).collect();
    let mut movers: Vec<usize> = Vec::new(); // moved down into the next group
    let mut pairs: Vec<(usize, usize, Points)> = Vec::new(); // (i, j, group score)
    let mut bye: Option<usize> = None;
    let mut natural_notes = Vec::new();
    // The bracket decides who has the bye (C9 counts there) when the bye's score is its
    // group's or higher and every player floated into it is paired in it or has the bye.
    let mut single = first_single;
    for gi in 0..scores.len() {
        let Some(bracket) = Bracket::new(&field, &scores, gi, &movers, &remaining) else {
            continue;
        };
        let counts_bye = single && field.bye_score.is_some_and(|s| s >= scores[gi]);
        let paired = bracket.pair(&field, counts_bye)?;
        single = paired.single;
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
