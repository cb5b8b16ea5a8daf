//! The game library: a corpus (two PDN files in a folder and its subfolder, one game that does
//! not replay, a match file, the practice games) indexed and searched by each field and by
//! position with exact counts; a changed file read again, a deleted one dropped; a damaged or
//! foreign cache built again.

use super::cli::small_match;
use crossboard::engine::Position;
use crossboard::store::PdnResult;
use crossboard::store::library::{GameRow, Library, LibrarySources, Query, Sort, load_game};
use std::path::{Path, PathBuf};

/// The fixture folder copied into `dir` (so that a test may change it), a match folder with
/// one match, and the sources naming them.
fn corpus(dir: &Path) -> LibrarySources {
    let pdn = dir.join("pdn");
    std::fs::create_dir_all(pdn.join("club")).unwrap();
    for name in ["championship.pdn", "club/club-night.pdn"] {
        std::fs::copy(super::fixture("library").join(name), pdn.join(name)).unwrap();
    }
    // Not PDN: never read.
    std::fs::write(pdn.join("notes.txt"), "1. 11-15 *").unwrap();
    let matches = dir.join("matches");
    std::fs::create_dir_all(&matches).unwrap();
    small_match(&matches);
    LibrarySources {
        match_dir: Some(matches),
        practice_games: Some(dir.join("practice-games.pdn")),
        folders: vec![pdn],
    }
}

fn search(lib: &Library, line: &str) -> Vec<GameRow> {
    lib.search(&Query::parse(line).unwrap()).unwrap()
}

fn count(lib: &Library, line: &str) -> usize {
    search(lib, line).len()
}

fn open(dir: &Path, sources: &LibrarySources) -> Library {
    let mut lib = Library::open(&dir.join("library.sqlite3")).unwrap();
    lib.refresh(sources).unwrap();
    lib
}

#[test]
fn the_corpus_is_indexed_with_each_games_fields() {
    let dir = tempfile::tempdir().unwrap();
    let sources = corpus(dir.path());
    let mut lib = Library::open(&dir.path().join("library.sqlite3")).unwrap();
    assert_eq!(lib.rebuilt, None, "a new cache is not a rebuilt one");
    let r = lib.refresh(&sources).unwrap();
    // 3 + 3 readable of 4 + the match's 3 games.
    assert_eq!((r.read, r.kept, r.dropped, r.games), (3, 0, 0, 9));
    let skipped = lib.skipped().unwrap();
    assert_eq!(skipped.len(), 1);
    assert!(skipped[0].path.ends_with("club/club-night.pdn"));
    assert_eq!(skipped[0].skipped, 1);
    assert!(
        skipped[0].first.contains("game 3") && skipped[0].first.contains("11-16"),
        "{}",
        skipped[0].first
    );
    let all = search(&lib, "");
    assert_eq!(all.len(), 9);
    let g = search(&lib, "red:tinsley from:1992.08.19").remove(0);
    assert_eq!(
        (
            g.red.as_str(),
            g.white.as_str(),
            g.event.as_str(),
            g.date.as_str()
        ),
        (
            "Marion Tinsley",
            "Chinook",
            "World Championship",
            "1992.08.19"
        )
    );
    assert_eq!(g.opening, "3-move 5: Dreaded Edinburgh");
    assert_eq!(
        (g.result, g.plies, g.moves(), g.number),
        (PdnResult::RedWins, 10, 5, 3)
    );
    assert!(g.source.ends_with("championship.pdn"));
    // Unnamed 3-move openings by their moves; the match's ballots from its positions.
    let g = search(&lib, "red:hellman").remove(0);
    assert_eq!(g.opening, "3-move 116: 11-15 22-17 8-11");
    let played = search(&lib, "event:\"club final\"");
    assert_eq!(played.len(), 3);
    assert!(played.iter().all(|g| !g.opening.is_empty()), "{played:?}");
    // Opening a row reads its game again.
    let game = load_game(&lib, &g).unwrap();
    assert_eq!(game.tag("White"), Some("Asa Long"));
    assert_eq!(game.moves.len(), 7);
    // The practice games file, once there, is a source too.
    let practice = sources.practice_games.clone().unwrap();
    std::fs::copy(super::fixture("pdn/loy_chinook_1991.pdn"), &practice).unwrap();
    let r = lib.refresh(&sources).unwrap();
    assert_eq!((r.read, r.kept), (1, 3));
    assert!(r.games > 9);
}

