//! Round trips: parse → print_dsl → parse → print_ron → parse gives equal ASTs for every
//! fixture; random valid ASTs (with docs and awkward names) survive both printers; random
//! byte mutations of the fixtures never panic, and whatever still parses round-trips too.

use dgcc::ast::{
    Attribute, ExecutionSetKind, Field, FieldType, GlslLayout, IndexMode, Kernel, Layout, LayoutFlag, Pipeline,
    PushConstantRange, PushData, Shader, Spanned, StageList, SubgroupReq, SubgroupSize, Token, TokenKind,
};
use dgcc::span::Span;
use dgcc::stages::Stage;
use dgcc::syntax::{self, SyntaxKind};
use proptest::prelude::*;

use crate::{fixture_of, parse_ok, BOTH, FIXTURES};

/// Both printers re-parse to `p`, and printing is stable.
fn assert_round_trips(p: &Pipeline) {
    for kind in BOTH {
        let printed = syntax::print(p, kind);
        let again = parse_ok(&printed, kind);
        assert_eq!(&again, p, "{kind:?} printer output did not re-parse equal:\n{printed}");
        assert_eq!(syntax::print(&again, kind), printed, "{kind:?} printing is not stable");
        assert_eq!(syntax::dropped_comments(&printed, kind), 0, "printed docs must all be doc comments:\n{printed}");
    }
}

#[test]
fn fixtures_round_trip_through_both_printers() {
    for name in FIXTURES {
        for kind in BOTH {
            let first = parse_ok(&fixture_of(name, kind), kind);
            let via_dsl = parse_ok(&syntax::print_dsl(&first), SyntaxKind::Dsl);
            let via_ron = parse_ok(&syntax::print_ron(&via_dsl), SyntaxKind::Ron);
            assert_eq!(first, via_dsl, "{name}.{}", kind.extension());
            assert_eq!(first, via_ron, "{name}.{}", kind.extension());
            assert_round_trips(&first);
        }
    }
}

#[test]
fn dropped_comments_are_the_ones_that_are_not_docs() {
    // scene.ron: 1 pipeline doc, 1 layout doc, 1 token doc; the rest are trailing comments
    // or comments above fields.
    let ron = fixture_of("scene", SyntaxKind::Ron);
    assert_eq!(syntax::dropped_comments(&ron, SyntaxKind::Ron), 11);
    let dgc = fixture_of("scene", SyntaxKind::Dsl);
    assert_eq!(syntax::dropped_comments(&dgc, SyntaxKind::Dsl), 6);
    assert_eq!(syntax::dropped_comments("// a\n/* b */ Pipeline(", SyntaxKind::Ron), 2, "unparsable: all count");
}

#[test]
fn canonical_dgc_of_the_contract_example() {
    let p = parse_ok(&fixture_of("scene", SyntaxKind::Ron), SyntaxKind::Ron);
    insta::assert_snapshot!("scene_dgc", syntax::print_dsl(&p));
    insta::assert_snapshot!("scene_ron", syntax::print_ron(&p));
}

// ---- random ASTs -------------------------------------------------------------------------

fn sp<T>(node: T) -> Spanned<T> {
    Spanned::new(node, Span::default())
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z_][a-zA-Z0-9_]{0,10}",
        // Printable ASCII: quotes, backslashes, spaces, `//`.
        "[ -~]{0,12}",
        // Anything but surrogates: control characters, non-ASCII, line breaks.
        any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ]
}

fn doc() -> impl Strategy<Value = Vec<String>> {
    // A doc line has no line break and no trailing whitespace (both are trimmed on reading).
    prop::collection::vec("[ -~é✓]{0,24}".prop_map(|s| s.trim_end().to_string()), 0..3)
}

fn number() -> impl Strategy<Value = Spanned<u32>> {
    prop_oneof![0u32..300, any::<u32>()].prop_map(sp)
}

fn stages() -> impl Strategy<Value = StageList> {
    prop::collection::vec(prop::sample::select(Stage::ALL.to_vec()).prop_map(sp), 0..4)
        .prop_map(|items| StageList { items, span: Span::default() })
}

