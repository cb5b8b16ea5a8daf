//! The pages as people see them, in headless Chromium at a phone's size (390x844), a laptop's
//! (1280x800) and a projector's (1920x1080): on `/hall` the boards fully on the screen and their
//! pictures' size, on `/` no sideways scrolling on the phone, the standings a tap away, and
//! boards above the fold on the wide screens. `CROSSBOARD_UPDATE_SCREENS=1` writes each view
//! to `docs/images/` (the pictures of docs/serve.md).

use crate::common::browser::Browser;
use crate::hall::{Boards, get};
use crossboard::event::Action;
use crossboard::serve::{Options, Running, Source};
use crossboard::store::Desk;
use std::time::{Duration, Instant};

/// A round of `boards` boards, each one's match linked at the desk and two moves into game 1,
/// and a server over it.
fn round(boards: usize) -> (Boards, Running) {
    let mut round = Boards::new(boards);
    let mut desk = Desk::open(&round.db).unwrap();
    let mut open = desk.load(desk.find_event("Club Open").unwrap()).unwrap();
    let links: Vec<Action> = (round.boards.iter().enumerate())
        .map(|(k, b)| Action::LinkMatch {
            division: 0,
            round: 1,
            board: k as u32 + 1,
            file: b.file.display().to_string(),
        })
        .collect();
    desk.record(&mut open, &links, chrono::Utc::now()).unwrap();
    for b in &mut round.boards {
        assert!(b.play() && b.play());
    }
    let source = Source {
        db: Some(round.db.clone()),
        event: None,
        match_file: None,
    };
    let server =
        crossboard::serve::start(Options::new(source, "127.0.0.1:0".parse().unwrap())).unwrap();
    (round, server)
}

/// `path` of `server` in Chromium at `width` x `height`, once its feed's first update is in.
fn view(server: &Running, path: &str, width: u32, height: u32) -> Browser {
    let mut browser = Browser::open(&format!("{}{}", server.url(), &path[1..]), width, height);
    browser.screenshot(width, height, width < 600);
    first_update(&mut browser, path);
    // The resize and the update handled.
    std::thread::sleep(Duration::from_millis(300));
    browser
}

/// Wait until the page of `path` shown in `browser` has had its feed's first update.
pub fn first_update(browser: &mut Browser, path: &str) {
    let start = Instant::now();
    while browser.eval("document.body.getAttribute('data-records')") == serde_json::Value::Null {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{path}: the page never got its first update"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// At each of `sizes` (width, height, the fewest boards), `path` shows at least that many
/// boards (`selector`) fully in the window, with pictures of 200 pixels or more, and nothing
/// wider than the window (nor, when `tall`, taller); each view kept as `name`.
fn boards_fit(server: &Running, path: &str, selector: &str, tall: bool, sizes: &[(u32, u32, u64)]) {
    let name = if path == "/" { "event" } else { &path[1..] };
    for &(width, height, least) in sizes {
        let mut b = view(server, path, width, height);
        let (shown, side) = boards_in_view(&mut b, selector);
        let first = b.eval(&format!(
            "(function () {{ var r = document.querySelector('{selector}').getBoundingClientRect();
               return [r.left, r.top, r.width, r.height]; }})()"
        ));
        assert!(
            shown >= least,
            "{path} at {width}x{height}: {shown} boards in view, the first at {first}"
        );
        assert!(
            side >= 200.0,
            "{path} at {width}x{height}: pictures of {side} px"
        );
        assert!(fits(&mut b, tall), "{path} at {width}x{height}: it scrolls");
        keep(&mut b, name, width, height);
    }
}

/// The boards (`selector`) fully inside the window, and the smallest side of their pictures
/// (0 when none shows one).
fn boards_in_view(browser: &mut Browser, selector: &str) -> (u64, f64) {
    let v = browser.eval(&format!(
        "(function () {{ var n = 0, least = 1e9;
          document.querySelectorAll('{selector}').forEach(function (c) {{
            var r = c.getBoundingClientRect();
            if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth
                || r.bottom > innerHeight) {{ return; }}
            n += 1;
            var s = c.querySelector('.pos svg');
            var p = s ? s.getBoundingClientRect() : {{ width: 0, height: 0 }};
            least = Math.min(least, p.width, p.height);
          }});
          return [n, n ? least : 0]; }})()"
    ));
    (v[0].as_u64().unwrap(), v[1].as_f64().unwrap())
}

/// Nothing wider or (with `tall`) taller than the window.
fn fits(browser: &mut Browser, tall: bool) -> bool {
    let wide = "document.documentElement.scrollWidth <= innerWidth";
    let high = "document.documentElement.scrollHeight <= innerHeight";
    let test = if tall {
        format!("{wide} && {high}")
    } else {
        wide.to_string()
    };
    browser.eval(&test) == true
}

/// The view as the docs show it, written when `CROSSBOARD_UPDATE_SCREENS` is set.
pub fn keep(browser: &mut Browser, name: &str, width: u32, height: u32) {
    let shot = browser.screenshot(width, height, width < 600);
    assert!(shot.starts_with(b"\x89PNG"), "{name}: not a PNG");
    if std::env::var_os("CROSSBOARD_UPDATE_SCREENS").is_some() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("docs/images/{name}-{width}x{height}.png"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &shot).unwrap();
    }
}

