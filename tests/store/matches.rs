//! The match file: every state of a long scripted match survives write-then-read, and a match
//! whose process is "killed" at many points (everything in memory dropped, reloaded from disk,
//! resumed) ends identical to the uninterrupted one.

use chrono::{DateTime, TimeZone, Utc};
use crossboard::director::{
    Awaiting, ColourMethod, Command, GameRecord, Match, MatchSettings, Now, RejectionPolicy,
    TimeControl,
};
use crossboard::engine::{Color, Outcome};
use crossboard::openings::System;
use crossboard::store::LoadError;
use crossboard::store::match_to_pdn;
use crossboard::store::{
    END_MARKER, MatchFile, MatchStore, StoreError, WriterLock, latest_unfinished, list_matches,
    load_match, v1_text,
};
use crossboard::store::{PdnResult, read_pdn, write_pdn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

fn wall(ms: u64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(1_780_000_000_000 + ms as i64)
        .unwrap()
}

/// The clocks' reading when a crossboard process starts (its monotonic clock at 0) at
/// `wall_ms` on the wall clock.
fn started(wall_ms: u64) -> Now {
    Now {
        mono_ms: 0,
        wall: wall(wall_ms),
    }
}

/// A new match of `ballots` ballots, made when the process starts at wall time 0.
fn new_match(ballots: u32) -> Match {
    Match::new(settings(ballots), started(0)).unwrap()
}

fn settings(ballots: u32) -> MatchSettings {
    let mut s = MatchSettings {
        players: ["Ann Smith".into(), "Bob Jones".into()],
        event: "Scripted match".into(),
        ballots,
        rejection: RejectionPolicy::PlayersMayReject,
        colour_method: ColourMethod::CoinFlip,
        time_control: TimeControl::moves_per_period(30, 3600),
        ..MatchSettings::default()
    };
    s.openings.system = System::ElevenMan;
    s
}

/// The players and the director, as a script: what they do next depends on the match and on
/// the step number only, so a run interrupted and resumed takes the same decisions.
struct Script {
    seed: u64,
    step: u64,
    /// Wall-clock milliseconds since the match began (a kill and restart take no time).
    elapsed: u64,
}

impl Script {
    fn rng(&self, salt: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed ^ (self.step << 8) ^ salt)
    }

    /// The next command and how long the humans take before giving it; `None` when over.
    fn next(&self, m: &Match) -> Option<(u64, Command)> {
        let mut r = self.rng(1);
        let cmd = match m.awaiting() {
            Awaiting::Nothing => return None,
            Awaiting::Toss(_) => Command::CallCoin {
                caller: crossboard::director::Player::Second,
                call: crossboard::director::CoinSide::Heads,
            },
            Awaiting::ColourChoice(p) => Command::ChooseColour {
                player: p,
                colour: Color::Red,
            },
            Awaiting::BallotDraw(_) => Command::DrawBallot,
            Awaiting::Decision { colour, .. } => {
                let reject = match colour {
                    Color::White => r.random_range(0..10) < 3,
                    Color::Red => r.random_range(0..10) < 5,
                };
                if reject {
                    Command::Reject { colour }
                } else {
                    Command::Accept { colour }
                }
            }
            Awaiting::GameStart { .. } => Command::StartGame,
            Awaiting::Resume => Command::ResumeClocks,
            Awaiting::Move { colour, .. } => return Some(self.move_turn(m, colour, &mut r)),
        };
        Some((r.random_range(1_000..20_000), cmd))
    }

    fn move_turn(&self, m: &Match, colour: Color, r: &mut ChaCha8Rng) -> (u64, Command) {
        let g = m.playing().expect("a game in play");
        let plies = g.game.moves().len();
        let think = r.random_range(2_000..150_000);
        if m.draw_offer() == Some(colour.opponent()) {
            return (think, Command::DeclineDraw { colour });
        }
        let offer_pending = m.draw_offer().is_some();
        if m.claimable_draw().is_some() {
            return (think, Command::ClaimDraw { colour });
        }
        let dice = r.random_range(0..1000);
        let cmd = match dice {
            _ if plies > 70 && dice < 300 => Command::Resign { colour },
            0..=9 => Command::PauseClocks {
                reason: "dispute about the touch-move rule".into(),
            },
            10..=17 if plies > 2 => Command::TakeBack {
                moves: 1,
                reason: "mis-entry".into(),
            },
            18..=24 => Command::AdjustTime {
                colour,
                delta_ms: 60_000,
                reason: "clock malfunction".into(),
            },
            25..=29 if !offer_pending => Command::OfferDraw { colour },
            30..=31 if plies > 10 => Command::Adjudicate {
                outcome: Outcome::Draw,
                reason: "hall closing".into(),
            },
            32 => return (2 * 3_600_000, self.random_move(g, colour, r)), // a flag
            _ => self.random_move(g, colour, r),
        };
        (think, cmd)
    }

    fn random_move(&self, g: &GameRecord, colour: Color, r: &mut ChaCha8Rng) -> Command {
        let moves = g.game.position().distinct_moves();
        Command::PlayMove {
            colour,
            mv: moves[r.random_range(0..moves.len())],
        }
    }
}

