#version 460
// Splits a GPU-written sequence count into one count per preprocess chunk, so that each
// vkCmdExecuteGeneratedCommandsEXT of a chunked stream reads its own count:
//   chunk k runs clamp(total - k * per_chunk, 0, per_chunk) sequences.
// Addresses come in push constants (buffer_reference), so the executor needs no descriptors.
#extension GL_EXT_buffer_reference : require

layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer CountRef { uint value; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer ChunkCounts { uint values[]; };

layout(push_constant) uniform Split {
    CountRef total;
    ChunkCounts chunks;
    uint per_chunk;
    uint chunk_count;
    uint max_sequences;
} pc;

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.chunk_count) {
        return;
    }
    uint total = min(pc.total.value, pc.max_sequences);
    uint first = k * pc.per_chunk;
    pc.chunks.values[k] = total > first ? min(total - first, pc.per_chunk) : 0u;
}
