//! Input limits: oversized and deeply nested input fails fast with its own code (never a
//! stack overflow), and the count limits accept exactly their maximum.

use std::time::{Duration, Instant};

use dgcc::syntax::limits::{
    MAX_FIELDS_PER_PUSH_CONSTANT, MAX_KERNELS, MAX_LAYOUTS, MAX_SHADERS, MAX_SOURCE_BYTES, MAX_TOKENS_PER_LAYOUT,
};
use dgcc::syntax::{self, SyntaxKind};

use crate::{render_all, BOTH};

/// Parses `source` and returns the codes, with the time it took.
fn codes(source: &str, kind: SyntaxKind) -> (Vec<&'static str>, Duration) {
    let start = Instant::now();
    let result = syntax::parse(source, kind);
    let took = start.elapsed();
    (result.err().unwrap_or_default().iter().map(|d| d.code).collect(), took)
}

#[test]
fn a_10_mb_nesting_bomb_fails_fast_on_size() {
    for (kind, open) in [(SyntaxKind::Ron, "["), (SyntaxKind::Dsl, "{")] {
        let bomb = open.repeat(10 * 1024 * 1024);
        let (codes, took) = codes(&bomb, kind);
        assert_eq!(codes, ["E0012"]);
        assert!(took < Duration::from_secs(20), "{kind:?} took {took:?}");
    }
}

#[test]
fn a_5_mb_description_is_refused() {
    for kind in BOTH {
        let mut source = crate::fixture_of("scene", kind);
        let padding = format!("// {}\n", "x".repeat(1000));
        while source.len() <= 5 * 1024 * 1024 {
            source.push_str(&padding);
        }
        let (codes, took) = codes(&source, kind);
        assert_eq!(codes, ["E0012"]);
        assert!(took < Duration::from_secs(20), "{kind:?} took {took:?}");
        let err = syntax::parse(&source, kind).unwrap_err();
        assert_eq!(err[0].primary_span().unwrap().start, MAX_SOURCE_BYTES);
    }
}

#[test]
fn nesting_under_the_size_limit_is_refused_at_the_first_deep_bracket() {
    for (kind, prefix) in [(SyntaxKind::Ron, "Pipeline(name: \"p\", layouts: "), (SyntaxKind::Dsl, "pipeline p { ")] {
        let bomb = format!("{prefix}{}", "[".repeat(1024 * 1024));
        let start = Instant::now();
        let diags = syntax::parse(&bomb, kind).unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(20));
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "E0013");
        // The pipeline's own bracket is level 1, so the 64th `[` opens level 65.
        assert_eq!(diags[0].primary_span().unwrap().start, prefix.len() + 63);
    }
}

#[test]
fn nesting_of_exactly_the_limit_reaches_the_parser() {
    // 64 levels: the parser sees it (and rejects the shape, not the depth).
    let source = format!("Pipeline(name: \"p\", layouts: {}{})", "[".repeat(63), "]".repeat(63));
    let (codes, _) = codes(&source, SyntaxKind::Ron);
    assert!(!codes.contains(&"E0013"), "{codes:?}");
}

fn ron_layouts(layouts: usize, tokens: usize, fields: usize, kernels: usize) -> String {
    let field_list: Vec<String> = (0..fields).map(|i| format!("(name: \"f{i}\", ty: U32)")).collect();
    let mut token_list =
        vec![format!("PushConstant(stages: [Vertex], offset: 0, fields: [{}])", field_list.join(", "))];
    token_list.extend((1..tokens).map(|_| "Draw".to_string()));
    let first = format!("(name: \"L\", stages: [Vertex], max_sequences: 1, tokens: [{}])", token_list.join(", "));
    let others = vec!["(name:\"M\",stages:[],max_sequences:1,tokens:[])"; layouts - 1];
    let kernel = "(name: \"k\", source: \"k.comp\", local_size: (1, 1, 1))";
    format!(
        "Pipeline(name: \"p\", layouts: [{first},\n{}], kernels: [{}])",
        others.join(",\n"),
        vec![kernel; kernels].join(",\n")
    )
}

