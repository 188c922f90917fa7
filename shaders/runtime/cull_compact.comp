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
// promises the driver anyway.
//
// With IN_ORDER (`--compaction ordered`, `dgcc run`'s default, whose images are compared pixel
// for pixel across modes) the stream is in object order, still in one pass: a workgroup takes
// the next tile of objects from a counter (so every tile before its own belongs to a workgroup
// that is already running), orders its records by round, then subgroup, then lane, and learns
// where its tile starts by a decoupled look-back over the tiles before it. It publishes its
// tile's count as soon as it has one (AGGREGATE), then walks back over the states of the tiles
// before it, a window of LOOK_BACK subgroup-wide rows at a time, adding aggregates until it
// meets a tile whose INCLUSIVE prefix is known, and publishes its own inclusive prefix. A state
// is one word, its flag in the top two bits, so each is read and written whole. The one
// assumption is the one every single-pass scan makes: a workgroup that has started runs to
// completion while others wait for it (true of the GPUs and of lavapipe, whose threads each run
// a workgroup to its end). Without a shared-memory staging area the run falls back to
// cull.comp + compact.comp (crates/cli/src/scene/gpu.rs).
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
// `staged` holds one round, no more: on an H200 shared memory and the L1 cache are one store,
// and the objects' loads use the cache. The same kernel with `staged` merely declared twice
// as large ran at 51 % of the copy bandwidth at 1M objects instead of 63 %, and staging every
// round to copy them out at once was slower still (book/src/measured/h200-frustum-test.md).
//
// The count (and with IN_ORDER the tile counter and the tile states) must be zero before the
// dispatch: the scene clears them at setup and at the end of every frame, after the draws and
// the host copy have read them.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;
// Objects per invocation (crates/cli/src/scene/gpu.rs: objects_per_invocation; at most 8,
// the LOD indices of all rounds share one word).
layout(constant_id = 1) const uint ROUNDS = 4u;
// 1: records in object order (above); 0: in any order.
layout(constant_id = 3) const uint IN_ORDER = 0u;

#include "cull_common.glsl"
#include "scene_record.glsl"

const uint RECORD_VEC4S = RECORD_STRIDE / 16u;
const uint RECORD_WORDS = RECORD_STRIDE / 4u;

layout(std430, set = 0, binding = 3) writeonly buffer StreamVec4s { uvec4 stream_vec4s[]; };
// The tile states are read while other workgroups write them: every read must reach memory.
// `volatile` alone: glslang decorates it Coherent as well, and writing `coherent volatile`
// decorates each member Coherent twice, which the validation layer's spirv-val refuses.
#define SCENE_COUNTS_ACCESS volatile
#include "scene_counts.glsl"

// A tile's state (counts.group_sums[tile]): the flag, and below it the tile's count (AGGREGATE)
// or the records of every tile up to and including it (INCLUSIVE). Zero: not yet published.
const uint STATE_AGGREGATE = 1u << 30;
const uint STATE_INCLUSIVE = 2u << 30;
const uint STATE_FLAGS = 3u << 30;
// Tile states each invocation of the looking-back subgroup reads per step. One row of a
// subgroup's width per step did best on an H200 (book/src/measured/h200-look-back.md): 0.030 ms
// at 1M objects of the field, against 0.030, 0.031, 0.037 and 0.044 ms for 2, 4, 8 and 16 rows,
// which hold more registers and wait for more tiles per step.
const uint LOOK_BACK = 1u;

// Each subgroup's visible objects, then where its slots start after the workgroup's first
// (at most one subgroup per invocation), and the workgroup's first slot.
// With IN_ORDER, one per round and subgroup, round-major: the order of the objects.
shared uint subgroup_slots[gl_WorkGroupSize.x * (IN_ORDER != 0u ? ROUNDS : 1u)];
shared uint workgroup_base;
shared uint workgroup_tile;
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
    w[RECORD_DRAW_OFFSET / 4u + 3u] = uint(lod.vertex_offset) + (frame.counts.y == OBJECT_IN_VERTEX ? object << frame.mesh.z : 0u);
    w[RECORD_DRAW_OFFSET / 4u + 4u] = frame.counts.y == OBJECT_IN_INSTANCE ? object : 0u;
    for (uint k = 0u; k < RECORD_VEC4S; k++) {
        staged[slot * RECORD_VEC4S + k] = uvec4(w[4u * k], w[4u * k + 1u], w[4u * k + 2u], w[4u * k + 3u]);
    }
}

