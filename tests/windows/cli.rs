//! The commands of the Windows build give what the Linux build gives: perft, the opening
//! tables, a PDN check of a file with Windows line endings in a folder with spaces and
//! accents.

use super::support::{linux_ok, windows_path, wine};

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn perft_and_the_opening_tables_match_the_linux_build() {
    let Some(w) = wine() else { return };
    for args in [
        &["perft", "8"][..],
        &["perft", "4", "--divide"],
        &["openings", "--summary", "eleven-man"],
        &["openings", "--list", "three-move"],
    ] {
        assert_eq!(w.ok(args), linux_ok(args), "{args:?}");
    }
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn a_pdn_with_windows_line_endings_in_a_folder_with_spaces_and_accents() {
    let Some(w) = wine() else { return };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("Zoë's games (Ålesund)");
    std::fs::create_dir(&folder).unwrap();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/pdn/loy_chinook_1991.pdn"
    );
    let text = std::fs::read_to_string(fixture).unwrap();
    let crlf = folder.join("Loy – Chinook.pdn");
    std::fs::write(&crlf, text.replace("\r\n", "\n").replace('\n', "\r\n")).unwrap();
    let windows = w.ok(["pdn".to_string(), windows_path(&crlf)]);
    let linux = linux_ok(["pdn", fixture]);
    assert_eq!(windows, linux, "the same games, read the same");
    assert!(windows.contains("Loy, Jim - Chinook"), "{windows}");
}
