#version 460
// Deliberately broken (W0501): the lane and subgroup id are derived as if every device ran
// 32-wide subgroups. On 64-wide AMD subgroups lanes 32-63 alias lanes 0-31; on lavapipe's
// 8-wide subgroups `gl_LocalInvocationIndex / 32` names a subgroup that does not exist.
// The lines dgcc warns about end in an `expect:` comment naming the code.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) buffer Sums {
    uint sums[];
};

void main() {
    uint lane = gl_SubgroupInvocationID & 31;      // expect: W0501
    uint subgroup = gl_LocalInvocationIndex / 32;  // expect: W0501
    uint total = subgroupAdd(1u);
    if (lane == 0u) {
        sums[gl_WorkGroupID.x * 8u + subgroup] = total;
    }
}
