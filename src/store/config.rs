//! The config file: defaults for new matches and display settings.
//!
//! crossboard runs without one. When present (the platform config directory, e.g.
//! `~/.config/crossboard/config.toml` on Linux, or `--config FILE`), every key is checked: an
//! unknown key or a bad value stops crossboard with the file, the line and the key named.
//! `config.example.toml` at the top of the repository documents every setting with its default.

use super::hub_engines::{ENGINES_MAX, HubEngineConfig, check_engine};
use super::tomlfile::{Format, LoadError, key_path_line, parse_toml_strict};
use crate::director::{MatchSettings, NAME_MAX_CHARS, is_unfit};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The config file's format version (optional in the file; a newer one is refused).
pub(super) const CONFIG_VERSION: u32 = 1;

const FORMAT: Format = Format {
    version_key: "format-version",
    supported: CONFIG_VERSION,
    version_required: false,
    end_marker: None,
};

/// Everything the config file sets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Config {
    /// The file's format ([`CONFIG_VERSION`]; optional in the file).
    pub format_version: u32,
    /// Defaults for a new match (players, openings, ballots, time control, scoring, rejection
    /// policy, tie rule, colour choice). The set-up screen starts from these.
    #[serde(rename = "match")]
    pub match_defaults: MatchSettings,
    /// How the board and clocks are drawn.
    pub display: Display,
    /// What the set-up form remembers of the last match.
    pub set_up: SetUp,
    /// The built-in engine's resources.
    pub engine: EngineSettings,
    /// The game library: folders of PDN files it indexes (`[library] folders = [...]`).
    pub library: super::library::LibrarySettings,
    /// Named match settings the set-up form offers (`[preset."Club night"]`), by name: every
    /// setting but the players' names; a key left out takes its built-in default.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub preset: BTreeMap<String, MatchSettings>,
    /// Other engines, programs that speak the Hub protocol (`[engines.kingsrow]`), by name:
    /// a practice opponent, hints, the analysis pane, review's graph, `analyse --engine`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub engines: BTreeMap<String, HubEngineConfig>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            format_version: CONFIG_VERSION,
            match_defaults: MatchSettings::default(),
            display: Display::default(),
            set_up: SetUp::default(),
            engine: EngineSettings::default(),
            library: super::library::LibrarySettings::default(),
            preset: BTreeMap::new(),
            engines: BTreeMap::new(),
        }
    }
}

/// What the set-up form takes from the last match started on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct SetUp {
    /// Fill in the last match's players too (otherwise `[match]`'s, or the built-in ones).
    pub remember_names: bool,
}

/// Presets a config file may hold: the set-up form lists them all on an 80x24 screen.
pub(super) const PRESETS_MAX: usize = 20;

/// Keys a preset may not hold: the form's players and a tournament board's given ballots
/// are never a preset's.
const NOT_IN_A_PRESET: [(&str, &str); 2] = [
    (
        "players",
        "a preset leaves the players to the set-up form: remove this key",
    ),
    (
        "given-ballots",
        "a preset is for a match set up by hand: a board's ballots come from the desk",
    ),
];

/// The built-in engine's resources (`crossboard hub` and the engine's searches).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct EngineSettings {
    /// Search threads of one search (1-64; lazy SMP above 1).
    #[serde(deserialize_with = "threads_in_range")]
    pub threads: usize,
    /// Transposition table size in MB (1-4096).
    #[serde(deserialize_with = "hash_in_range")]
    pub hash_mb: usize,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            threads: 1,
            hash_mb: 16,
        }
    }
}

fn in_range<'de, D: Deserializer<'de>>(d: D, lo: usize, hi: usize) -> Result<usize, D::Error> {
    let n = usize::deserialize(d)?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(serde::de::Error::custom(format!(
            "{n} is out of range: {lo} to {hi}"
        )))
    }
}

fn threads_in_range<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    in_range(d, 1, crate::search::MAX_THREADS)
}

fn hash_in_range<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    in_range(d, 1, 4096)
}

