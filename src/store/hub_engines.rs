//! Other engines in the config file: `[engines.NAME]`, a program that speaks the Hub protocol
//! with its arguments and the `set-param` options it is given at start.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// Engines a config file may hold: the engines screen lists them all on an 80x24 screen.
pub(super) const ENGINES_MAX: usize = 12;
/// Longest engine name: it is shown in the practice form and on the analysis pane's head.
const ENGINE_NAME_MAX: usize = 24;

/// One Hub engine of the config file (`[engines.kingsrow]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct HubEngineConfig {
    /// The program: a path, or a name looked up in `PATH`.
    pub path: PathBuf,
    /// Its arguments, each a word as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<String>,
    /// Parameters set with `set-param name=.. value=..` before `init`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, ParamValue>,
}

impl HubEngineConfig {
    /// The options as the protocol sends them: (name, value) in text.
    pub fn params(&self) -> Vec<(String, String)> {
        self.options
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect()
    }

    /// The program found ([`HubEngineConfig::resolve`]), or why not, naming the engine `name`.
    pub fn program(&self, name: &str) -> Result<PathBuf, String> {
        self.resolve().ok_or_else(|| {
            format!(
                "{name}: the engine's program {} is not found",
                self.path.display()
            )
        })
    }

    /// The program found: a path that exists, or a bare name found in `PATH` (`None`: not
    /// found, which the engines screen says).
    pub fn resolve(&self) -> Option<PathBuf> {
        let p = &self.path;
        if p.components().count() > 1 || p.is_absolute() {
            return p.is_file().then(|| p.clone());
        }
        let exts: &[&str] = if cfg!(windows) { &["", "exe"] } else { &[""] };
        std::env::split_paths(&std::env::var_os("PATH")?)
            .flat_map(|dir| exts.iter().map(move |e| dir.join(p).with_extension(e)))
            .find(|c| c.is_file())
    }
}

/// A `set-param` value: text, a number or true/false, sent as text.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A string.
    Text(String),
    /// A whole number.
    Integer(i64),
    /// A number with a fraction.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Text(s) => f.write_str(s),
            ParamValue::Integer(n) => write!(f, "{n}"),
            ParamValue::Float(x) => write!(f, "{x}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl Serialize for ParamValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ParamValue::Text(t) => s.serialize_str(t),
            ParamValue::Integer(n) => s.serialize_i64(*n),
            ParamValue::Float(x) => s.serialize_f64(*x),
            ParamValue::Bool(b) => s.serialize_bool(*b),
        }
    }
}

impl<'de> Deserialize<'de> for ParamValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ParamValue, D::Error> {
        match toml::Value::deserialize(d)? {
            toml::Value::String(s) => Ok(ParamValue::Text(s)),
            toml::Value::Integer(n) => Ok(ParamValue::Integer(n)),
            toml::Value::Float(x) => Ok(ParamValue::Float(x)),
            toml::Value::Boolean(b) => Ok(ParamValue::Bool(b)),
            _ => Err(serde::de::Error::custom(
                "an engine option is text, a number or true/false",
            )),
        }
    }
}

/// What is wrong with an engine's entry, and the key under `engines.NAME` it is at (empty:
/// the name itself).
pub(super) fn check_engine(
    name: &str,
    engine: &HubEngineConfig,
) -> Result<(), (Vec<String>, String)> {
    if name.trim().is_empty() {
        return Err((vec![], "an engine needs a name".into()));
    }
    if name.chars().count() > ENGINE_NAME_MAX {
        let why = format!("an engine's name has at most {ENGINE_NAME_MAX} characters");
        return Err((vec![], why));
    }
    if name.chars().any(crate::director::is_unfit) {
        return Err((
            vec![],
            "an engine's name contains a control character".into(),
        ));
    }
    if engine.path.as_os_str().is_empty() {
        return Err((vec!["path".into()], "the engine's program is empty".into()));
    }
    for (key, value) in &engine.options {
        if key.is_empty() || key.contains(|c: char| c.is_whitespace() || c == '=' || c == '"') {
            let why = "an option's name is one word (no spaces, = or quotes)".to_string();
            return Err((vec!["options".into(), key.clone()], why));
        }
        if value.to_string().chars().any(|c| c.is_control()) {
            let why = "an option's value is one line".to_string();
            return Err((vec!["options".into(), key.clone()], why));
        }
    }
    Ok(())
}
