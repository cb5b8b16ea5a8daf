//! A match's games as PDN: the tags, the ballot position and the clock readings; and the one
//! export of a whole match to a file, shared by `crossboard export` and the TUI's `e`.

use super::atomic::write_atomic;
use super::pdn::{PdnGame, PdnResult, write_pdn};
use crate::director::{EndReason, GameRecord, GameResult, Match};
use crate::engine::Outcome;
use crate::openings::{Ballot, Opening, System};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a match could not be exported.
#[derive(Debug, Error)]
pub enum ExportError {
    /// No game has started: there is nothing to write.
    #[error("no game has been started yet")]
    NoGames,
    /// The file could not be written (the old one, if any, is untouched).
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The output is the match file it is made from.
    #[error(transparent)]
    OutputIsInput(#[from] crate::store::atomic::OutputIsInput),
}

/// What an export wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Games written.
    pub games: usize,
    /// Of which unfinished (result `*`).
    pub unfinished: usize,
}

/// Where the PDN of a match file goes by default: beside it, `.pdn` instead of its extension
/// (`final.jsonl` gives `final.pdn`); a match file that already ends in `.pdn` gives
/// `NAME.games.pdn`, never itself.
pub fn default_export_path(match_file: &Path) -> PathBuf {
    if match_file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
    {
        match_file.with_extension("games.pdn")
    } else {
        match_file.with_extension("pdn")
    }
}

/// Every game of `m` as PDN text, with what it holds; [`ExportError::NoGames`] before the
/// first game.
pub fn match_pdn(m: &Match) -> Result<(String, Exported), ExportError> {
    let games = match_to_pdn(m);
    if games.is_empty() {
        return Err(ExportError::NoGames);
    }
    let unfinished = games
        .iter()
        .filter(|g| g.result.outcome().is_none())
        .count();
    let summary = Exported {
        games: games.len(),
        unfinished,
    };
    Ok((write_pdn(&games), summary))
}

/// Write every game of `m` to `path` as PDN, atomically (a crash leaves the old file or the
/// new one).
pub fn export_match(
    m: &Match,
    path: &Path,
    match_file: Option<&Path>,
) -> Result<Exported, ExportError> {
    if let Some(input) = match_file {
        crate::store::atomic::check_output(path, input, "the match file itself")?;
    }
    let (text, summary) = match_pdn(m)?;
    write_atomic(path, text.as_bytes()).map_err(|source| ExportError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(summary)
}

/// A note of the match's log, placed at the game and the move it was made at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteAt {
    /// The game it was made in or after, as (ballot, game); `None` before the first game.
    pub game: Option<(u32, u8)>,
    /// Plies of that game played when it was made (the game's length once it was over).
    pub plies: usize,
    /// The game was over when the note was made.
    pub after_game: bool,
    /// The note.
    pub text: String,
    /// When.
    pub at: chrono::DateTime<chrono::Utc>,
}

/// Every note of the match's log, in order, each placed at its game and move (the one
/// reading of the log shared by the PDN comments, the results screen and the log view).
pub fn notes(m: &Match) -> Vec<NoteAt> {
    placed(m, |e| match e {
        crate::director::MatchEvent::Note { text, .. } => Some(text.clone()),
        _ => None,
    })
}

/// The notes and the director's decisions on the games (time adjustments, moves taken back,
/// results changed or undone; forfeits and adjudications are the games' terminations), in
/// order, each placed at its game and move: the PDN's comments ("Note: ...", "Director:
/// ...") and the match report's decisions.
pub fn comments(m: &Match) -> Vec<NoteAt> {
    use crate::director::MatchEvent;
    placed(m, |e| match e {
        MatchEvent::Note { text, .. } => Some(format!("Note: {text}")),
        e => decision(e).map(|d| format!("Director: {d}")),
    })
}