/// One process's view: the match in memory, and its monotonic clock origin.
struct Process {
    m: Match,
    mono_origin: u64,
}

impl Process {
    fn now(&self, s: &Script) -> Now {
        Now {
            mono_ms: s.elapsed - self.mono_origin,
            wall: wall(s.elapsed),
        }
    }
}

/// Run the scripted match. `kill_every`: after that many steps, drop the process and load
/// the match back from `path` (0: never). `check_every_state`: after each save, read the
/// file back and compare it with memory. Returns the final match and the number of kills.
fn run(
    seed: u64,
    ballots: u32,
    path: &Path,
    kill_every: u64,
    check_every_state: bool,
) -> (Match, u32) {
    let mut s = Script {
        seed,
        step: 0,
        elapsed: 0,
    };
    let m = new_match(ballots);
    let mut store = MatchStore::create(path, &m).unwrap();
    // Thousands of saves: skip the disk syncs (store_atomic tests the synced path).
    store.set_durable(false);
    let mut p = Process { m, mono_origin: 0 };
    let mut kills = 0;
    while let Some((wait, cmd)) = s.next(&p.m) {
        s.elapsed += wait;
        let now = p.now(&s);
        let mut rng = s.rng(2);
        p.m.apply(cmd.clone(), now, &mut rng)
            .unwrap_or_else(|e| panic!("step {}: {cmd:?} refused: {e}", s.step));
        store.save(&p.m).unwrap();
        s.step += 1;
        if check_every_state {
            let back = load_match(path).unwrap_or_else(|e| panic!("step {}: {e}", s.step));
            // Appended record by record, the file is what writing the match at once gives.
            let written = MatchFile::new(p.m.clone()).to_text().unwrap();
            assert_eq!(
                std::fs::read_to_string(path).unwrap(),
                written,
                "step {}",
                s.step
            );
            assert_eq!(back.the_match, p.m, "step {}", s.step);
            assert_eq!(back.the_match.phase(), p.m.phase());
        }
        if kill_every > 0 && s.step.is_multiple_of(kill_every) {
            // Kill: nothing survives but the file. A new process starts its monotonic clock
            // afresh, reloads and resumes with the clocks held.
            kills += 1;
            drop(p);
            drop(store); // the process's lock goes with it
            let (reopened, file) = MatchStore::open(path).unwrap();
            store = reopened;
            store.set_durable(false);
            let mut m = file.the_match;
            p = Process {
                m: m.clone(),
                mono_origin: s.elapsed,
            };
            let was_paused = director_paused(&m);
            m.reopen(p.now(&s));
            // A clock the kill stopped is started again at once (a director's own pause
            // stays until the script resumes it).
            if m.awaiting() == Awaiting::Resume && !was_paused {
                m.apply(Command::ResumeClocks, p.now(&s), &mut s.rng(3))
                    .unwrap();
            }
            p.m = m;
            store.save(&p.m).unwrap();
        }
        assert!(s.step < 20_000, "the script does not end");
    }
    (p.m, kills)
}

/// The director's own pause, as the log leaves it (before a new process holds the clocks).
fn director_paused(m: &Match) -> bool {
    m.playing().is_some_and(|g| g.clock.is_paused())
}

/// What must be identical between an interrupted and an uninterrupted run.
fn games_summary(m: &Match) -> Vec<String> {
    let mut out = Vec::new();
    for b in m.ballots() {
        out.push(format!(
            "ballot {} {} red-first {:?}",
            b.number,
            b.opening.reference(),
            b.red_first
        ));
    }
    for r in m.rejected() {
        out.push(format!("rejected {} {}", r.ballot, r.opening.reference()));
    }
    for g in m.games() {
        out.push(format!(
            "game {}.{} red {:?} start {} result {:?}",
            g.ballot,
            g.number,
            g.red,
            g.game.start().to_fen(),
            g.result
        ));
        for mv in &g.moves {
            out.push(format!(
                "  {:?} {} spent {} left {:?} period {} {}",
                mv.colour, mv.mv, mv.spent_ms, mv.remaining_ms, mv.period, mv.at
            ));
        }
    }
    out.push(format!("outcome {:?}", m.outcome()));
    out.push(format!("score {:?}", m.score().total));
    out
}

