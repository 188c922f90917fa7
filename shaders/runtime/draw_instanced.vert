#version 460
// A draw layout that pushes nothing (`dgcc run --layout`: INDEX_BUFFER + DRAW_INDEXED, a DRAW
// or DRAW_INDEXED alone, their _COUNTs): the tally slot is gl_InstanceIndex / 16, which counts
// from the draw's firstInstance. The rig gives the draws of the sequence with slot `s`
// firstInstance 16·s + a few, so a misread firstInstance moves the fragments to another slot.
#extension GL_GOOGLE_include_directive : require
#include "draw_indexed.glsl"

void main() {
    tally_vertex(uint(gl_InstanceIndex) / 16u, 0u);
}
