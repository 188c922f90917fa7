//! Names and references (E07xx): every name in a description becomes an identifier in
//! generated Rust, C and GLSL, so it must be one in all three, unique where the emitters put it
//! side by side, and every reference must resolve.
//!
//! Why check here and not in the emitters: a name that breaks one language should be reported
//! with the other mistakes by `dgcc check`, pointing at the name, before any file is written.
//! Where names collide matters: layouts and kernels share the pipeline's namespace, token names
//! a layout's, and the record struct flattens push-constant fields next to the members of the
//! other tokens (`draw_index_count`, `_pad0`), so a field can collide with a member it never
//! named (E0707).
//!
//! A kernel that `writes:` a graphics layout is the normal case, not a mistake: culling kernels
//! are compute shaders that fill the stream a draw layout executes. Only an unknown name is.

use super::finding::{Finding, KernelPart, Location, TokenPart};
use super::spans::Resolver;
use crate::ast::{Layout, Pipeline, PushData, Spanned, TokenKind};
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::CompiledLayout;
use dgcc_core::span::Span;
use std::collections::HashMap;

const RUST: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];
#[rustfmt::skip]
const C: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern", "float",
    "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "alignas", "alignof",
    "bool", "constexpr", "false", "nullptr", "static_assert", "thread_local", "true", "typeof", "typeof_unqual",
    // C++, which includes the generated header just as often.
    "class", "namespace", "template", "this", "new", "delete", "operator", "private", "protected", "public",
    "virtual", "friend", "using", "try", "catch", "throw", "explicit", "mutable", "typename", "export", "concept",
    "requires",
];
#[rustfmt::skip]
const GLSL: &[&str] = &[
    "attribute", "const", "uniform", "varying", "buffer", "shared", "coherent", "volatile", "restrict", "readonly",
    "writeonly", "atomic_uint", "layout", "centroid", "flat", "smooth", "noperspective", "patch", "sample",
    "invariant", "precise", "break", "continue", "do", "for", "while", "switch", "case", "default", "if", "else",
    "subroutine", "in", "out", "inout", "int", "void", "bool", "true", "false", "discard", "return", "lowp",
    "mediump", "highp", "precision", "struct", "float", "double", "uint", "vec2", "vec3", "vec4", "ivec2", "ivec3",
    "ivec4", "uvec2", "uvec3", "uvec4", "bvec2", "bvec3", "bvec4", "dvec2", "dvec3", "dvec4", "mat2", "mat3", "mat4",
    "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4", "dmat2", "dmat3",
    "dmat4", "sampler1D", "sampler2D", "sampler3D", "samplerCube", "sampler2DArray", "sampler", "texture2D",
    "image2D", "uint64_t", "int64_t",
    // Reserved for future use.
    "common", "partition", "active", "asm", "class", "union", "enum", "typedef", "template", "this", "resource",
    "goto", "inline", "noinline", "public", "static", "extern", "external", "interface", "long", "short", "half",
    "fixed", "unsigned", "superp", "input", "output", "hvec2", "hvec3", "hvec4", "fvec2", "fvec3", "fvec4", "filter",
    "sizeof", "cast", "namespace", "using",
];

/// Why `name` cannot be an identifier in generated code, with the code to report.
pub(crate) fn identifier_problem(name: &str) -> Option<(&'static str, String)> {
    let mut chars = name.chars();
    let starts_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_ok || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || name == "_" {
        let why = if name.is_empty() {
            "it is empty".to_string()
        } else if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
            format!("`{c}` cannot appear in an identifier")
        } else if name == "_" {
            "`_` alone is not an identifier in Rust".to_string()
        } else {
            "identifiers cannot start with a digit".to_string()
        };
        return Some(("E0705", why));
    }
    let langs: Vec<&str> = [("Rust", RUST), ("C/C++", C), ("GLSL", GLSL)]
        .iter()
        .filter(|(_, words)| words.contains(&name))
        .map(|(l, _)| *l)
        .collect();
    if !langs.is_empty() {
        return Some(("E0706", format!("it is a reserved word in {}", langs.join(" and "))));
    }
    if name.starts_with("gl_") {
        return Some(("E0706", "GLSL reserves names starting with `gl_`".into()));
    }
    if name.contains("__") {
        return Some(("E0706", "GLSL and C reserve names containing `__`".into()));
    }
    if name.starts_with('_') && name[1..].starts_with(|c: char| c.is_ascii_uppercase()) {
        return Some(("E0706", "C reserves names starting with `_` and a capital letter".into()));
    }
    None
}

