//! The compiled pipeline: what the layout engine produces, what the manifest serializes, what
//! the emitters print and what the runtime executes.
//!
//! Why it is separate from the AST: the runtime (and engines that embed it) must read a
//! manifest without the compiler's parsers, so this module depends on serde alone. Every number
//! here is final: offsets, sizes, strides and Vulkan enum values, nothing left to compute.
//! Token types, field types and member types are the typed rows of [`crate::tokens`] and
//! [`crate::types`] (re-exported here), serialized as the strings the manifest always had.
//!
//! The JSON form (`scene.dgc.json`) is the manifest of the book's Embedding, "The manifest": keys
//! appear in declaration order, which is stable, and `schema_version` changes when a key changes
//! meaning.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use crate::tokens::TokenType;
pub use crate::types::{FieldType, GlslLayout, MemberType};

/// Bumped when a manifest key is renamed, dropped or changes meaning.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema_version: u32,
    pub pipeline: String,
    /// The description's comment lines written above the item (emitted as doc comments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    /// The pipeline layout's push-constant ranges.
    #[serde(default)]
    pub push_constants: Vec<PushConstantRange>,
    pub layouts: Vec<CompiledLayout>,
    #[serde(default)]
    pub kernels: Vec<CompiledKernel>,
}

impl Manifest {
    pub fn layout(&self, name: &str) -> Option<&CompiledLayout> {
        self.layouts.iter().find(|l| l.name == name)
    }
    /// Parse a manifest, checking its schema version.
    pub fn from_json(text: &str) -> Result<Manifest, String> {
        let m: Manifest = serde_json::from_str(text).map_err(|e| format!("not a dgcc manifest: {e}"))?;
        if m.schema_version != SCHEMA_VERSION {
            return Err(format!(
                "manifest schema version {} is not supported (this dgcc reads version {SCHEMA_VERSION})",
                m.schema_version
            ));
        }
        Ok(m)
    }
    /// The manifest as pretty JSON with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("manifest serializes");
        s.push('\n');
        s
    }
}

/// A `VkPushConstantRange`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushConstantRange {
    pub stages: u32,
    pub offset: u32,
    pub size: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompiledLayout {
    pub name: String,
    /// The description's comment lines written above the item (emitted as doc comments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    /// `indirectStride` in bytes.
    pub stride: u32,
    /// `VkIndirectCommandsLayoutCreateInfoEXT::shaderStages`.
    pub shader_stages: u32,
    /// `VkIndirectCommandsLayoutUsageFlagsEXT`.
    pub flags: u32,
    pub max_sequences: u32,
    /// `std430` or `scalar`.
    pub glsl_layout: GlslLayout,
    /// Alignment of the record struct in GLSL (the stride is a multiple of it).
    pub record_align: u32,
    pub tokens: Vec<CompiledToken>,
    /// The record struct member by member, padding included: what the emitters declare.
    pub record: Vec<RecordMember>,
    /// What must hold when the layout is recorded (`crate::requirements`): derived from the
    /// layout, exposed by the generated Rust and C, enforced by the runtime. Absent in a
    /// manifest of an older dgcc; the runtime derives them again either way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<Requirement>,
}

impl CompiledLayout {
    /// The bytes of stream data its tokens read, overlaps counted once per token: what the
    /// emitters spell out member by member (a word, a cell, a line each).
    pub fn data_bytes(&self) -> u64 {
        self.tokens.iter().map(|t| t.size as u64).sum()
    }

    pub fn action(&self) -> Option<&CompiledToken> {
        self.tokens.last().filter(|t| t.token_type.is_action())
    }

    /// The layout's execution set, if it has one.
    pub fn execution_set(&self) -> Option<&ExecutionSet> {
        self.tokens.iter().find(|t| t.token_type == TokenType::ExecutionSet).and_then(|t| t.execution_set.as_ref())
    }

