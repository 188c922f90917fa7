#version 460
// Deliberately broken (W0502): one shared entry per subgroup, sized for 32-wide subgroups.
// A 256-invocation workgroup has 64 subgroups on lavapipe (4 wide) and 32 on Intel (8 wide):
// `partial[gl_SubgroupID]` writes past the end of the array.
// The lines dgcc warns about end in an `expect:` comment naming the code.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) buffer Sums {
    uint sums[];
};

shared uint partial[256 / 32];  // expect: W0502

void main() {
    uint s = subgroupAdd(gl_LocalInvocationIndex);
    if (gl_SubgroupInvocationID == 0u) {
        partial[gl_SubgroupID] = s;
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint total = 0u;
        for (uint i = 0u; i < gl_NumSubgroups; ++i) {
            total += partial[i];
        }
        sums[gl_WorkGroupID.x] = total;
    }
}