/// Line by line, reporting the first difference.
fn same(resumed: &[String], whole: &[String], kill_every: u64) {
    for (i, (a, b)) in resumed.iter().zip(whole).enumerate() {
        assert_eq!(a, b, "kill every {kill_every}: line {i} differs");
    }
    assert_eq!(resumed.len(), whole.len(), "kill every {kill_every}");
}

#[test]
fn every_state_of_a_long_match_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.toml");
    let (m, _) = run(7, 2, &path, 0, true);
    let games: Vec<&GameRecord> = m.games().collect();
    assert!(games.len() >= 4, "{} games", games.len());
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(moves > 150, "{moves} moves");
    assert!(m.outcome().is_some());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("{\"format-version\":2}\n"),
        "{}",
        &text[..80]
    );
    // One record a line after the version and the settings.
    assert_eq!(text.lines().count(), 2 + m.log().len());
    assert!(text.ends_with('\n'));
}

#[test]
fn killed_and_resumed_many_times_ends_identical() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = run(11, 3, &dir.path().join("whole.toml"), 0, false);
    for kill_every in [2, 13] {
        let path = dir.path().join(format!("killed-{kill_every}.toml"));
        let (resumed, kills) = run(11, 3, &path, kill_every, false);
        assert!(kills > 15, "{kills} kills");
        same(&games_summary(&resumed), &games_summary(&whole), kill_every);
        // The resumed match says so in its log.
        assert!(resumed.log().len() > whole.log().len());
    }
    assert!(whole.games().any(|g| g.moves.len() > 40));
}

#[test]
fn export_writes_every_game_and_reimports() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.toml");
    let (m, _) = run(3, 2, &path, 0, false);
    let games = match_to_pdn(&m);
    assert_eq!(games.len(), m.games().count());
    let text = write_pdn(&games);
    let back: Vec<_> = read_pdn(&text).into_iter().map(|r| r.unwrap()).collect();
    for ((g, p), q) in m.games().zip(&games).zip(&back) {
        assert_eq!(
            p.tag("Round"),
            Some(format!("{}.{}", g.ballot, g.number).as_str())
        );
        assert_eq!(p.tag("Black"), Some(g.red_name.as_str()));
        assert_eq!(p.tag("TimeControl"), Some("30/3600"));
        assert!(p.tag("Ballot").unwrap().starts_with("11-Man Ballot "));
        assert_eq!(q.start, *g.game.start());
        assert_eq!(q.moves, g.game.moves());
        assert_eq!(q.replay().unwrap().positions(), g.game.positions());
        let expected = g
            .result
            .as_ref()
            .map_or(PdnResult::Unfinished, |r| PdnResult::from(Some(r.outcome)));
        assert_eq!(q.result, expected);
        for (rec, clock) in g.moves.iter().zip(&q.clocks) {
            let ms = rec.remaining_ms.unwrap();
            assert_eq!(*clock, Some(ms.max(0) as u64 / 1000 * 1000));
        }
    }
    assert!(text.contains("[SetUp \"1\"]"));
    assert!(text.contains("{[%clock "));
}

/// A finished one-ballot match saved at `path`: the match, the file's bytes and text, and the
/// length of its version and settings lines.
fn one_ballot_file(path: &Path) -> (Match, Vec<u8>, String, usize) {
    let (m, _) = run(5, 1, path, 0, false);
    let good = std::fs::read(path).unwrap();
    let text = String::from_utf8(good.clone()).unwrap();
    let header = text.find("\n{\"at\"").unwrap() + 1;
    (m, good, text, header)
}

