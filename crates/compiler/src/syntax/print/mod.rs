//! The printers: canonical RON and canonical `.dgc` for one pipeline.
//!
//! Why canonical and minimal: `dgcc fmt` converts between the syntaxes and normalises a file,
//! so the output must be stable (printing a parse of the output gives the same text) and must
//! re-parse to an equal AST. Values equal to their defaults are left out (`flags: []`,
//! `glsl_layout: Std430`, `stride: None`, `align: None`, `subgroup: Any`, `writes: None`, an
//! empty `push_constants`, `kernels`, `shaders` or `attributes`, `full: false`, and `targets`
//! when they were defaulted); everything else is written, in the order of contract.md §1.1
//! (`shaders` last). Doc lines are printed as `//` comments above their items.

mod dsl;
mod ron;

pub use self::dsl::print_dsl;
pub use self::ron::print_ron;

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
