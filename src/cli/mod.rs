//! Command-line entry: parses arguments and runs one command. Each command lives in its own file.

/// A line to standard output: `outln!(...)?` (see `stdout`: a failure is returned, never a
/// panic).
macro_rules! outln {
    () => {
        $crate::cli::stdout::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Text to standard output, as `outln!` without the line break.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!($($arg)*))
    };
}

/// A line to standard error (a failure there is ignored: see `stdout`).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod analyse;
mod atlas;
mod ballot_analysis;
mod bench;
mod book;
mod config;
mod diagram;
mod egdb;
mod engine_match;
mod event;
mod export;
mod hub;
mod join;
mod match_games;
mod net;
mod openings;
mod pdn;
mod perft;
mod report;
mod resume;
mod serve;
mod sheets;
mod stdout;
mod tune;

pub use net::network;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Errors a command reports to the user before exiting with status 1.
pub type CliResult = Result<(), Box<dyn std::error::Error>>;

/// What `crossboard --version` says: the version, the commit and the target it was built for
/// (`0.1.0 (commit 1a2b3c4d5e6f, x86_64-pc-windows-gnu)`).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CROSSBOARD_COMMIT"),
    ", ",
    env!("CROSSBOARD_TARGET"),
    ")"
);

/// crossboard: a terminal match manager for American checkers (English draughts).
#[derive(Debug, Parser)]
#[command(name = "crossboard", version = VERSION, about, long_about = None)]
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
    #[command(flatten)]
    match_file: MatchFile,
    #[command(flatten)]
    desk: DeskFlags,
}

/// `--match FILE`: an option of the commands that play, show or serve a match file only (not
/// of every subcommand).
#[derive(Debug, Default, clap::Args)]
struct MatchFile {
    /// The match file: a new match is saved there (default: a new file in the data
    /// directory); `resume` reopens it; `diagram` draws a position of its games; `serve`
    /// serves it.
    #[arg(long = "match", value_name = "FILE")]
    match_file: Option<std::path::PathBuf>,
}

/// `--desk URL --board-token TOKEN`: options of the commands that report a match to the desk.
#[derive(Debug, Default, clap::Args)]
struct DeskFlags {
    /// Report to the desk at this address (`http://HOST:PORT`, where `crossboard serve`
    /// runs): alone with --board-token, the board's pairing comes from the desk and its match
    /// opens (the same command again resumes it); with --match, the set-up's desk fields
    /// start with it; with resume, the match reopened reports.
    #[arg(long, value_name = "URL", requires = "board_token")]
    desk: Option<String>,
    /// The board's token for --desk (`crossboard event token` at the desk gives it), or its
    /// short code (`K7QM-3XF0`, printed with the round's pairings): --board-code is the same.
    #[arg(
        long,
        visible_alias = "board-code",
        value_name = "TOKEN",
        requires = "desk"
    )]
    board_token: Option<String>,
}

