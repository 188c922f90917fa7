//! The front ends: RON and the `.dgc` language into one `ast::Pipeline`, and back.
//!
//! Why two front ends with one pipeline in front of them: the limits (size, nesting) and the
//! comment scan are the same for both syntaxes, so they run first, here, on the raw text;
//! then `ron` (serde over borrowed raw values) or `dsl` (a pest grammar) builds the AST with a
//! byte span on every node. Both collect every error they can find instead of stopping at the
//! first. The printers (`print_ron`, `print_dsl`) write the canonical form of either syntax;
//! parsing their output gives back an equal AST, which is what `dgcc fmt` relies on.
//!
//! Doc comments: `//` lines directly above a pipeline, layout, token, field, kernel, shader or
//! push-constant range become its `doc` (see `docs`); [`dropped_comments`] counts the others.

mod docs;
mod dsl;
mod lex;
pub mod limits;
mod names;
mod print;
mod ron;

use std::path::Path;

use crate::ast::Pipeline;
use dgcc_core::diag::Diagnostic;

pub use limits::decode;
pub use print::{print_dsl, print_ron};

/// The two spellings of a description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyntaxKind {
    /// `*.ron`: RON, as in contract.md §1.1.
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
    limits::check_size(source).map_err(|d| vec![d])?;
    let scan = lex::scan(source, kind, limits::MAX_NESTING);
    if let Some(bracket) = scan.too_deep {
        return Err(vec![limits::too_deep(bracket)]);
    }
    let docs = docs::Docs::new(source, scan.comments);
    match kind {
        SyntaxKind::Ron => ron::parse(source, &docs),
        SyntaxKind::Dsl => dsl::parse(source, &docs),
    }
}

/// Prints a pipeline in the given syntax (see [`print_ron`] and [`print_dsl`]).
pub fn print(pipeline: &Pipeline, kind: SyntaxKind) -> String {
    match kind {
        SyntaxKind::Ron => print_ron(pipeline),
        SyntaxKind::Dsl => print_dsl(pipeline),
    }
}

/// How many comments of `source` are not doc comments of an item (trailing comments,
/// comments inside values, comments separated from the next item by a blank line): what a
/// conversion by `dgcc fmt` cannot carry over. For a source that does not parse, every
/// comment counts.
pub fn dropped_comments(source: &str, kind: SyntaxKind) -> usize {
    let total = lex::scan(source, kind, usize::MAX).comments.len();
    match parse(source, kind) {
        Ok(pipeline) => total.saturating_sub(doc_lines(&pipeline)),
        Err(_) => total,
    }
}

/// The 1-based lines of the comments of `source` that are not doc comments of an item: what
/// [`dropped_comments`] counts, for `dgcc fmt` to name. For a source that does not parse, every
/// comment's line.
pub fn dropped_comment_lines(source: &str, kind: SyntaxKind) -> Vec<usize> {
    let starts: Vec<usize> = std::iter::once(0).chain(source.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let line = |at: usize| starts.partition_point(|&s| s <= at);
    let scan = lex::scan(source, kind, limits::MAX_NESTING);
    let all: Vec<usize> = scan.comments.iter().map(|c| c.span.start).collect();
    if limits::check_size(source).is_err() || scan.too_deep.is_some() {
        return all.into_iter().map(line).collect();
    }
    let docs = docs::Docs::new(source, scan.comments);
    let parsed = match kind {
        SyntaxKind::Ron => ron::parse(source, &docs).is_ok(),
        SyntaxKind::Dsl => dsl::parse(source, &docs).is_ok(),
    };
    let unused = if parsed { docs.unused() } else { all };
    let mut lines: Vec<usize> = unused.into_iter().map(line).collect();
    lines.dedup();
    lines
}

/// The number of doc lines in a pipeline (each came from one comment).
fn doc_lines(p: &Pipeline) -> usize {
    let ranges: usize = p.push_constants.iter().map(|r| r.doc.len()).sum();
    let layouts: usize = p
        .layouts
        .iter()
        .map(|l| {
            let tokens: usize = l
                .tokens
                .iter()
                .map(|t| {
                    let fields = match &t.kind {
                        crate::ast::TokenKind::PushConstant { data: crate::ast::PushData::Fields(fs), .. } => {
                            fs.iter().map(|f| f.doc.len()).sum()
                        }
                        _ => 0,
                    };
                    t.doc.len() + fields
                })
                .sum();
            l.doc.len() + tokens
        })
        .sum();
    let kernels: usize = p.kernels.iter().map(|k| k.doc.len()).sum();
    let shaders: usize = p.shaders.iter().map(|s| s.doc.len()).sum();
    p.doc.len() + ranges + layouts + kernels + shaders
}

/// E0002 for vertex attributes on a shader of another stage, in either syntax: only a vertex
/// shader reads vertex input bindings.
fn attributes_off_vertex(stage: dgcc_core::stages::Stage, at: dgcc_core::span::Span) -> Diagnostic {
    Diagnostic::new("E0002", format!("a {} shader has no vertex attributes", stage.name()))
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