#[test]
fn damaged_files_are_refused_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.jsonl");
    let (m, good, text, header) = one_ballot_file(&path);
    // Cut short in the version or the settings line: refused, the file named and untouched.
    for cut in (0..header).step_by(header / 29 + 1) {
        std::fs::write(&path, &good[..cut]).unwrap();
        let e = MatchStore::open(&path).unwrap_err();
        assert!(e.to_string().contains("match.jsonl"), "{e}");
        // A new match cannot be created over it either.
        assert!(matches!(
            MatchStore::create(&path, &m),
            Err(StoreError::Exists(_))
        ));
        assert_eq!(std::fs::read(&path).unwrap(), &good[..cut]);
    }
    // Hand-edited wrong: a bad value names its line and its key.
    let edited = text.replacen("\"ballots\":1", "\"ballots\":\"one\"", 1);
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    let e = load_match(&path).unwrap_err();
    assert_eq!(e.line(), Some(2), "{e}");
    assert!(e.to_string().contains("ballots"), "{e}");
    // A move that does not follow: refused with its line and the reason.
    let moves: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"event\":\"move\""))
        .map(|(i, _)| i)
        .collect();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(moves[4], moves[5]);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let e = load_match(&path).unwrap_err();
    assert_eq!(e.line(), Some(moves[4] + 1), "{e}");
    // A newer format is refused.
    std::fs::write(
        &path,
        text.replacen("\"format-version\":2", "\"format-version\":3", 1),
    )
    .unwrap();
    assert!(matches!(
        load_match(&path),
        Err(LoadError::Newer { found: 3, .. })
    ));
    // Replacing it must be asked for, and keeps the damaged file aside.
    let (store, aside) = MatchStore::replace_damaged(&path, &m, wall(5)).unwrap();
    let aside = aside.unwrap();
    assert!(
        std::fs::read_to_string(&aside)
            .unwrap()
            .contains("\"format-version\":3")
    );
    assert_eq!(store.path(), path);
    assert!(load_match(&path).is_ok());
}

#[test]
fn a_record_torn_by_a_crash_is_dropped_with_a_note_and_cut_off_when_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.jsonl");
    let (m, good, text, header) = one_ballot_file(&path);
    let log = m.log();
    // The creation record is written with the file, atomically: never torn.
    let first = header + text[header..].find('\n').unwrap() + 1;
    // Cut anywhere among the records: loads to exactly the whole records before the cut
    // (less an action cut in two), says what it dropped, and writes nothing.
    for cut in (first..good.len()).step_by(good.len() / 113 + 1) {
        std::fs::write(&path, &good[..cut]).unwrap();
        let (store, file) = MatchStore::open(&path).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
        let n = file.the_match.log().len();
        assert_eq!(file.the_match.log(), &log[..n], "cut {cut}");
        let whole_lines = good[..cut].iter().filter(|&&b| b == b'\n').count() - 2;
        let torn = good[cut - 1] != b'\n';
        assert!(n <= whole_lines + usize::from(torn), "cut {cut}");
        if n < whole_lines || (torn && n == whole_lines) {
            let d = file.dropped.clone().unwrap();
            assert!(d.to_string().contains("cut short by a crash"), "{d}");
        }
        drop(store);
        assert_eq!(std::fs::read(&path).unwrap(), &good[..cut], "cut {cut}");
    }
    // Continued: the torn part is cut off before the next record.
    let cut = good.len() - 9;
    std::fs::write(&path, &good[..cut]).unwrap();
    let (mut store, file) = MatchStore::open(&path).unwrap();
    assert!(file.dropped.is_some());
    let mut m2 = file.the_match;
    m2.reopen(started(1));
    store.save(&m2).unwrap();
    let back = load_match(&path).unwrap();
    assert!(back.dropped.is_none());
    assert_eq!(back.the_match, m2);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        MatchFile::new(m2).to_text().unwrap()
    );
}

#[test]
fn a_version_1_file_opens_and_is_rewritten_as_version_2_only_when_continued() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.toml");
    let (m, _) = run(5, 1, &dir.path().join("new.jsonl"), 0, false);
    // The last game unfinished: take back the result.
    let v1 = v1_text(&m, wall(7)).unwrap();
    assert!(v1.starts_with("format-version = 1\n"));
    assert!(v1.trim_end().ends_with(END_MARKER));
    std::fs::write(&path, &v1).unwrap();
    // Read and checked like a version 2 file; looking writes nothing.
    let file = load_match(&path).unwrap();
    assert_eq!(file.format_version, 1);
    assert_eq!(file.the_match, m);
    assert_eq!(file.saved_at, wall(7));
    let (mut store, file) = MatchStore::open(&path).unwrap();
    let mut going_on = file.the_match;
    going_on.reopen(started(9_000));
    store.save(&m).unwrap(); // nothing new: nothing written
    assert_eq!(std::fs::read_to_string(&path).unwrap(), v1);
    assert!(!dir.path().join("old.v1.toml").exists());
    // Continued: the original kept as NAME.v1.toml, the file rewritten as version 2.
    going_on
        .apply(
            Command::Note {
                text: "continued".into(),
            },
            started(9_000),
            &mut ChaCha8Rng::seed_from_u64(0),
        )
        .unwrap();
    store.save(&going_on).unwrap();
    let kept = dir.path().join("old.v1.toml");
    assert_eq!(store.migrated(), Some(kept.as_path()));
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), v1);
    let back = load_match(&path).unwrap();
    assert_eq!(back.format_version, 2);
    assert_eq!(back.the_match, going_on);
    // And appended to from then on.
    let mut more = going_on.clone();
    more.apply(
        Command::Note {
            text: "more".into(),
        },
        started(9_500),
        &mut ChaCha8Rng::seed_from_u64(0),
    )
    .unwrap();
    store.save(&more).unwrap();
    assert_eq!(load_match(&path).unwrap().the_match, more);
    // The kept original is not listed as a second match.
    let listed: Vec<_> = list_matches(dir.path())
        .unwrap()
        .into_iter()
        .map(|l| l.path)
        .collect();
    assert!(!listed.contains(&kept), "{listed:?}");
    assert!(listed.contains(&path), "{listed:?}");
}

