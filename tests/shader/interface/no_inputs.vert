#version 450
// Positions from a storage buffer indexed by gl_VertexIndex, not from vertex inputs.
layout(set = 0, binding = 0) readonly buffer Positions { vec4 positions[]; };

void main() {
    gl_Position = positions[gl_VertexIndex];
}
