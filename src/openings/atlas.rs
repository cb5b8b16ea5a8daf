//! The 11-man atlas: the engine's verdict, score, depth and main line for each of the 2,500
//! distinct 11-man positions, analysed once and shipped as `assets/eleven_man_atlas.tsv`
//! (`crossboard openings eleven-man --atlas` makes it; docs/eleven-man-atlas.md says how).
//!
//! One tab-separated line per position: public id, verdict key, Red's score in hundredths of a
//! man (a forced result is `±(30000 - plies)`, a database result `±(20000 - plies)`), the depth
//! searched, and the main line in notation from the position (Red to move).

use super::eleven_man_position;
use crate::engine::{Move, Position, parse_move};
use std::fmt;
use std::sync::OnceLock;
use thiserror::Error;

/// A score (Red's view, hundredths of a man) at or beyond this is a lost position: a man
/// behind, less the little the evaluation finds for the side behind.
pub const LOST_AT: i32 = 70;
/// A score at or beyond this, short of [`LOST_AT`], is hard for the side behind.
pub const HARD_AT: i32 = 35;

/// The atlas's verdict on a position, in words, from Red's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Red is [`LOST_AT`] or more behind (or loses by force).
    LostForRed,
    /// Red is [`HARD_AT`] or more behind, short of a man.
    HardForRed,
    /// Within [`HARD_AT`] of level.
    Balanced,
    /// White is [`HARD_AT`] or more behind, short of a man.
    HardForWhite,
    /// White is [`LOST_AT`] or more behind (or loses by force).
    LostForWhite,
}

impl Verdict {
    /// Every verdict, from Red's worst to White's worst.
    pub const ALL: [Verdict; 5] = [
        Verdict::LostForRed,
        Verdict::HardForRed,
        Verdict::Balanced,
        Verdict::HardForWhite,
        Verdict::LostForWhite,
    ];

    /// The verdict of Red's score (hundredths of a man; known results lie far beyond a man).
    pub fn from_red_score(red: i32) -> Verdict {
        match red {
            s if s <= -LOST_AT => Verdict::LostForRed,
            s if s <= -HARD_AT => Verdict::HardForRed,
            s if s < HARD_AT => Verdict::Balanced,
            s if s < LOST_AT => Verdict::HardForWhite,
            _ => Verdict::LostForWhite,
        }
    }

    /// The key in the asset: `lost-red`, `hard-red`, `balanced`, `hard-white`, `lost-white`.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::LostForRed => "lost-red",
            Verdict::HardForRed => "hard-red",
            Verdict::Balanced => "balanced",
            Verdict::HardForWhite => "hard-white",
            Verdict::LostForWhite => "lost-white",
        }
    }

    /// The verdict with this key.
    pub fn from_key(key: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.key() == key)
    }

    /// True for a lost verdict, either side.
    pub fn is_lost(self) -> bool {
        matches!(self, Verdict::LostForRed | Verdict::LostForWhite)
    }
}

impl fmt::Display for Verdict {
    /// "lost for Red", "hard for Red", "balanced", "hard for White", "lost for White".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::LostForRed => "lost for Red",
            Verdict::HardForRed => "hard for Red",
            Verdict::Balanced => "balanced",
            Verdict::HardForWhite => "hard for White",
            Verdict::LostForWhite => "lost for White",
        })
    }
}

/// One position of the atlas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtlasEntry {
    /// Public id 1-2500.
    pub id: u32,
    /// The verdict (always that of `red_score`).
    pub verdict: Verdict,
    /// Red's score in hundredths of a man (see the module documentation).
    pub red_score: i32,
    /// The depth searched.
    pub depth: u32,
    /// The main line from the position, Red to move.
    pub line: Vec<Move>,
}

impl AtlasEntry {
    /// The entry for position `id` from its analysis.
    pub fn new(id: u32, red_score: i32, depth: u32, line: Vec<Move>) -> AtlasEntry {
        AtlasEntry {
            id,
            verdict: Verdict::from_red_score(red_score),
            red_score,
            depth,
            line,
        }
    }

    /// The asset line (no newline).
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.line.iter().map(Move::to_string).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.id,
            self.verdict.key(),
            self.red_score,
            self.depth,
            moves.join(" ")
        )
    }
}

/// The header line of the asset.
pub const ATLAS_HEADER: &str = "id\tverdict\tred_score\tdepth\tmain_line";

