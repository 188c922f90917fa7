//! Canonical `.dgc`: settings before tokens, one statement per line, blank lines between the
//! pipeline's items, names bare when they are identifiers and quoted otherwise.
//!
//! Why names are bare whenever possible: the grammar accepts any identifier as a name in
//! every position (where a name could be read as the next word, the named form is tried
//! first), so only names that are not identifiers need quotes.

use super::quote;
use super::weave::{weave, Lines};
use crate::ast::{
    FieldType, Kernel, Layout, Lint, Pipeline, PushData, PushSpace, Shader, Spanned, StageList, SubgroupReq,
    SubgroupSize, Token, TokenKind,
};
use crate::syntax::comments::{Marks, Of, Part};
use crate::syntax::names;
use crate::syntax::SyntaxKind::Dsl as DSL;
use dgcc_core::span::Span;

/// The pipeline as canonical `.dgc`.
pub fn print_dsl(p: &Pipeline) -> String {
    weave(&lines(p, &Marks::default()), None, DSL)
}

/// The lines of canonical `.dgc`, each with the source spans it prints.
pub(crate) fn lines(p: &Pipeline, marks: &Marks) -> Lines {
    let mut o = Lines::default();
    o.item(0, &p.doc, format!("pipeline {} {{", name(&p.name)), &[marks.get(Of::Pipeline, Part::Open), p.name.span]);
    // Sections are separated by one blank line.
    let mut first = true;
    let mut section = |o: &mut Lines| {
        if !std::mem::take(&mut first) {
            o.blank();
        }
    };
    if !p.targets_defaulted {
        section(&mut o);
        let targets: Vec<String> = p.targets.iter().map(|t| name(t)).collect();
        let at: Vec<Span> = p.targets.iter().map(|t| t.span).collect();
        o.line(1, format!("targets {};", targets.join(", ")), &at);
    }
    if !p.lints.is_empty() {
        if p.targets_defaulted {
            section(&mut o);
        }
        print_lints(&mut o, 1, &p.lints);
    }
    if !p.push_constants.is_empty() {
        section(&mut o);
        for range in &p.push_constants {
            let text = format!(
                "push_constant {} offset {} size {};",
                stages(&range.stages),
                range.offset.node,
                range.size.node
            );
            o.item(1, &range.doc, text, &[range.span]);
        }
    }
    for layout in &p.layouts {
        section(&mut o);
        print_layout(&mut o, layout, marks);
    }
    for kernel in &p.kernels {
        section(&mut o);
        print_kernel(&mut o, kernel, marks);
    }
    for shader in &p.shaders {
        section(&mut o);
        print_shader(&mut o, shader, marks);
    }
    o.close(0, "}", &[marks.get(Of::Pipeline, Part::Close)]);
    o
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

fn print_layout(o: &mut Lines, spanned: &Spanned<Layout>, marks: &Marks) {
    let l = &spanned.node;
    let of = Of::Item(spanned.span);
    let head = format!("layout {} {} {{", name(&l.name), stages(&l.stages));
    o.item(1, &l.doc, head, &[marks.get(of, Part::Open), l.name.span, l.stages.span]);
    if !l.lints.is_empty() {
        print_lints(o, 2, &l.lints);
    }
    if !l.flags.is_empty() {
        let flags: Vec<&str> = l.flags.iter().map(|f| names::FLAGS.name(f.node, DSL)).collect();
        let at: Vec<Span> = l.flags.iter().map(|f| f.span).collect();
        o.line(2, format!("flags {};", flags.join(", ")), &at);
    }
    o.line(2, format!("max_sequences {};", l.max_sequences.node), &[l.max_sequences.span]);
    if l.glsl_layout.node != crate::ast::GlslLayout::default() {
        let text = format!("glsl_layout {};", names::GLSL_LAYOUTS.name(l.glsl_layout.node, DSL));
        o.line(2, text, &[l.glsl_layout.span]);
    }
    if let Some(stride) = &l.stride {
        o.line(2, format!("stride {};", stride.node), &[stride.span]);
    }
    if let Some(align) = &l.align {
        o.line(2, format!("align {};", align.node), &[align.span]);
    }
    if !l.tokens.is_empty() {
        o.blank();
    }
    for token in &l.tokens {
        print_token(o, token, marks);
    }
    o.close(1, "}", &[marks.get(of, Part::Close)]);
}

/// `lints allow W0005, deny W0011;`, the pipeline's or a layout's.
fn print_lints(o: &mut Lines, depth: usize, lints: &[Lint]) {
    let text: Vec<String> =
        lints.iter().map(|l| format!("{} {}", names::LINT_LEVELS.name(l.level.node, DSL), l.code.node)).collect();
    let at: Vec<Span> = lints.iter().flat_map(|l| [l.level.span, l.code.span]).collect();
    o.line(depth, format!("lints {};", text.join(", ")), &at);
}

fn print_token(o: &mut Lines, spanned: &Spanned<Token>, marks: &Marks) {
    let t = &spanned.node;
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
                let of = Of::Item(spanned.span);
                let open = marks.get(of, Part::Open);
                let head = if open == Span::default() { spanned.span } else { open };
                o.item(2, &t.doc, format!("{line}{pin} {{"), &[head]);
                for f in fields {
                    let text = format!("{}: {};", name(&f.name), field_type(&f.ty));
                    o.item(3, &f.doc, text, &[f.span]);
                }
                o.close(2, "}", &[marks.get(of, Part::Close)]);
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
    o.item(2, &t.doc, format!("{line}{pin};"), &[spanned.span]);
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

fn print_kernel(o: &mut Lines, spanned: &Spanned<Kernel>, marks: &Marks) {
    let k = &spanned.node;
    let of = Of::Item(spanned.span);
    let [x, y, z] = k.local_size.node;
    let head = format!("kernel {} {} local_size({x}, {y}, {z})", name(&k.name), quote(&k.source));
    let (open, close) = (marks.get(of, Part::Open), marks.get(of, Part::Close));
    let mut at = vec![open, k.name.span, k.source.span, k.local_size.span];
    let mut body: Vec<(String, Span)> = Vec::new();
    if k.subgroup.node != SubgroupReq::Any {
        body.push((format!("subgroup {};", subgroup(k.subgroup.node)), k.subgroup.span));
    }
    if let Some(writes) = &k.writes {
        body.push((format!("writes {};", name(writes)), writes.span));
    }
    if body.is_empty() {
        at.push(close);
        o.item(1, &k.doc, format!("{head};"), &at);
        return;
    }
    o.item(1, &k.doc, format!("{head} {{"), &at);
    for (text, span) in body {
        o.line(2, text, &[span]);
    }
    o.close(1, "}", &[close]);
}

/// `shader STAGE "source";`, or with a block of its attributes, one a line (as a kernel with
/// settings).
fn print_shader(o: &mut Lines, spanned: &Spanned<Shader>, marks: &Marks) {
    let s = &spanned.node;
    let of = Of::Item(spanned.span);
    let head = format!("shader {} {}", names::STAGES.name(s.stage.node, DSL), quote(&s.source));
    let (open, close) = (marks.get(of, Part::Open), marks.get(of, Part::Close));
    let mut at = vec![open, s.stage.span, s.source.span];
    if s.attributes.is_empty() {
        at.push(close);
        o.item(1, &s.doc, format!("{head};"), &at);
        return;
    }
    o.item(1, &s.doc, format!("{head} {{"), &at);
    for a in &s.attributes {
        o.line(2, format!("attribute location {} binding {};", a.location.node, a.binding.node), &[a.span]);
    }
    o.close(1, "}", &[close]);
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
