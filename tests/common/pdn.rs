//! PDN round trips shared by the PDN tests.

use crossboard::store::{PdnGame, read_pdn, write_pdn};

/// Writes `games` as one PDN text, checks every line is under 80 columns and that reading it
/// back gives the same games (tags, rules, moves, result, every position of the replay), and
/// returns the text for further checks.
pub fn assert_round_trip(games: &[PdnGame]) -> String {
    let text = write_pdn(games);
    assert!(text.lines().all(|l| l.len() < 80), "{text}");
    let back: Vec<PdnGame> = read_pdn(&text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(back.len(), games.len());
    for (a, b) in games.iter().zip(&back) {
        assert_eq!(a, b);
        assert_eq!(b.rules(), a.rules());
        assert_eq!(b.result, a.result);
        let (ga, gb) = (a.replay().unwrap(), b.replay().unwrap());
        assert_eq!(ga.positions(), gb.positions());
        assert_eq!(ga, gb);
    }
    text
}
