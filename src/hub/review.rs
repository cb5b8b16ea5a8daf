//! A game reviewed by a Hub engine: every position analysed, then each move compared with the
//! engine's best by the same code and thresholds as crossboard's own review
//! ([`crate::search::review_moves`]), so the marks mean the same whichever engine made them.

use super::analysis::HubStop;
use super::client::HubEngine;
use crate::engine::{Move, Position, Rules};
use crate::search::{GameLimits, MoveReview, PositionScore, Score, review_moves};

/// A game reviewed by a Hub engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HubReview {
    /// One review per move (fewer when stopped).
    pub moves: Vec<MoveReview>,
    /// What the engine's info lines held that could not be read, each once.
    pub unread: Vec<String>,
}

/// Review the moves of a game played from `start` with `engine`: the engine is told a new game
/// begins, then every position is analysed within `limits` ([`HubEngine::analyse`]) and the
/// moves compared with its choices ([`review_moves`]). Stops early (the moves reviewed so far)
/// when `stop` is raised; `progress` gets the number of positions analysed. An engine that
/// misbehaves, or gives no score for a position, is an error naming it; a game of other rules
/// than English draughts is refused (the protocol names no other game).
pub fn review_game(
    engine: &mut HubEngine,
    start: &Position,
    moves: &[Move],
    limits: GameLimits,
    stop: &HubStop,
    mut progress: impl FnMut(usize),
) -> Result<HubReview, String> {
    if start.rules() != Rules::English {
        return Err(format!(
            "{}: a Hub engine analyses English draughts only, not {}",
            engine.name,
            start.rules()
        ));
    }
    engine.send(&crate::search::Line::new("new-game"))?;
    let mut scored = Vec::with_capacity(moves.len() + 1);
    let mut unread: Vec<String> = Vec::new();
    for i in 0..=moves.len() {
        let found = engine.analyse(start, &moves[..i], limits, stop, |_| {})?;
        if stop.stopped() {
            break;
        }
        for u in &found.unread {
            if !unread.contains(u) {
                unread.push(u.clone());
            }
        }
        let position = moves[..i].iter().fold(*start, |p, m| p.after(m));
        let score = if position.legal_moves().is_empty() {
            // No move: the side to move has lost.
            Score::loss_in(0)
        } else {
            found
                .info
                .as_ref()
                .and_then(|info| info.score)
                .ok_or_else(|| {
                    format!(
                        "{}: gave no score for the position after {i} plies (no info line with score=)",
                        engine.name
                    )
                })?
        };
        scored.push(PositionScore {
            score,
            best: found.best,
            line: found.line(),
        });
        progress(i + 1);
    }
    Ok(HubReview {
        moves: review_moves(start, moves, &scored),
        unread,
    })
}
