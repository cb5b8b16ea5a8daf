//! `crossboard engine-match`: the engine plays drawn ballots from both sides, against another
//! level or against any Hub engine (`--hub COMMAND`), in any of the games (`--game pool`,
//! `huffing`, `losing`; English by default); the games are saved as PDN, like any other match
//! (for directors preparing events, and to measure strength). Games run in parallel, one per
//! core by default ([`super::match_games`]); the end report gives the Elo difference with its
//! interval over game pairs, and `--sprt ELO0 ELO1` stops the match as soon as a sequential
//! test can tell (see [`crate::search::sprt`]).

use super::CliResult;
use super::match_games::{Builtin, Plan, Played, Side, Spec, play_all};
use crate::engine::Rules;
use crate::openings::{self, DrawMode, DrawSettings, Opening, OpeningError, System};
use crate::search::selfplay::{EngineGame, MoveLimit};
use crate::search::sprt::{Hypothesis, Sprt};
use crate::search::{
    Book, Evaluation, Level, MAX_DEPTH, MAX_HASH_MB, MAX_MOVE_MS, MAX_THREADS, Options,
};
use crate::store::{PdnGame, PdnResult, write_pdn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Ballots played without `--sprt` unless `--ballots` says.
const DEFAULT_BALLOTS: u32 = 5;
/// The most ballots an SPRT plays unless `--ballots` says (20,000 games).
const DEFAULT_SPRT_BALLOTS: u32 = 10_000;
/// Exit status when the test accepts H0.
pub(super) const EXIT_H0: u8 = 3;
/// Exit status when the test reaches the ballot limit undecided.
pub(super) const EXIT_UNDECIDED: u8 = 4;

/// Arguments of `crossboard engine-match`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Number of ballots; each is played twice, colours reversed (default 5; with --sprt the
    /// most the test plays, default 10000).
    #[arg(long, visible_alias = "max-pairs")]
    ballots: Option<u32>,
    /// Stop by a sequential probability ratio test of H0: the first engine is ELO0 logistic
    /// Elo stronger, against H1: ELO1 (e.g. `--sprt 0 10`), over game pairs.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// The SPRT's false-positive rate (accepting H1 when H0 holds).
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// The SPRT's false-negative rate (accepting H0 when H1 holds).
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// A progress line (results, Elo, LLR) every this many game pairs.
    #[arg(long, default_value_t = 10)]
    report_every: u64,
    /// Seed of the ballot draw and of the levels' random choices (a fresh one is printed when
    /// omitted). A node-limited match is replayed exactly from its seed; a timed one is not.
    #[arg(long)]
    seed: Option<u64>,
    /// The PDN file to write (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// The game: english, pool, huffing or losing (the ballots are drawn and played under
    /// its rules).
    #[arg(long, default_value = "english")]
    game: Rules,
    /// Opening system to draw from.
    #[arg(long, default_value = "eleven-man")]
    system: System,
    /// faithful (as the deck does it) or uniform (over distinct positions).
    #[arg(long, default_value = "faithful")]
    mode: DrawMode,
    /// Redraw ballots that lose a man at once.
    #[arg(long)]
    exclude_man_down: bool,
    /// Redraw 11-man positions KingsRow classes lost.
    #[arg(long)]
    exclude_lost: bool,
    /// Level of the first engine: beginner, casual, club, expert or master.
    #[arg(long, default_value = "master")]
    level: Level,
    /// The first engine plays from this opening book where it has the position
    /// (docs/opening-book.md; English only).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// The second built-in engine plays from this opening book.
    #[arg(long, value_name = "FILE", conflicts_with = "hub")]
    opponent_book: Option<PathBuf>,
    /// Level of the second engine (default: the same as --level).
    #[arg(long, conflicts_with = "hub")]
    opponent: Option<Level>,
    /// The second engine is this Hub-protocol program (a command line, e.g. `"./scan hub"`).
    #[arg(long, value_name = "COMMAND")]
    hub: Option<String>,
    /// Thinking time per move, milliseconds (on average; the search stops by twice that).
    #[arg(long, default_value_t = 100)]
    ms: u64,
    /// Node limit per move instead of time: the match is then reproducible from its seed.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth limit per move (on top of the time or nodes).
    #[arg(long)]
    depth: Option<u32>,
    /// Thinking time of the second engine, ms (default: --ms).
    #[arg(long)]
    opponent_ms: Option<u64>,
    /// Node limit of the second engine (default: --nodes).
    #[arg(long)]
    opponent_nodes: Option<u64>,
    /// Depth limit of the second engine (default: --depth).
    #[arg(long)]
    opponent_depth: Option<u32>,
    /// Ply cap per game; a game reaching it is adjudicated a draw.
    #[arg(long, default_value_t = crate::search::DEFAULT_MAX_PLIES)]
    max_plies: usize,
    /// Games played at once, one per worker thread, both engines of a game on its worker
    /// (default: one per core).
    #[arg(long, visible_alias = "jobs")]
    concurrency: Option<usize>,
    /// Search threads of each built-in engine.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table of each built-in engine, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The endgame databases the built-in engines probe (default: the data folder's, when
    /// built).
    #[arg(long, value_name = "DIR", conflicts_with = "no_egdb")]
    egdb: Option<PathBuf>,
    /// The built-in engines probe no endgame databases.
    #[arg(long)]
    no_egdb: bool,
    /// The built-in engines' evaluation of English draughts: patterns (the pattern tables and
    /// the linear terms) or linear (the terms of weights.rs alone; the self-play games the
    /// tables are fitted to are played with it).
    #[arg(long, default_value = "patterns", value_parser = ["patterns", "linear"])]
    eval: String,
}

