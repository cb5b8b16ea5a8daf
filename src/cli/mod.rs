//! Command-line entry: parses arguments and runs one command. Each command lives in its own file.

mod bench;
mod config;
mod export;
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
    /// Check a PDN file: replay every game, one line per game, errors named.
    Pdn(pdn::Args),
    /// Write every game of a match file as PDN.
    Export(export::Args),
    /// Check the config file and print the settings in effect.
    Config(config::Args),
}

/// Parse the command line and run.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Pdn(args)) => pdn::run(args),
        Some(Command::Export(args)) => export::run(args),
        Some(Command::Config(args)) => config::run(args, cli.config.as_deref()),
        None => {
            println!("crossboard: the terminal UI is not built yet; try `crossboard --help`.");
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("crossboard: {e}");
            ExitCode::FAILURE
        }
    }
}
