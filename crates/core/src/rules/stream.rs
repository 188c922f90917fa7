//! E08xx: stream contents, found by the GPU stream validator (`dgcc run --validate-stream`,
//! `runtime::validate`) in the records a kernel wrote, not in a description.
//!
//! Why these are registry codes although no description can trigger them: a violation is read
//! back from the GPU and reported with a code, a field and a VUID like every other finding, so
//! `dgcc explain E0801` can say what went wrong and how to fix the kernel. They are the rules
//! the validation layers cannot check because they would have to read the stream (the
//! reference's "stream contents" list: 11117, 11118, 11120, 11122, 11068), plus the limits of
//! the draw and dispatch structs a stream carries. Tested in `tests/runtime_validate.rs`.

use super::Rule;
use crate::severity::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0801",
        vuid: Some("VUID-VkBindIndexBufferIndirectCommandEXT-None-11117"),
        severity: Error,
        title: "an index-buffer token's range is not inside a registered index buffer",
        explanation: r#"An `INDEX_BUFFER` record (`VkBindIndexBufferIndirectCommandEXT`) names `bufferAddress` and `size`; the bytes `[bufferAddress, bufferAddress + size)` must lie inside one buffer created with `VK_BUFFER_USAGE_INDEX_BUFFER_BIT`. The validator knows the buffers the engine registered: a start outside all of them is reported on the field `bufferAddress`, a range that starts inside one and runs past its end on the field `size` (the limit is the bytes left in that buffer).

Typical causes: the kernel wrote an address from a stale frame, a buffer was re-created and its address changed, or `size` is the whole mesh array while the address points at one mesh inside it.