/// Display settings, read by the terminal UI.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Display {
    /// Draw with ASCII characters only (no Unicode pieces or box lines).
    pub ascii: bool,
    /// No colours at all (the `NO_COLOR` environment variable does the same).
    pub no_color: bool,
    /// The colours used when colours are on.
    pub colours: Colours,
}

impl Display {
    /// Whether to draw in colour, given the `NO_COLOR` environment variable's value
    /// (<https://no-color.org>: set and not empty means no colour).
    pub fn use_colour(&self, no_color_env: Option<&str>) -> bool {
        !self.no_color && no_color_env.is_none_or(str::is_empty)
    }
}

/// Colours of the pieces and the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Colours {
    /// Red's pieces.
    pub red: Colour,
    /// White's pieces.
    pub white: Colour,
    /// The dark (playing) squares.
    pub dark_square: Colour,
    /// The light squares.
    pub light_square: Colour,
    /// The squares of the last move and of a move being entered.
    pub highlight: Colour,
}

impl Default for Colours {
    fn default() -> Self {
        Colours {
            red: Colour::Named(Named::LightRed),
            white: Colour::Named(Named::White),
            dark_square: Colour::Rgb(0x3c, 0x5a, 0x3c),
            light_square: Colour::Rgb(0xc8, 0xb4, 0x8c),
            highlight: Colour::Named(Named::Yellow),
        }
    }
}

/// A terminal colour: one of the 16 named colours, a 256-colour index, or `#rrggbb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// A named colour (`red`, `light-blue`, `dark-gray`, ...).
    Named(Named),
    /// An index into the 256-colour palette.
    Indexed(u8),
    /// A true colour.
    Rgb(u8, u8, u8),
}

/// The 16 named terminal colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Named {
    Black,
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    Gray,
    DarkGray,
    LightRed,
    LightGreen,
    LightYellow,
    LightBlue,
    LightMagenta,
    LightCyan,
    White,
}

impl Named {
    /// Every named colour.
    pub const ALL: [Named; 16] = [
        Named::Black,
        Named::Red,
        Named::Green,
        Named::Yellow,
        Named::Blue,
        Named::Magenta,
        Named::Cyan,
        Named::Gray,
        Named::DarkGray,
        Named::LightRed,
        Named::LightGreen,
        Named::LightYellow,
        Named::LightBlue,
        Named::LightMagenta,
        Named::LightCyan,
        Named::White,
    ];

    /// The name in files: `light-red`, ...
    pub fn key(self) -> &'static str {
        match self {
            Named::Black => "black",
            Named::Red => "red",
            Named::Green => "green",
            Named::Yellow => "yellow",
            Named::Blue => "blue",
            Named::Magenta => "magenta",
            Named::Cyan => "cyan",
            Named::Gray => "gray",
            Named::DarkGray => "dark-gray",
            Named::LightRed => "light-red",
            Named::LightGreen => "light-green",
            Named::LightYellow => "light-yellow",
            Named::LightBlue => "light-blue",
            Named::LightMagenta => "light-magenta",
            Named::LightCyan => "light-cyan",
            Named::White => "white",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Colour::Named(n) => f.write_str(n.key()),
            Colour::Indexed(i) => write!(f, "{i}"),
            Colour::Rgb(r, g, b) => write!(f, "#{r:02x}{g:02x}{b:02x}"),
        }
    }
}

impl FromStr for Colour {
    type Err = String;
    fn from_str(s: &str) -> Result<Colour, String> {
        let t = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let t = t.replace("grey", "gray");
        if let Some(hex) = t.strip_prefix('#') {
            let ok = hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit());
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
            return if ok {
                Ok(Colour::Rgb(byte(0), byte(2), byte(4)))
            } else {
                Err(format!(
                    "{s:?} is not a colour: write #rrggbb with six hex digits"
                ))
            };
        }
        if let Ok(i) = t.parse::<u8>() {
            return Ok(Colour::Indexed(i));
        }
        Named::ALL
            .into_iter()
            .find(|n| n.key() == t)
            .map(Colour::Named)
            .ok_or_else(|| {
                format!(
                    "{s:?} is not a colour: use a name ({}), a number 0-255 or #rrggbb",
                    Named::ALL.map(Named::key).join(", ")
                )
            })
    }
}

