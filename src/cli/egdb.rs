//! `crossboard egdb`: build, verify, inspect and probe the endgame databases.

use super::CliResult;
use crate::egdb::{Egdb, MAX_PIECES, Material, plan};
use crate::engine::Position;
use crate::store::egdb::{self as files, BuildObserver, PairReport, Phase};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Arguments of `crossboard egdb`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    action: Action,
    /// The database folder (default: the data folder's `egdb`, see `crossboard config --paths`).
    #[arg(long, global = true, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Build the databases by retrograde analysis (resumable: a restarted build carries on),
    /// then verify them.
    Build {
        /// Up to this many pieces (2-6). 5: about 150 million positions, 36 MiB, under a
        /// minute on two cores; 6: 2.7 billion positions, 648 MiB, about 8 minutes on two idle
        /// cores, 670 MB of memory.
        #[arg(long, default_value_t = 5)]
        pieces: u32,
    },
    /// Check every position of the databases on disk against its successors.
    Verify {
        /// Up to this many pieces (default: what was built).
        #[arg(long)]
        pieces: Option<u32>,
    },
    /// What is in the folder: slices, positions, size on disk.
    Status,
    /// The database value of a position (FEN) and of each of its moves.
    Probe {
        /// The position, e.g. `W:WK19,K23:BK28,12`.
        fen: String,
    },
}

/// The databases the engine probes: those of `dir` (default: the data folder's), when at least
/// every 2-piece slice is there; damaged files are named on stderr and left out, at once or
/// when a probe first finds a damaged block.
pub(super) fn for_engine(dir: Option<&Path>) -> Option<Arc<Egdb>> {
    let loaded = match dir {
        Some(d) => files::load(d),
        None => files::load_default(),
    };
    let mut db = reporting(loaded, "endgame databases");
    db.on_damage(Box::new(|d| {
        errln!("endgame databases: {d}; {REBUILD}");
    }));
    (db.complete_pieces() > 0).then(|| Arc::new(db))
}

/// What to do about a damaged slice file.
const REBUILD: &str = "`crossboard egdb build` rebuilds it";

/// The databases loaded, once their problems and warnings are written on stderr after `label`.
fn reporting(loaded: files::Loaded, label: &str) -> Egdb {
    for p in &loaded.problems {
        errln!("{label}: {p}");
    }
    for w in &loaded.warnings {
        errln!("{label}: {w}");
    }
    loaded.db
}

/// `up to N pieces` or `none`, for the lines that say what an analysis probed.
pub(super) fn describe(egdb: Option<&Arc<Egdb>>) -> String {
    match egdb {
        Some(db) => format!("up to {} pieces", db.complete_pieces()),
        None => "none".to_string(),
    }
}

/// Run `egdb`.
pub(super) fn run(args: Args) -> CliResult {
    let dir = match args.dir {
        Some(d) => d,
        None => files::default_egdb_dir().ok_or("no data folder known (no home directory)")?,
    };
    match args.action {
        Action::Build { pieces } => build(&dir, pieces),
        Action::Verify { pieces } => verify(&dir, pieces),
        Action::Status => status(&dir),
        Action::Probe { fen } => probe(&dir, &fen),
    }
}

/// A progress bar on standard error, one per phase: percent, slices done of all, positions
/// solved, the rate, the time so far and the estimate; a line per pair built with its times.
struct Bar {
    bar: Mutex<ProgressBar>,
    started: Instant,
    /// Positions of the pairs built in this run, for the rate.
    built: AtomicU64,
}

impl Bar {
    fn new() -> Bar {
        Bar {
            bar: Mutex::new(ProgressBar::hidden()),
            started: Instant::now(),
            built: AtomicU64::new(0),
        }
    }

    fn finish(&self) {
        if let Ok(b) = self.bar.lock() {
            b.finish();
        }
    }
}

