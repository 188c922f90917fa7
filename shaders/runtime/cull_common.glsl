// What the culling kernels decide per object and pass: frustum, distance LOD, and the two-pass
// occlusion test against the depth pyramid (see depth_pyramid.comp for how it is built).
//
// Two passes per frame under CULLING_OCCLUSION:
//   early: objects that were visible last frame (`last_visible`) and are in the frustum;
//   late:  every object in the frustum is tested against the pyramid built from the early
//          pass's depth; the ones that pass and were not drawn early are drawn now, and every
//          object's `last_visible` is rewritten for the next frame.
// Without valid history (first frame, camera cut) the early pass draws nothing, the pyramid
// holds the far plane everywhere, and the late pass draws everything in the frustum.
//
// Conservative by construction, since a false "hidden" is a hole in the picture: an object's
// screen bounds contain its projection (a sphere's are exact, from the tangent planes through
// the eye; a box's — buildings, and the box around a tree — hold its projected corners), the
// test covers every pixel whose centre lies inside them (single-sampled rasterisation makes
// fragments at pixel centres only; a hundredth of a pixel to spare covers rounding), the
// pyramid level is the finest at which the rectangle spans at most 6 × 6 texels and every texel
// under it is read, every texel of a level holds the farthest depth of its whole footprint, and
// the object's nearest depth is taken a little nearer still. Objects that reach the near plane
// are visible. An object whose bounds hold no pixel centre makes no fragment and is culled
// like a hidden one (far props down a street are often smaller than a pixel).
#ifndef DGCC_CULL_COMMON_GLSL
#define DGCC_CULL_COMMON_GLSL

#include "scene_data.glsl"
#include "pyramid_levels.glsl"

// The pass this pipeline culls for (PASS_* in scene_data.glsl), fixed when the pipeline is made:
// one pipeline per pass, so that the single pass of frustum culling holds no occlusion code. With
// the pass in a push constant, the late pass's code set the register count of every pass (61
// against 34 on an H200: 39 % of the copy bandwidth at 1 M objects against 51 %,
// book/src/measured/h200-kernel-registers.md).
layout(constant_id = 2) const uint PASS = PASS_SINGLE;

layout(std430, set = 0, binding = 7) buffer LastVisible { uint last_visible[]; };
layout(std430, set = 1, binding = 2) readonly buffer Pyramid { float texels[]; } pyramid;

float pyramid_texel(int level, ivec2 p) {
    uvec2 level0 = frame.pyramid.yz;
    ivec2 last = pyramid_level_size(level0, level) - 1;
    ivec2 q = min(p, last);
    return pyramid.texels[pyramid_level_offset(level0, level) + uint(q.y * (last.x + 1) + q.x)];
}

// The pixels whose centres can fall inside [p0, p1] (framebuffer coordinates), inclusive,
// clamped to the image: a pixel x is covered only if x + 0.5 lies in [p0.x, p1.x], that is x in
// [ceil(p0.x - 0.5), floor(p1.x - 0.5)], with the same hundredth of a pixel to spare as
// covers_no_pixel (which culls the object first when the range is empty).
ivec4 pixel_rect(vec2 p0, vec2 p1) {
    ivec2 last = ivec2(frame.depth_map.zw) - 1;
    ivec2 first_px = ivec2(ceil(p0 - 0.5 - 0.01));
    ivec2 last_px = ivec2(floor(p1 - 0.5 + 0.01));
    return ivec4(clamp(first_px, ivec2(0), last), clamp(last_px, ivec2(0), last));
}

// Whether no pixel centre of the image lies inside [p0, p1]: an object inside those bounds then
// makes no fragment at all (single-sampled rasterisation covers pixel centres only), so culling
// it cannot change the picture. A hundredth of a pixel to spare covers rounding here and the
// rasteriser's snapping of vertices to its sub-pixel grid (1/256 of a pixel or finer).
bool covers_no_pixel(vec2 p0, vec2 p1) {
    vec2 first = max(ceil(p0 - 0.5 - 0.01), vec2(0.0));
    vec2 last = min(floor(p1 - 0.5 + 0.01), frame.depth_map.zw - 1.0);
    return any(greaterThan(first, last));
}

// The screen rectangle of a sphere at view-space centre `c` (z < 0 in front) in pixels,
// inclusive (pixel_rect), its nearest view distance, and whether it covers no pixel centre;
// false when the sphere reaches the near plane.
bool sphere_pixels(vec3 c, float r, out ivec4 rect, out float nearest, out bool empty) {
    float depth = -c.z; // distance along the view direction
    nearest = depth - r;
    if (nearest <= frame.projection.z) {
        return false;
    }
    // Along each axis the sphere's extent over depth lies between the two planes through the eye
    // tangent to it: tan(angle of the centre ± half-angle of the sphere).
    float t2 = depth * depth - r * r;
    float lx = sqrt(c.x * c.x + t2);
    float ly = sqrt(c.y * c.y + t2);
    float x_lo = (c.x * lx - r * depth) / (depth * lx + r * c.x);
    float x_hi = (c.x * lx + r * depth) / (depth * lx - r * c.x);
    float y_lo = (c.y * ly - r * depth) / (depth * ly + r * c.y);
    float y_hi = (c.y * ly + r * depth) / (depth * ly - r * c.y);
    // Normalised device coordinates: x right, y down (the projection flips y).
    vec2 size = frame.depth_map.zw;
    vec2 p0 = (vec2(x_lo * frame.projection.x, -y_hi * frame.projection.y) * 0.5 + 0.5) * size;
    vec2 p1 = (vec2(x_hi * frame.projection.x, -y_lo * frame.projection.y) * 0.5 + 0.5) * size;
    rect = pixel_rect(p0, p1);
    empty = covers_no_pixel(p0, p1);
    return true;
}