fn name_rule(what: &str, name: &str, span: Span, out: &mut Vec<Diagnostic>) {
    if let Some((code, why)) = identifier_problem(name) {
        let d = Diagnostic::new(code, format!("{what} name `{name}` cannot be used in generated code: {why}"))
            .primary(span, "becomes an identifier in Rust, C and GLSL")
            .note("help: use letters, digits and `_`, starting with a letter, and avoid keywords (e.g. append `_`)");
        out.push(d);
    }
}

fn duplicates<'a>(names: impl Iterator<Item = (&'a str, Span)>) -> Vec<(usize, usize)> {
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut dups = vec![];
    for (i, (n, _)) in names.enumerate() {
        match first.get(n) {
            Some(&j) => dups.push((j, i)),
            None => {
                first.insert(n, i);
            }
        }
    }
    dups
}

fn duplicate(code: &'static str, what: &str, name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::new(code, format!("two {what}s are named `{name}`"))
        .primary(span, "second definition")
        .secondary(first, "first definition")
        .note(format!("help: rename one of the {what}s"))
}

/// E0701–E0706 and E0708 over the whole pipeline; E0707 per laid-out layout.
pub(crate) fn name_diagnostics(pipeline: &Pipeline, compiled: &[&CompiledLayout]) -> Vec<Diagnostic> {
    let mut out = vec![];
    name_rule("pipeline", &pipeline.name.node, pipeline.name.span, &mut out);
    let layouts: Vec<(&str, Span)> =
        pipeline.layouts.iter().map(|l| (l.node.name.node.as_str(), l.node.name.span)).collect();
    for (j, i) in duplicates(layouts.iter().copied()) {
        out.push(duplicate("E0701", "layout", layouts[i].0, layouts[i].1, layouts[j].1));
    }
    let kernels: Vec<(&str, Span)> =
        pipeline.kernels.iter().map(|k| (k.node.name.node.as_str(), k.node.name.span)).collect();
    for (j, i) in duplicates(kernels.iter().copied()) {
        out.push(duplicate("E0702", "kernel", kernels[i].0, kernels[i].1, kernels[j].1));
    }
    for (name, span) in &layouts {
        name_rule("layout", name, *span, &mut out);
    }
    for (name, span) in &kernels {
        name_rule("kernel", name, *span, &mut out);
    }
    for (n, layout) in pipeline.layouts.iter().enumerate() {
        let dup_tokens = layout_names(layout, &mut out);
        if let Some(c) = compiled.get(n) {
            record_collisions(pipeline, layout, c, &dup_tokens, &mut out);
        }
    }
    for k in &pipeline.kernels {
        if let Some(w) = &k.node.writes {
            if !pipeline.layouts.iter().any(|l| l.node.name.node == w.node) {
                let known: Vec<String> = pipeline.layouts.iter().map(|l| format!("`{}`", l.node.name.node)).collect();
                let f = Finding::new(
                    "E0708",
                    Location::Kernel(KernelPart::Writes),
                    format!(
                        "kernel `{}` writes `{}`, which is not a layout of this pipeline",
                        k.node.name.node, w.node
                    ),
                )
                .label("unknown layout")
                .help(if known.is_empty() {
                    "add the layout, or remove `writes`".to_string()
                } else {
                    format!("the layouts are {}", known.join(", "))
                });
                let r = Resolver::for_kernel(pipeline, k);
                out.push(f.into_diagnostic(|l| r.span(l)));
            }
        }
    }
    out
}

