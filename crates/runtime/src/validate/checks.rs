//! The checks the stream validator makes, numbered as `validate_stream.comp` numbers them.
//!
//! Why a closed enum with fixed ids: the kernel writes a check id into each report slot and the
//! host turns it back into a field name, a registry code and a VUID. One table here, mirrored by
//! the `C_*` constants of the shader (a unit test reads the shader source and holds the two
//! together), keeps that mapping in one place. The VUID is the check's own: the three dispatch
//! dimensions share the code E0812 but each has its VUID.

use serde::Serialize;

/// One thing the validator checks about one field of one token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// An INDEX_BUFFER range starts outside every registered index buffer.
    IndexAddress = 1,
    /// An INDEX_BUFFER range starts inside a registered index buffer but runs past its end.
    IndexSize = 2,
    /// An INDEX_BUFFER address is not aligned to the index type.
    IndexAlignment = 3,
    /// An INDEX_BUFFER index type (or DXGI format) is not a valid one.
    IndexType = 4,
    /// `firstIndex + indexCount` exceeds the bound index buffer.
    IndexRange = 5,
    VertexAddress = 6,
    VertexSize = 7,
    /// A `*_COUNT` draw array starts outside every registered indirect buffer.
    CountAddress = 8,
    /// A `*_COUNT` draw array runs past the end of its indirect buffer.
    CountSize = 9,
    /// A `*_COUNT` draw array address is not 4-byte aligned.
    CountAlignment = 10,
    /// `commandCount` exceeds the stated maximum draw count.
    CommandCount = 11,
    InstanceCount = 12,
    ExecutionSetIndex = 13,
    /// The stored sequence count exceeds maxSequenceCount.
    SequenceCount = 14,
    GroupsX = 15,
    GroupsY = 16,
    GroupsZ = 17,
    /// A `*_COUNT` stride is not a multiple of 4 or smaller than the draw struct.
    CountStride = 18,
}

impl Check {
    pub const ALL: [Check; 18] = [
        Check::IndexAddress,
        Check::IndexSize,
        Check::IndexAlignment,
        Check::IndexType,
        Check::IndexRange,
        Check::VertexAddress,
        Check::VertexSize,
        Check::CountAddress,
        Check::CountSize,
        Check::CountAlignment,
        Check::CommandCount,
        Check::InstanceCount,
        Check::ExecutionSetIndex,
        Check::SequenceCount,
        Check::GroupsX,
        Check::GroupsY,
        Check::GroupsZ,
        Check::CountStride,
    ];

    /// The id the kernel writes.
    pub const fn id(self) -> u32 {
        self as u32
    }

    pub fn from_id(id: u32) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The name of the `C_*` constant in the shader.
    pub const fn shader_name(self) -> &'static str {
        match self {
            Check::IndexAddress => "C_INDEX_ADDRESS",
            Check::IndexSize => "C_INDEX_SIZE",
            Check::IndexAlignment => "C_INDEX_ALIGNMENT",
            Check::IndexType => "C_INDEX_TYPE",
            Check::IndexRange => "C_INDEX_RANGE",
            Check::VertexAddress => "C_VERTEX_ADDRESS",
            Check::VertexSize => "C_VERTEX_SIZE",
            Check::CountAddress => "C_COUNT_ADDRESS",
            Check::CountSize => "C_COUNT_SIZE",
            Check::CountAlignment => "C_COUNT_ALIGNMENT",
            Check::CommandCount => "C_COMMAND_COUNT",
            Check::InstanceCount => "C_INSTANCE_COUNT",
            Check::ExecutionSetIndex => "C_EXECUTION_SET_INDEX",
            Check::SequenceCount => "C_SEQUENCE_COUNT",
            Check::GroupsX => "C_GROUPS_X",
            Check::GroupsY => "C_GROUPS_Y",
            Check::GroupsZ => "C_GROUPS_Z",
            Check::CountStride => "C_COUNT_STRIDE",
        }
    }

    /// The field of the token's stream struct the check is about, as the spec names it.
    pub const fn field(self) -> &'static str {
        match self {
            Check::IndexAddress
            | Check::IndexAlignment
            | Check::VertexAddress
            | Check::CountAddress
            | Check::CountAlignment => "bufferAddress",
            Check::IndexSize | Check::VertexSize => "size",
            Check::IndexType => "indexType",
            Check::IndexRange => "firstIndex + indexCount",
            Check::CountSize => "stride × commandCount",
            Check::CountStride => "stride",
            Check::CommandCount => "commandCount",
            Check::InstanceCount => "instanceCount",
            Check::ExecutionSetIndex => "index",
            Check::SequenceCount => "sequenceCount",
            Check::GroupsX => "x",
            Check::GroupsY => "y",
            Check::GroupsZ => "z",
        }
    }

    /// The registry code (`src/rules/stream.rs`).
    pub const fn code(self) -> &'static str {
        match self {
            Check::IndexAddress | Check::IndexSize => "E0801",
            Check::IndexAlignment => "E0802",
            Check::IndexType => "E0803",
            Check::IndexRange => "E0804",
            Check::VertexAddress | Check::VertexSize => "E0805",
            Check::CountAddress | Check::CountSize => "E0806",
            Check::CommandCount => "E0807",
            Check::CountAlignment | Check::CountStride => "E0808",
            Check::InstanceCount => "E0809",
            Check::ExecutionSetIndex => "E0810",
            Check::SequenceCount => "E0811",
            Check::GroupsX | Check::GroupsY | Check::GroupsZ => "E0812",
        }
    }

    /// The VUID the check enforces, when the spec has one.
    pub fn vuid(self) -> Option<&'static str> {
        match self {
            Check::GroupsY => Some("VUID-VkDispatchIndirectCommand-y-00418"),
            Check::GroupsZ => Some("VUID-VkDispatchIndirectCommand-z-00419"),
            _ => dgcc_core::rules::lookup(self.code()).and_then(|r| r.vuid),
        }
    }

    /// Whether `value` and `limit` are addresses or alignments (printed in hex) rather than
    /// plain numbers (sizes and counts, printed in decimal).
    pub const fn hex_value(self) -> bool {
        matches!(
            self,
            Check::IndexAddress
                | Check::IndexAlignment
                | Check::VertexAddress
                | Check::CountAddress
                | Check::CountAlignment
        )
    }

    /// Whether the check has a meaningful limit (an address outside every buffer has none).
    pub const fn has_limit(self) -> bool {
        !matches!(self, Check::IndexAddress | Check::VertexAddress | Check::CountAddress | Check::IndexType)
    }
}
