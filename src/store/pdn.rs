//! PDN 3.0 (Portable Draughts Notation) for the games crossboard plays: writing games, and
//! reading the files other programs write.
//!
//! Writing follows the PDN 3.0 recommendations: the seven-tag roster first (`Event`, `Site`,
//! `Date`, `Round`, `Black`, `White`, `Result`), then `GameType` (21 English draughts, 23
//! American pool checkers), the `Variant` tag for the two English games PDN has no number for
//! (`[Variant "huffing"]`, `[Variant "losing"]`, with `GameType "21"`), `SetUp "1"` and `FEN`
//! when the game does not start from the standard position, then any other tags in the order
//! they were given. Moves carry their full capture path; clock readings follow a move as a
//! `{[%clock h:mm:ss]}` comment (the remaining time of the player who made it); a huffing
//! choice comes before the move of the player who made it, as `{[%huff 22]}` (the piece on 22
//! was huffed) and `{[%retracted 9-13]}` (the player's move 9-13 was taken back by the
//! opponent, who compelled the capture that follows); lines stay under 80 columns.
//!
//! Reading is lenient, as other programs write PDN in many dialects: tags in any order, `*` or a
//! result as the terminator, move numbers as `1.`, `1...` or `1. ...`, moves as `11-15`,
//! `15x24x31`, short captures `15x31`, captures written with `-`, `1115`; comments `{}`,
//! `;` line comments, `%` escape lines, variations `()`, NAGs `$1`, move strength `!?` are
//! skipped; FEN with or without a trailing dot; `[Red]` for `[Black]`. Bytes that are not
//! UTF-8 are read as Windows-1252 ([`decode`]). Comment text that lost its braces (a move glued
//! to it, `8-11Redoversteppedthetimecontrol`, or words that are no moves) is skipped with a
//! warning ([`PdnGame::warnings`]). A game that does not replay, or of a `GameType` crossboard
//! does not play, is reported with its number, line and move, and reading goes on with the next
//! game.

use crate::engine::{
    Color, FenError, Game, Move, MoveError, Outcome, Position, Prelude, Rules, Square, parse_move,
};
use std::borrow::Cow;
use std::fmt::{self, Write as _};
use thiserror::Error;

/// Longest line written in the move text.
const LINE_WIDTH: usize = 79;

/// Tags that [`PdnGame`] represents by its own fields; a reader drops them from `tags` and a
/// writer derives them.
const DERIVED_TAGS: [&str; 5] = ["Result", "GameType", "Variant", "SetUp", "FEN"];

/// The tag that tells the English games apart under `GameType "21"`: `huffing` or `losing`
/// (absent, or `english`: English draughts). Written by crossboard, read back exactly.
pub(super) const VARIANT_TAG: &str = "Variant";

/// The seven-tag roster (without Result, which is derived), written first, in this order.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "Black", "White"];

/// The result of a game as PDN writes it. `1-0` means Red (PDN's "Black", who moves first) won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PdnResult {
    /// `1-0`: Red ("Black") won.
    RedWins,
    /// `0-1`: White won.
    WhiteWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    #[default]
    Unfinished,
}

impl PdnResult {
    /// The PDN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            PdnResult::RedWins => "1-0",
            PdnResult::WhiteWins => "0-1",
            PdnResult::Draw => "1/2-1/2",
            PdnResult::Unfinished => "*",
        }
    }

    /// Read a result as programs write it (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`, and the
    /// international `2-0`, `0-2`, `1-1`). `None` for anything else.
    pub fn parse(text: &str) -> Option<PdnResult> {
        match text.trim() {
            "1-0" | "2-0" => Some(PdnResult::RedWins),
            "0-1" | "0-2" => Some(PdnResult::WhiteWins),
            "1/2-1/2" | "½-½" | "1-1" => Some(PdnResult::Draw),
            "*" => Some(PdnResult::Unfinished),
            _ => None,
        }
    }

    /// The outcome, if the game is finished.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            PdnResult::RedWins => Some(Outcome::Win(Color::Red)),
            PdnResult::WhiteWins => Some(Outcome::Win(Color::White)),
            PdnResult::Draw => Some(Outcome::Draw),
            PdnResult::Unfinished => None,
        }
    }
}

