#version 460
// Sorting a pass's compacted stream by material: a counting sort in two dispatches (push
// constant `phase`), the records moved whole.
//   0 (count): each workgroup counts its records per material in shared memory and adds its
//     counts to bins.count (one atomic per material and workgroup);
//   1 (scatter): each workgroup reserves, per material, a run of slots after what earlier
//     workgroups reserved (one atomic on bins.cursor), and each record goes to
//     start + reserved + its rank among the workgroup's records of that material.
// The start of material m is bins.region[m] (`dense` = 0: each material in its own region,
// sized on the host for every object of that material, for one multi-draw or one execute per
// material that reads its count at bins.count[m]) or the sum of the counts before m (`dense` =
// 1: one packed stream in material order, for one execute with an execution set). Within a
// material the order is whatever the atomics give: draws of different objects never overlap
// in depth in this scene, so the picture does not depend on it.
//
// After the regions, one DRAW_INDEXED_COUNT token's arguments per material (`batch`: the
// region's draw arguments' address and the stride, written once by the host): phase 1 copies
// each material's count into its commandCount, so that `dgcc run --batch` multi-draws each
// material's region through one sequence (crates/cli/src/scene/frame.rs: batch_region_stream).
//
// Bindings: 8 the compacted stream (its count at binding 5), 3 the sorted stream, 9 the bins.
// The host clears count and cursor before phase 0.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 256) in;

#define RECORD_WRITER
#define RECORD_STREAM_BINDING 3
#include "scene_record.glsl"

layout(RECORD_LAYOUT, set = 0, binding = 8) readonly buffer Compacted { Record records[]; } compacted;
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

shared uint local_count[MATERIALS];
shared uint local_base[MATERIALS];

void main() {
    uint lid = gl_LocalInvocationIndex;
    uint i = gl_GlobalInvocationID.x;
    if (lid < MATERIALS) {
        local_count[lid] = 0u;
    }
    barrier();
    bool live = i < counts.total;
    uint m = 0u;
    uint rank = 0u;
    if (live) {
        m = min(record_material(compacted.records[i]), MATERIALS - 1u);
        rank = atomicAdd(local_count[m], 1u);
    }
    barrier();
    if (pc.phase == 0u) {
        if (lid < MATERIALS && local_count[lid] > 0u) {
            atomicAdd(bins.count[lid], local_count[lid]);
        }
        return;
    }
    if (lid < MATERIALS) {
        if (gl_WorkGroupID.x == 0u) {
            bins.batch[lid].w = bins.count[lid];
        }
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
    if (live) {
        record_stream.records[local_base[m] + rank] = compacted.records[i];
    }
}
