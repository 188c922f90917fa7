#version 460
// The draw tally under the runtime's multi-draw fallback (`dgcc run --layout`): the fallback
// pushes nothing per draw, so the sequence's pushed words are read from its record in the
// stream, `records[gl_DrawID]`, as the generated GLSL reader does. Where they sit comes in as
// specialization constants: the record stride and the pushed words' positions, in words.
#extension GL_GOOGLE_include_directive : require
#include "draw_indexed.glsl"

layout(constant_id = 0) const uint STRIDE_WORDS = 1u;
layout(constant_id = 1) const uint SLOT_WORD = 0u;
// 0xffffffff: the layout pushes one word only, nothing summed in w.
layout(constant_id = 2) const uint EXTRA_WORD = 0xffffffffu;

layout(std430, set = 0, binding = 1) readonly buffer Records { uint words[]; } records;

void main() {
    uint base = uint(gl_DrawID) * STRIDE_WORDS;
    uint extra = EXTRA_WORD == 0xffffffffu ? 0u : records.words[base + EXTRA_WORD];
    tally_vertex(records.words[base + SLOT_WORD], extra);
}
