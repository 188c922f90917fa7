#version 460
// Test kernel for dispatch layouts: each invocation adds its sequence's value to a total and
// counts itself, so the host can check exactly which sequences ran and how often.
// Under DGC the PUSH_CONSTANT token pushes `value` and the SEQUENCE_INDEX token pushes the
// sequence index; under the dispatch-loop fallback (constant 0 true) the executor pushes the
// sequence index and the value is read from the stream record, as the generated readers do.
// `scale` (constant 2) multiplies the value, so that the entries of an execution set built from
// this one kernel can be told apart by their totals.
layout(local_size_x = 1) in;

layout(constant_id = 0) const bool fallback = false;
layout(constant_id = 1) const uint stride_words = 5;
layout(constant_id = 2) const uint scale = 1;

layout(push_constant) uniform Sequence { uint value; uint sequence_index; } pc;

layout(set = 0, binding = 0) buffer Totals {
    uint total;
    uint invocations;
    uint index_sum;
} totals;

layout(set = 0, binding = 1) readonly buffer Stream { uint words[]; } stream;

void main() {
    uint value = fallback ? stream.words[pc.sequence_index * stride_words] : pc.value;
    atomicAdd(totals.total, value * scale);
    atomicAdd(totals.invocations, 1u);
    atomicAdd(totals.index_sum, pc.sequence_index);
}
