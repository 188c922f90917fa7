//! Spanned access to RON values through serde, one level at a time.
//!
//! Why this shape: serde-derived structs would give either a value or one error at line 1
//! (ron's spans of nested errors are right, but the first error ends the run, unknown fields
//! are an all-or-nothing switch, and values carry no spans). Instead every struct is read as
//! a list of `(key, &RawValue)` pairs: ron hands out the key and the raw value as sub-slices
//! of the source, so their byte offsets are pointer differences (jaq's `span(whole, part)`
//! idea), and each raw value is read again with the type it should have. A bad value then
//! costs one diagnostic at its own span and its siblings are still read.
//!
//! The first, whole-document read validates all RON syntax (ron checks every raw value it
//! skips), so syntax errors come from there with ron's positions; the reads of sub-slices can
//! only fail on shape (a number where a list should be), reported here as E0009.

use ron::error::{Error as RonError, SpannedError};
use ron::value::RawValue;
use serde::de::{Deserialize, Deserializer as _};

use super::visitors::{EnumVisitor, FieldsVisitor, Pairs, RawBody, SeqVisitor};
use crate::ast::Spanned;
use crate::syntax::lex;
use crate::syntax::SyntaxKind;
use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;

/// A RON value: its text (comments around it trimmed) and where that text is in the source.
#[derive(Clone, Copy, Debug)]
pub struct Raw<'s> {
    pub text: &'s str,
    pub span: Span,
}

/// One `key: value` of a struct.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'s> {
    pub key: &'s str,
    pub key_span: Span,
    pub value: Raw<'s>,
}

/// A struct (or struct variant) read as its entries.
#[derive(Clone, Debug)]
pub struct Struct<'s> {
    /// The struct's name, or its opening parenthesis: where "missing field" points.
    pub head: Span,
    pub entries: Vec<Entry<'s>>,
}

/// An enum value: the variant name and what follows it.
#[derive(Clone, Debug)]
pub struct Variant<'s> {
    pub name: &'s str,
    pub name_span: Span,
    pub body: Body<'s>,
}

#[derive(Clone, Debug)]
pub enum Body<'s> {
    Unit,
    Struct(Struct<'s>),
    Tuple(Vec<Raw<'s>>),
    /// A variant the caller did not recognise; its body was not read.
    Unknown,
}

/// What the caller expects after a variant name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Unit,
    Struct,
    Tuple,
    Unknown,
}

/// Reads values of one source, collecting diagnostics.
pub struct Reader<'s> {
    pub source: &'s str,
    pub diags: Vec<Diagnostic>,
}

impl<'s> Reader<'s> {
    pub fn new(source: &'s str) -> Self {
        Reader { source, diags: Vec::new() }
    }

    pub fn report(&mut self, diag: Diagnostic) {
        self.diags.push(diag);
    }

    /// The byte offset of a sub-slice of the source.
    fn offset_of(&self, part: &str) -> usize {
        let base = self.source.as_ptr() as usize;
        (part.as_ptr() as usize).saturating_sub(base).min(self.source.len())
    }

    pub fn span_of(&self, part: &str) -> Span {
        let start = self.offset_of(part);
        Span::new(start, (start + part.len()).min(self.source.len()))
    }

    /// A raw value handed out by ron, trimmed of the comments around it.
    pub fn raw(&self, part: &'s str) -> Raw<'s> {
        // ron trims whitespace, so trivia is left only where a comment starts or ends the
        // slice; only then is the slice scanned (values nest, so scanning every one would
        // read a large file once more per level).
        let trivia =
            |c: char| c == '/' || c.is_whitespace() || lex::is_ron_whitespace(c) || c == crate::syntax::limits::BOM;
        let (leading, trailing) = (part.starts_with(trivia), part.ends_with(trivia));
        let text = if leading || trailing { &part[lex::trim_trivia(part, SyntaxKind::Ron).range()] } else { part };
        Raw { text, span: self.span_of(text) }
    }

    /// The whole source as one value (`Pipeline(…)` with comments around it).
    pub fn document(&self) -> Raw<'s> {
        self.raw(self.source)
    }

    /// A byte span in the source for ron's line/column span inside `raw`.
    pub fn ron_span(&self, raw: Raw<'s>, err: &SpannedError) -> Span {
        let start = position(raw.text, err.span.start.line, err.span.start.col);
        let mut end = position(raw.text, err.span.end.line, err.span.end.col).max(start);
        if end == start {
            end = raw.text[start..].chars().next().map_or(start, |c| start + c.len_utf8());
        }
        Span::new(raw.span.start + start, raw.span.start + end)
    }

    /// The head of a struct-like value: its leading name, or its first character.
    pub fn head(&self, raw: Raw<'s>) -> Span {
        let name_len = raw.text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(raw.text.len());
        let len = if name_len > 0 { name_len } else { raw.text.chars().next().map_or(0, char::len_utf8) };
        Span::new(raw.span.start, raw.span.start + len)
    }

