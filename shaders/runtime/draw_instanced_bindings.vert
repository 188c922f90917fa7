#version 460
// draw_instanced.vert for a layout with two to sixteen VERTEX_BUFFER tokens: each binding's value
// is summed in w with its own weight (see draw_indexed.glsl).
#extension GL_GOOGLE_include_directive : require
#define VERTEX_INPUTS
#include "draw_indexed.glsl"

void main() {
    tally_vertex(uint(gl_InstanceIndex) / 16u, 0u);
}
