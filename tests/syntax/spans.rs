//! Spans: for representative nodes, the text under the span is exactly the text the user
//! wrote for that node, in both syntaxes.

use dgcc::ast::{Pipeline, PushData, TokenKind};
use dgcc::span::Span;
use dgcc::syntax::SyntaxKind;

use crate::{fixture_of, parse_ok};

type Get = fn(&Pipeline) -> Span;

fn fields(p: &Pipeline) -> &[dgcc::ast::Spanned<dgcc::ast::Field>] {
    match &p.layouts[0].tokens[0].kind {
        TokenKind::PushConstant { data: PushData::Fields(f), .. } => f,
        other => panic!("{other:?}"),
    }
}

/// (node, how to find its span, text in scene.ron, text in scene.dgc).
const SCENE: &[(&str, Get, &str, &str)] = &[
    ("pipeline name", |p| p.name.span, "\"scene\"", "scene"),
    ("second target", |p| p.targets[1].span, "\"nvidia\"", "nvidia"),
    (
        "push-constant range",
        |p| p.push_constants[0].span,
        "(stages: [Vertex, Fragment], offset: 0, size: 16)",
        "push_constant [vertex, fragment] offset 0 size 16;",
    ),
    ("range stages", |p| p.push_constants[0].stages.span, "[Vertex, Fragment]", "[vertex, fragment]"),
    ("one stage", |p| p.push_constants[0].stages.items[1].span, "Fragment", "fragment"),
    ("range size", |p| p.push_constants[0].size.span, "16", "16"),
    ("layout name", |p| p.layouts[0].name.span, "\"SceneDraw\"", "SceneDraw"),
    ("flag", |p| p.layouts[0].flags[0].span, "UnorderedSequences", "unordered_sequences"),
    ("max_sequences", |p| p.layouts[0].max_sequences.span, "65536", "65_536"),
    ("glsl_layout", |p| p.layouts[0].glsl_layout.span, "Std430", "std430"),
    ("token kind", |p| p.layouts[0].tokens[0].kind_span, "PushConstant", "push_constant"),
    ("token name", |p| p.layouts[0].tokens[0].name.as_ref().unwrap().span, "\"object\"", "object"),
    ("field", |p| fields(p)[1].span, "(name: \"material_id\", ty: U32)", "material_id: u32;"),
    ("field name", |p| fields(p)[1].name.span, "\"material_id\"", "material_id"),
    ("field type", |p| fields(p)[1].ty.span, "U32", "u32"),
    (
        "index mode",
        |p| match &p.layouts[0].tokens[1].kind {
            TokenKind::IndexBuffer { mode } => mode.span,
            _ => Span::default(),
        },
        "Vulkan",
        "vulkan",
    ),
    ("whole token", |p| p.layouts[0].tokens[2].span, "DrawIndexed(name: \"draw\")", "draw_indexed draw;"),
    ("kernel source", |p| p.kernels[0].source.span, "\"shaders/cull.comp\"", "\"shaders/cull.comp\""),
    ("local_size", |p| p.kernels[0].local_size.span, "(256, 1, 1)", "(256, 1, 1)"),
    ("subgroup", |p| p.kernels[0].subgroup.span, "Required(size: Fixed(32), full: true)", "required 32 full"),
    ("writes", |p| p.kernels[0].writes.as_ref().unwrap().span, "\"SceneDraw\"", "SceneDraw"),
];

/// The same for all_kinds: options, pins, arrays, execution sets.
const ALL_KINDS: &[(&str, Get, &str, &str)] = &[
    ("stride inside Some", |p| p.layouts[0].stride.as_ref().unwrap().span, "256", "256"),
    ("a layout's lint code", |p| p.layouts[0].lints[0].code.span, "\"W0005\"", "W0005"),
    ("a layout's lint level", |p| p.layouts[0].lints[0].level.span, "Warn", "warn"),
    ("align inside Some", |p| p.layouts[0].align.as_ref().unwrap().span, "16", "16"),
    ("pinned offset", |p| p.layouts[0].tokens[1].at.as_ref().unwrap().span, "4", "4"),
    (
        "execution set kind",
        |p| match &p.layouts[0].tokens[0].kind {
            TokenKind::ExecutionSet { kind, .. } => kind.span,
            _ => Span::default(),
        },
        "Pipelines",
        "pipelines",
    ),
    (
        "array type",
        |p| match &p.layouts[0].tokens[1].kind {
            TokenKind::PushConstant { data: PushData::Fields(f), .. } => f[16].ty.span,
            _ => Span::default(),
        },
        "Array(Array(Vec4, 3), 2)",
        "vec4[2][3]",
    ),
    (
        "quoted field name",
        |p| match &p.layouts[0].tokens[1].kind {
            TokenKind::PushConstant { data: PushData::Fields(f), .. } => f[17].name.span,
            _ => Span::default(),
        },
        "\"with space\"",
        "\"with space\"",
    ),
    ("empty stage list", |p| p.layouts[10].stages.span, "[]", "[]"),
    ("unit token", |p| p.layouts[0].tokens[7].span, "Draw", "draw;"),
];

fn check(fixture: &str, table: &[(&str, Get, &str, &str)]) {
    for kind in crate::BOTH {
        let source = fixture_of(fixture, kind);
        let p = parse_ok(&source, kind);
        for (node, get, ron, dsl) in table {
            let expected = if kind == SyntaxKind::Ron { ron } else { dsl };
            let span = get(&p);
            assert_eq!(&source[span.range()], *expected, "{fixture}.{}: span of the {node}", kind.extension());
        }
    }
}

#[test]
fn spans_cover_exactly_the_written_text() {
    check("scene", SCENE);
    check("all_kinds", ALL_KINDS);
}

#[test]
fn spans_are_byte_offsets_after_non_ascii_text() {
    let ron = "// Ünïcödé ✓\nPipeline(name: \"ß→\", layouts: [(name: \"Ω\", stages: [Vertex], max_sequences: 7, tokens: [])])";
    let p = parse_ok(ron, SyntaxKind::Ron);
    assert_eq!(&ron[p.name.span.range()], "\"ß→\"");
    assert_eq!(&ron[p.layouts[0].max_sequences.span.range()], "7");
    let dsl = "// Ünïcödé ✓\npipeline \"ß→\" { layout \"Ω\" [vertex] { max_sequences 7; } }";
    let p = parse_ok(dsl, SyntaxKind::Dsl);
    assert_eq!(&dsl[p.layouts[0].name.span.range()], "\"Ω\"");
    assert_eq!(&dsl[p.layouts[0].max_sequences.span.range()], "7");
}

#[test]
fn a_byte_order_mark_is_read_as_whitespace_and_spans_stay_right() {
    for kind in crate::BOTH {
        let plain = fixture_of("scene", kind);
        let source = format!("\u{feff}{plain}");
        let p = parse_ok(&source, kind);
        assert_eq!(p, parse_ok(&plain, kind), "{kind:?}: the same pipeline, doc comment included");
        for (node, get, ron, dsl) in SCENE {
            let expected = if kind == SyntaxKind::Ron { ron } else { dsl };
            assert_eq!(&source[get(&p).range()], *expected, "{kind:?}: span of the {node} after a BOM");
        }
    }
}
