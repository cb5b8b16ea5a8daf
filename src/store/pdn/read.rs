//! Reading PDN: the games of a file built from the tokens, moves as other programs write
//! them, clock and huffing comments, and the Windows-1252 fallback for bytes that are not UTF-8.

use super::lexer::{CommentEnd, Lexer, Tok};
use super::tags::{known_tag, start_position, unknown_roster};
use super::{
    DERIVED_TAGS, PdnError, PdnErrorKind, PdnGame, PdnResult, ReplayError, move_label, parse_clock,
    preludes_of,
};
use crate::engine::{Color, Game, Move, MoveError, Position, Square, parse_move};
use crate::search::Mark;
use std::borrow::Cow;

/// The game being read.
struct Builder {
    number: usize,
    tags: Vec<(String, String)>,
    has_movetext: bool,
    game: Option<Game>,
    clocks: Vec<Option<u64>>,
    marks: Vec<Option<Mark>>,
    comments: Vec<(usize, String)>,
    terminator: Option<PdnResult>,
    error: Option<(usize, PdnErrorKind)>,
    /// True right after a move, until the next move: a clock comment belongs to it.
    clock_open: bool,
    warnings: Vec<String>,
}

impl Builder {
    fn new(number: usize) -> Builder {
        Builder {
            number,
            tags: Vec::new(),
            has_movetext: false,
            game: None,
            clocks: Vec::new(),
            marks: Vec::new(),
            comments: Vec::new(),
            terminator: None,
            error: None,
            clock_open: false,
            warnings: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && !self.has_movetext
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn fail(&mut self, line: usize, kind: PdnErrorKind) {
        if self.error.is_none() {
            self.error = Some((line, kind));
        }
    }

    /// The game, started from the tags' position on first use.
    fn game(&mut self, line: usize) -> Option<&mut Game> {
        if self.game.is_none() && self.error.is_none() {
            match start_position(&self.tags) {
                Ok(p) => self.game = Some(Game::new(p.rules(), p)),
                Err(kind) => self.fail(line, kind),
            }
        }
        if self.error.is_some() {
            return None;
        }
        self.game.as_mut()
    }

    fn play(&mut self, line: usize, text: &str) {
        let Some(game) = self.game(line) else {
            return;
        };
        let ply = game.moves().len();
        let label = move_label(game.start().turn(), ply);
        match read_move(game.position(), text).and_then(|mv| game.play(&mv)) {
            Ok(()) => {
                self.clocks.push(None);
                self.marks.push(mark_suffix(text));
                self.clock_open = true;
            }
            Err(error) => self.fail(
                line,
                PdnErrorKind::Move(ReplayError {
                    label,
                    text: text.to_string(),
                    error,
                }),
            ),
        }
    }

    fn comment(&mut self, line: usize, text: &str) {
        if let Some(command) = huff_command(text) {
            self.huff(line, command);
            return;
        }
        if self.error.is_some() {
            return;
        }
        let plies = self.game.as_ref().map_or(0, |g| g.moves().len());
        if let Some(game) = self.game.as_ref().filter(|_| self.clock_open && plies > 0) {
            let mover = game.positions()[plies - 1].turn();
            if let Some(ms) = clock_in_comment(text, mover)
                && let Some(slot) = self.clocks.last_mut()
            {
                *slot = Some(ms);
                self.clock_open = false;
            }
        }
        let note = without_commands(text);
        if !note.is_empty() {
            self.comments.push((plies, note));
        }
    }

    /// An annotator's mark for the last move (a suffix written apart, or a NAG).
    fn mark_last(&mut self, mark: Option<Mark>) {
        if let (Some(m), Some(slot)) = (mark, self.marks.last_mut()) {
            *slot = Some(m);
        }
    }

    /// A huffing choice before the next move: huff a piece, or play the retracted move and
    /// take it back (the capture compelled follows as the next move).
    fn huff(&mut self, line: usize, command: HuffCommand) {
        let Some(game) = self.game(line) else {
            return;
        };
        let done = match command {
            HuffCommand::Huff(sq) => game.huff(sq).map_err(|e| format!("{{[%huff {sq}]}}: {e}")),
            HuffCommand::Retracted(text) => read_move(game.position(), &text)
                .and_then(|mv| game.play(&mv))
                .map_err(|e| e.to_string())
                .and_then(|()| game.compel().map_err(|e| e.to_string()))
                .map_err(|e| format!("{{[%retracted {text}]}}: {e}")),
        };
        if let Err(why) = done {
            self.fail(line, PdnErrorKind::Huff(why));
        }
        self.clock_open = false;
    }

    fn warn(&mut self, line: usize, text: String) {
        self.warnings.push(format!("line {line}: {text}"));
    }

    fn finish(mut self, line: usize) -> Result<PdnGame, PdnError> {
        // CheckerBoard and others name Red's player with a Red tag.
        if self.tag("Black").is_none()
            && let Some(slot) = self.tags.iter_mut().find(|(n, _)| n == "Red")
        {
            slot.0 = "Black".to_string();
        }
        // A game with tags only still has a start position to check.
        let _ = self.game(line);
        let players = match (self.tag("Black"), self.tag("White")) {
            (Some(b), Some(w)) => Some(format!("{b} vs {w}")),
            _ => None,
        };
        if let Some((line, kind)) = self.error {
            return Err(PdnError {
                game: self.number,
                line,
                players,
                kind: Box::new(kind),
            });
        }
        let tag_result = self.tag("Result").and_then(PdnResult::parse);
        let result = match (tag_result, self.terminator) {
            (Some(r), _) if r != PdnResult::Unfinished => r,
            (_, Some(t)) => t,
            (r, None) => r.unwrap_or_default(),
        };
        let game = self.game.unwrap_or_else(Game::standard);
        let preludes = preludes_of(&game);
        if self.marks.iter().all(Option::is_none) {
            self.marks.clear();
        }
        Ok(PdnGame {
            tags: self
                .tags
                .into_iter()
                .filter(|(n, v)| !DERIVED_TAGS.contains(&n.as_str()) && !unknown_roster(n, v))
                .collect(),
            start: *game.start(),
            moves: game.moves().to_vec(),
            clocks: self.clocks,
            comments: self.comments,
            marks: self.marks,
            preludes,
            warnings: self.warnings,
            result,
        })
    }
}

/// The length of the move at the start of `text`: squares joined by `-` or `x`.
fn move_prefix_len(text: &str) -> usize {
    let b = text.as_bytes();
    let digits = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut end = digits(0);
    while end > 0 && end < b.len() && matches!(b[end], b'-' | b'x' | b'X') {
        match digits(end + 1) {
            0 => break,
            n => end += 1 + n,
        }
    }
    end
}

/// The annotator's mark in a move's suffix (`11-15?`, `??`, `?!`; `!`, `!!` and `!?` are no
/// mark), or in a NAG (`$2`, `$4`, `$6`, as PGN numbers them).
fn mark_suffix(text: &str) -> Option<Mark> {
    let suffix = if text.starts_with('$') {
        text
    } else {
        &text[text.trim_end_matches(['!', '?']).len()..]
    };
    match suffix {
        "?!" | "$6" => Some(Mark::Inaccuracy),
        "?" | "$2" => Some(Mark::Mistake),
        "??" | "$4" => Some(Mark::Blunder),
        _ => None,
    }
}

/// A comment's text without its `[%...]` commands (clock readings, huffing choices), its
/// white space closed up.
fn without_commands(text: &str) -> String {
    let mut rest = text;
    let mut kept = String::new();
    while let Some(start) = rest.find("[%") {
        kept.push_str(&rest[..start]);
        kept.push(' ');
        rest = rest[start..]
            .find(']')
            .map_or("", move |end| &rest[start + end + 1..]);
    }
    kept.push_str(rest);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A huffing choice written in a comment.
enum HuffCommand {
    /// `[%huff 22]`: the piece on 22 was huffed.
    Huff(Square),
    /// `[%retracted 9-13]`: this move was taken back by the opponent.
    Retracted(String),
}

/// The huffing choice a comment holds, if it is one.
fn huff_command(text: &str) -> Option<HuffCommand> {
    let body = text.trim().strip_prefix("[%")?.strip_suffix(']')?;
    let (name, arg) = body.split_once(char::is_whitespace)?;
    let arg = arg.trim();
    match name {
        "huff" => arg
            .parse::<u8>()
            .ok()
            .and_then(Square::new)
            .map(HuffCommand::Huff),
        "retracted" => Some(HuffCommand::Retracted(arg.to_string())),
        _ => None,
    }
}

/// Bytes of a PDN file as text: UTF-8 when they are (a byte-order mark is skipped by the
/// reader), else Windows-1252, as old programs wrote names (the no-break space 0xA0 read as a
/// space, curly quotes 0x93/0x94 as quote marks, the bytes Windows-1252 leaves undefined as
/// their Latin-1 control characters).
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    // UTF-16 with its byte-order mark (as Windows' "Unicode" saves), either byte order.
    let utf16 = match bytes {
        [0xFF, 0xFE, rest @ ..] => Some((rest, u16::from_le_bytes as fn([u8; 2]) -> u16)),
        [0xFE, 0xFF, rest @ ..] => Some((rest, u16::from_be_bytes as fn([u8; 2]) -> u16)),
        _ => None,
    };
    if let Some((rest, unit)) = utf16 {
        let units = rest.chunks_exact(2).map(|p| unit([p[0], p[1]]));
        return Cow::Owned(
            char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect(),
        );
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| windows_1252(b)).collect()),
    }
}