/// A director's decision on a game in words, with its reason; `None` for any other record.
fn decision(e: &crate::director::MatchEvent) -> Option<String> {
    use crate::director::MatchEvent;
    Some(match e {
        MatchEvent::TimeAdjusted {
            colour,
            delta_ms,
            remaining_ms,
            reason,
            ..
        } => {
            let clock = |ms: i64| super::pdn::format_clock(ms.unsigned_abs());
            let (verb, way) = if *delta_ms < 0 {
                ("took", "from")
            } else {
                ("gave", "to")
            };
            format!(
                "{verb} {} {way} {colour}'s clock, {} left ({reason})",
                clock(*delta_ms),
                clock((*remaining_ms).max(0))
            )
        }
        MatchEvent::MovesTakenBack { moves, reason, .. } => {
            let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
            format!("took back {} ({reason})", list.join(" "))
        }
        MatchEvent::ResultAmended {
            previous, result, ..
        } => format!("result changed from \"{previous}\" to \"{result}\""),
        MatchEvent::DecisionUndone { undone, reason, .. } => {
            format!("undid \"{undone}\" ({reason})")
        }
        _ => return None,
    })
}

/// The records `pick` says something of, in order, each placed at the game and the move it
/// was made at.
fn placed(m: &Match, pick: impl Fn(&crate::director::MatchEvent) -> Option<String>) -> Vec<NoteAt> {
    use crate::director::MatchEvent;
    let mut out = Vec::new();
    let mut game: Option<(u32, u8)> = None;
    let mut plies = 0usize;
    let mut over = false;
    for e in m.log() {
        match &e.event {
            MatchEvent::GameStarted {
                ballot, game: g, ..
            } => {
                game = Some((*ballot, *g));
                plies = 0;
                over = false;
            }
            MatchEvent::MovePlayed { .. } => plies += 1,
            MatchEvent::MovesTakenBack { moves, .. } => {
                plies = plies.saturating_sub(moves.len());
                over = false;
            }
            MatchEvent::GameEnded { .. } => over = true,
            _ => {}
        }
        if let Some(text) = pick(&e.event) {
            out.push(NoteAt {
                game,
                plies,
                after_game: over,
                text,
                at: e.at,
            });
        }
    }
    out
}

/// The games of a board played on crossboard, read from the match file linked to it (by
/// `event match`, the desk's `P`, or a board reporting to `crossboard serve`), as PDN; `None`
/// when no file is linked or it does not read.
pub fn linked_games(board: &crate::event::Board) -> Option<Vec<PdnGame>> {
    let file = board.match_file.as_deref()?;
    let m = super::load_match(Path::new(file)).ok()?.the_match;
    Some(match_to_pdn(&m))
}

/// Every game started in the match, in order, as PDN (an unfinished game has result `*`).
pub fn match_to_pdn(m: &Match) -> Vec<PdnGame> {
    m.games().map(|g| game_to_pdn(m, g)).collect()
}

/// The longest tag line written (`[Name "value"]`): under 80 columns.
pub(super) const TAG_LINE_MAX: usize = 79;