    /// The layout binned: the same records (stride and every other token where they were),
    /// without its EXECUTION_SET token, for one execute per set entry with that entry's
    /// pipeline bound (`SetFallback::Binned`).
    pub fn without_execution_set(&self) -> CompiledLayout {
        let mut binned = self.clone();
        let Some(set) = self.tokens.iter().position(|t| t.token_type == TokenType::ExecutionSet) else {
            return binned;
        };
        binned.tokens.remove(set);
        // The set's bytes stay in the record, read by no token now; later tokens move down one.
        for m in &mut binned.record {
            m.token = match m.token {
                Some(t) if t == set => None,
                Some(t) if t > set => Some(t - 1),
                other => other,
            };
        }
        binned
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompiledToken {
    pub name: String,
    /// The description's comment lines written above the item (emitted as doc comments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    /// `PUSH_CONSTANT`: the `VkIndirectCommandsTokenTypeEXT` name without prefix and suffix.
    #[serde(rename = "type")]
    pub token_type: TokenType,
    /// The Vulkan value of `type`.
    pub type_value: u32,
    /// Byte offset in the record.
    pub offset: u32,
    /// Bytes of stream data.
    pub size: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_constant: Option<PushConstantRange>,
    /// `VkIndirectCommandsInputModeFlagBitsEXT` of an index-buffer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_mode: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertex_binding: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution_set: Option<ExecutionSet>,
    /// Typed push-constant fields, offsets relative to the token.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldLayout>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecutionSet {
    /// `VkIndirectExecutionSetInfoTypeEXT`: 0 pipelines, 1 shader objects.
    pub kind: u32,
    pub stages: u32,
    pub max_entries: u32,
    /// What the engine does on a target that cannot bind the set's stages (`fallback:` in the
    /// description); absent from the manifest when the description states none.
    #[serde(default, skip_serializing_if = "SetFallback::is_none")]
    pub fallback: SetFallback,
}

/// How a layout with an execution set runs where the target cannot bind the set's stages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetFallback {
    /// Nothing: the layout is refused there (E0604–E0610).
    #[default]
    None,
    /// The stream is binned by its set index and executed once per entry, with the entry's
    /// pipeline bound and the layout's EXECUTION_SET token left out (N0001 says so per target).
    Binned,
}

impl SetFallback {
    pub fn is_none(&self) -> bool {
        *self == SetFallback::None
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldLayout {
    pub name: String,
    /// The description's comment lines written above the item (emitted as doc comments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    /// As written in the description: `U32`, `Vec4`, `Array(F32, 4)`.
    pub ty: FieldType,
    pub offset: u32,
    pub size: u32,
}

/// One member of the flattened GLSL/C/Rust record struct.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordMember {
    /// Member name in generated code (`object_object_id`, `draw_index_count`, `_pad0`).
    pub name: String,
    /// The type of the member (of one element, for an array): `uint`, `int`, `float`,
    /// `uint64_t`, and vectors `uvec2`, `vec3`, `mat4`, … as GLSL spells them.
    pub glsl_type: MemberType,
    /// Array length, 0 for a plain member.
    pub array: u32,
    /// Bytes between array elements (0 for a plain member).
    pub array_stride: u32,
    pub offset: u32,
    pub size: u32,
    /// Index of the token this member belongs to; `None` for padding.
    pub token: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompiledKernel {
    pub name: String,
    /// The description's comment lines written above the item (emitted as doc comments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    pub source: String,
    pub local_size: [u32; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writes: Option<String>,
    /// The subgroup decision per target profile.
    pub targets: BTreeMap<String, KernelTarget>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelTarget {
    /// `requiredSubgroupSize`, when the kernel pins one on this target.
    pub required_subgroup_size: Option<u32>,
    /// `VkPipelineShaderStageCreateFlags`: 0x1 allow varying, 0x2 require full.
    pub flags: u32,
}

/// One record-time requirement of a layout (`crate::requirements` derives, describes and
/// checks them; the type lives here so that the manifest depends on nothing else).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Requirement {
    RenderPass { inside: bool },
    Preprocess { explicit: bool },
    TransformFeedback { execution_set: bool },
    VertexInputBindingStride,
    IndirectBindable { shader_objects: bool },
    NoDynamicDescriptors { shader_objects: bool },
    InitialShaderStages { stages: u32 },
    ExecutionSetPushConstants { ranges: Vec<PushConstantRange> },
    NoMultiview,
}
