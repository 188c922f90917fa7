//! Every row of the core's token table, through every syntax, printer and emitter.
//!
//! Why here: the token vocabulary used to be written four times and kept in step by a test of
//! the copies; now there is one table, and this test shows that each reader takes its names
//! from it: for each token type, a RON and a `.dgc` description using it (with the companions
//! it needs to be valid) parse to that type, print back with the table's names, and the
//! manifest, Rust, C and GLSL name it as its row says.

use crate::emit::{self, Output};
use crate::layout;
use crate::syntax::{self, SyntaxKind};
use dgcc_core::ir::{Manifest, SCHEMA_VERSION};
use dgcc_core::tokens::{TokenClass, TokenType, TOKENS};

/// The layout's stages and the action that follows the token under test (none for an action),
/// as RON and `.dgc` write them.
fn companions(tt: TokenType) -> ([&'static str; 2], [&'static str; 2]) {
    let compute = ["Compute", "compute"];
    let graphics = ["Vertex, Fragment", "vertex, fragment"];
    match tt.class() {
        _ if tt == TokenType::IndexBuffer => (graphics, ["DrawIndexed", "draw_indexed"]),
        _ if tt == TokenType::VertexBuffer => (graphics, ["Draw", "draw"]),
        TokenClass::State => (compute, ["Dispatch", "dispatch"]),
        TokenClass::Draw { .. } => (graphics, ["", ""]),
        TokenClass::Mesh => (["Task, Mesh, Fragment", "task, mesh, fragment"], ["", ""]),
        TokenClass::Dispatch => (compute, ["", ""]),
        TokenClass::Rays => (["RayGen, Miss", "ray_gen, miss"], ["", ""]),
    }
}

/// The token under test as each syntax writes it, parameters included.
fn written(tt: TokenType, stages: [&str; 2]) -> [String; 2] {
    let (ron, dgc) = (tt.ron_name(), tt.dgc_name());
    match tt {
        TokenType::ExecutionSet => [
            format!("{ron}(kind: Pipelines, stages: [{}], max_entries: 4)", stages[0]),
            format!("{dgc} pipelines [{}] max_entries 4", stages[1]),
        ],
        TokenType::PushConstant => [
            format!("{ron}(stages: [{}], offset: 0, size: 4)", stages[0]),
            format!("{dgc} [{}] offset 0 size 4", stages[1]),
        ],
        TokenType::SequenceIndex => {
            [format!("{ron}(stages: [{}], offset: 0)", stages[0]), format!("{dgc} [{}] offset 0", stages[1])]
        }
        // Push data has no stages: every stage reads it.
        TokenType::PushData => [format!("{ron}(offset: 0, size: 4)"), format!("{dgc} offset 0 size 4")],
        TokenType::PushDataSequenceIndex => [format!("{ron}(offset: 0)"), format!("{dgc} offset 0")],
        TokenType::IndexBuffer => [format!("{ron}(mode: Vulkan)"), format!("{dgc} vulkan")],
        TokenType::VertexBuffer => [format!("{ron}(binding: 0)"), format!("{dgc} binding 0")],
        _ => [ron.to_string(), dgc.to_string()],
    }
}

/// A pipeline with one layout holding the token under test, in RON and in `.dgc`.
fn descriptions(tt: TokenType) -> [String; 2] {
    let ([ron_stages, dgc_stages], [ron_after, dgc_after]) = companions(tt);
    let [ron_tok, dgc_tok] = written(tt, [ron_stages, dgc_stages]);
    let ron_tokens = if ron_after.is_empty() { ron_tok } else { format!("{ron_tok}, {ron_after}") };
    let dgc_tokens = if dgc_after.is_empty() { format!("{dgc_tok};") } else { format!("{dgc_tok}; {dgc_after};") };
    [
        format!(
            "Pipeline(name: \"p\", push_constants: [(stages: [{ron_stages}], offset: 0, size: 4)], layouts: [(name: \"L\", stages: [{ron_stages}], max_sequences: 4, tokens: [{ron_tokens}])])"
        ),
        format!(
            "pipeline p {{ push_constant [{dgc_stages}] offset 0 size 4; layout L [{dgc_stages}] {{ max_sequences 4; {dgc_tokens} }} }}"
        ),
    ]
}

