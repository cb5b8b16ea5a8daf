//! The set-up form's own checks.

use super::*;

#[test]
fn every_preset_is_a_valid_time_control() {
    for p in TIME_PRESETS {
        let tc: crate::director::TimeControl = p.parse().unwrap();
        assert_eq!(tc.to_string(), p);
    }
}

#[test]
fn the_form_holds_the_defaults_and_validates_as_you_type() {
    let mut s = MatchSetupScreen::new(MatchOptions::default());
    assert_eq!(s.settings(), Ok(MatchSettings::default()));
    s.texts[idx(FieldId::Name2)].value = "Player 1".into();
    s.revalidate();
    assert_eq!(s.problem.as_ref().map(|p| p.0), Some(FieldId::Name2));
    assert!(s.texts[idx(FieldId::Name2)].error.is_some());
    s.texts[idx(FieldId::Name2)].value = "Bob".into();
    s.texts[idx(FieldId::Ballots)].value = "0".into();
    s.revalidate();
    assert_eq!(s.problem.as_ref().map(|p| p.0), Some(FieldId::Ballots));
}

/// The form takes the largest values the settings take (one validation), and refuses one
/// more on the field that holds it.
#[test]
fn the_form_takes_the_largest_settings_and_refuses_one_more() {
    use crate::director::{BALLOTS_MAX, EVENT_MAX_CHARS, NAME_MAX_CHARS};
    let mut s = MatchSetupScreen::new(MatchOptions::default());
    let largest = [
        (FieldId::Name1, "a".repeat(NAME_MAX_CHARS)),
        (FieldId::Name2, "b".repeat(NAME_MAX_CHARS)),
        (FieldId::Event, "e".repeat(EVENT_MAX_CHARS)),
        (FieldId::Ballots, BALLOTS_MAX.to_string()),
    ];
    for (f, v) in &largest {
        s.texts[idx(*f)].value = v.clone();
    }
    s.revalidate();
    assert_eq!(s.problem, None);
    assert_eq!(s.settings().unwrap().validate(), Ok(()));
    for (f, v) in &largest {
        let more = match f {
            FieldId::Ballots => (BALLOTS_MAX + 1).to_string(),
            _ => format!("{v}x"),
        };
        s.texts[idx(*f)].value = more;
        s.revalidate();
        assert_eq!(s.problem.as_ref().map(|p| p.0), Some(*f), "{f:?}");
        s.texts[idx(*f)].value = v.clone();
    }
}

/// Choosing pool fills in the APCA presets; choosing another game gives back what they
/// replaced, except a field the director changed meanwhile.
#[test]
fn leaving_pool_restores_what_its_presets_replaced() {
    let mut s = MatchSetupScreen::new(MatchOptions::default());
    let before = s.pool_fields();
    let pool = Rules::ALL.iter().position(|r| *r == Rules::Pool).unwrap();
    s.choices[idx(FieldId::Game)] = pool - 1;
    s.cycle(FieldId::Game, true);
    assert_eq!(s.game(), Rules::Pool);
    assert_eq!(s.pool_fields(), MatchSetupScreen::apca_presets());
    assert_ne!(s.pool_fields(), before);
    s.cycle(FieldId::Game, false);
    assert_ne!(s.game(), Rules::Pool);
    assert_eq!(s.pool_fields(), before, "every preset undone");
    // Pool again, the time control changed by hand, then back: the change stays.
    s.cycle(FieldId::Game, true);
    s.texts[idx(FieldId::Time)].value = "30/60".into();
    s.cycle(FieldId::Game, false);
    assert_eq!(s.texts[idx(FieldId::Time)].value, "30/60");
    assert_eq!(s.choices[idx(FieldId::Points)], before.points);
    assert_eq!(s.choices[idx(FieldId::Tie)], before.tie);
}

/// The summary names the points and the tie rule as well as the time control.
#[test]
fn the_summary_names_points_and_the_tie_rule() {
    let mut s = MatchSetupScreen::new(MatchOptions::default());
    let pool = Rules::ALL.iter().position(|r| *r == Rules::Pool).unwrap();
    s.choices[idx(FieldId::Game)] = pool - 1;
    s.cycle(FieldId::Game, true);
    let text = s.summary(&s.settings().unwrap());
    assert!(text.contains("points 4/2/0 (APCA)"), "{text}");
    assert!(
        text.contains("a tie: continue ballot by ballot until decided"),
        "{text}"
    );
}

#[test]
fn a_system_of_one_opening_is_said_in_the_singular() {
    let s = MatchSetupScreen::new(MatchOptions::default());
    let labels = s.labels(FieldId::System);
    assert!(
        labels.iter().any(|l| l.ends_with("(1 opening)")),
        "{labels:?}"
    );
    assert!(
        !labels.iter().any(|l| l.contains("(1 openings)")),
        "{labels:?}"
    );
}