impl From<Option<Outcome>> for PdnResult {
    fn from(o: Option<Outcome>) -> PdnResult {
        match o {
            Some(Outcome::Win(Color::Red)) => PdnResult::RedWins,
            Some(Outcome::Win(Color::White)) => PdnResult::WhiteWins,
            Some(Outcome::Draw) => PdnResult::Draw,
            None => PdnResult::Unfinished,
        }
    }
}

impl fmt::Display for PdnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game as PDN holds it.
///
/// `tags` keeps every tag except the five this struct represents itself (`Result`, `GameType`,
/// `Variant`, `SetUp`, `FEN`), in file order. The rules are the start position's
/// ([`PdnGame::rules`]). `clocks[i]` is the time left, in milliseconds, on the clock of the
/// player who made `moves[i]`, just after making it, and `preludes[i]` what that player did
/// before it (huffing); both have as many entries as `moves`, and `preludes` one more when
/// the side to move has made a huffing choice after the last move. Games read by
/// [`read_pdn`] have been replayed, so their moves are legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in order, as (name, value).
    pub tags: Vec<(String, String)>,
    /// The position the moves start from (the ballot position, or the standard start), under
    /// the game's rules.
    pub start: Position,
    /// The moves, each with its full path.
    pub moves: Vec<Move>,
    /// Remaining milliseconds of the mover after each move, where known.
    pub clocks: Vec<Option<u64>>,
    /// Comments written into the move text, each after that many plies (0: before the first
    /// move), in order: the director's notes at the move they were made. Not read back.
    pub comments: Vec<(usize, String)>,
    /// Huffing: what the mover did before each move (huffed a piece, had a move taken back),
    /// and after the last move what the side to move has done so far.
    pub preludes: Vec<Prelude>,
    /// What the reader skipped to read the game (comment text without braces), with its line;
    /// never written.
    pub warnings: Vec<String>,
    /// The result.
    pub result: PdnResult,
}

impl Default for PdnGame {
    fn default() -> Self {
        PdnGame::new(Position::start())
    }
}

