//! Results from the floor, through the HTTP API as a phone sends them: a player enters the
//! board's result with their own code, the opponent confirms it with theirs, and only then is
//! it the event's; a different result is a conflict the director overrules with a reason.
//! Wrong codes are slowed down, and a board played on crossboard refuses the floor.

use crate::desk::{body, push};
use crate::hall::{Hall, get};
use crossboard::director::Player;
use crossboard::event::{Action, BoardResult};
use crossboard::serve::{Options, Running, Source};
use crossboard::store::{BoardCodes, Desk, codes_path, director_key, keep_board_token};

const NAMES: [&str; 4] = ["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"];
const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const KEY: &str = "fedcba9876543210fedcba9876543210";

/// The hall (board 1 played on crossboard, its laptop reporting with `TOKEN`; board 2 on
/// paper), the desk's key of the codes fixed, and its server.
fn desk() -> (Hall, Running) {
    let hall = Hall::with(NAMES, false);
    std::fs::write(codes_path(&hall.db), "ab".repeat(32)).unwrap();
    keep_board_token(&hall.db, "Club Open/1/1/1", TOKEN).unwrap();
    keep_board_token(&hall.db, &director_key("Club Open"), KEY).unwrap();
    let source = Source {
        db: Some(hall.db.clone()),
        ..Default::default()
    };
    let server =
        crossboard::serve::start(Options::new(source, "127.0.0.1:0".parse().unwrap())).unwrap();
    (hall, server)
}

/// The floor code of `side` on board `b`.
fn code(hall: &Hall, b: u32, side: Player) -> String {
    BoardCodes::of_desk(&hall.db)
        .unwrap()
        .floor_code("Club Open", 1, 1, b, side)
}

/// POST `form` (already encoded) to `path`: status and body.
fn post(server: &Running, path: &str, form: &str) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut r = agent
        .post(format!("http://{}{path}", server.addr()))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send(form)
        .unwrap();
    (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
}

/// A player's entry of board `b`'s two games, each `1`, `=` or `2` as the desk types them.
fn enter(server: &Running, code: &str, games: [&str; 2]) -> (u16, String) {
    let g = |t: &str| t.replace('=', "%3D");
    let form = format!("code={code}&g1={}&g2={}", g(games[0]), g(games[1]));
    post(server, "/result", &form)
}

/// Board `b` of round 1 as the desk's database has it now, and the event's log.
fn board(hall: &Hall, b: u32) -> (crossboard::event::Board, Vec<Action>) {
    let desk = Desk::open(&hall.db).unwrap();
    let id = desk.find_event("Club Open").unwrap();
    let open = desk.load(id).unwrap();
    let log = desk
        .log(id)
        .unwrap()
        .into_iter()
        .map(|(_, _, text)| serde_json::from_str(&text).unwrap())
        .collect();
    let board = open.event.divisions[0].rounds[0].board(b).unwrap().clone();
    (board, log)
}

fn names(hall: &Hall, b: u32) -> (String, String) {
    let desk = Desk::open(&hall.db).unwrap();
    let open = desk.load(desk.find_event("Club Open").unwrap()).unwrap();
    let d = &open.event.divisions[0];
    let board = d.rounds[0].board(b).unwrap();
    (d.name(board.first).into(), d.name(board.second).into())
}

fn games(text: &str) -> BoardResult {
    crossboard::publish::sentences::parse_result(text, 2).unwrap()
}

