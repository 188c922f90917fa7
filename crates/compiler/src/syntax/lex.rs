//! A trivia scanner for both syntaxes: where the comments, strings and brackets are.
//!
//! Why a scanner of our own beside ron and pest: three questions must be answered without (or
//! before) a real parse. (1) How deep do the brackets nest? ron and pest both recurse, so the
//! depth limit is checked on this flat scan before either sees the text. (2) Where are the
//! comments? Both parsers throw them away, but comments directly above an item become its
//! `doc`, and `dgcc fmt` prints every other one back. (3) Where does a RON value really
//! start and end? ron's `RawValue` slices keep the comments and whitespace around a value, so
//! spans are trimmed with this scanner.
//!
//! The scanner never fails: malformed text just ends a piece where the parser would stop
//! reading it (an unclosed RON string at the end of the input; an unclosed `.dgc` string is no
//! string at all, its `"` one character, as the grammar skips it), and the real parser reports
//! the error.

use super::SyntaxKind;
use dgcc_core::span::Span;

/// One lexical piece of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    Whitespace,
    LineComment,
    BlockComment,
    /// A string or character literal, quotes included.
    Literal,
    Open,
    Close,
    /// Any other character.
    Other,
}

impl Piece {
    pub fn is_trivia(self) -> bool {
        matches!(self, Piece::Whitespace | Piece::LineComment | Piece::BlockComment)
    }
}

/// Splits a text into pieces; iterating yields `(piece, span)` with byte spans into `text`.
pub struct Scanner<'t> {
    text: &'t str,
    pos: usize,
    kind: SyntaxKind,
    /// In `.dgc`, where the scan of the last unclosed string stopped (its line break, or the
    /// end of the text): every `"` before it, after that string's opening quote, was read as
    /// escaped there, so a string it opens would be scanned the same way from its next
    /// character on and fail at the same place. Remembering it keeps a line of many unclosed
    /// quotes linear.
    unclosed_until: usize,
}

impl<'t> Scanner<'t> {
    pub fn new(text: &'t str, kind: SyntaxKind) -> Self {
        Scanner { text, pos: 0, kind, unclosed_until: 0 }
    }

    fn rest(&self) -> &'t str {
        &self.text[self.pos..]
    }

    fn is_whitespace(&self, c: char) -> bool {
        match self.kind {
            SyntaxKind::Ron => is_ron_whitespace(c),
            // The grammar's WHITESPACE.
            SyntaxKind::Dsl => matches!(c, ' ' | '\t' | '\r' | '\n'),
        }
    }

    /// The length of a RON raw string (`r"…"`, `r#"…"#`) starting here, if one does.
    fn raw_string_len(&self) -> Option<usize> {
        let rest = self.rest();
        let after_r = rest.strip_prefix('r')?;
        // `r` must start a word (or follow a lone `b`, for `br"…"`).
        let before = &self.text[..self.pos];
        let word_start = match before.chars().next_back() {
            None => true,
            Some('b') => !before[..before.len() - 1].chars().next_back().is_some_and(is_word_char),
            Some(c) => !is_word_char(c),
        };
        if !word_start {
            return None;
        }
        let hashes = after_r.len() - after_r.trim_start_matches('#').len();
        let body = after_r[hashes..].strip_prefix('"')?;
        let closing: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
        let body_len = body.find(&closing).map_or(body.len(), |i| i + closing.len());
        Some(1 + hashes + 1 + body_len)
    }

    /// The length of a quoted literal starting here (`"…"`, or a RON `'c'`). In `.dgc` a string
    /// ends on its line, and an escape never takes the line break: one that does not close
    /// there is no string to the grammar either (its `"` is skipped as one character), so it is
    /// none here, `None`, and the brackets after it count towards the nesting limit as the
    /// parser will meet them.
    fn quoted_len(&mut self, quote: char) -> Option<usize> {
        let dsl = self.kind == SyntaxKind::Dsl;
        if dsl && self.pos < self.unclosed_until {
            return None;
        }
        let rest = self.rest();
        let mut chars = rest.char_indices().skip(1);
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((j, '\n')) = chars.next() {
                        if dsl {
                            self.unclosed_until = self.pos + j;
                            return None;
                        }
                    }
                }
                '\n' if dsl => {
                    self.unclosed_until = self.pos + i;
                    return None;
                }
                c if c == quote => return Some(i + 1),
                _ => {}
            }
        }
        if dsl {
            self.unclosed_until = self.text.len();
            None
        } else {
            Some(rest.len())
        }
    }

    fn char_literal_len(&self) -> Option<usize> {
        // `'x'` or `'\x'`-style escapes; anything else is just a character.
        let rest = self.rest();
        let mut it = rest.char_indices().skip(1);
        let (_, c) = it.next()?;
        if c == '\\' {
            it.next()?;
        }
        it.find(|&(_, c)| c == '\'' || c == '\n').filter(|&(_, c)| c == '\'').map(|(i, _)| i + 1)
    }

    /// A RON raw string or character literal starting at `c`, if one does.
    fn ron_literal_len(&self, c: char) -> Option<usize> {
        match (self.kind, c) {
            (SyntaxKind::Ron, 'r') => self.raw_string_len(),
            (SyntaxKind::Ron, '\'') => self.char_literal_len(),
            _ => None,
        }
    }

    /// The length of the block comment starting here (nested ones included), or the rest of
    /// the text when it is never closed.
    fn block_comment_len(&self) -> usize {
        let rest = self.rest();
        block_comment_end(rest).unwrap_or(rest.len())
    }
}

