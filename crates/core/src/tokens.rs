//! The one table of token types: every `VkIndirectCommandsTokenTypeEXT` dgcc knows, with
//! everything the rest of the workspace says about it.
//!
//! Why one table: the syntaxes (RON `DrawIndexed`, `.dgc` `draw_indexed`), the manifest
//! (`DRAW_INDEXED`), the emitters (`VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT`), the
//! diagnostics and the runtime must all name a token type, size its data and know what it does,
//! and four hand-kept copies of that vocabulary drifted only by luck. Each row of [`TOKENS`] is
//! one token type; [`TokenType`]'s methods, the front ends' lookups, the printers and the
//! emitters read it. Adding a token type is one variant, one row and its rules (the rules stay
//! with their codes in `check/`, because each one is a sentence of its own).
//!
//! Row order is the order descriptions list the kinds in (messages such as "expected
//! `ExecutionSet`, `PushConstant`, …" and the typo suggestions follow it): state tokens, then
//! the actions. It is not the Vulkan value order; [`by_value`] gives that one.

use serde::de::{self, Deserializer, EnumAccess, VariantAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// `VkIndirectCommandsTokenTypeEXT`, serialized as its name without prefix and `_EXT`
/// ([`TokenInfo::manifest`]). Declared in the order of [`TOKENS`], whose row `t as usize` it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenType {
    ExecutionSet,
    PushConstant,
    SequenceIndex,
    PushData,
    PushDataSequenceIndex,
    IndexBuffer,
    VertexBuffer,
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

/// What a token does in a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    /// State set before the action: execution set, push constants, sequence index, buffers.
    State,
    /// A draw of the vertex pipeline, which needs vertex input; `indexed` reads the bound
    /// index buffer.
    Draw {
        indexed: bool,
    },
    /// Task and mesh shading (EXT and NV).
    Mesh,
    Dispatch,
    /// Ray tracing.
    Rays,
}

/// One row of the token table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenInfo {
    pub ty: TokenType,
    /// The RON variant name (`DrawIndexed`), also how diagnostics name the kind.
    pub ron: &'static str,
    /// The `.dgc` keyword (`draw_indexed`), also the default field name of such a token.
    pub dgc: &'static str,
    /// The manifest name (`DRAW_INDEXED`): the Vulkan name without prefix and `_EXT`, and the
    /// constant's name in ash-style bindings.
    pub manifest: &'static str,
    /// The full Vulkan name (`VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT`).
    pub vk: &'static str,
    /// The Vulkan enum value.
    pub value: u32,
    /// Bytes of stream data for the fixed-size tokens (spec section "Supported Indirect Command
    /// Tokens"); `None` for push constants, push data and execution sets, whose size depends on
    /// parameters.
    pub fixed_size: Option<u32>,
    pub class: TokenClass,
    /// A multi-draw `*_COUNT` token, which reads its draw count from a buffer.
    pub count: bool,
}

