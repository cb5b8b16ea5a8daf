//! The opening book: its text read back, a bad line named by line and field, dropout expansion
//! minimaxing and going deep on the best line, and the builder giving the same book on one
//! thread or two and when stopped and resumed.

use super::atlas::run_in;
use crossboard::engine::{Position, parse_move};
use crossboard::openings::eleven_man_positions;
use crossboard::search::{BOOK_VERSION, Book, Dropout, evaluate};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// A scorer for the pure tests: the static evaluation, from the side to move's view.
fn static_scores(batch: &[Position]) -> Result<Vec<i32>, String> {
    Ok(batch.iter().map(evaluate).collect())
}

/// A small tree over the first two positions, with the static evaluation at its leaves.
fn small_tree(nodes: usize) -> Dropout {
    let roots: Vec<Position> = eleven_man_positions()[..2]
        .iter()
        .map(|p| p.position)
        .collect();
    let mut tree = Dropout::new(&roots, 1, &mut static_scores).unwrap();
    let mut seen = Vec::new();
    tree.grow(nodes, &mut static_scores, &mut |n| seen.push(n))
        .unwrap();
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    tree
}

#[test]
fn dropout_minimaxes_and_goes_deep_on_the_best_line() {
    let tree = small_tree(300);
    assert!((300..340).contains(&tree.len()), "{}", tree.len());
    let book = tree.book();
    assert!(book.len() > 20, "{}", book.len());
    // How often each position is reached: one reached by two move orders keeps its first
    // node's entry, so the minimax is checked on the others.
    let mut reached: std::collections::HashMap<Position, usize> = std::collections::HashMap::new();
    for e in book.entries() {
        for &(mv, _) in &e.moves {
            *reached.entry(e.position.after(&mv)).or_default() += 1;
        }
    }
    let mut checked = 0;
    for e in book.entries() {
        assert!(e.moves.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
        // A move whose position was expanded too carries that position's best score, negated.
        for &(mv, score) in &e.moves {
            let next = e.position.after(&mv);
            if let (Some(n), Some(1)) = (book.get(&next), reached.get(&next)) {
                assert_eq!(score, -n.moves[0].1, "{}", e.to_line());
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "{checked}");
    // The best line is followed deeper than any other from the first root.
    let depth_of = |first: usize| {
        let root = book.get(&eleven_man_positions()[0].position).unwrap();
        let mut pos = root.position.after(&root.moves[first].0);
        let mut plies = 1;
        while let Some(e) = book.get(&pos) {
            pos = pos.after(&e.moves[0].0);
            plies += 1;
        }
        plies
    };
    let root = book.get(&eleven_man_positions()[0].position).unwrap();
    let best = depth_of(0);
    assert!(best >= 3, "{best}");
    for k in 1..root.moves.len() {
        if root.moves[k].1 < root.moves[0].1 - 50 {
            assert!(depth_of(k) < best, "move {k} of {}", root.moves.len());
        }
    }
}

#[test]
fn a_book_reads_back_what_it_wrote_and_names_a_bad_line() {
    let book = small_tree(60).book();
    let text = book.to_text(&["made by a test".to_string()]);
    assert!(text.starts_with(&format!("{BOOK_VERSION}\n# made by a test\n")));
    assert_eq!(Book::parse("b.txt", &text).unwrap(), book);

    // Line 3 is the first position.
    let first = text.lines().nth(2).unwrap();
    let f: Vec<&str> = first.split('\t').collect();
    let mv = f[2].split_whitespace().next().unwrap();
    let cases = [
        (format!("{}\t{}", f[0], f[1]), "line", "2 fields, not 3"),
        (format!("W:W1:B2\t{}\t{}", f[1], f[2]), "position", ""),
        (
            format!("{}\t0\t{}", f[0], f[2]),
            "depth",
            "\"0\" is not a depth",
        ),
        (
            format!("{}\t{}\t1-5=3", f[0], f[1]),
            "moves",
            "move 1 (1-5=3)",
        ),
        (
            format!("{}\t{}\t{mv} {mv}", f[0], f[1]),
            "moves",
            "given twice",
        ),
        (
            format!("{}\t{}\t{}=x", f[0], f[1], mv.split('=').next().unwrap()),
            "moves",
            "\"x\" is not a score",
        ),
        (format!("{}\t{}\t", f[0], f[1]), "moves", "none"),
    ];
    for (line, field, reason) in cases {
        let bad = text.replacen(first, &line, 1);
        let e = Book::parse("b.txt", &bad).unwrap_err();
        assert_eq!((e.line, e.field), (3, field), "{e}");
        assert!(
            e.to_string()
                .starts_with(&format!("b.txt line 3: {field}: "))
                && e.to_string().contains(reason),
            "{e}"
        );
    }
    let twice = format!("{text}{first}\n");
    let e = Book::parse("b.txt", &twice).unwrap_err();
    assert_eq!(e.field, "position", "{e}");
    for head in ["", "crossboard-book 2\n", "id\tverdict\n"] {
        let other = text.replacen(&format!("{BOOK_VERSION}\n"), head, 1);
        let e = Book::parse("b.txt", &other).unwrap_err();
        assert_eq!((e.line, e.field), (1, "version"), "{e}");
    }
}

#[test]
fn the_book_chooses_among_near_ties_by_the_seeded_generator() {
    let start = eleven_man_positions()[0].position;
    let entry = |moves: &str| format!("{BOOK_VERSION}\n{}\t6\t{moves}\n", start.to_fen());
    let moves: Vec<String> = start
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(moves.len() >= 3, "{moves:?}");
    let text = entry(&format!("{}=20 {}=17 {}=-40", moves[0], moves[1], moves[2]));
    let book = Book::parse("b.txt", &text).unwrap();
    let pick = |margin: i32, seed: u64| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        book.choose(&start, margin, &mut rng).unwrap().to_string()
    };
    let within: std::collections::BTreeSet<String> = (0..40).map(|s| pick(5, s)).collect();
    assert_eq!(within.into_iter().collect::<Vec<_>>().len(), 2);
    assert!((0..40).all(|s| pick(0, s) == moves[0]));
    assert_eq!(pick(5, 7), pick(5, 7));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert_eq!(book.choose(&Position::start(), 5, &mut rng), None);
    assert!(parse_move(&start, &moves[2]).is_ok());
}

/// Run `crossboard openings eleven-man --book --ids 1-3 --depth 4 ARGS` in `dir`.
fn book_run(dir: &Path, args: &[&str]) -> (bool, String) {
    let head = [
        "openings",
        "eleven-man",
        "--book",
        "--ids",
        "1-3",
        "--depth",
        "4",
    ];
    run_in(dir, &[&head[..], args].concat())
}

#[test]
fn the_book_is_the_same_on_one_thread_or_two_and_when_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    for (name, threads) in [("one.txt", "1"), ("two.txt", "2")] {
        let (ok, said) = book_run(d, &["--nodes", "80", "--threads", threads, "--out", name]);
        assert!(ok, "{said}");
        assert!(
            said.contains(" of 80 positions\n")
                && said.contains("searched at depth 4")
                && said.contains("s wall"),
            "{said}"
        );
    }
    let one = read("one.txt");
    assert_eq!(one, read("two.txt"));
    let book = Book::parse("one.txt", &one).unwrap();
    assert!(book.len() >= 8, "{one}");
    assert!(book.entries().iter().all(|e| e.depth == 4));

    // Stopped after part of the work (here: its output cannot be written, so its journal
    // stays, a line torn at the end), then resumed with a larger size: the book made in one go.
    std::fs::create_dir(d.join("resumed.txt")).unwrap();
    let (ok, said) = book_run(d, &["--nodes", "40", "--out", "resumed.txt"]);
    assert!(!ok, "{said}");
    let journal = d.join("resumed.txt.journal");
    let kept = std::fs::read_to_string(&journal).unwrap();
    assert!(kept.lines().count() > 30, "{kept}");
    std::fs::write(&journal, format!("{kept}W:W1")).unwrap();
    std::fs::remove_dir(d.join("resumed.txt")).unwrap();
    let (ok, said) = book_run(d, &["--nodes", "80", "--out", "resumed.txt"]);
    assert!(ok, "{said}");
    assert!(said.contains("resuming:"), "{said}");
    assert_eq!(read("resumed.txt"), one);
    assert!(!journal.exists());

    // A journal of another depth is refused by name.
    std::fs::write(&journal, "# crossboard 11-man book journal: depth 9\n").unwrap();
    let (ok, said) = book_run(d, &["--nodes", "80", "--out", "again.txt"]);
    assert!(ok, "{said}");
    std::fs::write(
        d.join("again.txt.journal"),
        "# crossboard 11-man book journal: depth 9\n",
    )
    .unwrap();
    let (ok, said) = book_run(d, &["--nodes", "80", "--out", "again.txt"]);
    assert!(!ok && said.contains("made for another build"), "{said}");
}

#[test]
fn a_player_with_a_book_plays_its_moves_and_searches_out_of_it() {
    use crossboard::engine::{Game, Rules};
    use crossboard::search::selfplay::{EnginePlayer, MoveLimit, Player};
    use crossboard::search::{Level, Options};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    let start = eleven_man_positions()[0].position;
    let moves: Vec<String> = start
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    let n = moves.len();
    // The book's two best are its last two moves, 2 apart; the rest a man worse.
    let listed: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| match n - i {
            1 => format!("{m}=30"),
            2 => format!("{m}=28"),
            _ => format!("{m}=-70"),
        })
        .collect();
    let text = format!(
        "{BOOK_VERSION}\n{}\t6\t{}\n",
        start.to_fen(),
        listed.join(" ")
    );
    let book = Arc::new(Book::parse("b.txt", &text).unwrap());
    let limit = MoveLimit {
        depth: Some(3),
        ..MoveLimit::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let play = |seed: u64, book: Option<Arc<Book>>, from: Position| {
        let mut player = EnginePlayer::new(Level::Master, Options::default(), seed).with_book(book);
        player.new_game().unwrap();
        player
            .choose(&Game::new(Rules::English, from), &limit, &stop)
            .unwrap()
    };
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let c = play(seed, Some(book.clone()), start);
        assert_eq!(c.depth, None, "from the book, not searched");
        chosen.insert(c.mv.to_string());
    }
    let best_two: std::collections::BTreeSet<String> = moves[n - 2..].iter().cloned().collect();
    assert_eq!(chosen, best_two);
    // Out of book, and without a book: searched.
    assert_eq!(play(1, Some(book), Position::start()).depth, Some(3));
    assert_eq!(play(1, None, start).depth, Some(3));
}

