//! Colours: each player's preference from the colours they had, and who is first on a board.

use super::SwissPlayer;
use crate::engine::Color;

/// How strongly a player wants a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Strength {
    Mild,
    Strong,
    Absolute,
}

/// A colour preference and its strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pref {
    pub(super) colour: Color,
    pub(super) strength: Strength,
}

/// Games with Red minus games with White.
pub(super) fn colour_diff(colours: &[Color]) -> i64 {
    colours
        .iter()
        .map(|&c| if c == Color::Red { 1 } else { -1 })
        .sum()
}

/// The colour of the last two games, when it is the same.
pub(super) fn repeated(colours: &[Color]) -> Option<Color> {
    match colours {
        [.., x, y] if x == y => Some(*y),
        _ => None,
    }
}

/// The colour a player wants next and how strongly (none before any game).
pub(super) fn preference(colours: &[Color]) -> Option<Pref> {
    let red = colours.iter().filter(|&&c| c == Color::Red).count() as i64;
    let diff = red - (colours.len() as i64 - red);
    let n = colours.len();
    let twice = n >= 2 && colours[n - 1] == colours[n - 2];
    let pref = |colour, strength| Some(Pref { colour, strength });
    if diff > 1 || (twice && colours[n - 1] == Color::Red) {
        pref(Color::White, Strength::Absolute)
    } else if diff < -1 || (twice && colours[n - 1] == Color::White) {
        pref(Color::Red, Strength::Absolute)
    } else if diff == 1 {
        pref(Color::White, Strength::Strong)
    } else if diff == -1 {
        pref(Color::Red, Strength::Strong)
    } else {
        colours.last().map(|&c| Pref {
            colour: c.opponent(),
            strength: Strength::Mild,
        })
    }
}

/// Who is first (Red in game 1) on a board: (first, second, whose preference decided). FIDE's
/// colour rules in order (C.04.3 E): both preferences; the stronger one (of two absolute ones,
/// the wider colour difference's: topscorers); alternate from the last round they had
/// different colours; the higher-ranked player's preference; with none, the higher-ranked
/// player has the initial colour (Red) with an odd pairing number, the other with an even one.
pub(super) fn allocate(
    players: &[&SwissPlayer],
    prefs: &[Option<Pref>],
    hi: usize,
    lo: usize,
) -> (usize, usize, Option<usize>) {
    let as_first = |p: usize, c: Color| if c == Color::Red { p } else { other(p, hi, lo) };
    let granted = |winner: usize, c: Color| {
        let f = as_first(winner, c);
        (f, other(f, hi, lo), Some(winner))
    };
    match (prefs[hi], prefs[lo]) {
        (Some(a), Some(b)) if a.colour != b.colour => {
            let f = as_first(hi, a.colour);
            (f, other(f, hi, lo), None)
        }
        (Some(a), None) => granted(hi, a.colour),
        (None, Some(b)) => granted(lo, b.colour),
        (Some(a), Some(b)) => {
            if a.strength != b.strength {
                return if a.strength > b.strength {
                    granted(hi, a.colour)
                } else {
                    granted(lo, b.colour)
                };
            }
            let (dh, dl) = (
                colour_diff(&players[hi].colours).abs(),
                colour_diff(&players[lo].colours).abs(),
            );
            if a.strength == Strength::Absolute && dh != dl {
                return if dh > dl {
                    granted(hi, a.colour)
                } else {
                    granted(lo, b.colour)
                };
            }
            if let Some(c) = last_difference(&players[hi].colours, &players[lo].colours) {
                // Alternate from the last round they had different colours: hi had `c`.
                let f = as_first(hi, c.opponent());
                return (f, other(f, hi, lo), None);
            }
            granted(hi, a.colour)
        }
        (None, None) => {
            let c = if players[hi].rank % 2 == 1 {
                Color::Red
            } else {
                Color::White
            };
            let f = as_first(hi, c);
            (f, other(f, hi, lo), None)
        }
    }
}

fn other(p: usize, a: usize, b: usize) -> usize {
    if p == a { b } else { a }
}

/// The colour `a` had in the latest round (counting back from each one's last) where the two
/// had different colours.
fn last_difference(a: &[Color], b: &[Color]) -> Option<Color> {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(&x, _)| x)
}
