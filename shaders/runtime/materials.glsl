// The scene's materials: one pipeline each, specialized by MATERIAL (constant 3). They differ
// in real work, as an engine's do:
//   kind 0 (MATERIAL % 4 == 0) opaque: the plain lit colour (material 0 is dgcc 0.1's shading);
//   kind 1 alpha-tested foliage: a procedural cut-out pattern, `discard` (no early depth);
//   kind 2 wind: the vertex shader sways the mesh with the frame clock (frame.materials.y);
//   kind 3 emissive: a glow from octaves of value noise in the fragment shader.
// MATERIAL / 4 adds work: more noise octaves, more sway terms. Nothing depends on draw order
// or on which path drew the object, so every mode draws the same pixels.
//
// Why the sway stays inside the bounds: culling (frustum and occlusion) tests the object's box
// or sphere, so a vertex outside it could be culled while visible. Positions of the unit mesh
// (inside the unit box, the unit sphere or TREE_BOX) are scaled by 0.8 and moved by less than
// 0.12 in x and z (and never in y): 0.8 * 0.62 + 0.12 < 0.62 for trees (TREE_BOX.x = 0.62),
// 0.8 + 0.12 < 1 for boxes, and |0.8 p + s| < 0.8 + 0.12 * sqrt(2) < 1 for spheres.
#ifndef DGCC_MATERIALS_GLSL
#define DGCC_MATERIALS_GLSL

layout(constant_id = 3) const uint MATERIAL = 0u;
const uint MATERIAL_KIND = MATERIAL % 4u;
const uint MATERIAL_LEVEL = MATERIAL / 4u;

const uint KIND_OPAQUE = 0u;
const uint KIND_CUTOUT = 1u;
const uint KIND_WIND = 2u;
const uint KIND_EMISSIVE = 3u;

float material_hash(vec3 p) {
    p = fract(p * 0.3183099 + vec3(0.11, 0.17, 0.13));
    p *= 17.0;
    return fract(p.x * p.y * p.z * (p.x + p.y + p.z));
}

// Value noise: trilinear between hashed lattice points.
float material_noise(vec3 x) {
    vec3 i = floor(x);
    vec3 f = fract(x);
    f = f * f * (3.0 - 2.0 * f);
    return mix(mix(mix(material_hash(i), material_hash(i + vec3(1, 0, 0)), f.x),
                   mix(material_hash(i + vec3(0, 1, 0)), material_hash(i + vec3(1, 1, 0)), f.x), f.y),
               mix(mix(material_hash(i + vec3(0, 0, 1)), material_hash(i + vec3(1, 0, 1)), f.x),
                   mix(material_hash(i + vec3(0, 1, 1)), material_hash(i + vec3(1, 1, 1)), f.x), f.y),
               f.z);
}

// The unit-mesh position `p` of an object centred at `c`, swayed by the wind material.
vec3 material_sway(vec3 p, vec3 c) {
    if (MATERIAL_KIND != KIND_WIND) {
        return p;
    }
    float t = float(frame.materials.y) * 0.05;
    // Height in the unit mesh, 0 at the bottom, 1 at the top: the base stays put.
    float h = clamp(p.y * 0.5 + 0.5, 0.0, 1.0);
    vec2 s = vec2(0.0);
    float amplitude = 0.06;
    for (uint k = 0u; k <= MATERIAL_LEVEL; k++) {
        float w = float(k + 1u);
        s += amplitude * vec2(sin(t * w + c.x * 0.37 + p.z * w), cos(t * w * 0.9 + c.z * 0.41 + p.x * w));
        amplitude *= 0.5;
    }
    // |s| <= 0.06 * (1 + 1/2 + 1/4 + 1/8) < 0.12 per axis.
    return vec3(0.8 * p.x + h * s.x, 0.8 * p.y, 0.8 * p.z + h * s.y);
}

// Whether the cut-out material drops this fragment at world position `w`.
bool material_cut(vec3 w) {
    if (MATERIAL_KIND != KIND_CUTOUT) {
        return false;
    }
    float n = 0.0;
    float scale = 1.5;
    for (uint k = 0u; k <= MATERIAL_LEVEL; k++) {
        n += material_noise(w * scale) / float(k + 1u);
        scale *= 2.0;
    }
    return fract(n * 2.0) < 0.3;
}

// The lit colour `base * light` of the opaque material, changed by this material.
vec3 material_shade(vec3 base, float light, vec3 w) {
    vec3 c = base * (0.25 + 0.75 * light);
    if (MATERIAL == 0u) {
        return c;
    }
    // Every other material is tinted by its index, so a swapped pipeline shows.
    vec3 tint = vec3(float(MATERIAL % 3u), float((MATERIAL / 3u) % 3u), float(MATERIAL % 5u)) / vec3(2.0, 2.0, 4.0);
    c = mix(c, tint, 0.2);
    if (MATERIAL_KIND == KIND_EMISSIVE) {
        float glow = 0.0;
        float scale = 0.8;
        for (uint k = 0u; k < 4u * (MATERIAL_LEVEL + 1u); k++) {
            glow += material_noise(w * scale + vec3(float(k))) / float(k + 1u);
            scale *= 1.7;
        }
        c += vec3(1.0, 0.6, 0.2) * max(glow - 0.9, 0.0);
    } else if (MATERIAL_LEVEL > 0u) {
        // More work for the higher levels of the other kinds: a noisy grain.
        float grain = 0.0;
        for (uint k = 0u; k < 2u * MATERIAL_LEVEL; k++) {
            grain += material_noise(w * float(4u + k));
        }
        c *= 0.9 + 0.1 * grain / float(2u * MATERIAL_LEVEL);
    }
    return c;
}

#endif
