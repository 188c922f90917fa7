#version 450
// A block written for an older layout: material read as a float, the scale and the sequence
// index read as one uvec2, and a tint that no token writes.
layout(push_constant) uniform Push {
    uint object_id;
    float material;                  // expect: E0585
    layout(offset = 8) uvec2 pair;   // expect: E0585 E0585
    layout(offset = 16) vec4 tint;   // expect: W0508
} pc;

void main() {
    gl_Position = pc.tint * float(pc.object_id + pc.pair.x) * pc.material;
}
