//! The boards' tokens: what a board that reports to the desk proves itself with. The desk
//! keeps only each token's SHA-256 digest, in `NAME.tokens.json` beside its database (a
//! `{"digest": "EVENT/D/R/B"}` map), written by the atomic writer.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the desk keeps its copy of the match file of board `b` of round `r` of division `d`
/// (counted from 1) of `event`, for a board that reports to it: `NAME-boards/` beside `db`.
pub fn copy_path(db: &Path, event: &str, d: usize, r: u32, b: u32) -> PathBuf {
    boards_dir(db).join(format!("{}-d{d}-r{r}-b{b}.jsonl", super::slug(event, 40)))
}

/// The folder of the boards' copies beside `db`: `NAME-boards/`.
pub(super) fn boards_dir(db: &Path) -> PathBuf {
    let stem = db.file_stem().unwrap_or_default().to_string_lossy();
    db.with_file_name(format!("{stem}-boards"))
}

/// Put the desk's copy of a board (`copy_path(db, event, d, r, b)`) aside, renamed
/// `NAME.archived-YYYYMMDD-HHMMSS.jsonl` beside it (never deleted), so that the board, whose
/// file diverged from it, reports from its first line again; the board's last refusal is
/// forgotten with it. The path it has now, `None` when the desk has no copy.
pub fn archive_copy(
    db: &Path,
    event: &str,
    at: (usize, u32, u32),
    now: chrono::DateTime<chrono::Utc>,
) -> std::io::Result<Option<PathBuf>> {
    let copy = copy_path(db, event, at.0, at.1, at.2);
    if !copy.is_file() {
        return Ok(None);
    }
    let stem = copy.file_stem().unwrap_or_default().to_string_lossy();
    let aside = copy.with_file_name(format!(
        "{stem}.archived-{}.jsonl",
        now.format("%Y%m%d-%H%M%S")
    ));
    if aside.exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!(
                "{} is there already: try again in a second",
                aside.display()
            ),
        ));
    }
    std::fs::rename(&copy, &aside)?;
    super::hall::clear_refusal(db, event, at)?;
    Ok(Some(aside))
}

/// Where the digests of `db`'s board tokens are kept.
pub fn tokens_path(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".tokens.json");
    db.with_file_name(name)
}

fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn read(db: &Path) -> BTreeMap<String, String> {
    std::fs::read(tokens_path(db))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Keep `token` for `board` (`EVENT/D/R/B`), in place of the board's earlier token.
pub fn keep_board_token(db: &Path, board: &str, token: &str) -> std::io::Result<()> {
    let mut all = read(db);
    all.retain(|_, b| b != board);
    all.insert(digest(token), board.to_string());
    let text = serde_json::to_string_pretty(&all).map_err(std::io::Error::other)?;
    super::atomic::write_atomic(&tokens_path(db), text.as_bytes())
}

/// What the director's token of `event` is kept as, beside the boards' (`EVENT/director`:
/// no board's, whose last part is a number).
pub fn director_key(event: &str) -> String {
    format!("{event}/director")
}

/// The board (`EVENT/D/R/B`) whose token `token` is, if any (or [`director_key`]).
pub fn board_of_token(db: &Path, token: &str) -> Option<String> {
    read(db).remove(&digest(token))
}

/// A board's pairing, as the desk gives it to the board's laptop (`GET /pairing`).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct BoardPairing {
    /// The event's name.
    pub event: String,
    /// The division, from 1.
    pub division: usize,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// The name the desk keeps the board's copy under (made from the event, division, round
    /// and board): the board's match file is given the same.
    pub file: String,
    /// The match settings the desk gives the board.
    pub settings: crate::director::MatchSettings,
}