#[test]
fn each_kind_of_search_counts_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let sources = corpus(dir.path());
    let lib = open(dir.path(), &sources);
    // Player, either colour, any case, a part of the name.
    assert_eq!(count(&lib, "player:tinsley"), 4);
    assert_eq!(count(&lib, "red:tinsley"), 3);
    assert_eq!(count(&lib, "white:TINSLEY"), 1);
    assert_eq!(count(&lib, "player:long"), 3);
    assert_eq!(count(&lib, "player:ann"), 3);
    // A plain word: a player, the event or the opening.
    assert_eq!(count(&lib, "chinook"), 3);
    assert_eq!(count(&lib, "club"), 6);
    // Event.
    assert_eq!(count(&lib, "event:championship"), 3);
    assert_eq!(count(&lib, "event:\"club night\""), 3);
    // Dates: a day, a month, a year; unknown days within their year.
    assert_eq!(count(&lib, "from:1992.08.18 to:1992.08.18"), 1);
    assert_eq!(count(&lib, "from:1992.08"), 3 + 3);
    assert_eq!(count(&lib, "from:1948 to:1948"), 2);
    assert_eq!(count(&lib, "from:1948 to:1949.12"), 3);
    assert_eq!(count(&lib, "to:1993"), 6);
    // Opening or ballot.
    assert_eq!(count(&lib, "opening:edinburgh"), 1);
    assert_eq!(count(&lib, "opening:\"3-move 126:\""), 2);
    assert_eq!(count(&lib, "opening:3-move"), 6);
    // Result.
    assert_eq!(count(&lib, "result:1-0"), 3);
    assert_eq!(count(&lib, "result:0-1"), 1);
    assert_eq!(count(&lib, "result:draw"), 4);
    assert_eq!(count(&lib, "result:*"), 1);
    // Moves (a ply of each side is a move).
    assert_eq!(count(&lib, "moves:4"), 4);
    assert_eq!(count(&lib, "moves:>4"), 1);
    assert_eq!(count(&lib, "moves:<4"), 4);
    assert_eq!(count(&lib, "moves:3-3"), 4);
    // Together.
    assert_eq!(count(&lib, "player:tinsley result:draw"), 2);
    assert_eq!(count(&lib, "tinsley long"), 1);
    // Sorted: by moves, longest first.
    let mut q = Query::parse("event:championship").unwrap();
    q.sort = Sort::Moves;
    q.descending = true;
    let rows = lib.search(&q).unwrap();
    assert_eq!(rows[0].plies, 10);
    // A term that does not read is refused with the reason.
    let e = Query::parse("moves:many").unwrap_err();
    assert!(e.contains("moves \"many\""), "{e}");
    assert!(
        Query::parse("colour:red")
            .unwrap_err()
            .contains("not a field")
    );
    assert!(Query::parse("from:92").unwrap_err().contains("1990.05"));
}

#[test]
fn the_games_through_a_position_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let sources = corpus(dir.path());
    let lib = open(dir.path(), &sources);
    let after = |moves: &[&str]| {
        let mut game =
            crossboard::engine::Game::new(crossboard::engine::Rules::English, Position::start());
        for m in moves {
            game.play_text(m).unwrap();
        }
        *game.position()
    };
    let by = |p: Position| {
        let q = Query {
            position: Some(p),
            ..Query::default()
        };
        lib.search(&q).unwrap()
    };
    // The start: every game from it (the match's games start from their ballots).
    assert_eq!(by(Position::start()).len(), 6);
    // 11-15 23-19 8-11: the two games of 3-move 126.
    let p = after(&["11-15", "23-19", "8-11"]);
    assert_eq!(by(p).len(), 2);
    // One move further the two games part: 22-17 in both, then 9-13 in one.
    assert_eq!(by(after(&["11-15", "23-19", "8-11", "22-17"])).len(), 2);
    let one = by(after(&["11-15", "23-19", "8-11", "22-17", "9-13"]));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].date, "1992.08.17");
    // The same position by its FEN on the search line; with a field beside it.
    let fen = p.to_fen();
    assert_eq!(count(&lib, &format!("fen:{fen}")), 2);
    assert_eq!(count(&lib, &format!("fen:{fen} result:0-1")), 1);
    // A position no game reached; the last of a game (found, as every other).
    assert_eq!(by(after(&["12-16"])).len(), 0);
    let last = Position::from_fen("B:W22,23,24,26,27,28,30,31,32:B1,2,3,4,5,7,8,12,13,16").unwrap();
    assert_eq!(by(last).len(), 1);
    // A match's games from their ballot's position: both games of its first ballot.
    let mut q = Query::parse("event:\"club final\"").unwrap();
    q.sort = Sort::File;
    let first = lib.search(&q).unwrap().remove(0);
    let game = load_game(&lib, &first).unwrap();
    assert_eq!(by(game.start).len(), 2);
}

