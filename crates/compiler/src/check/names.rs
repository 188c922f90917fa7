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
//! Which words are reserved, and in which language, is `crate::names`'s to say: the emitters
//! read the same tables, so a name this check lets through is never renamed in the output.
//!
//! A kernel that `writes:` a graphics layout is the normal case, not a mistake: culling kernels
//! are compute shaders that fill the stream a draw layout executes. Only an unknown name is.

use super::finding::{Finding, KernelPart, Location, TokenPart};
use super::spans::Resolver;
use crate::ast::{Layout, Pipeline, PushData, Spanned, TokenKind};
use crate::names::identifier_problem;
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::CompiledLayout;
use dgcc_core::span::Span;
use std::collections::HashMap;

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
