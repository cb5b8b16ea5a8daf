//! `crossboard analyse FILE.pdn [--out REPORT.html] [--pdn OUT.pdn] [--depth N] [--time MS]`:
//! every game of a PDN file analysed move by move with the engine, as the review screen
//! analyses one ([`crate::search::analyse_game`]): the marked moves listed, the games written
//! back annotated (marks and the better moves as comments), and a report to read or print.

use super::CliResult;
use super::pdn::read_file;
use crate::engine::Prelude;
use crate::publish::{AnalysedGame, Paper, analysis_report};
use crate::search::{DEFAULT_GAME_DEPTH, MAX_DEPTH, MAX_MOVE_MS, MAX_THREADS};
use crate::search::{Engine, GameLimits, MoveReview, Options, analyse_game};
use crate::store::{PdnGame, check_output, move_label, write_atomic, write_pdn};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Arguments of `crossboard analyse`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The PDN file whose games are analysed (never written to).
    #[arg(value_name = "FILE.pdn")]
    file: PathBuf,
    /// Write the report here: HTML to read or print, each game's evaluation graph and marked
    /// moves.
    #[arg(long, value_name = "REPORT.html")]
    out: Option<PathBuf>,
    /// Write the games here annotated: `?!`, `?`, `??` after a move, the better move and its
    /// line as a comment.
    #[arg(long, value_name = "OUT.pdn")]
    pdn: Option<PathBuf>,
    /// Search each position to this depth (default 10, as the review screen; with --time
    /// alone, as deep as the time allows).
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Search each position at most this many milliseconds (the marks may then differ a
    /// little from run to run; a depth alone gives the same marks every time).
    #[arg(long, value_name = "MS")]
    time: Option<u64>,
    /// Games analysed side by side (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// The report's paper: a4 or letter.
    #[arg(long, default_value = "a4")]
    paper: String,
    /// The endgame database folder (default: the data folder's, when built).
    #[arg(long, value_name = "DIR", conflicts_with = "no_egdb")]
    egdb: Option<PathBuf>,
    /// Probe no endgame databases.
    #[arg(long)]
    no_egdb: bool,
}

/// What names the input when an output would replace it.
const INPUT: &str = "the PDN file analysed";

/// Run `analyse`. Games that cannot be read (or replayed) are named on standard error with
/// their line and the others analysed; the exit status is then 1.
pub(super) fn run(args: &Args) -> CliResult {
    let limits = limits(args)?;
    let paper: Paper = args.paper.parse().map_err(|e| format!("--paper: {e}"))?;
    let outputs: Vec<&PathBuf> = args.out.iter().chain(&args.pdn).collect();
    for out in &outputs {
        check_output(out, &args.file, INPUT)?;
    }
    if let [a, b] = outputs.as_slice()
        && crate::store::check_output(a, b, "the other output").is_err()
    {
        return Err("--out and --pdn name the same file: choose two names".into());
    }
    let file = args.file.display().to_string();
    let read = read_file(&args.file)?;
    if read.is_empty() {
        return Err(format!("{file}: no games found").into());
    }
    let mut games = Vec::new();
    let mut bad = 0;
    for (i, r) in read.into_iter().enumerate() {
        match r {
            Ok(g) if g.preludes.iter().any(|p| *p != Prelude::default()) => {
                bad += 1;
                errln!(
                    "{file}: game {}: a huffing game with huffs is not analysed",
                    i + 1
                );
            }
            Ok(g) => games.push((i + 1, g)),
            Err(e) => {
                bad += 1;
                errln!("{file}: {e}");
            }
        }
    }
    let egdb = if args.no_egdb {
        None
    } else {
        super::egdb::for_engine(args.egdb.as_deref())
    };
    let threads = match args.threads {
        Some(n) => super::in_range("--threads", n, 1..=MAX_THREADS)?,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let reviews = analyse_all(&games, limits, threads, egdb.as_ref())?;
    let settings = format!(
        "{} a position; endgame databases: {}",
        describe(limits),
        super::egdb::describe(egdb.as_ref())
    );
    let analysed: Vec<AnalysedGame<'_>> = games
        .iter()
        .zip(&reviews)
        .map(|((number, game), reviewed)| AnalysedGame {
            number: *number,
            game,
            reviewed,
        })
        .collect();
    for g in &analysed {
        print_game(g)?;
    }
    write(args, &analysed, &settings, paper)?;
    if bad > 0 {
        let total = games.len() + bad;
        return Err(format!(
            "{file}: {bad} of {total} games could not be analysed (named above); the others were"
        )
        .into());
    }
    Ok(())
}

/// The search of each position, from `--depth` and `--time`.
fn limits(args: &Args) -> Result<GameLimits, String> {
    let depth = match (args.depth, args.time) {
        (Some(d), _) => Some(super::in_range("--depth", d, 1..=MAX_DEPTH)?),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_GAME_DEPTH),
    };
    let time_ms = match args.time {
        Some(ms) => Some(super::in_range("--time", ms, 1..=MAX_MOVE_MS)?),
        None => None,
    };
    Ok(GameLimits { depth, time_ms })
}

