// The vertex shader body of the draw tally of a layout whose pushed words are read back
// (`dgcc run --layout`; crates/cli/src/layout_check/draw_words.rs says why). The tally slot is
// gl_InstanceIndex / 16, as in draw_instanced.vert, so it never depends on the words being
// checked; every word of the push block is carried, unchanged, to the fragment shader
// (draw_tally_carried.frag, draw_tally_pushed.frag), which keeps per slot the lowest and
// highest value it saw of each.
//
// The push block covers the layout's vertex-stage bytes and no more (a block must lie inside
// the pipeline layout's range for its stage): the rig patches the array's length, PUSH_WORDS,
// whose value is the marker it looks for (push_block.rs), and the offset of its one member.
// With NOTHING_PUSHED (draw_pushed_none*.vert: a layout that pushes to the fragment stage
// alone) there is no block, and the carried words are zero, never read. With VERTEX_INPUT
// (VERTEX_INPUTS), one VERTEX_BUFFER token's values (two to sixteen's) are summed in w
// (draw_indexed.glsl).
#include "draw_indexed.glsl"
#include "draw_carried.glsl"

layout(location = 1) flat out uvec4 carried[CARRIED_VEC4S];

#ifndef NOTHING_PUSHED
const uint PUSH_WORDS = 4093u;
layout(push_constant) uniform Pushed { uint words[PUSH_WORDS]; } pushed;
#endif

void main() {
    tally_vertex(uint(gl_InstanceIndex) / 16u, 0u);
    for (uint i = 0u; i < CARRIED_VEC4S; ++i) {
        carried[i] = uvec4(0u);
    }
#ifndef NOTHING_PUSHED
    for (uint j = 0u; j < PUSH_WORDS; ++j) {
        carried[j / 4u][j % 4u] = pushed.words[j];
    }
#endif
}