#[test]
fn a_result_entered_and_confirmed_is_the_events_and_the_director_sees_who() {
    let (hall, server) = desk();
    let (first, second) = names(&hall, 2);
    let mine = code(&hall, 2, Player::First);
    let theirs = code(&hall, 2, Player::Second);

    // The slip's QR code opens the player's board: both names, and the form.
    let got = get(
        &server,
        &format!("/result?code={}", mine.to_lowercase()),
        None,
    );
    assert_eq!(got.status, 200, "{}", got.body);
    assert!(
        got.body.contains(&format!("Round 1 board 2: {first}")),
        "{}",
        got.body
    );
    assert!(got.body.contains(&second), "{}", got.body);
    assert!(got.body.contains("name=\"g2\""), "{}", got.body);

    let (status, page) = enter(&server, &mine, ["1", "="]);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("You entered: "), "{page}");
    let (b, _) = board(&hall, 2);
    assert_eq!(b.result, None, "one player's entry is not the result");

    // The opponent's page shows the entry, ready to confirm.
    let got = get(&server, &format!("/result?code={theirs}"), None);
    assert!(
        got.body.contains(&format!(
            "{first} entered: {first} won game 1; game 2 drawn (1 =)"
        )),
        "{}",
        got.body
    );
    assert!(got.body.contains("Confirm this result"), "{}", got.body);
    assert!(
        got.body.contains("value=\"1\" required checked"),
        "{}",
        got.body
    );

    let (status, page) = enter(&server, &theirs, ["1", "="]);
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("Recorded, as both players entered it"),
        "{page}"
    );
    let (b, log) = board(&hall, 2);
    assert_eq!(b.result, Some(games("1 =")));
    let entries = log
        .iter()
        .filter(|a| matches!(a, Action::FloorResult { .. }))
        .count();
    assert_eq!(entries, 2, "each entry logged once: {log:?}");

    // The standings follow: the first player's 1½ is on the event page.
    let director = get(&server, &format!("/director?key={KEY}"), None);
    assert!(
        director.body.contains(&format!(
            "from the floor: entered by both, {first} and {second}"
        )),
        "{}",
        director.body
    );
    // The hall display shows it on the board's tile: a board played on paper has no match
    // score there, and the hall's style hides the result line of a board played on crossboard
    // (its score and pictures say it) but not this one.
    let display = get(&server, "/hall", None).body;
    let tile = display
        .split("data-board=\"/board/1/1/2\"")
        .nth(1)
        .and_then(|t| t.split("</div></div>").next())
        .unwrap_or_else(|| panic!("no tile for board 2: {display}"));
    assert!(
        tile.contains("<p class=\"res paper\">Result: <span class=\"result\">"),
        "{tile}"
    );
    assert!(
        display.contains(".hall .res.paper{display:block}"),
        "{display}"
    );
    // Recorded: entering again is refused with the reason, and changes nothing.
    let (status, page) = enter(&server, &mine, ["=", "="]);
    assert_eq!(status, 409, "{page}");
    assert!(page.contains("recorded"), "{page}");
    assert_eq!(board(&hall, 2).1.len(), log.len());
}

#[test]
fn a_different_result_is_a_conflict_the_director_overrules_with_a_reason() {
    let (hall, server) = desk();
    let (first, second) = names(&hall, 2);
    let mine = code(&hall, 2, Player::First);
    let theirs = code(&hall, 2, Player::Second);
    assert_eq!(enter(&server, &mine, ["1", "="]).0, 200);
    let (status, page) = enter(&server, &theirs, ["=", "="]);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("The director decides"), "{page}");
    let (b, _) = board(&hall, 2);
    assert_eq!(b.result, None, "a conflict records nothing");
    assert_eq!(b.floor.first, Some(games("1 =")), "nothing overwritten");

    let page = get(&server, &format!("/director?key={KEY}"), None).body;
    let conflict = format!("CONFLICT from the floor: {first} entered 1 =, {second} entered = =");
    assert!(page.contains(&conflict), "{page}");
    let ask = format!("/director/overrule?key={KEY}&amp;division=1&amp;round=1&amp;board=2");
    assert!(page.contains(&ask), "{page}");
    let form = get(&server, &ask.replace("&amp;", "&"), None);
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(form.body.contains("name=\"reason\""), "{}", form.body);

    // A wrong key is no address at all; no reason, or a bad result, is refused.
    let overrule = |key: &str, result: &str, reason: &str| {
        let form = format!(
            "key={key}&division=1&round=1&board=2&result={}&reason={}",
            result.replace('=', "%3D").replace(' ', "+"),
            reason.replace(' ', "+")
        );
        post(&server, "/director/overrule", &form)
    };
    assert_eq!(overrule(TOKEN, "= =", "sheets").0, 404);
    let (status, page) = overrule(KEY, "= =", "");
    assert_eq!(status, 409, "{page}");
    assert!(page.contains("a reason is required"), "{page}");
    assert_eq!(overrule(KEY, "3 3", "sheets").0, 422);
    assert_eq!(board(&hall, 2).0.result, None);

    let (status, page) = overrule(KEY, "= =", "both score sheets show two draws");
    assert_eq!(status, 303, "{page}");
    let (b, log) = board(&hall, 2);
    assert_eq!(b.result, Some(games("= =")));
    assert!(log.iter().any(|a| matches!(a, Action::Overrule { reason, .. } if reason == "both score sheets show two draws")));
    let page = get(&server, &format!("/director?key={KEY}"), None).body;
    assert!(page.contains("overruled by the director"), "{page}");
    assert!(page.contains("both score sheets show two draws"), "{page}");
}