/// `depth 10`, `200 ms`, `depth 12 or 500 ms`.
fn describe(limits: GameLimits) -> String {
    match (limits.depth, limits.time_ms) {
        (Some(d), None) => format!("depth {d}"),
        (None, Some(ms)) => format!("{ms} ms"),
        (Some(d), Some(ms)) => format!("depth {d} or {ms} ms"),
        (None, None) => String::new(),
    }
}

/// Analyse every game on `threads` threads, a game at a time on each (every game from a
/// cleared table: the result is the same whatever the number of threads), with a progress bar
/// over the positions on standard error when it is a terminal.
fn analyse_all(
    games: &[(usize, PdnGame)],
    limits: GameLimits,
    threads: usize,
    egdb: Option<&Arc<crate::egdb::Egdb>>,
) -> Result<Vec<Vec<MoveReview>>, String> {
    use rayon::prelude::*;
    let total: usize = games.iter().map(|(_, g)| g.moves.len() + 1).sum();
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "analysing [{bar:30}] {pos}/{len} positions {msg} {elapsed} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    let reviews = pool.install(|| {
        games
            .par_iter()
            .map_init(
                || {
                    let mut engine = Engine::new(Options::default());
                    engine.set_egdb(egdb.cloned());
                    engine
                },
                |engine, (_, g)| {
                    analyse_game(engine, &g.start, &g.moves, limits, stop.clone(), |_| {
                        bar.inc(1);
                    })
                },
            )
            .collect()
    });
    bar.finish_and_clear();
    Ok(reviews)
}

/// A game's line and its marked moves, with the better moves.
fn print_game(g: &AnalysedGame<'_>) -> CliResult {
    let p = g.game;
    let name = |tag: &str| p.tag(tag).unwrap_or("?").to_string();
    let count = |s: &str| {
        g.reviewed
            .iter()
            .filter(|r| r.mark.is_some_and(|m| m.symbol() == s))
            .count()
    };
    outln!(
        "{:>3}  {} - {}  {}  {} ??  {} ?  {} ?!",
        g.number,
        name("Black"),
        name("White"),
        p.result,
        count("??"),
        count("?"),
        count("?!")
    )?;
    for r in g.reviewed {
        if let (Some(mark), Some(note)) = (r.mark, r.note()) {
            let label = move_label(p.start.turn(), r.ply);
            outln!("     {label} {}{}  {note}", r.played, mark.symbol())?;
        }
    }
    Ok(())
}

/// Write the annotated games and the report asked for.
fn write(args: &Args, analysed: &[AnalysedGame<'_>], settings: &str, paper: Paper) -> CliResult {
    if let Some(path) = &args.pdn {
        let annotator = format!("crossboard, {settings}");
        let games: Vec<PdnGame> = analysed
            .iter()
            .map(|g| {
                let mut game = g.game.clone();
                game.annotate(g.reviewed);
                game.with_tag("Annotator", annotator.as_str())
            })
            .collect();
        write_file(path, &write_pdn(&games))?;
    }
    if let Some(path) = &args.out {
        let title = format!("Games analysed: {}", file_name(&args.file));
        let html = analysis_report(&title, settings, analysed, Some(paper));
        write_file(path, &html)?;
    }
    Ok(())
}

/// Write `text` to `path` atomically and say so.
fn write_file(path: &Path, text: &str) -> CliResult {
    write_atomic(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    outln!("wrote {}", path.display())?;
    Ok(())
}

/// The file's name without its folder.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