// The same for a box (much tighter than its sphere for a tall building): the projection of a
// box in front of the eye lies inside the rectangle of its projected corners, and its nearest
// point is a corner.
bool box_pixels(vec3 center, vec3 half_extent, out ivec4 rect, out float nearest, out bool empty) {
    vec2 lo = vec2(1e30);
    vec2 hi = vec2(-1e30);
    nearest = 1e30;
    empty = false;
    for (int k = 0; k < 8; k++) {
        vec3 corner = center + half_extent * vec3((k & 1) != 0 ? 1.0 : -1.0, (k & 2) != 0 ? 1.0 : -1.0, (k & 4) != 0 ? 1.0 : -1.0);
        vec4 clip = frame.view_proj * vec4(corner, 1.0);
        if (clip.w <= frame.projection.z) {
            return false;
        }
        vec2 ndc = clip.xy / clip.w;
        lo = min(lo, ndc);
        hi = max(hi, ndc);
        nearest = min(nearest, clip.w);
    }
    vec2 size = frame.depth_map.zw;
    vec2 p0 = (lo * 0.5 + 0.5) * size;
    vec2 p1 = (hi * 0.5 + 0.5) * size;
    rect = pixel_rect(p0, p1);
    empty = covers_no_pixel(p0, p1);
    return true;
}

// Texels per axis the occlusion test reads at most (FOOTPRINT² in all): finer than the usual
// 2 × 2, so that a sliver of sky at the edge of a coarse texel does not make everything near a
// roof line visible; the loop stops at the first texel that is farther than the object.
const int FOOTPRINT = 6;

// Whether the object is certainly behind what the pyramid holds.
bool occluded(Object o) {
    ivec4 rect;
    float nearest;
    bool in_front;
    bool empty;
    vec3 half_extent = vec3(unpackHalf2x16(o.info.z), unpackHalf2x16(o.info.w).x);
    if (o.info.y == KIND_BOX) {
        in_front = box_pixels(o.center_radius.xyz, half_extent, rect, nearest, empty);
    } else if (o.info.y == KIND_TREE) {
        in_front = box_pixels(o.center_radius.xyz, half_extent * TREE_BOX, rect, nearest, empty);
    } else {
        vec3 c = (frame.view * vec4(o.center_radius.xyz, 1.0)).xyz;
        in_front = sphere_pixels(c, o.center_radius.w, rect, nearest, empty);
    }
    if (!in_front) {
        return false;
    }
    if (empty) {
        return true; // between pixel centres: it would not be seen even with nothing in front
    }
    // The nearest point's depth, from a point 0.1 % nearer against rounding in the rasteriser.
    float depth = frame.depth_map.x - frame.depth_map.y / max(nearest * 0.999, frame.projection.z);
    // Level k's texel x covers pixels [x·2^(k+1), (x+1)·2^(k+1)): take the finest level at which
    // the rectangle spans at most FOOTPRINT texels along each axis, and every texel it touches.
    uint levels = frame.pyramid.x;
    int level = 0;
    for (; level + 1 < int(levels); level++) {
        ivec2 span = (rect.zw >> (level + 1)) - (rect.xy >> (level + 1));
        if (span.x < FOOTPRINT && span.y < FOOTPRINT) {
            break;
        }
    }
    int read = level;
    if (frame.pyramid.w == 1u && level > 0) {
        read = level - 1; // the test fault: a level finer than the footprint needs
    }
    ivec2 lo = rect.xy >> (level + 1);
    ivec2 hi = rect.zw >> (level + 1);
    for (int y = lo.y; y <= hi.y; y++) {
        for (int x = lo.x; x <= hi.x; x++) {
            if (pyramid_texel(read, ivec2(x, y)) >= depth) {
                return false; // something under the object is at least as far as its nearest point
            }
        }
    }
    return true;
}

// Whether object `i`, of bounding sphere `s`, is drawn in `pass`; the late pass also records its
// visibility for the next frame. Only the late pass reads the rest of the object (its mesh kind
// and box), from memory again: a caller that holds several objects then keeps just their spheres
// live, which is what keeps the fused kernel's registers down (see cull_compact.comp).
bool drawn_in_pass(uint i, vec4 s, uint pass) {
    uint culling = frame.counts.z;
    bool in_frustum = culling == CULLING_NONE || sphere_visible(s.xyz, s.w);
    if (pass == PASS_SINGLE) {
        return in_frustum;
    }
    bool drawn_early = in_frustum && frame.counts.w != 0u && last_visible[i] != 0u;
    if (pass == PASS_EARLY) {
        return drawn_early;
    }
    bool visible = in_frustum && !occluded(objects[i]);
    last_visible[i] = visible ? 1u : 0u;
    return visible && !drawn_early;
}

#endif
