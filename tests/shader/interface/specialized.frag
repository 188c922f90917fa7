#version 460
// The material's constants, as in the vertex shader; the object id read as a float.
layout(constant_id = 0) const uint MATERIAL = 5u;
const uint KIND = MATERIAL % 4u;
const bool EMISSIVE = KIND == 3u;

layout(push_constant) uniform Push {
    float object_id;   // expect: E0585
    uint material;
} pc;

layout(location = 0) out vec4 colour;

void main() {
    colour = vec4(pc.object_id, float(pc.material), EMISSIVE ? 1.0 : 0.0, 1.0);
}
