//! Loads the fixtures in `tests/emit/fixtures/*.ron` into a `Manifest`.
//!
//! Interim: until the RON front end (`dgcc::syntax`) and the driver are merged, this reads the
//! contract's RON shape through serde mirror types and assembles the manifest with the layout
//! engine, so that the emitter tests run on the same fixture files they will run on later.

use dgcc::ast::{self, Spanned, StageList};
use dgcc::ir::{CompiledKernel, KernelTarget, Manifest, PushConstantRange, SCHEMA_VERSION};
use dgcc::stages::{Stage, StageMask};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Pipeline {
    name: String,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    push_constants: Vec<Range>,
    layouts: Vec<Layout>,
    #[serde(default)]
    kernels: Vec<Kernel>,
}

#[derive(Deserialize)]
struct Range {
    stages: Vec<Stage>,
    offset: u32,
    size: u32,
}

#[derive(Deserialize, Clone, Copy)]
enum Flag {
    ExplicitPreprocess,
    UnorderedSequences,
}

#[derive(Deserialize, Clone, Copy, Default)]
enum Glsl {
    #[default]
    Std430,
    Scalar,
}

#[derive(Deserialize)]
struct Layout {
    name: String,
    stages: Vec<Stage>,
    #[serde(default)]
    flags: Vec<Flag>,
    max_sequences: u32,
    #[serde(default)]
    glsl_layout: Glsl,
    #[serde(default)]
    stride: Option<u32>,
    #[serde(default)]
    align: Option<u32>,
    tokens: Vec<Token>,
}

#[derive(Deserialize, Clone, Copy)]
enum EsKind {
    Pipelines,
    ShaderObjects,
}

#[derive(Deserialize, Clone, Copy)]
enum Mode {
    Vulkan,
    Dxgi,
}

#[derive(Deserialize)]
struct Field {
    name: String,
    ty: Ty,
}

#[derive(Deserialize)]
enum Ty {
    U32,
    I32,
    F32,
    U64,
    Address,
    Vec2,
    Vec3,
    Vec4,
    UVec2,
    UVec3,
    UVec4,
    IVec2,
    IVec3,
    IVec4,
    Mat4,
    Array(Box<Ty>, u32),
}

