//! The validator's input table: the layout's tokens, the stated limits and the registered
//! buffers as `u32` words that `validate_stream.comp` reads through a device address.
//!
//! Why a table of words rather than a specialised shader per layout: one committed SPIR-V must
//! validate any `CompiledLayout` (the runtime has no shader compiler), so what differs between
//! layouts — token types and offsets, the execution set's size, the draw struct inside a count
//! token — is data. Buffers are kept in one list per usage (index, vertex, indirect), sorted by
//! start address, each entry carrying the furthest end of any buffer that starts at or before
//! it. A range is then inside some buffer of that usage exactly when the last entry starting at
//! or before it reaches its end: a binary search per check, also for engines that register
//! thousands of buffers, and correct when buffers overlap (aliased memory).
//!
//! Layout of the words (the shader's `T_*` constants; a unit test holds them together):
//!
//! | word | meaning |
//! |---|---|
//! | 0 | token count |
//! | 1 | max instance count (`u32::MAX`: unchecked) |
//! | 2 | max draw count of a `*_COUNT` token (`u32::MAX`: unchecked) |
//! | 3, 4 | bytes of the index buffer bound before executing (lo, hi) |
//! | 5 | its index size in bytes; 0 when none is stated |
//! | 6, 7, 8 | max workgroup count x, y, z |
//! | 9..15 | (first word, entries) of the index, vertex and indirect buffer lists |
//! | 16.. | 4 words per token: Vulkan token type, byte offset, two parameters |
//! | then | 4 words per buffer: start (lo, hi), furthest end so far (lo, hi) |

use crate::error::{Result, RuntimeError};
use ash::vk;
use dgcc_core::ir::{CompiledLayout, TokenType};

pub const UNCHECKED: u32 = u32::MAX;

pub const T_TOKEN_COUNT: usize = 0;
pub const T_MAX_INSTANCES: usize = 1;
pub const T_MAX_DRAWS: usize = 2;
pub const T_BOUND_INDEX_BYTES: usize = 3;
pub const T_BOUND_INDEX_SIZE: usize = 5;
pub const T_MAX_GROUPS: usize = 6;
pub const T_LISTS: usize = 9;
pub const T_TOKENS: usize = 16;

/// `VkIndexType` values.
pub const INDEX_TYPE_UINT16: u32 = 0;
pub const INDEX_TYPE_UINT32: u32 = 1;
pub const INDEX_TYPE_UINT8: u32 = 1_000_265_000;
/// `DXGI_FORMAT` values of a DXGI-mode index-buffer record.
pub const DXGI_FORMAT_R32_UINT: u32 = 42;
pub const DXGI_FORMAT_R16_UINT: u32 = 57;

/// A buffer the engine lets the stream point into: its device address, size and the usage it
/// was created with (only `INDEX_BUFFER`, `VERTEX_BUFFER` and `INDIRECT_BUFFER` matter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisteredBuffer {
    pub address: vk::DeviceAddress,
    pub size: u64,
    pub usage: vk::BufferUsageFlags,
}

/// The index buffer an engine binds before executing a layout that has no INDEX_BUFFER token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundIndexBuffer {
    /// Bytes from the bound offset to the end of the binding.
    pub bytes: u64,
    pub index_type: vk::IndexType,
}

/// What the stream may ask for, beyond what the spec fixes. `None` leaves a check off, except
/// where a field says what it falls back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// The most instances one draw may ask for.
    pub max_instance_count: Option<u32>,
    /// The most draws a `*_COUNT` token's `commandCount` may ask for (the `maxDrawCount` the
    /// stream is executed with).
    pub max_draw_count: Option<u32>,
    /// A `maxSequenceCount` tighter than the stream's own record count, e.g. the device's
    /// `maxIndirectSequenceCount`; the stored count is checked against the smaller.
    pub max_sequence_count: Option<u32>,
    /// Entries of the indirect execution set; `None` takes the layout's `max_entries`.
    pub execution_set_entries: Option<u32>,
    /// `maxComputeWorkGroupCount` for DISPATCH records.
    pub max_workgroup_count: Option<[u32; 3]>,
    /// The index buffer bound before executing, for indexed draws of a layout without an
    /// INDEX_BUFFER token.
    pub bound_index_buffer: Option<BoundIndexBuffer>,
    /// How many violations the report keeps (the total is always counted).
    pub report_capacity: u32,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            max_instance_count: None,
            max_draw_count: None,
            max_sequence_count: None,
            execution_set_entries: None,
            max_workgroup_count: None,
            bound_index_buffer: None,
            report_capacity: 64,
        }
    }
}