fn field_type() -> impl Strategy<Value = FieldType> {
    let scalar = prop::sample::select(FieldType::scalars().collect::<Vec<_>>());
    scalar.prop_recursive(3, 8, 1, |inner| (inner, 0u32..70_000).prop_map(|(t, n)| FieldType::Array(Box::new(t), n)))
}

fn field() -> impl Strategy<Value = Spanned<Field>> {
    (doc(), name(), field_type()).prop_map(|(doc, name, ty)| sp(Field { doc, name: sp(name), ty: sp(ty) }))
}

fn token_kind() -> impl Strategy<Value = TokenKind> {
    let set_kind = prop::sample::select(vec![ExecutionSetKind::Pipelines, ExecutionSetKind::ShaderObjects]);
    let data = || {
        prop_oneof![prop::collection::vec(field(), 0..4).prop_map(PushData::Fields), number().prop_map(PushData::Size),]
    };
    let (constants, heap) = (dgcc::ast::PushSpace::Constants, dgcc::ast::PushSpace::Data);
    prop_oneof![
        (set_kind, stages(), number(), any::<bool>()).prop_map(|(k, stages, max_entries, binned)| {
            TokenKind::ExecutionSet {
                kind: sp(k),
                stages,
                max_entries,
                fallback: binned.then(|| sp(dgcc::ast::SetFallback::Binned)),
            }
        }),
        (stages(), number(), data()).prop_map(move |(stages, offset, data)| TokenKind::PushConstant {
            stages,
            offset,
            data,
            space: constants
        }),
        (stages(), number()).prop_map(move |(stages, offset)| TokenKind::SequenceIndex {
            stages,
            offset,
            space: constants
        }),
        // Push data has no stages of its own.
        (number(), data()).prop_map(move |(offset, data)| TokenKind::PushConstant {
            stages: Default::default(),
            offset,
            data,
            space: heap
        }),
        number().prop_map(move |offset| TokenKind::SequenceIndex { stages: Default::default(), offset, space: heap }),
        prop::sample::select(vec![IndexMode::Vulkan, IndexMode::Dxgi])
            .prop_map(|m| TokenKind::IndexBuffer { mode: sp(m) }),
        number().prop_map(|binding| TokenKind::VertexBuffer { binding }),
        prop::sample::select(vec![
            TokenKind::Draw,
            TokenKind::DrawIndexed,
            TokenKind::DrawCount,
            TokenKind::DrawIndexedCount,
            TokenKind::Dispatch,
            TokenKind::DrawMeshTasks,
            TokenKind::DrawMeshTasksCount,
            TokenKind::DrawMeshTasksNv,
            TokenKind::DrawMeshTasksCountNv,
            TokenKind::TraceRays2,
        ]),
    ]
}

fn token() -> impl Strategy<Value = Spanned<Token>> {
    (doc(), prop::option::of(name()), prop::option::of(number()), token_kind())
        .prop_map(|(doc, name, at, kind)| sp(Token { doc, name: name.map(sp), at, kind, kind_span: Span::default() }))
}

fn layout() -> impl Strategy<Value = Spanned<Layout>> {
    let flags = prop::collection::vec(
        prop::sample::select(vec![LayoutFlag::ExplicitPreprocess, LayoutFlag::UnorderedSequences]).prop_map(sp),
        0..3,
    );
    let glsl = prop::sample::select(vec![GlslLayout::Std430, GlslLayout::Scalar]).prop_map(sp);
    (
        (doc(), name(), stages(), flags),
        (number(), glsl, prop::option::of(number()), prop::option::of(number())),
        (prop::collection::vec(lint(), 0..3), prop::collection::vec(token(), 0..5)),
    )
        .prop_map(|((doc, name, stages, flags), (max_sequences, glsl_layout, stride, align), (lints, tokens))| {
            sp(Layout { doc, name: sp(name), stages, flags, max_sequences, glsl_layout, stride, align, lints, tokens })
        })
}

