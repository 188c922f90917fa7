//! The printers: canonical RON and canonical `.dgc` for one pipeline.
//!
//! Why canonical and minimal: `dgcc fmt` converts between the syntaxes and normalises a file,
//! so the output must be stable (printing a parse of the output gives the same text) and must
//! re-parse to an equal AST. Values equal to their defaults are left out (`flags: []`,
//! `glsl_layout: Std430`, `stride: None`, `align: None`, `subgroup: Any`, `writes: None`, an
//! empty `push_constants`, `kernels`, `shaders` or `attributes`, `full: false`, and `targets`
//! when they were defaulted); everything else is written, in the order the book's "The
//! description language" shows (`shaders` last). Doc lines are printed as `//` comments above their items.
//!
//! Both printers build lines that know which source spans they print (`weave::Lines`), so
//! that [`format()`] can put every other comment of the source back between them (`weave`).

mod dsl;
mod ron;
mod weave;

pub use self::dsl::print_dsl;
pub use self::ron::print_ron;

use super::comments::Trivia;
use super::SyntaxKind;
use crate::ast::Pipeline;

/// The pipeline in `kind`'s canonical form with the comments of `trivia` (which the parse of
/// its source gave) where they were.
pub fn format(p: &Pipeline, trivia: &Trivia, kind: SyntaxKind) -> String {
    let lines = match kind {
        SyntaxKind::Ron => ron::lines(p, &trivia.marks),
        SyntaxKind::Dsl => dsl::lines(p, &trivia.marks),
    };
    weave::weave(&lines, Some(trivia), kind)
}

/// A string literal in the escapes both syntaxes read: `\"`, `\\`, `\n`, `\r`, `\t`, `\0`
/// and `\u{…}` for other control characters.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Indentation for nesting level `level` (four spaces each).
pub(crate) fn indent(level: usize) -> String {
    "    ".repeat(level)
}
