//! The Hub protocol, version 2 (the text protocol of the Scan draughts engine and the Hub GUI,
//! specified in Scan's `protocol.txt`), as text: its lines, positions, moves and `level`
//! limits. No input or output here: the engine side is `crossboard hub` and the GUI side the
//! Hub client of `crossboard engine-match` (both in `cli`).
//!
//! English checkers on the wire:
//! - a position is the side to move (`B` for Black, crossboard's Red, or `W`) followed by one
//!   character per square 1-32 in standard order: `b`/`w` men, `B`/`W` kings, `e` empty; a PDN
//!   FEN (`B:W21-32:B1-12`) is read too;
//! - a move is `11-15`, or for a capture the start, the end and then every captured square in
//!   ascending order, joined by `x` (`15x24x19`: 15 jumps 19 and lands on 24); the capture's
//!   full path in PDN notation (`15x24x31`) and the short form are read too.

use crate::engine::{Color, Move, Position, Square, parse_move, squares};
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// What is wrong with a line, a position, a move or a limit received.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HubError {
    /// A position that is neither the Hub form nor a PDN FEN.
    #[error("bad position {text:?}: {why}")]
    Position {
        /// The text received.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A move that is not legal (or not a move) in the position it was sent for.
    #[error("bad move {text:?}: {why}")]
    Move {
        /// The text received.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A `level` line without a usable limit, or a number that does not read.
    #[error("bad level: {0}")]
    Level(String),
}

/// One protocol line: `command key=value key="quoted value" flag ...`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The first word.
    pub command: String,
    /// The arguments in order; a flag has no value.
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// A line with `command` and no arguments.
    pub fn new(command: &str) -> Line {
        Line {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// The same line with `key=value` appended.
    pub fn arg(mut self, key: &str, value: impl fmt::Display) -> Line {
        self.args.push((key.to_string(), Some(value.to_string())));
        self
    }

    /// The same line with the flag `key` appended.
    pub fn flag(mut self, key: &str) -> Line {
        self.args.push((key.to_string(), None));
        self
    }

    /// Read a line; never fails (unknown commands and arguments are the reader's to ignore).
    /// An unclosed quote runs to the end of the line.
    pub fn parse(text: &str) -> Line {
        let mut chars = text.trim().chars().peekable();
        let mut words: Vec<(String, Option<String>)> = Vec::new();
        loop {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            if chars.peek().is_none() {
                break;
            }
            let mut key = String::new();
            while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
                key.push(c);
            }
            let value = if chars.next_if_eq(&'=').is_some() {
                let mut v = String::new();
                if chars.next_if_eq(&'"').is_some() {
                    for c in chars.by_ref() {
                        if c == '"' {
                            break;
                        }
                        v.push(c);
                    }
                } else {
                    while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                        v.push(c);
                    }
                }
                Some(v)
            } else {
                None
            };
            words.push((key, value));
        }
        let mut words = words.into_iter();
        let command = words.next().map(|(k, _)| k).unwrap_or_default();
        Line {
            command,
            args: words.collect(),
        }
    }

    /// The value of `key` (`Some("")` for a flag), if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// True when `key` is present, as a flag or with a value.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The value of `key` read as a number, `None` when absent; an error names the key.
    pub fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, HubError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| HubError::Level(format!("{key}={v:?} is not a number"))),
        }
    }
}

impl fmt::Display for Line {
    /// The line as sent: values with spaces, `=` or quotes, and empty values, are quoted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.command)?;
        for (k, v) in &self.args {
            write!(f, " {k}")?;
            if let Some(v) = v {
                if v.is_empty() || v.contains([' ', '=', '"', '\t']) {
                    // A quote inside a value cannot be sent: the protocol has no escape.
                    write!(f, "=\"{}\"", v.replace('"', "'"))?;
                } else {
                    write!(f, "={v}")?;
                }
            }
        }
        Ok(())
    }
}

/// The position in the Hub form: side to move, then squares 1-32 (`b w B W e`).
pub fn position_text(pos: &Position) -> String {
    let mut s = String::with_capacity(33);
    s.push(match pos.turn() {
        Color::Red => 'B',
        Color::White => 'W',
    });
    for sq in Square::all() {
        s.push(match pos.piece_at(sq) {
            None => 'e',
            Some(p) => match (p.color, p.king) {
                (Color::Red, false) => 'b',
                (Color::Red, true) => 'B',
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
            },
        });
    }
    s
}

