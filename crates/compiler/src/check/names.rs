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
//!
//! W0014 warns where a name the C and C++ headers print is a macro of a platform header an
//! engine may include first (windows.h, X11's `Xlib.h`: `crate::names::platform_headers`). It
//! reads the record members as the layout engine named them (a push-constant field that meets
//! another member is qualified), so it runs on the laid-out layouts, beside the other rules.

use super::finding::{Finding, KernelPart, Location};
use super::spans::Resolver;
use crate::ast::{Layout, Pipeline, PushData, Spanned, TokenKind};
use crate::layout::LaidOut;
use crate::names::platform_headers::{macros_named, PlatformMacro, Reach};
use crate::names::{camel, identifier_problem, member};
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

/// W0014 over the names the C and C++ headers print from a description's: every record member,
/// as the layout engine named it, and the C++ header's namespaces (the pipeline's, each layout's
/// and each kernel's name in CamelCase). The C header's other names join a description's with
/// dgcc's own words (`SceneSceneDrawRecord`, `scene_scene_draw_tokens`), which no listed macro
/// is (`platform_headers`' tests). Names E0705 or E0706 refuse are not looked at: the list has
/// none of them, and a name that is not an identifier is cased into one.
pub(crate) fn platform_macro_diagnostics(pipeline: &Pipeline, laid: &[LaidOut]) -> Vec<Diagnostic> {
    let mut out = vec![];
    let mut namespace = |what: &str, name: &Spanned<String>| {
        if identifier_problem(&name.node).is_some() {
            return;
        }
        let spelled = camel(&name.node);
        for m in macros_named(&spelled) {
            let subject = format!(
                "{what} `{}` is `namespace {spelled}` in the generated C++ header, which is replaced where {} is included",
                name.node,
                m.header.reach.platform()
            );
            let example = format!("{}_{what}", name.node);
            out.push(platform_macro(
                m,
                subject,
                name.span,
                &format!("the C++ header's `namespace {spelled}`"),
                &example,
            ));
        }
    };
    namespace("pipeline", &pipeline.name);
    for l in &pipeline.layouts {
        namespace("layout", &l.node.name);
    }
    for k in &pipeline.kernels {
        namespace("kernel", &k.node.name);
    }
    for (layout, lo) in pipeline.layouts.iter().zip(laid) {
        for (i, rm) in lo.layout.record.iter().enumerate() {
            let printed = member(&rm.name);
            let found = macros_named(&printed);
            if found.is_empty() {
                continue;
            }
            let Some(ti) = rm.token else { continue };
            let Some(token) = layout.node.tokens.get(ti) else { continue };
            let token_name = token.node.field_name();
            // A push-constant field: its own name, and the token's name to qualify it with.
            let field = match &token.node.kind {
                TokenKind::PushConstant { data: PushData::Fields(fs), .. } => {
                    let k = lo.layout.record[..i].iter().filter(|r| r.token == Some(ti)).count();
                    fs.get(k)
                }
                _ => None,
            };
            let (span, written, example) = match field {
                Some(f) => (f.node.name.span, f.node.name.node.as_str(), format!("{token_name}_{}", f.node.name.node)),
                None => (
                    token.node.name.as_ref().map(|n| n.span).unwrap_or(token.node.kind_span),
                    printed.as_str(),
                    format!("{printed}_{}", token.node.kind.default_name()),
                ),
            };
            let printed_as =
                if written == printed { String::new() } else { format!(", printed `{printed}` in the record,") };
            for m in found {
                let subject = format!(
                    "member `{written}` of token `{token_name}` (layout `{}`){printed_as} is replaced where {} is included",
                    layout.node.name.node,
                    m.header.reach.platform()
                );
                let example = if written == printed { example.clone() } else { String::new() };
                out.push(platform_macro(
                    m,
                    subject,
                    span,
                    &format!("the record struct's member `{printed}`"),
                    &example,
                ));
            }
        }
    }
    out
}

/// One W0014: `subject` is replaced by `m` (the message goes on with what the header defines);
/// `what` is the generated code that breaks; `example` a new name to suggest (none if empty, or
/// if it would be refused or warned about too).
fn platform_macro(m: &PlatformMacro, subject: String, span: Span, what: &str, example: &str) -> Diagnostic {
    let platform = m.header.reach.platform();
    let guard = match m.header.reach {
        Reach::Windows { lean: true } => "; WIN32_LEAN_AND_MEAN does not remove it".to_string(),
        Reach::Windows { lean: false } => {
            format!("; with WIN32_LEAN_AND_MEAN defined first, windows.h does not include `{}`", m.header.path)
        }
        Reach::Xlib => String::new(),
    };
    let rename = if !example.is_empty() && identifier_problem(example).is_none() && macros_named(example).is_empty() {
        format!("rename it (e.g. `{example}`)")
    } else {
        "rename it".to_string()
    };
    let when = match m.header.reach {
        Reach::Windows { lean: false } => format!(
            "if every file of the engine that includes the generated headers and {platform} defines WIN32_LEAN_AND_MEAN first, or none includes {platform}"
        ),
        _ => format!("if no file of the engine that includes the generated headers includes {platform}"),
    };
    Diagnostic::new("W0014", format!("{subject}: {}", m.defines()))
        .primary(span, format!("becomes {} after {platform}", m.expansion_words()))
        .note(format!(
            "a file that includes {platform} (as vulkan.h does under {}) before the generated C or C++ header cannot compile that header: the macro replaces {what}{guard}",
            m.header.reach.vulkan_platform(),
        ))
        .note_spelled(
            format!("help: {rename}, or, {when}, allow W0014: `lints: [Allow(\"W0014\")]`"),
            format!("help: {rename}, or, {when}, allow W0014: `lints allow W0014;`"),
        )
}