/// One Windows-1252 byte as a character (0xA0 as a plain space).
fn windows_1252(b: u8) -> char {
    /// 0x80..=0x9F; `\0` where Windows-1252 defines nothing (read as Latin-1).
    const HIGH: [char; 32] = [
        '€', '\0', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\0', 'Ž', '\0', '\0',
        '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\0', 'ž', 'Ÿ',
    ];
    match b {
        0xA0 => ' ',
        0x80..=0x9F => match HIGH[usize::from(b - 0x80)] {
            '\0' => char::from(b),
            c => c,
        },
        _ => char::from(b),
    }
}

/// A move as written in a file: anything [`parse_move`] reads, plus `1115` without separator.
fn read_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let first = parse_move(pos, text);
    let digits = text.trim_end_matches(['!', '?']);
    if first.is_ok()
        || !(3..=4).contains(&digits.len())
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return first;
    }
    let fits: Vec<Move> = (1..digits.len())
        .filter_map(|i| parse_move(pos, &format!("{}-{}", &digits[..i], &digits[i..])).ok())
        .collect();
    match fits.as_slice() {
        [one] => Ok(*one),
        _ => first,
    }
}

/// A clock reading inside a comment: `[%clock 0:59:12]`, `[%clk 0:59:12]` or
/// `[%clock w0:59:12 B1:00:00]` (the reading for `mover`).
pub(super) fn clock_in_comment(text: &str, mover: Color) -> Option<u64> {
    let start = text.find("[%clock").or_else(|| text.find("[%clk"))?;
    let body = &text[start..];
    let end = body.find(']')?;
    let body = &body[..end];
    let mut any = None;
    for item in body.split_whitespace().skip(1) {
        let (who, time) = match item.chars().next()? {
            'w' | 'W' => (Some(Color::White), &item[1..]),
            'b' | 'B' => (Some(Color::Red), &item[1..]),
            _ => (None, item),
        };
        let ms = parse_clock(time)?;
        match who {
            Some(c) if c == mover => return Some(ms),
            Some(_) => {}
            None => any = any.or(Some(ms)),
        }
    }
    any
}

