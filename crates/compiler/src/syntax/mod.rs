//! The front ends: RON and the `.dgc` language into one `ast::Pipeline`, and back.
//!
//! Why two front ends with one pipeline in front of them: the limits (size, nesting) and the
//! comment scan are the same for both syntaxes, so they run first, here, on the raw text;
//! then `ron` (serde over borrowed raw values) or `dsl` (a pest grammar) builds the AST with a
//! byte span on every node. Both collect every error they can find instead of stopping at the
//! first. The printers (`print_ron`, `print_dsl`) write the canonical form of either syntax;
//! parsing their output gives back an equal AST, which is what `dgcc fmt` relies on.
//!
//! Comments: `//` lines directly above a pipeline, layout, token, field, kernel, shader
//! or push-constant range become its `doc` (see `docs`); every other comment is kept beside the
//! AST ([`comments::Trivia`], from [`parse_with_comments`]) for [`format()`], which prints a
//! description canonically with all of its comments where they were.
//!
//! A text may start with a UTF-8 byte order mark: both front ends read it as whitespace, so
//! spans stay offsets into the text as given ([`decode`] drops it from a file's bytes).

pub mod comments;
mod docs;
mod dsl;
mod lex;
pub mod limits;
mod names;
mod print;
mod ron;

use std::path::Path;

use crate::ast::Pipeline;
use comments::{comment_lines, Trivia};
use dgcc_core::diag::Diagnostic;

pub use limits::{decode, lossy};
pub use print::{print_dsl, print_ron};

/// The two spellings of a description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyntaxKind {
    /// `*.ron`: RON, the shape the book's "The description language" shows beside the `.dgc`.
    Ron,
    /// `*.dgc`: the dgcc language (`grammar/dgc.pest`).
    Dsl,
}

impl SyntaxKind {
    /// The syntax a file's extension names (`.ron`, `.dgc`), case-insensitively.
    pub fn from_path(path: &Path) -> Option<SyntaxKind> {
        let ext = path.extension()?.to_str()?;
        if ext.eq_ignore_ascii_case("ron") {
            Some(SyntaxKind::Ron)
        } else if ext.eq_ignore_ascii_case("dgc") {
            Some(SyntaxKind::Dsl)
        } else {
            None
        }
    }

    /// The file extension, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            SyntaxKind::Ron => "ron",
            SyntaxKind::Dsl => "dgc",
        }
    }
}

/// Parses one description. Errors are every diagnostic found (all of them errors); the
/// library never panics on any input.
pub fn parse(source: &str, kind: SyntaxKind) -> Result<Pipeline, Vec<Diagnostic>> {
    parse_keeping(source, kind).map(|(p, _)| p)
}

/// Parses one description and keeps its other comments and brackets, for [`format()`].
pub fn parse_with_comments(source: &str, kind: SyntaxKind) -> Result<(Pipeline, Trivia), Vec<Diagnostic>> {
    let (pipeline, docs) = parse_keeping(source, kind)?;
    let trivia = Trivia::new(source, &docs.unused(), docs.take_marks());
    Ok((pipeline, trivia))
}

fn parse_keeping(source: &str, kind: SyntaxKind) -> Result<(Pipeline, docs::Docs<'_>), Vec<Diagnostic>> {
    limits::check_size(source).map_err(|d| vec![*d])?;
    let scan = lex::scan(source, kind, limits::MAX_NESTING);
    if let Some(bracket) = scan.too_deep {
        return Err(vec![limits::too_deep(bracket)]);
    }
    if let Some(comment) = scan.unclosed_comment {
        let start = dgcc_core::span::Span::new(comment.start, comment.start + 2);
        let d = Diagnostic::new("E0001", "syntax error: a block comment is never closed")
            .primary(start, "this `/*` has no `*/`")
            .note("help: close it with `*/`; without it everything after it is comment, up to the end of the file");
        return Err(vec![d]);
    }
    let docs = docs::Docs::new(source, scan.comments);
    let pipeline = match kind {
        SyntaxKind::Ron => ron::parse(source, &docs),
        SyntaxKind::Dsl => dsl::parse(source, &docs),
    }?;
    Ok((pipeline, docs))
}

/// Prints a pipeline in the given syntax (see [`print_ron`] and [`print_dsl`]), with its doc
/// comments and no others.
pub fn print(pipeline: &Pipeline, kind: SyntaxKind) -> String {
    match kind {
        SyntaxKind::Ron => print_ron(pipeline),
        SyntaxKind::Dsl => print_dsl(pipeline),
    }
}

