#version 460
// Compaction: packs the visible candidate records into the stream, in object order, and
// writes the count. Two dispatches of this kernel (push constant `phase`):
//   0: each workgroup sums its visibility flags into group_sums[workgroup];
//   1: each workgroup adds the sums of the groups before it, then places each visible record
//      at base + (visible before it in the workgroup), and the last group writes the total.
// Within a workgroup the prefix comes from subgroup operations: an exclusive add inside each
// subgroup plus a scan over the per-subgroup sums. Nothing assumes a subgroup size: the code
// reads gl_SubgroupSize/gl_NumSubgroups/gl_SubgroupID, so it is correct whether the pipeline
// pins a size or not, and for any object count (invocations past the end contribute 0 but
// still take part in the subgroup operations).
// The fallback of cull_compact.comp's one-pass ordered compaction, where its staging area does
// not fit in shared memory (crates/cli/src/scene/gpu.rs: one_pass).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;

#include "scene_data.glsl"

#define RECORD_WRITER
#define RECORD_STREAM_BINDING 3
#include "scene_record.glsl"

layout(std430, set = 0, binding = 2) readonly buffer Visibility { uint visible[]; };
layout(RECORD_LAYOUT, set = 0, binding = 4) readonly buffer Candidates { Record records[]; } candidates;
#include "scene_counts.glsl"

layout(push_constant) uniform Phase { uint phase; } pc;

// At most one subgroup per invocation.
shared uint subgroup_prefix[gl_WorkGroupSize.x];
shared uint group_base;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = frame.counts.x;
    uint v = i < n ? visible[i] : 0u;
    uint before_in_subgroup = subgroupExclusiveAdd(v);
    uint subgroup_total = subgroupAdd(v);
    if (subgroupElect()) {
        subgroup_prefix[gl_SubgroupID] = subgroup_total;
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint sum = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; s++) {
            uint t = subgroup_prefix[s];
            subgroup_prefix[s] = sum;
            sum += t;
        }
        uint group = gl_WorkGroupID.x;
        if (pc.phase == 0u) {
            counts.group_sums[group] = sum;
        } else {
            uint base = 0u;
            for (uint g = 0u; g < group; g++) {
                base += counts.group_sums[g];
            }
            group_base = base;
            if (group == gl_NumWorkGroups.x - 1u) {
                counts.total = base + sum;
                counts.subgroup_size = gl_SubgroupSize;
            }
        }
    }
    barrier();
    if (pc.phase == 1u && v != 0u) {
        uint slot = group_base + subgroup_prefix[gl_SubgroupID] + before_in_subgroup;
        record_stream.records[slot] = candidates.records[i];
    }
}