impl PdnGame {
    /// A game with no tags and no moves from `start`, under the start's rules.
    pub fn new(start: Position) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            clocks: Vec::new(),
            comments: Vec::new(),
            preludes: Vec::new(),
            warnings: Vec::new(),
            result: PdnResult::Unfinished,
        }
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> Rules {
        self.start.rules()
    }

    /// The moves of an engine game, its result as the board decides it (or unfinished), no tags
    /// and no clock readings.
    pub fn from_game(game: &Game) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start: *game.start(),
            moves: game.moves().to_vec(),
            clocks: vec![None; game.moves().len()],
            comments: Vec::new(),
            preludes: preludes_of(game),
            warnings: Vec::new(),
            result: game.result().into(),
        }
    }

    /// The value of a tag, if present (first occurrence).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Set a tag, replacing its value in place or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Builder form of [`PdnGame::set_tag`].
    pub fn with_tag(mut self, name: &str, value: impl Into<String>) -> PdnGame {
        self.set_tag(name, value);
        self
    }

    /// Append a move with its clock reading (milliseconds left to the mover), if any.
    pub fn push_move(&mut self, mv: Move, clock_ms: Option<u64>) {
        self.push_move_after(Prelude::default(), mv, clock_ms);
    }

    /// Append a move with what its player did before it (huffing) and its clock reading.
    pub fn push_move_after(&mut self, prelude: Prelude, mv: Move, clock_ms: Option<u64>) {
        self.moves.push(mv);
        self.clocks.push(clock_ms);
        self.preludes.push(prelude);
    }

    /// Replay the moves (and huffing choices) from the start position under the game's rules.
    /// The error names the move that failed.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut game = Game::new(self.rules(), self.start);
        for (ply, mv) in self.moves.iter().enumerate() {
            let fail = |error| ReplayError {
                label: move_label(self.start.turn(), ply),
                text: mv.to_string(),
                error,
            };
            if let Some(p) = self.preludes.get(ply) {
                game.replay_prelude(p).map_err(|why| {
                    fail(MoveError::Illegal {
                        text: mv.to_string(),
                        reason: why,
                    })
                })?;
            }
            game.play(mv).map_err(fail)?;
        }
        if let Some(p) = self.preludes.get(self.moves.len()) {
            game.replay_prelude(p).map_err(|reason| ReplayError {
                label: move_label(self.start.turn(), self.moves.len()),
                text: String::new(),
                error: MoveError::Illegal {
                    text: String::new(),
                    reason,
                },
            })?;
        }
        Ok(game)
    }

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
            let token = match turn {
                Color::Red => format!("{number}. {mv}"),
                Color::White if after_comment => format!("{number}... {mv}"),
                Color::White => mv.to_string(),
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

/// What each player did before each move of `game` (huffing), and the choice made after the
/// last move if any.
fn preludes_of(game: &Game) -> Vec<Prelude> {
    let mut out: Vec<Prelude> = (0..game.moves().len()).map(|i| game.prelude(i)).collect();
    if game.pending() != Prelude::default() {
        out.push(game.pending());
    }
    out
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

/// The label of a move for messages and move text: `12.` for Red's move, `12...` for White's.
pub fn move_label(start_turn: Color, ply: usize) -> String {
    // Count full moves: Red's move opens a number, White's closes it.
    let offset = usize::from(start_turn == Color::White);
    let n = (ply + offset) / 2 + 1;
    if (ply + offset) % 2 == 0 {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

/// Clock reading as `h:mm:ss`, whole seconds (rounded down, as a clock shows it).
pub(super) fn format_clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Read a clock time: `h:mm:ss`, `m:ss` or `ss`, each with optional decimals; milliseconds.
pub(super) fn parse_clock(text: &str) -> Option<u64> {
    let mut ms: u64 = 0;
    let parts: Vec<&str> = text.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let (whole, frac) = match part.split_once('.') {
            Some((w, f)) if last => (w, f),
            Some(_) => return None,
            None => (*part, ""),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: u64 = whole.parse().ok()?;
        ms = ms.checked_mul(60)?.checked_add(v.checked_mul(1000)?)?;
        if last && !frac.is_empty() {
            let digits = &frac[..frac.len().min(3)];
            let scale = 10u64.pow(3 - digits.len() as u32);
            ms += digits.parse::<u64>().ok()? * scale;
        }
    }
    Some(ms)
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

// ---------------------------------------------------------------------------------------------
// Errors

/// A move of a game that does not replay.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("move {label} {text}: {error}")]
pub struct ReplayError {
    /// `12.` or `12...`.
    pub label: String,
    /// The move as written.
    pub text: String,
    /// Why it was refused.
    pub error: MoveError,
}

/// Why one game of a PDN file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PdnErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    #[error("bad tag {0}")]
    Tag(String),
    /// The FEN tag does not describe a position.
    #[error("bad FEN {fen:?}: {error}")]
    Fen {
        /// The tag value.
        fen: String,
        /// What is wrong.
        error: FenError,
    },
    /// The game is of a draughts game crossboard does not play.
    #[error(
        "GameType {0:?} is not a game crossboard plays: it reads 21 (English draughts, with \
         [Variant \"huffing\"] or [Variant \"losing\"] for those games) and 23 (American pool \
         checkers)"
    )]
    GameType(String),
    /// A `Variant` tag crossboard does not know, or one that does not fit the `GameType`.
    #[error(
        "[Variant {value:?}] with GameType {game_type}: crossboard knows english, huffing and \
         losing under GameType 21, and none under 23"
    )]
    Variant {
        /// The tag's value.
        value: String,
        /// The game type it came with.
        game_type: u32,
    },
    /// A huffing choice (`{[%huff 22]}`, `{[%retracted 9-13]}`) that does not replay.
    #[error("{0}")]
    Huff(String),
    /// A move that does not replay.
    #[error("{0}")]
    Move(ReplayError),
    /// Something else in the move text.
    #[error("{0}")]
    Syntax(String),
}