#[test]
fn a_changed_file_is_read_again_and_a_deleted_one_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let sources = corpus(dir.path());
    let mut lib = open(dir.path(), &sources);
    assert_eq!(count(&lib, "event:championship"), 3);
    let r = lib.refresh(&sources).unwrap();
    assert_eq!(
        (r.read, r.kept, r.dropped, r.games),
        (0, 3, 0, 9),
        "nothing changed"
    );
    // The championship loses its last game: read again, the others kept.
    let file: PathBuf = dir.path().join("pdn/championship.pdn");
    let text = std::fs::read_to_string(&file).unwrap();
    let cut = text.rfind("[Event").unwrap();
    std::fs::write(&file, &text[..cut]).unwrap();
    let stale = search(&lib, "opening:edinburgh").remove(0);
    assert!(
        load_game(&lib, &stale).unwrap_err().contains("refresh"),
        "a changed file is not read by a stale row"
    );
    let r = lib.refresh(&sources).unwrap();
    assert_eq!((r.read, r.kept, r.dropped, r.games), (1, 2, 0, 8));
    assert_eq!(count(&lib, "event:championship"), 2);
    assert_eq!(count(&lib, "opening:edinburgh"), 0);
    // Deleted: its games drop out, positions too.
    std::fs::remove_file(&file).unwrap();
    let r = lib.refresh(&sources).unwrap();
    assert_eq!((r.read, r.kept, r.dropped, r.games), (0, 2, 1, 6));
    assert_eq!(count(&lib, "event:championship"), 0);
    let q = Query {
        position: Some(Position::start()),
        ..Query::default()
    };
    assert_eq!(lib.search(&q).unwrap().len(), 3);
    // A folder no longer named: its files drop out.
    let fewer = LibrarySources {
        folders: Vec::new(),
        ..sources
    };
    let r = lib.refresh(&fewer).unwrap();
    assert_eq!((r.dropped, r.games), (1, 3));
}

#[test]
fn a_damaged_or_foreign_cache_is_built_again() {
    let dir = tempfile::tempdir().unwrap();
    let sources = corpus(dir.path());
    let cache = dir.path().join("library.sqlite3");
    drop(open(dir.path(), &sources));
    // Not a database at all.
    std::fs::write(
        &cache,
        b"this is not a database, just some text".repeat(200),
    )
    .unwrap();
    let mut lib = Library::open(&cache).unwrap();
    assert!(
        lib.rebuilt.as_deref().unwrap().contains("not a SQLite"),
        "{:?}",
        lib.rebuilt
    );
    assert_eq!(lib.refresh(&sources).unwrap().games, 9);
    drop(lib);
    // Another program's database.
    std::fs::remove_file(&cache).unwrap();
    let other = rusqlite::Connection::open(&cache).unwrap();
    other
        .execute_batch("CREATE TABLE games (id INTEGER); INSERT INTO games VALUES (1);")
        .unwrap();
    drop(other);
    let mut lib = Library::open(&cache).unwrap();
    assert_eq!(lib.rebuilt.as_deref(), Some("another program's database"));
    assert_eq!(lib.count().unwrap(), 0);
    assert_eq!(lib.refresh(&sources).unwrap().games, 9);
    drop(lib);
    // The library's own file with a page overwritten in the middle.
    let mut bytes = std::fs::read(&cache).unwrap();
    assert!(bytes.len() > 3 * 4096, "{}", bytes.len());
    for b in &mut bytes[4096 + 100..4096 * 2] {
        *b = 0xA5;
    }
    std::fs::write(&cache, &bytes).unwrap();
    let mut lib = Library::open(&cache).unwrap();
    assert!(
        lib.rebuilt.as_deref().unwrap().contains("damaged"),
        "{:?}",
        lib.rebuilt
    );
    assert_eq!(lib.refresh(&sources).unwrap().games, 9);
    assert_eq!(count(&lib, "player:tinsley"), 4);
}