/// Read every game of a PDN text. One entry per game in file order: the game, or why it could
/// not be read. A bad game never stops the reading of the others.
pub fn read_pdn(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    let mut out = Vec::new();
    let mut lexer = Lexer::new(text);
    let mut b = Builder::new(1);
    let mut depth = 0usize;
    let mut last_line = 1;
    while let Some((line, tok)) = lexer.next_token() {
        last_line = line;
        match tok {
            Tok::Tag(name, value) => {
                if b.has_movetext {
                    let next = Builder::new(b.number + 1);
                    out.push(std::mem::replace(&mut b, next).finish(line));
                    depth = 0;
                }
                b.tags.push((known_tag(name), value));
            }
            Tok::BadTag(raw) => {
                if b.has_movetext {
                    let next = Builder::new(b.number + 1);
                    out.push(std::mem::replace(&mut b, next).finish(line));
                    depth = 0;
                }
                b.fail(line, PdnErrorKind::Tag(raw));
            }
            Tok::Comment(text, end) => {
                match end {
                    CommentEnd::Closed => {}
                    CommentEnd::BeforeTag(tag) => b.warn(
                        line,
                        format!(
                            "a comment opened here is not closed before the tag on line {tag}: \
                             read as closed there"
                        ),
                    ),
                    CommentEnd::EndOfFile => b.warn(
                        line,
                        "a comment opened here runs to the end of the file (its } is missing)"
                            .into(),
                    ),
                }
                if depth == 0 {
                    b.comment(line, &text);
                }
            }
            Tok::Open => {
                depth += 1;
                b.clock_open = false;
            }
            Tok::Close => depth = depth.saturating_sub(1),
            Tok::Word(_) if depth > 0 => {}
            Tok::Word(word) => {
                if let Some(result) = PdnResult::parse(&word) {
                    if b.is_empty() {
                        continue; // a stray terminator between games
                    }
                    b.terminator = Some(result);
                    b.has_movetext = true;
                    let next = Builder::new(b.number + 1);
                    out.push(std::mem::replace(&mut b, next).finish(line));
                    continue;
                }
                b.has_movetext = true;
                word_token(&mut b, line, &word);
            }
        }
    }
    if !b.is_empty() {
        out.push(b.finish(last_line));
    }
    out
}