/// One game of a PDN file that could not be read, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct PdnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line (from 1) where the problem is.
    pub line: usize,
    /// "Black vs White" from the tags, when known.
    pub players: Option<String>,
    /// What is wrong.
    pub kind: Box<PdnErrorKind>,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(p) = &self.players {
            write!(f, " ({p})")?;
        }
        write!(f, ", line {}: {}", self.line, self.kind)
    }
}

// ---------------------------------------------------------------------------------------------
// Reading

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Tag(String, String),
    BadTag(String),
    Comment(String),
    Open,
    Close,
    Word(String),
}

/// Splits PDN text into tokens, with the line each starts on.
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    at_line_start: bool,
}

impl Lexer<'_> {
    fn new(text: &str) -> Lexer<'_> {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            at_line_start: true,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.at_line_start = c == '\n' || (c == '\u{feff}' && self.at_line_start);
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    fn next_token(&mut self) -> Option<(usize, Tok)> {
        loop {
            let c = *self.chars.peek()?;
            if c == '%' && self.at_line_start {
                self.skip_line();
                continue;
            }
            if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
                continue;
            }
            let line = self.line;
            let tok = match c {
                ';' => {
                    self.skip_line();
                    continue;
                }
                '[' => self.tag(),
                '{' => {
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.bump() {
                        if c == '}' {
                            break;
                        }
                        text.push(c);
                    }
                    Tok::Comment(text)
                }
                '(' => {
                    self.bump();
                    Tok::Open
                }
                ')' => {
                    self.bump();
                    Tok::Close
                }
                '}' | ']' => {
                    self.bump();
                    continue;
                }
                _ => {
                    let mut word = String::new();
                    while let Some(&c) = self.chars.peek() {
                        if c.is_whitespace() || "{}()[];".contains(c) {
                            break;
                        }
                        word.push(c);
                        self.bump();
                    }
                    Tok::Word(word)
                }
            };
            return Some((line, tok));
        }
    }

    /// `[Name "value"]`; lenient about a missing closing quote or an unquoted value.
    fn tag(&mut self) -> Tok {
        self.bump(); // '['
        let mut raw = String::new();
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_alphanumeric() || c == '_' {
                name.push(c);
                raw.push(c);
                self.bump();
            } else {
                break;
            }
        }
        while matches!(self.chars.peek(), Some(c) if *c == ' ' || *c == '\t') {
            self.bump();
        }
        let mut value = String::new();
        let mut closed = false;
        if self.chars.peek() == Some(&'"') {
            self.bump();
            while let Some(&c) = self.chars.peek() {
                if c == '\n' {
                    break;
                }
                self.bump();
                match c {
                    '\\' if matches!(self.chars.peek(), Some('"' | '\\')) => {
                        value.extend(self.bump());
                    }
                    '"' => {
                        closed = true;
                        break;
                    }
                    c => value.push(c),
                }
            }
            raw = format!("[{name} \"{value}");
            if closed {
                // Skip to the closing bracket on this line.
                while let Some(&c) = self.chars.peek() {
                    if c == '\n' {
                        closed = false;
                        break;
                    }
                    self.bump();
                    if c == ']' {
                        break;
                    }
                    if !c.is_whitespace() {
                        closed = false;
                    }
                }
            }
        } else {
            // Unquoted value: up to the closing bracket.
            while let Some(&c) = self.chars.peek() {
                if c == '\n' {
                    break;
                }
                self.bump();
                if c == ']' {
                    closed = true;
                    break;
                }
                value.push(c);
            }
            value = value.trim().to_string();
            raw = format!("[{name} {value}");
        }
        if name.is_empty() || !closed {
            return Tok::BadTag(raw);
        }
        Tok::Tag(name, value)
    }
}