impl Serialize for Colour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Colour {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Colour, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The platform's directories for crossboard, if a home directory is known.
pub(super) fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "crossboard")
}

/// The data folder: matches, the desk's database, the practice set-up (named on the home
/// screen).
pub fn default_data_dir() -> Option<PathBuf> {
    project_dirs().map(|d| d.data_dir().to_path_buf())
}

/// Where the config file is looked for when `--config` is not given.
pub fn default_config_path() -> Option<PathBuf> {
    project_dirs().map(|d| d.config_dir().join("config.toml"))
}

/// A config and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedConfig {
    /// The settings.
    pub config: Config,
    /// The file read, or `None` when the built-in defaults are used.
    pub path: Option<PathBuf>,
}

/// Load the config: `explicit` (from `--config`) must exist; otherwise the default location is
/// read if there is a file there, and the built-in defaults are used if not.
pub fn load_config(explicit: Option<&Path>) -> Result<LoadedConfig, LoadError> {
    let path = match explicit {
        Some(p) => p.to_path_buf(),
        None => match default_config_path() {
            Some(p) if p.exists() => p,
            _ => {
                return Ok(LoadedConfig {
                    config: Config::default(),
                    path: None,
                });
            }
        },
    };
    let config = read_config(&path)?;
    Ok(LoadedConfig {
        config,
        path: Some(path),
    })
}

/// Read and check one config file.
pub fn read_config(path: &Path) -> Result<Config, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_config(&bytes, path)
}

/// Parse config text; `path` names the file in messages. An empty file is the defaults; a
/// key in an older spelling (`three_move_deck`) is refused with the key to write instead.
pub fn parse_config(bytes: &[u8], path: &Path) -> Result<Config, LoadError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Config::default());
    }
    let config: Config = parse_toml_strict(bytes, path, FORMAT).map_err(old_spelling)?;
    let text = String::from_utf8_lossy(bytes);
    let refuse = |at: &[&str], key: String, message: String| LoadError::Parse {
        path: path.to_path_buf(),
        line: key_path_line(&text, at),
        column: 0,
        key: Some(key),
        message,
    };
    if let Err(e) = config.match_defaults.validate() {
        return Err(refuse(&["match"], "match".into(), e.to_string()));
    }
    if let Some(name) = config.preset.keys().nth(PRESETS_MAX) {
        let key = format!("preset.{}", toml::Value::from(name.as_str()));
        let why = format!("at most {PRESETS_MAX} presets: the set-up form lists them on a screen");
        return Err(refuse(&["preset", name], key, why));
    }
    let table: toml::Table = toml::from_str(&text).unwrap_or_default();
    for (name, settings) in &config.preset {
        let key = format!("preset.{}", toml::Value::from(name.as_str()));
        if let Err(why) = check_preset_name(name) {
            return Err(refuse(&["preset", name], key, why));
        }
        let given = table
            .get("preset")
            .and_then(|p| p.get(name))
            .and_then(toml::Value::as_table);
        for (banned, why) in NOT_IN_A_PRESET {
            if given.is_some_and(|t| t.contains_key(banned)) {
                let at = ["preset", name.as_str(), banned];
                return Err(refuse(&at, format!("{key}.{banned}"), why.into()));
            }
        }
        if let Err(e) = settings.validate() {
            return Err(refuse(&["preset", name], key, e.to_string()));
        }
    }
    check_engines(&config, &refuse)?;
    Ok(config)
}

/// Each `[engines.NAME]` checked ([`check_engine`]); at most [`ENGINES_MAX`].
fn check_engines(
    config: &Config,
    refuse: &dyn Fn(&[&str], String, String) -> LoadError,
) -> Result<(), LoadError> {
    let key = |name: &str| format!("engines.{}", toml::Value::from(name));
    if let Some(name) = config.engines.keys().nth(ENGINES_MAX) {
        let why = format!("at most {ENGINES_MAX} engines: the engines screen lists them");
        return Err(refuse(&["engines", name], key(name), why));
    }
    for (name, engine) in &config.engines {
        if let Err((at, why)) = check_engine(name, engine) {
            let mut path = vec!["engines", name.as_str()];
            path.extend(at.iter().map(String::as_str));
            let shown = [key(name)].into_iter().chain(at.iter().cloned());
            return Err(refuse(&path, shown.collect::<Vec<_>>().join("."), why));
        }
    }
    Ok(())
}

