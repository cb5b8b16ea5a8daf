//! Requested byes at the desk screen: `B` records one (`-NAME` takes it back), the round view
//! lists the player as not paired for it, a request for a paired round is refused with the
//! reason and one made after the round before was paired scores nothing.

use super::desk::{desk_app, set_up};
use crossboard::tui::FakeClock;
use crossboard::tui::testing::{render_text, type_text};

#[test]
fn a_requested_bye_at_the_desk() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FakeClock::new();
    let mut app = desk_app(dir.path(), &clock, 120, 30);
    set_up(&mut app, &clock);
    // Before round 1: Fay asks for round 1, Dee asks and takes it back.
    type_text(&mut app, &clock, "BFay 1\n");
    let text = render_text(&app);
    assert!(
        text.contains("recorded: Fay sits out round 1: a requested bye (1 point)"),
        "{text}"
    );
    type_text(&mut app, &clock, "BDee\n");
    type_text(&mut app, &clock, "B-Dee\n");
    let text = render_text(&app);
    assert!(
        text.contains("recorded: Dee's bye in round 1 taken back"),
        "{text}"
    );
    type_text(&mut app, &clock, "p");
    let text = render_text(&app);
    assert!(text.contains("not paired: Fay (requested bye)"), "{text}");
    assert!(!text.contains("Dee (requested bye)"), "{text}");
    // Round 1 is paired: a request for it is refused, saying why; one for round 2 is late.
    type_text(&mut app, &clock, "BAnn 1\n");
    let text = render_text(&app);
    assert!(text.contains("round 1 is already paired"), "{text}");
    type_text(&mut app, &clock, "BEve 2\n");
    let text = render_text(&app);
    assert!(
        text.contains(
            "recorded: Eve sits out round 2: a requested bye (0 points: asked after round 1 was paired)"
        ),
        "{text}"
    );
    assert!(
        text.contains("absent in round 2: Eve (requested bye, 0 points)"),
        "{text}"
    );
}
