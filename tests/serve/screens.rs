//! Screenshots of the event page in headless Chromium, at a phone's width (412x915) and at
//! 1920x1080, against the images kept in `tests/serve/screens/`, with a tolerance (a pixel
//! differs when a channel is off by more than [`CHANNEL`]; at most [`SHARE`] of them may).
//! The running clocks are stopped and masked first so that the image is the same each run.
//! `CROSSBOARD_UPDATE_SCREENS=1` writes the images anew (docs/development.md).

use crate::common::browser::Browser;
use crate::hall::Hall;
use std::path::PathBuf;

/// The largest difference of one colour channel that is not a difference.
const CHANNEL: u8 = 32;
/// The share of pixels that may differ.
const SHARE: f64 = 0.01;

fn stored(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/serve/screens/{name}.png"))
}

/// The share of pixels of `a` and `b` (PNG) that differ; 1 when their sizes differ.
fn differing(a: &[u8], b: &[u8]) -> f64 {
    let a = resvg::tiny_skia::Pixmap::decode_png(a).unwrap();
    let b = resvg::tiny_skia::Pixmap::decode_png(b).unwrap();
    if (a.width(), a.height()) != (b.width(), b.height()) {
        return 1.0;
    }
    let off = a
        .data()
        .chunks(4)
        .zip(b.data().chunks(4))
        .filter(|(p, q)| p.iter().zip(*q).any(|(x, y)| x.abs_diff(*y) > CHANNEL))
        .count();
    off as f64 / f64::from(a.width() * a.height())
}

/// The event page at `width` x `height`, live (its feed open and its first update in), the
/// clocks stopped and shown as 0:30:00.
fn shoot(width: u32, height: u32) -> Vec<u8> {
    let mut hall = Hall::new(["Ann Lee", "Bob Ross", "Cid Moe", "Dee Fox"]);
    hall.play();
    let server = hall.serve();
    let mut browser = Browser::open(&server.url(), width, height);
    crate::views::first_update(&mut browser, "/");
    browser.eval(
        "document.querySelectorAll('.clocks').forEach(p => p.setAttribute('data-running', 'false'));\
         document.querySelectorAll('.clock').forEach(c => c.textContent = '0:30:00'); true",
    );
    browser.screenshot(width, height, width < 600)
}

fn compare(name: &str, width: u32, height: u32) {
    let shot = shoot(width, height);
    let path = stored(name);
    if std::env::var_os("CROSSBOARD_UPDATE_SCREENS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &shot).unwrap();
        return;
    }
    let kept = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (CROSSBOARD_UPDATE_SCREENS=1 writes it)",
            path.display()
        )
    });
    let share = differing(&shot, &kept);
    if share > SHARE {
        let seen = std::env::temp_dir().join(format!("crossboard-{name}-seen.png"));
        std::fs::write(&seen, &shot).unwrap();
        panic!(
            "{name}: {:.2} % of the pixels differ from {} (this run's image: {})",
            share * 100.0,
            path.display(),
            seen.display()
        );
    }
}

#[test]
fn the_event_page_at_a_phones_width_looks_as_stored() {
    compare("event-412x915", 412, 915);
}

#[test]
fn the_event_page_at_1920x1080_looks_as_stored() {
    compare("event-1920x1080", 1920, 1080);
}