/// ron's `is_whitespace_char`.
pub fn is_ron_whitespace(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | '\r' | '\x0B' | '\x0C' | '\u{85}' | '\u{200E}' | '\u{200F}' | '\u{2028}' | '\u{2029}'
    )
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Iterator for Scanner<'_> {
    type Item = (Piece, Span);

    fn next(&mut self) -> Option<(Piece, Span)> {
        let rest = self.rest();
        let c = rest.chars().next()?;
        let (piece, len) = if self.pos == 0 && c == super::limits::BOM {
            // A byte order mark at the start is read as whitespace by both front ends.
            (Piece::Whitespace, c.len_utf8())
        } else if self.is_whitespace(c) {
            let len = rest.find(|c| !self.is_whitespace(c)).unwrap_or(rest.len());
            (Piece::Whitespace, len)
        } else if rest.starts_with("//") {
            (Piece::LineComment, rest.find('\n').unwrap_or(rest.len()))
        } else if rest.starts_with("/*") && self.kind == SyntaxKind::Ron {
            (Piece::BlockComment, self.block_comment_len())
        } else if c == '"' {
            match self.quoted_len('"') {
                Some(len) => (Piece::Literal, len),
                None => (Piece::Other, 1),
            }
        } else if let Some(len) = self.ron_literal_len(c) {
            (Piece::Literal, len)
        } else if matches!(c, '(' | '[' | '{') {
            (Piece::Open, 1)
        } else if matches!(c, ')' | ']' | '}') {
            (Piece::Close, 1)
        } else {
            (Piece::Other, c.len_utf8())
        };
        let span = Span::new(self.pos, self.pos + len);
        self.pos += len;
        Some((piece, span))
    }
}

/// A comment of the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
    /// A `//` comment (only those can be doc lines).
    pub line: bool,
    /// Nothing but whitespace precedes it on its line.
    pub own_line: bool,
}

/// What the scan of a whole source found.
#[derive(Debug, Default)]
pub struct Scan {
    pub comments: Vec<Comment>,
    /// The first bracket that opens one level more than the limit.
    pub too_deep: Option<Span>,
    /// A RON block comment that runs to the end of the text unclosed: ron reads the value
    /// before it and ignores it, which would drop the rest of the file without a word.
    pub unclosed_comment: Option<Span>,
}

