#version 460
// Deliberately broken (W0504): the average divides by the subgroup's width, but invocations
// past the end of the data returned early, so the last subgroup has fewer active lanes than
// gl_SubgroupSize and its average comes out too small.
// The lines dgcc warns about end in an `expect:` comment naming the code.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Values {
    float values[];
};

layout(std430, set = 0, binding = 1) buffer Averages {
    float averages[];
};

layout(push_constant) uniform Count {
    uint count;
} pc;

void main() {
    uint id = gl_GlobalInvocationID.x;
    if (id >= pc.count) {
        return;
    }
    float average = subgroupAdd(values[id]) / float(gl_SubgroupSize);  // expect: W0504
    if (gl_SubgroupInvocationID == subgroupBroadcastFirst(gl_SubgroupInvocationID)) {
        averages[gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID] = average;
    }
}
