#version 460
// The depth pyramid for occlusion culling, every level in one dispatch (in the manner of a
// single-pass downsampler).
//
// Level k is ceil(W / 2^(k+1)) × ceil(H / 2^(k+1)) texels (in one storage buffer, level after
// level: pyramid_levels.glsl), and its texel (x, y) holds the
// farthest depth of the pixels [x·2^(k+1), (x+1)·2^(k+1)) × [y·2^(k+1), (y+1)·2^(k+1)) of the
// depth buffer that exist (depth grows with distance: farthest is the maximum). Reads past an
// edge are clamped to it, which only ever repeats a pixel of the same footprint, so every texel
// is exactly the farthest depth of its footprint: the late pass's test is conservative at any
// image size, not only at powers of two.
//
// One workgroup of 256 reduces a 64×64 tile of the depth buffer to levels 0–5 (32×32 down to
// 1×1). Invocation t owns level-1 texel morton(t) of the tile: it reads its 4×4 pixels, writes
// its four level-0 texels and its level-1 texel. Morton order puts each 2×2 block of level 1 on
// four consecutive invocations, so level 2 is a subgroup maximum over four lanes (two xor
// shuffles) — where the subgroup allows it: lanes must be consecutive local invocations in
// aligned groups of four,
// which the kernel checks at run time instead of assuming, falling back to shared memory. Every
// subgroup size from 1 up works (lavapipe runs 4, 8 or 16 lanes, NVIDIA 32, AMD 32 or 64).
// Levels 3–5 go through shared memory. The last workgroup to finish (a global atomic counter,
// reset by that workgroup for the next frame) then reduces the ceil(W/64) × ceil(H/64) texels
// of level 5 to the top, level by level.
//
// Built twice (build.sh): as is, the kernel samples the depth buffer; with DEPTH_FROM_COPY it
// reads a copy of it in a storage buffer (binding 4, row-major floats), which the runtime uses
// where a driver cannot sample depth in compute (crates/cli/src/scene/pyramid.rs: DepthRead).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_samplerless_texture_functions : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x = 256) in;

#include "pyramid_levels.glsl"

#ifdef DEPTH_FROM_COPY
layout(std430, set = 1, binding = 4) readonly buffer DepthCopy { float texels[]; } depth_copy;
#else
layout(set = 1, binding = 1) uniform texture2D depth_buffer;
#endif
layout(std430, set = 1, binding = 2) coherent buffer Levels { float texels[]; } pyramid;
layout(std430, set = 1, binding = 3) coherent buffer Progress { uint finished_groups; } progress;

layout(push_constant) uniform Size {
    uint phase;  // offset 0: the ordered compaction's phase (compact.comp); unused here
    uint width;  // of the depth buffer
    uint height;
    uint count;  // levels
} size;

shared float tile[256];
shared uint lanes_unaligned;
shared bool is_last;

uint compact_bits(uint v) {
    v &= 0x55u;
    v = (v | (v >> 1)) & 0x33u;
    v = (v | (v >> 2)) & 0x0Fu;
    return v;
}

uvec2 level0() {
    return (uvec2(size.width, size.height) + 1u) >> 1;
}

ivec2 level_size(int k) {
    return pyramid_level_size(level0(), k);
}

uint texel(int k, ivec2 p) {
    return pyramid_level_offset(level0(), k) + uint(p.y * level_size(k).x + p.x);
}

void store(int k, ivec2 p, float v) {
    if (k < int(size.count) && all(lessThan(p, level_size(k)))) {
        pyramid.texels[texel(k, p)] = v;
    }
}

float depth_at(ivec2 p) {
    ivec2 q = min(p, ivec2(size.width, size.height) - 1);
#ifdef DEPTH_FROM_COPY
    return depth_copy.texels[uint(q.y) * size.width + uint(q.x)];
#else
    return texelFetch(depth_buffer, q, 0).r;
#endif
}