Fix: write the address of a live index buffer and the bytes left from that address, e.g. `size = total_bytes - (address - base)`."#,
    },
    Rule {
        code: "E0802",
        vuid: Some("VUID-VkBindIndexBufferIndirectCommandEXT-bufferAddress-11118"),
        severity: Error,
        title: "an index-buffer address is not aligned to its index type",
        explanation: r#"`bufferAddress` of an `INDEX_BUFFER` record must be a multiple of the index size: 2 for `VK_INDEX_TYPE_UINT16`, 4 for `UINT32`, 1 for `UINT8`. A misaligned address makes the device read indices across element boundaries.

Fix: compute the address from an element index (`base + 4 * first`) rather than a byte offset, or move `first` into the draw's `firstIndex`."#,
    },
    Rule {
        code: "E0803",
        vuid: Some("VUID-VkBindIndexBufferIndirectCommandEXT-indexType-parameter"),
        severity: Error,
        title: "an index-buffer record names no valid index type",
        explanation: r#"The last word of a Vulkan-mode `INDEX_BUFFER` record is a `VkIndexType`: 0 (`UINT16`), 1 (`UINT32`) or 1000265000 (`UINT8`). In DXGI mode it is a `DXGI_FORMAT`: 57 (`R16_UINT`) or 42 (`R32_UINT`). Any other value is reported on `indexType`, and the draws of that sequence are not range-checked.

Fix: write the index type the mesh was built with; a zero-initialised record means `UINT16`, which is rarely what a kernel that forgot the field intended."#,
    },
    Rule {
        code: "E0804",
        vuid: Some("VUID-VkDrawIndexedIndirectCommand-robustBufferAccess2-08798"),
        severity: Error,
        title: "an indexed draw reads past the end of its bound index buffer",
        explanation: r#"`firstIndex + indexCount` indices of the bound index type must fit in the bound index buffer's size. The bound buffer is the sequence's own `INDEX_BUFFER` record (its `size` and `indexType`) or, for a layout without that token, the one the engine states it bound before executing. Reported on the field `firstIndex + indexCount` with the buffer's capacity in indices as the limit; for a `*_COUNT` token the element is the draw inside its array.

Without `robustBufferAccess2` an out-of-range index read is undefined behaviour: garbage triangles at best, a device fault at worst.

Fix: take `firstIndex` and `indexCount` from the same mesh table entry as the index buffer's address and size."#,
    },
    Rule {
        code: "E0805",
        vuid: Some("VUID-VkBindVertexBufferIndirectCommandEXT-None-11120"),
        severity: Error,
        title: "a vertex-buffer token's range is not inside a registered vertex buffer",
        explanation: r#"A `VERTEX_BUFFER` record (`VkBindVertexBufferIndirectCommandEXT`) binds `[bufferAddress, bufferAddress + size)`; those bytes must lie inside one buffer created with `VK_BUFFER_USAGE_VERTEX_BUFFER_BIT`. As for index buffers, a start outside every registered vertex buffer is reported on `bufferAddress`, a range running past the end on `size`.

Fix: write the address and remaining size of a live vertex buffer."#,
    },
    Rule {
        code: "E0806",
        vuid: Some("VUID-VkDrawIndirectCountIndirectCommandEXT-None-11122"),
        severity: Error,
        title: "a count token's draw array is not inside a registered indirect buffer",
        explanation: r#"A `*_COUNT` record (`VkDrawIndirectCountIndirectCommandEXT`) points at an array of draw structs: `bufferAddress`, `stride`, `commandCount`. The draws the device reads, `[bufferAddress, bufferAddress + stride × (n − 1) + sizeof(draw))` with `n = min(commandCount, maxDrawCount)`, must lie inside one buffer created with `VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT`. A start outside every registered indirect buffer is reported on `bufferAddress`; an array that runs past the end on `stride × commandCount` (the value is the bytes read, the limit the bytes left).

The validator reads the inner draws (instance counts, index ranges) only when the array is inside a registered buffer, so a wild address is never dereferenced.

Fix: point at the engine's draw array and clamp `commandCount` to what it holds."#,
    },
    Rule {
        code: "E0807",
        vuid: None,
        severity: Error,
        title: "a count token asks for more draws than the stated maximum",
        explanation: r#"`commandCount` of a `*_COUNT` record exceeds the engine's stated maximum draw count (the `maxDrawCount` it executes with). The device clamps to `maxDrawCount`, so this is not undefined behaviour, but draws are silently dropped: the kernel produced more work than the engine budgeted for.

Fix: raise the maximum the engine executes with (mind `maxDrawCount × maxSequenceCount < 2^24`, E0213), or make the kernel split the array over more sequences."#,
    },
    Rule {
        code: "E0808",
        vuid: None,
        severity: Error,
        title: "a count token's draw array is misaligned or its stride is too small",
        explanation: r#"The draw array of a `*_COUNT` record must start at a 4-byte aligned address, and its `stride` must be a multiple of 4 and at least the size of the draw struct (20 bytes for `VkDrawIndexedIndirectCommand`, 16 for `VkDrawIndirectCommand`, 12 or 8 for mesh tasks), as for `vkCmdDrawIndirectCount` (`VUID-vkCmdDrawIndirectCount-stride-03110`). Reported on `bufferAddress` or `stride`; the inner draws of such a record are not checked further.

Fix: write `stride = sizeof(draw struct)` for a packed array, and addresses computed from element indices."#,
    },
    Rule {
        code: "E0809",
        vuid: None,
        severity: Error,
        title: "a draw asks for more instances than the stated maximum",
        explanation: r#"`instanceCount` of a draw (a `DRAW` or `DRAW_INDEXED` record, or a draw inside a `*_COUNT` array) exceeds the maximum the engine stated, usually the size of its per-instance data. The spec has no such limit, but instance data read past its buffer is a device fault or garbage.

Fix: clamp the instance count in the kernel, or state a larger maximum if the instance buffers are larger."#,
    },
    Rule {
        code: "E0810",
        vuid: None,
        severity: Error,
        title: "an execution-set index is not below the set's size",
        explanation: r#"An `EXECUTION_SET` record holds an index into the indirect execution set (one per stage for shader-object sets); it must be below the set's entry count (`max_entries` in the description, or the size the engine created the set with). An index past the end selects no pipeline: undefined behaviour.

Fix: clamp the material or pipeline id the kernel writes, and make sure every index it can write was filled with `vkUpdateIndirectExecutionSetPipelineEXT`."#,
    },
    Rule {
        code: "E0811",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-sequenceCountAddress-11068"),
        severity: Error,
        title: "the stream's stored sequence count exceeds maxSequenceCount",
        explanation: r#"When the count of sequences lives on the GPU (`sequenceCountAddress`), the value stored there must not exceed the `maxSequenceCount` the stream is executed with (nor the device's `maxIndirectSequenceCount`). The violation is about the whole stream, so it names no sequence; the validator then checks `min(count, maxSequenceCount)` sequences, as many as the device executes.

Typical cause: a compaction kernel counts candidates before culling or never resets its counter between frames.

Fix: clamp the count where it is written, and reset it every frame."#,
    },
    Rule {
        code: "E0812",
        vuid: Some("VUID-VkDispatchIndirectCommand-x-00417"),
        severity: Error,
        title: "a dispatch asks for more workgroups than maxComputeWorkGroupCount",
        explanation: r#"The `x`, `y` and `z` of a `DISPATCH` record (`VkDispatchIndirectCommand`) must each be at most the device's `maxComputeWorkGroupCount` in that dimension (65535 is guaranteed; the VUIDs are `-x-00417`, `-y-00418` and `-z-00419`). Reported on the dimension that is too large.

Fix: spread large dispatches over more dimensions, or over several sequences."#,
    },
];