impl MatchFile {
    /// This one, else `outer` (given before the subcommand).
    fn or(self, outer: &MatchFile) -> Option<std::path::PathBuf> {
        self.match_file.or_else(|| outer.match_file.clone())
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count move paths to a depth (perft), optionally per first move.
    Perft(perft::Args),
    /// Print speed figures (perft nodes per second, ...).
    Bench(bench::Args),
    /// Opening systems: counts (--summary), tables (--list), a sample draw (--draw).
    Openings(openings::Args),
    /// The engine plays drawn ballots from both sides (against a level or a Hub engine); the
    /// games are saved as PDN. A flag given twice takes its last value (scripts add to a
    /// default command line).
    #[command(args_override_self = true)]
    EngineMatch(engine_match::Args),
    /// Speak the Hub protocol (version 2) on standard input and output, for GUIs and matches.
    Hub(hub::Args),
    /// Check a PDN file: replay every game, one line per game, errors named.
    Pdn(pdn::Args),
    /// Analyse every game of a PDN file with the engine: mistakes marked `?!`, `?`, `??` with
    /// the better moves, written as annotated PDN and as a report (HTML).
    Analyse(analyse::Args),
    /// Write every game of a match file as PDN.
    Export(export::Args),
    /// A match on paper: a score sheet per game, the result slip and, once the match is
    /// over, its report, as HTML to print (A4 or Letter).
    Sheets(sheets::Args),
    /// Draw a position (a FEN, or a game and a ply of a PDN or match file) as SVG or PNG.
    Diagram {
        #[command(flatten)]
        args: diagram::Args,
        #[command(flatten)]
        file: MatchFile,
    },
    /// The tournament desk: events, divisions, players, pairings, results, standings.
    Event(Box<event::Args>),
    /// Check the config file and print the settings in effect.
    Config(config::Args),
    /// Endgame databases: build (resumable, verified), verify, status, probe a position.
    Egdb(egdb::Args),
    /// Continue a saved match where it stopped (clocks paused): FILE, or the most recent
    /// unfinished one.
    Resume {
        #[command(flatten)]
        args: resume::Args,
        #[command(flatten)]
        file: MatchFile,
        #[command(flatten)]
        desk: DeskFlags,
    },
    /// Serve the event (and/or the match of --match FILE) on the network: pages, live PDN,
    /// a JSON API, live updates.
    Serve {
        #[command(flatten)]
        args: serve::Args,
        #[command(flatten)]
        file: MatchFile,
    },
    /// Send a board's match file to the desk (--desk URL --board-token TOKEN) as it is
    /// written, until the match is over and the desk has it all, or Ctrl-C.
    Report {
        #[command(flatten)]
        args: report::Args,
        #[command(flatten)]
        desk: DeskFlags,
    },
    /// Fit the weights of the English evaluation to the results of PDN games (Texel's
    /// method) and write them as Rust source, or with --patterns the pattern tables.
    Tune(tune::Args),
}

/// What the TUI needs from the command line.
struct TuiFlags {
    ascii: bool,
    no_color: bool,
    match_file: Option<std::path::PathBuf>,
    /// `--desk` and `--board-token`, checked.
    desk: Option<(String, String)>,
}

/// The TUI's options: display flags, the config's match defaults, where matches are saved.
fn tui_options(flags: &TuiFlags, config: &crate::store::Config) -> crate::tui::Options {
    let no_color_env = std::env::var("NO_COLOR").ok();
    let console = crate::tui::detect_console();
    let plain = console == crate::tui::ConsoleKind::NoColours;
    crate::tui::Options {
        appearance: crate::tui::Appearance::from_config(
            &config.display,
            flags.ascii || plain,
            flags.no_color || plain,
            no_color_env.as_deref(),
        ),
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
        mouse: true,
        matches: crate::tui::MatchOptions {
            defaults: config.match_defaults.clone(),
            file: flags.match_file.clone(),
            start_over: false,
            dir: crate::store::default_match_dir(),
            fixed_wall: None,
            net: crate::tui::NetOptions {
                network: Some(network()),
                port: 8080,
                desk: flags.desk.as_ref().map_or(String::new(), |d| d.0.clone()),
                token: flags.desk.as_ref().map_or(String::new(), |d| d.1.clone()),
            },
            last_settings: crate::store::default_last_settings_file(),
            remember_names: config.set_up.remember_names,
            presets: config
                .preset
                .iter()
                .map(|(name, s)| (name.clone(), s.clone()))
                .collect(),
            engines: config
                .engines
                .iter()
                .map(|(name, e)| (name.clone(), e.clone()))
                .collect(),
        },
        practice_file: crate::store::default_practice_file(),
        library_folders: config.library.folders.clone(),
        egdb_dir: crate::store::default_egdb_dir(),
        files_dir: crate::store::default_data_dir(),
        console,
    }
}

/// Parse the command line and run.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The match screen reports to the desk, from a thread of its own, while the match is open.
    let desk = match desk_flags(&cli) {
        Ok(d) => d,
        Err(e) => {
            errln!("crossboard: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Cli {
        command,
        ascii,
        no_color,
        config: config_path,
        match_file: outer_file,
        desk: outer_desk,
    } = cli;
    let flags = TuiFlags {
        ascii,
        no_color,
        match_file: outer_file.match_file.clone(),
        desk,
    };
    // A wrong config file stops crossboard before the screen opens.
    let config = || crate::store::load_config(config_path.as_deref());
    let result = match command {
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Openings(args)) => openings::run(args),
        Some(Command::Pdn(args)) => pdn::run(args),
        Some(Command::Analyse(args)) => analyse::run(&args, || {
            config()
                .map(|c| c.config.engines)
                .map_err(|e| e.to_string())
        }),
        Some(Command::EngineMatch(args)) => engine_match::run(args),
        Some(Command::Hub(args)) => config()
            .map_err(Into::into)
            .and_then(|c| hub::run(args, c.config.engine)),
        Some(Command::Export(args)) => export::run(args),
        Some(Command::Sheets(args)) => sheets::run(&args),
        Some(Command::Diagram { args, file }) => diagram::run(args, file.or(&outer_file)),
        Some(Command::Egdb(args)) => egdb::run(args),
        Some(Command::Event(args)) => event::run(*args),
        Some(Command::Serve { args, file }) => serve::run(args, file.or(&outer_file), ascii),
        Some(Command::Report { args, desk }) => {
            let desk = desk.or(outer_desk);
            report::run(&args, desk.desk.as_deref(), desk.board_token.as_deref())
        }
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Config(args)) => config::run(args, config_path.as_deref()),
        Some(Command::Resume { args, file, .. }) => {
            let flags = TuiFlags {
                match_file: file.or(&outer_file),
                ..flags
            };
            config()
                .map_err(Into::into)
                .and_then(|c| resume::run(args, tui_options(&flags, &c.config)))
        }
        None => config().map_err(Into::into).and_then(|c| {
            let options = tui_options(&flags, &c.config);
            match (&flags.desk, &flags.match_file) {
                // A board's laptop joining with its token alone.
                (Some((desk, token)), None) => join::run(desk, token, options),
                _ => Ok(crate::tui::run(options)?),
            }
        }),
    };
    // What is still buffered is written now, so that a failure there is reported too.
    let result = result.and_then(|()| Ok(stdout::flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit_status(e.as_ref()),
    }
}

/// A command that did its work and tells how it came out by its exit status alone (having
/// said it on standard output): `engine-match --sprt` when the test accepts H0 or decides
/// nothing.
#[derive(Debug, thiserror::Error)]
#[error("exit status {0}")]
pub(super) struct ExitWith(pub(super) u8);

/// The exit status of a command that failed with `e`, said on standard error: quietly 0 when
/// the reader of standard output went away (`| head`), as Unix tools end.
fn exit_status(e: &(dyn std::error::Error + 'static)) -> ExitCode {
    if e.downcast_ref::<stdout::StdoutError>()
        .is_some_and(stdout::StdoutError::is_closed_pipe)
    {
        return ExitCode::SUCCESS;
    }
    if let Some(ExitWith(status)) = e.downcast_ref::<ExitWith>() {
        return ExitCode::from(*status);
    }
    // After a hang-up stderr may be gone, and that must not panic.
    errln!("crossboard: {e}");
    match e.downcast_ref::<crate::tui::TuiError>() {
        Some(tui) => ExitCode::from(tui.exit_status()),
        None => ExitCode::FAILURE,
    }
}

impl DeskFlags {
    /// These, else `outer` (given before the subcommand).
    fn or(self, outer: DeskFlags) -> DeskFlags {
        if self.desk.is_some() { self } else { outer }
    }
}

/// `--desk` and `--board-token`, checked: only where a match is played (the TUI, resume).
fn desk_flags(cli: &Cli) -> Result<Option<(String, String)>, String> {
    let given = match &cli.command {
        Some(Command::Resume { desk, .. }) if desk.desk.is_some() => desk,
        _ => &cli.desk,
    };
    let (Some(desk), Some(token)) = (&given.desk, &given.board_token) else {
        return Ok(None);
    };
    match cli.command {
        None | Some(Command::Resume { .. }) => {}
        // It reports on its own, until the match is over.
        Some(Command::Report { .. }) => return Ok(None),
        Some(_) => {
            return Err("--desk reports a match: use it to play one, or with resume".into());
        }
    }
    let desk = crate::tui::check_desk_url(desk).map_err(|e| format!("--desk {desk:?}: {e}"))?;
    let token = crate::tui::check_token(token).map_err(|e| format!("--board-token: {e}"))?;
    Ok(Some((desk, token)))
}

/// `value` of the option `flag` when it is within `range`; otherwise the refusal naming the
/// range (the bounds are those of the engine and the search: [`crate::engine::PERFT_MAX_DEPTH`],
/// [`crate::search::MAX_DEPTH`], ...).
pub(super) fn in_range<T: PartialOrd + std::fmt::Display + Copy>(
    flag: &str,
    value: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{flag} {value} is out of range: {} to {}",
            range.start(),
            range.end()
        ))
    }
}

/// CPU time this process has used (Linux: from /proc; `None` elsewhere). On a shared machine
/// the wall-clock figures understate the speed; CPU time shows the cost on one core.
pub(super) fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): utime is the 12th, stime 13th.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
