//! End-to-end under tmux at 80x24: a director runs a whole two-ballot match with the real
//! binary. One ballot rejected by both players, a flag (a per-move limit from the config's
//! typed time control), a forfeit declared and undone, a note, the event log, and the export,
//! whose PDN has the note as a comment and no line of 80 columns or more.

use crate::common;

use common::{Tmux, WAIT_SECS, bin};

/// Wait for `text`, then press `keys`.
fn then(t: &Tmux, text: &str, keys: &[&str]) -> String {
    let screen = t.wait_text(text);
    t.keys(keys);
    screen
}

/// Open the director menu (it asks first) and choose `item`.
fn director(t: &Tmux, item: &str) {
    t.keys(&["D"]);
    then(t, "Open the director menu?", &["y"]);
    then(t, "Undo the last decision", &[item]);
}

/// Start the clock and at once resign for `who` (r or w), in one burst of keys so the
/// per-move limit cannot fall in between on a loaded machine.
fn start_and_resign(t: &Tmux, who: &str) {
    then(t, "Enter starts", &["Enter", "r", who, "y"]);
    let over = t.wait_text("Game over");
    assert!(over.contains("resigned"), "{over}");
}

#[test]
fn a_director_runs_a_two_ballot_match_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[match]\nplayers = [\"Ann\", \"Bob\"]\nballots = 2\ncolour-method = \"director-assigns\"\n\
         ballot-draw = \"automatic\"\n\
         # 4 s a move, then 1 s of grace: a flag comes quickly.\ntime-control = \"move/4/4/1\"\n",
    )
    .unwrap();
    let cmd = format!(
        "XDG_DATA_HOME={} {} --ascii --config {}; echo EXITED; sleep 30",
        dir.path().display(),
        bin(),
        config.display()
    );
    let Some(t) = Tmux::start(80, 24, &cmd) else {
        return;
    };
    then(&t, "New match", &["n"]);
    let form = t.wait_text("Enter starts the match");
    assert!(form.contains("Ann v Bob, 2 ballots"), "{form}");
    t.keys(&["Enter"]);
    then(&t, "who has Red in game 1?", &["1"]);
    then(&t, "on to the ballot draw", &["Enter"]);
    // The config's ballot draw is automatic: `c` draws the first ballot card by card, each
    // card waiting for a key, then the rest turn by themselves.
    then(&t, "Enter draws the ballot (c: card by card)", &["c"]);
    // How many cards a ballot takes depends on the ballot drawn (4 or 6 here).
    let first = then(&t, "waits for a key", &["Space"]);
    assert!(first.contains("card 1 of "), "{first}");
    let second = then(&t, "card 2 of ", &["t"]);
    assert!(second.contains("waits for a key"), "{second}");
    // Both players reject the first ballot: a new one is drawn.
    then(&t, "White decides first", &["r"]);
    then(&t, "White rejected; now Red", &["r"]);
    then(&t, "Both players rejected", &["Enter"]);
    t.keys(&["Enter"]);
    then(&t, "White decides first", &["a"]);
    then(&t, "Enter goes to the board", &["Enter"]);
    then(&t, "Enter starts Red's clock", &["Enter"]);
    // Nobody moves: Time is called at 4 s and the move is lost 1 s later.
    let over = t.wait_for("the flag", WAIT_SECS, |s| s.contains("Game over"));
    assert!(over.contains("exceeded the move limit"), "{over}");
    assert!(over.contains("FLAG FELL"), "{over}");
    t.keys(&["Enter"]);
    then(&t, "Between games", &["Enter"]);
    // Game 2: a forfeit, declared and undone (D at once: the menu pauses both clocks).
    then(&t, "Enter starts", &["Enter", "D"]);
    then(&t, "Both clocks are paused while the menu is open", &["y"]);
    then(&t, "Undo the last decision", &["f"]);
    t.keys(&["Tab"]);
    t.text("no show");
    t.keys(&["Enter"]);
    then(&t, "forfeits the game (no show)?", &["y"]);
    let over = t.wait_text("Game over");
    assert!(over.contains("forfeits"), "{over}");
    assert!(
        over.contains("Enter: results"),
        "the status says what Enter does:\n{over}"
    );
    director(&t, "u");
    t.text("wrong player");
    t.keys(&["Enter"]);
    then(
        &t,
        "Undo the last director decision (wrong player)?",
        &["y"],
    );
    let back = t.wait_text("Clocks paused: Enter resumes them");
    assert!(!back.contains("Game over"), "{back}");
    // A note for the record, then play on.
    director(&t, "n");
    t.text("Bob arrived late; the forfeit was withdrawn");
    t.keys(&["Enter"]);
    then(&t, "Add the note", &["y"]);
    // Done, and the status still says what Enter does (the clocks stay paused).
    let noted = then(&t, "withdrawn: done", &["Enter"]);
    assert!(noted.contains("Enter resumes them"), "{noted}");
    then(&t, "clock again?", &["y", "r", "w", "y"]);
    let over = t.wait_text("Game over");
    assert!(
        over.contains("White resigned") || over.contains("Red wins"),
        "{over}"
    );
    t.keys(&["Enter"]);
    // Ballot 2: one game each way.
    then(&t, "Between games", &["Enter"]);
    then(&t, "Enter draws the ballot", &["Enter"]);
    t.keys(&["Enter"]);
    then(&t, "White decides first", &["a"]);
    then(&t, "Enter goes to the board", &["Enter"]);
    start_and_resign(&t, "r");
    t.keys(&["Enter"]);
    then(&t, "Between games", &["Enter"]);
    start_and_resign(&t, "w");
    t.keys(&["Enter"]);
    let end = t.wait_text("Match over");
    assert!(end.contains("Notes: 1"), "{end}");
    // The event log has the director's decisions and the note.
    t.keys(&["L"]);
    let log = t.wait_text("Event log");
    assert!(log.contains("NOTE: Bob arrived late"), "{log}");
    t.keys(&["Escape"]);
    // An Escape and a key read in one go are Alt+key: send `e` only once the log has closed
    // (under load the two arrived together and the export never ran).
    t.wait_for("the event log closed", WAIT_SECS, |s| {
        !s.contains("Event log")
    });
    t.keys(&["e"]);
    let exported = t.wait_text("exported 4 games");
    assert!(exported.contains(".pdn"), "{exported}");
    t.keys(&["q"]);
    then(&t, "New match", &["q"]);
    t.wait_text("EXITED");

    let matches = dir.path().join("crossboard").join("matches");
    let pdn = std::fs::read_dir(&matches)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "pdn"))
        .expect("the export is beside the match file");
    let text = std::fs::read_to_string(pdn).unwrap();
    // Comments wrap at any space.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("{Note: Bob arrived late"), "{text}");
    // The director's decision, with its reason, where it was made.
    assert!(
        flat.contains("{Director: undid \"White wins: Red forfeits (no show)\" (wrong player)}"),
        "{text}"
    );
    assert!(text.contains("exceeded the move limit"), "{text}");
    for line in text.lines() {
        assert!(line.len() < 80, "{} columns: {line}", line.len());
    }
}
