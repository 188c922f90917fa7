#version 460
// draw_object.vert (the tally slot and a word summed in w) for a layout with a VERTEX_BUFFER
// token: the value read from the bound vertex buffer is summed in w too (see draw_indexed.glsl).
#extension GL_GOOGLE_include_directive : require
#define VERTEX_INPUT
#include "draw_indexed.glsl"

layout(push_constant) uniform Push { uint object_id; uint material_id; } push;

void main() {
    tally_vertex(push.object_id, push.material_id);
}
