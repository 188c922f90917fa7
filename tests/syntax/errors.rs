//! Error cases: every code of the front ends, in the syntaxes where it can happen, with the
//! expected code and the exact underlined text; the full rendering (message, position,
//! labels, notes) is an insta snapshot.

use dgcc::syntax::{self, SyntaxKind};

use crate::render_all;

const R: SyntaxKind = SyntaxKind::Ron;
const D: SyntaxKind = SyntaxKind::Dsl;

/// A RON pipeline with one layout whose body is `layout` and the given extra pipeline fields.
fn ron_layout(layout: &str) -> String {
    format!("Pipeline(\n    name: \"p\",\n    layouts: [\n        ({layout}),\n    ],\n)\n")
}

fn ron_tokens(tokens: &str) -> String {
    ron_layout(&format!("name: \"L\", stages: [Vertex], max_sequences: 4, tokens: [{tokens}]"))
}

fn dsl_items(items: &str) -> String {
    format!("pipeline p {{\n    layout L [vertex] {{\n        max_sequences 4;\n        {items}\n    }}\n}}\n")
}

/// (case, syntax, source, code of the first diagnostic, text under its primary label).
fn cases() -> Vec<(&'static str, SyntaxKind, String, &'static str, &'static str)> {
    vec![
        ("ron syntax: missing comma", R, ron_tokens("Draw Dispatch"), "E0001", "D"),
        ("ron syntax: unclosed", R, "Pipeline(name: \"p\", layouts: [".into(), "E0001", ""),
        (
            "ron syntax: after non-ASCII text",
            R,
            "// Ünïcödé ✓\nPipeline(name: \"ß→\" layouts: [])".into(),
            "E0001",
            "l",
        ),
        (
            "ron syntax: extensions",
            R,
            "#![enable(implicit_some)]\nPipeline(name: \"p\", layouts: [])".into(),
            "E0001",
            "#![enable(implicit_some)]",
        ),
        ("dsl syntax: missing semicolon", D, dsl_items("draw"), "E0001", "}"),
        ("dsl syntax: pin without number", D, dsl_items("dispatch @ ;"), "E0001", ";"),
        ("dsl syntax: bad escape", D, "pipeline \"a\\qb\" { }".into(), "E0001", "\\q"),
        (
            "ron unknown field",
            R,
            ron_layout("name: \"L\", stages: [Vertex], max_sequences: 4, strid: Some(48), tokens: []"),
            "E0002",
            "strid",
        ),
        ("ron parameter of another kind", R, ron_tokens("Draw(mode: Vulkan)"), "E0002", "mode"),
        ("dsl unknown setting", D, dsl_items("strid 48;"), "E0002", "strid"),
        (
            "dsl unknown kernel setting",
            D,
            "pipeline p { kernel k \"k.comp\" local_size(1, 1, 1) { subgrup any; } }".into(),
            "E0002",
            "subgrup",
        ),
        (
            "dsl unknown pipeline item",
            D,
            "pipeline p { layuot L [vertex] { max_sequences 1; } }".into(),
            "E0002",
            "layuot",
        ),
        ("ron missing field", R, ron_layout("name: \"L\", stages: [Vertex], tokens: []"), "E0003", "("),
        ("ron missing token parameter", R, ron_tokens("IndexBuffer(name: \"i\")"), "E0003", "IndexBuffer"),
        ("dsl missing max_sequences", D, "pipeline p { layout L [vertex] { draw; } }".into(), "E0003", "layout L"),
        (
            "ron duplicate field",
            R,
            ron_layout("name: \"L\", stages: [Vertex], max_sequences: 4, max_sequences: 8, tokens: []"),
            "E0004",
            "max_sequences",
        ),
        ("dsl duplicate setting", D, dsl_items("stride 16;\n        stride 32;"), "E0004", "stride"),
        ("ron unknown token kind", R, ron_tokens("Dispach"), "E0005", "Dispach"),
        ("dsl unknown token kind", D, dsl_items("dispach;"), "E0005", "dispach"),
        (
            "ron unknown stage",
            R,
            ron_layout("name: \"L\", stages: [Vertx], max_sequences: 4, tokens: []"),
            "E0006",
            "Vertx",
        ),
        (
            "dsl unknown stage",
            D,
            "pipeline p { layout L [vertex, fragmnet] { max_sequences 1; } }".into(),
            "E0006",
            "fragmnet",
        ),
        (
            "ron unknown field type",
            R,
            ron_tokens("PushConstant(stages: [Vertex], offset: 0, fields: [(name: \"x\", ty: Float)])"),
            "E0007",
            "Float",
        ),
        ("dsl unknown field type", D, dsl_items("push_constant [vertex] offset 0 { x: float; }"), "E0007", "float"),
        (
            "dsl unknown field type, no suggestion",
            D,
            dsl_items("push_constant [vertex] offset 0 { x: quaternion; }"),
            "E0007",
            "quaternion",
        ),
        ("ron unknown index mode", R, ron_tokens("IndexBuffer(mode: Uint16)"), "E0008", "Uint16"),
        ("dsl unknown flag", D, dsl_items("flags unordered;"), "E0008", "unordered"),
        (
            "dsl unknown subgroup form",
            D,
            "pipeline p { kernel k \"k.comp\" local_size(1, 1, 1) { subgroup fixed; } }".into(),
            "E0008",
            "fixed",
        ),
        (
            "dsl subgroup without size",
            D,
            "pipeline p { kernel k \"k.comp\" local_size(1, 1, 1) { subgroup required; } }".into(),
            "E0003",
            "required",
        ),
        (
            "ron stride without Some",
            R,
            ron_layout("name: \"L\", stages: [Vertex], max_sequences: 4, stride: 48, tokens: []"),
            "E0009",
            "48",
        ),
        (
            "ron string for a number",
            R,
            ron_layout("name: \"L\", stages: [Vertex], max_sequences: \"4\", tokens: []"),
            "E0009",
            "\"4\"",
        ),
        (
            "ron quoted stage",
            R,
            ron_layout("name: \"L\", stages: [\"Vertex\"], max_sequences: 4, tokens: []"),
            "E0009",
            "\"Vertex\"",
        ),
        (
            "ron two-component local_size",
            R,
            "Pipeline(name: \"p\", layouts: [], kernels: [(name: \"k\", source: \"k.comp\", local_size: (64, 1))])"
                .into(),
            "E0009",
            "(64, 1)",
        ),
        ("ron wrong top-level struct", R, "Pipelin(name: \"p\", layouts: [])".into(), "E0009", "Pipelin"),
        (
            "ron number too large",
            R,
            ron_layout("name: \"L\", stages: [Vertex], max_sequences: 4294967296, tokens: []"),
            "E0010",
            "4294967296",
        ),
        ("ron negative number", R, ron_tokens("VertexBuffer(binding: -1)"), "E0010", "-1"),
        (
            "dsl number too large",
            D,
            dsl_items("stride 99999999999999999999999999;"),
            "E0010",
            "99999999999999999999999999",
        ),
        (
            "ron push constant with both",
            R,
            ron_tokens("PushConstant(stages: [Vertex], offset: 0, size: 4, fields: [])"),
            "E0011",
            "4",
        ),
        (
            "ron push constant with neither",
            R,
            ron_tokens("PushConstant(stages: [Vertex], offset: 0)"),
            "E0011",
            "PushConstant",
        ),
        ("ron nesting too deep", R, format!("Pipeline(name: \"p\", layouts: {}", "[".repeat(70)), "E0013", "["),
        ("dsl nesting too deep", D, format!("pipeline p {{ layout L [vertex] {{ {}", "{".repeat(70)), "E0013", "{"),
        (
            "ron too many array dimensions",
            R,
            ron_tokens(&format!(
                "PushConstant(stages: [Vertex], offset: 0, fields: [(name: \"x\", ty: {}U32{})])",
                "Array(".repeat(9),
                ", 1)".repeat(9)
            )),
            "E0013",
            "Array(U32, 1)",
        ),
        (
            "dsl too many array dimensions",
            D,
            dsl_items("push_constant [vertex] offset 0 { x: u32[1][1][1][1][1][1][1][1][2]; }"),
            "E0013",
            "[2]",
        ),
        (
            "ron attributes of a fragment shader",
            R,
            ron_shaders("(stage: Fragment, source: \"f.frag\", attributes: [(location: 0, binding: 0)])"),
            "E0002",
            "attributes",
        ),
        (
            "dsl attributes of a fragment shader",
            D,
            "pipeline p { shader fragment \"f.frag\" { attribute location 0 binding 0; } }".into(),
            "E0002",
            "attribute",
        ),
        ("ron unknown shader stage", R, ron_shaders("(stage: Vertx, source: \"v.vert\")"), "E0006", "Vertx"),
        ("dsl unknown shader stage", D, "pipeline p { shader vertx \"v.vert\"; }".into(), "E0006", "vertx"),
        ("ron unknown shader field", R, ron_shaders("(stage: Vertex, sources: \"v.vert\")"), "E0002", "sources"),
        (
            "dsl unknown shader setting",
            D,
            "pipeline p { shader vertex \"v.vert\" { atribute location 0 binding 0; } }".into(),
            "E0002",
            "atribute",
        ),
        (
            "ron attribute without a binding",
            R,
            ron_shaders("(stage: Vertex, source: \"v.vert\", attributes: [(location: 0)])"),
            "E0003",
            "(",
        ),
    ]
}