/// Read a position in the Hub form or as a PDN FEN.
pub fn parse_position(text: &str) -> Result<Position, HubError> {
    let bad = |why: String| HubError::Position {
        text: text.to_string(),
        why,
    };
    let t = text.trim();
    if t.contains(':') {
        return Position::from_fen(t).map_err(|e| bad(e.to_string()));
    }
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != 33 {
        return Err(bad(format!(
            "expected the side to move and 32 squares (33 characters), got {}",
            chars.len()
        )));
    }
    let turn = match chars[0] {
        'B' | 'b' => Color::Red,
        'W' | 'w' => Color::White,
        c => return Err(bad(format!("the side to move is B or W, not {c:?}"))),
    };
    let (mut red, mut white, mut kings) = (0u32, 0u32, 0u32);
    for (i, &c) in chars[1..].iter().enumerate() {
        let bit = 1u32 << i;
        match c {
            'b' => red |= bit,
            'B' => {
                red |= bit;
                kings |= bit;
            }
            'w' => white |= bit,
            'W' => {
                white |= bit;
                kings |= bit;
            }
            'e' | '.' => {}
            c => {
                return Err(bad(format!(
                    "square {} holds {c:?}; use b, w, B, W or e",
                    i + 1
                )));
            }
        }
    }
    Position::from_bitboards(red, white, kings, turn).map_err(|e| bad(e.to_string()))
}

/// The move in the Hub form: `11-15`, or start x end x captured squares ascending.
pub fn move_text(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut s = format!("{}x{}", mv.from(), mv.to());
    for sq in squares(mv.captured()) {
        s.push('x');
        s.push_str(&sq.to_string());
    }
    s
}

/// Read a move for `pos`: the Hub form first, then PDN notation (full path or short form).
pub fn parse_hub_move(pos: &Position, text: &str) -> Result<Move, HubError> {
    let numbers: Option<Vec<u8>> = text
        .trim()
        .split(['x', 'X', '-'])
        .map(|p| p.trim().parse::<u8>().ok())
        .collect();
    if let Some(n) = numbers.filter(|n| n.len() >= 2) {
        let captured = n[2..]
            .iter()
            .filter_map(|&s| Square::new(s))
            .fold(0u32, |b, s| b | s.bit());
        let hub = pos.legal_moves().into_iter().find(|m| {
            m.from().number() == n[0]
                && m.to().number() == n[1]
                && (n.len() == 2
                    || (n.len() == m.captured().count_ones() as usize + 2
                        && m.captured() == captured))
        });
        if let Some(m) = hub {
            return Ok(m);
        }
    }
    parse_move(pos, text).map_err(|e| HubError::Move {
        text: text.to_string(),
        why: e.to_string(),
    })
}

/// The limit of a search, from a `level` line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeLimit {
    /// `level depth=N`: search N plies.
    Depth(u32),
    /// `level move-time=S`: about S seconds for this move.
    MoveTime(Duration),
    /// `level nodes=N`: about N nodes (an extension Hub clients such as pydraughts send).
    Nodes(u64),
    /// `level [moves=M] time=S [inc=I]`: the clock (S seconds left, M moves to the next
    /// control, I seconds added before every move).
    Clock {
        /// Time left on the clock.
        time: Duration,
        /// Moves to the next time control, if any.
        moves: Option<u32>,
        /// Increment added before every move.
        inc: Duration,
    },
    /// `level infinite`: until `stop`.
    Infinite,
}

fn seconds(line: &Line, key: &str) -> Result<Option<Duration>, HubError> {
    match line.number::<f64>(key)? {
        None => Ok(None),
        Some(s) if (0.0..1e9).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(HubError::Level(format!("{key}={s} is out of range"))),
    }
}

