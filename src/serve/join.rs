//! A board's laptop joining the round with its token alone: the board's pairing asked of the
//! desk (`GET /pairing`, see [`super::desk`]), to open the board's match with nothing to type.

use crate::store::BoardPairing as Pairing;
use std::time::Duration;

/// How long the question may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// What the desk says when it refuses.
#[derive(serde::Deserialize, Default)]
struct Said {
    refused: Option<String>,
}

/// Ask the desk at `desk` (`http://HOST:PORT`) for the pairing of the board of `token` (its
/// token or its code); why not, in words (which desk, why, what to do).
pub fn fetch_pairing(desk: &str, token: &str) -> Result<Pairing, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(TIMEOUT))
        .build()
        .into();
    let url = format!("{}/pairing", desk.trim_end_matches('/'));
    let mut r = agent
        .get(&url)
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .map_err(|e| {
            format!(
                "the desk at {desk} cannot be reached ({e}): is crossboard serve running there?"
            )
        })?;
    let status = r.status();
    if status.is_success() {
        let p: Pairing = r
            .body_mut()
            .read_json()
            .map_err(|e| format!("the desk at {desk} answered no pairing ({e})"))?;
        return checked(p);
    }
    let said: Said = r.body_mut().read_json().unwrap_or_default();
    let reason = said
        .refused
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("").to_string());
    Err(match status.as_u16() {
        401 => {
            let what = if crate::store::read_code(token).is_some() {
                "code"
            } else {
                "token"
            };
            format!(
                "the desk refused the board's {what} ({reason}): ask the director for this \
                 board's {what}"
            )
        }
        code => format!("the desk at {desk} gives no pairing for this board ({code}: {reason})"),
    })
}

/// The pairing, its file name checked to be a plain name of a match file (it comes from the
/// network and names a file here).
fn checked(p: Pairing) -> Result<Pairing, String> {
    let plain = std::path::Path::new(&p.file)
        .file_name()
        .is_some_and(|n| n == p.file.as_str())
        && !p.file.starts_with('.')
        && !p.file.contains(['/', '\\', ':'])
        && p.file.ends_with(".jsonl");
    if plain {
        Ok(p)
    } else {
        Err(format!(
            "the desk named the board's file {:?}: not a plain file name",
            p.file
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_file_name_is_taken() {
        let p = |file: &str| Pairing {
            event: "Open".into(),
            division: 1,
            round: 1,
            board: 1,
            file: file.into(),
            settings: crate::director::MatchSettings::default(),
        };
        assert!(checked(p("open-d1-r1-b1.jsonl")).is_ok());
        for bad in [
            "../x.jsonl",
            "/etc/x.jsonl",
            "a/b.jsonl",
            ".x.jsonl",
            "x.txt",
            "c:x.jsonl",
        ] {
            assert!(checked(p(bad)).is_err(), "{bad}");
        }
    }
}
