//! A Hub engine's thinking read by the client: crossboard's own `crossboard hub` analysed to a
//! depth and stopped in an endless analysis, the stub engine's info lines read whole, in part
//! (what is not read named) or without a score, on the caller's thread and on the analyst's.

use crossboard::engine::{Move, Position};
use crossboard::hub::{HubAnalyst, HubProgram, HubReport, HubTask, review_game};
use crossboard::search::{GameLimits, pv_text};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const STUB: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/hub/stub-engine.sh"
);

/// `crossboard hub` with a small table and no databases, as the config would name it.
fn own_hub() -> HubProgram {
    HubProgram {
        label: "own".into(),
        program: PathBuf::from(env!("CARGO_BIN_EXE_crossboard")),
        args: ["hub", "--hash", "4", "--no-egdb"]
            .map(String::from)
            .to_vec(),
        params: Vec::new(),
    }
}

fn stub(mode: &str) -> HubProgram {
    HubProgram {
        label: "stub".into(),
        program: PathBuf::from(STUB),
        args: vec![mode.to_string(), "Stubby".into()],
        params: Vec::new(),
    }
}

fn depth(d: u32) -> GameLimits {
    GameLimits {
        depth: Some(d),
        time_ms: None,
    }
}

const ENDLESS: GameLimits = GameLimits {
    depth: None,
    time_ms: None,
};

#[test]
fn crossboards_own_hub_engine_is_read_to_a_depth_with_its_line_checked() {
    let mut engine = own_hub().start().unwrap();
    let start = Position::start();
    let opening: Vec<Move> = ["11-15", "23-19"]
        .iter()
        .scan(start, |p, t| {
            let mv = crossboard::engine::parse_move(p, t).unwrap();
            *p = p.after(&mv);
            Some(mv)
        })
        .collect();
    let here = start.after(&opening[0]).after(&opening[1]);
    let mut depths = Vec::new();
    let stop = engine.stopper();
    let found = engine
        .analyse(&start, &opening, depth(6), &stop, |i| {
            depths.extend(i.depth)
        })
        .unwrap();
    assert_eq!(depths.last(), Some(&6), "{depths:?}");
    let info = found.info.as_ref().unwrap();
    assert!(info.score.is_some() && info.nodes.is_some() && info.nps.is_some());
    assert!(
        info.unread.is_empty(),
        "crossboard's lines read whole: {info:?}"
    );
    assert!(info.pv.len() >= 2, "{info:?}");
    let best = found.best.unwrap();
    assert!(here.legal_moves().contains(&best));
    assert_eq!(found.line().first(), Some(&best));
    assert!(!found.stopped);
}

/// An endless analysis runs until stopped, and the stop is answered at once with a move.
#[test]
fn an_endless_analysis_stops_at_once() {
    let mut analyst = HubAnalyst::spawn(own_hub());
    let job = analyst.start(Position::start(), Vec::new(), HubTask::Analyse(ENDLESS));
    let mut deepest = 0;
    let end = Instant::now() + Duration::from_secs(30);
    while deepest < 8 && Instant::now() < end {
        match analyst.recv_timeout(Duration::from_secs(1)) {
            Some(HubReport::Info { job: j, info, .. }) if j == job => {
                deepest = deepest.max(info.depth.unwrap_or(0));
            }
            Some(HubReport::Failed { why, .. }) => panic!("{why}"),
            _ => {}
        }
    }
    assert!(deepest >= 8, "depth {deepest} within 30 s");
    let asked = Instant::now();
    analyst.cancel();
    let analysis = loop {
        match analyst.recv_timeout(Duration::from_secs(5)) {
            Some(HubReport::Done { job: j, analysis }) if j == job => break analysis,
            Some(HubReport::Info { .. }) => {}
            other => panic!("no end of the analysis: {other:?}"),
        }
    };
    // Endless: without the stop it would never end; a loaded machine may take a moment.
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "stopped in {:?}",
        asked.elapsed()
    );
    assert!(analysis.stopped);
    assert!(
        Position::start()
            .legal_moves()
            .contains(&analysis.best.unwrap())
    );
}

