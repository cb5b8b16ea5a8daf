//! `crossboard engine-match`: the engine plays drawn ballots from both sides; the games are
//! saved as PDN, like any other match (for directors preparing events).

use super::CliResult;
use crate::engine::{Game, Outcome, Rules};
use crate::openings::{self, DrawMode, DrawSettings, System};
use crate::search::selfplay::{EndReason, SelfPlay, points_for};
use crate::search::{Level, Limits};
use crate::store::pdn::{PdnGame, PdnResult, write_pdn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Arguments of `crossboard engine-match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Number of ballots; each is played twice, colours reversed.
    #[arg(long, default_value_t = 5)]
    ballots: u32,
    /// Seed of the ballot draw and of the levels' random choices (a fresh one is printed when
    /// omitted).
    #[arg(long)]
    seed: Option<u64>,
    /// The PDN file to write (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// Opening system to draw from.
    #[arg(long, default_value = "eleven-man")]
    system: System,
    /// faithful (as the deck does it) or uniform (over distinct positions).
    #[arg(long, default_value = "faithful")]
    mode: DrawMode,
    /// Redraw ballots that lose a man at once.
    #[arg(long)]
    exclude_man_down: bool,
    /// Level of the first engine: beginner, casual, club, expert or master.
    #[arg(long, default_value = "master")]
    level: Level,
    /// Level of the second engine (default: the same as --level).
    #[arg(long)]
    opponent: Option<Level>,
    /// Thinking time per move, milliseconds.
    #[arg(long, default_value_t = 100)]
    ms: u64,
    /// Depth limit per move (on top of the time).
    #[arg(long)]
    depth: Option<u32>,
    /// Ply cap per game; a game reaching it is adjudicated a draw.
    #[arg(long, default_value_t = crate::search::selfplay::DEFAULT_MAX_PLIES)]
    max_plies: usize,
}

/// Run `engine-match`.
pub fn run(args: Args) -> CliResult {
    let seed = args.seed.unwrap_or_else(|| rand::rng().next_u64());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = args.level;
    let second = args.opponent.unwrap_or(first);
    let settings = DrawSettings {
        system: args.system,
        mode: args.mode,
        exclude_man_down: args.exclude_man_down,
        no_repeat: true,
        ..DrawSettings::default()
    };
    eprintln!(
        "engine match: {} ballots ({}), {first} vs {second}, {} ms per move, seed {seed}",
        args.ballots,
        args.system.title(),
        args.ms
    );
    let stop = Arc::new(AtomicBool::new(false));
    let mut selfplay = SelfPlay::default().with_max_plies(args.max_plies);
    let date = chrono::Local::now().format("%Y.%m.%d").to_string();
    let mut drawn = Vec::new();
    let mut games = Vec::new();
    let mut records = Vec::new();
    for round in 1..=args.ballots {
        let draw = openings::draw(&settings, &drawn, &mut rng)?;
        let opening = draw.opening;
        drawn.push(opening.clone());
        for (leg, (red, white)) in [(first, second), (second, first)].into_iter().enumerate() {
            let mut game = Game::new(Rules::English, opening.start);
            for mv in &opening.set_moves {
                game.play(mv)?;
            }
            let (ms, depth) = (args.ms, args.depth);
            let limits = move || Limits {
                depth,
                nodes: None,
                deadline: Some(Instant::now() + Duration::from_millis(ms)),
            };
            let g = selfplay.play_on(game, red, white, limits, &mut rng, &stop);
            let result = PdnResult::from(Some(g.outcome));
            eprintln!(
                "{round}.{}: {} ({}) {red} - {white}: {result} ({}, {} plies)",
                leg + 1,
                opening.reference(),
                opening.name,
                reason_text(g.reason),
                g.game.moves().len()
            );
            let mut pdn = PdnGame::from_game(&g.game)
                .with_tag("Event", "crossboard engine match")
                .with_tag("Site", "crossboard")
                .with_tag("Date", date.clone())
                .with_tag("Round", format!("{round}.{}", leg + 1))
                .with_tag("Black", format!("crossboard {red}"))
                .with_tag("White", format!("crossboard {white}"))
                .with_tag(
                    "Opening",
                    format!("{}: {}", opening.reference(), opening.name),
                )
                .with_tag("Termination", reason_text(g.reason));
            pdn.result = result;
            records.push(pdn);
            games.push(g);
        }
    }
    crate::store::atomic::write_atomic(&args.out, write_pdn(&records).as_bytes())?;
    let draws = games.iter().filter(|g| g.outcome == Outcome::Draw).count();
    if first == second {
        println!(
            "{} games, {draws} drawn; written to {}",
            games.len(),
            args.out.display()
        );
    } else {
        println!(
            "{first} {} - {second} {} over {} games ({draws} drawn); written to {}",
            points_for(first, &games),
            points_for(second, &games),
            games.len(),
            args.out.display()
        );
    }
    Ok(())
}

fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::NoMoves => "no moves left",
        EndReason::Repetition => "threefold repetition",
        EndReason::FortyMoves => "forty-move rule",
        EndReason::ThirteenCount => "13-count",
        EndReason::MoveLimit => "move limit (adjudicated draw)",
        EndReason::Stopped => "stopped",
    }
}
