#version 460
// draw_instanced.vert for a layout with a VERTEX_BUFFER token: the value read from the bound
// vertex buffer is summed in w (see draw_indexed.glsl).
#extension GL_GOOGLE_include_directive : require
#define VERTEX_INPUT
#include "draw_indexed.glsl"

void main() {
    tally_vertex(uint(gl_InstanceIndex) / 16u, 0u);
}