impl TimeLimit {
    /// The limit a `level` line sets.
    pub fn from_line(line: &Line) -> Result<TimeLimit, HubError> {
        if line.has("infinite") {
            return Ok(TimeLimit::Infinite);
        }
        if let Some(d) = line.number::<u32>("depth")? {
            return Ok(TimeLimit::Depth(d.max(1)));
        }
        if let Some(n) = line.number::<u64>("nodes")? {
            return Ok(TimeLimit::Nodes(n.max(1)));
        }
        if let Some(t) = seconds(line, "move-time")? {
            return Ok(TimeLimit::MoveTime(t));
        }
        if let Some(time) = seconds(line, "time")? {
            return Ok(TimeLimit::Clock {
                time,
                moves: line.number::<u32>("moves")?.filter(|&m| m > 0),
                inc: seconds(line, "inc")?.unwrap_or_default(),
            });
        }
        Err(HubError::Level(
            "expected depth=, nodes=, move-time=, time= or infinite".into(),
        ))
    }

    /// The `level` line that sets this limit.
    pub fn to_line(&self) -> Line {
        let secs = |d: &Duration| format!("{:.3}", d.as_secs_f64());
        match self {
            TimeLimit::Depth(d) => Line::new("level").arg("depth", d),
            TimeLimit::Nodes(n) => Line::new("level").arg("nodes", n),
            TimeLimit::MoveTime(t) => Line::new("level").arg("move-time", secs(t)),
            TimeLimit::Infinite => Line::new("level").flag("infinite"),
            TimeLimit::Clock { time, moves, inc } => {
                let mut l = Line::new("level");
                if let Some(m) = moves {
                    l = l.arg("moves", m);
                }
                l = l.arg("time", secs(time));
                if !inc.is_zero() {
                    l = l.arg("inc", secs(inc));
                }
                l
            }
        }
    }
}

/// A score in the Hub form: men with two decimals; a win in n plies is 100 minus n hundredths
/// (`99.93` wins in 7), a loss the same negated, as Scan and pydraughts read them.
pub fn score_text(score: super::Score) -> String {
    match score.plies_to_end() {
        Some(p) if p >= 0 => format!("{:.2}", 100.0 - f64::from(p.min(9_000)) / 100.0),
        Some(p) => format!("{:.2}", -100.0 + f64::from((-p).min(9_000)) / 100.0),
        // A database result: 90 men, less a hundredth per ply to reach it.
        None if score.is_database() => {
            let plies = super::score::DB_WIN - score.0.abs();
            format!(
                "{:.2}",
                f64::from(score.0.signum() * (9_000 - plies)) / 100.0
            )
        }
        None => format!("{:.2}", f64::from(score.0) / 100.0),
    }
}

