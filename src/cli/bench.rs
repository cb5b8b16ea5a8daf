//! `crossboard bench`: speed figures, printed (never asserted in tests).

use super::{CliResult, cpu_seconds};
use crate::engine::{Position, Rules, perft};
use std::time::Instant;

/// Arguments of `crossboard bench`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// What to measure.
    #[arg(value_enum, default_value = "perft")]
    what: What,
    /// Depth: perft from the start (default 12); search (default 14); analysis (default 8).
    #[arg(long)]
    depth: Option<u32>,
    /// Pieces: endgame databases built in memory up to this many (default 5).
    #[arg(long)]
    pieces: Option<u32>,
    /// Analysis: do not probe the endgame databases of the data folder.
    #[arg(long)]
    no_egdb: bool,
    /// Search: instead of a fixed depth, this many milliseconds a move: depth reached and
    /// time spent.
    #[arg(long)]
    ms: Option<u64>,
    /// Search: switch these features off (comma separated), to measure what each brings.
    #[arg(long, value_enum, value_delimiter = ',')]
    off: Vec<Feature>,
    /// The game for perft: english (default), pool, huffing or losing.
    #[arg(long, default_value = "english")]
    game: Rules,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum What {
    /// Perft from the start position on one thread, bulk counting the last ply.
    Perft,
    /// Alpha-beta search to a fixed depth on a few positions: nodes per second.
    Search,
    /// Engine analysis of all 2,500 11-man positions at a depth: time and agreement with KingsRow.
    Analysis,
    /// Building the opening tables; the man-down check of all 3,136 11-man ballots.
    Openings,
    /// Time per frame of drawing the game screen (TestBackend, 80x24 and 160x50).
    Render,
    /// The match director: apply() over a long scripted 11-man match, and its TOML save.
    Director,
    /// The store: a 40-game match file (bytes a move against PDN, opening it), appending one
    /// event; PDN export and import.
    Store,
    /// Endgame databases: build rate (positions/s, all cores, in memory) and probe rate.
    Egdb,
    /// The tournament desk: a 120-player Swiss round paired, standings, an event opened, the
    /// database check of a 1,000-player registry.
    Event,
    /// The game library: 10,000 games indexed (from nothing, then refreshed), and searched
    /// by each field and by position.
    Library,
    /// An event the size of the 11-Man Nationals published as a static site, then again
    /// with nothing changed.
    Publish,
}

/// A search feature that `bench search --off` switches off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Feature {
    /// Late-move reductions altogether.
    Reductions,
    /// Reductions graded by depth and move number (the fixed one or two plies instead).
    GradedReductions,
    /// Aspiration windows at the root.
    Aspiration,
    /// Counter-moves in the move ordering.
    CounterMoves,
    /// The history penalty of quiet moves that did not cut off.
    HistoryMalus,
    /// ProbCut: quiet nodes far above beta cut after a shallower search confirms it.
    Probcut,
}

/// The default search options less the features in `off`.
fn search_options(off: &[Feature]) -> crate::search::Options {
    let on = |f| !off.contains(&f);
    crate::search::Options {
        reductions: on(Feature::Reductions),
        graded_reductions: on(Feature::GradedReductions),
        aspiration: on(Feature::Aspiration),
        counter_moves: on(Feature::CounterMoves),
        history_malus: on(Feature::HistoryMalus),
        probcut: on(Feature::Probcut),
        ..crate::search::Options::default()
    }
}

