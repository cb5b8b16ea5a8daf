//! The match file is written after every event, and a match read back resumes where it stopped:
//! clocks paused at the last committed move, every move and clock reading on screen, the
//! director resumes the clocks and play goes on. (The real binary is SIGKILLed in
//! `e2e_match_flow.rs`.)

use crossboard::director::{ColourMethod, Phase, RejectionPolicy};
use crossboard::store::{MatchFile, MatchStore, latest_unfinished, load_match};
use crossboard::tui::match_screen as screen;
use crossboard::tui::persist::Saver;
use crossboard::tui::{App, FakeClock, Screen, TimeSource};
use crossboard::tui::{MatchOptions, MatchScreen, StageKind};
use crossboard::tui::{render_text, test_app, type_text};
use std::path::PathBuf;
use std::time::Duration;

fn file_of(app: &App) -> PathBuf {
    screen(app)
        .session
        .saver
        .path()
        .expect("saved to a file")
        .to_path_buf()
}

/// A new process's app showing the match of `file`, resumed, `width` columns wide.
fn resumed(store: MatchStore, file: MatchFile, width: u16) -> (FakeClock, App) {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, width, 32);
    let wall = "2026-11-30T13:00:00Z".parse().unwrap();
    app.screen = Screen::Match(Box::new(MatchScreen::resume(
        file.the_match,
        Saver::File(store),
        clock.now(),
        wall,
    )));
    (clock, app)
}

#[test]
fn every_event_is_on_disk_and_a_resumed_match_shows_every_move_and_clock() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 100, 32);
    app.matches = MatchOptions {
        dir: Some(dir.path().to_path_buf()),
        ..MatchOptions::default()
    };
    app.matches.defaults.players = ["Ann".into(), "Bob".into()];
    app.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    app.matches.defaults.rejection = RejectionPolicy::AllPlayed;
    type_text(&mut app, &clock, "n\n");
    let path = file_of(&app);
    assert!(path.starts_with(dir.path()));
    type_text(&mut app, &clock, "1\n\n\n\n\n");
    assert_eq!(screen(&app).stage(), StageKind::Game);
    let mut played = Vec::new();
    for secs in [3, 11, 7, 19] {
        clock.advance(Duration::from_secs(secs));
        let g = screen(&app).game_match().playing().unwrap();
        let mv = g.game.position().legal_moves()[0].to_string();
        type_text(&mut app, &clock, &format!("{mv}\n"));
        // On disk at once: the file has every move so far.
        let on_disk = load_match(&path).unwrap().the_match;
        assert_eq!(on_disk.log(), screen(&app).game_match().log());
        played.push(mv);
    }
    let readings: Vec<String> = screen(&app)
        .game_match()
        .playing()
        .unwrap()
        .moves
        .iter()
        .map(|r| crossboard::tui::format_clock(r.remaining_ms.unwrap()))
        .collect();
    assert_eq!(readings, ["59:57", "59:49", "59:50", "59:30"]);

    // A kill: everything in memory is gone. Read the file back, as `crossboard resume` does.
    drop(app);
    let found = latest_unfinished(dir.path()).unwrap();
    let (latest, _) = found.latest.expect("the unfinished match is found");
    assert_eq!(latest, path);
    let before = std::fs::read(&path).unwrap();
    let (store, file) = MatchStore::open(&path).unwrap();
    let (clock, mut app) = resumed(store, file, 100);
    let text = render_text(&app);
    assert!(text.contains("clocks paused at the last move"), "{text}");
    for (mv, r) in played.iter().zip(&readings) {
        assert!(text.contains(&format!("{mv} {r}")), "{mv} {r}:\n{text}");
    }
    let g = screen(&app).game_match().playing().unwrap();
    assert!(g.clock.is_paused());
    // Looking is not writing: reopened, shown, ticked, help opened; the file is untouched.
    clock.advance(Duration::from_secs(5));
    type_text(&mut app, &clock, "f");
    crossboard::tui::feed(&mut app, &clock, [crossboard::tui::Msg::Tick]);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "resuming wrote to the file"
    );
    // Time passes while paused: nothing is charged.
    clock.advance(Duration::from_secs(300));
    type_text(&mut app, &clock, "\ny");
    assert!(
        screen(&app)
            .game_match()
            .playing()
            .unwrap()
            .clock
            .is_running()
    );
    clock.advance(Duration::from_secs(2));
    let g = screen(&app).game_match().playing().unwrap();
    let mv = g.game.position().legal_moves()[0].to_string();
    type_text(&mut app, &clock, &format!("{mv}\n"));
    let g = screen(&app).game_match().playing().unwrap();
    assert_eq!(g.moves.len(), 5);
    assert_eq!(
        g.moves[4].spent_ms, 2000,
        "only the time after resuming counts"
    );
    assert_eq!(
        load_match(&path).unwrap().the_match.phase(),
        Phase::Playing { ballot: 1, game: 1 }
    );
}

