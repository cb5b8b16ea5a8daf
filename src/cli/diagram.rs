//! `crossboard diagram`: a position as a picture (SVG or PNG), from a FEN or from a game and a
//! ply of a PDN file or a match file.
//!
//! Everything is checked before anything is written: the position found, every output's name,
//! folder and difference from the input, every picture made; only then are the files written.

use super::CliResult;
use crate::engine::{Color, Position, Square};
use crate::publish::{BoardSvgOptions, PngError, board_svg, svg_to_png};
use crate::store::{LoadError, OutputIsInput, PdnGame, check_output, decode, move_label};
use crate::store::{load_match, match_to_pdn, read_pdn, write_atomic};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Arguments of `crossboard diagram` (the match file comes from the global `--match`).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The position as FEN, e.g. `W:W21,22,K7:B1,2,K14`.
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// A PDN file: the position of game --game after --ply plies.
    #[arg(long, value_name = "FILE")]
    pdn: Option<PathBuf>,
    /// Which game of the PDN or match file (1 is the first).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// Plies of that game played (0: its start; default: its end).
    #[arg(long, value_name = "P")]
    ply: Option<usize>,
    /// Where to write: FILE.svg or FILE.png (by its extension); give it twice for both;
    /// `-` writes the SVG to standard output.
    #[arg(long, short, value_name = "FILE", required = true)]
    out: Vec<PathBuf>,
    /// Width in pixels (the SVG scales to any size; a PNG is drawn at this width).
    #[arg(long, value_name = "PIXELS", default_value_t = 400,
          value_parser = clap::value_parser!(u32).range(64..=2048))]
    size: u32,
    /// Square numbers 1-32 on the playing squares.
    #[arg(long)]
    numbers: bool,
    /// The side at the bottom: white (as printed diagrams, the default) or red.
    #[arg(long, value_name = "SIDE", value_enum, default_value_t = Side::White)]
    bottom: Side,
    /// Red at the bottom (the same as --bottom red).
    #[arg(long, conflicts_with = "bottom")]
    flip: bool,
    /// The line under the board (default for a game: the players and the last move; "" for
    /// none).
    #[arg(long, value_name = "TEXT")]
    caption: Option<String>,
}

/// A side, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Side {
    Red,
    White,
}

