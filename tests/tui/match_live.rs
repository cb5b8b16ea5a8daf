//! The match on the network, from the match screen, on a `TestBackend` at 80x24: the popup
//! of `S` (serve to this machine or the hall), the box giving the hall's addresses, the link
//! to the desk on the status line, and the set-up's desk fields. A stand-in network answers
//! for the server and the reporter (tests/serve starts the real ones).

use crossboard::tui::{App, FakeClock, Link, NetOptions, Network, Reporting, Screen, Serving};
use crossboard::tui::{render_text, run_script, test_app};
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A match up to its first game (the coin; 1 ballot of 2 games, 1 minute each).
const GAME: &str = "n\nh<tick>r\n\n\na\n\n";

const TOKEN: &str = "00112233445566778899aabbccddeeff";

/// A network that starts nothing: servers "listen" where asked (port 0: 8080), the hall is
/// two addresses, and the desk's link is what the test sets.
#[derive(Default)]
struct Stand {
    link: Arc<Mutex<Option<Link>>>,
    asked: Arc<Mutex<Vec<String>>>,
}

struct FakeServer(SocketAddr);

impl Serving for FakeServer {
    fn addr(&self) -> SocketAddr {
        self.0
    }
}

struct FakeReporter(Arc<Mutex<Option<Link>>>);

impl Reporting for FakeReporter {
    fn link(&self) -> Link {
        self.0.lock().unwrap().clone().unwrap_or(Link::Connecting)
    }
}

impl Network for Stand {
    fn serve_match(&self, _file: &Path, bind: SocketAddr) -> Result<Box<dyn Serving>, String> {
        let port = if bind.port() == 0 { 8080 } else { bind.port() };
        Ok(Box::new(FakeServer(SocketAddr::new(bind.ip(), port))))
    }

    fn report(&self, desk: &str, token: &str, _file: &Path) -> Box<dyn Reporting> {
        self.asked.lock().unwrap().push(format!("{desk} {token}"));
        Box::new(FakeReporter(Arc::clone(&self.link)))
    }

    fn hall_addresses(&self) -> Vec<IpAddr> {
        vec!["192.168.1.23".parse().unwrap(), "10.0.0.7".parse().unwrap()]
    }
}

fn app(clock: &FakeClock, dir: &Path, stand: &Arc<Stand>, desk: &str, token: &str) -> App {
    let mut a = test_app(clock, 80, 24);
    a.matches.fixed_wall = Some("2026-11-30T12:00:00Z".parse().unwrap());
    a.matches.dir = Some(dir.to_path_buf());
    a.matches.defaults.players = ["Ann".into(), "Bob".into()];
    a.matches.defaults.ballots = 1;
    a.matches.defaults.time_control = "1".parse().unwrap();
    let network: Arc<dyn Network> = Arc::clone(stand) as Arc<dyn Network>;
    a.matches.net = NetOptions {
        network: Some(network),
        port: 0,
        desk: desk.into(),
        token: token.into(),
    };
    a
}

/// The app of [`app`] with the desk's address and a token: a new match reports to the desk.
fn reporting(clock: &FakeClock, dir: &Path, stand: &Arc<Stand>) -> App {
    app(clock, dir, stand, "http://192.168.1.10:8080", TOKEN)
}

fn served_at(a: &App) -> Option<SocketAddr> {
    match &a.screen {
        Screen::Match(m) => m.served_at(),
        _ => None,
    }
}

#[test]
fn the_serve_key_asks_whom_then_gives_the_hall_every_address() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let stand = Arc::new(Stand::default());
    let mut a = app(&clock, dir.path(), &stand, "", "");
    run_script(&mut a, &clock, GAME);
    run_script(&mut a, &clock, "S");
    let asked = render_text(&a);
    assert!(asked.contains("Who may watch?"), "{asked}");
    assert!(asked.contains("this machine only (127.0.0.1)"), "{asked}");
    assert!(asked.contains("the hall"), "{asked}");
    insta::assert_snapshot!("match_serve_popup_80x24", asked);
    assert_eq!(served_at(&a), None, "nothing served before the answer");

    run_script(&mut a, &clock, "h");
    let given = render_text(&a);
    assert_eq!(served_at(&a), Some("0.0.0.0:8080".parse().unwrap()));
    assert!(given.contains("http://192.168.1.23:8080/"), "{given}");
    assert!(given.contains("http://10.0.0.7:8080/"), "{given}");
    insta::assert_snapshot!("match_served_to_the_hall_80x24", given);

    // Esc closes the box and serving goes on; S shows it again, s stops it.
    run_script(&mut a, &clock, "\x1b");
    assert!(!render_text(&a).contains("The hall watches at"));
    assert!(served_at(&a).is_some());
    run_script(&mut a, &clock, "Ss");
    assert_eq!(served_at(&a), None);
    assert!(render_text(&a).contains("no longer served"));

    // This machine only: loopback, the one address given.
    run_script(&mut a, &clock, "Sl");
    assert_eq!(served_at(&a), Some("127.0.0.1:8080".parse().unwrap()));
    let here = render_text(&a);
    assert!(here.contains("http://127.0.0.1:8080/"), "{here}");
    assert!(!here.contains("192.168.1.23"), "{here}");
}

