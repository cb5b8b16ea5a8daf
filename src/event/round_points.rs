//! Scoring: what each player got in each round, from the boards' results and the division's
//! rules for byes, forfeits and absences.

use super::settings::{DivisionSettings, ScoreUnit};
use super::state::{BoardGameResult, BoardResult, Division};
use crate::director::{Player, Points};
use crate::engine::Color;

/// How a player's round went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundKind {
    /// Played over the board (possibly with some games forfeited).
    Played,
    /// Still playing: some games (or units) not finished.
    Pending,
    /// The pairing bye.
    Bye,
    /// The opponent forfeited the whole round.
    ForfeitWin,
    /// Forfeited the whole round.
    ForfeitLoss,
    /// Not paired: absent by arrangement, or entered later.
    Absent,
    /// Not paired: withdrawn.
    Withdrawn,
    /// Not paired: a bye the player asked for before the round was paired (not the pairing
    /// bye: it leaves the player eligible for that).
    RequestedBye,
}

impl RoundKind {
    /// True for a round with an opponent met over the board.
    pub fn played(self) -> bool {
        matches!(self, RoundKind::Played | RoundKind::Pending)
    }
}

impl RoundRecord {
    /// A round played whose every game was forfeited (`1f`, `2f`): no game over the board, so,
    /// as with a whole-round forfeit, no meeting and no colour (FIDE: `+`/`-`).
    pub fn all_forfeited(&self) -> bool {
        self.kind == RoundKind::Played
            && !self.games.is_empty()
            && self.games.iter().all(|g| g.forfeit)
    }

    /// Met the opponent over the board: a round played (or being played), not every game of it
    /// forfeited.
    pub fn met(&self) -> bool {
        self.kind.played() && !self.all_forfeited()
    }

    /// Scored without playing, as FIDE's forfeit win or pairing bye: a bye, a whole-round
    /// forfeit win, or a round of forfeited games with one of them won.
    pub fn unplayed_win(&self) -> bool {
        matches!(self.kind, RoundKind::Bye | RoundKind::ForfeitWin)
            || (self.all_forfeited() && self.games.iter().any(|g| g.points > Points::ZERO))
    }
}

/// One game of a player's round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The player's colour.
    pub colour: Color,
    /// Points scored in the game (game scale, half points).
    pub points: Points,
    /// Won over the board.
    pub won: bool,
    /// Won or lost by forfeit (not counted as played).
    pub forfeit: bool,
}

/// A player's round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRecord {
    /// The round.
    pub round: u32,
    /// The opponent's position in the division's entrants (none for a bye or absence).
    pub opponent: Option<usize>,
    /// The board number.
    pub board: Option<u32>,
    /// First (Red in game 1) or second.
    pub side: Option<Player>,
    /// How it went.
    pub kind: RoundKind,
    /// Points scored in the round (complete units only).
    pub points: Points,
    /// The games played so far.
    pub games: Vec<GameRecord>,
}

/// The colour of `side` in game `game` (0-based): first has Red in games 1, 3, ...
pub(super) fn colour_in_game(side: Player, game: usize) -> Color {
    match (side, game % 2) {
        (Player::First, 0) | (Player::Second, 1) => Color::Red,
        _ => Color::White,
    }
}

/// Points of both sides for a list of games, by the division's unit; units not finished count
/// nothing. Returns (first, second, every unit complete).
pub(super) fn board_points(
    settings: &DivisionSettings,
    games: &[BoardGameResult],
) -> (Points, Points, bool) {
    let g = settings.scoring.game;
    let per_unit = match settings.scoring.unit {
        ScoreUnit::Game => 1,
        ScoreUnit::Ballot => 2,
        ScoreUnit::Round => settings.games_per_round as usize,
    };
    let mut first = Points::ZERO;
    let mut second = Points::ZERO;
    let mut complete_units = 0;
    for unit in games.chunks(per_unit.max(1)) {
        if unit.len() < per_unit {
            break;
        }
        complete_units += 1;
        let a: u32 = unit.iter().map(|o| o.points(Player::First, g).0).sum();
        let b: u32 = unit.iter().map(|o| o.points(Player::Second, g).0).sum();
        if per_unit == 1 {
            first += Points(a);
            second += Points(b);
        } else if a > b {
            first += g.win();
        } else if b > a {
            second += g.win();
        } else {
            first += g.draw();
            second += g.draw();
        }
    }
    let units = settings.games_per_round.div_ceil(per_unit as u32) as usize;
    (first, second, complete_units >= units)
}

/// Every entrant's rounds, in entrant order, for rounds 1..=`upto` of the division.
pub fn records(division: &Division, upto: u32) -> Vec<Vec<RoundRecord>> {
    let s = &division.settings;
    let mut out: Vec<Vec<RoundRecord>> = vec![Vec::new(); division.entrants.len()];
    let mut byes_had = vec![0u32; division.entrants.len()];
    for round in division.rounds.iter().filter(|r| r.number <= upto) {
        let mut placed = vec![false; division.entrants.len()];
        for b in &round.boards {
            let (Some(ia), Some(ib)) = (division.position(b.first), division.position(b.second))
            else {
                continue;
            };
            placed[ia] = true;
            placed[ib] = true;
            let (ra, rb) = board_records(s, round.number, b.number, ia, ib, b.result.as_ref());
            out[ia].push(ra);
            out[ib].push(rb);
        }
        if let Some(i) = round.bye.and_then(|id| division.position(id)) {
            placed[i] = true;
            let points = if byes_had[i] == 0 {
                s.scoring.first_bye
            } else {
                s.scoring.later_bye
            };
            byes_had[i] += 1;
            out[i].push(unpaired(round.number, RoundKind::Bye, points));
        }
        for (i, e) in division.entrants.iter().enumerate() {
            if placed[i] {
                continue;
            }
            let withdrawn = e.withdrawn_from.is_some_and(|w| round.number >= w);
            let requested = division.requested_bye_points(e.player, round.number);
            let (kind, points) = if withdrawn {
                (RoundKind::Withdrawn, Points::ZERO)
            } else if let Some(points) = requested {
                (RoundKind::RequestedBye, points)
            } else {
                (RoundKind::Absent, s.scoring.absent)
            };
            out[i].push(unpaired(round.number, kind, points));
        }
    }
    out
}

