//! Writing PDN: the tags in their order, the move text with marks, clocks, huffing choices
//! and comments, wrapped under 80 columns.

use super::{DERIVED_TAGS, LINE_WIDTH, PdnGame, ROSTER, VARIANT_TAG, format_clock};
use crate::engine::{Color, Position, Prelude, Rules};
use crate::search::Mark;
use std::fmt::Write as _;

impl PdnGame {
    /// The game as PDN text, ending with a newline.
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        self.write_to(&mut out);
        out
    }

    fn write_to(&self, out: &mut String) {
        let mut tag = |name: &str, value: &str| {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
        };
        for name in ROSTER {
            let unknown = if name == "Date" { "????.??.??" } else { "?" };
            tag(name, self.tag(name).unwrap_or(unknown));
        }
        tag("Result", self.result.as_str());
        let rules = self.rules();
        tag("GameType", &rules.pdn_game_type().to_string());
        if matches!(rules, Rules::Huffing | Rules::Losing) {
            tag(VARIANT_TAG, rules.key());
        }
        if self.start != Position::start_in(rules) {
            tag("SetUp", "1");
            tag("FEN", &self.start.to_fen());
        }
        for (name, value) in &self.tags {
            if !ROSTER.contains(&name.as_str()) && !DERIVED_TAGS.contains(&name.as_str()) {
                tag(name, value);
            }
        }
        out.push('\n');
        for line in wrap(&self.movetext_tokens(), LINE_WIDTH) {
            out.push_str(&line);
            out.push('\n');
        }
    }

    /// Move text as units that must not be split over lines (a comment is split at its
    /// spaces, so a long note wraps like the moves).
    fn movetext_tokens(&self) -> Vec<String> {
        let mut tokens = Vec::new();
        let mut number = 1;
        let mut turn = self.start.turn();
        let mut after_comment = true;
        let comments_at = |plies: usize, tokens: &mut Vec<String>| {
            let mut any = false;
            for (_, text) in self.comments.iter().filter(|(at, _)| *at == plies) {
                tokens.extend(comment_tokens(text));
                any = true;
            }
            any
        };
        comments_at(0, &mut tokens);
        let prelude_tokens = |ply: usize, tokens: &mut Vec<String>| {
            let prelude = self.preludes.get(ply).copied().unwrap_or_default();
            if let Some(sq) = prelude.huffed {
                tokens.push(format!("{{[%huff {sq}]}}"));
            }
            if let Some(r) = prelude.retracted {
                tokens.push(format!("{{[%retracted {r}]}}"));
            }
            prelude != Prelude::default()
        };
        for (ply, mv) in self.moves.iter().enumerate() {
            if prelude_tokens(ply, &mut tokens) {
                after_comment = true;
            }
            let mark = self.mark(ply).map_or("", Mark::symbol);
            let token = match turn {
                Color::Red => format!("{number}. {mv}{mark}"),
                Color::White if after_comment => format!("{number}... {mv}{mark}"),
                Color::White => format!("{mv}{mark}"),
            };
            tokens.push(token);
            after_comment = false;
            if let Some(Some(ms)) = self.clocks.get(ply) {
                tokens.push(format!("{{[%clock {}]}}", format_clock(*ms)));
                after_comment = true;
            }
            if comments_at(ply + 1, &mut tokens) {
                after_comment = true;
            }
            if turn == Color::White {
                number += 1;
            }
            turn = turn.opponent();
        }
        // Comments placed after the last move (a note made once the game was over).
        for (_, text) in self
            .comments
            .iter()
            .filter(|(at, _)| *at > self.moves.len())
        {
            tokens.extend(comment_tokens(text));
        }
        prelude_tokens(self.moves.len(), &mut tokens);
        tokens.push(self.result.as_str().to_string());
        tokens
    }
}

/// `{a comment}` as tokens split at spaces (braces inside are dropped: a comment cannot
/// hold its own end).
fn comment_tokens(text: &str) -> Vec<String> {
    let clean: String = text
        .chars()
        .map(|c| if matches!(c, '{' | '}') { ' ' } else { c })
        .collect();
    let words: Vec<&str> = clean.split_whitespace().collect();
    let n = words.len();
    if n == 0 {
        return Vec::new();
    }
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let open = if i == 0 { "{" } else { "" };
            let close = if i + 1 == n { "}" } else { "" };
            format!("{open}{w}{close}")
        })
        .collect()
}

/// Write several games, separated by blank lines.
pub fn write_pdn(games: &[PdnGame]) -> String {
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        g.write_to(&mut out);
    }
    out
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// Join tokens into lines of at most `width` characters (a longer token stands alone).
fn wrap(tokens: &[String], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