/// A preset's name is shown in a list on the set-up form: a line of at most
/// [`NAME_MAX_CHARS`] visible characters.
fn check_preset_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        Err("a preset needs a name".into())
    } else if name.chars().count() > NAME_MAX_CHARS {
        Err(format!(
            "a preset's name has at most {NAME_MAX_CHARS} characters"
        ))
    } else if name.chars().any(is_unfit) {
        Err(
            "a preset's name contains a control character, or an invisible or \
             direction-changing one"
                .into(),
        )
    } else {
        Ok(())
    }
}

/// An unknown key spelt the old way (with `_`): say which key to write now.
fn old_spelling(e: LoadError) -> LoadError {
    match e {
        LoadError::Parse {
            path,
            line,
            column,
            key: Some(key),
            message,
        } if key.rsplit('.').next().is_some_and(|k| k.contains('_'))
            && message.contains("unknown") =>
        {
            let old = key.rsplit('.').next().unwrap_or_default().to_string();
            let new = old.replace('_', "-");
            LoadError::Parse {
                path,
                line,
                column,
                key: Some(key),
                message: format!(
                    "`{old}` is an older spelling: write `{new}` (keys are kebab-case)"
                ),
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, LoadError> {
        parse_config(text.as_bytes(), Path::new("config.toml"))
    }

    #[test]
    fn empty_file_is_the_defaults() {
        assert_eq!(parse("# nothing set\n").unwrap(), Config::default());
    }

    #[test]
    fn colours() {
        assert_eq!("#FF8000".parse(), Ok(Colour::Rgb(255, 128, 0)));
        assert_eq!("light grey".parse::<Colour>(), Err("\"light grey\" is not a colour: use a name (black, red, green, yellow, blue, magenta, cyan, gray, dark-gray, light-red, light-green, light-yellow, light-blue, light-magenta, light-cyan, white), a number 0-255 or #rrggbb".into()));
        assert_eq!("Dark_Grey".parse(), Ok(Colour::Named(Named::DarkGray)));
        assert_eq!("208".parse(), Ok(Colour::Indexed(208)));
        assert!("#12345".parse::<Colour>().is_err());
        for c in [
            Colour::Rgb(1, 2, 3),
            Colour::Indexed(7),
            Colour::Named(Named::LightCyan),
        ] {
            assert_eq!(c.to_string().parse(), Ok(c));
        }
    }

    #[test]
    fn bad_colour_names_line_and_key() {
        let e =
            parse("[display]\nascii = true\n\n[display.colours]\nred = \"purple\"\n").unwrap_err();
        assert_eq!(e.line(), Some(5), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("config.toml:5"), "{msg}");
        assert!(msg.contains("display.colours.red"), "{msg}");
        assert!(msg.contains("purple"), "{msg}");
    }

    #[test]
    fn engine_settings_are_checked() {
        let c = parse("[engine]\nthreads = 2\nhash-mb = 64\n").unwrap();
        assert_eq!(
            c.engine,
            EngineSettings {
                threads: 2,
                hash_mb: 64
            }
        );
        assert_eq!(Config::default().engine, EngineSettings::default());
        let e = parse("[engine]\nthreads = 0\n").unwrap_err().to_string();
        assert!(e.contains("threads") && e.contains("out of range"), "{e}");
    }

    #[test]
    fn unknown_key_is_refused() {
        let e = parse("[display]\nascii = true\ncolour = false\n").unwrap_err();
        assert_eq!(e.line(), Some(3), "{e}");
        assert!(e.to_string().contains("colour"), "{e}");
    }

    #[test]
    fn no_color_env() {
        let d = Display::default();
        assert!(d.use_colour(None));
        assert!(d.use_colour(Some("")));
        assert!(!d.use_colour(Some("1")));
        let d = Display {
            no_color: true,
            ..Display::default()
        };
        assert!(!d.use_colour(None));
    }
}
