#version 460
// Culling and compaction in one pass, for throughput (`dgcc bench`'s default, `--compaction
// fused`): each object is read once, and a visible object's draw record goes straight into
// its final slot in the stream.
//
// Every subgroup works on its own: no workgroup barrier anywhere. A workgroup covers ROUNDS
// rounds of gl_WorkGroupSize.x consecutive objects (round r reads [first + r·size,
// first + (r+1)·size): every round's loads are coalesced), and each invocation loads its ROUNDS
// objects before it tests any, so they are in flight together. A subgroup counts its visible
// objects of all rounds with ballots and claims their slots with one atomicAdd on the stream's
// count; the count therefore sees objects / (subgroup size · ROUNDS) atomics per frame, never
// one per object (a single address taking an atomic per subgroup per round serialises in the
// cache: on an H200, one round per atomic held the pass at a third of the copy bandwidth).
// The price is order: subgroups reserve their ranges in whatever order they run, so the stream
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
// with a shared-memory atomic would need no assumption, but its barrier to clear the cursor
// cost 3–4 % of the pass on an H200.)
//
// The count must be zero before the dispatch: the scene clears it at setup and at the end of
// every frame, after the draws and the host copy have read it.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

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

layout(push_constant) uniform Pass { uint pass; } pc;

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
    Object loaded[ROUNDS];
    for (uint r = 0u; r < ROUNDS; r++) {
        uint i = first + r * size;
        loaded[r] = Object(vec4(0.0), uvec4(0u));
        if (i < n) {
            loaded[r] = objects[i];
        }
    }
    uint visible_rounds = 0u; // bit r: this invocation's object of round r is visible
    uint lods = 0u;           // 4 bits per round: the index into frame.lods
    uint visible = 0u;        // the subgroup's visible objects, all rounds
    for (uint r = 0u; r < ROUNDS; r++) {
        bool vis = first + r * size < n && drawn_in_pass(first + r * size, loaded[r], pc.pass);
        lods |= lod_index(loaded[r].info.y, loaded[r].center_radius.xyz) << (4u * r);
        visible_rounds |= vis ? (1u << r) : 0u;
        visible += subgroupBallotBitCount(subgroupBallot(vis));
    }
    uint base = 0u;
    if (subgroupElect() && visible != 0u) {
        base = atomicAdd(counts.total, visible);
    }
    base = subgroupBroadcastFirst(base);
    if (gl_GlobalInvocationID.x == 0u) {
        counts.subgroup_size = gl_SubgroupSize;
    }
    uvec4 present = subgroupBallot(true);
    uint lanes = subgroupBallotBitCount(present);
    uint lane = subgroupBallotExclusiveBitCount(present);
    uint region = subgroupBroadcastFirst(gl_LocalInvocationIndex);
    for (uint r = 0u; r < ROUNDS; r++) {
        bool vis = (visible_rounds & (1u << r)) != 0u;
        uvec4 ballot = subgroupBallot(vis);
        if (vis) {
            Lod lod = frame.lods[(lods >> (4u * r)) & 15u];
            stage(region + subgroupBallotExclusiveBitCount(ballot), first + r * size, object_material(loaded[r]), lod);
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