#[test]
fn latest_unfinished_match_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (finished, _) = run(5, 1, &d.join("done.toml"), 0, false);
    assert!(finished.outcome().is_some());
    let m = new_match(1);
    let older = MatchStore::create_in(d, &m, wall(1_000)).unwrap();
    let newer = MatchStore::create_in(d, &m, wall(2_000)).unwrap();
    assert_ne!(older.path(), newer.path());
    assert!(
        newer
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .contains("ann-smith-vs-bob-jones")
    );
    let mut later = m.clone();
    later
        .apply(
            Command::Note {
                text: "later".into(),
            },
            started(9_000_000),
            &mut ChaCha8Rng::seed_from_u64(0),
        )
        .unwrap();
    let mut older = older;
    older.save(&later).unwrap(); // saved last
    std::fs::write(d.join("broken.toml"), "format-version = 1\n[match\n").unwrap();
    std::fs::write(d.join(".hidden.toml.abc.tmp"), "junk").unwrap();
    // Modification times, oldest first: the finished match, the newer-named one, the one saved
    // last, the broken file.
    let base = std::time::SystemTime::now();
    for (i, name) in [
        d.join("done.toml"),
        newer.path().to_path_buf(),
        older.path().to_path_buf(),
        d.join("broken.toml"),
    ]
    .iter()
    .enumerate()
    {
        let f = std::fs::File::options().write(true).open(name).unwrap();
        f.set_modified(base + std::time::Duration::from_secs(i as u64 * 10))
            .unwrap();
    }
    let found = latest_unfinished(d).unwrap();
    assert_eq!(found.latest.unwrap().0, older.path());
    assert_eq!(found.damaged.len(), 1);
    assert!(found.damaged[0].path.ends_with("broken.toml"));
    assert!(found.damaged[0].file.is_err());
    assert_eq!(list_matches(d).unwrap().len(), 4);
    assert!(latest_unfinished(&d.join("none")).unwrap().latest.is_none());
}

/// Killed right after every single event (a draw offered, a note, a time adjustment, a pause,
/// a take-back mid-move among them), resumed at once: the match ends as the uninterrupted one,
/// every move's time to the millisecond.
#[test]
fn killed_after_every_event_ends_identical() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = run(19, 4, &dir.path().join("whole.toml"), 0, false);
    let (resumed, _) = run(19, 4, &dir.path().join("killed.toml"), 1, false);
    same(&games_summary(&resumed), &games_summary(&whole), 1);
}

#[test]
fn a_lock_let_go_a_moment_later_does_not_refuse_the_match() {
    // A lock is held for an instant after its owner is done with it: by a process that is
    // ending, or by a child another thread forks (it shares the open lock file until it execs).
    // Opening the match in that instant must not refuse it.
    use fs4::fs_std::FileExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.toml");
    let m = new_match(1);
    drop(MatchStore::create(&path, &m).unwrap());
    let lock_file = std::fs::File::open(WriterLock::path_for(&path)).unwrap();
    assert!(lock_file.try_lock_exclusive().unwrap());
    let letting_go = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        drop(lock_file);
    });
    let opened = MatchStore::open(&path);
    letting_go.join().unwrap();
    let (_store, file) = opened.unwrap();
    assert_eq!(file.the_match, m);
}

