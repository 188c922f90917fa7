#version 460
// Each draw's object from its record, found through gl_DrawID: under a count token NVIDIA's
// driver runs such draws slower under an execute than draws that read no such built-in
// (N0502, for the count token's layout only).
layout(std430, set = 0, binding = 0) readonly buffer Records { uint objects[]; };
layout(std430, set = 0, binding = 1) readonly buffer Centres { vec4 centres[]; };

void main() {
    uint object = objects[gl_DrawID]; // expect: N0502
    gl_Position = centres[object] + vec4(float(gl_VertexIndex), 0.0, 0.0, 0.0);
}
