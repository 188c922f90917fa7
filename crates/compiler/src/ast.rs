//! The description of one pipeline, as both front ends produce it.
//!
//! Why this shape: RON and the `.dgc` language are two spellings of one meaning, so they build
//! the same tree, and every node keeps the byte span of the text it came from (`Spanned`), so
//! that a diagnostic found anywhere later can point at the exact characters the user wrote.
//! Names and numbers of token kinds and field types are not here: they are rows of the core's
//! tables (`dgcc_core::tokens`, `dgcc_core::types`).
//!
//! Defaults are resolved by the front ends (an omitted `glsl_layout` is `Std430`), but
//! `Option`s stay options: `stride: None` means "computed", not "zero".
//!
//! Comments written directly above a pipeline item (layout, token, field, kernel, shader,
//! push-constant range) are kept as `doc` lines: `dgcc fmt` carries them across syntaxes, and
//! those of the pipeline, layouts, tokens, fields and kernels go into the manifest and, as
//! comments, into the generated code.
//!
//! Spans are ignored by `PartialEq` on `Spanned`, so two descriptions that mean the same thing
//! compare equal whatever their spelling (this is what the round-trip tests compare).

use dgcc_core::stages::{Stage, StageMask};
use dgcc_core::tokens::TokenType;

pub use dgcc_core::span::Span;
/// Field types and GLSL layouts are the core's typed table, shared with the IR.
pub use dgcc_core::types::{FieldType, GlslLayout};

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

/// One description file: a pipeline with its layouts, kernels and shaders.
#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    pub doc: Doc,
    pub name: Spanned<String>,
    /// Profile names or paths. Empty in the source means the front end filled in `["minimum"]`
    /// with `targets_defaulted = true`.
    pub targets: Vec<Spanned<String>>,
    pub targets_defaulted: bool,
    /// Per-code levels (`lints: [Allow("W0005")]`, `lints allow W0005;`), in the order written:
    /// the last for a code wins, and the command line wins over them all.
    pub lints: Vec<Lint>,
    pub push_constants: Vec<Spanned<PushConstantRange>>,
    pub layouts: Vec<Spanned<Layout>>,
    pub kernels: Vec<Spanned<Kernel>>,
    /// The draw and dispatch shaders of the pipeline, checked against the layouts of their
    /// stage; empty when the description names none (nothing is checked then).
    pub shaders: Vec<Spanned<Shader>>,
}

