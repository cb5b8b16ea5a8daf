//! Where the Windows build keeps its files: the config and the records under `%APPDATA%`
//! (they follow the user), the endgame databases under `%LOCALAPPDATA%` (large, rebuilt at
//! will); a config file there is read; `--config` with spaces and accents in its path works.

use super::support::{windows_path, wine};

/// The folder a `# what: FOLDER` line of `crossboard config` names.
fn named<'a>(said: &'a str, what: &str) -> &'a str {
    said.lines()
        .find_map(|l| l.strip_prefix(&format!("# {what}: ")))
        .unwrap_or_else(|| panic!("no {what} line in:\n{said}"))
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn files_live_under_appdata_and_localappdata() {
    let Some(w) = wine() else { return };
    let appdata = w.env_var("APPDATA");
    let local = w.env_var("LOCALAPPDATA");
    assert!(
        appdata.starts_with("C:\\") && appdata.ends_with("\\Roaming"),
        "{appdata}"
    );
    assert!(local.ends_with("\\Local"), "{local}");
    let said = w.ok(["config"]);
    let config = format!("{appdata}\\crossboard\\config\\config.toml");
    assert!(named(&said, "config file").contains(&config), "{said}");
    assert_eq!(
        named(&said, "match files"),
        format!("{appdata}\\crossboard\\data\\matches")
    );
    assert_eq!(
        named(&said, "endgame databases"),
        format!("{local}\\crossboard\\data\\egdb")
    );

    // A config file put where it says is read.
    let file = w.unix_path(&config);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "[match]\nplayers = [\"Zoë Åberg\", \"Łukasz Nowak\"]\n",
    )
    .unwrap();
    let said = w.ok(["config"]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(named(&said, "config file"), config, "{said}");
    assert!(said.contains("\"Zoë Åberg\""), "{said}");

    // The desk's database, by default in the data folder.
    let db = w.unix_path(&format!("{appdata}\\crossboard\\data\\desk.sqlite3"));
    let _ = std::fs::remove_file(&db);
    let said = w.ok(["event", "new", "Club night"]);
    assert!(said.starts_with("recorded: event 1"), "{said}");
    assert!(db.exists(), "{} was created", db.display());
    std::fs::remove_file(&db).unwrap();
}

#[test]
#[ignore = "the Windows build under Wine: tests/windows/run"]
fn a_config_file_in_a_folder_with_spaces_and_accents() {
    let Some(w) = wine() else { return };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("Mes réglages – dames");
    std::fs::create_dir(&folder).unwrap();
    let file = folder.join("crossboard réglé.toml");
    let partial = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/config/partial.toml"
    );
    // As Notepad saves it: Windows line endings.
    let text = std::fs::read_to_string(partial)
        .unwrap()
        .replace('\n', "\r\n");
    std::fs::write(&file, text).unwrap();
    let said = w.ok([
        "config".to_string(),
        "--config".to_string(),
        windows_path(&file),
    ]);
    assert_eq!(named(&said, "config file"), windows_path(&file), "{said}");
    assert!(said.contains("\"Ann Smith\""), "{said}");
    assert!(said.contains("ballots = 4"), "{said}");
}