impl BuildObserver for Bar {
    fn phase(&self, phase: Phase, total: u64) {
        let name = match phase {
            Phase::Build => "build ",
            Phase::Verify => "verify",
        };
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template(&format!(
            "{name} [{{bar:30}}] {{percent:>3}}% {{msg}} {{elapsed}} (eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        if let Ok(mut b) = self.bar.lock() {
            b.finish();
            *b = bar;
        }
    }

    fn advance(&self, n: u64) {
        if let Ok(b) = self.bar.lock() {
            b.inc(n);
        }
    }

    fn slice(&self, material: Material, found: bool) {
        if let Ok(b) = self.bar.lock() {
            b.set_message(format!(
                "{material}{}",
                if found { " (on disk)" } else { "" }
            ));
        }
    }

    fn pair(&self, r: &PairReport) {
        let built = if r.found {
            self.built.load(Ordering::Relaxed)
        } else {
            self.built.fetch_add(r.positions, Ordering::Relaxed) + r.positions
        };
        let rate = built as f64 / self.started.elapsed().as_secs_f64().max(1e-3) / 1e6;
        let Ok(b) = self.bar.lock() else {
            return;
        };
        if !r.found {
            let line = format!(
                "{:<12} {:>11} positions: solved in {:.1} s, verified in {:.1} s",
                r.material.to_string(),
                r.positions,
                r.solve_secs,
                r.verify_secs
            );
            // A hidden bar (standard error not a terminal) prints nothing: the line goes as is.
            if b.is_hidden() {
                errln!("{line}");
            } else {
                b.println(line);
            }
        }
        b.set_message(format!(
            "slices {}/{}, {:.2} M positions/s solved and verified",
            r.slices_done, r.slices_total, rate
        ));
    }
}

fn build(dir: &std::path::Path, pieces: u32) -> CliResult {
    if !(2..=MAX_PIECES).contains(&pieces) {
        return Err(format!("--pieces must be between 2 and {MAX_PIECES}, not {pieces}").into());
    }
    let p = plan(pieces);
    outln!(
        "building endgame databases up to {pieces} pieces in {}: {} slices, {} positions, {:.1} MiB",
        dir.display(),
        p.slices().count(),
        p.positions(),
        p.slices()
            .map(|m| crate::egdb::table_len(m.size()))
            .sum::<u64>() as f64
            / (1024.0 * 1024.0)
    )?;
    let bar = Bar::new();
    let wall = Instant::now();
    let cpu = super::cpu_seconds();
    let result = files::build(dir, pieces, &bar);
    bar.finish();
    let built = result?;
    let cpu = match (cpu, super::cpu_seconds()) {
        (Some(a), Some(b)) => format!(", {:.1} s CPU", b - a),
        _ => String::new(),
    };
    outln!(
        "done: {} slices solved, {} found on disk; {} positions verified; {:.1} MiB on disk; \
         {:.1} s wall{cpu}",
        built.solved,
        built.found,
        built.verified,
        built.disk_bytes as f64 / (1024.0 * 1024.0),
        wall.elapsed().as_secs_f64()
    )?;
    Ok(())
}

fn verify(dir: &std::path::Path, pieces: Option<u32>) -> CliResult {
    let pieces = pieces.unwrap_or_else(|| files::verified_pieces(dir));
    let db = reporting(files::load(dir), "crossboard");
    // First every block against its checksum: damage on disk is told apart from wrong values.
    let damaged = db.check_all();
    for d in &damaged {
        errln!("crossboard: {d}");
    }
    if !damaged.is_empty() {
        return Err(format!(
            "verification failed: {}; {}",
            damaged_files(damaged.len()),
            rebuild_them(damaged.len())
        )
        .into());
    }
    let have = db.complete_pieces();
    if pieces < 2 || have < pieces {
        return Err(format!(
            "{}: the databases up to {} pieces are not all there (complete up to {have}); \
             run `crossboard egdb build`",
            dir.display(),
            pieces.max(2)
        )
        .into());
    }
    let bar = Bar::new();
    let t = Instant::now();
    let report = files::verify(&db, pieces, &bar);
    bar.finish();
    if report.mismatches > 0 {
        for m in &report.examples {
            errln!(
                "  {} index {}: {} stored {}, successors say {:?}",
                m.material,
                m.index,
                m.fen,
                m.stored,
                m.expected
            );
        }
        return Err(format!(
            "verification failed: {} of {} positions disagree with their successors",
            report.mismatches, report.checked
        )
        .into());
    }
    outln!(
        "verified: {} positions up to {pieces} pieces agree with their successors ({:.1} s)",
        report.checked,
        t.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `N slice file(s) fail their checksums (damaged on disk, named above)`.
fn damaged_files(n: usize) -> String {
    if n == 1 {
        "1 slice file fails its checksum (damaged on disk, named above)".into()
    } else {
        format!("{n} slice files fail their checksums (damaged on disk, named above)")
    }
}

/// What to do about `n` damaged slice files.
fn rebuild_them(n: usize) -> &'static str {
    if n == 1 {
        REBUILD
    } else {
        "`crossboard egdb build` rebuilds them"
    }
}

fn status(dir: &std::path::Path) -> CliResult {
    let db = reporting(files::load(dir), "crossboard");
    outln!("# folder: {}", dir.display())?;
    for pieces in 2..=MAX_PIECES {
        let slices: Vec<Material> = crate::egdb::materials_with(pieces).collect();
        let present = slices.iter().filter(|m| db.has(**m)).count();
        let bytes: u64 = slices
            .iter()
            .filter(|m| db.has(**m))
            .map(|m| crate::egdb::table_len(m.size()))
            .sum();
        outln!(
            "{pieces} pieces: {present}/{} slices, {:.1} MiB",
            slices.len(),
            bytes as f64 / (1024.0 * 1024.0)
        )?;
    }
    outln!(
        "complete up to {} pieces; verified up to {}",
        db.complete_pieces(),
        files::verified_pieces(dir)
    )?;
    Ok(())
}

/// Print the database values of a position and of its moves. A slice file found damaged, when
/// opened or by a probe, is named on stderr and the command fails: what is printed is then
/// "not in the databases" where that file was needed, never a value read from it.
fn probe(dir: &std::path::Path, fen: &str) -> CliResult {
    let pos = Position::from_fen(fen)?;
    let loaded = files::load(dir);
    let refused = loaded.problems.len();
    let db = reporting(loaded, "crossboard");
    let show = |p: &Position| db.probe(p).map_or("not in the databases", |v| v.name());
    outln!(
        "{}: {} for {} to move",
        pos.to_fen(),
        show(&pos),
        pos.turn()
    )?;
    for mv in pos.distinct_moves() {
        let after = pos.after(&mv);
        let v = db.probe(&after).map(|v| v.negate());
        outln!("  {mv}: {}", v.map_or("not in the databases", |v| v.name()))?;
    }
    let damaged = db.damage();
    for d in &damaged {
        errln!("crossboard: {d}");
    }
    let n = refused + damaged.len();
    if n > 0 {
        return Err(format!(
            "{}: {} damaged (named above): {}",
            dir.display(),
            if n == 1 {
                "1 slice file is".to_string()
            } else {
                format!("{n} slice files are")
            },
            rebuild_them(n)
        )
        .into());
    }
    Ok(())
}
