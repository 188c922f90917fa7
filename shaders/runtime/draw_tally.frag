#version 460
// Tallies every fragment of the draw-execution tests (see draw_tally.glsl) with atomics.
#extension GL_GOOGLE_include_directive : require
#include "draw_tally.glsl"

// What this pipeline adds to w per fragment: 0 by default; `dgcc run --layout` makes entry 1
// of a draw layout's execution set with another value, so the tally says which entry drew.
layout(constant_id = 0) const uint ENTRY_WEIGHT = 0u;

layout(location = 0) flat in uvec4 tally;
layout(location = 0) out vec4 color;
layout(std430, set = 0, binding = 0) buffer Tally { uint counts[TALLY_WORDS]; };

void main() {
    uint slot = tally.x;
    if (slot >= TALLY_SLOTS) {
        atomicAdd(counts[0], 1u);
    } else {
        atomicAdd(counts[1u + slot], 1u);
        atomicAdd(counts[1u + TALLY_SLOTS + slot], tally.y);
        atomicAdd(counts[1u + 2u * TALLY_SLOTS + slot], tally.z);
        atomicAdd(counts[1u + 3u * TALLY_SLOTS + slot], tally.w + ENTRY_WEIGHT);
    }
    color = vec4(1.0);
}
