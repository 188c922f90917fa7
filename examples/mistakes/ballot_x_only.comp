#version 460
// Deliberately broken (W0503): the ballot's lanes 32-127 are dropped. On 64-wide AMD subgroups
// half of the visible objects are not counted, and their draws are lost.
// The lines dgcc warns about end in an `expect:` comment naming the code.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Visible {
    uint visible_count;
};

void main() {
    bool visible = (gl_GlobalInvocationID.x & 1u) == 0u;
    uvec4 ballot = subgroupBallot(visible);
    if (gl_SubgroupInvocationID == 0u) {
        atomicAdd(visible_count, bitCount(ballot.x));  // expect: W0503
    }
}