#[test]
fn a_second_crossboard_is_refused_while_the_first_has_the_match_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.toml");
    let m = new_match(1);
    let first = MatchStore::create(&path, &m).unwrap();
    let before = std::fs::read(&path).unwrap();
    let e = MatchStore::open(&path).unwrap_err();
    assert!(matches!(e, StoreError::Locked { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("open in another crossboard"), "{msg}");
    assert!(
        msg.contains(&format!("pid {} since ", std::process::id())),
        "{msg}"
    );
    // Looking needs no lock, and the file is untouched.
    assert!(load_match(&path).is_ok());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // Once the first lets go (or dies: the OS releases the lock), the match opens.
    drop(first);
    let (_second, file) = MatchStore::open(&path).unwrap();
    assert_eq!(file.the_match, m);
    // A lock file is never left beside a file that does not exist.
    assert!(MatchStore::open(&dir.path().join("none.toml")).is_err());
    assert!(!dir.path().join(".none.toml.lock").exists());
}

/// A game in play whose side to move has thought 5 s, had the clocks paused and resumed, and
/// thought 7 s more before offering a draw, saved event by event to `path`.
fn draw_offered_while_thinking(path: &Path) -> (Match, MatchStore) {
    let mut m = new_match(1);
    let mut store = MatchStore::create(path, &m).unwrap();
    let mut t = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut act = |m: &mut Match, wait: u64, cmd: Command| {
        t += wait;
        let now = Now {
            mono_ms: t,
            wall: wall(t),
        };
        m.apply(cmd, now, &mut rng).unwrap();
        store.save(m).unwrap();
    };
    let first = crossboard::director::Player::First;
    act(
        &mut m,
        0,
        Command::AssignColour {
            player: first,
            colour: Color::Red,
        },
    );
    act(&mut m, 0, Command::DrawBallot);
    while !matches!(m.awaiting(), Awaiting::GameStart { .. }) {
        let Awaiting::Decision { colour, .. } = m.awaiting() else {
            panic!("{:?}", m.awaiting())
        };
        act(&mut m, 0, Command::Accept { colour });
    }
    act(&mut m, 0, Command::StartGame);
    let mv = m.playing().unwrap().game.position().distinct_moves()[0];
    act(
        &mut m,
        4_000,
        Command::PlayMove {
            colour: Color::Red,
            mv,
        },
    );
    act(
        &mut m,
        5_000,
        Command::PauseClocks {
            reason: "dispute".into(),
        },
    );
    act(&mut m, 60_000, Command::ResumeClocks);
    act(
        &mut m,
        7_000,
        Command::OfferDraw {
            colour: Color::White,
        },
    );
    (m, store)
}

/// White's time on the move as the match's clocks read it at `now_ms`.
fn white_thinking(m: &Match, now_ms: u64) -> Option<u64> {
    m.clock_reading(now_ms)?.white.move_ms
}

#[test]
fn killed_right_after_a_draw_offer_while_thinking_the_thinking_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    let (m, store) = draw_offered_while_thinking(&path);
    let live = m.clock_reading(76_000).unwrap();
    assert_eq!(live.white.move_ms, Some(12_000));
    drop(store); // killed
    let (_store, file) = MatchStore::open(&path).unwrap();
    let mut back = file.the_match;
    assert_eq!(back, m);
    let reopened = started(76_000);
    back.reopen(reopened);
    let held = back.clock_reading(0).unwrap();
    assert!(held.paused);
    assert_eq!(
        (held.red, held.white),
        (live.red, live.white),
        "clocks identical"
    );
    // The record holds the figure, in the file's words.
    let text = std::fs::read_to_string(&path).unwrap();
    let offer = text.lines().last().unwrap();
    assert!(
        offer.ends_with(r#""event":"draw-offered","colour":"white","spent":12000}"#),
        "{offer}"
    );
}

/// Files written before crossboard recorded the time on the move in such records (version 2
/// without `spent`, version 1) still open: the record reads as what the clock had counted at
/// the pause, as those builds read it.
#[test]
fn an_older_file_without_the_thinking_figure_still_opens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    let (m, store) = draw_offered_while_thinking(&path);
    drop(store);
    let text = std::fs::read_to_string(&path).unwrap();
    let older = text.replace(
        r#","colour":"white","spent":12000}"#,
        r#","colour":"white"}"#,
    );
    assert_ne!(older, text);
    std::fs::write(&path, &older).unwrap();
    let file = load_match(&path).unwrap();
    assert_eq!(file.the_match.log().len(), m.log().len());
    assert_eq!(white_thinking(&file.the_match, 0), Some(5_000));
    let v1 = v1_text(&file.the_match, wall(76)).unwrap();
    assert!(!v1.contains("spent = 12000"), "{v1}");
    let v1_path = dir.path().join("old.toml");
    std::fs::write(&v1_path, &v1).unwrap();
    let file = load_match(&v1_path).unwrap();
    assert_eq!(white_thinking(&file.the_match, 0), Some(5_000));
}