impl StreamLimits {
    /// The device's `maxComputeWorkGroupCount` for dispatches; the rest left as it is.
    pub fn with_device_limits(mut self, limits: &vk::PhysicalDeviceLimits) -> StreamLimits {
        self.max_workgroup_count = Some(limits.max_compute_work_group_count);
        self
    }
}

/// Bytes an index of this `VkIndexType` (Vulkan mode) or `DXGI_FORMAT` (DXGI mode) takes; 0 for
/// a value that is neither.
pub fn index_size(dxgi: bool, value: u32) -> u32 {
    match (dxgi, value) {
        (false, INDEX_TYPE_UINT16) | (true, DXGI_FORMAT_R16_UINT) => 2,
        (false, INDEX_TYPE_UINT32) | (true, DXGI_FORMAT_R32_UINT) => 4,
        (false, INDEX_TYPE_UINT8) => 1,
        _ => 0,
    }
}

/// The draw struct inside a `*_COUNT` token's array: (bytes, kind: 1 indexed, 2 draw, 0 mesh).
pub fn count_inner(tt: TokenType) -> Option<(u32, u32)> {
    match tt {
        TokenType::DrawIndexedCount => Some((20, 1)),
        TokenType::DrawCount => Some((16, 2)),
        TokenType::DrawMeshTasksCount => Some((12, 0)),
        TokenType::DrawMeshTasksCountNv => Some((8, 0)),
        _ => None,
    }
}

/// The buffer lists, in the table's order.
pub const LIST_USAGES: [vk::BufferUsageFlags; 3] =
    [vk::BufferUsageFlags::INDEX_BUFFER, vk::BufferUsageFlags::VERTEX_BUFFER, vk::BufferUsageFlags::INDIRECT_BUFFER];

/// Build the table for `layout`. Refuses a layout whose tokens would make the kernel read past
/// a record (only an edited manifest has one): the validator must never read out of bounds.
pub fn build(layout: &CompiledLayout, limits: &StreamLimits, buffers: &[RegisteredBuffer]) -> Result<Vec<u32>> {
    let stride = layout.stride;
    if stride == 0 || !stride.is_multiple_of(4) {
        return Err(invalid(layout, format!("its stride {stride} is not a positive multiple of 4")));
    }
    let mut words = vec![0u32; T_TOKENS];
    words[T_TOKEN_COUNT] = layout.tokens.len() as u32;
    words[T_MAX_INSTANCES] = limits.max_instance_count.unwrap_or(UNCHECKED);
    words[T_MAX_DRAWS] = limits.max_draw_count.unwrap_or(UNCHECKED);
    if let Some(b) = limits.bound_index_buffer {
        let size = index_size(false, b.index_type.as_raw() as u32);
        if size == 0 {
            return Err(RuntimeError::Invalid(format!(
                "the bound index buffer's type {:?} is not an index type",
                b.index_type
            )));
        }
        words[T_BOUND_INDEX_BYTES] = b.bytes as u32;
        words[T_BOUND_INDEX_BYTES + 1] = (b.bytes >> 32) as u32;
        words[T_BOUND_INDEX_SIZE] = size;
    }
    let groups = limits.max_workgroup_count.unwrap_or([UNCHECKED; 3]);
    words[T_MAX_GROUPS..T_MAX_GROUPS + 3].copy_from_slice(&groups);
    for t in &layout.tokens {
        let (p0, p1, reads) = token_parameters(layout, t, limits)?;
        if !t.offset.is_multiple_of(4) || t.offset as u64 + reads as u64 > stride as u64 {
            return Err(invalid(
                layout,
                format!(
                    "token `{}` reads {reads} bytes at offset {}, outside the {stride}-byte record or unaligned",
                    t.name, t.offset
                ),
            ));
        }
        words.extend_from_slice(&[t.token_type.value(), t.offset, p0, p1]);
    }
    for (i, usage) in LIST_USAGES.iter().enumerate() {
        let mut ranges: Vec<(u64, u64)> = buffers
            .iter()
            .filter(|b| b.usage.contains(*usage) && b.size > 0)
            .map(|b| (b.address, b.address.saturating_add(b.size)))
            .collect();
        ranges.sort_unstable();
        words[T_LISTS + 2 * i] = words.len() as u32;
        words[T_LISTS + 2 * i + 1] = ranges.len() as u32;
        let mut furthest = 0u64;
        for (start, end) in ranges {
            furthest = furthest.max(end);
            words.extend_from_slice(&[start as u32, (start >> 32) as u32, furthest as u32, (furthest >> 32) as u32]);
        }
    }
    Ok(words)
}