/// One game of a match as PDN.
///
/// Tags: `Event` (the match's event, or "First - Second match"), `Site "?"`, `Date` (the
/// day the game started), `Round` (`ballot.game`), `Black` (the Red player), `White`,
/// `Result`, `GameType "21"`, `SetUp`/`FEN` of the ballot position, `TimeControl` (PGN form,
/// see [`crate::director::TimeControl::pgn`]), `Clock` (the time control in words, or its
/// typed form when the words would not fit in a line), `Ballot` (see [`ballot_tag`]),
/// `Opening` (the ballot in words) and `Termination` (how the game ended; a director's
/// reason goes into a comment at the end of the moves). The director's notes are comments at
/// the move they were made. Every line stays under 80 columns for names, events, notes and
/// reasons within the set-up's limits.
pub(super) fn game_to_pdn(m: &Match, g: &GameRecord) -> PdnGame {
    let s = m.settings();
    let fits = |name: &str, value: &str| name.len() + value.chars().count() + 5 <= TAG_LINE_MAX;
    let event = if s.event.trim().is_empty() {
        let e = format!("{} - {} match", s.players[0], s.players[1]);
        if fits("Event", &e) { e } else { "?".into() }
    } else {
        s.event.clone()
    };
    let words = s.time_control.describe();
    let clock = if fits("Clock", &words) {
        words
    } else {
        s.time_control.to_string()
    };
    let mut p = PdnGame::from_game(&g.game)
        .with_tag("Event", event)
        .with_tag("Date", g.started.format("%Y.%m.%d").to_string())
        .with_tag("Round", format!("{}.{}", g.ballot, g.number))
        .with_tag("Black", g.red_name.clone())
        .with_tag("White", g.white_name.clone())
        .with_tag("TimeControl", s.time_control.pgn())
        .with_tag("Clock", clock)
        .with_opening(&g.opening);
    p.clocks = g
        .moves
        .iter()
        .map(|r| r.remaining_ms.map(|ms| ms.max(0) as u64))
        .collect();
    p.comments = comments(m)
        .into_iter()
        .filter(|n| n.game == Some((g.ballot, g.number)))
        .map(|n| (n.plies, n.text))
        .collect();
    // The board decides nothing beyond what the director recorded.
    p.result = match &g.result {
        Some(r) => PdnResult::from(Some(r.outcome)),
        None => PdnResult::Unfinished,
    };
    if let Some(r) = &g.result {
        let (short, reason) = termination(r);
        p.set_tag("Termination", short);
        if let Some(reason) = reason {
            p.comments.push((g.moves.len(), reason));
        }
    }
    p
}

/// The `Termination` tag of a result and, for a director's decision, its reason for a
/// comment: ("White wins: Red forfeits", "Red forfeits: arrived an hour late").
fn termination(r: &GameResult) -> (String, Option<String>) {
    let outcome = match r.outcome {
        Outcome::Win(c) => format!("{c} wins"),
        Outcome::Draw => "draw".to_string(),
    };
    let loser = match r.outcome {
        Outcome::Win(c) => c.opponent().name(),
        Outcome::Draw => "",
    };
    match &r.reason {
        EndReason::Forfeit { note } => (
            format!("{outcome}: {loser} forfeits"),
            Some(format!("{loser} forfeits: {note}")),
        ),
        EndReason::Adjudicated { note } => (
            format!("{outcome}, adjudicated"),
            Some(format!("Adjudicated: {note}")),
        ),
        _ => (r.to_string(), None),
    }
}

impl PdnGame {
    /// The tags of the opening a game was played from: `Ballot` (see [`ballot_tag`]) and
    /// `Opening` (the ballot in words), the same for a match, an engine match and practice.
    pub fn with_opening(mut self, o: &Opening) -> PdnGame {
        self.set_tag("Ballot", ballot_tag(o));
        if !o.name.is_empty() {
            self.set_tag("Opening", o.name.clone());
        }
        self
    }
}

/// The `Ballot` tag: the system's own number, for the 11-Man Ballot the four cards, and the
/// public position id, e.g. `11-Man Ballot 1234 (cards 4 2 2 3), position 567` (the ballot in
/// words is the `Opening` tag).
pub(super) fn ballot_tag(o: &Opening) -> String {
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
        assert!(!t.contains(&o.name), "the words are the Opening tag: {t}");
    }
}

#[cfg(test)]
mod docs_tests {
    use super::*;

    /// The example in backticks on the row of `table` whose first cell is `` `name` ``.
    fn example(table: &str, name: &str) -> String {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("no row for {name}"));
        let after = row.split("e.g. `").nth(1).expect("an example");
        after.split('`').next().unwrap().to_string()
    }

    #[test]
    fn the_documented_ballot_and_opening_tags_are_what_a_match_writes() {
        let page = include_str!("../../docs/files-and-pdn.md");
        let ballot = example(page, "Ballot");
        let number: u32 = ballot
            .trim_start_matches("11-Man Ballot ")
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let o = Ballot::from_number(number).unwrap().opening();
        assert_eq!(ballot, ballot_tag(&o));
        assert_eq!(example(page, "Opening"), o.name);
    }
}