/// The match file's folder is deleted while the match is open: saves fail, saying the file is
/// gone, until the folder is back; then the whole match is written again, and the lock, gone
/// with the folder, is taken anew first, so no second crossboard can open the match meanwhile
/// and write beside this one (one that did is not written over).
#[test]
fn the_folder_gone_saves_fail_until_it_is_back_then_the_whole_match_is_written_under_a_new_lock() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("matches");
    let path = folder.join("m.jsonl");
    let (mut m, mut store) = draw_offered_while_thinking(&path);
    let note = |m: &mut Match, text: &str| {
        let now = Now {
            mono_ms: 80_000,
            wall: wall(80_000),
        };
        m.apply(
            Command::Note { text: text.into() },
            now,
            &mut ChaCha8Rng::seed_from_u64(2),
        )
        .unwrap();
    };
    std::fs::remove_dir_all(&folder).unwrap();
    for text in ["folder gone", "still gone"] {
        note(&mut m, text);
        let e = store.save(&m).unwrap_err();
        assert!(matches!(e, StoreError::Gone(_)), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("the file or its folder is gone"), "{msg}");
        assert!(!msg.contains("intact"), "{msg}");
        assert!(!folder.exists(), "nothing is made in the folder's place");
    }
    // The folder is back, empty: another crossboard takes the lock first. The match is not
    // written beside it.
    std::fs::create_dir_all(&folder).unwrap();
    let other = WriterLock::take(&path).unwrap();
    note(&mut m, "back");
    let e = store.save(&m).unwrap_err();
    assert!(matches!(e, StoreError::Locked { .. }), "{e}");
    assert!(!path.exists());
    drop(other);
    // Now the save takes the lock again and writes the whole match.
    store.save(&m).unwrap();
    assert_eq!(load_match(&path).unwrap().the_match, m);
    let lock = std::fs::read_to_string(WriterLock::path_for(&path)).unwrap();
    assert!(lock.starts_with(&format!("pid {} since ", std::process::id())));
    assert!(matches!(
        MatchStore::open(&path).unwrap_err(),
        StoreError::Locked { .. }
    ));
    // And appends from then on.
    note(&mut m, "appended");
    store.save(&m).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        MatchFile::new(m.clone()).to_text().unwrap()
    );
}

/// A lock file planted as a symbolic link (a shared club folder, a USB stick) is refused: the
/// file it points to is left as it was, and the match is not opened for writing.
#[cfg(unix)]
#[test]
fn a_lock_file_that_is_a_symbolic_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    MatchStore::create(&path, &new_match(1)).unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let lock = WriterLock::path_for(&path);
    std::fs::remove_file(&lock).ok();
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    let e = MatchStore::open(&path).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    // A dangling link is refused too, and creates nothing where it points.
    std::fs::remove_file(&victim).unwrap();
    let e = MatchStore::open(&path).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
    assert!(!victim.exists());
}

/// The text of `line` (from 1) of `text` replaced by `f` of it.
fn edit_line(text: &str, line: usize, f: impl Fn(&str) -> String) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[line - 1] = f(&lines[line - 1]);
    lines.join("\n") + "\n"
}

/// The number of the first line of `text` (from 1) holding `needle`, after line `after`.
fn line_with(text: &str, needle: &str, after: usize) -> usize {
    text.lines()
        .enumerate()
        .skip(after)
        .find(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("no {needle:?} after line {after}:\n{text}"))
}

/// The `t` of a record line.
fn t_of(line: &str) -> i64 {
    let rest = line.strip_prefix("{\"t\":").expect("a record with t first");
    rest[..rest.find(',').unwrap()].parse().unwrap()
}

