//! Canonical `.dgc`: settings before tokens, one statement per line, blank lines between the
//! pipeline's items, names bare when they are identifiers and quoted otherwise.
//!
//! Why names are bare whenever possible: the grammar accepts any identifier as a name in
//! every position (where a name could be read as the next word, the named form is tried
//! first), so only names that are not identifiers need quotes.

use super::{indent, quote};
use crate::ast::{
    FieldType, Kernel, Layout, Pipeline, PushData, PushSpace, Shader, StageList, SubgroupReq, SubgroupSize, Token,
    TokenKind,
};
use crate::syntax::docs::write_doc;
use crate::syntax::names;
use crate::syntax::SyntaxKind::Dsl as DSL;

/// The pipeline as canonical `.dgc`.
pub fn print_dsl(p: &Pipeline) -> String {
    let mut out = String::new();
    write_doc(&mut out, &p.doc, "");
    out.push_str(&format!("pipeline {} {{\n", name(&p.name)));
    let mut sections: Vec<String> = Vec::new();
    if !p.targets_defaulted {
        let targets: Vec<String> = p.targets.iter().map(|t| name(t)).collect();
        sections.push(format!("{}targets {};\n", indent(1), targets.join(", ")));
    }
    if !p.push_constants.is_empty() {
        let mut s = String::new();
        for range in &p.push_constants {
            write_doc(&mut s, &range.doc, &indent(1));
            s.push_str(&format!(
                "{}push_constant {} offset {} size {};\n",
                indent(1),
                stages(&range.stages),
                range.offset.node,
                range.size.node
            ));
        }
        sections.push(s);
    }
    for layout in &p.layouts {
        sections.push(print_layout(layout));
    }
    for kernel in &p.kernels {
        sections.push(print_kernel(kernel));
    }
    for shader in &p.shaders {
        sections.push(print_shader(shader));
    }
    out.push_str(&sections.join("\n"));
    out.push_str("}\n");
    out
}

/// A name as written: bare if it is an identifier, quoted otherwise.
fn name(s: &str) -> String {
    let mut chars = s.chars();
    let ident = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        s.to_string()
    } else {
        quote(s)
    }
}

fn stages(list: &StageList) -> String {
    let names: Vec<&str> = list.items.iter().map(|s| names::STAGES.name(s.node, DSL)).collect();
    format!("[{}]", names.join(", "))
}

fn print_layout(l: &Layout) -> String {
    let (i1, i2) = (indent(1), indent(2));
    let mut out = String::new();
    write_doc(&mut out, &l.doc, &i1);
    out.push_str(&format!("{i1}layout {} {} {{\n", name(&l.name), stages(&l.stages)));
    if !l.flags.is_empty() {
        let flags: Vec<&str> = l.flags.iter().map(|f| names::FLAGS.name(f.node, DSL)).collect();
        out.push_str(&format!("{i2}flags {};\n", flags.join(", ")));
    }
    out.push_str(&format!("{i2}max_sequences {};\n", l.max_sequences.node));
    if l.glsl_layout.node != crate::ast::GlslLayout::default() {
        out.push_str(&format!("{i2}glsl_layout {};\n", names::GLSL_LAYOUTS.name(l.glsl_layout.node, DSL)));
    }
    if let Some(stride) = &l.stride {
        out.push_str(&format!("{i2}stride {};\n", stride.node));
    }
    if let Some(align) = &l.align {
        out.push_str(&format!("{i2}align {};\n", align.node));
    }
    if !l.tokens.is_empty() {
        out.push('\n');
    }
    for token in &l.tokens {
        print_token(&mut out, token);
    }
    out.push_str(&format!("{i1}}}\n"));
    out
}