/// Why [`format()`] gives no text.
#[derive(Debug)]
pub enum FormatError {
    /// The source does not parse: every diagnostic.
    Parse(Vec<Diagnostic>),
    /// The formatted text would not mean the same or would lose a comment (a bug in dgcc, which
    /// this check keeps from reaching a file): what differs.
    NotKept(String),
    /// The formatted text would be this many bytes, past the [`limits::MAX_SOURCE_BYTES`] dgcc
    /// reads (a line of its own for each of a million comments that shared one): written, it
    /// could not be read back.
    TooLarge(usize),
}

/// A description (`source`, in syntax `from`) printed canonically in syntax `to` with every
/// comment kept: what `dgcc fmt` writes. The result is checked before it is returned: it
/// parses to the same pipeline (doc comments included) and holds the text of every comment of
/// the source. Formatting the result again gives it back unchanged.
pub fn format(source: &str, from: SyntaxKind, to: SyntaxKind) -> Result<String, FormatError> {
    let (pipeline, trivia) = parse_with_comments(source, from).map_err(FormatError::Parse)?;
    let out = readable(print::format(&pipeline, &trivia, to))?;
    match parse(&out, to) {
        Ok(again) if again == pipeline => {}
        Ok(_) => return Err(FormatError::NotKept("the formatted description parses to another pipeline".into())),
        Err(d) => {
            let first = d.first().map(|d| d.message.clone()).unwrap_or_default();
            return Err(FormatError::NotKept(format!("the formatted description does not parse: {first}")));
        }
    }
    let (before, after) = (comment_texts(source, from), comment_texts(&out, to));
    if before != after {
        // `after` is sorted: a binary search, as a scan for each of a million lines is not.
        let lost: Vec<&String> = before.iter().filter(|l| after.binary_search(l).is_err()).take(3).collect();
        return Err(FormatError::NotKept(format!("comment text would change: {lost:?}")));
    }
    Ok(out)
}

/// A description printed canonically in syntax `to` without its comments: what `dgcc fmt
/// --drop-comments` writes.
pub fn format_without_comments(source: &str, from: SyntaxKind, to: SyntaxKind) -> Result<String, FormatError> {
    let pipeline = parse(source, from).map_err(FormatError::Parse)?;
    readable(print(&pipeline, to))
}

/// `out`, unless it is larger than dgcc reads back.
fn readable(out: String) -> Result<String, FormatError> {
    if out.len() > limits::MAX_SOURCE_BYTES {
        return Err(FormatError::TooLarge(out.len()));
    }
    Ok(out)
}

/// The text lines of every comment of `source`, sorted (the order may change where items are
/// put in canonical order).
fn comment_texts(source: &str, kind: SyntaxKind) -> Vec<String> {
    let mut lines: Vec<String> = lex::scan(source, kind, usize::MAX)
        .comments
        .iter()
        .flat_map(|c| comment_lines(&source[c.span.range()]))
        .map(|l| l.trim().to_string())
        .collect();
    lines.sort();
    lines
}

/// How many comments of `source` are not doc comments of an item (trailing comments,
/// comments inside values, comments separated from the next item by a blank line): what
/// `dgcc fmt --drop-comments` drops. For a source that does not parse, every comment counts.
pub fn dropped_comments(source: &str, kind: SyntaxKind) -> usize {
    match parse_with_comments(source, kind) {
        Ok((_, trivia)) => trivia.notes.len(),
        Err(_) => lex::scan(source, kind, usize::MAX).comments.len(),
    }
}

/// E0002 for vertex attributes on a shader of another stage, in either syntax: only a vertex
/// shader reads vertex input bindings.
fn attributes_off_vertex(stage: dgcc_core::stages::Stage, at: dgcc_core::span::Span) -> Diagnostic {
    Diagnostic::new_by("E0002", |dgc| {
        format!("a {} shader has no vertex attributes", dgcc_core::spell::stage(stage, dgc))
    })
    .primary(at, "only a vertex shader has attributes")
    .note("attributes map a vertex shader's input locations to vertex buffer bindings")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_from_path() {
        assert_eq!(SyntaxKind::from_path(Path::new("a/scene.ron")), Some(SyntaxKind::Ron));
        assert_eq!(SyntaxKind::from_path(Path::new("scene.DGC")), Some(SyntaxKind::Dsl));
        assert_eq!(SyntaxKind::from_path(Path::new("scene.json")), None);
        assert_eq!(SyntaxKind::from_path(Path::new("ron")), None);
    }
}
