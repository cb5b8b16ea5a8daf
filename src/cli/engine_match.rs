//! `crossboard engine-match`: the engine plays drawn ballots from both sides, against another
//! level or against any Hub engine (`--hub COMMAND`), in any of the games (`--game pool`,
//! `huffing`, `losing`; English by default); the games are saved as PDN, like any other match
//! (for directors preparing events, and to measure strength). Games run in parallel, one per
//! core by default.

use super::CliResult;
use super::hub_client::HubEngine;
use crate::egdb::Egdb;
use crate::engine::{Color, Game, Outcome, Rules};
use crate::openings::{self, DrawMode, DrawSettings, Opening, System};
use crate::search::selfplay::{
    EngineGame, EnginePlayer, MoveLimit, Player, SideStats, play_game, points_for,
};
use crate::search::{Evaluation, Level, MAX_DEPTH, MAX_HASH_MB, MAX_MOVE_MS, MAX_THREADS, Options};
use crate::store::{PdnGame, PdnResult, write_pdn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Arguments of `crossboard engine-match`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Number of ballots; each is played twice, colours reversed.
    #[arg(long, default_value_t = 5)]
    ballots: u32,
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
    /// Games played at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
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

/// Who plays one side.
#[derive(Clone, Debug)]
enum Side {
    Builtin(Level),
    Hub(String),
}

struct Spec {
    /// The game played.
    game: Rules,
    round: u32,
    leg: usize,
    opening: Opening,
    /// Red's and White's players and their limits.
    sides: [(Side, MoveLimit); 2],
    seed: u64,
}

/// What every built-in player is built from.
#[derive(Clone)]
struct Builtin {
    options: Options,
    egdb: Option<Arc<Egdb>>,
}

fn player(side: &Side, builtin: &Builtin, seed: u64) -> Result<Box<dyn Player>, String> {
    Ok(match side {
        Side::Builtin(level) => Box::new(
            EnginePlayer::new(*level, builtin.options, seed).with_egdb(builtin.egdb.clone()),
        ),
        Side::Hub(command) => Box::new(HubEngine::start(command, &[])?),
    })
}

fn play_one(spec: &Spec, builtin: &Builtin, max_plies: usize) -> EngineGame {
    let stop = Arc::new(AtomicBool::new(false));
    let mut game = Game::new(spec.game, spec.opening.start);
    for mv in &spec.opening.set_moves {
        // Ballot moves were checked when the tables were built.
        let _ = game.play(mv);
    }
    let players: Result<Vec<_>, String> = spec
        .sides
        .iter()
        .enumerate()
        .map(|(i, (s, _))| player(s, builtin, spec.seed.wrapping_add(i as u64)))
        .collect();
    match players {
        Ok(mut p) => {
            let (red, white) = p.split_at_mut(1);
            let limits = [spec.sides[0].1, spec.sides[1].1];
            play_game(
                game,
                [red[0].as_mut(), white[0].as_mut()],
                limits,
                max_plies,
                &stop,
            )
        }
        Err(e) => EngineGame {
            game,
            outcome: Outcome::Draw,
            reason: crate::search::EndReason::Stopped,
            red: String::new(),
            white: String::new(),
            stats: [SideStats::default(); 2],
            error: Some(e),
        },
    }
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
    let seed = args.seed.unwrap_or_else(|| rand::rng().next_u64());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = Side::Builtin(args.level);
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
    let jobs = args.jobs.unwrap_or_else(rayon::current_num_threads).max(1);
    errln!(
        "engine match: {} ballots ({}), {} ({}) vs {} ({}), {jobs} games at once, seed {seed}, endgame databases: {}",
        args.ballots,
        args.system.title(),
        side_text(&first),
        limit_text(&limit),
        side_text(&second),
        limit_text(&opponent_limit),
        super::egdb::describe(egdb.as_ref()),
    );
    errln!("game: {}", args.game.name());
    let specs = draw_specs(&args, [(first, limit), (second, opponent_limit)], &mut rng)?;
    let games = play_all(&specs, &builtin, jobs, args.max_plies)?;
    let date = chrono::Local::now().format("%Y.%m.%d").to_string();
    let records: Vec<PdnGame> = specs
        .iter()
        .zip(&games)
        .map(|(spec, g)| pdn_record(spec, g, &date))
        .collect();
    crate::store::write_atomic(&args.out, write_pdn(&records).as_bytes())?;
    outln!("{}", summary(&games, &args.out))?;
    Ok(())
}

/// The second engine: a Hub program (English only), or a level.
fn opponent(args: &Args) -> Result<Side, String> {
    match (&args.hub, args.opponent) {
        (Some(_), _) if args.game != Rules::English => Err(format!(
            "--hub plays English draughts only (the Hub protocol names no other game), not {}",
            args.game.key()
        )),
        (Some(cmd), _) => Ok(Side::Hub(cmd.clone())),
        (None, level) => Ok(Side::Builtin(level.unwrap_or(args.level))),
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
    for round in 1..=args.ballots {
        let opening = openings::draw(&settings, &drawn, rng)?.opening;
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

/// The games, `jobs` at once, each reported as it ends; an engine that could not start is an
/// error.
fn play_all(
    specs: &[Spec],
    builtin: &Builtin,
    jobs: usize,
    max_plies: usize,
) -> Result<Vec<EngineGame>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("cannot start {jobs} game threads: {e}"))?;
    let games: Vec<EngineGame> = pool.install(|| {
        specs
            .par_iter()
            .map(|spec| {
                let g = play_one(spec, builtin, max_plies);
                errln!("{}", game_line(spec, &g));
                g
            })
            .collect()
    });
    if let Some(e) = games
        .iter()
        .find_map(|g| g.error.as_ref().filter(|_| g.red.is_empty()))
    {
        return Err(e.clone());
    }
    Ok(games)
}

fn side_text(side: &Side) -> String {
    match side {
        Side::Builtin(level) => format!("crossboard {level}"),
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

fn game_line(spec: &Spec, g: &EngineGame) -> String {
    let result = PdnResult::from(Some(g.outcome));
    let mut line = format!(
        "{}.{}: {} ({}) {} - {}: {result} ({}, {} plies)",
        spec.round,
        spec.leg + 1,
        spec.opening.reference(),
        spec.opening.name,
        g.red,
        g.white,
        g.reason.text(),
        g.game.moves().len()
    );
    if let Some(e) = &g.error {
        line.push_str(&format!(" [{e}]"));
    }
    line
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

/// Wins, draws and losses of `name`.
fn record(name: &str, games: &[EngineGame]) -> (usize, usize, usize) {
    let mut wdl = (0, 0, 0);
    for g in games.iter().filter(|g| g.red == name || g.white == name) {
        match g.outcome {
            Outcome::Draw => wdl.1 += 1,
            Outcome::Win(Color::Red) if g.red == name => wdl.0 += 1,
            Outcome::Win(Color::White) if g.white == name => wdl.0 += 1,
            Outcome::Win(_) => wdl.2 += 1,
        }
    }
    wdl
}

/// Time and depth of `name` over all its games.
fn stats_of(name: &str, games: &[EngineGame]) -> SideStats {
    let mut s = SideStats::default();
    for g in games {
        if g.red == name {
            s.add(&g.stats[0]);
        }
        if g.white == name {
            s.add(&g.stats[1]);
        }
    }
    s
}

fn summary(games: &[EngineGame], out: &std::path::Path) -> String {
    let mut names: Vec<&str> = Vec::new();
    for g in games {
        for n in [g.red.as_str(), g.white.as_str()] {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    let draws = games.iter().filter(|g| g.outcome == Outcome::Draw).count();
    let mut text = if names.len() == 2 {
        let (a, b) = (names[0], names[1]);
        let (w, d, l) = record(a, games);
        format!(
            "{a} {} - {b} {} over {} games: {a} +{w} ={d} -{l} ({:.1} %)",
            points_for(a, games),
            points_for(b, games),
            games.len(),
            100.0 * points_for(a, games) / games.len().max(1) as f64
        )
    } else {
        format!("{} games, {draws} drawn", games.len())
    };
    for n in names {
        let s = stats_of(n, games);
        text.push_str(&format!(
            "\n{n}: {:.1} ms per move, mean depth {:.1}",
            s.mean_ms(),
            s.mean_depth()
        ));
    }
    text.push_str(&format!("\nwritten to {}", out.display()));
    text
}
