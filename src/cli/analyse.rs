//! `crossboard analyse FILE.pdn [--out REPORT.html] [--pdn OUT.pdn] [--depth N] [--time MS]
//! [--engine NAME | --hub COMMAND]`: every game of a PDN file analysed move by move with the
//! engine (crossboard's, or a Hub engine), as the review screen analyses one
//! ([`crate::search::analyse_game`], [`crate::hub::review_game`]; both mark by
//! [`crate::search::review_moves`]): the marked moves listed, the games written back annotated
//! (marks and the better moves as comments), and a report to read or print.

use super::CliResult;
use super::pdn::read_file;
use crate::engine::{Prelude, Rules};
use crate::hub::{HubEngine, review_game};
use crate::publish::{AnalysedGame, Paper, analysis_report};
use crate::search::{DEFAULT_GAME_DEPTH, MAX_DEPTH, MAX_MOVE_MS, MAX_THREADS};
use crate::search::{Engine, GameLimits, MoveReview, Options, analyse_game};
use crate::store::{HubEngineConfig, PdnGame, check_output, move_label, write_atomic, write_pdn};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
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
    /// Analyse with this Hub engine of the config file (`[engines.NAME]`) instead of
    /// crossboard's own: games one after the other, its own options set its threads and
    /// databases.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["hub", "threads", "egdb", "no_egdb"])]
    engine: Option<String>,
    /// Analyse with this Hub-protocol program, a command line (e.g. `"./scan hub"`), as
    /// `engine-match --hub` plays one.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["threads", "egdb", "no_egdb"])]
    hub: Option<String>,
    /// The endgame database folder (default: the data folder's, when built).
    #[arg(long, value_name = "DIR", conflicts_with = "no_egdb")]
    egdb: Option<PathBuf>,
    /// Probe no endgame databases.
    #[arg(long)]
    no_egdb: bool,
}

/// What names the input when an output would replace it.
const INPUT: &str = "the PDN file analysed";

/// The config's Hub engines, by name.
pub(super) type Engines = BTreeMap<String, HubEngineConfig>;

/// Run `analyse`; `engines` reads the config's Hub engines (only for `--engine`). Games that
/// cannot be read (or replayed) are named on standard error with their line and the others
/// analysed; the exit status is then 1. A Hub engine that misbehaves stops it before anything
/// is written.
pub(super) fn run(args: &Args, engines: impl FnOnce() -> Result<Engines, String>) -> CliResult {
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
    let mut hub = hub_engine(args, engines)?;
    let mut games = Vec::new();
    let mut bad = 0;
    for (i, r) in read.into_iter().enumerate() {
        match r {
            Ok(g) if hub.is_some() && g.start.rules() != Rules::English => {
                bad += 1;
                errln!(
                    "{file}: game {}: {} is not analysed by a Hub engine (the protocol speaks English draughts only)",
                    i + 1,
                    g.start.rules()
                );
            }
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
    let (reviews, settings) = match &mut hub {
        Some(engine) => {
            let reviews = analyse_with_hub(engine, &games, limits)?;
            let name = crate::search::Player::name(&*engine);
            (
                reviews,
                format!(
                    "{} a position; engine: {name} (Hub protocol)",
                    describe(limits)
                ),
            )
        }
        None => {
            let egdb = if args.no_egdb {
                None
            } else {
                super::egdb::for_engine(args.egdb.as_deref())
            };
            let threads = match args.threads {
                Some(n) => super::in_range("--threads", n, 1..=MAX_THREADS)?,
                None => std::thread::available_parallelism().map_or(1, usize::from),
            };
            let settings = format!(
                "{} a position; endgame databases: {}",
                describe(limits),
                super::egdb::describe(egdb.as_ref())
            );
            (
                analyse_all(&games, limits, threads, egdb.as_ref())?,
                settings,
            )
        }
    };
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

/// The Hub engine asked for (`--engine NAME` of the config, or `--hub COMMAND`), started.
fn hub_engine(
    args: &Args,
    engines: impl FnOnce() -> Result<Engines, String>,
) -> Result<Option<HubEngine>, String> {
    if let Some(command) = &args.hub {
        return HubEngine::start(command, &[]).map(Some);
    }
    let Some(name) = &args.engine else {
        return Ok(None);
    };
    let engines = engines()?;
    let Some(config) = engines.get(name) else {
        let known: Vec<&str> = engines.keys().map(String::as_str).collect();
        return Err(if known.is_empty() {
            format!("--engine {name}: the config file names no engine (add it as [engines.{name}])")
        } else {
            format!(
                "--engine {name}: no such engine in the config file (it has {})",
                known.join(", ")
            )
        });
    };
    let program = config.program(name)?;
    HubEngine::spawn(name, &program, &config.arguments, &config.params()).map(Some)
}

/// A progress bar over `total` positions on standard error (drawn only on a terminal).
fn progress_bar(total: usize) -> ProgressBar {
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "analysing [{bar:30}] {pos}/{len} positions {msg} {elapsed} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// Every game analysed by the Hub engine, one after the other, with the progress bar; what
/// its info lines held that could not be read is named on standard error, each once. The
/// first misbehaviour stops it all, naming the engine.
fn analyse_with_hub(
    engine: &mut HubEngine,
    games: &[(usize, PdnGame)],
    limits: GameLimits,
) -> Result<Vec<Vec<MoveReview>>, String> {
    let bar = progress_bar(games.iter().map(|(_, g)| g.moves.len() + 1).sum());
    let stop = engine.stopper();
    let mut reviews = Vec::new();
    let mut unread: Vec<String> = Vec::new();
    for (_, g) in games {
        let reviewed = review_game(engine, &g.start, &g.moves, limits, &stop, |_| bar.inc(1));
        let reviewed = match reviewed {
            Ok(r) => r,
            Err(e) => {
                bar.finish_and_clear();
                return Err(e);
            }
        };
        for u in reviewed.unread {
            if !unread.contains(&u) {
                unread.push(u);
            }
        }
        reviews.push(reviewed.moves);
    }
    bar.finish_and_clear();
    let name = crate::search::Player::name(&*engine);
    for u in &unread {
        errln!("{name}: an info line not read whole: {u}");
    }
    Ok(reviews)
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
    let bar = progress_bar(games.iter().map(|(_, g)| g.moves.len() + 1).sum());
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
