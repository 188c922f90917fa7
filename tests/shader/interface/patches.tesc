#version 450
// A tessellation control shader: it compiles, but naga has no tessellation stage to read it as.
layout(vertices = 3) out;

void main() {
    gl_TessLevelInner[0] = 1.0;
    gl_TessLevelOuter[0] = 1.0;
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
}
