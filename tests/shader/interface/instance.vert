#version 450
// Each draw's object from its firstInstance (gl_InstanceIndex), as a multi-draw renderer feeds
// per-draw data: NVIDIA's driver runs such draws slower under an execute (W0512, once per
// layout of one draw per sequence; N0502 for the count token's).
layout(std430, set = 0, binding = 0) readonly buffer Objects { vec4 centres[]; };

void main() {
    vec4 centre = centres[gl_InstanceIndex]; // expect: W0512 W0512 N0502
    gl_Position = centre + vec4(float(gl_VertexIndex), 0.0, 0.0, 0.0);
}