fn dsl_layouts(layouts: usize, tokens: usize, fields: usize, kernels: usize) -> String {
    let field_list: String = (0..fields).map(|i| format!("f{i}: u32; ")).collect();
    let mut body = format!("push_constant [vertex] offset 0 {{ {field_list}}} ");
    body.push_str(&"draw; ".repeat(tokens - 1));
    let first = format!("layout L [vertex] {{ max_sequences 1; {body}}}\n");
    let others = "layout M[]{max_sequences 1;}\n".repeat(layouts - 1);
    let kernel = "kernel k \"k.comp\" local_size(1, 1, 1);\n";
    format!("pipeline p {{\n{first}{others}{}}}", kernel.repeat(kernels))
}

#[test]
fn a_pipeline_names_at_most_256_shaders() {
    let ron = |n: usize| {
        let shaders = vec!["(stage: Vertex, source: \"v.vert\")"; n].join(", ");
        format!("Pipeline(name: \"p\", layouts: [], shaders: [{shaders}])")
    };
    let dsl = |n: usize| format!("pipeline p {{ {} }}", "shader vertex \"v.vert\"; ".repeat(n));
    for (kind, source) in [(SyntaxKind::Ron, ron as fn(usize) -> String), (SyntaxKind::Dsl, dsl)] {
        assert!(codes(&source(MAX_SHADERS), kind).0.is_empty(), "{kind:?}");
        let over = source(MAX_SHADERS + 1);
        let diags = syntax::parse(&over, kind).unwrap_err();
        assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0019"], "{kind:?}");
        let under = &over[diags[0].primary_span().unwrap().range()];
        assert!(under.starts_with(if kind == SyntaxKind::Ron { "(stage:" } else { "shader vertex" }), "{under}");
    }
}

#[test]
fn count_limits_accept_their_maximum_and_refuse_one_more() {
    type Gen = fn(usize, usize, usize, usize) -> String;
    let gens: [(SyntaxKind, Gen); 2] = [(SyntaxKind::Ron, ron_layouts), (SyntaxKind::Dsl, dsl_layouts)];
    for (kind, gen) in gens {
        let at_limit = gen(MAX_LAYOUTS, 1, 1, 1);
        let (codes_ok, _) = codes(&at_limit, kind);
        assert!(codes_ok.is_empty(), "{kind:?}: {codes_ok:?}");
        let cases = [
            (gen(MAX_LAYOUTS + 1, 1, 1, 1), "E0014", "layout"),
            (gen(1, MAX_TOKENS_PER_LAYOUT + 1, 1, 1), "E0015", "draw"),
            (gen(1, 1, MAX_FIELDS_PER_PUSH_CONSTANT + 1, 1), "E0016", "f256"),
            (gen(1, 1, 1, MAX_KERNELS + 1), "E0017", "kernel"),
        ];
        for (source, code, starts) in cases {
            let diags = syntax::parse(&source, kind).unwrap_err();
            assert_eq!(diags.len(), 1, "{kind:?} {code}: {}", render_all(&source, &diags[..1]));
            assert_eq!(diags[0].code, code);
            let span = diags[0].primary_span().unwrap();
            let under = &source[span.range()];
            let starts = match (kind, starts) {
                (SyntaxKind::Ron, "layout" | "kernel") => "(name:",
                (SyntaxKind::Dsl, "layout") => "layout M",
                (SyntaxKind::Ron, "draw") => "Draw",
                (SyntaxKind::Ron, "f256") => "(name: \"f256\"",
                (_, s) => s,
            };
            assert!(under.starts_with(starts), "{kind:?} {code}: underlined `{under}`");
        }
        let ok = [gen(1, MAX_TOKENS_PER_LAYOUT, MAX_FIELDS_PER_PUSH_CONSTANT, MAX_KERNELS)];
        for source in ok {
            let (codes, _) = codes(&source, kind);
            assert!(codes.is_empty(), "{kind:?}: {codes:?}");
        }
    }
}