fn subgroup() -> impl Strategy<Value = SubgroupReq> {
    let size =
        prop_oneof![any::<u32>().prop_map(SubgroupSize::Fixed), Just(SubgroupSize::Min), Just(SubgroupSize::Max)];
    prop_oneof![
        Just(SubgroupReq::Any),
        Just(SubgroupReq::Varying),
        Just(SubgroupReq::Full),
        (size, any::<bool>()).prop_map(|(size, full)| SubgroupReq::Required { size, full }),
    ]
}

fn kernel() -> impl Strategy<Value = Spanned<Kernel>> {
    (doc(), name(), name(), any::<[u32; 3]>(), subgroup(), prop::option::of(name())).prop_map(
        |(doc, name, source, local_size, subgroup, writes)| {
            sp(Kernel {
                doc,
                name: sp(name),
                source: sp(source),
                local_size: sp(local_size),
                subgroup: sp(subgroup),
                writes: writes.map(sp),
            })
        },
    )
}

fn shader() -> impl Strategy<Value = Spanned<Shader>> {
    let attribute = (number(), number()).prop_map(|(location, binding)| sp(Attribute { location, binding }));
    (doc(), prop::sample::select(Stage::ALL.to_vec()), name(), prop::collection::vec(attribute, 0..3)).prop_map(
        |(doc, stage, source, attributes)| {
            // Only a vertex shader has attributes (E0002 elsewhere).
            let attributes = if stage == Stage::Vertex { attributes } else { vec![] };
            sp(Shader { doc, stage: sp(stage), source: sp(source), attributes })
        },
    )
}

/// A `lints` entry: any level, a code-shaped word (the parser does not check it; the driver does).
fn lint() -> impl Strategy<Value = dgcc::ast::Lint> {
    let levels = vec![dgcc::levels::Level::Allow, dgcc::levels::Level::Warn, dgcc::levels::Level::Deny];
    (prop::sample::select(levels), "[EWN][0-9]{4}")
        .prop_map(|(level, code)| dgcc::ast::Lint { level: sp(level), code: sp(code) })
}

fn pipeline() -> impl Strategy<Value = Pipeline> {
    let range = (doc(), stages(), number(), number())
        .prop_map(|(doc, stages, offset, size)| sp(PushConstantRange { doc, stages, offset, size }));
    (
        (doc(), name(), prop::collection::vec(name(), 0..3)),
        prop::collection::vec(range, 0..3),
        prop::collection::vec(layout(), 0..3),
        prop::collection::vec(kernel(), 0..3),
        (prop::collection::vec(shader(), 0..3), prop::collection::vec(lint(), 0..3)),
    )
        .prop_map(|((doc, name, targets), push_constants, layouts, kernels, (shaders, lints))| {
            let targets_defaulted = targets.is_empty();
            let targets = if targets_defaulted { vec!["minimum".to_string()] } else { targets };
            Pipeline {
                doc,
                name: sp(name),
                targets: targets.into_iter().map(sp).collect(),
                targets_defaulted,
                lints,
                push_constants,
                layouts,
                kernels,
                shaders,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_pipelines_round_trip_through_both_printers(p in pipeline()) {
        assert_round_trips(&p);
    }

    #[test]
    fn random_mutations_never_panic(
        fixture in prop::sample::select(FIXTURES.to_vec()),
        kind in prop::sample::select(BOTH.to_vec()),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 1..6),
    ) {
        let mut bytes = fixture_of(fixture, kind).into_bytes();
        for (at, op, byte) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 => bytes.insert(i, byte),
                1 if i < bytes.len() => { bytes.remove(i); }
                _ if i < bytes.len() => bytes[i] = byte,
                _ => {}
            }
        }
        let Ok(source) = syntax::decode(&bytes) else { return Ok(()) };
        syntax::dropped_comments(source, kind);
        match syntax::parse(source, kind) {
            Ok(p) => assert_round_trips(&p),
            Err(diags) => {
                prop_assert!(!diags.is_empty());
                for d in &diags {
                    for label in &d.labels {
                        prop_assert!(label.span.start <= label.span.end && label.span.end <= source.len());
                        prop_assert!(source.is_char_boundary(label.span.start) && source.is_char_boundary(label.span.end));
                    }
                }
            }
        }
    }
}