fn unpaired(round: u32, kind: RoundKind, points: Points) -> RoundRecord {
    RoundRecord {
        round,
        opponent: None,
        board: None,
        side: None,
        kind,
        points,
        games: Vec::new(),
    }
}

fn board_records(
    s: &DivisionSettings,
    round: u32,
    board: u32,
    ia: usize,
    ib: usize,
    result: Option<&BoardResult>,
) -> (RoundRecord, RoundRecord) {
    let rec = |side: Player, opponent: usize, kind: RoundKind, points: Points, games| RoundRecord {
        round,
        opponent: Some(opponent),
        board: Some(board),
        side: Some(side),
        kind,
        points,
        games,
    };
    match result {
        Some(BoardResult::Forfeit { present }) => {
            let (ka, pa, kb, pb) = match present {
                Some(Player::First) => (
                    RoundKind::ForfeitWin,
                    s.scoring.forfeit_win,
                    RoundKind::ForfeitLoss,
                    s.scoring.forfeit_loss,
                ),
                Some(Player::Second) => (
                    RoundKind::ForfeitLoss,
                    s.scoring.forfeit_loss,
                    RoundKind::ForfeitWin,
                    s.scoring.forfeit_win,
                ),
                None => (
                    RoundKind::ForfeitLoss,
                    s.scoring.forfeit_loss,
                    RoundKind::ForfeitLoss,
                    s.scoring.forfeit_loss,
                ),
            };
            (
                rec(Player::First, ib, ka, pa, Vec::new()),
                rec(Player::Second, ia, kb, pb, Vec::new()),
            )
        }
        Some(BoardResult::Games { games }) => {
            let (pa, pb, complete) = board_points(s, games);
            let kind = if complete {
                RoundKind::Played
            } else {
                RoundKind::Pending
            };
            let g = s.scoring.game;
            let games_of = |side: Player| -> Vec<GameRecord> {
                games
                    .iter()
                    .enumerate()
                    .map(|(k, o)| GameRecord {
                        colour: colour_in_game(side, k),
                        points: o.points(side, g),
                        won: matches!(o, BoardGameResult::Win { winner } if *winner == side),
                        forfeit: matches!(o, BoardGameResult::Forfeit { .. }),
                    })
                    .collect()
            };
            (
                rec(Player::First, ib, kind, pa, games_of(Player::First)),
                rec(Player::Second, ia, kind, pb, games_of(Player::Second)),
            )
        }
        None => (
            rec(
                Player::First,
                ib,
                RoundKind::Pending,
                Points::ZERO,
                Vec::new(),
            ),
            rec(
                Player::Second,
                ia,
                RoundKind::Pending,
                Points::ZERO,
                Vec::new(),
            ),
        ),
    }
}

/// Total points of each entrant over `records`.
pub(super) fn totals(records: &[Vec<RoundRecord>]) -> Vec<Points> {
    records
        .iter()
        .map(|rs| Points(rs.iter().map(|r| r.points.0).sum()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::director::GamePoints;
    use crate::event::settings::Format;

    fn settings(unit: ScoreUnit, games: u32) -> DivisionSettings {
        DivisionSettings::new(
            Format::Swiss { rounds: 5 },
            games,
            GamePoints::OneHalfZero,
            unit,
        )
    }

    const W1: BoardGameResult = BoardGameResult::Win {
        winner: Player::First,
    };
    const W2: BoardGameResult = BoardGameResult::Win {
        winner: Player::Second,
    };
    const D: BoardGameResult = BoardGameResult::Draw;

    #[test]
    fn units_score_games_ballots_or_rounds() {
        let games = [W1, D, W2, W2];
        let s = settings(ScoreUnit::Game, 4);
        assert_eq!(board_points(&s, &games), (Points(3), Points(5), true));
        // Ballot 1 (W1, D): first wins it; ballot 2 (W2, W2): second.
        let s = settings(ScoreUnit::Ballot, 4);
        assert_eq!(board_points(&s, &games), (Points(2), Points(2), true));
        let s = settings(ScoreUnit::Round, 4);
        assert_eq!(board_points(&s, &games), (Points(0), Points(2), true));
        // Unfinished units count nothing.
        let s = settings(ScoreUnit::Ballot, 4);
        assert_eq!(board_points(&s, &games[..3]), (Points(2), Points(0), false));
    }

    #[test]
    fn colours_alternate_from_game_one() {
        assert_eq!(colour_in_game(Player::First, 0), Color::Red);
        assert_eq!(colour_in_game(Player::First, 1), Color::White);
        assert_eq!(colour_in_game(Player::Second, 0), Color::White);
        assert_eq!(colour_in_game(Player::Second, 3), Color::Red);
    }
}
