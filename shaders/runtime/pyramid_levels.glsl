// Where each level of the depth pyramid lives in its buffer: level k is ceil(W0 / 2^k) ×
// ceil(H0 / 2^k) floats, row-major, right after level k-1 (W0 × H0: level 0, half the depth
// buffer rounded up). Mirrored by crates/cli/src/scene/pyramid.rs (level_sizes).
#ifndef DGCC_PYRAMID_LEVELS_GLSL
#define DGCC_PYRAMID_LEVELS_GLSL

ivec2 pyramid_level_size(uvec2 level0, int k) {
    return ivec2((level0 + (1u << k) - 1u) >> k);
}

uint pyramid_level_offset(uvec2 level0, int k) {
    uint offset = 0u;
    for (int j = 0; j < k; j++) {
        ivec2 s = pyramid_level_size(level0, j);
        offset += uint(s.x * s.y);
    }
    return offset;
}

#endif
