#version 450
// The fragment shader of tests/fmt/comments.ron and .dgc.

layout(location = 0) out vec4 colour;

void main() {
    colour = vec4(1.0);
}
