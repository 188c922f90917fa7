//! Random descriptions: valid ones must lay out with every invariant holding and check clean
//! on lavapipe; mutated ones (any stride, any offsets, shuffled tokens, any numbers) must
//! never panic the layout engine or the validator, on any built-in profile.
//!
//! Descriptions are built as ASTs directly (spans are empty), so these properties test the
//! engine and the rules, not a front end.

use dgcc::ast::*;
use dgcc::device;
use dgcc::stages::Stage;
use proptest::prelude::*;

fn sp<T>(node: T) -> Spanned<T> {
    Spanned::new(node, Span::default())
}

fn stages(list: &[Stage]) -> StageList {
    StageList { items: list.iter().map(|s| sp(*s)).collect(), span: Span::default() }
}

fn token(name: Option<String>, kind: TokenKind) -> Spanned<Token> {
    sp(Token { doc: vec![], name: name.map(sp), at: None, kind, kind_span: Span::default() })
}

/// What kind of pipeline a random layout drives.
#[derive(Clone, Debug)]
enum Shape {
    Vertex(TokenKind),
    Compute,
    Mesh { task: bool, count: bool },
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        prop_oneof![
            Just(TokenKind::Draw),
            Just(TokenKind::DrawIndexed),
            Just(TokenKind::DrawCount),
            Just(TokenKind::DrawIndexedCount)
        ]
        .prop_map(Shape::Vertex),
        Just(Shape::Compute),
        (any::<bool>(), any::<bool>()).prop_map(|(task, count)| Shape::Mesh { task, count }),
    ]
}

fn field_type() -> impl Strategy<Value = FieldType> {
    let scalar = prop_oneof![
        Just(FieldType::U32),
        Just(FieldType::I32),
        Just(FieldType::F32),
        Just(FieldType::U64),
        Just(FieldType::Address),
        Just(FieldType::Vec2),
        Just(FieldType::Vec3),
        Just(FieldType::Vec4),
        Just(FieldType::UVec2),
        Just(FieldType::UVec4),
        Just(FieldType::IVec3),
    ];
    prop_oneof![
        4 => scalar,
        1 => (prop_oneof![Just(FieldType::U32), Just(FieldType::Vec4), Just(FieldType::Vec2)], 1u32..3)
            .prop_map(|(t, n)| FieldType::Array(Box::new(t), n)),
    ]
}

/// Push data of one token: typed fields or a raw size in words.
fn push_data() -> impl Strategy<Value = Result<Vec<FieldType>, u32>> {
    prop_oneof![proptest::collection::vec(field_type(), 1..4).prop_map(Ok), (1u32..5).prop_map(Err)]
}

#[derive(Clone, Debug)]
struct Spec {
    shape: Shape,
    glsl: GlslLayout,
    pushes: Vec<Result<Vec<FieldType>, u32>>,
    sequence_index: bool,
    vertex_buffers: usize,
    /// Per token: pin it, and with how many extra 16-byte steps.
    pins: Vec<(bool, u32)>,
    align: Option<u32>,
    max_sequences: u32,
    kernel: Option<(u32, SubgroupReq, bool)>,
    /// An execution set of this many pipelines, first.
    execution_set: Option<u32>,
}

fn subgroup() -> impl Strategy<Value = SubgroupReq> {
    prop_oneof![
        Just(SubgroupReq::Any),
        Just(SubgroupReq::Varying),
        Just(SubgroupReq::Full),
        (prop_oneof![Just(SubgroupSize::Min), Just(SubgroupSize::Max), Just(SubgroupSize::Fixed(8))], any::<bool>())
            .prop_map(|(size, full)| SubgroupReq::Required { size, full }),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        shape(),
        prop_oneof![Just(GlslLayout::Std430), Just(GlslLayout::Scalar)],
        proptest::collection::vec(push_data(), 0..3),
        any::<bool>(),
        0usize..3,
        proptest::collection::vec((any::<bool>(), 0u32..3), 8),
        prop_oneof![Just(None), Just(Some(4)), Just(Some(16)), Just(Some(64))],
        1u32..=1024,
        proptest::option::of((prop_oneof![Just(8u32), Just(32), Just(64), Just(256)], subgroup(), any::<bool>())),
        proptest::option::of(1u32..=4096),
    )
        .prop_map(
            |(
                shape,
                glsl,
                pushes,
                sequence_index,
                vertex_buffers,
                pins,
                align,
                max_sequences,
                kernel,
                execution_set,
            )| Spec {
                shape,
                glsl,
                pushes,
                sequence_index,
                vertex_buffers,
                pins,
                align,
                max_sequences,
                kernel,
                execution_set,
            },
        )
}

