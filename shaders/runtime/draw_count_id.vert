#version 460
// A count layout with no per-sequence token but its draws (scene.ron's SceneBatch): every
// sequence draws from the one index buffer bound before executing, and a draw's index in its
// sequence's multi-draw (gl_DrawID, from 0 in each sequence) is the tally slot.
#extension GL_GOOGLE_include_directive : require
#include "draw_indexed.glsl"

void main() {
    tally_vertex(uint(gl_DrawID), 0u);
}
