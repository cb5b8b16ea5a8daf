//! `crossboard config`: where the settings come from, and the settings in effect.

use super::CliResult;
use crate::store::default_match_dir;
use crate::store::{default_config_path, load_config};
use std::path::Path;

/// Arguments of `crossboard config`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Print only the paths (config file, match directory, endgame databases), not the settings.
    #[arg(long)]
    paths: bool,
}

/// Run `config`: check the config file and print what is in effect. Fails (with the file, the
/// line and the key) when the file is wrong.
pub(super) fn run(args: Args, explicit: Option<&Path>) -> CliResult {
    let loaded = load_config(explicit)?;
    let shown = |p: Option<&Path>| p.map_or("(unknown)".to_string(), |p| p.display().to_string());
    match &loaded.path {
        Some(p) => outln!("# config file: {}", p.display())?,
        None => outln!(
            "# config file: none (built-in defaults; would be read from {})",
            shown(default_config_path().as_deref())
        )?,
    }
    outln!("# match files: {}", shown(default_match_dir().as_deref()))?;
    let practice_games =
        crate::store::default_practice_file().map(|f| crate::store::practice::games_file(&f));
    outln!("# practice games: {}", shown(practice_games.as_deref()))?;
    outln!(
        "# endgame databases: {}",
        shown(crate::store::default_egdb_dir().as_deref())
    )?;
    outln!(
        "# the last match's settings: {}",
        shown(crate::store::default_last_settings_file().as_deref())
    )?;
    let presets = &loaded.config.preset;
    if presets.is_empty() {
        outln!("# presets: none")?;
    } else {
        let names: Vec<String> = presets
            .keys()
            .enumerate()
            .map(|(i, name)| format!("{}. {name}", i + 1))
            .collect();
        outln!(
            "# presets (Ctrl-P on the set-up form): {}",
            names.join(", ")
        )?;
    }
    let engines: Vec<String> = loaded
        .config
        .engines
        .iter()
        .map(|(name, e)| match e.resolve() {
            Some(found) => format!("{name} ({})", found.display()),
            None => format!("{name} ({}: not found)", e.path.display()),
        })
        .collect();
    if engines.is_empty() {
        outln!("# Hub engines: none")?;
    } else {
        outln!("# Hub engines (Home, h): {}", engines.join(", "))?;
    }
    if !args.paths {
        outln!()?;
        out!("{}", toml::to_string_pretty(&loaded.config)?)?;
    }
    Ok(())
}
