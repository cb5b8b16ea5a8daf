//! The PDN tokenizer: tag pairs, comments (closed, or left open before a tag line or the end
//! of the file), variation brackets and words, each with the line it starts on.

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Tag(String, String),
    BadTag(String),
    Comment(String, CommentEnd),
    Open,
    Close,
    Word(String),
}

/// How a comment ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CommentEnd {
    /// At its `}`.
    Closed,
    /// Not closed before a tag line (its line): read as closed there.
    BeforeTag(usize),
    /// Not closed before the end of the file.
    EndOfFile,
}

/// The quote marks that open a tag's value: `"`, and the curly quotes old Windows programs
/// write (Windows-1252 0x93 and 0x94, read as these characters).
const OPENING_QUOTES: [char; 3] = ['"', '\u{201c}', '\u{201d}'];

/// True when `line` is a tag line: `[Name "value"]` (any opening quote), alone on its line.
fn is_tag_line(line: &str) -> bool {
    let t = line.trim();
    let Some(body) = t.strip_prefix('[').filter(|_| t.ends_with(']')) else {
        return false;
    };
    let name_len = body
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let rest = &body[name_len..];
    name_len > 0 && rest.starts_with([' ', '\t']) && rest.trim_start().starts_with(OPENING_QUOTES)
}

/// Splits PDN text into tokens, with the line each starts on.
pub(super) struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    at_line_start: bool,
}

impl Lexer<'_> {
    pub(super) fn new(text: &str) -> Lexer<'_> {
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

    pub(super) fn next_token(&mut self) -> Option<(usize, Tok)> {
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
                '{' => self.comment(),
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

    /// `{...}`. One left open (its `}` missing) ends before the next tag line, or at the end of
    /// the file, and says so: it would otherwise swallow every game after it.
    fn comment(&mut self) -> Tok {
        self.bump(); // '{'
        let mut text = String::new();
        while let Some(c) = self.bump() {
            match c {
                '}' => return Tok::Comment(text, CommentEnd::Closed),
                '\n' => {
                    let next: String = self.chars.clone().take_while(|&c| c != '\n').collect();
                    if is_tag_line(&next) {
                        return Tok::Comment(text, CommentEnd::BeforeTag(self.line));
                    }
                    text.push(c);
                }
                c => text.push(c),
            }
        }
        Tok::Comment(text, CommentEnd::EndOfFile)
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
        let open = self
            .chars
            .peek()
            .copied()
            .filter(|c| OPENING_QUOTES.contains(c));
        if let Some(open) = open {
            self.bump();
            // A value opened by a curly quote may be closed by either quote mark.
            let closes = |c: char| c == '"' || (open != '"' && OPENING_QUOTES.contains(&c));
            while let Some(&c) = self.chars.peek() {
                if c == '\n' {
                    break;
                }
                self.bump();
                match c {
                    '\\' if matches!(self.chars.peek(), Some('"' | '\\')) => {
                        value.extend(self.bump());
                    }
                    c if closes(c) => {
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