// The records of every tile before `tile`, by the decoupled look-back (IN_ORDER), once `tile`
// has published its own count. Called by one whole subgroup.
//
// A step reads a window of LOOK_BACK · gl_SubgroupSize tile states, all at once: row k of the
// window is the gl_SubgroupSize tiles from `end` - 1 - k · gl_SubgroupSize back, lane l the
// l-th of them, so each row is one coalesced load of consecutive words, and no load waits for
// another's value. (Reading them one after another, each lane stopping at the first inclusive
// prefix it met, chained LOOK_BACK dependent trips to the cache per step.) The step then finds
// the window's nearest inclusive prefix with one ballot per row and adds every state up to it.
uint records_before(uint tile) {
    uint lane = gl_SubgroupInvocationID;
    uint before = 0u;
    int end = int(tile); // the window is the tiles [end - LOOK_BACK · gl_SubgroupSize, end)
    while (true) {
        uint states[LOOK_BACK];
        [[unroll]] for (uint k = 0u; k < LOOK_BACK; k++) {
            int t = end - 1 - int(k * gl_SubgroupSize + lane);
            uint state = counts.group_sums[max(t, 0)];
            // Before tile 0 there is nothing: as if an inclusive prefix of 0.
            states[k] = t < 0 ? STATE_INCLUSIVE : state;
        }
        // The nearest inclusive prefix: the first row that has one, and its lowest lane.
        uint stop_row = LOOK_BACK;
        uint stop_lane = 0u;
        [[unroll]] for (uint k = 0u; k < LOOK_BACK; k++) {
            uvec4 met = subgroupBallot((states[k] & STATE_FLAGS) == STATE_INCLUSIVE);
            if (stop_row == LOOK_BACK && subgroupBallotBitCount(met) != 0u) {
                stop_row = k;
                stop_lane = subgroupBallotFindLSB(met);
            }
        }
        // Every tile nearer than that prefix, and the prefix itself, must have published.
        uint sum = 0u;
        bool ready = true;
        [[unroll]] for (uint k = 0u; k < LOOK_BACK; k++) {
            if (k < stop_row || (k == stop_row && lane <= stop_lane)) {
                ready = ready && (states[k] & STATE_FLAGS) != 0u;
                sum += states[k] & ~STATE_FLAGS;
            }
        }
        if (!subgroupAll(ready)) {
            continue; // a tile in the window has not published its count yet
        }
        before += subgroupAdd(sum);
        if (stop_row < LOOK_BACK) {
            return before;
        }
        end -= int(LOOK_BACK * gl_SubgroupSize);
    }
    return before;
}

void main() {
    uint size = gl_WorkGroupSize.x;
    uint n = frame.counts.x;
    uint tile = gl_WorkGroupID.x;
    if (IN_ORDER != 0u) {
        if (gl_LocalInvocationIndex == 0u) {
            workgroup_tile = atomicAdd(counts.next_tile, 1u);
        }
        barrier();
        tile = workgroup_tile;
    }
    uint first = tile * size * ROUNDS + gl_LocalInvocationIndex;
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
        uint round_visible = subgroupBallotBitCount(subgroupBallot(vis));
        visible += round_visible;
        if (IN_ORDER != 0u && subgroupElect()) {
            subgroup_slots[r * gl_NumSubgroups + gl_SubgroupID] = round_visible;
        }
    }
    if (IN_ORDER == 0u && subgroupElect()) {
        subgroup_slots[gl_SubgroupID] = visible;
    }
    barrier();
    if (IN_ORDER != 0u) {
        if (gl_SubgroupID == 0u) {
            uint sum = 0u;
            if (subgroupElect()) {
                for (uint g = 0u; g < ROUNDS * gl_NumSubgroups; g++) {
                    uint mine = subgroup_slots[g];
                    subgroup_slots[g] = sum;
                    sum += mine;
                }
                atomicExchange(counts.group_sums[tile], (tile == 0u ? STATE_INCLUSIVE : STATE_AGGREGATE) | sum);
            }
            sum = subgroupBroadcastFirst(sum);
            uint before = tile == 0u ? 0u : records_before(tile);
            if (subgroupElect()) {
                if (tile != 0u) {
                    atomicExchange(counts.group_sums[tile], STATE_INCLUSIVE | (before + sum));
                }
                if (tile == gl_NumWorkGroups.x - 1u) {
                    counts.total = before + sum;
                }
                workgroup_base = before;
            }
        }
    } else if (gl_LocalInvocationIndex == 0u) {
        uint sum = 0u;
        for (uint g = 0u; g < gl_NumSubgroups; g++) {
            uint mine = subgroup_slots[g];
            subgroup_slots[g] = sum;
            sum += mine;
        }
        workgroup_base = sum != 0u ? atomicAdd(counts.total, sum) : 0u;
    }
    barrier();
    uint base = workgroup_base + (IN_ORDER != 0u ? 0u : subgroup_slots[gl_SubgroupID]);
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
        if (IN_ORDER != 0u) {
            base = workgroup_base + subgroup_slots[r * gl_NumSubgroups + gl_SubgroupID];
        }
        for (uint v = lane; v < count * RECORD_VEC4S; v += lanes) {
            stream_vec4s[base * RECORD_VEC4S + v] = staged[region * RECORD_VEC4S + v];
        }
        base += count;
        // The next round's staging overwrites what this round copied out.
        subgroupBarrier();
    }
}