const fn row(
    ty: TokenType,
    names: [&'static str; 4],
    value: u32,
    fixed_size: Option<u32>,
    class: TokenClass,
    count: bool,
) -> TokenInfo {
    let [ron, dgc, manifest, vk] = names;
    TokenInfo { ty, ron, dgc, manifest, vk, value, fixed_size, class, count }
}

use TokenClass::{Dispatch as DISPATCH, Mesh as MESH, Rays as RAYS, State as STATE};
const DRAW: TokenClass = TokenClass::Draw { indexed: false };
const INDEXED: TokenClass = TokenClass::Draw { indexed: true };

/// Every token type, one row each, in [`TokenType`]'s declaration order.
#[rustfmt::skip]
pub static TOKENS: [TokenInfo; 17] = [
    row(TokenType::ExecutionSet, ["ExecutionSet", "execution_set", "EXECUTION_SET", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT"], 0, None, STATE, false),
    row(TokenType::PushConstant, ["PushConstant", "push_constant", "PUSH_CONSTANT", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT"], 1, None, STATE, false),
    row(TokenType::SequenceIndex, ["SequenceIndex", "sequence_index", "SEQUENCE_INDEX", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT"], 2, Some(4), STATE, false),
    // VK_EXT_descriptor_heap (Vulkan 1.4.340): the descriptor-heap model's push data, `u8[]` raw data and a `u32` placeholder.
    row(TokenType::PushData, ["PushData", "push_data", "PUSH_DATA", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_DATA_EXT"], 1_000_135_000, None, STATE, false),
    row(TokenType::PushDataSequenceIndex, ["PushDataSequenceIndex", "push_data_sequence_index", "PUSH_DATA_SEQUENCE_INDEX", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_DATA_SEQUENCE_INDEX_EXT"], 1_000_135_001, Some(4), STATE, false),
    row(TokenType::IndexBuffer, ["IndexBuffer", "index_buffer", "INDEX_BUFFER", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT"], 3, Some(16), STATE, false),
    row(TokenType::VertexBuffer, ["VertexBuffer", "vertex_buffer", "VERTEX_BUFFER", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT"], 4, Some(16), STATE, false),
    row(TokenType::Draw, ["Draw", "draw", "DRAW", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT"], 6, Some(16), DRAW, false),
    row(TokenType::DrawIndexed, ["DrawIndexed", "draw_indexed", "DRAW_INDEXED", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT"], 5, Some(20), INDEXED, false),
    row(TokenType::DrawCount, ["DrawCount", "draw_count", "DRAW_COUNT", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT"], 8, Some(16), DRAW, true),
    row(TokenType::DrawIndexedCount, ["DrawIndexedCount", "draw_indexed_count", "DRAW_INDEXED_COUNT", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT"], 7, Some(16), INDEXED, true),
    row(TokenType::Dispatch, ["Dispatch", "dispatch", "DISPATCH", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT"], 9, Some(12), DISPATCH, false),
    row(TokenType::DrawMeshTasks, ["DrawMeshTasks", "draw_mesh_tasks", "DRAW_MESH_TASKS", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_EXT"], 1_000_328_000, Some(12), MESH, false),
    row(TokenType::DrawMeshTasksCount, ["DrawMeshTasksCount", "draw_mesh_tasks_count", "DRAW_MESH_TASKS_COUNT", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_COUNT_EXT"], 1_000_328_001, Some(16), MESH, true),
    row(TokenType::DrawMeshTasksNv, ["DrawMeshTasksNv", "draw_mesh_tasks_nv", "DRAW_MESH_TASKS_NV", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_NV_EXT"], 1_000_202_002, Some(8), MESH, false),
    row(TokenType::DrawMeshTasksCountNv, ["DrawMeshTasksCountNv", "draw_mesh_tasks_count_nv", "DRAW_MESH_TASKS_COUNT_NV", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_COUNT_NV_EXT"], 1_000_202_003, Some(16), MESH, true),
    // VkTraceRaysIndirectCommand2KHR: 100 bytes of members, sizeof 104.
    row(TokenType::TraceRays2, ["TraceRays2", "trace_rays2", "TRACE_RAYS2", "VK_INDIRECT_COMMANDS_TOKEN_TYPE_TRACE_RAYS2_EXT"], 1_000_386_004, Some(104), RAYS, false),
];

// The table is indexed by the enum: a row out of place fails the build.
const _: () = {
    let mut i = 0;
    while i < TOKENS.len() {
        assert!(TOKENS[i].ty as usize == i, "TOKENS is not in TokenType's declaration order");
        i += 1;
    }
};

/// The manifest names, for serde's "expected one of" message.
const MANIFEST_NAMES: [&str; TOKENS.len()] = {
    let mut names = [""; TOKENS.len()];
    let mut i = 0;
    while i < TOKENS.len() {
        names[i] = TOKENS[i].manifest;
        i += 1;
    }
    names
};

/// The rows in Vulkan value order (how `vulkan.h` declares the enum).
pub fn by_value() -> Vec<&'static TokenInfo> {
    let mut rows: Vec<&TokenInfo> = TOKENS.iter().collect();
    rows.sort_by_key(|r| r.value);
    rows
}

impl TokenType {
    /// Every token type, in table order.
    pub fn all() -> impl Iterator<Item = TokenType> {
        TOKENS.iter().map(|r| r.ty)
    }

    /// This type's row of [`TOKENS`].
    pub const fn info(self) -> &'static TokenInfo {
        &TOKENS[self as usize]
    }

    /// The type a RON variant name (`DrawIndexed`) names; `None` for any other word.
    pub fn from_ron(name: &str) -> Option<TokenType> {
        TOKENS.iter().find(|r| r.ron == name).map(|r| r.ty)
    }

    /// The type a `.dgc` keyword (`draw_indexed`) names; `None` for any other word.
    pub fn from_dgc(name: &str) -> Option<TokenType> {
        TOKENS.iter().find(|r| r.dgc == name).map(|r| r.ty)
    }

    /// The type a manifest name (`DRAW_INDEXED`) names; `None` for any other word.
    pub fn from_manifest(name: &str) -> Option<TokenType> {
        TOKENS.iter().find(|r| r.manifest == name).map(|r| r.ty)
    }

    /// The type with this Vulkan value.
    pub fn from_value(value: u32) -> Option<TokenType> {
        TOKENS.iter().find(|r| r.value == value).map(|r| r.ty)
    }

    /// The Vulkan enum value.
    pub const fn value(self) -> u32 {
        self.info().value
    }

    /// The name as the manifest writes it (`DRAW_INDEXED`).
    pub const fn manifest_name(self) -> &'static str {
        self.info().manifest
    }

    /// The full Vulkan name (`VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT`).
    pub const fn vk_name(self) -> &'static str {
        self.info().vk
    }

    /// The name descriptions use: the RON variant (`DrawIndexed`).
    pub const fn ron_name(self) -> &'static str {
        self.info().ron
    }

    /// The `.dgc` keyword (`draw_indexed`), which is also the default field name.
    pub const fn dgc_name(self) -> &'static str {
        self.info().dgc
    }

    /// Bytes of stream data for the fixed-size tokens; `None` for push constants, push data and
    /// execution sets, whose size depends on parameters.
    pub const fn fixed_size(self) -> Option<u32> {
        self.info().fixed_size
    }

    pub const fn class(self) -> TokenClass {
        self.info().class
    }

    /// Action tokens end a sequence: draws, dispatches, mesh tasks, ray tracing.
    pub const fn is_action(self) -> bool {
        !matches!(self.class(), TokenClass::State)
    }

    /// Draw tokens that need a graphics (vertex-input) pipeline.
    pub const fn is_vertex_draw(self) -> bool {
        matches!(self.class(), TokenClass::Draw { .. })
    }

    pub const fn is_indexed_draw(self) -> bool {
        matches!(self.class(), TokenClass::Draw { indexed: true })
    }

    pub const fn is_mesh(self) -> bool {
        matches!(self.class(), TokenClass::Mesh)
    }

    /// The descriptor-heap tokens (`PUSH_DATA`, `PUSH_DATA_SEQUENCE_INDEX`), which update push
    /// data rather than push constants.
    pub const fn is_push_data(self) -> bool {
        matches!(self, TokenType::PushData | TokenType::PushDataSequenceIndex)
    }

    /// The tokens that push the sequence index (`SEQUENCE_INDEX`, `PUSH_DATA_SEQUENCE_INDEX`),
    /// whose stream data is a placeholder nobody reads.
    pub const fn is_sequence_index(self) -> bool {
        matches!(self, TokenType::SequenceIndex | TokenType::PushDataSequenceIndex)
    }

    /// The multi-draw `*_COUNT` tokens.
    pub const fn is_count(self) -> bool {
        self.info().count
    }
}

impl fmt::Display for TokenType {
    /// The manifest name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.manifest_name())
    }
}

impl Serialize for TokenType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit_variant("TokenType", *self as u32, self.manifest_name())
    }
}

/// Reads what a derived unit-variant enum reads (`"DRAW"`), with the same messages.
impl<'de> Deserialize<'de> for TokenType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Tag(TokenType);
        impl<'de> Deserialize<'de> for Tag {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = Tag;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("variant identifier")
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<Tag, E> {
                        TokenType::from_manifest(v).map(Tag).ok_or_else(|| E::unknown_variant(v, &MANIFEST_NAMES))
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tag, E> {
                        TOKENS
                            .get(v as usize)
                            .map(|r| Tag(r.ty))
                            .ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(v), &"variant index 0 <= i < 17"))
                    }
                }
                d.deserialize_identifier(V)
            }
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TokenType;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("enum TokenType")
            }
            fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<TokenType, A::Error> {
                let (Tag(t), variant) = data.variant::<Tag>()?;
                variant.unit_variant()?;
                Ok(t)
            }
        }
        d.deserialize_enum("TokenType", &MANIFEST_NAMES, V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `DrawIndexed` → `draw_indexed`; `TraceRays2` → `trace_rays2`.
    fn snake(ron: &str) -> String {
        let mut s = String::new();
        for (i, c) in ron.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                s.push('_');
            }
            s.push(c.to_ascii_lowercase());
        }
        s
    }

    #[test]
    fn every_name_of_a_row_derives_from_its_ron_name() {
        for r in &TOKENS {
            assert_eq!(format!("{:?}", r.ty), r.ron, "the variant is the RON name");
            assert_eq!(r.dgc, snake(r.ron));
            assert_eq!(r.manifest, r.dgc.to_ascii_uppercase());
            assert_eq!(r.vk, format!("VK_INDIRECT_COMMANDS_TOKEN_TYPE_{}_EXT", r.manifest));
            assert_eq!(r.ty.info(), r);
            assert_eq!(TokenType::from_ron(r.ron), Some(r.ty));
            assert_eq!(TokenType::from_dgc(r.dgc), Some(r.ty));
            assert_eq!(TokenType::from_manifest(r.manifest), Some(r.ty));
            assert_eq!(TokenType::from_value(r.value), Some(r.ty));
            assert_eq!(
                r.fixed_size.is_none(),
                matches!(r.ty, TokenType::PushConstant | TokenType::PushData | TokenType::ExecutionSet)
            );
            assert!(!r.count || r.ron.contains("Count"));
        }
    }

    #[test]
    fn unknown_names_are_none_not_a_default() {
        for word in ["", "draw", "DRAW", "Frobnicate", "DrawIndexedEXT"] {
            assert_eq!(TokenType::from_ron(word), None, "{word}");
        }
        assert_eq!(TokenType::from_dgc("Draw"), None);
        assert_eq!(TokenType::from_manifest("Draw"), None);
        assert_eq!(TokenType::from_value(10), None);
    }

    #[test]
    fn the_manifest_spelling_reads_back_and_an_unknown_one_is_a_serde_error() {
        for t in TokenType::all() {
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.manifest_name()));
            assert_eq!(serde_json::from_str::<TokenType>(&json).unwrap(), t);
        }
        let err = serde_json::from_str::<TokenType>("\"DRAW_TWICE\"").unwrap_err().to_string();
        assert!(
            err.starts_with("unknown variant `DRAW_TWICE`, expected one of `EXECUTION_SET`, `PUSH_CONSTANT`"),
            "{err}"
        );
        assert!(serde_json::from_str::<TokenType>("3").is_err());
    }

    #[test]
    fn by_value_is_vulkan_order() {
        let values: Vec<u32> = by_value().iter().map(|r| r.value).collect();
        assert_eq!(
            values,
            [
                0,
                1,
                2,
                3,
                4,
                5,
                6,
                7,
                8,
                9,
                1_000_135_000,
                1_000_135_001,
                1_000_202_002,
                1_000_202_003,
                1_000_328_000,
                1_000_328_001,
                1_000_386_004
            ]
        );
    }
}
