//! `crossboard openings eleven-man --atlas --out FILE [--depth N] [--threads N] [--ids A-B]
//! [--shard K/N]`: builds the 11-man atlas (`assets/eleven_man_atlas.tsv`, read by
//! `openings::eleven_man_atlas`); `--merge FILE...` joins the parts that shards wrote.
//!
//! Reproducible bit for bit: every position is searched to a fixed depth by one search thread
//! from a cleared table, without endgame databases, so the file depends on neither the number
//! of threads (positions run side by side on a rayon pool; the lines come back in id order),
//! nor the machine's speed, nor the data folder, nor how the work was split into shards.
//!
//! Resumable: each position's line is appended to `FILE.journal` as its search ends (written
//! through to the disk), so a build stopped by a kill, a reboot or a batch system's time limit
//! and started again with the same arguments searches only what is not there yet. The journal
//! is removed once FILE is written.

use crate::openings::{ATLAS_HEADER, AtlasEntry, eleven_man_positions};
use crate::openings::{parse_atlas_line, parse_atlas_part};
use crate::search::{Engine, Limits, Options};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The depth the shipped atlas is searched to.
pub(super) const ATLAS_DEPTH: u32 = 12;

/// Parse `A-B` (or `A`) into a range of public ids within 1-2500.
pub(super) fn parse_ids(text: &str) -> Result<RangeInclusive<u32>, String> {
    let max = crate::openings::POSITIONS;
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let n = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=max).contains(n))
    };
    match (n(a), n(b)) {
        (Some(a), Some(b)) if a <= b => Ok(a..=b),
        _ => Err(format!("ids {text:?}: give A-B with 1 <= A <= B <= {max}")),
    }
}

/// A share of the positions: the `k`-th of `n` (from 1), by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shard {
    k: u32,
    n: u32,
}

impl Shard {
    /// All the positions.
    pub(super) const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Parse `K/N` (1 <= K <= N <= 2500).
    pub(super) fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard {text:?}: give K/N with 1 <= K <= N <= 2500, as 3/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n || n > crate::openings::POSITIONS {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// Whether position `id` is this shard's: ids 1 + (K - 1), 1 + (K - 1) + N, ...
    fn holds(self, id: u32) -> bool {
        (id - 1) % self.n == self.k - 1
    }
}

/// What a build searches: the ids, the shard of them, the depth.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub(super) ids: RangeInclusive<u32>,
    pub(super) shard: Shard,
    pub(super) depth: u32,
}

impl Plan {
    /// The public ids searched, in order.
    fn chosen(&self) -> Vec<u32> {
        self.ids
            .clone()
            .filter(|&id| self.shard.holds(id))
            .collect()
    }

    /// The journal's first line: a journal resumes only the build it was made for.
    fn journal_header(&self) -> String {
        format!(
            "# crossboard 11-man atlas journal: depth {}, ids {}-{}, shard {}/{}",
            self.depth,
            self.ids.start(),
            self.ids.end(),
            self.shard.k,
            self.shard.n
        )
    }
}

/// The atlas lines of positions `ids` at `depth`, on a pool of `threads` threads, in id order.
/// `done` (called from any thread) is given each line as its search ends.
pub(super) fn atlas_entries(
    ids: &[u32],
    depth: u32,
    threads: usize,
    done: &(dyn Fn(&AtlasEntry) + Sync),
) -> Result<Vec<AtlasEntry>, String> {
    use rayon::prelude::*;
    let positions = eleven_man_positions();
    let chosen: Vec<_> = positions
        .iter()
        .filter(|p| ids.binary_search(&p.id).is_ok())
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("no thread pool: {e}"))?;
    let options = Options {
        threads: 1,
        ..Options::default()
    };
    Ok(pool.install(|| {
        chosen
            .par_iter()
            .map_init(
                || Engine::new(options),
                |engine, p| {
                    engine.clear();
                    let r = engine.search_simple(&p.position, Limits::depth(depth));
                    // Red is to move in every 11-man position: the score is Red's.
                    let entry = AtlasEntry::new(p.id, r.score.0, r.depth, r.pv);
                    done(&entry);
                    entry
                },
            )
            .collect()
    }))
}