/// The two parameters the kernel needs for a token, and how many bytes of the record it reads.
fn token_parameters(
    layout: &CompiledLayout,
    t: &dgcc_core::ir::CompiledToken,
    limits: &StreamLimits,
) -> Result<(u32, u32, u32)> {
    Ok(match t.token_type {
        TokenType::IndexBuffer => (t.index_mode.unwrap_or(1), 0, 16),
        TokenType::VertexBuffer => (0, 0, 16),
        TokenType::ExecutionSet => {
            let set =
                t.execution_set.ok_or_else(|| invalid(layout, format!("token `{}` has no execution_set", t.name)))?;
            let indices = if set.kind == 0 { 1 } else { set.stages.count_ones().max(1) };
            (limits.execution_set_entries.unwrap_or(set.max_entries), indices, 4 * indices)
        }
        TokenType::DrawIndexed => (0, 0, 20),
        TokenType::Draw => (0, 0, 16),
        TokenType::Dispatch => (0, 0, 12),
        tt => match count_inner(tt) {
            Some((bytes, kind)) => (bytes, kind, 16),
            // Push constants, sequence indices, mesh tasks and ray tracing: nothing to check.
            None => (0, 0, 0),
        },
    })
}

fn invalid(layout: &CompiledLayout, why: String) -> RuntimeError {
    RuntimeError::Invalid(format!("cannot validate streams of layout `{}`: {why}", layout.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(address: u64, size: u64, usage: vk::BufferUsageFlags) -> RegisteredBuffer {
        RegisteredBuffer { address, size, usage }
    }

    #[test]
    fn the_scene_layout_becomes_three_tokens_and_sorted_lists_with_the_furthest_end() {
        let layout = crate::fixtures::push_index_draw();
        let index = vk::BufferUsageFlags::INDEX_BUFFER;
        let buffers = [
            buffer(0x9000, 0x100, index | vk::BufferUsageFlags::STORAGE_BUFFER),
            buffer(0x1000, 0x4000, index),
            buffer(0x2000, 0x10, index),
            buffer(0x5_0000_0000, 64, vk::BufferUsageFlags::INDIRECT_BUFFER),
            buffer(0x7000, 0, index),
        ];
        let w = build(&layout, &StreamLimits { max_instance_count: Some(1), ..Default::default() }, &buffers).unwrap();
        assert_eq!(w[T_TOKEN_COUNT], 3);
        assert_eq!(w[T_MAX_INSTANCES], 1);
        assert_eq!(w[T_MAX_DRAWS], UNCHECKED);
        assert_eq!(&w[T_TOKENS..T_TOKENS + 12], &[1, 0, 0, 0, 3, 8, 1, 0, 5, 24, 0, 0]);
        let (first, n) = (w[T_LISTS] as usize, w[T_LISTS + 1] as usize);
        assert_eq!(n, 3, "the empty buffer is left out");
        // Sorted by start; the 0x2000 entry keeps 0x5000, the end of the buffer before it.
        assert_eq!(&w[first..first + 12], &[0x1000, 0, 0x5000, 0, 0x2000, 0, 0x5000, 0, 0x9000, 0, 0x9100, 0]);
        assert_eq!(w[T_LISTS + 3], 0, "no vertex buffers");
        let (first, n) = (w[T_LISTS + 4] as usize, w[T_LISTS + 5] as usize);
        assert_eq!((n, &w[first..first + 4]), (1, &[0, 5, 64, 5][..]));
    }

    #[test]
    fn a_token_reaching_past_the_record_is_refused() {
        let mut layout = crate::fixtures::push_index_draw();
        layout.stride = 40;
        let e = build(&layout, &StreamLimits::default(), &[]).unwrap_err();
        assert!(e.to_string().contains("token `draw` reads 20 bytes at offset 24"), "{e}");
        layout.stride = 46;
        assert!(build(&layout, &StreamLimits::default(), &[]).is_err());
    }

    #[test]
    fn index_sizes_follow_the_mode() {
        assert_eq!(index_size(false, 0), 2);
        assert_eq!(index_size(false, 1), 4);
        assert_eq!(index_size(false, INDEX_TYPE_UINT8), 1);
        assert_eq!(index_size(false, 42), 0);
        assert_eq!(index_size(true, 42), 4);
        assert_eq!(index_size(true, 57), 2);
        assert_eq!(index_size(true, 1), 0);
    }
}