// The farthest of the 2×2 texels of level k-1 under texel p of level k, edges clamped.
float reduce_from_level(int k, ivec2 p) {
    ivec2 last = level_size(k - 1) - 1;
    ivec2 q = 2 * p;
    return max(max(pyramid.texels[texel(k - 1, min(q, last))], pyramid.texels[texel(k - 1, min(q + ivec2(1, 0), last))]),
               max(pyramid.texels[texel(k - 1, min(q + ivec2(0, 1), last))], pyramid.texels[texel(k - 1, min(q + ivec2(1, 1), last))]));
}

void main() {
    uint t = gl_LocalInvocationIndex;
    ivec2 group = ivec2(gl_WorkGroupID.xy);
    ivec2 in_tile = ivec2(compact_bits(t), compact_bits(t >> 1)); // level-1 texel within the tile
    ivec2 l1 = group * 16 + in_tile;

    // Levels 0 and 1 from 4×4 pixels.
    float v1 = 0.0;
    for (int j = 0; j < 4; j++) {
        ivec2 l0 = 2 * l1 + ivec2(j & 1, j >> 1);
        ivec2 px = 2 * l0;
        float v0 = max(max(depth_at(px), depth_at(px + ivec2(1, 0))), max(depth_at(px + ivec2(0, 1)), depth_at(px + ivec2(1, 1))));
        store(0, l0, v0);
        v1 = max(v1, v0);
    }
    store(1, l1, v1);

    // Level 2: four consecutive invocations. Through the subgroup when every subgroup of this
    // workgroup holds whole, aligned groups of four consecutive invocations: lanes 4m..4m+3 are
    // then invocations 4m'..4m'+3, and xor 1 and 2 never leave the group.
    if (t == 0u) {
        lanes_unaligned = 0u;
    }
    barrier();
    uint base = t - gl_SubgroupInvocationID;
    bool aligned = gl_SubgroupSize >= 4u && (gl_SubgroupSize & 3u) == 0u && (base & 3u) == 0u
        && subgroupAll(base == subgroupBroadcastFirst(base));
    if (!aligned) {
        atomicOr(lanes_unaligned, 1u);
    }
    barrier();
    float v2;
    if (lanes_unaligned == 0u) {
        v2 = max(v1, subgroupShuffleXor(v1, 1u));
        v2 = max(v2, subgroupShuffleXor(v2, 2u));
    } else {
        tile[t] = v1;
        barrier();
        uint q = t & ~3u;
        v2 = max(max(tile[q], tile[q + 1u]), max(tile[q + 2u], tile[q + 3u]));
        barrier();
    }
    if ((t & 3u) == 0u) {
        store(2, l1 >> 1, v2);
        tile[t >> 2] = v2;
    }
    barrier();

    // Levels 3, 4 and 5 through shared memory: 64 → 16 → 4 → 1 values, each in Morton order.
    uint n = 64u;
    for (int k = 3; k <= 5; k++) {
        n >>= 2;
        float v = 0.0;
        if (t < n) {
            v = max(max(tile[4u * t], tile[4u * t + 1u]), max(tile[4u * t + 2u], tile[4u * t + 3u]));
        }
        barrier();
        if (t < n) {
            tile[t] = v;
            store(k, (group << (5 - k)) + ivec2(compact_bits(t), compact_bits(t >> 1)), v);
        }
        barrier();
    }
    if (int(size.count) <= 6) {
        return;
    }

    // The last workgroup to get here builds levels 6 and up from level 5.
    if (t == 0u) {
        memoryBarrierBuffer();
        uint done = atomicAdd(progress.finished_groups, 1u);
        is_last = done + 1u == gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    }
    barrier();
    if (!is_last) {
        return;
    }
    memoryBarrierBuffer();
    for (int k = 6; k < int(size.count); k++) {
        ivec2 s = level_size(k);
        for (int i = int(t); i < s.x * s.y; i += 256) {
            ivec2 p = ivec2(i % s.x, i / s.x);
            pyramid.texels[texel(k, p)] = reduce_from_level(k, p);
        }
        memoryBarrierBuffer();
        barrier();
    }
    if (t == 0u) {
        progress.finished_groups = 0u;
    }
}