/// Where the block comment at the start of `text` ends (after its `*/`, nested comments
/// included), or `None` when it is never closed.
fn block_comment_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut i, mut level) = (2, 1usize);
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            level += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            level -= 1;
            i += 2;
            if level == 0 {
                return Some(i);
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Scans a whole source: its comments, and the first bracket nested deeper than `max_depth`
/// (the scan stops there: a nesting bomb is rejected in one pass over its prefix).
pub fn scan(source: &str, kind: SyntaxKind, max_depth: usize) -> Scan {
    let mut out = Scan::default();
    let mut depth = 0usize;
    let mut line_has_code = false;
    for (piece, span) in Scanner::new(source, kind) {
        match piece {
            Piece::LineComment | Piece::BlockComment => {
                if piece == Piece::BlockComment && block_comment_end(&source[span.range()]).is_none() {
                    out.unclosed_comment = Some(span);
                }
                out.comments.push(Comment { span, line: piece == Piece::LineComment, own_line: !line_has_code });
                if piece == Piece::BlockComment {
                    line_has_code = true;
                }
            }
            Piece::Whitespace => {}
            Piece::Open => {
                depth += 1;
                if depth > max_depth {
                    out.too_deep = Some(span);
                    return out;
                }
                line_has_code = true;
            }
            Piece::Close => {
                depth = depth.saturating_sub(1);
                line_has_code = true;
            }
            Piece::Literal | Piece::Other => line_has_code = true,
        }
        if source[span.range()].contains('\n') && !matches!(piece, Piece::LineComment) {
            // A piece that spans a line break (whitespace, a multi-line string or block
            // comment) ends the current line; what follows it starts a fresh one unless the
            // piece itself is code that continues on the new line.
            line_has_code = !matches!(piece, Piece::Whitespace);
        }
    }
    out
}

/// The offset of the first opening bracket of `text` (not in a string or comment).
pub fn first_open(text: &str, kind: SyntaxKind) -> Option<usize> {
    Scanner::new(text, kind).find(|(piece, _)| *piece == Piece::Open).map(|(_, span)| span.start)
}

/// The span of `text` without the trivia (whitespace and comments) around it, relative to
/// `text`. All trivia gives an empty span at its end.
pub fn trim_trivia(text: &str, kind: SyntaxKind) -> Span {
    let mut start = None;
    let mut end = 0;
    for (piece, span) in Scanner::new(text, kind) {
        if !piece.is_trivia() {
            start.get_or_insert(span.start);
            end = span.end;
        }
    }
    match start {
        Some(start) => Span::new(start, end),
        None => Span::new(text.len(), text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_inside_strings_are_not_comments() {
        let s = scan("( \"// no\", r#\"/* no\"#, 'x' ) // yes\n/* a /* nested */ one */", SyntaxKind::Ron, 64);
        assert_eq!(s.comments.len(), 2);
        assert!(!s.comments[0].own_line && s.comments[0].line);
        assert!(s.comments[1].own_line && !s.comments[1].line);
    }

    #[test]
    fn depth_stops_at_the_first_excess_bracket() {
        let s = scan("[[[ \"[[[[\" ]]]", SyntaxKind::Ron, 3);
        assert_eq!(s.too_deep, None);
        let s = scan("[[[[", SyntaxKind::Ron, 3);
        assert_eq!(s.too_deep, Some(Span::new(3, 4)));
    }

    #[test]
    fn trimming_skips_comments_on_both_sides() {
        let text = "// doc\n  Draw(name: \"x\") // trailing\n";
        let span = trim_trivia(text, SyntaxKind::Ron);
        assert_eq!(&text[span.range()], "Draw(name: \"x\")");
    }

    #[test]
    fn an_unclosed_dsl_string_hides_no_bracket_from_the_depth_limit() {
        // The grammar skips an unclosed `"` as one character and meets the brackets after it
        // (pest then ran out of stack on 200,000 of them): they count here too.
        assert_eq!(scan("bogus \"{{{{\n", SyntaxKind::Dsl, 3).too_deep, Some(Span::new(10, 11)));
        assert_eq!(scan("bogus \"a\\\n{{{{\"", SyntaxKind::Dsl, 3).too_deep, Some(Span::new(13, 14)));
        assert_eq!(scan("s \"{{{{\" {", SyntaxKind::Dsl, 3).too_deep, None);
    }

    #[test]
    fn dsl_strings_end_at_a_line_break() {
        let s = scan("\"open\n// comment", SyntaxKind::Dsl, 64);
        assert_eq!(s.comments.len(), 1);
        assert!(s.comments[0].own_line);
    }
    #[test]
    fn a_line_of_unclosed_escaped_quotes_is_scanned_once() {
        // Each `"` of the line would open a string that never closes (the `\"` after it are
        // escapes): every one is a character of its own, as for the grammar.
        let n = 200_000;
        let text = format!("pipeline p {{\n kernel k \"{}\n}}\n", "\\\"".repeat(n));
        let quotes = Scanner::new(&text, SyntaxKind::Dsl)
            .filter(|&(p, s)| p == Piece::Other && &text[s.range()] == "\"")
            .count();
        assert_eq!(quotes, n + 1);
        let s = scan(&text, SyntaxKind::Dsl, 64);
        assert!(s.comments.is_empty() && s.too_deep.is_none());
        // What follows an unclosed quote on its line is scanned as code: a comment there is one.
        let s = scan("k \"\\\" // c\n\"x\"", SyntaxKind::Dsl, 64);
        assert_eq!(s.comments.len(), 1);
        assert_eq!(s.comments[0].span, Span::new(6, 10));
    }
}