/// A RON pipeline without layouts whose `shaders` are `shaders`.
fn ron_shaders(shaders: &str) -> String {
    format!("Pipeline(name: \"p\", layouts: [], shaders: [{shaders}])")
}

#[test]
fn each_error_has_its_code_and_underlines_the_right_text() {
    let mut snapshot = String::new();
    for (case, kind, source, code, underlined) in cases() {
        let diags = match syntax::parse(&source, kind) {
            Ok(p) => panic!("{case}: parsed, but should fail: {p:?}"),
            Err(diags) => diags,
        };
        let first = &diags[0];
        let span = first.primary_span().unwrap_or_else(|| panic!("{case}: no primary label"));
        let rendered = render_all(&source, &diags);
        assert_eq!((first.code, &source[span.range()]), (code, underlined), "{case}:\n{rendered}");
        assert!(diags.iter().all(|d| d.is_error()), "{case}");
        snapshot.push_str(&format!("--- {case} ({})\n{rendered}\n", kind.extension()));
    }
    insta::assert_snapshot!("errors", snapshot);
}

#[test]
fn one_run_reports_every_problem() {
    let ron = "Pipeline(
    name: \"p\",
    layouts: [
        (name: \"A\", stages: [Vertx], max_sequences: 4, tokens: [Dispach, Draw(at: Some(-4))]),
        (name: \"B\", stages: [Vertex], tokens: [IndexBuffer(mode: Vulkan, bogus: 1)]),
    ],
    kernels: [(name: \"k\", source: \"k.comp\", local_size: (1, 1, 1), subgroup: Sometimes)],
)";
    let dsl = "pipeline p {
    layout A [vertx] { max_sequences 4; dispach; draw @ -4; }
    layout B [vertex] { index_buffer vulkan; strid 1; }
    kernel k \"k.comp\" local_size(1, 1, 1) { subgroup sometimes; }
}";
    for (kind, source) in [(R, ron), (D, dsl)] {
        let diags = syntax::parse(source, kind).unwrap_err();
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            ["E0002", "E0003", "E0005", "E0006", "E0008", "E0010"],
            "{kind:?}: {}",
            render_all(source, &diags)
        );
    }
}

#[test]
fn a_misspelt_required_field_is_reported_once() {
    let source = ron_layout("name: \"L\", stages: [Vertex], max_sequnces: 4, tokens: []");
    let diags = syntax::parse(&source, R).unwrap_err();
    assert_eq!(diags.len(), 1, "{}", render_all(&source, &diags));
    assert_eq!(diags[0].code, "E0002");
    assert!(diags[0].notes[0].contains("did you mean `max_sequences`"));
}

#[test]
fn not_utf8_is_reported_with_the_offset_of_the_first_bad_byte() {
    let mut bytes = crate::fixture("scene.ron").into_bytes();
    bytes[100] = 0xFF;
    let diag = syntax::decode(&bytes).unwrap_err();
    assert_eq!(diag.code, "E0018");
    assert_eq!(diag.primary_span().map(|s| s.start), Some(100));
    assert!(diag.message.contains("byte offset 100"), "{}", diag.message);
}