fn field_type(t: Ty) -> ast::FieldType {
    use ast::FieldType as F;
    match t {
        Ty::U32 => F::U32,
        Ty::I32 => F::I32,
        Ty::F32 => F::F32,
        Ty::U64 => F::U64,
        Ty::Address => F::Address,
        Ty::Vec2 => F::Vec2,
        Ty::Vec3 => F::Vec3,
        Ty::Vec4 => F::Vec4,
        Ty::UVec2 => F::UVec2,
        Ty::UVec3 => F::UVec3,
        Ty::UVec4 => F::UVec4,
        Ty::IVec2 => F::IVec2,
        Ty::IVec3 => F::IVec3,
        Ty::IVec4 => F::IVec4,
        Ty::Mat4 => F::Mat4,
        Ty::Array(inner, n) => F::Array(Box::new(field_type(*inner)), n),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Common {
    name: String,
    at: Option<u32>,
    stages: Vec<Stage>,
    offset: u32,
    fields: Option<Vec<Field>>,
    size: Option<u32>,
    kind: Option<EsKind>,
    max_entries: u32,
    mode: Option<Mode>,
    binding: u32,
}

#[derive(Deserialize)]
enum Token {
    ExecutionSet(Common),
    PushConstant(Common),
    SequenceIndex(Common),
    IndexBuffer(Common),
    VertexBuffer(Common),
    Draw(Common),
    DrawIndexed(Common),
    DrawCount(Common),
    DrawIndexedCount(Common),
    Dispatch(Common),
    DrawMeshTasks(Common),
    DrawMeshTasksCount(Common),
    DrawMeshTasksNv(Common),
    DrawMeshTasksCountNv(Common),
    TraceRays2(Common),
}

#[derive(Deserialize, Clone, Copy)]
enum Size {
    Fixed(u32),
    Min,
    Max,
}

#[derive(Deserialize, Clone, Copy, Default)]
enum Subgroup {
    #[default]
    Any,
    Varying,
    Full,
    Required {
        size: Size,
        full: bool,
    },
}

#[derive(Deserialize)]
struct Kernel {
    name: String,
    source: String,
    local_size: (u32, u32, u32),
    #[serde(default)]
    subgroup: Subgroup,
    #[serde(default)]
    writes: Option<String>,
}

fn sp<T>(node: T) -> Spanned<T> {
    Spanned::new(node, Default::default())
}

fn stage_list(stages: &[Stage]) -> StageList {
    StageList { items: stages.iter().map(|&s| sp(s)).collect(), span: Default::default() }
}

fn token(t: Token) -> ast::Token {
    use ast::TokenKind as K;
    let (c, kind) = match t {
        Token::ExecutionSet(c) => {
            let kind = K::ExecutionSet {
                kind: sp(match c.kind {
                    Some(EsKind::ShaderObjects) => ast::ExecutionSetKind::ShaderObjects,
                    _ => ast::ExecutionSetKind::Pipelines,
                }),
                stages: stage_list(&c.stages),
                max_entries: sp(c.max_entries),
            };
            (c, kind)
        }
        Token::PushConstant(mut c) => {
            let data = match (c.fields.take(), c.size) {
                (Some(fields), _) => ast::PushData::Fields(
                    fields
                        .into_iter()
                        .map(|f| sp(ast::Field { doc: vec![], name: sp(f.name), ty: sp(field_type(f.ty)) }))
                        .collect(),
                ),
                (None, size) => ast::PushData::Size(sp(size.unwrap_or(0))),
            };
            let kind = K::PushConstant { stages: stage_list(&c.stages), offset: sp(c.offset), data };
            (c, kind)
        }
        Token::SequenceIndex(c) => {
            let kind = K::SequenceIndex { stages: stage_list(&c.stages), offset: sp(c.offset) };
            (c, kind)
        }
        Token::IndexBuffer(c) => {
            let mode = match c.mode {
                Some(Mode::Dxgi) => ast::IndexMode::Dxgi,
                _ => ast::IndexMode::Vulkan,
            };
            (c, K::IndexBuffer { mode: sp(mode) })
        }
        Token::VertexBuffer(c) => {
            let kind = K::VertexBuffer { binding: sp(c.binding) };
            (c, kind)
        }
        Token::Draw(c) => (c, K::Draw),
        Token::DrawIndexed(c) => (c, K::DrawIndexed),
        Token::DrawCount(c) => (c, K::DrawCount),
        Token::DrawIndexedCount(c) => (c, K::DrawIndexedCount),
        Token::Dispatch(c) => (c, K::Dispatch),
        Token::DrawMeshTasks(c) => (c, K::DrawMeshTasks),
        Token::DrawMeshTasksCount(c) => (c, K::DrawMeshTasksCount),
        Token::DrawMeshTasksNv(c) => (c, K::DrawMeshTasksNv),
        Token::DrawMeshTasksCountNv(c) => (c, K::DrawMeshTasksCountNv),
        Token::TraceRays2(c) => (c, K::TraceRays2),
    };
    ast::Token {
        doc: vec![],
        name: if c.name.is_empty() { None } else { Some(sp(c.name)) },
        at: c.at.map(sp),
        kind,
        kind_span: Default::default(),
    }
}

/// RON needs `Draw()` where the contract allows a bare `Draw`.
fn unit_tokens(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(i) = rest.find(|c: char| c.is_ascii_uppercase()) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
        let word = &rest[..end];
        out.push_str(word);
        rest = &rest[end..];
        let next = rest.trim_start().chars().next();
        if (word.starts_with("Draw") || word == "Dispatch" || word == "TraceRays2") && matches!(next, Some(',' | ']')) {
            out.push_str("()");
        }
    }
    out.push_str(rest);
    out
}

fn decision(profile: &str, s: Subgroup) -> KernelTarget {
    use dgcc::device::Limit;
    let p = dgcc::device::builtin(profile).expect("fixture targets are built-in profiles");
    match s {
        Subgroup::Any => KernelTarget { required_subgroup_size: None, flags: 0 },
        Subgroup::Varying => KernelTarget { required_subgroup_size: None, flags: 1 },
        Subgroup::Full => KernelTarget { required_subgroup_size: None, flags: 2 },
        Subgroup::Required { size, full } => {
            let n = match size {
                Size::Fixed(n) => n as u64,
                Size::Min => p.get(Limit::MinSubgroupSize).expect("profile states minSubgroupSize"),
                Size::Max => p.get(Limit::MaxSubgroupSize).expect("profile states maxSubgroupSize"),
            };
            KernelTarget { required_subgroup_size: Some(n as u32), flags: if full { 2 } else { 0 } }
        }
    }
}

/// The description (AST) and manifest of a fixture file's text.
pub fn load(src: &str) -> (ast::Pipeline, Manifest) {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES | ron::extensions::Extensions::IMPLICIT_SOME);
    let p: Pipeline =
        options.from_str(&unit_tokens(src)).unwrap_or_else(|e| panic!("fixture does not parse: {e}"));
    let targets = if p.targets.is_empty() { vec!["minimum".to_string()] } else { p.targets.clone() };
    let layouts: Vec<ast::Layout> = p
        .layouts
        .into_iter()
        .map(|l| ast::Layout {
            doc: vec![],
            name: sp(l.name),
            stages: stage_list(&l.stages),
            flags: l
                .flags
                .iter()
                .map(|f| {
                    sp(match f {
                        Flag::ExplicitPreprocess => ast::LayoutFlag::ExplicitPreprocess,
                        Flag::UnorderedSequences => ast::LayoutFlag::UnorderedSequences,
                    })
                })
                .collect(),
            max_sequences: sp(l.max_sequences),
            glsl_layout: sp(match l.glsl_layout {
                Glsl::Std430 => ast::GlslLayout::Std430,
                Glsl::Scalar => ast::GlslLayout::Scalar,
            }),
            stride: l.stride.map(sp),
            align: l.align.map(sp),
            tokens: l.tokens.into_iter().map(|t| sp(token(t))).collect(),
        })
        .collect();
    let kernels: Vec<ast::Kernel> = p
        .kernels
        .iter()
        .map(|k| ast::Kernel {
            doc: vec![],
            name: sp(k.name.clone()),
            source: sp(k.source.clone()),
            local_size: sp([k.local_size.0, k.local_size.1, k.local_size.2]),
            subgroup: sp(match k.subgroup {
                Subgroup::Any => ast::SubgroupReq::Any,
                Subgroup::Varying => ast::SubgroupReq::Varying,
                Subgroup::Full => ast::SubgroupReq::Full,
                Subgroup::Required { size, full } => ast::SubgroupReq::Required {
                    size: match size {
                        Size::Fixed(n) => ast::SubgroupSize::Fixed(n),
                        Size::Min => ast::SubgroupSize::Min,
                        Size::Max => ast::SubgroupSize::Max,
                    },
                    full,
                },
            }),
            writes: k.writes.clone().map(sp),
        })
        .collect();
    let mut compiled = vec![];
    for l in &layouts {
        let (out, diags) = dgcc::layout::compile_layout(l);
        assert!(out.valid && diags.is_empty(), "fixture layout {} does not lay out: {diags:?}", l.name.node);
        compiled.push(out.layout);
    }
    let manifest = Manifest {
        schema_version: SCHEMA_VERSION,
        pipeline: p.name.clone(),
        push_constants: p
            .push_constants
            .iter()
            .map(|r| PushConstantRange { stages: StageMask::of(r.stages.iter().copied()).0, offset: r.offset, size: r.size })
            .collect(),
        layouts: compiled,
        kernels: p
            .kernels
            .iter()
            .map(|k| CompiledKernel {
                name: k.name.clone(),
                source: k.source.clone(),
                local_size: [k.local_size.0, k.local_size.1, k.local_size.2],
                writes: k.writes.clone(),
                targets: targets.iter().map(|t| (t.clone(), decision(t, k.subgroup))).collect::<BTreeMap<_, _>>(),
            })
            .collect(),
    };
    let pipeline = ast::Pipeline {
        doc: vec![],
        name: sp(p.name),
        targets: targets.into_iter().map(sp).collect(),
        targets_defaulted: p.targets.is_empty(),
        push_constants: p
            .push_constants
            .iter()
            .map(|r| sp(ast::PushConstantRange { doc: vec![], stages: stage_list(&r.stages), offset: sp(r.offset), size: sp(r.size) }))
            .collect(),
        layouts: layouts.into_iter().map(sp).collect(),
        kernels: kernels.into_iter().map(sp).collect(),
    };
    (pipeline, manifest)
}