#[test]
fn the_home_screen_lists_saved_matches_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.dir = Some(dir.path().to_path_buf());
    app.matches.defaults.players = ["Ann".into(), "Bob".into()];
    type_text(&mut app, &clock, "n\nq");
    assert!(render_text(&app).contains("Leave now?"));
    type_text(&mut app, &clock, "y");
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    assert!(text.contains("Resume a match"), "{text}");
    assert!(text.contains("Ann v Bob"), "{text}");
    type_text(&mut app, &clock, "\n");
    assert_eq!(screen(&app).stage(), StageKind::Toss);
    assert!(render_text(&app).contains("Ann calls the coin"));
}

#[test]
fn a_new_match_refuses_to_overwrite_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.toml");
    std::fs::write(&file, "not a match").unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.file = Some(file.clone());
    type_text(&mut app, &clock, "n\n");
    let text = render_text(&app);
    assert!(words(&text).contains("already exists"), "{text}");
    assert!(matches!(app.screen, Screen::MatchSetup(_)));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a match");
}

#[test]
fn the_resume_list_gives_the_reason_first_and_scrolls_rather_than_cutting() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir
        .path()
        .join("a-very-long-folder-name-for-the-matches-of-a-club-championship");
    std::fs::create_dir_all(&long).unwrap();
    std::fs::write(long.join("damaged.toml"), "format-version = 1\n[match\n").unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.dir = Some(long.clone());
    for i in 0..6 {
        app.matches.defaults.players = [format!("Ann {i}"), format!("Bob {i}")];
        type_text(&mut app, &clock, "n\nqy");
    }
    type_text(&mut app, &clock, "r");
    let text = render_text(&app);
    assert!(text.contains("more below"), "{text}");
    assert!(!text.contains("damaged.toml"), "{text}");
    // Going down to the last entry scrolls: it is shown whole, with a marker above; the
    // reason comes first, the file after.
    type_text(&mut app, &clock, "jjjjjj");
    let text = render_text(&app);
    assert!(text.contains("more above"), "{text}");
    let reason = text.find("cannot be read: line").expect(&text);
    let path = text.find("damaged.toml").expect(&text);
    assert!(reason < path, "the reason comes before the path:\n{text}");
}

/// An app `width` x `height` that set up a match saved in `dir` (colours by the director, every
/// ballot played) and started its first game.
fn in_game(dir: &std::path::Path, width: u16, height: u16) -> (FakeClock, App) {
    let clock = FakeClock::new();
    let mut app = test_app(&clock, width, height);
    app.matches.dir = Some(dir.to_path_buf());
    app.matches.defaults.players = ["Ann".into(), "Bob".into()];
    app.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    app.matches.defaults.rejection = RejectionPolicy::AllPlayed;
    type_text(&mut app, &clock, "n\n1\n\n\n\n\n");
    assert_eq!(screen(&app).stage(), StageKind::Game);
    (clock, app)
}

/// Type the first legal move of the side to move.
fn play_first_move(app: &mut App, clock: &FakeClock) {
    let g = screen(app).game_match().playing().unwrap();
    let mv = g.game.position().legal_moves()[0].to_string();
    type_text(app, clock, &format!("{mv}\n"));
}

