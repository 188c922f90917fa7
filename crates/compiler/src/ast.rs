//! The description of one pipeline, as both front ends produce it.
//!
//! Why this shape: RON and the `.dgc` language are two spellings of one meaning, so they build
//! the same tree, and every node keeps the byte span of the text it came from (`Spanned`), so
//! that a diagnostic found anywhere later can point at the exact characters the user wrote.
//! Defaults are resolved by the front ends (an omitted `glsl_layout` is `Std430`), but
//! `Option`s stay options: `stride: None` means "computed", not "zero".
//!
//! Comments written directly above a pipeline item (layout, token, field, kernel, push-constant
//! range) are kept as `doc` lines: `dgcc fmt` carries them across syntaxes, and those of the
//! pipeline, layouts, tokens, fields and kernels go into the manifest and, as comments, into the
//! generated code.
//!
//! Spans are ignored by `PartialEq` on `Spanned`, so two descriptions that mean the same thing
//! compare equal whatever their spelling (this is what the round-trip tests compare).

use dgcc_core::stages::{Stage, StageMask};

pub use dgcc_core::span::Span;

/// A value with the span of its text. Equality ignores the span.
#[derive(Clone, Debug, Default)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub const fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.node
    }
}

/// Comment lines written above an item, without the `//` and one leading space.
pub type Doc = Vec<String>;

/// One description file: a pipeline with its layouts and kernels.
#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    pub doc: Doc,
    pub name: Spanned<String>,
    /// Profile names or paths. Empty in the source means the front end filled in `["minimum"]`
    /// with `targets_defaulted = true`.
    pub targets: Vec<Spanned<String>>,
    pub targets_defaulted: bool,
    pub push_constants: Vec<Spanned<PushConstantRange>>,
    pub layouts: Vec<Spanned<Layout>>,
    pub kernels: Vec<Spanned<Kernel>>,
}

/// A list of stages with a span for each and one for the whole list.
#[derive(Clone, Debug, Default)]
pub struct StageList {
    pub items: Vec<Spanned<Stage>>,
    pub span: Span,
}

/// Equality ignores the span, like `Spanned`'s.
impl PartialEq for StageList {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}

impl StageList {
    pub fn mask(&self) -> StageMask {
        StageMask::of(self.items.iter().map(|s| s.node))
    }
}

/// One `VkPushConstantRange` of the pipeline layout.
#[derive(Clone, Debug, PartialEq)]
pub struct PushConstantRange {
    pub doc: Doc,
    pub stages: StageList,
    pub offset: Spanned<u32>,
    pub size: Spanned<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutFlag {
    ExplicitPreprocess,
    UnorderedSequences,
}

impl LayoutFlag {
    /// `VkIndirectCommandsLayoutUsageFlagBitsEXT`.
    pub const fn bit(self) -> u32 {
        match self {
            LayoutFlag::ExplicitPreprocess => 0x1,
            LayoutFlag::UnorderedSequences => 0x2,
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            LayoutFlag::ExplicitPreprocess => "ExplicitPreprocess",
            LayoutFlag::UnorderedSequences => "UnorderedSequences",
        }
    }
}

/// How the stream record struct is declared in GLSL; drives field alignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GlslLayout {
    #[default]
    Std430,
    Scalar,
}

impl GlslLayout {
    pub const fn name(self) -> &'static str {
        match self {
            GlslLayout::Std430 => "Std430",
            GlslLayout::Scalar => "Scalar",
        }
    }
}

/// One `VkIndirectCommandsLayoutEXT`.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub doc: Doc,
    pub name: Spanned<String>,
    pub stages: StageList,
    pub flags: Vec<Spanned<LayoutFlag>>,
    pub max_sequences: Spanned<u32>,
    pub glsl_layout: Spanned<GlslLayout>,
    pub stride: Option<Spanned<u32>>,
    pub align: Option<Spanned<u32>>,
    pub tokens: Vec<Spanned<Token>>,
}

