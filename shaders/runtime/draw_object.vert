#version 460
// scene.ron's SceneDraw: `object_id` is the tally slot, `material_id` is summed in w.
#extension GL_GOOGLE_include_directive : require
#include "draw_indexed.glsl"

layout(push_constant) uniform Push { uint object_id; uint material_id; } push;

void main() {
    tally_vertex(push.object_id, push.material_id);
}
