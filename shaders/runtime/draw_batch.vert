#version 460
// multi_draw.ron's Batches: one pushed word, `batch_id`, is the tally slot.
#extension GL_GOOGLE_include_directive : require
#include "draw_indexed.glsl"

layout(push_constant) uniform Push { uint batch_id; } push;

void main() {
    tally_vertex(push.batch_id, 0u);
}