/// The game being read.
struct Builder {
    number: usize,
    tags: Vec<(String, String)>,
    has_movetext: bool,
    game: Option<Game>,
    clocks: Vec<Option<u64>>,
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
        if !self.clock_open || self.error.is_some() {
            return;
        }
        let Some(game) = &self.game else { return };
        let mover = game.positions()[game.moves().len() - 1].turn();
        if let Some(ms) = clock_in_comment(text, mover)
            && let Some(slot) = self.clocks.last_mut()
        {
            *slot = Some(ms);
            self.clock_open = false;
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
        Ok(PdnGame {
            tags: self
                .tags
                .into_iter()
                .filter(|(n, v)| !DERIVED_TAGS.contains(&n.as_str()) && !unknown_roster(n, v))
                .collect(),
            start: *game.start(),
            moves: game.moves().to_vec(),
            clocks: self.clocks,
            comments: Vec::new(),
            preludes,
            warnings: self.warnings,
            result,
        })
    }
}

/// A roster tag holding the "unknown" value a writer puts in (`?`, `????.??.??`, empty).
fn unknown_roster(name: &str, value: &str) -> bool {
    ROSTER.contains(&name) && matches!(value.trim(), "" | "?" | "????.??.??")
}

/// The rules a game's `GameType` and `Variant` tags name (no `GameType`: English draughts).
fn rules_of(tags: &[(String, String)]) -> Result<Rules, PdnErrorKind> {
    let find = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    let game_type = match find("GameType") {
        None => 21,
        Some(gt) => match gt.split(',').next().unwrap_or("").trim() {
            "" => 21,
            kind => match kind.parse::<u32>() {
                Ok(n @ (21 | 23)) => n,
                _ => return Err(PdnErrorKind::GameType(gt.clone())),
            },
        },
    };
    let variant = find(VARIANT_TAG)
        .map(|v| v.trim())
        .filter(|v| !v.is_empty());
    let refused = |value: &str| PdnErrorKind::Variant {
        value: value.to_string(),
        game_type,
    };
    match (game_type, variant) {
        (23, None) => Ok(Rules::Pool),
        (23, Some(v)) => Err(refused(v)),
        (_, None) => Ok(Rules::English),
        (_, Some(v)) => match v.parse::<Rules>() {
            Ok(r) if r != Rules::Pool => Ok(r),
            _ => Err(refused(v)),
        },
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

/// The start position a game's tags describe, under the rules they name.
fn start_position(tags: &[(String, String)]) -> Result<Position, PdnErrorKind> {
    let rules = rules_of(tags)?;
    let find = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    match find("FEN") {
        Some(fen) if !fen.trim().is_empty() => {
            Position::from_fen_in(rules, fen).map_err(|error| PdnErrorKind::Fen {
                fen: fen.clone(),
                error,
            })
        }
        _ => Ok(Position::start_in(rules)),
    }
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
fn clock_in_comment(text: &str, mover: Color) -> Option<u64> {
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
                b.tags.push((name, value));
            }
            Tok::BadTag(raw) => {
                if b.has_movetext {
                    let next = Builder::new(b.number + 1);
                    out.push(std::mem::replace(&mut b, next).finish(line));
                    depth = 0;
                }
                b.fail(line, PdnErrorKind::Tag(raw));
            }
            Tok::Comment(text) if depth == 0 => b.comment(line, &text),
            Tok::Comment(_) => {}
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
        return; // NAG
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Vec<PdnGame> {
        read_pdn(text)
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    #[test]
    fn clock_text() {
        assert_eq!(format_clock(3_600_000), "1:00:00");
        assert_eq!(format_clock(59_999), "0:00:59");
        assert_eq!(format_clock(3_723_000), "1:02:03");
        assert_eq!(parse_clock("1:02:03"), Some(3_723_000));
        assert_eq!(parse_clock("2:03.5"), Some(123_500));
        assert_eq!(parse_clock("0:00:10.25"), Some(10_250));
        assert_eq!(parse_clock("1:xx:03"), None);
        assert_eq!(parse_clock(""), None);
        assert_eq!(
            clock_in_comment("[%clock w0:00:10 B0:00:03]", Color::Red),
            Some(3000)
        );
        assert_eq!(
            clock_in_comment("note [%clk 0:49:11] more", Color::White),
            Some(2_951_000)
        );
        assert_eq!(clock_in_comment("no clock here", Color::White), None);
    }

    #[test]
    fn labels() {
        assert_eq!(move_label(Color::Red, 0), "1.");
        assert_eq!(move_label(Color::Red, 1), "1...");
        assert_eq!(move_label(Color::Red, 2), "2.");
        assert_eq!(move_label(Color::White, 0), "1...");
        assert_eq!(move_label(Color::White, 1), "2.");
    }

    #[test]
    fn writes_roster_derived_tags_and_wrapped_moves() {
        let mut g = Game::new(
            Rules::English,
            Position::from_fen("B:W19,21-27,29-32:B1-10,12").unwrap(),
        );
        for m in ["10-14", "22-17", "9-13", "17x10", "7x14"] {
            g.play_text(m).unwrap();
        }
        let mut p = PdnGame::from_game(&g)
            .with_tag("Event", "Club \"open\"")
            .with_tag("Black", "Ann")
            .with_tag("White", "Bob")
            .with_tag("Ballot", "x");
        p.clocks = vec![Some(3_590_000), None, Some(3_500_999), None, None];
        p.result = PdnResult::Draw;
        let text = p.to_pdn();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], r#"[Event "Club \"open\""]"#);
        assert_eq!(lines[1], r#"[Site "?"]"#);
        assert_eq!(lines[2], r#"[Date "????.??.??"]"#);
        assert_eq!(lines[6], r#"[Result "1/2-1/2"]"#);
        assert_eq!(lines[7], r#"[GameType "21"]"#);
        assert_eq!(lines[8], r#"[SetUp "1"]"#);
        assert!(lines[9].starts_with("[FEN \"B:W19,21"), "{text}");
        assert_eq!(lines[10], r#"[Ballot "x"]"#);
        let flat = text.replace('\n', " ");
        assert!(
            flat.contains(
                "1. 10-14 {[%clock 0:59:50]} 1... 22-17 2. 9-13 {[%clock 0:58:20]} 2... 17x10 3. 7x14 1/2-1/2"
            ),
            "{text}"
        );
        let back = ok(&text);
        assert_eq!(
            back,
            vec![PdnGame {
                clocks: vec![Some(3_590_000), None, Some(3_500_000), None, None],
                ..p
            }]
        );
    }

    #[test]
    fn long_games_wrap_under_80_columns() {
        let mut g = Game::standard();
        let mut n = 0;
        while g.result().is_none() && n < 60 {
            let mv = g.position().legal_moves()[n % 3 % g.position().legal_moves().len()];
            g.play(&mv).unwrap();
            n += 1;
        }
        let mut p = PdnGame::from_game(&g);
        p.clocks = (0..p.moves.len())
            .map(|i| Some(i as u64 * 61_000))
            .collect();
        let text = p.to_pdn();
        assert!(text.lines().all(|l| l.len() < 80), "{text}");
        assert!(text.lines().count() > 12);
        assert_eq!(ok(&text)[0], p);
    }

    #[test]
    fn lenient_reading() {
        let text = "\u{feff}% a comment line\n[White \"W\"]\n[Black \"B\"]\n[FEN \"W:W21-32:B1-12.\"]\n\n1... 22-18! {good} 2.9-14 $1 (2. 10-14 {other} 18x9) 18x9 ; line comment\n2... 5x14 3. ... 25-22 *\n";
        let g = &ok(text)[0];
        assert_eq!(g.moves.len(), 5, "{g:?}");
        assert_eq!(g.start.turn(), Color::White);
        assert_eq!(g.tag("White"), Some("W"));
        assert_eq!(g.tags.len(), 2, "FEN is not kept as a tag");
        assert_eq!(g.result, PdnResult::Unfinished);
    }

    #[test]
    fn bad_game_does_not_lose_the_others() {
        let text = "[Black \"A\"]\n[White \"B\"]\n1. 11-15 23-19 1-0\n\n[Black \"C\"]\n[White \"D\"]\n1. 11-15 23-19\n2. 9-14 19x10 0-1\n\n1. 9-13 22-18 2. 1115 *\n[Event \"no moves\"]\n";
        let games = read_pdn(text);
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].as_ref().unwrap().result, PdnResult::RedWins);
        let e = games[1].as_ref().unwrap_err();
        assert_eq!((e.game, e.line), (2, 8));
        let msg = e.to_string();
        assert!(
            msg.starts_with("game 2 (C vs D), line 8: move 2... 19x10"),
            "{msg}"
        );
        assert!(msg.contains("illegal"), "{msg}");
        let g = games[2].as_ref().unwrap();
        assert_eq!(g.moves.last().unwrap().to_string(), "11-15");
        assert!(games[3].as_ref().unwrap().moves.is_empty());
    }

    #[test]
    fn bad_fen_and_gametype_are_reported() {
        let games = read_pdn(
            "[FEN \"B:W33:B1\"]\n1. 1-5 *\n[GameType \"20\"]\n1. 32-28 *\n[GameType \"21,B,8,8,N2,0\"]\n1. 11-15 *",
        );
        assert!(matches!(
            *games[0].as_ref().unwrap_err().kind,
            PdnErrorKind::Fen { .. }
        ));
        assert!(matches!(
            *games[1].as_ref().unwrap_err().kind,
            PdnErrorKind::GameType(_)
        ));
        assert!(games[2].is_ok());
    }

    #[test]
    fn bad_tag_is_reported() {
        let games = read_pdn("[Event \"unterminated\n1. 11-15 *\n[Event \"ok\"]\n1. 11-15 *\n");
        assert_eq!(games.len(), 2, "{games:?}");
        let e = games[0].as_ref().unwrap_err();
        assert!(matches!(*e.kind, PdnErrorKind::Tag(_)), "{e}");
        assert_eq!(e.line, 1);
        assert!(games[1].is_ok());
    }

    #[test]
    fn quoted_fen_dotted_fen_crlf_and_glued_numbers() {
        let text = "[Event \"CRLF\"]\r\n[FEN \"\\\"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29.\\\"\"]\r\n\r\n1.16-19 10-6 2.25-21 *\r\n";
        let g = &ok(text)[0];
        assert_eq!(g.tag("Event"), Some("CRLF"));
        assert_eq!(
            g.start.to_fen(),
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
        );
        assert_eq!(g.moves.len(), 3);
        // Written back, the FEN is canonical and unquoted.
        assert!(
            g.to_pdn()
                .contains("[FEN \"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"]")
        );
    }

    #[test]
    fn result_tag_and_terminator() {
        let g = &ok("[Result \"0-1\"]\n1. 11-15 *")[0];
        assert_eq!(g.result, PdnResult::WhiteWins);
        let g = &ok("[Result \"*\"]\n1. 11-15 1/2-1/2")[0];
        assert_eq!(g.result, PdnResult::Draw);
        let g = &ok("1. 11-15 2-0")[0];
        assert_eq!(g.result, PdnResult::RedWins);
    }
}