/// One entry of a pipeline's or a layout's `lints`: a level for a diagnostic code.
#[derive(Clone, Debug, PartialEq)]
pub struct Lint {
    pub level: Spanned<dgcc_core::levels::Level>,
    /// The code as written (`W0005`); the driver checks it against the registry.
    pub code: Spanned<String>,
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
    /// Per-code levels for this layout's own diagnostics (`lints: [Allow("W0508")]` in the
    /// layout, `lints allow W0508;` in its block), in the order written: they win over the
    /// pipeline's `lints`, and the command line wins over both (`check::lints` says which
    /// diagnostics are the layout's).
    pub lints: Vec<Lint>,
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

/// What a layout with an execution set does on a target that cannot bind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetFallback {
    Binned,
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

/// Where a push token writes: push constants (`PushConstant`, `SequenceIndex`, through the
/// pipeline layout's ranges) or the push data of VK_EXT_descriptor_heap (`PushData`,
/// `PushDataSequenceIndex`, whose range has no stages of its own: every stage reads it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PushSpace {
    #[default]
    Constants,
    Data,
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

/// What a token is (`VkIndirectCommandsTokenTypeEXT`) with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    ExecutionSet {
        kind: Spanned<ExecutionSetKind>,
        stages: StageList,
        max_entries: Spanned<u32>,
        /// `fallback: Binned` (RON) / `fallback binned` (`.dgc`).
        fallback: Option<Spanned<SetFallback>>,
    },
    /// `PushConstant`, or `PushData` with `space: Data` (whose `stages` are empty).
    PushConstant {
        stages: StageList,
        offset: Spanned<u32>,
        data: PushData,
        space: PushSpace,
    },
    /// `SequenceIndex`, or `PushDataSequenceIndex` with `space: Data`.
    SequenceIndex {
        stages: StageList,
        offset: Spanned<u32>,
        space: PushSpace,
    },
    IndexBuffer {
        mode: Spanned<IndexMode>,
    },
    VertexBuffer {
        binding: Spanned<u32>,
    },
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
    /// The Vulkan token type, whose row of the token table ([`dgcc_core::tokens::TOKENS`])
    /// holds every name and number of the kind. This match is the only per-kind code here.
    pub const fn token_type(&self) -> TokenType {
        match self {
            TokenKind::ExecutionSet { .. } => TokenType::ExecutionSet,
            TokenKind::PushConstant { space: PushSpace::Constants, .. } => TokenType::PushConstant,
            TokenKind::PushConstant { space: PushSpace::Data, .. } => TokenType::PushData,
            TokenKind::SequenceIndex { space: PushSpace::Constants, .. } => TokenType::SequenceIndex,
            TokenKind::SequenceIndex { space: PushSpace::Data, .. } => TokenType::PushDataSequenceIndex,
            TokenKind::IndexBuffer { .. } => TokenType::IndexBuffer,
            TokenKind::VertexBuffer { .. } => TokenType::VertexBuffer,
            TokenKind::Draw => TokenType::Draw,
            TokenKind::DrawIndexed => TokenType::DrawIndexed,
            TokenKind::DrawCount => TokenType::DrawCount,
            TokenKind::DrawIndexedCount => TokenType::DrawIndexedCount,
            TokenKind::Dispatch => TokenType::Dispatch,
            TokenKind::DrawMeshTasks => TokenType::DrawMeshTasks,
            TokenKind::DrawMeshTasksCount => TokenType::DrawMeshTasksCount,
            TokenKind::DrawMeshTasksNv => TokenType::DrawMeshTasksNv,
            TokenKind::DrawMeshTasksCountNv => TokenType::DrawMeshTasksCountNv,
            TokenKind::TraceRays2 => TokenType::TraceRays2,
        }
    }

    /// The kind of a token type without parameters (the actions); `None` for a type whose
    /// token takes parameters, which the front ends read field by field. The way back from
    /// [`token_type`](Self::token_type), exhaustive over `TokenType` so that a new row cannot
    /// be forgotten here.
    pub const fn parameterless(tt: TokenType) -> Option<TokenKind> {
        Some(match tt {
            TokenType::Draw => TokenKind::Draw,
            TokenType::DrawIndexed => TokenKind::DrawIndexed,
            TokenType::DrawCount => TokenKind::DrawCount,
            TokenType::DrawIndexedCount => TokenKind::DrawIndexedCount,
            TokenType::Dispatch => TokenKind::Dispatch,
            TokenType::DrawMeshTasks => TokenKind::DrawMeshTasks,
            TokenType::DrawMeshTasksCount => TokenKind::DrawMeshTasksCount,
            TokenType::DrawMeshTasksNv => TokenKind::DrawMeshTasksNv,
            TokenType::DrawMeshTasksCountNv => TokenKind::DrawMeshTasksCountNv,
            TokenType::TraceRays2 => TokenKind::TraceRays2,
            TokenType::ExecutionSet
            | TokenType::PushConstant
            | TokenType::SequenceIndex
            | TokenType::PushData
            | TokenType::PushDataSequenceIndex
            | TokenType::IndexBuffer
            | TokenType::VertexBuffer => return None,
        })
    }

    /// The variant name as written in RON (`PushConstant`).
    pub const fn variant_name(&self) -> &'static str {
        self.token_type().ron_name()
    }

    /// The default field name: the `.dgc` keyword, the variant in snake_case.
    pub const fn default_name(&self) -> &'static str {
        self.token_type().dgc_name()
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

/// A shader of the pipeline that runs from the generated commands: a draw or dispatch stage
/// whose push-constant block and vertex inputs must agree with the tokens (`crate::shader`).
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    pub doc: Doc,
    pub stage: Spanned<Stage>,
    /// Path relative to the description file: GLSL, or SPIR-V when it ends in `.spv`.
    pub source: Spanned<String>,
    /// A vertex shader's `VkVertexInputAttributeDescription`s: the binding each input location
    /// reads. Empty when not stated (other stages have none).
    pub attributes: Vec<Spanned<Attribute>>,
}

impl Shader {
    /// Whether `source` names a SPIR-V module rather than GLSL.
    pub fn is_spirv(&self) -> bool {
        std::path::Path::new(&self.source.node).extension().is_some_and(|e| e.eq_ignore_ascii_case("spv"))
    }
}

/// Vertex input location `location` reads binding `binding`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub location: Spanned<u32>,
    pub binding: Spanned<u32>,
}