#[test]
fn every_row_reaches_every_syntax_printer_and_emitter_by_the_tables_names() {
    for row in &TOKENS {
        let tt = row.ty;
        let [ron, dgc] = descriptions(tt);
        let parsed = [(SyntaxKind::Ron, &ron), (SyntaxKind::Dsl, &dgc)].map(|(kind, text)| {
            syntax::parse(text, kind).unwrap_or_else(|d| panic!("{tt:?} in {kind:?}: {d:?}\n{text}"))
        });
        assert_eq!(parsed[0], parsed[1], "{tt:?}: the RON and .dgc spellings differ");
        let p = &parsed[0];
        let tokens = &p.layouts[0].tokens;
        assert_eq!(tokens[0].kind.token_type(), tt, "{ron}");
        assert_eq!((tokens[0].kind.variant_name(), tokens[0].field_name()), (row.ron, row.dgc.to_string()));

        // The printers write the table's names, and what they write reads back.
        let printed_ron = syntax::print_ron(p);
        let printed_dgc = syntax::print_dsl(p);
        assert!(printed_ron.contains(row.ron), "{printed_ron}");
        assert!(printed_dgc.lines().any(|l| l.trim_start().starts_with(row.dgc)), "{printed_dgc}");
        assert_eq!(syntax::parse(&printed_ron, SyntaxKind::Ron).as_ref(), Ok(p));
        assert_eq!(syntax::parse(&printed_dgc, SyntaxKind::Dsl).as_ref(), Ok(p));

        let (laid, diags) = layout::compile_layout(&p.layouts[0].node);
        assert!(laid.valid && diags.is_empty(), "{tt:?}: {diags:?}");
        let compiled = laid.layout;
        assert_eq!((compiled.tokens[0].token_type, compiled.tokens[0].type_value), (tt, row.value));
        if let Some(size) = row.fixed_size {
            assert_eq!(compiled.tokens[0].size, size, "{tt:?}");
        }
        let m = Manifest {
            schema_version: SCHEMA_VERSION,
            pipeline: "p".into(),
            doc: vec![],
            push_constants: vec![dgcc_core::ir::PushConstantRange {
                stages: compiled.shader_stages,
                offset: 0,
                size: 4,
            }],
            layouts: vec![compiled],
            kernels: vec![],
        };
        let out = |o: Output| emit::emit(&m, o).unwrap_or_else(|e| panic!("{tt:?} {o:?}: {e}"));
        let json = out(Output::Json);
        assert!(json.contains(&format!("\"type\": \"{}\",\n", row.manifest)), "{json}");
        assert!(json.contains(&format!("\"type_value\": {},\n", row.value)), "{json}");
        assert!(json.contains(&format!("\"name\": \"{}\",\n", row.dgc)), "{json}");
        assert_eq!(Manifest::from_json(&json).as_ref(), Ok(&m));
        // Every output's record comment names the token by its field name and manifest name.
        let named = format!("{} ({})", row.dgc, row.manifest);
        let c = out(Output::C);
        assert!(c.contains(&named), "{c}");
        if tt.is_push_data() {
            // Cast from the value: headers before 1.4.340 declare the enum without it.
            let cast = format!(", NULL, ((VkIndirectCommandsTokenTypeEXT){}) /* {} */, ", row.value, row.vk);
            assert!(c.contains(&cast), "C token array: {c}");
        } else {
            assert!(c.contains(&format!(", NULL, {}, ", row.vk)), "C token array: {c}");
        }
        assert!(c.contains(&format!("    {} = {},\n", row.vk, row.value)), "C fallback enum: {c}");
        let glsl = out(Output::Glsl);
        assert!(glsl.contains(&named), "{glsl}");
        let rust = out(Output::Rust);
        assert!(rust.contains(&format!("Token `{}` ({})", row.dgc, row.manifest)), "{rust}");
        if row.class != TokenClass::State
            || matches!(tt, TokenType::PushConstant | TokenType::SequenceIndex)
            || tt.is_push_data()
        {
            assert!(rust.contains(&format!("ext_dgc::IndirectCommandsTokenTypeEXT::{}", row.manifest)), "{rust}");
        }
    }
}

#[test]
fn an_unknown_token_name_is_an_error_in_both_syntaxes_never_a_draw() {
    // `syntax::names::Kind::of` used to fall back to `Draw` for a name outside its table; now a
    // name is looked up in the token table and a miss is E0005 with the table's names.
    for (kind, text, expected) in [
        (
            SyntaxKind::Ron,
            "Pipeline(name: \"p\", layouts: [(name: \"L\", stages: [Compute], max_sequences: 1, tokens: [Frobnicate])])",
            "`ExecutionSet`, `PushConstant`",
        ),
        (SyntaxKind::Dsl, "pipeline p { layout L [compute] { max_sequences 1; frobnicate; } }", "`execution_set`, `push_constant`"),
    ] {
        let diags = syntax::parse(text, kind).expect_err(text);
        let e = diags.iter().find(|d| d.code == "E0005").unwrap_or_else(|| panic!("{diags:?}"));
        assert!(e.message.contains("frobnicate") || e.message.contains("Frobnicate"), "{e:?}");
        assert!(e.notes.iter().any(|n| n.contains(expected) && n.contains("trace_rays2") == (kind == SyntaxKind::Dsl)), "{e:?}");
    }
}