/// Records that contradict the log they are in (a time before the match or before the record
/// above, a key given twice, a key a record without fields does not have) are refused with
/// their line, like every other damaged line, and the file is left as it is.
#[test]
fn records_that_contradict_are_refused_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    let (_, store) = draw_offered_while_thinking(&path);
    drop(store);
    let text = std::fs::read_to_string(&path).unwrap();
    let refused = |edited: &str, line: usize, words: &[&str]| {
        assert_ne!(edited, text);
        std::fs::write(&path, edited).unwrap();
        let e = MatchStore::open(&path).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains(&format!("m.jsonl:{line}")), "{msg}\n{edited}");
        for w in words {
            assert!(msg.contains(w), "{w:?} missing: {msg}");
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    };
    let created = line_with(&text, "match-created", 0);
    let first_move = line_with(&text, "\"event\":\"move\"", created);
    // A time before the match was created.
    let negative = edit_line(&text, first_move, |l| {
        format!("{{\"t\":-5,{}", &l[l.find(',').unwrap() + 1..])
    });
    refused(&negative, first_move, &["`t`", "-5"]);
    // A time before the record above it.
    let resumed = line_with(&text, "clocks-resumed", created);
    let offered = line_with(&text, "draw-offered", resumed);
    let lines: Vec<&str> = text.lines().collect();
    let before = t_of(lines[offered - 2]);
    assert!(before > 0, "{text}");
    let backwards = edit_line(&text, offered, |l| {
        format!("{{\"t\":{},{}", before - 1, &l[l.find(',').unwrap() + 1..])
    });
    refused(&backwards, offered, &["`t`", "before the record above"]);
    // A key given twice: serde_json keeps the last one silently.
    let twice = edit_line(&text, first_move, |l| format!("{{\"t\":0,{}", &l[1..]));
    refused(&twice, first_move, &["`t`", "twice"]);
    let twice = edit_line(&text, first_move, |l| {
        l.replacen("\"event\":\"move\"", "\"event\":\"move\",\"spent\":1", 1)
    });
    refused(&twice, first_move, &["`spent`", "twice"]);
    // An unknown key on records without fields, as on every other record.
    let unknown = edit_line(&text, created, |l| {
        l.replacen(
            "\"event\":\"match-created\"",
            "\"event\":\"match-created\",\"by\":\"x\"",
            1,
        )
    });
    refused(&unknown, created, &["`by`"]);
    let unknown = edit_line(&text, resumed, |l| {
        l.replacen(
            "\"event\":\"clocks-resumed\"",
            "\"event\":\"clocks-resumed\",\"colour\":\"red\"",
            1,
        )
    });
    refused(&unknown, resumed, &["`colour`"]);
    // The same keys in another order still read (a file written by hand or another tool).
    let reordered = edit_line(&text, first_move, |l| {
        let t = t_of(l);
        format!(
            "{{{},\"t\":{t}}}",
            &l[l.find(',').unwrap() + 1..l.len() - 1]
        )
    });
    std::fs::write(&path, &reordered).unwrap();
    assert!(load_match(&path).is_ok(), "{reordered}");
}

/// A match file saved by an editor that puts a byte-order mark first (Notepad) reads, and the
/// match goes on in it; a file that is not a match file at all is named so at its line 1, not
/// reported as cut short at its last line.
#[test]
fn a_byte_order_mark_is_skipped_and_a_foreign_file_is_named_at_line_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    let (m, store) = draw_offered_while_thinking(&path);
    drop(store);
    let text = std::fs::read(&path).unwrap();
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend_from_slice(&text);
    std::fs::write(&path, &marked).unwrap();
    let (mut store, file) = MatchStore::open(&path).unwrap();
    assert_eq!(file.the_match, m);
    let mut m = file.the_match;
    m.apply(
        Command::Note {
            text: "after the mark".into(),
        },
        Now {
            mono_ms: 0,
            wall: wall(90_000),
        },
        &mut ChaCha8Rng::seed_from_u64(2),
    )
    .unwrap();
    store.save(&m).unwrap();
    drop(store);
    assert_eq!(load_match(&path).unwrap().the_match, m);
    for foreign in [
        "[match]\nplayers = [\"Ann\", \"Bob\"]\n",
        "title = \"my notes\"\n\n[players]\nfirst = \"Ann\"\n",
        "\u{feff}[match]\nname = \"x\"\n",
        "Ann - Bob, 1-0\n",
    ] {
        std::fs::write(&path, foreign).unwrap();
        let e = load_match(&path).unwrap_err();
        assert_eq!(e.line(), Some(1), "{foreign:?}: {e}");
        assert!(
            e.to_string().contains("not a crossboard match file"),
            "{foreign:?}: {e}"
        );
    }
}

/// A hard link planted where the lock file goes (another name of a file someone else chose) is
/// refused like a symbolic link: nothing is written through it into that file.
#[cfg(unix)]
#[test]
fn a_lock_file_that_is_a_hard_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    drop(MatchStore::create(&path, &new_match(1)).unwrap());
    let lock = WriterLock::path_for(&path);
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::fs::remove_file(&lock).unwrap();
    std::fs::hard_link(&victim, &lock).unwrap();
    let msg = MatchStore::open(&path).unwrap_err().to_string();
    assert!(msg.contains(".m.jsonl.lock"), "{msg}");
    assert!(msg.contains("not a regular file"), "{msg}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    // Gone again, the lock file is made afresh and the match opens.
    std::fs::remove_file(&lock).unwrap();
    assert!(MatchStore::open(&path).is_ok());
}