/// Read a score in the Hub form ([`score_text`]): men for the side to move; beyond 90 a win
/// (or loss) in 100 minus the score's hundredths plies, from 80 to 90 an endgame database's
/// win reached in 90 minus them, as Scan writes them.
pub fn parse_score(text: &str) -> Result<super::Score, String> {
    let v: f64 = match text.trim().parse() {
        Ok(v) if f64::is_finite(v) => v,
        _ => return Err(format!("score={text:?} is not a number")),
    };
    let (sign, size) = (if v < 0.0 { -1 } else { 1 }, v.abs());
    // Hundredths, rounded: the form has two decimals.
    let hundredths = |x: f64| (x * 100.0).round() as i32;
    if size > 100.0 {
        Err(format!(
            "score={text:?} is beyond the ±100 men of the protocol"
        ))
    } else if size > 90.0 {
        let plies = hundredths(100.0 - size) as u32;
        Ok(if sign > 0 {
            super::Score::win_in(plies)
        } else {
            super::Score::loss_in(plies)
        })
    } else if size >= 80.0 {
        let plies = hundredths(90.0 - size);
        Ok(super::Score(sign * (super::score::DB_WIN - plies)))
    } else {
        Ok(super::Score(hundredths(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_and_write_with_quotes() {
        let l = Line::parse(r#"pos pos=Bbbbb moves="11-15 23-19"  flag x="" "#);
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Bbbbb"));
        assert_eq!(l.get("moves"), Some("11-15 23-19"));
        assert_eq!(l.get("flag"), Some(""));
        assert!(l.has("flag") && !l.has("nothing"));
        assert_eq!(l.get("x"), Some(""));
        let back = Line::parse(&l.to_string());
        assert_eq!(back, l);
        assert_eq!(
            Line::new("id").arg("name", "cross board").to_string(),
            r#"id name="cross board""#
        );
        assert_eq!(Line::parse("").command, "");
        assert_eq!(Line::parse("go think").args, vec![("think".into(), None)]);
    }

    #[test]
    fn positions_round_trip() {
        let start = Position::start();
        let text = position_text(&start);
        assert_eq!(text, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert_eq!(parse_position(&text), Ok(start));
        let p = Position::from_fen("W:W18,24,K10:B12,16,K22").unwrap();
        assert_eq!(parse_position(&position_text(&p)), Ok(p));
        assert_eq!(parse_position("W:W18,24,K10:B12,16,K22"), Ok(p));
        assert!(parse_position("B").is_err());
        assert!(parse_position(&format!("X{}", &text[1..])).is_err());
        assert!(parse_position(&text.replace('e', "q")).is_err());
        // A White man on 1 would be a king: refused, not misread.
        let mut bad: Vec<char> = text.chars().collect();
        bad[1] = 'w';
        assert!(parse_position(&bad.into_iter().collect::<String>()).is_err());
    }

    #[test]
    fn moves_in_both_forms() {
        let p = Position::from_fen("B:W19,27:B15").unwrap();
        let mv = p.legal_moves()[0];
        assert_eq!(mv.to_string(), "15x24x31");
        assert_eq!(move_text(&mv), "15x31x19x27");
        assert_eq!(parse_hub_move(&p, "15x31x19x27"), Ok(mv));
        assert_eq!(
            parse_hub_move(&p, "15x31x27x19"),
            Ok(mv),
            "captures in any order"
        );
        assert_eq!(parse_hub_move(&p, "15x24x31"), Ok(mv), "PDN path");
        assert_eq!(parse_hub_move(&p, "15x31"), Ok(mv), "short form");
        assert!(parse_hub_move(&p, "15-18").is_err());
        let s = Position::start();
        assert_eq!(
            parse_hub_move(&s, "11-15").map(|m| m.to_string()),
            Ok("11-15".into())
        );
        assert!(parse_hub_move(&s, "11-17").is_err());
        assert!(parse_hub_move(&s, "nonsense").is_err());
    }

    #[test]
    fn levels() {
        let l = |t: &str| TimeLimit::from_line(&Line::parse(t));
        assert_eq!(l("level depth=9"), Ok(TimeLimit::Depth(9)));
        assert_eq!(l("level nodes=5000"), Ok(TimeLimit::Nodes(5000)));
        assert_eq!(
            l("level move-time=0.5"),
            Ok(TimeLimit::MoveTime(Duration::from_millis(500)))
        );
        assert_eq!(l("level infinite"), Ok(TimeLimit::Infinite));
        assert_eq!(
            l("level moves=9 time=291.5 inc=2"),
            Ok(TimeLimit::Clock {
                time: Duration::from_millis(291_500),
                moves: Some(9),
                inc: Duration::from_secs(2)
            })
        );
        assert!(l("level").is_err());
        assert!(l("level time=-3").is_err());
        assert!(l("level depth=x").is_err());
        for limit in [
            TimeLimit::Depth(3),
            TimeLimit::Nodes(7),
            TimeLimit::MoveTime(Duration::from_millis(250)),
            TimeLimit::Infinite,
            TimeLimit::Clock {
                time: Duration::from_secs(60),
                moves: None,
                inc: Duration::from_secs(1),
            },
        ] {
            assert_eq!(TimeLimit::from_line(&limit.to_line()), Ok(limit));
        }
    }

    #[test]
    fn scores() {
        use super::super::Score;
        assert_eq!(score_text(Score(-37)), "-0.37");
        assert_eq!(score_text(Score::win_in(7)), "99.93");
        assert_eq!(score_text(Score::loss_in(4)), "-99.96");
        let db = Score(super::super::score::DB_WIN - 12);
        for s in [
            Score(-37),
            Score(1234),
            Score::win_in(7),
            Score::loss_in(4),
            db,
            db.flip(),
        ] {
            assert_eq!(parse_score(&score_text(s)), Ok(s), "{s}");
        }
        assert_eq!(parse_score("0.5"), Ok(Score(50)));
        assert!(parse_score("high").is_err());
        assert!(parse_score("150").is_err());
        assert!(parse_score("NaN").is_err());
    }
}