/// Run `bench`.
pub(super) fn run(args: Args) -> CliResult {
    if let Some(depth) = args.depth {
        let most = match args.what {
            What::Perft => crate::engine::PERFT_MAX_DEPTH,
            _ => crate::search::MAX_DEPTH,
        };
        super::in_range("--depth", depth, 1..=most)?;
    }
    if let Some(ms) = args.ms {
        super::in_range("--ms", ms, 1..=crate::search::MAX_MOVE_MS)?;
    }
    match args.what {
        What::Perft => bench_perft(args.depth.unwrap_or(12), args.game)?,
        What::Search if args.ms.is_some() => {
            let options = search_options(&args.off);
            for line in crate::search::bench_search_timed(args.ms.unwrap_or(150), options) {
                outln!("{line}")?;
            }
        }
        What::Search => {
            let cpu = cpu_seconds();
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let depth = args.depth.unwrap_or(14);
            let options = search_options(&args.off);
            for line in crate::search::bench_search(depth, cores, options, &cpu_seconds) {
                outln!("{line}")?;
            }
            print_cpu(cpu)?;
        }
        What::Analysis => {
            let depth = args.depth.unwrap_or(crate::search::DEFAULT_BALLOT_DEPTH);
            let egdb = if args.no_egdb {
                None
            } else {
                super::egdb::for_engine(None)
            };
            outln!(
                "endgame databases: {}",
                super::egdb::describe(egdb.as_ref())
            )?;
            let cpu = cpu_seconds();
            for line in crate::search::bench_analysis_report(depth, egdb.as_ref()) {
                outln!("{line}")?;
            }
            print_cpu(cpu)?;
        }
        What::Openings => bench_openings()?,
        What::Render => bench_render()?,
        What::Director => bench_director()?,
        What::Egdb => {
            let cpu = cpu_seconds();
            let pieces = args.pieces.unwrap_or(5);
            if !(2..=crate::egdb::MAX_PIECES).contains(&pieces) {
                return Err(format!(
                    "--pieces must be between 2 and {}, not {pieces}",
                    crate::egdb::MAX_PIECES
                )
                .into());
            }
            let (db, line) = crate::egdb::bench_build(pieces);
            outln!("{line}")?;
            let built = cpu_seconds();
            if let (Some(a), Some(b)) = (cpu, built) {
                outln!(
                    "egdb build CPU time: {:.2} s: {:.2} M positions per CPU-second",
                    b - a,
                    crate::egdb::plan(pieces).positions() as f64 / (b - a) / 1e6
                )?;
            }
            let (probes, line) = crate::egdb::bench_probe(&db);
            outln!("{line}")?;
            if let (Some(a), Some(b)) = (built, cpu_seconds()) {
                outln!(
                    "egdb probe CPU time: {:.2} s: {:.1} M probes per CPU-second",
                    b - a,
                    probes as f64 / (b - a) / 1e6
                )?;
            }
        }
        What::Event => {
            let cpu = cpu_seconds();
            for line in crate::store::bench_event()? {
                outln!("{line}")?;
            }
            print_cpu(cpu)?;
        }
        What::Publish => {
            for line in crate::serve::bench_publish(&cpu_seconds)? {
                outln!("{line}")?;
            }
        }
        What::Library => bench_library()?,
        What::Store => {
            for line in crate::store::bench_lines() {
                outln!("{line}")?;
            }
        }
    }
    Ok(())
}

fn bench_library() -> CliResult {
    let cpu = cpu_seconds();
    for line in crate::store::library::bench_library(&cpu_seconds)? {
        outln!("{line}")?;
    }
    print_cpu(cpu)
}

fn print_cpu(before: Option<f64>) -> CliResult {
    if let (Some(a), Some(b)) = (before, cpu_seconds()) {
        outln!("CPU time: {:.2} s", b - a)?;
    }
    Ok(())
}

fn bench_perft(depth: u32, rules: Rules) -> CliResult {
    let pos = Position::start_in(rules);
    let cpu = cpu_seconds();
    let t = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = t.elapsed().as_secs_f64();
    outln!(
        "{} perft({depth}) = {nodes} in {secs:.3} s: {:.1} M nodes/s (one thread, bulk counting)",
        rules.key(),
        nodes as f64 / secs / 1e6
    )?;
    if let (Some(a), Some(b)) = (cpu, cpu_seconds()) {
        let used = (b - a).max(0.01);
        outln!(
            "CPU time: {used:.2} s: {:.1} M nodes per CPU-second",
            nodes as f64 / used / 1e6
        )?;
    }
    Ok(())
}