/// One token of a layout, in stream order.
#[derive(Clone, Debug)]
pub struct Token {
    pub doc: Doc,
    /// `name: "…"`; `None` means the default, the kind in snake_case.
    pub name: Option<Spanned<String>>,
    /// `at: Some(N)`: a pinned byte offset in the stream record.
    pub at: Option<Spanned<u32>>,
    pub kind: TokenKind,
    /// The span of the variant name (`PushConstant`), for diagnostics about the token itself.
    pub kind_span: Span,
}

/// Equality ignores `kind_span`, like `Spanned`'s.
impl PartialEq for Token {
    fn eq(&self, other: &Self) -> bool {
        self.doc == other.doc && self.name == other.name && self.at == other.at && self.kind == other.kind
    }
}

impl Token {
    /// The field name used in generated code.
    pub fn field_name(&self) -> String {
        match &self.name {
            Some(n) => n.node.clone(),
            None => self.kind.default_name().to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecutionSetKind {
    Pipelines,
    ShaderObjects,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexMode {
    Vulkan,
    Dxgi,
}

impl IndexMode {
    /// `VkIndirectCommandsInputModeFlagBitsEXT`.
    pub const fn bit(self) -> u32 {
        match self {
            IndexMode::Vulkan => 0x1,
            IndexMode::Dxgi => 0x2,
        }
    }
}

/// The data of a push-constant token: typed fields or a raw size.
#[derive(Clone, Debug, PartialEq)]
pub enum PushData {
    Fields(Vec<Spanned<Field>>),
    Size(Spanned<u32>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub doc: Doc,
    pub name: Spanned<String>,
    pub ty: Spanned<FieldType>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    U32,
    I32,
    F32,
    U64,
    /// A `VkDeviceAddress`.
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
    Array(Box<FieldType>, u32),
}

impl FieldType {
    /// The scalar (non-array) types with their names, as written in descriptions.
    pub const SCALARS: [(FieldType, &'static str); 15] = [
        (FieldType::U32, "U32"),
        (FieldType::I32, "I32"),
        (FieldType::F32, "F32"),
        (FieldType::U64, "U64"),
        (FieldType::Address, "Address"),
        (FieldType::Vec2, "Vec2"),
        (FieldType::Vec3, "Vec3"),
        (FieldType::Vec4, "Vec4"),
        (FieldType::UVec2, "UVec2"),
        (FieldType::UVec3, "UVec3"),
        (FieldType::UVec4, "UVec4"),
        (FieldType::IVec2, "IVec2"),
        (FieldType::IVec3, "IVec3"),
        (FieldType::IVec4, "IVec4"),
        (FieldType::Mat4, "Mat4"),
    ];

    pub fn from_name(s: &str) -> Option<FieldType> {
        FieldType::SCALARS.iter().find(|(_, n)| *n == s).map(|(t, _)| t.clone())
    }

    /// `Array(Vec4, 2)`, as written in RON and `.dgc`.
    pub fn describe(&self) -> String {
        match self {
            FieldType::Array(inner, n) => format!("Array({}, {})", inner.describe(), n),
            other => {
                FieldType::SCALARS.iter().find(|(t, _)| t == other).map(|(_, n)| n.to_string()).unwrap_or_default()
            }
        }
    }
}

/// What a token is (`VkIndirectCommandsTokenTypeEXT`) with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    ExecutionSet { kind: Spanned<ExecutionSetKind>, stages: StageList, max_entries: Spanned<u32> },
    PushConstant { stages: StageList, offset: Spanned<u32>, data: PushData },
    SequenceIndex { stages: StageList, offset: Spanned<u32> },
    IndexBuffer { mode: Spanned<IndexMode> },
    VertexBuffer { binding: Spanned<u32> },
    Draw,
    DrawIndexed,
    DrawCount,
    DrawIndexedCount,
    Dispatch,
    DrawMeshTasks,
    DrawMeshTasksCount,
    DrawMeshTasksNv,
    DrawMeshTasksCountNv,
    TraceRays2,
}

impl TokenKind {
    /// The variant name as written in RON (`PushConstant`).
    pub const fn variant_name(&self) -> &'static str {
        match self {
            TokenKind::ExecutionSet { .. } => "ExecutionSet",
            TokenKind::PushConstant { .. } => "PushConstant",
            TokenKind::SequenceIndex { .. } => "SequenceIndex",
            TokenKind::IndexBuffer { .. } => "IndexBuffer",
            TokenKind::VertexBuffer { .. } => "VertexBuffer",
            TokenKind::Draw => "Draw",
            TokenKind::DrawIndexed => "DrawIndexed",
            TokenKind::DrawCount => "DrawCount",
            TokenKind::DrawIndexedCount => "DrawIndexedCount",
            TokenKind::Dispatch => "Dispatch",
            TokenKind::DrawMeshTasks => "DrawMeshTasks",
            TokenKind::DrawMeshTasksCount => "DrawMeshTasksCount",
            TokenKind::DrawMeshTasksNv => "DrawMeshTasksNv",
            TokenKind::DrawMeshTasksCountNv => "DrawMeshTasksCountNv",
            TokenKind::TraceRays2 => "TraceRays2",
        }
    }

    /// The default field name: the variant in snake_case.
    pub const fn default_name(&self) -> &'static str {
        match self {
            TokenKind::ExecutionSet { .. } => "execution_set",
            TokenKind::PushConstant { .. } => "push_constant",
            TokenKind::SequenceIndex { .. } => "sequence_index",
            TokenKind::IndexBuffer { .. } => "index_buffer",
            TokenKind::VertexBuffer { .. } => "vertex_buffer",
            TokenKind::Draw => "draw",
            TokenKind::DrawIndexed => "draw_indexed",
            TokenKind::DrawCount => "draw_count",
            TokenKind::DrawIndexedCount => "draw_indexed_count",
            TokenKind::Dispatch => "dispatch",
            TokenKind::DrawMeshTasks => "draw_mesh_tasks",
            TokenKind::DrawMeshTasksCount => "draw_mesh_tasks_count",
            TokenKind::DrawMeshTasksNv => "draw_mesh_tasks_nv",
            TokenKind::DrawMeshTasksCountNv => "draw_mesh_tasks_count_nv",
            TokenKind::TraceRays2 => "trace_rays2",
        }
    }

    /// The Vulkan token type.
    pub fn token_type(&self) -> dgcc_core::ir::TokenType {
        use dgcc_core::ir::TokenType as T;
        match self {
            TokenKind::ExecutionSet { .. } => T::ExecutionSet,
            TokenKind::PushConstant { .. } => T::PushConstant,
            TokenKind::SequenceIndex { .. } => T::SequenceIndex,
            TokenKind::IndexBuffer { .. } => T::IndexBuffer,
            TokenKind::VertexBuffer { .. } => T::VertexBuffer,
            TokenKind::Draw => T::Draw,
            TokenKind::DrawIndexed => T::DrawIndexed,
            TokenKind::DrawCount => T::DrawCount,
            TokenKind::DrawIndexedCount => T::DrawIndexedCount,
            TokenKind::Dispatch => T::Dispatch,
            TokenKind::DrawMeshTasks => T::DrawMeshTasks,
            TokenKind::DrawMeshTasksCount => T::DrawMeshTasksCount,
            TokenKind::DrawMeshTasksNv => T::DrawMeshTasksNv,
            TokenKind::DrawMeshTasksCountNv => T::DrawMeshTasksCountNv,
            TokenKind::TraceRays2 => T::TraceRays2,
        }
    }
}

/// A compute kernel that writes an indirect stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub doc: Doc,
    pub name: Spanned<String>,
    /// Path relative to the description file.
    pub source: Spanned<String>,
    pub local_size: Spanned<[u32; 3]>,
    pub subgroup: Spanned<SubgroupReq>,
    pub writes: Option<Spanned<String>>,
}

/// A kernel's subgroup-size requirement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SubgroupReq {
    /// No subgroup-size control.
    #[default]
    Any,
    /// `ALLOW_VARYING_SUBGROUP_SIZE`.
    Varying,
    /// `REQUIRE_FULL_SUBGROUPS` without a required size.
    Full,
    /// `VkPipelineShaderStageRequiredSubgroupSizeCreateInfo`.
    Required { size: SubgroupSize, full: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubgroupSize {
    Fixed(u32),
    /// The target's `minSubgroupSize`.
    Min,
    /// The target's `maxSubgroupSize`.
    Max,
}