/// Token and field names of one layout; returns the tokens with a duplicate name.
fn layout_names(layout: &Spanned<Layout>, out: &mut Vec<Diagnostic>) -> Vec<usize> {
    let tok_span = |t: &Spanned<crate::ast::Token>| t.node.name.as_ref().map(|n| n.span).unwrap_or(t.node.kind_span);
    let names: Vec<(String, Span)> = layout.node.tokens.iter().map(|t| (t.node.field_name(), tok_span(t))).collect();
    let mut dup_tokens = vec![];
    for (j, i) in duplicates(names.iter().map(|(n, s)| (n.as_str(), *s))) {
        out.push(
            duplicate("E0703", "token", &names[i].0, names[i].1, names[j].1)
                .note(format!("in layout `{}`; a token without `name` is named after its kind", layout.node.name.node)),
        );
        dup_tokens.extend([i, j]);
    }
    for (i, t) in layout.node.tokens.iter().enumerate() {
        if let Some(n) = &t.node.name {
            name_rule("token", &n.node, n.span, out);
        }
        if let TokenKind::PushConstant { data: PushData::Fields(fields), .. } = &t.node.kind {
            let fs: Vec<(&str, Span)> = fields.iter().map(|f| (f.node.name.node.as_str(), f.node.name.span)).collect();
            for (j, k) in duplicates(fs.iter().copied()) {
                out.push(duplicate("E0704", "field", fs[k].0, fs[k].1, fs[j].1));
                dup_tokens.push(i);
            }
            for (name, span) in fs {
                name_rule("field", name, span, out);
            }
        }
    }
    dup_tokens
}

/// E0707: two members of the flattened record struct with one name.
fn record_collisions(
    pipeline: &Pipeline,
    layout: &Spanned<Layout>,
    c: &CompiledLayout,
    skip: &[usize],
    out: &mut Vec<Diagnostic>,
) {
    let r = Resolver::for_layout(pipeline, layout);
    let member_loc = |token: Option<usize>, name: &str| -> Location {
        match token {
            Some(i) => {
                let field = match layout.node.tokens.get(i).map(|t| &t.node.kind) {
                    Some(TokenKind::PushConstant { data: PushData::Fields(fs), .. }) => {
                        fs.iter().position(|f| f.node.name.node == name)
                    }
                    _ => None,
                };
                Location::token(i, field.map(TokenPart::Field).unwrap_or(TokenPart::Name))
            }
            None => Location::Layout,
        }
    };
    let mut seen: HashMap<&str, Option<usize>> = HashMap::new();
    for m in &c.record {
        match seen.get(m.name.as_str()) {
            None => {
                seen.insert(&m.name, m.token);
            }
            Some(&prev) => {
                let involved = |t: Option<usize>| t.is_some_and(|t| skip.contains(&t));
                if involved(prev) || involved(m.token) {
                    continue;
                }
                let (here, there) = if m.token.is_some() { (m.token, prev) } else { (prev, m.token) };
                let owner = |t: Option<usize>| match t.and_then(|i| c.tokens.get(i)) {
                    Some(tok) => format!("token `{}`", tok.name),
                    None => "padding".to_string(),
                };
                let f = Finding::new("E0707", member_loc(here, &m.name), format!("two members of layout `{}`'s record struct are named `{}`", c.name, m.name))
                    .label(format!("`{}` from {}", m.name, owner(here)))
                    .related(member_loc(there, &m.name), format!("`{}` from {}", m.name, owner(there)))
                    .note("push-constant fields keep their own names in the record; other tokens' members are named `<token>_<member>`, padding `_padN`")
                    .help("rename the field or the token");
                out.push(f.into_diagnostic(|l| r.span(l)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::identifier_problem;

    #[test]
    fn identifiers_follow_all_three_languages() {
        for ok in ["object_id", "SceneDraw", "cull2", "_private"] {
            assert_eq!(identifier_problem(ok), None, "{ok}");
        }
        for (bad, code) in [
            ("2d", "E0705"),
            ("a-b", "E0705"),
            ("", "E0705"),
            ("_", "E0705"),
            ("type", "E0706"),
            ("uniform", "E0706"),
            ("class", "E0706"),
            ("gl_Position", "E0706"),
            ("a__b", "E0706"),
            ("_Count", "E0706"),
        ] {
            assert_eq!(identifier_problem(bad).map(|p| p.0), Some(code), "{bad}");
        }
    }
}