fn bench_openings() -> CliResult {
    use crate::openings::{self, System};
    let t = Instant::now();
    let first = openings::all_ref(System::ElevenMan).len();
    outln!(
        "11-man table on first use (parse public list, {first} ballots, index): {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    )?;
    for system in System::ALL {
        let t = Instant::now();
        let n = openings::build(system).len();
        outln!(
            "build {:<14} {n:>5} openings in {:>7.2} ms (moves checked, man-down, ids)",
            system.key(),
            t.elapsed().as_secs_f64() * 1e3
        )?;
    }
    let ballots = openings::all_ref(System::ElevenMan);
    let rounds = 20;
    let t = Instant::now();
    let mut down = 0;
    for _ in 0..rounds {
        down = ballots
            .iter()
            .filter(|o| openings::man_down(&o.position).is_some())
            .count();
    }
    let secs = t.elapsed().as_secs_f64() / f64::from(rounds);
    outln!(
        "man-down check of {} ballots: {:.2} ms ({down} lose a man at once), {:.2} us per ballot",
        ballots.len(),
        secs * 1e3,
        secs * 1e6 / ballots.len() as f64
    )?;
    let t = Instant::now();
    let found = (1..=2500)
        .filter(|&id| openings::opening_by_public_id(id).is_ok())
        .count();
    outln!(
        "lookup of all {found} public ids (after first use): {:.2} ms",
        t.elapsed().as_secs_f64() * 1e3
    )?;
    Ok(())
}

fn bench_render() -> CliResult {
    for (what, (w, h), frames, secs) in crate::tui::bench_render(2000) {
        outln!(
            "render {what} screen {w}x{h}: {frames} frames in {secs:.3} s: {:.1} us/frame",
            secs / f64::from(frames) * 1e6
        )?;
    }
    Ok(())
}

fn bench_director() -> CliResult {
    use crate::director::{Command, Match, MatchSettings, Now, Player};
    use crate::engine::Color;
    use rand::SeedableRng;
    let ballots = 20;
    let plies = 80;
    let mut settings = MatchSettings {
        players: ["A".into(), "B".into()],
        ballots,
        ..MatchSettings::default()
    };
    settings.openings.no_repeat = true;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut ms = 0u64;
    let mut now = || {
        ms += 1000;
        Now {
            mono_ms: ms,
            wall: chrono::DateTime::from_timestamp_millis(ms as i64).unwrap_or_default(),
        }
    };
    let Ok(mut m) = Match::new(settings, now()) else {
        return Ok(());
    };
    let mut applied = 0u64;
    let mut per_ballot = Vec::new();
    let total = Instant::now();
    let mut apply = |m: &mut Match, c: Command, n: &mut u64| {
        let ok = m.apply(c, now(), &mut rng).is_ok();
        *n += 1;
        ok
    };
    apply(
        &mut m,
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
        &mut applied,
    );
    for _ in 0..ballots {
        let t = Instant::now();
        let before = applied;
        apply(&mut m, Command::DrawBallot, &mut applied);
        apply(
            &mut m,
            Command::Accept {
                colour: Color::White,
            },
            &mut applied,
        );
        for _ in 0..2 {
            apply(&mut m, Command::StartGame, &mut applied);
            for _ in 0..plies {
                let Some(g) = m.playing() else { break };
                let pos = g.game.position();
                let Some(mv) = pos.distinct_moves().first().copied() else {
                    break;
                };
                let colour = pos.turn();
                apply(&mut m, Command::PlayMove { colour, mv }, &mut applied);
            }
            if m.playing().is_some() {
                apply(&mut m, Command::Resign { colour: Color::Red }, &mut applied);
            }
        }
        per_ballot.push((t.elapsed().as_secs_f64(), applied - before));
    }
    let secs = total.elapsed().as_secs_f64();
    let (first_s, first_n) = per_ballot[0];
    let (last_s, last_n) = per_ballot[per_ballot.len() - 1];
    outln!(
        "director: {applied} commands over {ballots} ballots ({} log entries) in {:.1} ms: \
         {:.1} us/apply; first ballot {:.1} us/apply, last {:.1} us/apply",
        m.log().len(),
        secs * 1e3,
        secs / applied as f64 * 1e6,
        first_s / first_n as f64 * 1e6,
        last_s / last_n as f64 * 1e6,
    )?;
    let t = Instant::now();
    let rounds = 10;
    let mut len = 0;
    for _ in 0..rounds {
        len = toml::to_string(&m).map_or(0, |s| s.len());
    }
    let save = t.elapsed().as_secs_f64() / f64::from(rounds);
    let t = Instant::now();
    let text = toml::to_string(&m).unwrap_or_default();
    let back: Result<Match, _> = toml::from_str(&text);
    let load = t.elapsed().as_secs_f64() - save;
    outln!(
        "director: finished match as TOML: {} KiB, serialise {:.1} ms, read back {:.1} ms ({})",
        len / 1024,
        save * 1e3,
        load * 1e3,
        if back.is_ok() { "ok" } else { "FAILED" }
    )?;
    Ok(())
}
