#version 450
layout(location = 0) out vec4 colour;

void main() {
    colour = vec4(undeclared);   // expect: E0588
}
