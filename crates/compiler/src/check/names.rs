//! Names and references (E07xx): every name in a description becomes an identifier in the
//! generated Rust, C, C++, GLSL, HLSL and Slang, so it must be one in all of them, unique where
//! the emitters put it side by side, and every reference must resolve.
//!
//! Why check here and not in the emitters: a name that breaks one language should be reported
//! with the other mistakes by `dgcc check`, pointing at the name, before any file is written.
//! Here the names as written: layouts and kernels share the pipeline's namespace, token names a
//! layout's. The names as printed (cased, joined into constants, the flattened record struct,
//! where a push-constant field that meets another member is qualified rather than refused) are
//! checked once the manifest exists (`super::generated`, E0707 and E0709).
//!
//! Which words are reserved, and in which language, is `crate::names`'s to say: the emitters
//! read the same tables, so a name this check lets through is never renamed in the output.
//!
//! A kernel that `writes:` a graphics layout is the normal case, not a mistake: culling kernels
//! are compute shaders that fill the stream a draw layout executes. Only an unknown name is.

use super::finding::{Finding, KernelPart, Location};
use super::spans::Resolver;
use crate::ast::{Layout, Pipeline, PushData, Spanned, TokenKind};
use crate::names::identifier_problem;
use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;
use std::collections::HashMap;

fn name_rule(what: &str, name: &str, span: Span, out: &mut Vec<Diagnostic>) {
    if let Some((code, why)) = identifier_problem(name) {
        let d = Diagnostic::new(code, format!("{what} name `{name}` cannot be used in generated code: {why}"))
            .primary(span, "becomes an identifier in Rust, C, GLSL, HLSL and Slang")
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

/// E0701–E0706 and E0708 over the whole pipeline, on the names as written. The names as
/// printed (cased, joined, record members) are `super::generated`'s, once the manifest exists.
pub(crate) fn name_diagnostics(pipeline: &Pipeline) -> Vec<Diagnostic> {
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
    for layout in &pipeline.layouts {
        layout_names(layout, &mut out);
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

/// Token and field names of one layout.
fn layout_names(layout: &Spanned<Layout>, out: &mut Vec<Diagnostic>) {
    let tok_span = |t: &Spanned<crate::ast::Token>| t.node.name.as_ref().map(|n| n.span).unwrap_or(t.node.kind_span);
    let names: Vec<(String, Span)> = layout.node.tokens.iter().map(|t| (t.node.field_name(), tok_span(t))).collect();
    for (j, i) in duplicates(names.iter().map(|(n, s)| (n.as_str(), *s))) {
        out.push(duplicate("E0703", "token", &names[i].0, names[i].1, names[j].1).note_spelled(
            format!("in layout `{}`; a token without `name` is named after its kind", layout.node.name.node),
            format!("in layout `{}`; a token without a name is named after its kind", layout.node.name.node),
        ));
    }
    for t in &layout.node.tokens {
        if let Some(n) = &t.node.name {
            name_rule("token", &n.node, n.span, out);
        }
        if let TokenKind::PushConstant { data: PushData::Fields(fields), .. } = &t.node.kind {
            let fs: Vec<(&str, Span)> = fields.iter().map(|f| (f.node.name.node.as_str(), f.node.name.span)).collect();
            for (j, k) in duplicates(fs.iter().copied()) {
                out.push(duplicate("E0704", "field", fs[k].0, fs[k].1, fs[j].1));
            }
            for (name, span) in fs {
                name_rule("field", name, span, out);
            }
        }
    }
}
