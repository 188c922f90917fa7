//! Canonical RON: the shape of the book's "The description language", four-space indentation,
//! trailing commas.
//!
//! Why hand-written and not `ron::ser`: the output carries doc comments, keeps short
//! structs (a field, a push-constant range, a token) on one line and omits defaults, none of
//! which a serializer does.

use super::quote;
use super::weave::{weave, Lines};
use crate::ast::{
    Field, FieldType, Kernel, Layout, Lint, Pipeline, PushData, PushSpace, Shader, Spanned, StageList, SubgroupReq,
    SubgroupSize, Token, TokenKind,
};
use crate::syntax::comments::{List, Marks, Of, Part};
use crate::syntax::names;
use crate::syntax::SyntaxKind::Ron as RON;
use dgcc_core::span::Span;

/// The pipeline as canonical RON.
pub fn print_ron(p: &Pipeline) -> String {
    weave(&lines(p, &Marks::default()), None, RON)
}

/// The lines of canonical RON, each with the source spans it prints.
pub(crate) fn lines(p: &Pipeline, marks: &Marks) -> Lines {
    let mut o = Lines::default();
    o.item(0, &p.doc, "Pipeline(", &[marks.get(Of::Pipeline, Part::Open)]);
    o.line(1, format!("name: {},", quote(&p.name)), &[p.name.span]);
    if !p.targets_defaulted {
        let targets: Vec<String> = p.targets.iter().map(|t| quote(t)).collect();
        let at: Vec<Span> = p.targets.iter().map(|t| t.span).collect();
        o.line(1, format!("targets: [{}],", targets.join(", ")), &at);
    }
    if !p.lints.is_empty() {
        print_lints(&mut o, 1, &p.lints);
    }
    let list = |o: &mut Lines, key: &str, list: List, empty: bool| {
        let (open, close) =
            (marks.get(Of::Pipeline, Part::ListOpen(list)), marks.get(Of::Pipeline, Part::ListClose(list)));
        if empty {
            o.line(1, format!("{key}: [],"), &[open, close]);
        } else {
            o.line(1, format!("{key}: ["), &[open]);
        }
        close
    };
    if !p.push_constants.is_empty() {
        let close = list(&mut o, "push_constants", List::Ranges, false);
        for range in &p.push_constants {
            let text = format!(
                "(stages: {}, offset: {}, size: {}),",
                stages(&range.stages),
                range.offset.node,
                range.size.node
            );
            o.item(2, &range.doc, text, &[range.span]);
        }
        o.close(1, "],", &[close]);
    }
    let close = list(&mut o, "layouts", List::Layouts, p.layouts.is_empty());
    if !p.layouts.is_empty() {
        for layout in &p.layouts {
            print_layout(&mut o, layout, marks);
        }
        o.close(1, "],", &[close]);
    }
    if !p.kernels.is_empty() {
        let close = list(&mut o, "kernels", List::Kernels, false);
        for kernel in &p.kernels {
            print_kernel(&mut o, kernel, marks);
        }
        o.close(1, "],", &[close]);
    }
    if !p.shaders.is_empty() {
        let close = list(&mut o, "shaders", List::Shaders, false);
        for shader in &p.shaders {
            print_shader(&mut o, shader);
        }
        o.close(1, "],", &[close]);
    }
    o.close(0, ")", &[marks.get(Of::Pipeline, Part::Close)]);
    o
}

fn stages(list: &StageList) -> String {
    let names: Vec<&str> = list.items.iter().map(|s| names::STAGES.name(s.node, RON)).collect();
    format!("[{}]", names.join(", "))
}