#[test]
fn wrong_codes_are_refused_then_slowed_down_and_a_board_played_here_refuses_the_floor() {
    let (hall, server) = desk();
    // A board laptop's code is not a player's; the opponent's board is not yours.
    let laptop = BoardCodes::of_desk(&hall.db)
        .unwrap()
        .code("Club Open", 1, 1, 2);
    for wrong in [laptop.as_str(), "ZZZZ-ZZZZ", "nonsense"] {
        let (status, page) = enter(&server, wrong, ["1", "1"]);
        assert_eq!(status, 401, "{wrong}: {page}");
        assert!(page.contains("result slip"), "{page}");
    }
    // Board 1's laptop pushes its match file: the board is played on crossboard.
    let lines: Vec<String> = std::fs::read_to_string(&hall.file)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let (status, answer) = push(&server, TOKEN, &body(0, &lines));
    assert_eq!(status, 200, "{answer}");
    let (status, page) = enter(&server, &code(&hall, 1, Player::First), ["1", "1"]);
    assert_eq!(status, 409, "{page}");
    assert!(page.contains("played on crossboard"), "{page}");
    // Half a board's result, and a body too large.
    let half = format!("code={}&g1=1", code(&hall, 2, Player::First));
    let (status, page) = post(&server, "/result", &half);
    assert_eq!(status, 409, "{page}");
    assert!(page.contains("every game of the board"), "{page}");
    let big = format!(
        "code={}&result={}",
        code(&hall, 2, Player::First),
        "1".repeat(5000)
    );
    assert_eq!(post(&server, "/result", &big).0, 413);
    assert!(board(&hall, 2).0.floor.is_empty(), "nothing recorded");

    // Ten wrong codes in all: the next try is refused before any code is looked at, the
    // right one too.
    let tries = (3..=12)
        .take_while(|_| enter(&server, "ZZZZ-ZZZZ", ["1", "1"]).0 == 401)
        .count();
    assert_eq!(tries, 7, "ten wrong codes allowed at once");
    let (status, page) = enter(&server, &code(&hall, 2, Player::First), ["1", "1"]);
    assert_eq!(status, 429, "{page}");
    assert!(page.contains("too many wrong codes"), "{page}");
    assert_eq!(
        get(&server, "/result", None).status,
        200,
        "the empty form still opens"
    );
}

/// The text of the page open in `browser` once it holds `want` (a page submitted loads).
fn await_text(browser: &mut crate::common::browser::Browser, want: &str) -> String {
    let start = std::time::Instant::now();
    loop {
        let text = browser.eval("document.body ? document.body.innerText : ''");
        let text = text.as_str().unwrap_or_default().to_string();
        if text.contains(want) {
            return text;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "never showed {want:?}: {text}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn both_players_fill_the_form_on_a_phone_without_javascript_of_its_own() {
    let (hall, server) = desk();
    let (first, _) = names(&hall, 2);
    let url = |side| format!("{}result?code={}", server.url(), code(&hall, 2, side));
    let mut phone = crate::common::browser::Browser::open(&url(Player::First), 390, 844);
    phone.screenshot(390, 844, true);
    await_text(&mut phone, "Game 2");
    crate::views::keep(&mut phone, "floor", 390, 844);
    // Nothing wider than the phone; the page carries no script.
    assert_eq!(
        phone.eval("document.documentElement.scrollWidth <= 390"),
        true
    );
    assert_eq!(phone.eval("document.scripts.length"), 0);
    // One thumb: the button is a big target across the screen.
    let tall = "document.querySelector('form.floor button').getBoundingClientRect().height >= 40";
    assert_eq!(phone.eval(tall), true);
    phone.eval(
        "document.querySelector('input[name=g1][value=\"1\"]').click();\
         document.querySelector('input[name=g2][value=\"=\"]').click();\
         document.querySelector('form.floor button').click()",
    );
    await_text(&mut phone, "You entered: ");
    assert_eq!(board(&hall, 2).0.result, None);

    // The opponent opens the same board with their own code: the entry is filled in.
    phone.eval(&format!("location.href = {:?}", url(Player::Second)));
    await_text(&mut phone, "Confirm this result");
    phone.eval("document.querySelector('form.floor button').click()");
    let text = await_text(&mut phone, "Recorded");
    assert!(
        text.contains(&format!("{first} won game 1; game 2 drawn")),
        "{text}"
    );
    assert_eq!(board(&hall, 2).0.result, Some(games("1 =")));
}