#[cfg(unix)]
#[test]
fn the_stubs_info_lines_are_read_and_what_cannot_be_is_named() {
    let start = Position::start();
    let mut engine = stub("think").start().unwrap();
    let stop = engine.stopper();
    let found = engine
        .analyse(&start, &[], depth(3), &stop, |_| {})
        .unwrap();
    let info = found.info.clone().unwrap();
    assert_eq!(info.depth, Some(3));
    assert_eq!(info.score, Some(crossboard::search::Score(12)));
    assert_eq!(info.nps, Some(300_000.0));
    assert_eq!(pv_text(&info.pv), "11-15 23-19 8-11");
    assert_eq!(found.best.map(|m| m.to_string()).as_deref(), Some("11-15"));

    let mut engine = stub("badinfo").start().unwrap();
    let stop = engine.stopper();
    let found = engine
        .analyse(&start, &[], depth(3), &stop, |_| {})
        .unwrap();
    let info = found.info.clone().unwrap();
    assert_eq!(pv_text(&info.pv), "11-15", "the legal part of the line");
    assert_eq!(info.depth, None);
    assert_eq!(found.unread, info.unread);
    let unread = found.unread.join("\n");
    assert!(
        unread.contains("depth=\"deep\" is not a number"),
        "{unread}"
    );
    assert!(
        unread.contains("pv: move 2 \"11-15\" is not legal after 11-15"),
        "{unread}"
    );
    assert!(unread.contains("unknown key hashfull=9"), "{unread}");

    // A review needs a score: an engine that gives none is named.
    let mut engine = stub("noscore").start().unwrap();
    let stop = engine.stopper();
    let e = review_game(&mut engine, &start, &[], depth(3), &stop, |_| {}).unwrap_err();
    assert!(
        e.starts_with("Stubby 1.0: gave no score for the position after 0 plies"),
        "{e}"
    );
}

/// The stub stopped in an endless analysis, and misbehaving in one: each end reported by the
/// analyst with the engine named.
#[cfg(unix)]
#[test]
fn the_analyst_reports_the_stubs_lines_its_stop_and_its_failures() {
    let mut analyst = HubAnalyst::spawn(stub("think"));
    let job = analyst.start(Position::start(), Vec::new(), HubTask::Analyse(ENDLESS));
    let wait = |a: &HubAnalyst| a.recv_timeout(Duration::from_secs(10)).expect("a report");
    assert_eq!(
        wait(&analyst),
        HubReport::Ready {
            name: "Stubby 1.0".into()
        }
    );
    let HubReport::Info { job: j, info, .. } = wait(&analyst) else {
        panic!("an info line")
    };
    assert_eq!((j, info.depth), (job, Some(3)));
    analyst.cancel();
    let HubReport::Done { analysis, .. } = wait(&analyst) else {
        panic!("the stopped analysis' end")
    };
    assert!(analysis.stopped);

    for (mode, said) in [
        ("crash", "Stubby 1.0: the engine quit (exit status: 3)"),
        ("garbage", "Stubby 1.0: sent a line that is no Hub message"),
        (
            "illegal",
            "Stubby 1.0: played \"1-32\", not a legal move here",
        ),
    ] {
        let mut analyst = HubAnalyst::spawn(stub(mode));
        let job = analyst.start(Position::start(), Vec::new(), HubTask::Analyse(depth(2)));
        assert!(matches!(wait(&analyst), HubReport::Ready { .. }));
        let report = loop {
            match wait(&analyst) {
                HubReport::Info { .. } => {}
                other => break other,
            }
        };
        let HubReport::Failed { job: j, why } = report else {
            panic!("{mode}: {report:?}")
        };
        assert_eq!(j, Some(job));
        assert!(why.starts_with(said), "{mode}: {why}");
    }
    let gone = HubProgram {
        program: PathBuf::from("/nonexistent/engine"),
        ..stub("think")
    };
    let analyst = HubAnalyst::spawn(gone);
    let HubReport::Failed { job: None, why } = wait(&analyst) else {
        panic!("a failed start")
    };
    assert!(
        why.starts_with("stub: cannot start /nonexistent/engine"),
        "{why}"
    );
}
