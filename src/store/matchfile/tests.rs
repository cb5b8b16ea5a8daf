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
    assert_eq!(slug("Ann O'Neil"), "ann-o-neil");
    assert_eq!(slug("  "), "player");
    assert_eq!(slug("Élodie"), "élodie");
}
