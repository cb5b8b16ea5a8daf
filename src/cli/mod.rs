//! Command-line entry: parses arguments and runs one command. Each command lives in its own file.

mod ballot_analysis;
mod bench;
mod config;
mod engine_match;
mod export;
mod openings;
mod pdn;
mod perft;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Errors a command reports to the user before exiting with status 1.
pub type CliResult = Result<(), Box<dyn std::error::Error>>;

/// crossboard: a terminal match manager for American checkers (English draughts).
#[derive(Debug, Parser)]
#[command(name = "crossboard", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Draw with ASCII only (no Unicode pieces or borders).
    #[arg(long, global = true)]
    ascii: bool,
    /// No colours (also when the NO_COLOR environment variable is set).
    #[arg(long, global = true)]
    no_color: bool,
    /// Read settings from this file instead of the platform config directory.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count move paths to a depth (perft), optionally per first move.
    Perft(perft::Args),
    /// Print speed figures (perft nodes per second, ...).
    Bench(bench::Args),
    /// Opening systems: counts (--summary), tables (--list), a sample draw (--draw).
    Openings(openings::Args),
    /// The engine plays drawn ballots from both sides; the games are saved as PDN.
    EngineMatch(engine_match::Args),
    /// Check a PDN file: replay every game, one line per game, errors named.
    Pdn(pdn::Args),
    /// Write every game of a match file as PDN.
    Export(export::Args),
    /// Check the config file and print the settings in effect.
    Config(config::Args),
}

/// Open the TUI on built-in defaults.
fn run_tui(ascii: bool, no_color: bool) -> CliResult {
    let no_color_env = std::env::var("NO_COLOR").ok();
    let options = crate::tui::Options {
        appearance: crate::tui::Appearance::from_flags(ascii, no_color, no_color_env.as_deref()),
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
        mouse: true,
        matches: Default::default(),
    };
    crate::tui::run(options)?;
    Ok(())
}

/// Parse the command line and run.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Openings(args)) => openings::run(args),
        Some(Command::Pdn(args)) => pdn::run(args),
        Some(Command::EngineMatch(args)) => engine_match::run(args),
        Some(Command::Export(args)) => export::run(args),
        Some(Command::Config(args)) => config::run(args, cli.config.as_deref()),
        // A wrong config file stops crossboard before the screen opens.
        None => crate::store::config::load_config(cli.config.as_deref())
            .map_err(Into::into)
            .and_then(|_| run_tui(cli.ascii, cli.no_color)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("crossboard: {e}");
            ExitCode::FAILURE
        }
    }
}