/// The asset's text: comment lines saying how it was made, the header, one line per position.
pub(super) fn atlas_text(entries: &[AtlasEntry], depth: u32) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The 11-man atlas: crossboard's verdict on each of the 2,500 positions (Red to move)."
    );
    let _ = writeln!(
        out,
        "# Made by `crossboard openings eleven-man --atlas --depth {depth} --out FILE`: a fixed depth, one search thread and a cleared table per position, no endgame databases."
    );
    let _ = writeln!(
        out,
        "# red_score: hundredths of a man from Red's side (a forced result is +-(30000 - plies)); verdict: see docs/eleven-man-atlas.md."
    );
    out.push_str(ATLAS_HEADER);
    out.push('\n');
    for e in entries {
        out.push_str(&e.to_line());
        out.push('\n');
    }
    out
}

/// The journal beside `out`.
pub(super) fn journal_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_os_string();
    name.push(".journal");
    PathBuf::from(name)
}

/// The whole lines after the header of the journal at `path`, each with its number (none when
/// there is no journal), its torn last line (a write cut short) left out; refused when the
/// journal was made for another build (its first line is not `header`).
pub(super) fn journal_lines(path: &Path, header: &str) -> Result<Vec<(usize, String)>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    // Only whole lines count: a line without its newline was being written when the build stopped.
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut lines = whole.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(h) if h == header => {}
        Some(h) => {
            return Err(format!(
                "{} line 1: made for another build ({h:?}, not {header:?}): finish that \
                 build with its own arguments, or remove the journal to start this one",
                path.display()
            ));
        }
    }
    Ok(lines
        .enumerate()
        .map(|(i, l)| (i + 2, l.to_string()))
        .collect())
}

/// The lines a journal holds for `plan` (see [`journal_lines`]); refused when a line is bad.
fn read_journal(path: &Path, plan: &Plan) -> Result<BTreeMap<u32, AtlasEntry>, String> {
    let name = path.display().to_string();
    let chosen = plan.chosen();
    let mut found = BTreeMap::new();
    for (n, raw) in journal_lines(path, &plan.journal_header())? {
        let e = parse_atlas_line(&name, n, &raw).map_err(|e| e.to_string())?;
        if chosen.binary_search(&e.id).is_err() || found.contains_key(&e.id) {
            return Err(format!(
                "{name} line {n}: id: {} is not due once in this build",
                e.id
            ));
        }
        found.insert(e.id, e);
    }
    Ok(found)
}

/// The journal opened for appending, cut to its whole lines (or made, with its header).
pub(super) fn open_journal(
    path: &Path,
    header: &str,
    resumed: bool,
) -> Result<std::fs::File, String> {
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true);
    let mut file = crate::store::open_regular(&mut options, path).map_err(io)?;
    let text = std::io::read_to_string(&mut file).map_err(io)?;
    let keep = if resumed {
        text.rfind('\n').map_or(0, |i| i + 1)
    } else {
        0
    };
    file.set_len(keep as u64).map_err(io)?;
    use std::io::Seek as _;
    file.seek(std::io::SeekFrom::End(0)).map_err(io)?;
    if keep == 0 {
        writeln!(file, "{header}").map_err(io)?;
        file.sync_data().map_err(io)?;
    }
    Ok(file)
}

/// A journal written through to the disk line by line, from any thread; the first failure
/// kept for the end.
pub(super) struct Journal {
    file: Mutex<std::fs::File>,
    name: String,
    failed: Mutex<Option<String>>,
    /// Wait for the disk after each line (otherwise only at [`Journal::sync`]).
    each: bool,
}

impl Journal {
    /// The journal at `path`, opened as `file`; `each`: wait for the disk after each line.
    pub(super) fn new(file: std::fs::File, path: &Path, each: bool) -> Journal {
        Journal {
            file: Mutex::new(file),
            name: path.display().to_string(),
            failed: Mutex::new(None),
            each,
        }
    }

    /// Append `line` (each line is written at once, so a killed build loses none of them).
    pub(super) fn append(&self, line: &str) {
        self.write(|f| {
            writeln!(f, "{line}")?;
            if self.each { f.sync_data() } else { Ok(()) }
        });
    }