fn print_layout(o: &mut Lines, spanned: &Spanned<Layout>, marks: &Marks) {
    let l = &spanned.node;
    let of = Of::Item(spanned.span);
    o.item(2, &l.doc, "(", &[marks.get(of, Part::Open)]);
    o.line(3, format!("name: {},", quote(&l.name)), &[l.name.span]);
    o.line(3, format!("stages: {},", stages(&l.stages)), &[l.stages.span]);
    if !l.lints.is_empty() {
        print_lints(o, 3, &l.lints);
    }
    if !l.flags.is_empty() {
        let flags: Vec<&str> = l.flags.iter().map(|f| names::FLAGS.name(f.node, RON)).collect();
        let at: Vec<Span> = l.flags.iter().map(|f| f.span).collect();
        o.line(3, format!("flags: [{}],", flags.join(", ")), &at);
    }
    o.line(3, format!("max_sequences: {},", l.max_sequences.node), &[l.max_sequences.span]);
    if l.glsl_layout.node != crate::ast::GlslLayout::default() {
        let text = format!("glsl_layout: {},", names::GLSL_LAYOUTS.name(l.glsl_layout.node, RON));
        o.line(3, text, &[l.glsl_layout.span]);
    }
    if let Some(stride) = &l.stride {
        o.line(3, format!("stride: Some({}),", stride.node), &[stride.span]);
    }
    if let Some(align) = &l.align {
        o.line(3, format!("align: Some({}),", align.node), &[align.span]);
    }
    let (open, close) = (marks.get(of, Part::ListOpen(List::Tokens)), marks.get(of, Part::ListClose(List::Tokens)));
    if l.tokens.is_empty() {
        o.line(3, "tokens: [],", &[open, close]);
    } else {
        o.line(3, "tokens: [", &[open]);
        for token in &l.tokens {
            print_token(o, token, marks);
        }
        o.close(3, "],", &[close]);
    }
    o.close(2, "),", &[marks.get(of, Part::Close)]);
}

/// `lints: [Allow("W0005"), Deny("W0011")],`, the pipeline's or a layout's.
fn print_lints(o: &mut Lines, depth: usize, lints: &[Lint]) {
    let text: Vec<String> =
        lints.iter().map(|l| format!("{}({})", names::LINT_LEVELS.name(l.level.node, RON), quote(&l.code))).collect();
    let at: Vec<Span> = lints.iter().flat_map(|l| [l.level.span, l.code.span]).collect();
    o.line(depth, format!("lints: [{}],", text.join(", ")), &at);
}

fn print_token(o: &mut Lines, spanned: &Spanned<Token>, marks: &Marks) {
    let t = &spanned.node;
    let mut params: Vec<String> = Vec::new();
    if let Some(name) = &t.name {
        params.push(format!("name: {}", quote(name)));
    }
    if let Some(at) = &t.at {
        params.push(format!("at: Some({})", at.node));
    }
    let mut fields: Option<&[crate::ast::Spanned<Field>]> = None;
    match &t.kind {
        TokenKind::ExecutionSet { kind, stages: list, max_entries, fallback } => {
            params.push(format!("kind: {}", names::EXECUTION_SET_KINDS.name(kind.node, RON)));
            params.push(format!("stages: {}", stages(list)));
            params.push(format!("max_entries: {}", max_entries.node));
            if let Some(f) = fallback {
                params.push(format!("fallback: {}", names::SET_FALLBACKS.name(f.node, RON)));
            }
        }
        TokenKind::PushConstant { stages: list, offset, data, space } => {
            if *space == PushSpace::Constants {
                params.push(format!("stages: {}", stages(list)));
            }
            params.push(format!("offset: {}", offset.node));
            match data {
                PushData::Size(size) => params.push(format!("size: {}", size.node)),
                PushData::Fields(fs) if fs.is_empty() => params.push("fields: []".into()),
                PushData::Fields(fs) => fields = Some(fs),
            }
        }
        TokenKind::SequenceIndex { stages: list, offset, space } => {
            if *space == PushSpace::Constants {
                params.push(format!("stages: {}", stages(list)));
            }
            params.push(format!("offset: {}", offset.node));
        }
        TokenKind::IndexBuffer { mode } => params.push(format!("mode: {}", names::INDEX_MODES.name(mode.node, RON))),
        TokenKind::VertexBuffer { binding } => params.push(format!("binding: {}", binding.node)),
        _ => {}
    }
    let kind = names::token_kinds::name(t.kind.token_type(), RON);
    let of = Of::Item(spanned.span);
    match fields {
        Some(fs) => {
            let open = marks.get(of, Part::Open);
            let head = if open == Span::default() { spanned.span } else { open };
            o.item(4, &t.doc, format!("{kind}({}, fields: [", params.join(", ")), &[head]);
            for f in fs {
                let text = format!("(name: {}, ty: {}),", quote(&f.name), field_type(&f.ty));
                o.item(5, &f.doc, text, &[f.span]);
            }
            o.close(4, "]),", &[marks.get(of, Part::Close)]);
        }
        None if params.is_empty() => o.item(4, &t.doc, format!("{kind},"), &[spanned.span]),
        None => o.item(4, &t.doc, format!("{kind}({}),", params.join(", ")), &[spanned.span]),
    }
}