#[test]
fn the_status_line_shows_the_link_to_the_desk() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let stand = Arc::new(Stand::default());
    let mut a = reporting(&clock, dir.path(), &stand);
    run_script(&mut a, &clock, GAME);
    assert_eq!(
        *stand.asked.lock().unwrap(),
        [format!("http://192.168.1.10:8080 {TOKEN}")],
        "the flags fill the set-up's fields and the match reports with them"
    );
    *stand.link.lock().unwrap() = Some(Link::Acknowledged(6));
    let up = render_text(&a);
    assert!(up.contains("desk: reporting, line 6 acknowledged"), "{up}");
    *stand.link.lock().unwrap() = Some(Link::Unreachable {
        acknowledged: Some(6),
        why: "connection refused".into(),
    });
    let down = render_text(&a);
    assert!(
        down.contains("desk unreachable (connection refused), retrying, line 6"),
        "{down}"
    );
    insta::assert_snapshot!("match_desk_unreachable_80x24", down);
    // A refusal is told in words, where the player sits.
    *stand.link.lock().unwrap() = Some(Link::Refused {
        acknowledged: None,
        words: "desk refused line 1: players Ann and Bob are not this board's".into(),
    });
    let refused = render_text(&a);
    assert!(
        refused.contains("desk refused line 1: players Ann"),
        "{refused}"
    );
}

#[test]
fn a_screen_that_reports_to_the_desk_redraws_its_link_without_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let stand = Arc::new(Stand::default());
    let mut a = reporting(&clock, dir.path(), &stand);
    // The match created, its coin not yet tossed: no clock runs, nothing moves.
    run_script(&mut a, &clock, "n\n");
    let wake = a.tick_interval();
    assert!(
        wake.is_some_and(|w| w <= std::time::Duration::from_secs(1)),
        "{wake:?}"
    );
    let mut quiet = app(&clock, dir.path(), &Arc::new(Stand::default()), "", "");
    run_script(&mut quiet, &clock, "n\n");
    assert_eq!(quiet.tick_interval(), None, "no desk, no wake-up");
}

#[test]
fn the_set_up_refuses_a_bad_desk_with_its_message_and_starts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let stand = Arc::new(Stand::default());
    let mut a = app(&clock, dir.path(), &stand, "", "");
    // The last two rows of the form: the desk, then the token.
    run_script(&mut a, &clock, "n<up><up>desk:8080");
    let text = render_text(&a);
    assert!(text.contains("Report to the desk"), "{text}");
    assert!(
        text.contains("the board's token too"),
        "a desk without a token is not ready:\n{text}"
    );
    run_script(&mut a, &clock, &format!("<down>{TOKEN}"));
    let text = render_text(&a);
    assert!(
        text.contains("an address such as http://192.168.1.10:8080"),
        "{text}"
    );
    insta::assert_snapshot!("match_setup_bad_desk_80x24", text);
    run_script(&mut a, &clock, "\n");
    assert!(matches!(a.screen, Screen::MatchSetup(_)), "not started");
    assert!(stand.asked.lock().unwrap().is_empty());
    // Enter took the focus to the desk's row, the first problem.
    run_script(&mut a, &clock, "\x15http://127.0.0.1:9/\n");
    assert!(matches!(a.screen, Screen::Match(_)), "started");
    assert_eq!(
        *stand.asked.lock().unwrap(),
        [format!("http://127.0.0.1:9 {TOKEN}")]
    );
}
