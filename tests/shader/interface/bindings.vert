#version 450
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;     // expect: N0501
layout(location = 2) in vec2 uv;

void main() {
    gl_Position = vec4(position + normal + vec3(uv, 0.0), 1.0);
}