#[test]
fn a_failed_save_shows_not_saved_until_a_save_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("matches");
    let (clock, mut app) = in_game(&sub, 80, 24);
    // The folder goes away (a USB stick pulled out): the next save fails.
    let path = file_of(&app);
    std::fs::remove_dir_all(&sub).unwrap();
    play_first_move(&mut app, &clock);
    let text = render_text(&app);
    assert!(text.contains("NOT SAVED"), "{text}");
    // A director action's "done" does not hide it, and says it is not saved yet.
    // The director menu pauses the clocks; a note; closing it, the clocks are resumed.
    // The director menu (it pauses the clocks), a note, confirmed.
    type_text(&mut app, &clock, "Dy");
    type_text(&mut app, &clock, "n");
    type_text(&mut app, &clock, "hall noise\n");
    type_text(&mut app, &clock, "y");
    let text = render_text(&app);
    let status = text
        .lines()
        .rev()
        .find(|l| l.contains("NOT SAVED"))
        .unwrap_or("");
    assert!(status.trim_start().starts_with("NOT SAVED"), "{text}");
    assert!(text.contains("not saved yet"), "{text}");
    // The folder is back: the next event saves everything, and the warning goes.
    std::fs::create_dir_all(&sub).unwrap();
    // The menu closed, the clocks are resumed (the question it asks), then a move.
    type_text(&mut app, &clock, "y");
    play_first_move(&mut app, &clock);
    let text = render_text(&app);
    assert!(!text.contains("NOT SAVED"), "{text}");
    let on_disk = load_match(&path).unwrap().the_match;
    assert_eq!(on_disk.log(), screen(&app).game_match().log());
}

#[test]
fn a_record_torn_by_a_crash_is_dropped_said_so_and_cut_off_when_play_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (clock, mut app) = in_game(dir.path(), 100, 32);
    play_first_move(&mut app, &clock);
    let path = file_of(&app);
    let log = screen(&app).game_match().log().to_vec();
    drop(app);
    // The crash cut the next record short.
    let mut torn = std::fs::read(&path).unwrap();
    torn.extend_from_slice(b"{\"t\":9,\"event\":\"mo");
    std::fs::write(&path, &torn).unwrap();
    let (store, file) = MatchStore::open(&path).unwrap();
    assert_eq!(file.the_match.log(), &log[..]);
    let (clock, mut app) = resumed(store, file, 240);
    let text = render_text(&app);
    assert!(
        words(&text).contains("cut short by a crash, dropped"),
        "{text}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), torn, "looking wrote");
    // Play goes on: the torn part is cut off, the new records follow the whole ones.
    type_text(&mut app, &clock, "\ny");
    play_first_move(&mut app, &clock);
    let back = load_match(&path).unwrap();
    assert!(back.dropped.is_none());
    assert_eq!(back.the_match.log(), screen(&app).game_match().log());
}

/// Keys, then a stop signal: the loop ends between two updates.
struct KeysThenStop(Vec<crossboard::tui::Msg>);

impl crossboard::tui::EventSource for KeysThenStop {
    fn next(&mut self, _: Option<Duration>) -> std::io::Result<crossboard::tui::Input> {
        use crossboard::tui::{Input, Msg};
        use ratatui::crossterm::event::Event;
        if self.0.is_empty() {
            return Ok(Input::Stop(crossboard::tui::StopSignal::Terminate));
        }
        Ok(match self.0.remove(0) {
            Msg::Key(k) => Input::Event(Event::Key(k)),
            _ => Input::Timeout,
        })
    }
}

#[test]
fn a_stop_signal_ends_the_loop_after_the_last_save_and_says_where_the_match_is() {
    use crossboard::tui::{Msg, StopSignal, TuiError, run_loop};
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = test_app(&clock, 80, 24);
    app.matches.dir = Some(dir.path().to_path_buf());
    app.matches.defaults.colour_method = ColourMethod::DirectorAssigns;
    app.matches.defaults.rejection = RejectionPolicy::AllPlayed;
    type_text(&mut app, &clock, "n\n1\n\n\n\n\n");
    let g = screen(&app).game_match().playing().unwrap();
    let mv = g.game.position().legal_moves()[0].to_string();
    let keys: Vec<Msg> = mv
        .chars()
        .map(Msg::char)
        .chain([Msg::key(ratatui::crossterm::event::KeyCode::Enter)])
        .collect();
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    let result = run_loop(&mut terminal, &mut app, &mut KeysThenStop(keys), &clock);
    let Err(TuiError::Stopped { signal, note }) = result else {
        panic!("stopped by the signal: {result:?}");
    };
    assert_eq!(signal, StopSignal::Terminate);
    assert_eq!(note, None, "the loop does not know the screens' files");
    let path = file_of(&app);
    let on_disk = load_match(&path).unwrap().the_match;
    assert_eq!(
        on_disk.current_game().unwrap().moves.len(),
        1,
        "the move typed before the signal is saved"
    );
    let note = crossboard::tui::stop_note(std::iter::once(&app.screen));
    let error = TuiError::Stopped { signal, note };
    assert_eq!(error.exit_status(), 143);
    assert_eq!(
        error.to_string(),
        format!(
            "stopped by SIGTERM; the match is saved in {}",
            path.display()
        )
    );
}

