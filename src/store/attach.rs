//! A PDN attached to a board of an event (`event pdn`, the desk's `g`): read, and checked to
//! be that board's games (its players, the round's ballots, the number of games) before it is
//! recorded; a director who attaches it all the same states why, and the reason goes into the
//! log and the export.

use super::pdn::{PdnGame, decode, read_pdn};
use crate::event::{Action, Board, BoardResult, Division, DivisionId, ballot_for};
use std::path::Path;

/// Why a PDN is not a board's games, naming the field that differs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttachMismatch {
    /// Not as many games as the board has.
    #[error("number of games: the PDN has {found}, the board {expected}")]
    Games {
        /// Games in the PDN.
        found: usize,
        /// What the board has, in words ("has 2 games a round", "was forfeited").
        expected: String,
    },
    /// A game between other players.
    #[error("players of game {game}: the PDN has {black} v {white}, the board {first} v {second}")]
    Players {
        /// The game, 1-based.
        game: usize,
        /// The PDN's `Black` (Red) player.
        black: String,
        /// The PDN's `White` player.
        white: String,
        /// The board's first player.
        first: String,
        /// The board's second player.
        second: String,
    },
    /// A game that never reaches the round's ballot for the board.
    #[error("ballot of game {game}: the PDN plays {found}, the round's ballot is {ballot}")]
    Ballot {
        /// The game, 1-based.
        game: usize,
        /// The PDN's ballot, as its tags or start position give it.
        found: String,
        /// The round's ballot for the board.
        ballot: String,
    },
}

/// A PDN read for a board: its text, its games, and how it differs from the board's games.
pub struct Attachment {
    /// The file's text.
    pub text: String,
    /// The number of games.
    pub games: usize,
    /// How it is not the board's games (none: it is).
    pub mismatch: Option<AttachMismatch>,
}

impl Attachment {
    /// The action recording it on board `board` of round `round`: refused when it is not the
    /// board's games, unless `reason` says why it is attached all the same (the mismatch and
    /// the reason are recorded with it).
    pub fn action(
        self,
        division: DivisionId,
        round: u32,
        board: u32,
        reason: Option<&str>,
    ) -> Result<Action, String> {
        let overridden = match (&self.mismatch, reason.map(str::trim)) {
            (None, _) => None,
            (Some(m), Some(r)) if !r.is_empty() => Some(format!("{m}; attached because: {r}")),
            (Some(m), _) => {
                return Err(format!(
                    "not this board's games: {m} (to attach it all the same, give the reason: \
                     --override \"REASON\")"
                ));
            }
        };
        Ok(Action::AttachPdn {
            division,
            round,
            board,
            pdn: self.text,
            overridden,
        })
    }
}

/// The PDN file `path` read as the games of `board` of round `round` (every game must read),
/// and checked against the board.
pub fn read_attachment(
    path: &Path,
    division: &Division,
    round: u32,
    board: &Board,
) -> Result<Attachment, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = decode(&bytes).into_owned();
    let mut games = Vec::new();
    for g in read_pdn(&text) {
        games.push(g.map_err(|e| format!("{}: {e}", path.display()))?);
    }
    if games.is_empty() {
        return Err(format!("{}: no game in the file", path.display()));
    }
    let mismatch = check_board_games(division, round, board, &games).err();
    Ok(Attachment {
        text,
        games: games.len(),
        mismatch,
    })
}

/// Whether `games` are the games of `board` of round `round`: as many as the board has (the
/// round's games, or the results entered so far), each between the board's two players (in
/// either colour order: a file may name them either way) and each reaching the round's
/// ballot for it, from its start position or by its moves from the standard start.
pub fn check_board_games(
    division: &Division,
    round: u32,
    board: &Board,
    games: &[PdnGame],
) -> Result<(), AttachMismatch> {
    let per_round = division.settings.games_per_round as usize;
    let fits = match &board.result {
        Some(BoardResult::Forfeit { .. }) => false,
        Some(BoardResult::Games { games: entered }) => {
            games.len() == per_round || games.len() == entered.len()
        }
        None => games.len() == per_round,
    };
    if !fits {
        let expected = match &board.result {
            Some(BoardResult::Forfeit { .. }) => "was forfeited (no game played)".to_string(),
            _ => format!("has {per_round} games a round"),
        };
        return Err(AttachMismatch::Games {
            found: games.len(),
            expected,
        });
    }
    let (first, second) = (division.name(board.first), division.name(board.second));
    for (k, g) in games.iter().enumerate() {
        let black = g.tag("Black").unwrap_or("?");
        let white = g.tag("White").unwrap_or("?");
        let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
        let ours = (same(black, first) && same(white, second))
            || (same(black, second) && same(white, first));
        if !ours {
            return Err(AttachMismatch::Players {
                game: k + 1,
                black: black.to_string(),
                white: white.to_string(),
                first: first.to_string(),
                second: second.to_string(),
            });
        }
        let Some(drawn) = ballot_for(division, round, board.number, k as u32) else {
            continue;
        };
        if !reaches(g, &drawn.opening.position) {
            let found = g
                .tag("Ballot")
                .or(g.tag("Opening"))
                .map_or_else(|| format!("from {}", g.start.to_fen()), str::to_string);
            return Err(AttachMismatch::Ballot {
                game: k + 1,
                found,
                ballot: format!("{} ({})", drawn.opening.reference(), drawn.opening.name),
            });
        }
    }
    Ok(())
}

/// Whether game `g` starts from `position` or passes through it.
fn reaches(g: &PdnGame, position: &crate::engine::Position) -> bool {
    if g.start == *position {
        return true;
    }
    g.replay()
        .is_ok_and(|game| game.positions().iter().any(|p| p == position))
}
