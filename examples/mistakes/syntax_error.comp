#version 460
// Deliberately broken (E0581, with the `shaderc` feature): the kernel does not compile.
layout(local_size_x = 64) in;

void main() {
    uint i = gl_GlobalInvocationID.x
}