const PUSH_BUDGET: u32 = 256;

/// Build a valid description from a spec (tokens in a legal order, push ranges contiguous and
/// aligned, one pipeline range covering them all).
fn build(spec: &Spec) -> Pipeline {
    let (stage_list, action) = match &spec.shape {
        Shape::Vertex(kind) => (vec![Stage::Vertex, Stage::Fragment], kind.clone()),
        Shape::Compute => (vec![Stage::Compute], TokenKind::Dispatch),
        Shape::Mesh { task, count } => {
            let s = if *task {
                vec![Stage::Task, Stage::Mesh, Stage::Fragment]
            } else {
                vec![Stage::Mesh, Stage::Fragment]
            };
            (s, if *count { TokenKind::DrawMeshTasksCount } else { TokenKind::DrawMeshTasks })
        }
    };
    let push_stages = [stage_list[0]];
    let mut tokens = vec![];
    if let Some(entries) = spec.execution_set {
        tokens.push(token(
            Some("pipeline".into()),
            TokenKind::ExecutionSet {
                kind: sp(ExecutionSetKind::Pipelines),
                stages: stages(&stage_list),
                max_entries: sp(entries),
                fallback: None,
            },
        ));
    }
    let mut pc_end = 0u32;
    for (i, data) in spec.pushes.iter().enumerate() {
        let (data, size, align) = match data {
            Ok(types) => {
                let mut fields = vec![];
                let (mut off, mut align) = (0u32, 4u32);
                for (k, ty) in types.iter().enumerate() {
                    let std = dgcc::layout::types::field_shape(ty, GlslLayout::Std430).unwrap();
                    let packed = dgcc::layout::types::field_shape(ty, spec.glsl).unwrap();
                    let at = off.div_ceil(packed.align) * packed.align;
                    if pc_end.div_ceil(align.max(std.align)) * align.max(std.align) + at + packed.size > PUSH_BUDGET {
                        break;
                    }
                    align = align.max(std.align);
                    off = at + packed.size;
                    fields.push(sp(Field { doc: vec![], name: sp(format!("f{i}_{k}")), ty: sp(ty.clone()) }));
                }
                if fields.is_empty() {
                    continue;
                }
                (PushData::Fields(fields), off, align)
            }
            Err(words) => (PushData::Size(sp(words * 4)), words * 4, 4),
        };
        let offset = pc_end.div_ceil(align) * align;
        if offset + size > PUSH_BUDGET {
            continue;
        }
        pc_end = offset + size;
        tokens.push(token(
            Some(format!("push{i}")),
            TokenKind::PushConstant {
                stages: stages(&push_stages),
                offset: sp(offset),
                data,
                space: dgcc::ast::PushSpace::Constants,
            },
        ));
    }
    if spec.sequence_index && pc_end + 4 <= PUSH_BUDGET {
        tokens.push(token(
            None,
            TokenKind::SequenceIndex {
                stages: stages(&push_stages),
                offset: sp(pc_end),
                space: dgcc::ast::PushSpace::Constants,
            },
        ));
        pc_end += 4;
    }
    if let Shape::Vertex(kind) = &spec.shape {
        if matches!(kind, TokenKind::DrawIndexed | TokenKind::DrawIndexedCount) {
            tokens.push(token(None, TokenKind::IndexBuffer { mode: sp(IndexMode::Vulkan) }));
        }
        for b in 0..spec.vertex_buffers {
            tokens.push(token(Some(format!("vb{b}")), TokenKind::VertexBuffer { binding: sp(b as u32) }));
        }
    }
    tokens.push(token(None, action));
    let name = "Random".to_string();
    let flags = if spec.kernel.is_some() && !matches!(&spec.shape, Shape::Compute) {
        vec![sp(LayoutFlag::UnorderedSequences)]
    } else {
        vec![]
    };
    let mut layout = Layout {
        doc: vec![],
        name: sp(name.clone()),
        stages: stages(&stage_list),
        flags,
        max_sequences: sp(spec.max_sequences),
        glsl_layout: sp(spec.glsl),
        stride: None,
        align: spec.align.map(sp),
        lints: vec![],
        tokens,
    };
    pin(&mut layout, &spec.pins);
    let push_constants = if pc_end > 0 {
        vec![sp(PushConstantRange { doc: vec![], stages: stages(&push_stages), offset: sp(0), size: sp(pc_end) })]
    } else {
        vec![]
    };
    let kernels = spec
        .kernel
        .iter()
        .map(|(x, subgroup, writes)| {
            sp(Kernel {
                doc: vec![],
                name: sp("cull".into()),
                source: sp("shaders/cull.comp".into()),
                local_size: sp([*x, 1, 1]),
                subgroup: sp(*subgroup),
                writes: writes.then(|| sp(name.clone())),
            })
        })
        .collect();
    Pipeline {
        doc: vec![],
        name: sp("random".into()),
        targets: vec![sp("lavapipe".into())],
        targets_defaulted: false,
        lints: vec![],
        push_constants,
        layouts: vec![sp(layout)],
        kernels,
        shaders: vec![],
    }
}

