//! Tests of the match file's names: kept version 1 originals and file-name slugs.

use super::write::{is_v1_copy, slug};
use std::path::Path;

#[test]
fn kept_v1_originals_are_told_apart() {
    assert!(is_v1_copy(Path::new("a/m.v1.toml")));
    assert!(is_v1_copy(Path::new("m.v1-3.toml")));
    assert!(!is_v1_copy(Path::new("m.toml")));
    assert!(!is_v1_copy(Path::new("m.v1x.toml")));
    assert!(!is_v1_copy(Path::new("v1.jsonl")));
}

#[test]
fn slugs() {
    assert_eq!(slug("Ann O'Neil", 24), "ann-o-neil");
    assert_eq!(slug("  ", 24), "");
    assert_eq!(slug("Élodie", 24), "élodie");
    assert_eq!(slug("★ #1 Spring  Open! ★", 40), "1-spring-open");
    assert_eq!(slug("Café--Open", 40), "café-open");
    assert_eq!(slug("State Open Championship", 15), "state-open");
    assert_eq!(slug(&"x".repeat(50), 20), "x".repeat(20));
}
