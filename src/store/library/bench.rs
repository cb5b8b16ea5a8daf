//! `crossboard bench library`: a corpus of 10,000 games made up (random legal play from the
//! 3-move openings, 20 PDN files of 500), indexed from nothing, refreshed with nothing and then
//! one file changed, and searched by each field and by position. Printed, never asserted.

use super::LibrarySources;
use super::cache::Library;
use super::search::Query;
use crate::engine::{Game, Rules};
use crate::openings::{System, all_ref};
use crate::store::pdn::{PdnGame, PdnResult, write_pdn};
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::time::Instant;

/// Files of the corpus, and games in each.
const FILES: usize = 20;
const GAMES_A_FILE: usize = 500;

const NAMES: [&str; 12] = [
    "Tinsley", "Chinook", "Lafferty", "Oldbury", "Hellman", "Long", "Ryan", "Fortman", "Banks",
    "Jordan", "Case", "Fuller",
];

/// One made-up game: a 3-move opening, then random legal moves (up to 120 plies).
fn made_up(rng: &mut rand_chacha::ChaCha8Rng, file: usize, i: usize) -> PdnGame {
    let openings = all_ref(System::ThreeMove);
    let o = &openings[rng.random_range(0..openings.len())];
    let mut game = Game::new(Rules::English, crate::engine::Position::start());
    for mv in &o.set_moves {
        if game.play(mv).is_err() {
            break;
        }
    }
    let length = rng.random_range(30..120);
    while game.moves().len() < length && game.result().is_none() {
        let list = game.position().distinct_moves();
        if list.is_empty() {
            break;
        }
        let mv = list[rng.random_range(0..list.len())];
        if game.play(&mv).is_err() {
            break;
        }
    }
    let mut pdn = PdnGame::from_game(&game)
        .with_tag("Event", format!("Corpus Open {}", 1950 + file))
        .with_tag(
            "Date",
            format!("{}.{:02}.{:02}", 1950 + file, 1 + i % 12, 1 + i % 28),
        )
        .with_tag("Black", NAMES[rng.random_range(0..NAMES.len())])
        .with_tag("White", NAMES[rng.random_range(0..NAMES.len())]);
    if pdn.result == PdnResult::Unfinished {
        pdn.result = [PdnResult::RedWins, PdnResult::WhiteWins, PdnResult::Draw][i % 3];
    }
    pdn
}

/// Write the corpus into `dir`; the number of games.
fn write_corpus(dir: &Path) -> std::io::Result<usize> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(38);
    for f in 0..FILES {
        let games: Vec<PdnGame> = (0..GAMES_A_FILE).map(|i| made_up(&mut rng, f, i)).collect();
        std::fs::write(dir.join(format!("corpus-{f:02}.pdn")), write_pdn(&games))?;
    }
    Ok(FILES * GAMES_A_FILE)
}

/// The figures, one a line; `cpu` reads this process's CPU seconds.
pub fn bench_library(cpu: &dyn Fn() -> Option<f64>) -> Result<Vec<String>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(&corpus).map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    let (n, line) = timed("write the corpus", cpu, || write_corpus(&corpus));
    let n = n.map_err(|e| e.to_string())?;
    lines.push(format!("{line}: {n} games in {FILES} PDN files"));
    let sources = LibrarySources {
        folders: vec![corpus.clone()],
        ..LibrarySources::default()
    };
    let cache = dir.path().join("library.sqlite3");
    let mut library = Library::open(&cache).map_err(|e| e.to_string())?;
    let (r, line) = timed("index from nothing", cpu, || library.refresh(&sources));
    let r = r.map_err(|e| e.to_string())?;
    let size = std::fs::metadata(&cache).map_or(0, |m| m.len());
    lines.push(format!(
        "{line}: {} games, cache {:.1} MB",
        r.games,
        size as f64 / 1e6
    ));
    let (_, line) = timed("refresh, nothing changed", cpu, || {
        library.refresh(&sources)
    });
    lines.push(line);
    let changed = corpus.join("corpus-00.pdn");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(39);
    let games: Vec<PdnGame> = (0..GAMES_A_FILE).map(|i| made_up(&mut rng, 0, i)).collect();
    std::fs::write(&changed, write_pdn(&games)).map_err(|e| e.to_string())?;
    let (_, line) = timed("refresh, one file of 500 changed", cpu, || {
        library.refresh(&sources)
    });
    lines.push(line);
    // A position some games passed through: the 12th of the first game.
    let first = super::read::source_games(&changed, super::SourceKind::Pdn)?;
    let fen = first
        .first()
        .and_then(|g| g.as_ref().ok())
        .and_then(|g| g.replay().ok())
        .and_then(|g| g.positions().get(12).map(crate::engine::Position::to_fen))
        .unwrap_or_default();
    for line in [
        "player:tinsley",
        "event:\"open 1960\"",
        "from:1955 to:1957",
        "opening:edinburgh",
        "result:draw",
        "moves:>50",
        &format!("fen:{fen}"),
        "player:tinsley result:1-0 moves:30-40 from:1960",
    ] {
        let q = Query::parse(line)?;
        let (rows, t) = timed(&format!("search {line}"), cpu, || library.search(&q));
        let rows = rows.map_err(|e| e.to_string())?;
        lines.push(format!("{t}: {} games", rows.len()));
    }
    Ok(lines)
}

/// Run `f`, and "WHAT: 1.234 s (CPU 2.345 s)".
fn timed<T>(what: &str, cpu: &dyn Fn() -> Option<f64>, f: impl FnOnce() -> T) -> (T, String) {
    let c = cpu();
    let t = Instant::now();
    let v = f();
    let wall = t.elapsed().as_secs_f64();
    let line = match (c, cpu()) {
        (Some(a), Some(b)) => format!("{what}: {wall:.3} s (CPU {:.3} s)", b - a),
        _ => format!("{what}: {wall:.3} s"),
    };
    (v, line)
}