#[test]
fn the_hall_display_fits_twelve_boards_on_a_projector_and_six_on_a_laptop() {
    let (_round, server) = round(14);
    boards_fit(
        &server,
        "/hall",
        "#boards .board",
        true,
        &[(1920, 1080, 12), (1280, 800, 6)],
    );
}

#[test]
fn the_hall_display_turns_its_pages_to_the_standings_on_its_timer() {
    let (_round, server) = round(14);
    // 1280x800: more boards than one page holds.
    let mut b = view(&server, "/hall?every=3", 1280, 800);
    let label = b.eval("document.getElementById('page').textContent");
    assert!(label.as_str().unwrap().ends_with("every 3 s"), "{label}");
    let pages: u64 = label
        .as_str()
        .unwrap()
        .split(' ')
        .nth(3)
        .unwrap()
        .parse()
        .unwrap();
    assert!(pages >= 3, "{label}: two pages of boards and the standings");
    let first = "Array.prototype.map.call(document.querySelectorAll('#boards .board'), \
                 function (c) { return c.getBoundingClientRect().width > 0; }).indexOf(true)";
    assert_eq!(b.eval(first), 0);
    let standings = "document.getElementById('standings-1').getBoundingClientRect().width > 0";
    assert_eq!(b.eval(standings), false);
    // Watched until a later page of boards and then the standings have shown, at most one turn
    // of the pages and a little.
    let start = Instant::now();
    let mut seen = Vec::new();
    let turned = |seen: &[(serde_json::Value, serde_json::Value)]| {
        seen.iter().any(|(f, _)| f.as_i64().unwrap() > 0) && seen.last().unwrap().1 == true
    };
    while seen.is_empty() || !turned(&seen) {
        assert!(
            start.elapsed() < Duration::from_secs(3 * pages + 2),
            "the pages did not turn to a later page of boards and then the standings: {seen:?}"
        );
        let now = (b.eval(first), b.eval(standings));
        if seen.last() != Some(&now) {
            seen.push(now);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    keep(&mut b, "hall-standings", 1280, 800);
}

#[test]
fn the_hall_display_without_javascript_shows_the_round_and_reloads() {
    let (round, server) = round(3);
    let page = get(&server, "/hall", None);
    assert_eq!(page.status, 200);
    let b = &page.body;
    assert!(b.contains("<noscript><meta http-equiv=\"refresh\" content=\"30\"></noscript>"));
    for k in 1..=6 {
        assert!(b.contains(&format!("Player {k:03}")), "Player {k}: {b}");
    }
    assert!(b.contains("data-live=\"/live/event\"") && b.contains("data-every=\"15\""));
    assert!(b.contains("id=\"standings-1\""), "{b}");
    assert_eq!(get(&server, "/hall?every=20", None).status, 200);
    for bad in ["abc", "0", "99999999999", "-5"] {
        let r = get(&server, &format!("/hall?every={bad}"), None);
        assert_eq!(r.status, 400, "every={bad}");
        assert!(
            r.body.contains("a number of seconds from 3 to 3600"),
            "{}",
            r.body
        );
    }
    // The event page links to it.
    assert!(get(&server, "/", None).body.contains("href=\"/hall\""));
    drop(round);
}

#[test]
fn on_a_phone_the_event_page_is_a_compact_list_with_the_standings_a_tap_away() {
    let (_round, server) = round(6);
    let mut b = view(&server, "/", 390, 844);
    assert!(fits(&mut b, false), "the page is wider than the phone");
    // The standings linked at the top, in the first screen.
    let link = b.eval(
        "(function () { var a = document.querySelector('a[href=\"#standings-1\"]');
           return a ? a.getBoundingClientRect().bottom : -1; })()",
    );
    let bottom = link.as_f64().unwrap();
    assert!((0.0..844.0).contains(&bottom), "standings link at {bottom}");
    // Each board in a few lines, its picture closed until asked for.
    let heights = b.eval(
        "Array.prototype.map.call(document.querySelectorAll('.board'), \
         function (c) { return c.getBoundingClientRect().height; })",
    );
    let heights: Vec<f64> = heights
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_f64().unwrap())
        .collect();
    assert_eq!(heights.len(), 6);
    assert!(
        heights.iter().all(|&h| h < 100.0),
        "cards of {heights:?} px"
    );
    let open = "Array.prototype.filter.call(document.querySelectorAll('details.pic'), \
                function (d) { return d.open; }).length";
    assert_eq!(b.eval(open), 0, "a picture shown unasked");
    keep(&mut b, "event", 390, 844);
    b.eval("document.querySelector('#b1-1-1 summary').click(); true");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(b.eval(open), 1);
    let side = b.eval("document.querySelector('#b1-1-1 .pos svg').getBoundingClientRect().width");
    assert!(
        side.as_f64().unwrap() >= 150.0,
        "the picture opened at {side} px"
    );
    assert!(
        fits(&mut b, false),
        "the open picture is wider than the phone"
    );
}

#[test]
fn on_wide_screens_the_event_page_shows_a_grid_of_boards_above_the_fold() {
    let (_round, server) = round(14);
    boards_fit(
        &server,
        "/",
        ".board",
        false,
        &[(1280, 800, 4), (1920, 1080, 6)],
    );
}