/// A malformed atlas line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{source_name} line {line}: {field}: {reason}")]
pub struct AtlasError {
    /// The file read.
    pub source_name: String,
    /// Its line, from 1.
    pub line: usize,
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

/// Read an atlas (`#` comments and the header skipped): every one of the 2,500 ids once, in
/// order, each verdict that of its score, each main line legal from its position.
pub fn parse_atlas(source_name: &str, text: &str) -> Result<Vec<AtlasEntry>, AtlasError> {
    let (out, last) = parse_lines(source_name, text, |id, before| {
        let want = before.map_or(1, |b| b + 1);
        (id != want).then(|| format!("{id} where {want} was due"))
    })?;
    if out.len() != super::POSITIONS as usize {
        return Err(AtlasError {
            source_name: source_name.to_string(),
            line: last,
            field: "id",
            reason: format!("{} positions, not {}", out.len(), super::POSITIONS),
        });
    }
    Ok(out)
}

/// Read part of an atlas (a shard, or a build of some ids): any of the ids, each once, in
/// increasing order, each line checked as [`parse_atlas`] checks it.
pub fn parse_atlas_part(source_name: &str, text: &str) -> Result<Vec<AtlasEntry>, AtlasError> {
    let (out, _) = parse_lines(source_name, text, |id, before| {
        before
            .filter(|&b| id <= b)
            .map(|b| format!("{id} after {b}: the ids go up"))
    })?;
    Ok(out)
}

/// Read one atlas line (`line`: its number in `source_name`, from 1), its id in any order.
pub fn parse_atlas_line(
    source_name: &str,
    line: usize,
    raw: &str,
) -> Result<AtlasEntry, AtlasError> {
    let err = |field: &'static str, reason: String| AtlasError {
        source_name: source_name.to_string(),
        line,
        field,
        reason,
    };
    parse_line(raw, &err)
}

/// The entries of `text` (comments, the header and blank lines skipped), each id checked
/// against the one before by `order` (a reason when out of order); and the last line's number.
fn parse_lines(
    source_name: &str,
    text: &str,
    order: impl Fn(u32, Option<u32>) -> Option<String>,
) -> Result<(Vec<AtlasEntry>, usize), AtlasError> {
    let mut out: Vec<AtlasEntry> = Vec::new();
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        last = i + 1;
        if raw.starts_with('#') || raw == ATLAS_HEADER || raw.trim().is_empty() {
            continue;
        }
        // The id's place first: the rest of the line is read from its position.
        let id = raw.split('\t').next().and_then(|f| f.parse::<u32>().ok());
        if let Some(reason) = id.and_then(|id| order(id, out.last().map(|e| e.id))) {
            return Err(AtlasError {
                source_name: source_name.to_string(),
                line: i + 1,
                field: "id",
                reason,
            });
        }
        out.push(parse_atlas_line(source_name, i + 1, raw)?);
    }
    Ok((out, last))
}

fn parse_line(
    raw: &str,
    err: &dyn Fn(&'static str, String) -> AtlasError,
) -> Result<AtlasEntry, AtlasError> {
    let f: Vec<&str> = raw.split('\t').collect();
    if f.len() != 5 {
        return Err(err("line", format!("{} fields, not 5", f.len())));
    }
    let id: u32 = f[0]
        .parse()
        .map_err(|_| err("id", format!("{:?} is not a number", f[0])))?;
    let start = eleven_man_position(id).map_err(|e| err("id", e.to_string()))?;
    let verdict = Verdict::from_key(f[1]).ok_or_else(|| err("verdict", format!("{:?}", f[1])))?;
    let red_score: i32 = f[2]
        .parse()
        .ok()
        .filter(|s: &i32| s.unsigned_abs() <= 30_000)
        .ok_or_else(|| err("red_score", format!("{:?} is not a score", f[2])))?;
    if verdict != Verdict::from_red_score(red_score) {
        return Err(err(
            "verdict",
            format!("{} does not fit the score {red_score}", f[1]),
        ));
    }
    let depth: u32 = f[3]
        .parse()
        .map_err(|_| err("depth", format!("{:?} is not a number", f[3])))?;
    let line = replay(&start.position, f[4]).map_err(|e| err("main_line", e))?;
    Ok(AtlasEntry {
        id,
        verdict,
        red_score,
        depth,
        line,
    })
}

/// The moves of `text` played from `start`, or which one is not legal.
fn replay(start: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut pos = *start;
    let mut out = Vec::new();
    for (n, t) in text.split_whitespace().enumerate() {
        let mv = parse_move(&pos, t).map_err(|e| format!("move {} ({t}): {e}", n + 1))?;
        pos = pos.after(&mv);
        out.push(mv);
    }
    Ok(out)
}

/// The shipped atlas.
const ATLAS: &str = include_str!("../../assets/eleven_man_atlas.tsv");

/// The shipped atlas, read once, by public id (index `id - 1`). A malformed asset is a build
/// bug: the tests read it and show the line at fault.
pub fn eleven_man_atlas() -> &'static [AtlasEntry] {
    static ENTRIES: OnceLock<Vec<AtlasEntry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        parse_atlas("assets/eleven_man_atlas.tsv", ATLAS).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// The shipped atlas's text (for the tests and the comparison in the docs).
pub fn eleven_man_atlas_text() -> &'static str {
    ATLAS
}
