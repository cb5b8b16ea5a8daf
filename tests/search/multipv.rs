//! Multi-PV analysis: the first line is the single search's, the lines are distinct root moves
//! sorted by exact score, and the worker reports them depth by depth until stopped.

use crossboard::engine::{Position, parse_move};
use crossboard::search::{Engine, Limits, MultiInfo, Options, Report, Request, Searcher, Task};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The search as plain alpha-beta to the depth asked: exact scores comparable between searches.
fn strict() -> Options {
    Options {
        hash_mb: 4,
        strict_tt: true,
        reductions: false,
        probcut: false,
        ..Options::default()
    }
}

/// The start, and positions a few moves into two openings.
fn positions() -> Vec<Position> {
    let after = |moves: &[&str]| {
        moves.iter().fold(Position::start(), |pos, text| {
            pos.after(&parse_move(&pos, text).unwrap())
        })
    };
    vec![
        Position::start(),
        after(&["11-15", "23-19", "8-11", "22-17"]),
        after(&["9-14", "22-17", "11-15", "25-22", "15-19", "24x15", "10x19"]),
    ]
}

fn analyse(options: Options, pos: &Position, lines: usize, depth: u32) -> MultiInfo {
    let stop = Arc::new(AtomicBool::new(false));
    Engine::new(options).analyse(pos, &[], lines, Limits::depth(depth), stop, |_| {})
}

#[test]
fn one_line_is_what_the_single_search_finds() {
    for pos in positions() {
        let single = Engine::new(strict()).search_simple(&pos, Limits::depth(7));
        let one = analyse(strict(), &pos, 1, 7);
        assert_eq!(one.depth, 7);
        assert_eq!(one.lines.len(), 1);
        assert_eq!(one.lines[0].score, single.score, "{}", pos.to_fen());
        assert_eq!(one.lines[0].pv[0], single.best.unwrap(), "{}", pos.to_fen());
        // More lines leave the best score as it is, and the single search's move among the
        // lines that have it.
        let three = analyse(strict(), &pos, 3, 7);
        assert_eq!(three.lines[0].score, single.score, "{}", pos.to_fen());
        assert!(
            three
                .lines
                .iter()
                .any(|l| l.score == single.score && l.pv[0] == single.best.unwrap()),
            "{}",
            pos.to_fen()
        );
    }
}

#[test]
fn the_lines_are_distinct_moves_with_the_exact_scores_of_the_best_moves() {
    for pos in positions() {
        let depth = 6;
        let stop = Arc::new(AtomicBool::new(false));
        let every: Vec<i32> = Engine::new(strict())
            .score_moves(&pos, &[], depth, stop)
            .iter()
            .map(|(_, s)| s.0)
            .collect();
        // Four lines, or as many as there are moves.
        let n = every.len().min(4);
        let info = analyse(strict(), &pos, 4, depth);
        assert_eq!(info.lines.len(), n);
        let scores: Vec<i32> = info.lines.iter().map(|l| l.score.0).collect();
        assert_eq!(scores, every[..n], "{}", pos.to_fen());
        let mut firsts: Vec<_> = info.lines.iter().map(|l| l.pv[0]).collect();
        firsts.sort_by_key(|m| m.to_string());
        firsts.dedup();
        assert_eq!(firsts.len(), n, "{}", pos.to_fen());
        for line in &info.lines {
            assert!(pos.legal_moves().contains(&line.pv[0]));
        }
    }
}

#[test]
fn the_default_search_gives_sorted_distinct_lines_and_no_more_than_the_moves() {
    let pos = positions()[1];
    let options = Options {
        hash_mb: 4,
        ..Options::default()
    };
    let info = analyse(options, &pos, 5, 8);
    assert_eq!(info.depth, 8);
    assert_eq!(info.lines.len(), 5);
    assert!(info.lines.windows(2).all(|w| w[0].score >= w[1].score));
    let mut firsts: Vec<String> = info.lines.iter().map(|l| l.pv[0].to_string()).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 5);
    // The start has seven moves: asked for nine lines, seven come.
    let all = analyse(options, &Position::start(), 9, 4);
    assert_eq!(all.lines.len(), 7);
    // A side with no move has no line.
    let stuck = Position::from_fen("B:W31,32:B27").unwrap();
    let none = analyse(options, &stuck, 3, 4);
    assert!(none.lines.is_empty());
}

#[test]
fn the_worker_reports_each_depth_until_stopped_and_stops_at_once() {
    let mut s = Searcher::spawn(Options {
        hash_mb: 4,
        ..Options::default()
    });
    let job = s.start(Request {
        position: Position::start(),
        history: vec![],
        task: Task::Analyse { lines: 3 },
    });
    let mut depths = Vec::new();
    while depths.len() < 6 {
        match s.recv_timeout(Duration::from_secs(30)) {
            Some(Report::Analysis { job: j, info, .. }) if j == job => {
                assert_eq!(info.lines.len(), 3);
                depths.push(info.depth);
            }
            Some(other) => panic!("unexpected {other:?}"),
            None => panic!("no report within 30 s"),
        }
    }
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
    s.cancel();
    loop {
        match s.recv_timeout(Duration::from_secs(5)) {
            Some(Report::Done { job: j, result }) if j == job => {
                assert!(result.depth >= 6 && result.best.is_some());
                break;
            }
            Some(Report::Analysis { .. }) => {}
            other => panic!("no result after stopping: {other:?}"),
        }
    }
}
