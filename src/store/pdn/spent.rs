//! The time each move took, worked out from a game's `%clock` readings: a player's reading
//! before the move (their previous one, or the `TimeControl` tag's base for their first move)
//! less the reading after it, plus the increment the tag names.

use super::PdnGame;

/// The `TimeControl` tag's base time and increment, seconds, when it is one period
/// (`"300"`, `"300+5"`, `"40/7200"`); `None` for several periods or none.
fn base_and_increment(tag: &str) -> Option<(u64, u64)> {
    if tag.contains(':') {
        return None;
    }
    let (time, inc) = match tag.split_once('+') {
        Some((t, i)) => (t, i.trim().parse().ok()?),
        None => (tag, 0),
    };
    let seconds = time.rsplit('/').next()?.trim().parse().ok()?;
    Some((seconds, inc))
}

impl PdnGame {
    /// Milliseconds each move took, where the clock readings tell (`None` where a reading is
    /// missing, or the clock went up by more than the increment: a new period).
    pub fn spent_ms(&self) -> Vec<Option<u64>> {
        let tc = self.tag("TimeControl").and_then(base_and_increment);
        let inc = tc.map_or(0, |(_, i)| i * 1000);
        let base = tc.map(|(b, _)| b * 1000);
        (0..self.clocks.len())
            .map(|i| {
                let before = match i.checked_sub(2) {
                    Some(j) => self.clocks[j],
                    None => base,
                };
                let after = self.clocks[i]?;
                (before? + inc).checked_sub(after)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_control_tag_gives_base_and_increment() {
        assert_eq!(base_and_increment("300+5"), Some((300, 5)));
        assert_eq!(base_and_increment("40/7200"), Some((7200, 0)));
        assert_eq!(base_and_increment("40/7200:3600"), None);
        assert_eq!(base_and_increment("-"), None);
    }

    #[test]
    fn each_move_takes_the_difference_of_its_players_readings() {
        let mut g = PdnGame::default();
        g.tags.push(("TimeControl".into(), "60+2".into()));
        // Red 60 s -> 50 s with a 2 s increment: 12 s; White 60 -> 59: 3 s; Red 50 -> 40:
        // 12 s; White's second reading is missing.
        g.clocks = vec![Some(50_000), Some(59_000), Some(40_000), None];
        assert_eq!(
            g.spent_ms(),
            [Some(12_000), Some(3_000), Some(12_000), None]
        );
        // Without the tag the first move of each side is unknown.
        g.tags.clear();
        assert_eq!(g.spent_ms(), [None, None, Some(10_000), None]);
    }
}