/// The screen's text with every run of blanks and line breaks as one space (a status line
/// may wrap).
fn flat(app: &App) -> String {
    render_text(app)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_version_1_file_continued_says_where_the_original_is_kept() {
    use crossboard::store::v1_text;
    let dir = tempfile::tempdir().unwrap();
    let (clock, mut app) = in_game(dir.path(), 80, 24);
    play_first_move(&mut app, &clock);
    let m = screen(&app).game_match().clone();
    drop(app);
    // The same match as an older crossboard wrote it, resumed at 80x24.
    let path = dir.path().join("old.toml");
    let v1 = v1_text(&m, "2026-11-30T12:00:00Z".parse().unwrap()).unwrap();
    std::fs::write(&path, &v1).unwrap();
    let (store, file) = MatchStore::open(&path).unwrap();
    let (clock, mut app) = resumed(store, file, 80);
    let text = flat(&app);
    assert!(
        text.contains("version 1 file: kept as old.v1.toml, rewritten when play goes on"),
        "{}",
        render_text(&app)
    );
    let kept = dir.path().join("old.v1.toml");
    assert!(!kept.exists(), "looking wrote");
    // The director resumes the clocks: the file is rewritten, and the status line says so.
    type_text(&mut app, &clock, "\ny");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), v1);
    assert_eq!(load_match(&path).unwrap().format_version, 2);
    assert!(
        flat(&app).contains("file rewritten as version 2, the original kept as old.v1.toml"),
        "{}",
        render_text(&app)
    );
    // Said once: gone with the next event.
    play_first_move(&mut app, &clock);
    assert!(!flat(&app).contains("file rewritten"));
}

/// Looking at a finished match (its games, the event log, an export) and leaving writes nothing
/// to its file: the reopening is only recorded with a director's action.
#[test]
fn viewing_a_finished_match_appends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("done.jsonl");
    finished_match(&path);
    let before = std::fs::read(&path).unwrap();
    let (store, file) = MatchStore::open(&path).unwrap();
    let (clock, mut app) = resumed(store, file, 80);
    assert!(render_text(&app).contains("Ann"));
    // The event log, closed; an export; leaving (asks first).
    type_text(&mut app, &clock, "L");
    type_text(&mut app, &clock, "\u{1b}");
    type_text(&mut app, &clock, "e");
    assert!(dir.path().join("done.pdn").exists());
    type_text(&mut app, &clock, "qy");
    assert!(
        !matches!(app.screen, Screen::Match(_)),
        "{}",
        render_text(&app)
    );
    drop(app);
    assert_eq!(std::fs::read(&path).unwrap(), before, "viewing wrote");
}

/// A finished one-ballot match between Ann and Bob (each won a game by resignation), saved
/// at `path`.
fn finished_match(path: &std::path::Path) -> crossboard::director::Match {
    use crossboard::director::{Command, Match, Now, Player};
    use crossboard::engine::Color;
    use rand::SeedableRng;
    let mut settings = crossboard::director::MatchSettings {
        players: ["Ann".into(), "Bob".into()],
        ballots: 1,
        colour_method: ColourMethod::DirectorAssigns,
        rejection: RejectionPolicy::AllPlayed,
        ..Default::default()
    };
    settings.openings.system = crossboard::openings::System::Gayp;
    let now = |s: i64| Now {
        mono_ms: s as u64 * 1000,
        wall: chrono::DateTime::from_timestamp(1_780_000_000 + s, 0).unwrap(),
    };
    let mut m = Match::new(settings, now(0)).unwrap();
    let mut store = MatchStore::create(path, &m).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let resign = |colour| Command::Resign { colour };
    for (t, c) in [
        Command::AssignColour {
            player: Player::First,
            colour: Color::Red,
        },
        Command::DrawBallot,
        Command::StartGame,
        resign(Color::White),
        Command::StartGame,
        resign(Color::Red),
    ]
    .into_iter()
    .enumerate()
    {
        m.apply(c, now(t as i64 + 1), &mut rng).unwrap();
        store.save(&m).unwrap();
    }
    assert_eq!(m.phase(), Phase::Finished);
    m
}

