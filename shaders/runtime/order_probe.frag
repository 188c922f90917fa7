#version 460
// The order-effect reproducer's fragment shader: a colour from the object id, so every draw
// writes something a later frame could not skip.
layout(location = 0) flat in uint object;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(float(object & 255u) / 255.0, float((object >> 8) & 255u) / 255.0, 0.5, 1.0);
}
