// What the draw tally's stages between its vertex and fragment shaders (draw_tally.tesc,
// draw_tally.tese, draw_tally.geom; crates/cli/src/layout_check/between.rs says why they are
// there) declare beside their stage's own interface. Each hands on the tally (location 0, as
// draw_tally.glsl says) as it received it. With CARRIED_WORDS it hands on the words the stage
// before it carried (draw_carried.glsl) too; with PUSHED_WORDS it also reads its own push block,
// placed by the rig over the layout's bytes for its stage as the vertex shader's is
// (PUSH_WORDS is the marker push_block.rs patches), and writes its words after the first
// CARRIED_BEFORE, those the stages before it carried (crates/cli/src/layout_check/draw_words.rs).
#include "draw_carried.glsl"

#ifdef PUSHED_WORDS
#define CARRIED_WORDS
layout(constant_id = 0) const uint CARRIED_BEFORE = 0u;
const uint PUSH_WORDS = 4093u;
layout(push_constant) uniform Pushed { uint words[PUSH_WORDS]; } pushed;
#endif

#ifdef CARRIED_WORDS
// `words` as received, with this stage's own pushed words (if it reads any) after the first
// CARRIED_BEFORE.
void add_pushed(inout uvec4 words[CARRIED_VEC4S]) {
#ifdef PUSHED_WORDS
    for (uint j = 0u; j < PUSH_WORDS; ++j) {
        uint at = CARRIED_BEFORE + j;
        words[at / 4u][at % 4u] = pushed.words[j];
    }
#endif
}
#endif
