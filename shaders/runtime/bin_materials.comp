#version 460
// Sorting a pass's compacted stream by material: a counting sort in two dispatches (push
// constant `phase`), the records moved whole. A workgroup takes ROUNDS rounds of 256
// consecutive records (round r: [first + 256 r, first + 256 (r + 1)), so every round's loads
// are coalesced).
//   0 (count): the workgroup counts its records per material in shared memory and adds its
//     counts to bins.count (one atomic per material and workgroup);
//   1 (scatter): the workgroup counts again, reserves per material a run of slots after what
//     earlier workgroups reserved (one atomic on bins.cursor), and moves each of its records
//     to start + reserved + its rank among the workgroup's records of that material.
// The start of material m is bins.region[m] (`dense` = 0: each material in its own region,
// sized on the host for every object of that material, for one multi-draw or one execute per
// material that reads its count at bins.count[m]) or the sum of the counts before m (`dense` =
// 1: one packed stream in material order, for one execute with an execution set). Within a
// material the order is whatever the atomics give: draws of different objects never overlap
// in depth in this scene, so the picture does not depend on it.
//
// Why it is written this way (the first kernel, one record per invocation, a shared-memory
// atomic per record and the records copied field by field, moved its bytes at 14 % of the
// copy bandwidth on an H200, book/src/measured/h200-binning.md):
// - ranks come from ballots, one per material present in the subgroup, and one shared atomic
//   per subgroup and material: a sorted stream puts a workgroup's records on one or two
//   materials, and an atomic per record on one shared counter serialises the workgroup;
// - each record's destination goes to shared memory, and the workgroup then copies its records
//   16 bytes per invocation, consecutive invocations on consecutive source addresses (and, for
//   records of one material, consecutive destinations): a record copied field by field stores
//   one word into each of 32 records per instruction, which the memory system takes as 32
//   partial sectors;
// - four rounds per workgroup: a quarter of the workgroups, so a quarter of the global atomics
//   on the few counters a sorted stream touches.
//
// After the regions, one DRAW_INDEXED_COUNT token's arguments per material (`batch`: the
// region's draw arguments' address and the stride, written once by the host): phase 1 copies
// each material's count into its commandCount, so that `dgcc run --batch` multi-draws each
// material's region through one sequence (crates/cli/src/scene/frame.rs: batch_region_stream).
//
// Bindings: 8 the compacted stream (its count at binding 5), 3 the sorted stream, 9 the bins.
// The host clears count and cursor before phase 0.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require

// crates/cli/src/scene/gpu.rs: BIN_WORKGROUP and BIN_RECORDS_PER_WORKGROUP.
layout(local_size_x = 256) in;
const uint ROUNDS = 4u;

#include "scene_record.glsl"

const uint RECORD_VEC4S = RECORD_STRIDE / 16u;
const uint MATERIAL_VEC4 = RECORD_MATERIAL_OFFSET / 16u;
const uint MATERIAL_LANE = (RECORD_MATERIAL_OFFSET / 4u) % 4u;

layout(std430, set = 0, binding = 8) readonly buffer CompactedVec4s { uvec4 compacted[]; };
layout(std430, set = 0, binding = 3) writeonly buffer SortedVec4s { uvec4 sorted[]; };
#define SCENE_COUNTS_ACCESS readonly
#include "scene_counts.glsl"
layout(std430, set = 0, binding = 9) buffer Bins {
    uint count[16];
    uint cursor[16];
    uint region[16];
    uvec4 batch[16]; // xy: address, z: stride, w: commandCount
} bins;

layout(push_constant) uniform Bin { uint phase; uint dense; } pc;

const uint MATERIALS = 16u;
const uint SIZE = gl_WorkGroupSize.x;

shared uint local_count[MATERIALS];
shared uint local_base[MATERIALS];
// Phase 1: where each of the workgroup's records goes, in the sorted stream.
shared uint destination[SIZE * ROUNDS];

void main() {
    uint lid = gl_LocalInvocationIndex;
    uint total = counts.total;
    uint first = gl_WorkGroupID.x * SIZE * ROUNDS;
    if (pc.phase == 1u && gl_WorkGroupID.x == 0u && lid < MATERIALS) {
        bins.batch[lid].w = bins.count[lid];
    }
    if (first >= total) {
        return;
    }
    if (lid < MATERIALS) {
        local_count[lid] = 0u;
    }
    barrier();
    uint materials[ROUNDS];
    uint ranks[ROUNDS];
    [[unroll]] for (uint r = 0u; r < ROUNDS; r++) {
        uint i = first + r * SIZE + lid;
        bool live = i < total;
        uint m = MATERIALS; // none
        if (live) {
            m = min(record_material_of_word(compacted[i * RECORD_VEC4S + MATERIAL_VEC4][MATERIAL_LANE]), MATERIALS - 1u);
        }
        materials[r] = m;
        ranks[r] = 0u;
        // One ballot per material this round's subgroup holds, in uniform control flow.
        uint present = subgroupOr(live ? 1u << m : 0u);
        while (present != 0u) {
            uint k = findLSB(present);
            present &= present - 1u;
            uvec4 same = subgroupBallot(m == k);
            uint run = 0u;
            if (subgroupElect()) {
                run = atomicAdd(local_count[k], subgroupBallotBitCount(same));
            }
            run = subgroupBroadcastFirst(run);
            if (m == k) {
                ranks[r] = run + subgroupBallotExclusiveBitCount(same);
            }
        }
    }
    barrier();
    if (pc.phase == 0u) {
        if (lid < MATERIALS && local_count[lid] > 0u) {
            atomicAdd(bins.count[lid], local_count[lid]);
        }
        return;
    }
    if (lid < MATERIALS) {
        uint start = bins.region[lid];
        if (pc.dense != 0u) {
            start = 0u;
            for (uint k = 0u; k < lid; k++) {
                start += bins.count[k];
            }
        }
        local_base[lid] = local_count[lid] > 0u ? start + atomicAdd(bins.cursor[lid], local_count[lid]) : 0u;
    }
    barrier();
    [[unroll]] for (uint r = 0u; r < ROUNDS; r++) {
        if (materials[r] < MATERIALS) {
            destination[r * SIZE + lid] = local_base[materials[r]] + ranks[r];
        }
    }
    barrier();
    uint records = min(total - first, SIZE * ROUNDS);
    for (uint v = lid; v < records * RECORD_VEC4S; v += SIZE) {
        uint record = v / RECORD_VEC4S;
        sorted[destination[record] * RECORD_VEC4S + v % RECORD_VEC4S] = compacted[first * RECORD_VEC4S + v];
    }
}