/// A word of move text: a move number, a move (possibly glued to its number), or an ignorable.
fn word_token(b: &mut Builder, line: usize, word: &str) {
    if word.starts_with('$') {
        b.mark_last(mark_suffix(word)); // NAG
        return;
    }
    // Strip a leading move number: `12.`, `12...`, `12.11-15`.
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    };
    let rest = rest.trim_start_matches(['.', '…']);
    if rest.is_empty() || rest.chars().all(|c| matches!(c, '!' | '?')) {
        b.mark_last(mark_suffix(rest));
        return;
    }
    if rest.starts_with('/') {
        b.fail(
            line,
            PdnErrorKind::Syntax("a set-up command inside the moves is not supported".into()),
        );
        return;
    }
    if rest == "-" || rest == "--" {
        b.fail(
            line,
            PdnErrorKind::Syntax("an unknown move (\"-\") cannot be replayed".into()),
        );
        return;
    }
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        // Comment text that lost its braces: no move starts with a letter.
        b.warn(line, format!("skipped {rest:?}: words outside a comment"));
        return;
    }
    let end = move_prefix_len(rest);
    let glued = Some(end).filter(|&i| rest[i..].starts_with(char::is_alphabetic));
    match glued {
        Some(i) => {
            let (mv, text) = rest.split_at(i);
            b.warn(
                line,
                format!("read {mv:?} as a move and skipped {text:?}: text glued to a move"),
            );
            b.play(line, mv);
        }
        None => b.play(line, rest),
    }
}