    fn wrong_type(&mut self, raw: Raw<'s>, expected: &str) {
        let found = snippet(raw.text);
        self.report(
            Diagnostic::new("E0009", format!("expected {expected}, found `{found}`"))
                .primary(raw.span, format!("expected {expected}")),
        );
    }

    /// Runs a serde read over `raw` that must consume all of it.
    fn read<T>(
        &self,
        raw: Raw<'s>,
        f: impl FnOnce(&mut ron::Deserializer<'s>) -> Result<T, RonError>,
    ) -> Result<T, SpannedError> {
        let mut de = ron::Deserializer::from_str(raw.text)?;
        let value = f(&mut de).map_err(|e| de.span_error(e))?;
        de.end().map_err(|e| de.span_error(e))?;
        Ok(value)
    }

    fn entries(&self, head: Span, pairs: Pairs<'s>) -> Struct<'s> {
        let entries = pairs
            .into_iter()
            .map(|(key, value)| Entry { key, key_span: self.span_of(key), value: self.raw(value.get_ron()) })
            .collect();
        Struct { head, entries }
    }

    /// The top-level `Name( … )` struct of a document. Errors here are syntax errors of the
    /// whole file (E0001), except a wrong struct name (E0009).
    pub fn document_struct(&mut self, name: &'static str) -> Option<Struct<'s>> {
        let raw = self.document();
        if raw.text.starts_with("#!") {
            // Extensions would apply to the whole-document read but not to the re-reads of
            // each value, so dgcc reads plain RON only.
            let end = raw.text.find(']').map_or(raw.text.len(), |i| i + 1);
            self.report(
                Diagnostic::new("E0001", "syntax error: RON attributes such as `#![enable(…)]` are not supported")
                    .primary(Span::new(raw.span.start, raw.span.start + end), "remove this attribute")
                    .note("dgcc reads plain RON: write `Some(…)` for options and name every struct field"),
            );
            return None;
        }
        match self.read(raw, |de| de.deserialize_struct(name, &[], FieldsVisitor)) {
            Ok(pairs) => Some(self.entries(self.head(raw), pairs)),
            Err(err) => {
                let span = match err.code {
                    RonError::Eof => Span::new(self.source.len(), self.source.len()),
                    _ => self.ron_span(raw, &err),
                };
                let diag = match &err.code {
                    RonError::ExpectedDifferentStructName { .. } | RonError::ExpectedNamedStructLike(_) => {
                        Diagnostic::new("E0009", format!("expected `{name}( … )`, found `{}`", snippet(raw.text)))
                            .primary(self.head(raw), format!("a description is one `{name}( … )`"))
                    }
                    code => Diagnostic::new("E0001", format!("syntax error: {}", ron_message(code)))
                        .primary(span, label_for(code)),
                };
                self.report(diag);
                None
            }
        }
    }

    /// A struct value `( key: value, … )`, optionally named.
    pub fn structure(&mut self, raw: Raw<'s>, name: &'static str, expected: &str) -> Option<Struct<'s>> {
        match self.read(raw, |de| de.deserialize_struct(name, &[], FieldsVisitor)) {
            Ok(pairs) => Some(self.entries(self.head(raw), pairs)),
            Err(_) => {
                self.wrong_type(raw, expected);
                None
            }
        }
    }

    /// An enum value; `shape` says, per variant name, what follows the name. An unknown
    /// variant (`Shape::Unknown`) is returned with its name and its body left unread.
    pub fn variant(&mut self, raw: Raw<'s>, expected: &str, shape: impl Fn(&str) -> Shape) -> Option<Variant<'s>> {
        let read = |text: &'s str| -> Result<(&'s str, RawBody<'s>), RonError> {
            let mut de = ron::Deserializer::from_str(text).map_err(|e| e.code)?;
            let (name, body) = de.deserialize_enum("", &[], EnumVisitor { shape: &shape })?;
            if !matches!(body, RawBody::Unknown) {
                de.end()?;
            }
            Ok((name, body))
        };
        match read(raw.text) {
            Ok((name, body)) => {
                let body = match body {
                    RawBody::Unit => Body::Unit,
                    RawBody::Unknown => Body::Unknown,
                    RawBody::Struct(pairs) => Body::Struct(self.entries(self.span_of(name), pairs)),
                    RawBody::Tuple(items) => Body::Tuple(items.into_iter().map(|r| self.raw(r.get_ron())).collect()),
                };
                Some(Variant { name, name_span: self.span_of(name), body })
            }
            Err(_) => {
                self.wrong_type(raw, expected);
                if raw.text.starts_with('"') {
                    if let Some(last) = self.diags.last_mut() {
                        last.notes.push("names like this are written without quotes".into());
                    }
                }
                None
            }
        }
    }

    /// A list `[a, b, …]`.
    pub fn list(&mut self, raw: Raw<'s>, expected: &str) -> Option<Vec<Raw<'s>>> {
        match self.read(raw, |de| Vec::<&RawValue>::deserialize(de)) {
            Ok(items) => Some(items.into_iter().map(|r| self.raw(r.get_ron())).collect()),
            Err(_) => {
                self.wrong_type(raw, expected);
                None
            }
        }
    }

    /// A tuple `(a, b, …)`.
    pub fn tuple(&mut self, raw: Raw<'s>, expected: &str) -> Option<Vec<Raw<'s>>> {
        match self.read(raw, |de| de.deserialize_tuple(0, SeqVisitor)) {
            Ok(items) => Some(items.into_iter().map(|r| self.raw(r.get_ron())).collect()),
            Err(_) => {
                self.wrong_type(raw, expected);
                None
            }
        }
    }

    /// `Some(x)` or `None`.
    pub fn option(&mut self, raw: Raw<'s>, expected: &str) -> Option<Option<Raw<'s>>> {
        match self.read(raw, |de| Option::<&RawValue>::deserialize(de)) {
            Ok(inner) => Some(inner.map(|r| self.raw(r.get_ron()))),
            Err(_) => {
                self.wrong_type(raw, &format!("`Some({expected})` or `None`"));
                if !raw.text.starts_with("Some") && !raw.text.starts_with("None") {
                    if let Some(last) = self.diags.last_mut() {
                        last.notes.push(format!("help: write `Some({})`", raw.text));
                    }
                }
                None
            }
        }
    }

    pub fn string(&mut self, raw: Raw<'s>) -> Option<Spanned<String>> {
        match self.read(raw, |de| String::deserialize(de)) {
            Ok(s) => Some(Spanned::new(s, raw.span)),
            Err(_) => {
                self.wrong_type(raw, "a string `\"…\"`");
                None
            }
        }
    }

    pub fn boolean(&mut self, raw: Raw<'s>) -> Option<bool> {
        match self.read(raw, |de| bool::deserialize(de)) {
            Ok(b) => Some(b),
            Err(_) => {
                self.wrong_type(raw, "`true` or `false`");
                None
            }
        }
    }

    /// A `uint32_t`: E0010 when it is a number out of range, E0009 when it is not a number.
    pub fn number(&mut self, raw: Raw<'s>, what: &str) -> Option<Spanned<u32>> {
        let err = match self.read(raw, |de| u32::deserialize(de)) {
            Ok(n) => return Some(Spanned::new(n, raw.span)),
            Err(err) => err,
        };
        let integer = matches!(err.code, RonError::IntegerOutOfBounds)
            || self.read(raw, |de| i64::deserialize(de)).is_ok()
            || self.read(raw, |de| u64::deserialize(de)).is_ok();
        if integer {
            self.report(out_of_range(raw.span, raw.text, what));
        } else if self.read(raw, |de| f64::deserialize(de)).is_ok() {
            self.wrong_type(raw, &format!("a whole number for {what}"));
        } else {
            self.wrong_type(raw, &format!("a number for {what}"));
        }
        None
    }
}

/// E0010 for a number that is not a `uint32_t`.
pub fn out_of_range(span: Span, text: &str, what: &str) -> Diagnostic {
    let sign = if text.trim_start().starts_with('-') { "is negative" } else { "is too large" };
    Diagnostic::new("E0010", format!("{what} must be a whole number from 0 to 4294967295; `{}` {sign}", snippet(text)))
        .primary(span, "does not fit in a uint32_t")
}

/// At most 40 characters of a value, on one line, for messages.
pub fn snippet(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 40 {
        format!("{}…", one_line.chars().take(39).collect::<String>())
    } else {
        one_line
    }
}

/// The byte offset of ron's 1-based line and (character) column in `text`.
pub fn position(text: &str, line: usize, col: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_text = &text[start..];
    let line_end = line_text.find('\n').unwrap_or(line_text.len());
    let within = line_text[..line_end].char_indices().nth(col.saturating_sub(1)).map_or(line_end, |(i, _)| i);
    start + within
}

/// ron's message with a lowercase start, as diagnostics are written.
pub fn ron_message(code: &RonError) -> String {
    let text = code.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

fn label_for(code: &RonError) -> &'static str {
    match code {
        RonError::Eof => "the description ends here",
        RonError::ExpectedComma => "expected `,` before this",
        RonError::TrailingCharacters => "unexpected text after the description",
        _ => "here",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_not_bytes() {
        let text = "é\n  àb";
        assert_eq!(position(text, 1, 2), 2);
        assert_eq!(position(text, 2, 4), 3 + 2 + 2);
        assert_eq!(&text[position(text, 2, 4)..], "b");
        assert_eq!(position(text, 9, 1), text.len());
    }

    #[test]
    fn raw_values_are_trimmed_and_placed() {
        let src = "( a: /* c */ 48 , b: [1, 2] // t\n)";
        let mut r = Reader::new(src);
        let s = r.document_struct("X").unwrap();
        assert_eq!(s.entries[0].value.text, "48");
        assert_eq!(&src[s.entries[0].value.span.range()], "48");
        assert_eq!(&src[s.entries[1].key_span.range()], "b");
        let items = r.list(s.entries[1].value, "a list").unwrap();
        assert_eq!(&src[items[1].span.range()], "2");
    }
}