/// Refuse a thinking time, depth, table or thread count past the engine's bounds.
fn check_bounds(args: &Args) -> Result<(), String> {
    use super::in_range;
    for (flag, ms) in [("--ms", Some(args.ms)), ("--opponent-ms", args.opponent_ms)] {
        if let Some(ms) = ms {
            in_range(flag, ms, 1..=MAX_MOVE_MS)?;
        }
    }
    for (flag, depth) in [
        ("--depth", args.depth),
        ("--opponent-depth", args.opponent_depth),
    ] {
        if let Some(depth) = depth {
            in_range(flag, depth, 1..=MAX_DEPTH)?;
        }
    }
    in_range("--threads", args.threads, 1..=MAX_THREADS)?;
    in_range("--hash", args.hash, 1..=MAX_HASH_MB)?;
    Ok(())
}

/// Run `engine-match`.
pub(super) fn run(args: Args) -> CliResult {
    check_bounds(&args)?;
    let sprt = sprt_of(&args)?;
    let seed = args.seed.unwrap_or_else(|| rand::rng().next_u64());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = Side::Builtin(args.level, read_book(args.book.as_deref(), args.game)?);
    let second = opponent(&args)?;
    let (limit, opponent_limit) = limits(&args);
    let egdb = if args.no_egdb {
        None
    } else {
        super::egdb::for_engine(args.egdb.as_deref())
    };
    let builtin = Builtin {
        options: Options {
            threads: args.threads,
            hash_mb: args.hash,
            eval: if args.eval == "linear" {
                Evaluation::Linear
            } else {
                Evaluation::Patterns
            },
            ..Options::default()
        },
        egdb: egdb.clone(),
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let ballots = ballot_count(&args, sprt.as_ref());
    errln!(
        "engine match: {ballots} ballots ({}), {} ({}) vs {} ({}), {concurrency} games at once, seed {seed}, endgame databases: {}",
        args.system.title(),
        side_text(&first),
        limit_text(&limit),
        side_text(&second),
        limit_text(&opponent_limit),
        super::egdb::describe(egdb.as_ref()),
    );
    errln!("game: {}", args.game.name());
    if let Some(test) = &sprt {
        errln!("{}", sprt_title(test));
    }
    let specs = draw_specs(
        &args,
        ballots,
        [(first, limit), (second, opponent_limit)],
        &mut rng,
    )?;
    let plan = Plan {
        builtin: &builtin,
        concurrency,
        max_plies: args.max_plies,
        sprt,
        report_every: args.report_every,
    };
    let played = play_all(&specs, &plan)?;
    let date = chrono::Local::now().format("%Y.%m.%d").to_string();
    let records: Vec<PdnGame> = specs
        .iter()
        .zip(&played.games)
        .map(|(spec, g)| pdn_record(spec, g, &date))
        .collect();
    crate::store::write_atomic(&args.out, write_pdn(&records).as_bytes())?;
    outln!("{}", summary(&played, &args.out))?;
    let Some(test) = &sprt else { return Ok(()) };
    outln!("{}", verdict(test, &played))?;
    super::stdout::flush()?;
    match played.decision {
        Some(Hypothesis::H1) => Ok(()),
        Some(Hypothesis::H0) => Err(super::ExitWith(EXIT_H0).into()),
        None => Err(super::ExitWith(EXIT_UNDECIDED).into()),
    }
}

/// The test `--sprt`, `--alpha` and `--beta` ask for.
fn sprt_of(args: &Args) -> Result<Option<Sprt>, String> {
    let Some(bounds) = &args.sprt else {
        return Ok(None);
    };
    let &[elo0, elo1] = bounds.as_slice() else {
        return Err("--sprt takes two Elo figures: ELO0 ELO1".into());
    };
    Sprt::new(elo0, elo1, args.alpha, args.beta)
        .map(Some)
        .map_err(|e| format!("--sprt: {e}"))
}

/// The ballots to draw: `--ballots`, else 5, or the SPRT's limit.
fn ballot_count(args: &Args, sprt: Option<&Sprt>) -> u32 {
    args.ballots.unwrap_or(if sprt.is_some() {
        DEFAULT_SPRT_BALLOTS
    } else {
        DEFAULT_BALLOTS
    })
}

/// The test in words.
fn sprt_title(test: &Sprt) -> String {
    let (elo0, elo1) = test.elo_bounds();
    let (alpha, beta) = test.rates();
    let (lower, upper) = test.llr_bounds();
    format!(
        "SPRT H0: Elo {elo0} against H1: Elo {elo1} (logistic Elo over game pairs, alpha {alpha}, beta {beta}; LLR bounds {lower:.2}, {upper:.2})"
    )
}

/// The test's decision in a line.
fn verdict(test: &Sprt, played: &Played) -> String {
    let llr = test.llr(&played.tally.pairs);
    let (lower, upper) = test.llr_bounds();
    let pairs = played.tally.pairs.pairs();
    let (elo0, elo1) = test.elo_bounds();
    let head = format!("SPRT [{elo0}, {elo1}]");
    match played.decision {
        Some(Hypothesis::H1) => {
            format!("{head}: H1 accepted after {pairs} pairs (LLR {llr:.2} >= {upper:.2})")
        }
        Some(Hypothesis::H0) => {
            format!("{head}: H0 accepted after {pairs} pairs (LLR {llr:.2} <= {lower:.2})")
        }
        None => format!(
            "{head}: no decision: stopped at the ballot limit after {pairs} pairs (LLR {llr:.2}, bounds {lower:.2}, {upper:.2})"
        ),
    }
}

/// The opening book at `path` (none without one), read whole and checked.
pub(super) fn read_book(path: Option<&Path>, game: Rules) -> Result<Option<Arc<Book>>, String> {
    let Some(path) = path else { return Ok(None) };
    if game != Rules::English {
        return Err(format!(
            "{}: an opening book is for English draughts, not {}",
            path.display(),
            game.name()
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let book = Book::parse(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
    Ok(Some(Arc::new(book)))
}

/// The second engine: a Hub program (English only), or a level.
fn opponent(args: &Args) -> Result<Side, String> {
    match (&args.hub, args.opponent) {
        (Some(_), _) if args.game != Rules::English => Err(format!(
            "--hub plays English draughts only (the Hub protocol names no other game), not {}",
            args.game.key()
        )),
        (Some(cmd), _) => Ok(Side::Hub(cmd.clone())),
        (None, level) => Ok(Side::Builtin(
            level.unwrap_or(args.level),
            read_book(args.opponent_book.as_deref(), args.game)?,
        )),
    }
}

/// The limits per move of the first engine and of the second: time unless nodes are given.
fn limits(args: &Args) -> (MoveLimit, MoveLimit) {
    let limit = MoveLimit {
        time: args
            .nodes
            .is_none()
            .then(|| Duration::from_millis(args.ms.max(1))),
        nodes: args.nodes,
        depth: args.depth,
    };
    let opponent_nodes = args.opponent_nodes.or(args.nodes);
    let opponent_limit = MoveLimit {
        time: opponent_nodes
            .is_none()
            .then(|| Duration::from_millis(args.opponent_ms.unwrap_or(args.ms).max(1))),
        nodes: opponent_nodes,
        depth: args.opponent_depth.or(args.depth),
    };
    (limit, opponent_limit)
}

/// Every ballot drawn first (in order, from the seed), each played twice with the `sides`
/// (the first engine and its limit, the second's) swapped; the games can then be played in
/// any order.
fn draw_specs(
    args: &Args,
    ballots: u32,
    sides: [(Side, MoveLimit); 2],
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Spec>, Box<dyn std::error::Error>> {
    let settings = DrawSettings {
        rules: args.game,
        system: args.system,
        mode: args.mode,
        exclude_man_down: args.exclude_man_down,
        exclude_kingsrow_lost: args.exclude_lost,
        no_repeat: true,
        ..DrawSettings::default()
    };
    let mut drawn: Vec<Opening> = Vec::new();
    let mut specs = Vec::new();
    for round in 1..=ballots {
        let opening = match openings::draw(&settings, &drawn, rng) {
            // Every position played: a longer match starts the set over.
            Err(OpeningError::NoneLeft { .. }) if !drawn.is_empty() => {
                drawn.clear();
                openings::draw(&settings, &drawn, rng)?
            }
            d => d?,
        }
        .opening;
        drawn.push(opening.clone());
        let [a, b] = sides.clone();
        for (leg, sides) in [[a.clone(), b.clone()], [b, a]].into_iter().enumerate() {
            specs.push(Spec {
                game: args.game,
                round,
                leg,
                opening: opening.clone(),
                sides,
                seed: rng.next_u64(),
            });
        }
    }
    Ok(specs)
}

fn side_text(side: &Side) -> String {
    match side {
        Side::Builtin(level, None) => format!("crossboard {level}"),
        Side::Builtin(level, Some(book)) => {
            format!("crossboard {level} with a book of {} positions", book.len())
        }
        Side::Hub(cmd) => format!("Hub engine `{cmd}`"),
    }
}

fn limit_text(limit: &MoveLimit) -> String {
    let mut parts = Vec::new();
    if let Some(t) = limit.time {
        parts.push(format!("{} ms per move", t.as_millis()));
    }
    if let Some(n) = limit.nodes {
        parts.push(format!("{n} nodes per move"));
    }
    if let Some(d) = limit.depth {
        parts.push(format!("depth {d}"));
    }
    parts.join(", ")
}

/// The `Clock` tag: the limit per move in words, each side's when they differ.
fn clock_tag(spec: &Spec) -> String {
    let [(_, red), (_, white)] = &spec.sides;
    let (red, white) = (limit_text(red), limit_text(white));
    if red == white {
        red
    } else {
        format!("Red {red}; White {white}")
    }
}

fn pdn_record(spec: &Spec, g: &EngineGame, date: &str) -> PdnGame {
    let mut pdn = PdnGame::from_game(&g.game)
        .with_tag("Event", "crossboard engine match")
        .with_tag("Site", "crossboard")
        .with_tag("Date", date)
        .with_tag("Round", format!("{}.{}", spec.round, spec.leg + 1))
        .with_tag("Black", g.red.clone())
        .with_tag("White", g.white.clone())
        .with_tag("Clock", clock_tag(spec))
        .with_opening(&spec.opening)
        .with_tag("Termination", g.reason.text());
    pdn.result = PdnResult::from(Some(g.outcome));
    pdn
}

/// The end report: each side's points and record, the Elo difference over pairs, each
/// side's time and depth.
fn summary(played: &Played, out: &std::path::Path) -> String {
    let t = &played.tally;
    let names = match played.games.first() {
        Some(g) if g.red != g.white => [g.red.clone(), g.white.clone()],
        Some(g) => [
            format!("{} (first)", g.red),
            format!("{} (second)", g.white),
        ],
        None => ["first".to_string(), "second".to_string()],
    };
    let [a, b] = &names;
    let [w, d, l] = t.wdl;
    let games = t.games();
    let mut text = format!(
        "{a} {} - {b} {} over {games} games: {a} +{w} ={d} -{l} ({:.1} %)",
        t.points(),
        games as f64 - t.points(),
        100.0 * t.points() / games.max(1) as f64
    );
    if let Some(elo) = t.pairs.elo() {
        text.push_str(&format!(
            "\nElo of {a}: {elo}, logistic, over game pairs: {} pairs, pentanomial {}",
            t.pairs.pairs(),
            t.pairs
        ));
    }
    for (name, s) in names.iter().zip(&t.stats) {
        text.push_str(&format!(
            "\n{name}: {:.1} ms per move, mean depth {:.1}",
            s.mean_ms(),
            s.mean_depth()
        ));
    }
    text.push_str(&format!("\nwritten to {}", out.display()));
    text
}