/// Why no diagram was written.
#[derive(Debug, Error)]
enum DiagramError {
    #[error("say which position: --fen FEN, --pdn FILE or --match FILE")]
    NoSource,
    #[error("give one position only: --fen, --pdn or --match, not two of them")]
    TwoSources,
    #[error("--game and --ply choose a game of a --pdn or --match file, not of a FEN")]
    GameOfFen,
    #[error("the FEN does not read: {0}")]
    Fen(#[from] crate::engine::FenError),
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Match(#[from] LoadError),
    #[error("{path} has no games")]
    NoGames { path: PathBuf },
    #[error("{path} has {count} {}: there is no game {game} (the first is 1)",
            if *count == 1 { "game" } else { "games" })]
    NoSuchGame {
        path: PathBuf,
        game: usize,
        count: usize,
    },
    #[error("game {game} of {path} does not read: {why}")]
    BadGame {
        path: PathBuf,
        game: usize,
        why: String,
    },
    #[error(
        "game {game} has {plies} plies: --ply {ply} is past its end (0 is its start, {plies} \
         its end)"
    )]
    PastTheEnd {
        game: usize,
        ply: usize,
        plies: usize,
    },
    #[error("{0}: a diagram is written as .svg or .png; name the file so")]
    Extension(PathBuf),
    #[error("{path}: no folder {folder}; nothing was written")]
    NoFolder { path: PathBuf, folder: PathBuf },
    #[error(transparent)]
    SameAsInput(#[from] OutputIsInput),
    #[error(transparent)]
    Png(#[from] PngError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The position to draw, its last move and the caption a game gives it.
struct Found {
    position: Position,
    last_move: Option<(Square, Square)>,
    caption: Option<String>,
    /// The file it came from (no output may overwrite it).
    input: Option<PathBuf>,
}

/// What an output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

/// Run `diagram`.
pub(super) fn run(args: Args, match_file: Option<PathBuf>) -> CliResult {
    let found = find(&args, match_file)?;
    let outputs = check_outputs(&args.out, found.input.as_deref())?;
    let options = BoardSvgOptions {
        bottom: match (args.flip, args.bottom) {
            (true, _) | (_, Side::Red) => Color::Red,
            _ => Color::White,
        },
        numbers: args.numbers,
        last_move: found.last_move,
        caption: args.caption.or(found.caption).filter(|c| !c.is_empty()),
        size: args.size,
        ..BoardSvgOptions::default()
    };
    let svg = board_svg(&found.position, &options);
    let mut files = Vec::new();
    for (path, format) in outputs {
        let bytes = match format {
            Format::Svg => svg.clone().into_bytes(),
            Format::Png => svg_to_png(&svg).map_err(DiagramError::from)?,
        };
        files.push((path, bytes));
    }
    for (path, bytes) in files {
        if path.as_os_str() == "-" {
            out!("{svg}")?;
            continue;
        }
        write_atomic(&path, &bytes).map_err(|source| DiagramError::Write {
            path: path.clone(),
            source,
        })?;
        outln!("wrote {}", path.display())?;
    }
    Ok(())
}

/// The position the arguments name.
fn find(args: &Args, match_file: Option<PathBuf>) -> Result<Found, DiagramError> {
    let sources = [args.fen.is_some(), args.pdn.is_some(), match_file.is_some()];
    match sources.iter().filter(|&&s| s).count() {
        0 => return Err(DiagramError::NoSource),
        1 => {}
        _ => return Err(DiagramError::TwoSources),
    }
    if let Some(fen) = &args.fen {
        if args.game.is_some() || args.ply.is_some() {
            return Err(DiagramError::GameOfFen);
        }
        return Ok(Found {
            position: fen.trim().parse()?,
            last_move: None,
            caption: None,
            input: None,
        });
    }
    let (path, games) = match (&args.pdn, match_file) {
        (Some(pdn), _) => (pdn.clone(), pdn_games(pdn)?),
        (None, Some(m)) => {
            let games = match_to_pdn(&load_match(&m)?.the_match);
            (m, games.into_iter().map(Ok).collect())
        }
        (None, None) => return Err(DiagramError::NoSource),
    };
    at_ply(&path, games, args.game.unwrap_or(1), args.ply)
}

/// The games of a PDN file, each read or its error in words.
fn pdn_games(path: &Path) -> Result<Vec<Result<PdnGame, String>>, DiagramError> {
    let bytes = std::fs::read(path).map_err(|source| DiagramError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(read_pdn(&decode(&bytes))
        .into_iter()
        .map(|g| g.map_err(|e| format!("line {}: {}", e.line, e.kind)))
        .collect())
}

/// Game `game` (from 1) of `games`, after `ply` plies (default: all of them).
fn at_ply(
    path: &Path,
    games: Vec<Result<PdnGame, String>>,
    game: usize,
    ply: Option<usize>,
) -> Result<Found, DiagramError> {
    let count = games.len();
    if count == 0 {
        return Err(DiagramError::NoGames {
            path: path.to_path_buf(),
        });
    }
    let bad = |why: String| DiagramError::BadGame {
        path: path.to_path_buf(),
        game,
        why,
    };
    let pdn = games
        .into_iter()
        .nth(game.wrapping_sub(1))
        .ok_or_else(|| DiagramError::NoSuchGame {
            path: path.to_path_buf(),
            game,
            count,
        })?
        .map_err(bad)?;
    let replayed = pdn.replay().map_err(|e| bad(e.to_string()))?;
    let plies = replayed.moves().len();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(DiagramError::PastTheEnd { game, ply, plies });
    }
    let last = ply.checked_sub(1).map(|i| replayed.moves()[i]);
    let position = replayed.positions()[ply];
    Ok(Found {
        position,
        last_move: last.map(|m| (m.from(), m.to())),
        caption: Some(game_caption(&pdn, ply)),
        input: Some(path.to_path_buf()),
    })
}

/// "Ann v Bob, after 12... 22-18": the players (Red first, as far as known) and the last move
/// played, or "at the start".
fn game_caption(pdn: &PdnGame, ply: usize) -> String {
    let name = |tag: &str| {
        pdn.tag(tag)
            .map(str::trim)
            .filter(|n| !n.is_empty() && *n != "?")
            .map(str::to_string)
    };
    let moment = match ply.checked_sub(1) {
        None => "at the start".to_string(),
        Some(i) => format!("after {} {}", move_label(pdn.start.turn(), i), pdn.moves[i]),
    };
    match (name("Black"), name("White")) {
        (None, None) => format!("Game {moment}"),
        (red, white) => format!(
            "{} v {}, {moment}",
            red.as_deref().unwrap_or("?"),
            white.as_deref().unwrap_or("?")
        ),
    }
}

/// Each output's format, once every output has a known extension, an existing folder and is
/// not the input.
fn check_outputs(
    outs: &[PathBuf],
    input: Option<&Path>,
) -> Result<Vec<(PathBuf, Format)>, DiagramError> {
    let mut checked = Vec::new();
    for out in outs {
        if out.as_os_str() == "-" {
            checked.push((out.clone(), Format::Svg));
            continue;
        }
        if let Some(input) = input {
            check_output(out, input, "the file the position is read from")?;
        }
        let ext = out
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_lowercase);
        let format = match ext.as_deref() {
            Some("svg") => Format::Svg,
            Some("png") => Format::Png,
            _ => return Err(DiagramError::Extension(out.clone())),
        };
        let folder = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !folder.is_dir() {
            return Err(DiagramError::NoFolder {
                path: out.clone(),
                folder,
            });
        }
        // A folder that takes no new file is found now, before any output is written.
        tempfile::NamedTempFile::new_in(&folder).map_err(|source| DiagramError::Write {
            path: out.clone(),
            source,
        })?;
        checked.push((out.clone(), format));
    }
    Ok(checked)
}