fn print_token(out: &mut String, t: &Token) {
    let i2 = indent(2);
    write_doc(out, &t.doc, &i2);
    let mut line = names::token_kinds::name(t.kind.token_type(), DSL).to_string();
    if let Some(n) = &t.name {
        line.push(' ');
        line.push_str(&name(n));
    }
    let pin = t.at.as_ref().map(|a| format!(" @ {}", a.node)).unwrap_or_default();
    match &t.kind {
        TokenKind::ExecutionSet { kind, stages: list, max_entries, fallback } => {
            line.push_str(&format!(
                " {} {} max_entries {}",
                names::EXECUTION_SET_KINDS.name(kind.node, DSL),
                stages(list),
                max_entries.node
            ));
            if let Some(f) = fallback {
                line.push_str(&format!(" fallback {}", names::SET_FALLBACKS.name(f.node, DSL)));
            }
        }
        TokenKind::PushConstant { stages: list, offset, data, space } => {
            if *space == PushSpace::Constants {
                line.push_str(&format!(" {}", stages(list)));
            }
            line.push_str(&format!(" offset {}", offset.node));
            if let PushData::Fields(fields) = data {
                out.push_str(&format!("{i2}{line}{pin} {{\n"));
                for f in fields {
                    write_doc(out, &f.doc, &indent(3));
                    out.push_str(&format!("{}{}: {};\n", indent(3), name(&f.name), field_type(&f.ty)));
                }
                out.push_str(&format!("{i2}}}\n"));
                return;
            }
            if let PushData::Size(size) = data {
                line.push_str(&format!(" size {}", size.node));
            }
        }
        TokenKind::SequenceIndex { stages: list, offset, space } => {
            if *space == PushSpace::Constants {
                line.push_str(&format!(" {}", stages(list)));
            }
            line.push_str(&format!(" offset {}", offset.node))
        }
        TokenKind::IndexBuffer { mode } => {
            line.push(' ');
            line.push_str(names::INDEX_MODES.name(mode.node, DSL));
        }
        TokenKind::VertexBuffer { binding } => line.push_str(&format!(" binding {}", binding.node)),
        _ => {}
    }
    out.push_str(&format!("{i2}{line}{pin};\n"));
}

/// `f32[4][3]` for `Array(Array(F32, 3), 4)`.
fn field_type(ty: &FieldType) -> String {
    let mut dims = String::new();
    let mut base = ty;
    while let FieldType::Array(inner, len) = base {
        dims.push_str(&format!("[{len}]"));
        base = inner;
    }
    let scalar = names::field_types::name(base, DSL).unwrap_or("?");
    format!("{scalar}{dims}")
}

fn print_kernel(k: &Kernel) -> String {
    let (i1, i2) = (indent(1), indent(2));
    let mut out = String::new();
    write_doc(&mut out, &k.doc, &i1);
    let [x, y, z] = k.local_size.node;
    out.push_str(&format!("{i1}kernel {} {} local_size({x}, {y}, {z})", name(&k.name), quote(&k.source)));
    let mut body = String::new();
    if k.subgroup.node != SubgroupReq::Any {
        body.push_str(&format!("{i2}subgroup {};\n", subgroup(k.subgroup.node)));
    }
    if let Some(writes) = &k.writes {
        body.push_str(&format!("{i2}writes {};\n", name(writes)));
    }
    if body.is_empty() {
        out.push_str(";\n");
    } else {
        out.push_str(&format!(" {{\n{body}{i1}}}\n"));
    }
    out
}

fn print_shader(s: &Shader) -> String {
    let (i1, i2) = (indent(1), indent(2));
    let mut out = String::new();
    write_doc(&mut out, &s.doc, &i1);
    out.push_str(&format!("{i1}shader {} {}", names::STAGES.name(s.stage.node, DSL), quote(&s.source)));
    if s.attributes.is_empty() {
        out.push_str(";\n");
        return out;
    }
    out.push_str(" {\n");
    for a in &s.attributes {
        out.push_str(&format!("{i2}attribute location {} binding {};\n", a.location.node, a.binding.node));
    }
    out.push_str(&format!("{i1}}}\n"));
    out
}

fn subgroup(req: SubgroupReq) -> String {
    match req {
        SubgroupReq::Any => "any".into(),
        SubgroupReq::Varying => "varying".into(),
        SubgroupReq::Full => "full".into(),
        SubgroupReq::Required { size, full } => {
            let size = match size {
                SubgroupSize::Fixed(n) => n.to_string(),
                SubgroupSize::Min => "min".into(),
                SubgroupSize::Max => "max".into(),
            };
            format!("required {size}{}", if full { " full" } else { "" })
        }
    }
}
