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
