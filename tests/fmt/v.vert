#version 450
// The vertex shader of tests/fmt/comments.ron and .dgc: the object token's `id`.

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

layout(push_constant) uniform Push {
    uint id;
} pc;

void main() {
    gl_Position = vec4(position + normal * float(pc.id), 1.0);
}
