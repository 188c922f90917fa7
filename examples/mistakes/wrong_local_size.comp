#version 460
// Deliberately broken (E0582, with the `shaderc` feature): the description says
// `local_size: (128, 1, 1)`, the shader runs 64 invocations per workgroup. Every subgroup check
// dgcc made was about a workgroup that does not exist, and the runtime dispatches half the
// workgroups it needs.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Data {
    uint data[];
};

void main() {
    data[gl_GlobalInvocationID.x] = gl_LocalInvocationIndex;
}
