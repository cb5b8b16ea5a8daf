//! `crossboard tune --pdn FILE...`: fit the weights of the English evaluation to the results
//! of the games of PDN files (Texel's method) and write them as `src/search/eval/weights.rs`.

use super::CliResult;
use crate::search::tune::{
    PatternOptions, TuneGame, TuneOptions, asset_bytes, tune, tune_patterns, weights_source,
};
use crate::store::{PdnResult, decode, read_pdn};
use std::path::PathBuf;

/// Arguments of `crossboard tune`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// PDN files of English games with results (unfinished games and other games are skipped).
    #[arg(long, required = true, num_args = 1..)]
    pdn: Vec<PathBuf>,
    /// Seed of the split into training and held-out games.
    #[arg(long, default_value_t = 27)]
    seed: u64,
    /// Rounds of gradient descent.
    #[arg(long, default_value_t = 600)]
    epochs: usize,
    /// Pull towards the hand-set weights: this times the sum of the squared differences is
    /// added to the loss minimised.
    #[arg(long, default_value_t = 0.0)]
    prior: f64,
    /// Plies from the start of each game whose positions are left out.
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
    /// Write the weights here: Rust source (e.g. src/search/eval/weights.rs), or with
    /// `--patterns` the tables' asset (assets/eval/english.bin).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Fit the pattern tables and their linear weights instead of the linear weights alone
    /// (starting from those of weights.rs).
    #[arg(long)]
    patterns: bool,
    /// With --patterns: the step of Adam, hundredths of a man.
    #[arg(long, default_value_t = 0.5)]
    rate: f64,
    /// With --patterns: this times the sum of the squared table entries is added to the loss.
    #[arg(long, default_value_t = 1e-6)]
    l2: f64,
}

/// Red's score of a result, `None` for an unfinished game.
fn red_score(r: PdnResult) -> Option<f32> {
    match r {
        PdnResult::RedWins => Some(1.0),
        PdnResult::WhiteWins => Some(0.0),
        PdnResult::Draw => Some(0.5),
        PdnResult::Unfinished => None,
    }
}

/// The finished English games of a PDN file (games that do not replay are skipped).
fn games_of(path: &PathBuf) -> Result<Vec<TuneGame>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games: Vec<TuneGame> = read_pdn(&decode(&bytes))
        .into_iter()
        .flatten()
        .filter(|g| g.rules() == crate::engine::Rules::English)
        .filter_map(|g| {
            Some(TuneGame {
                result: red_score(g.result)?,
                start: g.start,
                moves: g.moves,
            })
        })
        .collect();
    if games.is_empty() {
        return Err(format!("{}: no finished English games", path.display()));
    }
    Ok(games)
}

/// Run `tune`: print the losses and the weights; write them when asked.
pub(super) fn run(args: Args) -> CliResult {
    if let Some(out) = &args.out {
        for pdn in &args.pdn {
            crate::store::check_output(out, pdn, "one of the PDN files read")?;
        }
    }
    let mut games = Vec::new();
    for path in &args.pdn {
        let g = games_of(path)?;
        outln!("{}: {} games", path.display(), g.len())?;
        games.extend(g);
    }
    let options = TuneOptions {
        seed: args.seed,
        epochs: args.epochs,
        skip_plies: args.skip_plies,
        prior: args.prior,
        ..TuneOptions::default()
    };
    if args.patterns {
        return run_patterns(&args, &games, &options);
    }
    let report = tune(&games, &options);
    outln!("{}", report.split)?;
    outln!(
        "mean squared error: training {:.6} -> {:.6}, held out {:.6} -> {:.6}",
        report.before.0,
        report.after.0,
        report.before.1,
        report.after.1
    )?;
    let names: Vec<String> = args
        .pdn
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let how = format!(
        "crossboard tune --pdn {} --seed {} --epochs {} --skip-plies {} --prior {}",
        names.join(" "),
        args.seed,
        args.epochs,
        args.skip_plies,
        args.prior
    );
    let source = weights_source(&report, &how);
    match &args.out {
        Some(out) => {
            crate::store::write_atomic(out, source.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            outln!("written to {}", out.display())?;
        }
        None => out!("{source}")?,
    }
    Ok(())
}

/// Fit the tables: print the losses; write the asset when asked.
fn run_patterns(args: &Args, games: &[TuneGame], options: &TuneOptions) -> CliResult {
    let fit = PatternOptions {
        rate: args.rate,
        l2: args.l2,
    };
    let report = tune_patterns(games, options, &fit);
    outln!("{}", report.split)?;
    for (epoch, held) in &report.curve {
        outln!("round {epoch}: held-out mean squared error {held:.6}")?;
    }
    outln!(
        "mean squared error: training {:.6} (weights.rs) -> {:.6} (tables); held out {:.6} (hand-set), {:.6} (weights.rs) -> {:.6} (tables)",
        report.train.0,
        report.train.1,
        report.held.0,
        report.held.1,
        report.held.2
    )?;
    outln!("linear weights with the tables: {:?}", report.linear)?;
    if let Some(out) = &args.out {
        crate::store::write_atomic(out, &asset_bytes(&report))
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        outln!("written to {}", out.display())?;
    }
    Ok(())
}
