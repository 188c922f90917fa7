#version 460
// draw_batch.vert (one pushed word, the tally slot) for a layout with a VERTEX_BUFFER token:
// the value read from the bound vertex buffer is summed in w (see draw_indexed.glsl).
#extension GL_GOOGLE_include_directive : require
#define VERTEX_INPUT
#include "draw_indexed.glsl"

layout(push_constant) uniform Push { uint batch_id; } push;

void main() {
    tally_vertex(push.batch_id, 0u);
}
