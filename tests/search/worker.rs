//! The worker thread: progress and results arrive over the channel, and cancelling is prompt.

use crossboard::engine::Position;
use crossboard::search::{Level, Options, Report, Request, Searcher, Task};
use std::time::{Duration, Instant};

fn wait_done(s: &Searcher, job: u64, within: Duration) -> (Vec<Report>, Option<Report>) {
    let end = Instant::now() + within;
    let mut seen = Vec::new();
    while Instant::now() < end {
        match s.recv_timeout(Duration::from_millis(20)) {
            Some(r @ Report::Done { .. }) if r.job() == job => return (seen, Some(r)),
            Some(r) => seen.push(r),
            None => {}
        }
    }
    (seen, None)
}

#[test]
fn hint_reports_progress_then_a_legal_move() {
    let mut s = Searcher::spawn(Options {
        hash_mb: 4,
        ..Options::default()
    });
    let pos = Position::start();
    let job = s.start(Request {
        position: pos,
        history: vec![],
        task: Task::Best {
            depth: Some(8),
            time_ms: None,
            nodes: None,
        },
    });
    let (progress, done) = wait_done(&s, job, Duration::from_secs(30));
    let Some(Report::Done { result, .. }) = done else {
        panic!("no result")
    };
    assert_eq!(result.depth, 8);
    assert!(pos.legal_moves().contains(&result.best.unwrap()));
    let depths: Vec<u32> = progress
        .iter()
        .filter_map(|r| match r {
            Report::Progress { info, .. } => Some(info.depth),
            _ => None,
        })
        .collect();
    assert_eq!(depths, (1..=8).collect::<Vec<_>>());
}

#[test]
fn cancel_and_restart() {
    let mut s = Searcher::spawn(Options {
        hash_mb: 4,
        ..Options::default()
    });
    let pos = Position::start();
    // An unbounded search, cancelled: the result comes promptly.
    let first = s.start(Request {
        position: pos,
        history: vec![],
        task: Task::Best {
            depth: None,
            time_ms: None,
            nodes: None,
        },
    });
    std::thread::sleep(Duration::from_millis(100));
    // Starting a new job cancels the first; both finish, in order, each tagged.
    let second = s.start(Request::play(pos, vec![], Level::Beginner, 3));
    assert_ne!(first, second);
    let (_, done1) = wait_done(&s, first, Duration::from_secs(5));
    assert!(done1.is_some(), "the cancelled job reports its best so far");
    let (_, done2) = wait_done(&s, second, Duration::from_secs(10));
    let Some(Report::Done { result, .. }) = done2 else {
        panic!("second job")
    };
    assert!(pos.legal_moves().contains(&result.best.unwrap()));
    // An explicit cancel.
    let third = s.start(Request::hint(pos, vec![], 60_000));
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    s.cancel();
    let (_, done3) = wait_done(&s, third, Duration::from_secs(5));
    assert!(done3.is_some());
    assert!(t.elapsed() < Duration::from_secs(5));
    drop(s); // joins the thread without hanging
}

#[test]
fn a_game_review_runs_on_the_worker() {
    let mut s = Searcher::spawn(Options {
        hash_mb: 4,
        ..Options::default()
    });
    // Red misses the 2-for-1 shot (15-18) with 10-14.
    let start = Position::from_fen("B:W22,23,29,32:B6,7,10,15").unwrap();
    let mut positions = vec![start];
    for text in ["10-14", "29-25"] {
        let last = *positions.last().unwrap();
        let mv = crossboard::engine::parse_move(&last, text).unwrap();
        positions.push(last.after(&mv));
    }
    let job = s.start(Request::review(positions, 6));
    let end = Instant::now() + Duration::from_secs(30);
    let mut progress = Vec::new();
    let mut reviewed = None;
    while Instant::now() < end && reviewed.is_none() {
        match s.recv_timeout(Duration::from_millis(20)) {
            Some(Report::ReviewProgress { done, total, .. }) => progress.push((done, total)),
            Some(Report::Reviewed { job: j, moves }) if j == job => reviewed = Some(moves),
            _ => {}
        }
    }
    let moves = reviewed.expect("review finished");
    assert_eq!(progress, vec![(1, 3), (2, 3), (3, 3)]);
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0].played.to_string(), "10-14");
    assert!(moves[0].mark.is_some(), "{:?}", moves[0]);
}
