#version 460
// Culling and compaction in one pass, for throughput (`dgcc bench`'s default, `--compaction
// fused`): each object is read once, and a visible object's draw record is written straight
// into its final slot in the stream. Slots are claimed with one atomicAdd per workgroup on the
// stream's count: a subgroup ballot counts each subgroup's visible objects, one invocation
// scans the per-subgroup counts in shared memory and reserves the workgroup's range, so the
// count sees (objects / local_size) atomics per frame, never one per object (no contention hot
// spot). The price is order: workgroups reserve their ranges in whatever order they run, so the
// stream is not in object order. That is what the layout's UnorderedSequences flag promises
// the driver anyway; the ordered two-kernel path (cull.comp + compact.comp) stays for `dgcc
// run`, whose images are compared pixel for pixel across modes.
//
// The count must be zero before the dispatch (the frame clears it with vkCmdFillBuffer).
// Within a workgroup the records stay in object order and are contiguous, so the stores of a
// subgroup land in consecutive records.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;

#include "scene_data.glsl"

#define SCENE_DRAW_WRITER
#define SCENE_DRAW_STREAM_BINDING 3
#include "generated/scene.glsl"

layout(std430, set = 0, binding = 5) buffer Counts {
    uint total;
    uint subgroup_size; // what the kernel ran with, for the report
    uint pad0;
    uint pad1;
} counts;

// At most one subgroup per invocation.
shared uint subgroup_prefix[gl_WorkGroupSize.x];
shared uint group_base;

void main() {
    uint i = gl_GlobalInvocationID.x;
    bool vis = false;
    Object o;
    if (i < frame.counts.x) {
        o = objects[i];
        vis = sphere_visible(o.center_radius.xyz, o.center_radius.w);
    }
    uvec4 ballot = subgroupBallot(vis);
    if (subgroupElect()) {
        subgroup_prefix[gl_SubgroupID] = subgroupBallotBitCount(ballot);
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint sum = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; s++) {
            uint t = subgroup_prefix[s];
            subgroup_prefix[s] = sum;
            sum += t;
        }
        group_base = sum == 0u ? 0u : atomicAdd(counts.total, sum);
        if (gl_WorkGroupID.x == 0u) {
            counts.subgroup_size = gl_SubgroupSize;
        }
    }
    barrier();
    if (vis) {
        uint slot = group_base + subgroup_prefix[gl_SubgroupID] + subgroupBallotExclusiveBitCount(ballot);
        Lod lod = frame.lods[lod_of(o.center_radius.xyz)];
        scene_draw_write_object(slot, i, o.info.x);
        scene_draw_write_indices(slot, frame.index_buffer.xy, frame.index_buffer.z, 1u /* VK_INDEX_TYPE_UINT32 */);
        scene_draw_write_draw(slot, lod.index_count, 1u, lod.first_index, lod.vertex_offset, 0u);
    }
}