fn field_type(ty: &FieldType) -> String {
    match ty {
        FieldType::Array(inner, len) => format!("Array({}, {len})", field_type(inner)),
        scalar => names::field_types::name(scalar, RON).unwrap_or_default().to_string(),
    }
}

fn print_kernel(o: &mut Lines, spanned: &Spanned<Kernel>, marks: &Marks) {
    let k = &spanned.node;
    let of = Of::Item(spanned.span);
    o.item(2, &k.doc, "(", &[marks.get(of, Part::Open)]);
    o.line(3, format!("name: {},", quote(&k.name)), &[k.name.span]);
    o.line(3, format!("source: {},", quote(&k.source)), &[k.source.span]);
    let [x, y, z] = k.local_size.node;
    o.line(3, format!("local_size: ({x}, {y}, {z}),"), &[k.local_size.span]);
    if k.subgroup.node != SubgroupReq::Any {
        o.line(3, format!("subgroup: {},", subgroup(k.subgroup.node)), &[k.subgroup.span]);
    }
    if let Some(writes) = &k.writes {
        o.line(3, format!("writes: Some({}),", quote(writes)), &[writes.span]);
    }
    o.close(2, "),", &[marks.get(of, Part::Close)]);
}

/// One shader on one line: `(stage: Vertex, source: "…", attributes: [(location: 0, binding: 0)]),`.
/// The line prints the whole shader, so a comment anywhere inside it ends that line (or goes
/// above it), as one inside a push-constant range or a token does.
fn print_shader(o: &mut Lines, spanned: &Spanned<Shader>) {
    let s = &spanned.node;
    let stage = names::STAGES.name(s.stage.node, RON);
    let mut text = format!("(stage: {stage}, source: {}", quote(&s.source));
    if !s.attributes.is_empty() {
        let attributes: Vec<String> = s
            .attributes
            .iter()
            .map(|a| format!("(location: {}, binding: {})", a.location.node, a.binding.node))
            .collect();
        text.push_str(&format!(", attributes: [{}]", attributes.join(", ")));
    }
    text.push_str("),");
    o.item(2, &s.doc, text, &[spanned.span]);
}

fn subgroup(req: SubgroupReq) -> String {
    match req {
        SubgroupReq::Any => "Any".into(),
        SubgroupReq::Varying => "Varying".into(),
        SubgroupReq::Full => "Full".into(),
        SubgroupReq::Required { size, full } => {
            let size = match size {
                SubgroupSize::Fixed(n) => format!("Fixed({n})"),
                SubgroupSize::Min => "Min".into(),
                SubgroupSize::Max => "Max".into(),
            };
            if full {
                format!("Required(size: {size}, full: true)")
            } else {
                format!("Required(size: {size})")
            }
        }
    }
}
