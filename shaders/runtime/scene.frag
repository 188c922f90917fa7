#version 460
// A material's shading (`materials.glsl`, constant 3) of a palette colour with one directional
// light; nothing that depends on draw order. Output 1 is the object id + 1 for runs that
// count which objects own pixels (an R32_UINT attachment; pipelines without it discard the
// write).
#extension GL_GOOGLE_include_directive : require

#include "scene_data.glsl"
#include "materials.glsl"

layout(location = 0) in vec3 normal;
layout(location = 1) flat in uint colour;
layout(location = 2) flat in uint object;
layout(location = 3) in vec3 world;
layout(location = 0) out vec4 color;
layout(location = 1) out uint object_id;

const vec3 PALETTE[8] = vec3[8](
    vec3(0.90, 0.30, 0.25), vec3(0.25, 0.70, 0.35), vec3(0.25, 0.45, 0.90), vec3(0.95, 0.80, 0.25),
    vec3(0.70, 0.35, 0.85), vec3(0.30, 0.80, 0.85), vec3(0.95, 0.55, 0.20), vec3(0.80, 0.80, 0.80));

void main() {
    if (material_cut(world)) {
        discard;
    }
    float light = max(dot(normalize(normal), normalize(vec3(0.4, 0.8, 0.45))), 0.0);
    color = vec4(material_shade(PALETTE[colour % 8u], light, world), 1.0);
    object_id = object + 1u;
}