#[test]
fn engine_match_refuses_a_damaged_book_by_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fen = eleven_man_positions()[0].position.to_fen();
    std::fs::write(
        d.join("bad.txt"),
        format!("{BOOK_VERSION}\n{fen}\t6\t1-5=3\n"),
    )
    .unwrap();
    std::fs::write(d.join("good.txt"), format!("{BOOK_VERSION}\n")).unwrap();
    for (args, said) in [
        (
            vec!["--book", "bad.txt"],
            "bad.txt line 2: moves: move 1 (1-5=3)",
        ),
        (
            vec!["--opponent-book", "bad.txt"],
            "bad.txt line 2: moves: move 1 (1-5=3)",
        ),
        (
            vec!["--book", "good.txt", "--game", "pool"],
            "good.txt: an opening book is for English draughts",
        ),
    ] {
        let head = [
            "engine-match",
            "--ballots",
            "1",
            "--nodes",
            "100",
            "--no-egdb",
        ];
        let (ok, err) = run_in(d, &[&head[..], &["--out", "games.pdn"], &args].concat());
        assert!(!ok && err.contains(said), "{args:?}: {err}");
        assert!(!d.join("games.pdn").exists());
    }
}

#[test]
fn the_shipped_book_reads_whole_and_holds_every_position() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/eleven_man_book.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let book = Book::parse("assets/eleven_man_book.txt", &text).unwrap();
    assert_eq!(book.len(), 7023);
    assert!(book.entries().iter().all(|e| e.depth == 8));
    assert!(
        eleven_man_positions()
            .iter()
            .all(|p| book.get(&p.position).is_some())
    );
    assert!(text.contains("--depth 8 --nodes 60000 --ids 1-2500"));
}