/// A match file named like its export (`done.pdn`): `e` writes the games beside it under
/// another name and never over the match.
#[test]
fn the_export_key_never_writes_over_a_match_file_named_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("done.jsonl");
    let m = finished_match(&jsonl);
    let path = dir.path().join("done.pdn");
    std::fs::rename(&jsonl, &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let (store, file) = MatchStore::open(&path).unwrap();
    assert_eq!(file.the_match, m);
    let (clock, mut app) = resumed(store, file, 160);
    type_text(&mut app, &clock, "e");
    let text = render_text(&app);
    assert!(text.contains("done.games.pdn"), "{text}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the match was written over"
    );
    let pdn = std::fs::read_to_string(dir.path().join("done.games.pdn")).unwrap();
    assert!(pdn.contains("[Black \"Ann\"]"), "{pdn}");
}

/// Leaving a game in progress (`q`, confirmed) charges the side to move the time it has
/// thought so far: reopened, its clock is not given those seconds back.
#[test]
fn leaving_during_a_game_keeps_the_thinking_time_spent() {
    let dir = tempfile::tempdir().unwrap();
    let (clock, mut app) = in_game(dir.path(), 100, 32);
    play_first_move(&mut app, &clock);
    let path = file_of(&app);
    let (to_move, before) = {
        let g = screen(&app).game_match().playing().unwrap();
        let c = g.game.position().turn();
        (c, g.clock.side(c).remaining_ms)
    };
    clock.advance(Duration::from_secs(9));
    type_text(&mut app, &clock, "q");
    assert!(
        render_text(&app).contains("Leave now?"),
        "{}",
        render_text(&app)
    );
    type_text(&mut app, &clock, "y");
    assert!(!matches!(app.screen, Screen::Match(_)), "left");
    let m = load_match(&path).unwrap().the_match;
    let g = m.playing().unwrap();
    assert_eq!(g.game.position().turn(), to_move);
    let left = g.clock.side(to_move).remaining_ms - g.clock.counted_ms() as i64;
    assert_eq!(
        left,
        before - 9_000,
        "the 9 s thought before leaving are charged"
    );
}

/// `--match FILE` with FILE already there: the set-up says so and offers the way out, the match
/// it holds opened (Ctrl-O) or the new match saved under a free name beside it (Ctrl-N).
#[test]
fn an_existing_match_file_offers_to_open_it_or_take_another_name() {
    let top = tempfile::tempdir().unwrap();
    // A folder as long as macOS's temporary folders: the message keeps its keys and the name.
    let dir = top
        .path()
        .join("a-temporary-folder-with-a-name-as-long-as-the-ones-macos-gives");
    std::fs::create_dir(&dir).unwrap();
    let (clock, mut app) = in_game(&dir, 100, 32);
    play_first_move(&mut app, &clock);
    let path = file_of(&app);
    drop(app);
    let before = std::fs::read(&path).unwrap();
    let mut app = test_app(&clock, 100, 32);
    app.matches.file = Some(path.clone());
    type_text(&mut app, &clock, "n\n");
    let text = render_text(&app);
    assert!(words(&text).contains("already exists"), "{text}");
    assert!(words(&text).contains("Ctrl-O opens it"), "{text}");
    let name = path.file_name().unwrap().to_string_lossy();
    assert!(text.contains(&*name), "{name}: {text}");
    // Ctrl-N: the new match goes beside it; the old file is untouched.
    crossboard::tui::feed(
        &mut app,
        &clock,
        [crossboard::tui::Msg::Key(
            ratatui::crossterm::event::KeyEvent::new(
                ratatui::crossterm::event::KeyCode::Char('n'),
                ratatui::crossterm::event::KeyModifiers::CONTROL,
            ),
        )],
    );
    let new = file_of(&app);
    assert_ne!(new, path);
    assert!(
        new.file_name().unwrap().to_string_lossy().contains("-2."),
        "{}",
        new.display()
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    drop(app);
    // Ctrl-O: the match it holds, reopened with its move.
    let mut app = test_app(&clock, 100, 32);
    app.matches.file = Some(path.clone());
    type_text(&mut app, &clock, "n\n");
    crossboard::tui::feed(
        &mut app,
        &clock,
        [crossboard::tui::Msg::Key(
            ratatui::crossterm::event::KeyEvent::new(
                ratatui::crossterm::event::KeyCode::Char('o'),
                ratatui::crossterm::event::KeyModifiers::CONTROL,
            ),
        )],
    );
    assert_eq!(file_of(&app), path);
    assert_eq!(
        screen(&app)
            .game_match()
            .current_game()
            .unwrap()
            .moves
            .len(),
        1
    );
}

/// The screen's words one space apart: a status holding a path wraps where the path (in the
/// test's temporary folder, whose name the system chooses) puts it.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