/// Pin some tokens where the engine would place them, plus whole 16-byte steps: every later
/// token moves by the same multiple of 16, so order and every alignment are kept.
fn pin(layout: &mut Layout, pins: &[(bool, u32)]) {
    let (natural, _) = dgcc::layout::compile_layout(layout);
    let mut shift = 0u32;
    for (i, t) in layout.tokens.iter_mut().enumerate() {
        let (pinned, steps) = pins.get(i).copied().unwrap_or((false, 0));
        if pinned {
            shift += 16 * steps;
            t.node.at = Some(sp(natural.layout.tokens[i].offset + shift));
        }
    }
}

/// Whether a kernel's subgroup request can be met on lavapipe (subgroups of 8, at most 32 per
/// workgroup with a required size); the generator keeps only those.
fn kernel_fits_lavapipe(spec: &Spec) -> bool {
    match spec.kernel {
        Some((x, SubgroupReq::Required { .. }, _)) => x <= 8 * 32,
        _ => true,
    }
}

fn check_all(p: &Pipeline, profiles: &[device::Profile]) -> Vec<dgcc::diag::Diagnostic> {
    let mut diags = vec![];
    let mut laid = vec![];
    for l in &p.layouts {
        let (out, d) = dgcc::layout::compile_layout(&l.node);
        diags.extend(d);
        laid.push(out);
    }
    diags.extend(dgcc::check::check(p, &laid, profiles));
    diags
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn valid_descriptions_lay_out_soundly_and_check_clean_on_lavapipe(spec in spec().prop_filter("fits lavapipe", kernel_fits_lavapipe)) {
        let p = build(&spec);
        let (laid, engine) = dgcc::layout::compile_layout(&p.layouts[0].node);
        prop_assert!(engine.is_empty(), "layout engine: {engine:?}");
        prop_assert!(laid.valid);
        prop_assert_eq!(dgcc::layout::verify(&laid.layout), Ok(()));
        let lavapipe = device::builtin("lavapipe").unwrap();
        let diags = dgcc::check::check(&p, &[laid], &[lavapipe]);
        let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
        prop_assert!(errors.is_empty(), "errors: {errors:#?}\nfrom {p:#?}");
    }

    #[test]
    fn mutated_descriptions_never_panic(
        spec in spec(),
        stride in proptest::option::of(any::<u32>()),
        at in proptest::collection::vec(proptest::option::of(any::<u32>()), 8),
        swap in (0usize..8, 0usize..8),
        max_sequences in any::<u32>(),
        push in (any::<u32>(), any::<u32>()),
        local in any::<[u32; 3]>(),
        required in any::<u32>(),
        entries in any::<u32>(),
    ) {
        let mut p = build(&spec);
        {
            let l = &mut p.layouts[0].node;
            l.stride = stride.map(sp);
            l.max_sequences = sp(max_sequences);
            for (t, a) in l.tokens.iter_mut().zip(&at) {
                if a.is_some() {
                    t.node.at = a.map(sp);
                }
            }
            let n = l.tokens.len();
            l.tokens.swap(swap.0 % n, swap.1 % n);
            l.tokens.insert(0, token(None, TokenKind::ExecutionSet {
                kind: sp(if entries % 2 == 0 { ExecutionSetKind::Pipelines } else { ExecutionSetKind::ShaderObjects }),
                stages: stages(&[Stage::Compute, Stage::Vertex]),
                max_entries: sp(entries),
                fallback: None,
            }));
        }
        if let Some(r) = p.push_constants.first_mut() {
            r.node.offset = sp(push.0);
            r.node.size = sp(push.1);
        }
        for k in &mut p.kernels {
            k.node.local_size = sp(local);
            k.node.subgroup = sp(SubgroupReq::Required { size: SubgroupSize::Fixed(required), full: required % 2 == 0 });
        }
        let profiles: Vec<_> = device::BUILTIN_NAMES.iter().map(|n| device::builtin(n).unwrap()).collect();
        for d in check_all(&p, &profiles) {
            prop_assert!(dgcc::rules::lookup(d.code).is_some(), "unregistered code {}", d.code);
            prop_assert!(d.primary_span().is_some(), "{} has no primary label", d.code);
        }
    }
}
