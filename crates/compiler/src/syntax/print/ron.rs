//! Canonical RON: the shape of contract.md §1.1, four-space indentation, trailing commas.
//!
//! Why hand-written and not `ron::ser`: the output carries doc comments, keeps short
//! structs (a field, a push-constant range, a token) on one line and omits defaults, none of
//! which a serializer does.

use super::{indent, quote};
use crate::ast::{
    Field, FieldType, Kernel, Layout, Pipeline, PushData, PushSpace, Shader, StageList, SubgroupReq, SubgroupSize,
    Token, TokenKind,
};
use crate::syntax::docs::write_doc;
use crate::syntax::names;
use crate::syntax::SyntaxKind::Ron as RON;

/// The pipeline as canonical RON.
pub fn print_ron(p: &Pipeline) -> String {
    let mut out = String::new();
    write_doc(&mut out, &p.doc, "");
    out.push_str("Pipeline(\n");
    let i1 = indent(1);
    out.push_str(&format!("{i1}name: {},\n", quote(&p.name)));
    if !p.targets_defaulted {
        let targets: Vec<String> = p.targets.iter().map(|t| quote(t)).collect();
        out.push_str(&format!("{i1}targets: [{}],\n", targets.join(", ")));
    }
    if !p.push_constants.is_empty() {
        out.push_str(&format!("{i1}push_constants: [\n"));
        for range in &p.push_constants {
            write_doc(&mut out, &range.doc, &indent(2));
            out.push_str(&format!(
                "{}(stages: {}, offset: {}, size: {}),\n",
                indent(2),
                stages(&range.stages),
                range.offset.node,
                range.size.node
            ));
        }
        out.push_str(&format!("{i1}],\n"));
    }
    if p.layouts.is_empty() {
        out.push_str(&format!("{i1}layouts: [],\n"));
    } else {
        out.push_str(&format!("{i1}layouts: [\n"));
        for layout in &p.layouts {
            print_layout(&mut out, layout);
        }
        out.push_str(&format!("{i1}],\n"));
    }
    if !p.kernels.is_empty() {
        out.push_str(&format!("{i1}kernels: [\n"));
        for kernel in &p.kernels {
            print_kernel(&mut out, kernel);
        }
        out.push_str(&format!("{i1}],\n"));
    }
    if !p.shaders.is_empty() {
        out.push_str(&format!("{i1}shaders: [\n"));
        for shader in &p.shaders {
            print_shader(&mut out, shader);
        }
        out.push_str(&format!("{i1}],\n"));
    }
    out.push_str(")\n");
    out
}

fn stages(list: &StageList) -> String {
    let names: Vec<&str> = list.items.iter().map(|s| names::STAGES.name(s.node, RON)).collect();
    format!("[{}]", names.join(", "))
}

fn print_layout(out: &mut String, l: &Layout) {
    let (i2, i3) = (indent(2), indent(3));
    write_doc(out, &l.doc, &i2);
    out.push_str(&format!("{i2}(\n"));
    out.push_str(&format!("{i3}name: {},\n", quote(&l.name)));
    out.push_str(&format!("{i3}stages: {},\n", stages(&l.stages)));
    if !l.flags.is_empty() {
        let flags: Vec<&str> = l.flags.iter().map(|f| names::FLAGS.name(f.node, RON)).collect();
        out.push_str(&format!("{i3}flags: [{}],\n", flags.join(", ")));
    }
    out.push_str(&format!("{i3}max_sequences: {},\n", l.max_sequences.node));
    if l.glsl_layout.node != crate::ast::GlslLayout::default() {
        out.push_str(&format!("{i3}glsl_layout: {},\n", names::GLSL_LAYOUTS.name(l.glsl_layout.node, RON)));
    }
    if let Some(stride) = &l.stride {
        out.push_str(&format!("{i3}stride: Some({}),\n", stride.node));
    }
    if let Some(align) = &l.align {
        out.push_str(&format!("{i3}align: Some({}),\n", align.node));
    }
    if l.tokens.is_empty() {
        out.push_str(&format!("{i3}tokens: [],\n"));
    } else {
        out.push_str(&format!("{i3}tokens: [\n"));
        for token in &l.tokens {
            print_token(out, token);
        }
        out.push_str(&format!("{i3}],\n"));
    }
    out.push_str(&format!("{i2}),\n"));
}

fn print_token(out: &mut String, t: &Token) {
    let i4 = indent(4);
    write_doc(out, &t.doc, &i4);
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
    out.push_str(&i4);
    out.push_str(kind);
    match fields {
        Some(fs) => {
            out.push_str(&format!("({}, fields: [\n", params.join(", ")));
            for f in fs {
                write_doc(out, &f.doc, &indent(5));
                out.push_str(&format!("{}(name: {}, ty: {}),\n", indent(5), quote(&f.name), field_type(&f.ty)));
            }
            out.push_str(&format!("{i4}]),\n"));
        }
        None if params.is_empty() => out.push_str(",\n"),
        None => out.push_str(&format!("({}),\n", params.join(", "))),
    }
}

fn field_type(ty: &FieldType) -> String {
    match ty {
        FieldType::Array(inner, len) => format!("Array({}, {len})", field_type(inner)),
        scalar => names::field_types::name(scalar, RON).unwrap_or_default().to_string(),
    }
}

fn print_kernel(out: &mut String, k: &Kernel) {
    let (i2, i3) = (indent(2), indent(3));
    write_doc(out, &k.doc, &i2);
    out.push_str(&format!("{i2}(\n"));
    out.push_str(&format!("{i3}name: {},\n", quote(&k.name)));
    out.push_str(&format!("{i3}source: {},\n", quote(&k.source)));
    let [x, y, z] = k.local_size.node;
    out.push_str(&format!("{i3}local_size: ({x}, {y}, {z}),\n"));
    if k.subgroup.node != SubgroupReq::Any {
        out.push_str(&format!("{i3}subgroup: {},\n", subgroup(k.subgroup.node)));
    }
    if let Some(writes) = &k.writes {
        out.push_str(&format!("{i3}writes: Some({}),\n", quote(writes)));
    }
    out.push_str(&format!("{i2}),\n"));
}

/// One shader on one line: `(stage: Vertex, source: "…", attributes: [(location: 0, binding: 0)]),`.
fn print_shader(out: &mut String, s: &Shader) {
    let i2 = indent(2);
    write_doc(out, &s.doc, &i2);
    let stage = names::STAGES.name(s.stage.node, RON);
    out.push_str(&format!("{i2}(stage: {stage}, source: {}", quote(&s.source)));
    if !s.attributes.is_empty() {
        let attributes: Vec<String> = s
            .attributes
            .iter()
            .map(|a| format!("(location: {}, binding: {})", a.location.node, a.binding.node))
            .collect();
        out.push_str(&format!(", attributes: [{}]", attributes.join(", ")));
    }
    out.push_str("),\n");
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
