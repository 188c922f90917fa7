#version 460
// Culling and compaction in one pass, for throughput (`dgcc bench`'s default, `--compaction
// fused`): each object is read once, and a visible object's draw record goes straight into
// its final slot in the stream.
//
// Slots are claimed with one atomicAdd per workgroup on the stream's count, and a workgroup
// covers OBJECTS_PER_INVOCATION rounds of gl_WorkGroupSize.x consecutive objects (round r reads
// [first + r·size, first + (r+1)·size): every round's loads are coalesced). Per round a subgroup
// ballot counts each subgroup's visible objects into shared memory; one invocation scans those
// counts in (round, subgroup) order and reserves the workgroup's range. So the count sees
// objects / (size · rounds) atomics per frame, never one per object (a single address taking
// an atomic per subgroup serialises in the cache). The price is order: workgroups reserve
// their ranges in whatever order they run, so the stream is in object order only within a
// workgroup. That is what the layout's UnorderedSequences flag promises the driver anyway; the
// ordered two-kernel path (cull.comp + compact.comp) stays for `dgcc run`, whose images are
// compared pixel for pixel across modes.
//
// Why records are staged in shared memory instead of written with the generated writers: a
// writer stores a record field by field, so a subgroup's store instruction touches one 4-byte
// word in each of 32 records 48 bytes apart — 32 partial sectors per instruction, eleven
// instructions per record — and on an H200 those partial stores, not the memory, limited the
// kernel to about a third of the copy bandwidth. Here each round's records are assembled in
// shared memory at the generated token offsets (`SCENE_DRAW_*_OFFSET`, `SCENE_DRAW_STRIDE`),
// whose insides are the Vulkan structs the tokens read (object ids as declared,
// VkBindIndexBufferIndirectCommandEXT, VkDrawIndexedIndirectCommand), and then the round's
// contiguous range of records is copied out 16 bytes per invocation, consecutive invocations
// on consecutive addresses. A round's range starts at a record boundary, and the stride is a
// multiple of 16, so the copy is aligned. The padding word is written as 0.
//
// The count must be zero before the dispatch: the scene clears it at setup and at the end of
// every frame, after the draws and the host copy have read it.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint OBJECTS_PER_INVOCATION = 2u;

#include "scene_data.glsl"
#include "generated/scene.glsl"

const uint RECORD_VEC4S = SCENE_DRAW_STRIDE / 16u;

layout(std430, set = 0, binding = 3) writeonly buffer StreamVec4s { uvec4 stream_vec4s[]; };
layout(std430, set = 0, binding = 5) buffer Counts {
    uint total;
    uint subgroup_size; // what the kernel ran with, for the report
    uint pad0;
    uint pad1;
} counts;

// Per round, at most one subgroup per invocation.
shared uint subgroup_prefix[OBJECTS_PER_INVOCATION * gl_WorkGroupSize.x];
shared uint group_base;
shared uint group_total;
// One round's records.
shared uvec4 staged[gl_WorkGroupSize.x * RECORD_VEC4S];

void put(uint record, uint byte_offset, uint value) {
    uint word = record * (SCENE_DRAW_STRIDE / 4u) + byte_offset / 4u;
    staged[word / 4u][word % 4u] = value;
}

void main() {
    uint size = gl_WorkGroupSize.x;
    uint first = gl_WorkGroupID.x * size * OBJECTS_PER_INVOCATION + gl_LocalInvocationIndex;
    uint n = frame.counts.x;
    uint visible_rounds = 0u; // bit r: this invocation's object of round r is visible
    uint lods = 0u;           // 2 bits per round
    uint materials[OBJECTS_PER_INVOCATION];
    for (uint r = 0u; r < OBJECTS_PER_INVOCATION; r++) {
        uint i = first + r * size;
        bool vis = false;
        materials[r] = 0u;
        if (i < n) {
            Object o = objects[i];
            vis = sphere_visible(o.center_radius.xyz, o.center_radius.w);
            lods |= lod_of(o.center_radius.xyz) << (2u * r);
            materials[r] = o.info.x;
        }
        uvec4 ballot = subgroupBallot(vis);
        if (subgroupElect()) {
            subgroup_prefix[r * gl_NumSubgroups + gl_SubgroupID] = subgroupBallotBitCount(ballot);
        }
        visible_rounds |= vis ? (1u << r) : 0u;
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint sum = 0u;
        for (uint s = 0u; s < OBJECTS_PER_INVOCATION * gl_NumSubgroups; s++) {
            uint t = subgroup_prefix[s];
            subgroup_prefix[s] = sum;
            sum += t;
        }
        group_base = sum == 0u ? 0u : atomicAdd(counts.total, sum);
        group_total = sum;
        if (gl_WorkGroupID.x == 0u) {
            counts.subgroup_size = gl_SubgroupSize;
        }
    }
    barrier();
    for (uint r = 0u; r < OBJECTS_PER_INVOCATION; r++) {
        uint round_start = subgroup_prefix[r * gl_NumSubgroups];
        uint round_end = r + 1u < OBJECTS_PER_INVOCATION ? subgroup_prefix[(r + 1u) * gl_NumSubgroups] : group_total;
        bool vis = (visible_rounds & (1u << r)) != 0u;
        uvec4 ballot = subgroupBallot(vis);
        if (vis) {
            uint local = subgroup_prefix[r * gl_NumSubgroups + gl_SubgroupID] - round_start + subgroupBallotExclusiveBitCount(ballot);
            Lod lod = frame.lods[(lods >> (2u * r)) & 3u];
            put(local, SCENE_DRAW_OBJECT_OFFSET, first + r * size);
            put(local, SCENE_DRAW_OBJECT_OFFSET + 4u, materials[r]);
            put(local, SCENE_DRAW_INDICES_OFFSET, frame.index_buffer.x);
            put(local, SCENE_DRAW_INDICES_OFFSET + 4u, frame.index_buffer.y);
            put(local, SCENE_DRAW_INDICES_OFFSET + 8u, frame.index_buffer.z);
            put(local, SCENE_DRAW_INDICES_OFFSET + 12u, 1u /* VK_INDEX_TYPE_UINT32 */);
            put(local, SCENE_DRAW_DRAW_OFFSET, lod.index_count);
            put(local, SCENE_DRAW_DRAW_OFFSET + 4u, 1u);
            put(local, SCENE_DRAW_DRAW_OFFSET + 8u, lod.first_index);
            put(local, SCENE_DRAW_DRAW_OFFSET + 12u, uint(lod.vertex_offset));
            put(local, SCENE_DRAW_DRAW_OFFSET + 16u, frame.counts.y != 0u ? first + r * size : 0u);
            for (uint b = SCENE_DRAW_DRAW_OFFSET + 20u; b < SCENE_DRAW_STRIDE; b += 4u) {
                put(local, b, 0u);
            }
        }
        barrier();
        // The round's records: [round_start, round_end) of the workgroup's range.
        uint count = round_end - round_start;
        uint base = (group_base + round_start) * RECORD_VEC4S;
        for (uint v = gl_LocalInvocationIndex; v < count * RECORD_VEC4S; v += size) {
            stream_vec4s[base + v] = staged[v];
        }
        barrier();
    }
}
