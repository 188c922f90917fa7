// The fragment shader body of the draw tally (draw_tally.frag; see draw_tally.glsl): every
// fragment is added to its slot with atomics.
//
// With CARRIED_WORDS (draw_tally_carried.frag, draw_tally_pushed.frag: a layout whose pushed
// words are read back, crates/cli/src/layout_check/draw_words.rs) it also keeps, per slot and
// word, the lowest and the highest value it saw (the host starts them at 0xFFFFFFFF and 0):
// first the CARRIED words the shaders before it carried (draw_carried.glsl), then, with
// FRAGMENT_PUSH, the words of its own push block, placed by the rig over the layout's
// fragment-stage bytes as the vertex shader's is (PUSH_WORDS is the marker push_block.rs
// patches).
#include "draw_tally.glsl"

// What this pipeline adds to w per fragment: 0 by default; `dgcc run --layout` makes entry 1
// of a draw layout's execution set with another value, so the tally says which entry drew.
layout(constant_id = 0) const uint ENTRY_WEIGHT = 0u;

layout(location = 0) flat in uvec4 tally;
layout(location = 0) out vec4 color;

#ifdef CARRIED_WORDS
#include "draw_carried.glsl"
layout(constant_id = 1) const uint CARRIED = 0u;
layout(location = 1) flat in uvec4 carried[CARRIED_VEC4S];
#ifdef FRAGMENT_PUSH
const uint PUSH_WORDS = 4093u;
layout(push_constant) uniform Pushed { uint words[PUSH_WORDS]; } pushed;
#endif
layout(std430, set = 0, binding = 0) buffer Tally { uint counts[TALLY_WORDS]; uint seen[]; };

void see(uint at, uint value) {
    atomicMin(seen[2u * at], value);
    atomicMax(seen[2u * at + 1u], value);
}
#else
layout(std430, set = 0, binding = 0) buffer Tally { uint counts[TALLY_WORDS]; };
#endif

void main() {
    uint slot = tally.x;
    if (slot >= TALLY_SLOTS) {
        atomicAdd(counts[0], 1u);
    } else {
        atomicAdd(counts[1u + slot], 1u);
        atomicAdd(counts[1u + TALLY_SLOTS + slot], tally.y);
        atomicAdd(counts[1u + 2u * TALLY_SLOTS + slot], tally.z);
        atomicAdd(counts[1u + 3u * TALLY_SLOTS + slot], tally.w + ENTRY_WEIGHT);
#ifdef CARRIED_WORDS
#ifdef FRAGMENT_PUSH
        uint n = CARRIED + PUSH_WORDS;
#else
        uint n = CARRIED;
#endif
        for (uint j = 0u; j < CARRIED; ++j) {
            see(slot * n + j, carried[j / 4u][j % 4u]);
        }
#ifdef FRAGMENT_PUSH
        for (uint j = 0u; j < PUSH_WORDS; ++j) {
            see(slot * n + CARRIED + j, pushed.words[j]);
        }
#endif
#endif
    }
    color = vec4(1.0);
}
