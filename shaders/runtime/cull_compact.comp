#version 460
// Culling and compaction in one pass, for throughput (`dgcc bench`'s default, `--compaction
// fused`): each object is read once, and a visible object's draw record goes straight into
// its final slot in the stream.
//
// A workgroup covers ROUNDS rounds of gl_WorkGroupSize.x consecutive objects (round r reads
// [first + r·size, first + (r+1)·size): every round's loads are coalesced), and each invocation
// loads its ROUNDS objects before it tests any, so they are in flight together. Each subgroup
// counts its visible objects of all rounds with ballots; the workgroup adds its subgroups' counts
// in shared memory (two workgroup barriers, the only ones) and claims all their slots with one
// atomicAdd on the stream's count. The count therefore sees objects / (workgroup size · ROUNDS)
// atomics per frame, never one per object: a single address taking an atomic per subgroup per
// round serialises in the cache (on an H200, one round per atomic held the pass at a third of the
// copy bandwidth), and one per workgroup instead of one per subgroup took the pass from 69 % to
// 78 % of the copy bandwidth at 4 M objects (book/src/measured/h200-kernel-registers.md).
// The price is order: workgroups reserve their ranges in whatever order they run, so the stream
// is in object order only within a subgroup. That is what the layout's UnorderedSequences flag
// promises the driver anyway; the ordered two-kernel path (cull.comp + compact.comp) stays for
// `dgcc run`, whose images are compared pixel for pixel across modes.
//
// Why records are staged in shared memory instead of written with the generated writers: a
// writer stores a record field by field, so a subgroup's store instruction touches one 4-byte
// word in each of 32 records 48 bytes apart — 32 partial sectors per instruction, eleven
// instructions per record — and on an H200 those partial stores, not the memory, limited the
// kernel to about a third of the copy bandwidth. Here each visible invocation assembles its
// record in registers at the generated token offsets (`RECORD_*_OFFSET`, `RECORD_STRIDE`:
// scene_record.glsl picks SceneDraw's or SceneDrawShaders'), whose insides are the Vulkan structs the tokens read (object ids as
// declared, VkBindIndexBufferIndirectCommandEXT, VkDrawIndexedIndirectCommand), stores it to
// the subgroup's part of shared memory 16 bytes at a time (a 48-byte stride puts eight
// invocations' 16-byte stores on distinct banks), and the subgroup then copies the round's
// contiguous records out 16 bytes per invocation, consecutive invocations on consecutive
// addresses. The stride is a multiple of 16, so the copy is aligned; padding words are 0.
//
// A subgroup's part of `staged` starts at its first invocation's gl_LocalInvocationIndex and
// holds one record per invocation: this assumes a subgroup's invocations are consecutive
// local indices in lane order, as on every implementation we know. (Handing the parts out
// with a shared-memory atomic would need no assumption; it measured 3–4 % slower on an H200
// when its barrier was the kernel's only one.)
//
// The count must be zero before the dispatch: the scene clears it at setup and at the end of
// every frame, after the draws and the host copy have read it.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;
// Objects per invocation (crates/cli/src/scene/gpu.rs: FUSED_OBJECTS_PER_INVOCATION; at most 8,
// the LOD indices of all rounds share one word).
layout(constant_id = 1) const uint ROUNDS = 4u;

#include "cull_common.glsl"
#include "scene_record.glsl"

const uint RECORD_VEC4S = RECORD_STRIDE / 16u;
const uint RECORD_WORDS = RECORD_STRIDE / 4u;

layout(std430, set = 0, binding = 3) writeonly buffer StreamVec4s { uvec4 stream_vec4s[]; };
#include "scene_counts.glsl"

// Each subgroup's visible objects, then where its slots start after the workgroup's first
// (at most one subgroup per invocation), and the workgroup's first slot.
shared uint subgroup_slots[gl_WorkGroupSize.x];
shared uint workgroup_base;
// One round's records, each subgroup in its own part.
shared uvec4 staged[gl_WorkGroupSize.x * RECORD_VEC4S];