    /// Wait for the disk.
    pub(super) fn sync(&self) {
        self.write(|f| f.sync_data());
    }

    fn write(&self, what: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>) {
        let mut f = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Err(err) = what(&mut f) {
            let mut failed = self
                .failed
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            failed.get_or_insert(format!("{}: {err}", self.name));
        }
    }

    /// The first write that failed, if any.
    pub(super) fn finish(self) -> Result<(), String> {
        match self
            .failed
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Build the atlas of `plan` into `out`, resuming from its journal, saying on stderr how far
/// it is and how long it took.
pub(super) fn build(out: &Path, plan: &Plan, threads: usize) -> super::CliResult {
    let journal = journal_path(out);
    let chosen = plan.chosen();
    let mut found = read_journal(&journal, plan)?;
    let file = open_journal(&journal, &plan.journal_header(), !found.is_empty())?;
    let todo: Vec<u32> = chosen
        .iter()
        .copied()
        .filter(|id| !found.contains_key(id))
        .collect();
    let total = chosen.len();
    if !found.is_empty() {
        errln!(
            "resuming: {} of {total} positions already in {}",
            found.len(),
            journal.display()
        );
    }
    let t = Instant::now();
    let count = AtomicUsize::new(found.len());
    let log = Journal::new(file, &journal, true);
    let entries = atlas_entries(&todo, plan.depth, threads, &|e| {
        log.append(&e.to_line());
        let n = count.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(100) || n == total {
            errln!("analysed {n} of {total} positions");
        }
    })?;
    log.finish()?;
    let wall = t.elapsed().as_secs_f64();
    found.extend(entries.into_iter().map(|e| (e.id, e)));
    let all: Vec<AtlasEntry> = found.into_values().collect();
    crate::store::write_atomic(out, atlas_text(&all, plan.depth).as_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let _ = std::fs::remove_file(&journal);
    errln!(
        "{} positions searched at depth {} on {threads} threads ({} from the journal): {wall:.1} s wall; written to {}",
        todo.len(),
        plan.depth,
        total - todo.len(),
        out.display()
    );
    Ok(())
}

/// Join atlas parts (shards' files) into `out`: every position in at most one part, one depth
/// throughout; the positions in order, as one build of them all would have written them.
pub(super) fn merge(out: &Path, parts: &[PathBuf]) -> super::CliResult {
    let mut all: BTreeMap<u32, (AtlasEntry, &Path)> = BTreeMap::new();
    let mut depth: Option<(u32, &Path)> = None;
    for part in parts {
        crate::store::check_output(out, part, "an atlas part").map_err(|e| e.to_string())?;
        let text = std::fs::read_to_string(part).map_err(|e| format!("{}: {e}", part.display()))?;
        let name = part.display().to_string();
        for e in parse_atlas_part(&name, &text).map_err(|e| e.to_string())? {
            match depth {
                Some((d, first)) if d != e.depth => {
                    return Err(format!(
                        "{name}: position {} was searched to depth {}, those of {} to depth {d}: \
                         parts of one atlas have one depth",
                        e.id,
                        e.depth,
                        first.display()
                    )
                    .into());
                }
                Some(_) => {}
                None => depth = Some((e.depth, part)),
            }
            if let Some((_, other)) = all.get(&e.id) {
                return Err(
                    format!("{name}: position {} is in {} too", e.id, other.display()).into(),
                );
            }
            all.insert(e.id, (e, part));
        }
    }
    let Some((depth, _)) = depth else {
        return Err("the parts hold no position".into());
    };
    let entries: Vec<AtlasEntry> = all.into_values().map(|(e, _)| e).collect();
    crate::store::write_atomic(out, atlas_text(&entries, depth).as_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let missing = crate::openings::POSITIONS as usize - entries.len();
    errln!(
        "{} positions at depth {depth} from {} parts written to {}{}",
        entries.len(),
        parts.len(),
        out.display(),
        if missing == 0 {
            String::new()
        } else {
            format!(" ({missing} of the 2,500 not in any part)")
        }
    );
    Ok(())
}