void stage(uint slot, uint object, uint material, Lod lod) {
    uint w[RECORD_WORDS];
    for (uint k = 0u; k < RECORD_WORDS; k++) {
        w[k] = 0u;
    }
    uvec2 material_words = record_material_words(material);
    w[RECORD_MATERIAL_OFFSET / 4u] = material_words.x;
    if (RECORD_MATERIAL_WORDS == 2u) {
        w[RECORD_MATERIAL_OFFSET / 4u + 1u] = material_words.y;
    }
    w[RECORD_OBJECT_OFFSET / 4u] = object;
    w[RECORD_INDICES_OFFSET / 4u] = frame.index_buffer.x;
    w[RECORD_INDICES_OFFSET / 4u + 1u] = frame.index_buffer.y;
    w[RECORD_INDICES_OFFSET / 4u + 2u] = frame.index_buffer.z;
    w[RECORD_INDICES_OFFSET / 4u + 3u] = 1u; // VK_INDEX_TYPE_UINT32
    w[RECORD_DRAW_OFFSET / 4u] = lod.index_count;
    w[RECORD_DRAW_OFFSET / 4u + 1u] = 1u;
    w[RECORD_DRAW_OFFSET / 4u + 2u] = lod.first_index;
    w[RECORD_DRAW_OFFSET / 4u + 3u] = uint(lod.vertex_offset);
    w[RECORD_DRAW_OFFSET / 4u + 4u] = frame.counts.y != 0u ? object : 0u;
    for (uint k = 0u; k < RECORD_VEC4S; k++) {
        staged[slot * RECORD_VEC4S + k] = uvec4(w[4u * k], w[4u * k + 1u], w[4u * k + 2u], w[4u * k + 3u]);
    }
}

void main() {
    uint size = gl_WorkGroupSize.x;
    uint n = frame.counts.x;
    uint first = gl_WorkGroupID.x * size * ROUNDS + gl_LocalInvocationIndex;
    // What keeps this kernel's registers down, and its arrays out of local memory (measured
    // with the driver's statistics, book/src/measured/h200-kernel-registers.md): the pass is a
    // specialization constant (cull_common.glsl), only the sphere and one word of material and
    // mesh kind are held across the rounds (the late pass reads the rest of an object again),
    // and the round loops are unrolled, so that the arrays are registers even in the late pass,
    // whose loops over the pyramid otherwise keep the driver from unrolling them.
    vec4 spheres[ROUNDS];
    uint kind_material[ROUNDS]; // bits 0..7: material, 8..15: mesh kind
    [[unroll]] for (uint r = 0u; r < ROUNDS; r++) {
        uint i = first + r * size;
        spheres[r] = vec4(0.0);
        kind_material[r] = 0u;
        if (i < n) {
            spheres[r] = objects[i].center_radius;
            uvec2 info = objects[i].info.xy;
            kind_material[r] = material_of(info.x) | (min(info.y, MESH_KINDS - 1u) << 8);
        }
    }
    uint visible_rounds = 0u; // bit r: this invocation's object of round r is visible
    uint lods = 0u;           // 4 bits per round: the index into frame.lods
    uint visible = 0u;        // the subgroup's visible objects, all rounds
    [[unroll]] for (uint r = 0u; r < ROUNDS; r++) {
        bool vis = first + r * size < n && drawn_in_pass(first + r * size, spheres[r], PASS);
        lods |= lod_index(kind_material[r] >> 8, spheres[r].xyz) << (4u * r);
        visible_rounds |= vis ? (1u << r) : 0u;
        visible += subgroupBallotBitCount(subgroupBallot(vis));
    }
    if (subgroupElect()) {
        subgroup_slots[gl_SubgroupID] = visible;
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint sum = 0u;
        for (uint g = 0u; g < gl_NumSubgroups; g++) {
            uint mine = subgroup_slots[g];
            subgroup_slots[g] = sum;
            sum += mine;
        }
        workgroup_base = sum != 0u ? atomicAdd(counts.total, sum) : 0u;
    }
    barrier();
    uint base = workgroup_base + subgroup_slots[gl_SubgroupID];
    if (gl_GlobalInvocationID.x == 0u) {
        counts.subgroup_size = gl_SubgroupSize;
    }
    uvec4 present = subgroupBallot(true);
    uint lanes = subgroupBallotBitCount(present);
    uint lane = subgroupBallotExclusiveBitCount(present);
    uint region = subgroupBroadcastFirst(gl_LocalInvocationIndex);
    [[unroll]] for (uint r = 0u; r < ROUNDS; r++) {
        bool vis = (visible_rounds & (1u << r)) != 0u;
        uvec4 ballot = subgroupBallot(vis);
        if (vis) {
            Lod lod = frame.lods[(lods >> (4u * r)) & 15u];
            stage(region + subgroupBallotExclusiveBitCount(ballot), first + r * size, kind_material[r] & 0xffu, lod);
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        uint count = subgroupBallotBitCount(ballot);
        for (uint v = lane; v < count * RECORD_VEC4S; v += lanes) {
            stream_vec4s[base * RECORD_VEC4S + v] = staged[region * RECORD_VEC4S + v];
        }
        base += count;
        // The next round's staging overwrites what this round copied out.
        subgroupBarrier();
    }
}
