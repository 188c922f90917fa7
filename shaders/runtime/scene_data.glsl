// Data shared by the scene's shaders; mirrored byte for byte by crates/cli/src/scene/world/mod.rs.
#ifndef DGCC_SCENE_DATA_GLSL
#define DGCC_SCENE_DATA_GLSL

struct Object {
    vec4 center_radius; // xyz: world-space centre, w: bounding-sphere radius
    uvec4 info;         // x: colour (bits 0..7) and material (8..15), y: mesh kind,
                        // z/w: half extents x, y / z as packHalf2x16
};

struct Lod {
    uint first_index;
    uint index_count;
    int vertex_offset;
    uint pad;
};

// Mesh kinds, three LODs each: lods[kind * 3 + lod]. Every mesh but the box fits the unit
// sphere; a box's bound is its half extents (info.zw).
const uint MESH_KINDS = 4u;
const uint KIND_SPHERE = 0u;
const uint KIND_BOX = 1u;
const uint KIND_TREE = 2u;
// The box a unit tree fits in (crates/cli/src/scene/world/meshes.rs: tree).
const vec3 TREE_BOX = vec3(0.62, 0.98, 0.62);

// Culling choices (Frame.counts.z) and passes (the culling kernels' specialization constant PASS,
// cull_common.glsl; crates/cli/src/scene/gpu.rs: CullPass).
const uint CULLING_NONE = 0u;
const uint CULLING_FRUSTUM = 1u;
const uint CULLING_OCCLUSION = 2u;
const uint PASS_SINGLE = 0u; // none or frustum: one pass
const uint PASS_EARLY = 1u;  // occlusion: what was visible last frame
const uint PASS_LATE = 2u;   // occlusion: everything else, against the depth pyramid

// Where a draw carries its object id besides the record (Frame.counts.y; `dgcc run --object-id`,
// crates/cli/src/scene/options.rs: ObjectId): nowhere else, in firstInstance, or in vertexOffset
// (the LOD's own plus object << mesh.z, which scene.vert takes apart again).
const uint OBJECT_IN_RECORD = 0u;
const uint OBJECT_IN_INSTANCE = 1u;
const uint OBJECT_IN_VERTEX = 2u;

struct Frame {
    mat4 view_proj;
    mat4 view;             // world to view space (right-handed, the camera looks down -z)
    vec4 planes[6];        // xyz: inward unit normal, w: distance; visible when dot + w >= -radius
    vec4 eye;              // xyz: camera position
    vec4 lod_distance2;    // x: LOD 0 up to this squared distance, y: LOD 1 up to this, else LOD 2
    vec4 projection;       // x: P[0][0], y: -P[1][1] (positive), z: near plane distance
    vec4 depth_map;        // depth of a point at view distance d = x - y / d; z, w: image size
    uvec4 counts;          // x: objects, y: where a draw also carries its object (OBJECT_IN_*),
                           // z: culling choice, w: 1 when last frame's visibility is valid
    uvec4 index_buffer;    // xy: address of the shared index buffer, z: its size in bytes
    uvec4 pyramid;         // x: levels, y/z: level-0 size, w: test fault (0 = none)
    uvec4 mesh;            // x: where the normals start in the vertex buffer, y: sphere vertices (first),
                           // under OBJECT_IN_VERTEX z: the object's shift in vertexOffset,
                           // w: the lowest vertex the scene's meshes use
    uvec4 materials;       // x: materials, y: frame number (the wind's clock)
    Lod lods[12];
};

// An object's colour (the palette index the fragment shader lights) and its material (the
// pipeline that draws it: its index in the execution set).
uint object_colour(Object o) {
    return o.info.x & 0xffu;
}
uint material_of(uint info_x) {
    return (info_x >> 8) & 0xffu;
}
uint object_material(Object o) {
    return material_of(o.info.x);
}

layout(std430, set = 0, binding = 0) readonly buffer Objects { Object objects[]; };
// The frame is a uniform buffer: every invocation reads it alike, and a uniform buffer is served
// from the constant cache, its values operands of the instructions that use them, where a
// storage buffer costs a load and its latency per use (the culling kernel's frustum planes, its
// object count ahead of every object load). Every member is a vec4, a mat4 or a struct of four
// words, so std140 lays it out exactly as std430 and world/mod.rs's Frame.
layout(std140, set = 0, binding = 1) uniform FrameData { Frame frame; };

// The frustum test; `precise` keeps the compiler from fusing or reordering, so the host's
// reference culling (crates/cli/src/scene/world/reference.rs: in_frustum) computes
// bit-identical results.
// All six planes are tested and their least distance compared once, without a branch: a return
// at the first plane that culls made a branch per plane, and the fused kernel without them runs
// at 63 % of the copy bandwidth at 1M objects of the field and 89 % at 4M, against 61 % and 88 %
// (an H200, book/src/measured/h200-frustum-test.md). For distances that are not NaN,
// `!(least < -r)` culls exactly what a return at the first `d < -r` culled.
bool sphere_visible(vec3 c, float r) {
    float least = 3.0e38;
    for (int p = 0; p < 6; p++) {
        vec4 pl = frame.planes[p];
        precise float d = ((pl.x * c.x + pl.y * c.y) + pl.z * c.z) + pl.w;
        least = min(least, d);
    }
    return !(least < -r);
}

uint lod_of(vec3 c) {
    precise vec3 v = c - frame.eye.xyz;
    precise float d2 = (v.x * v.x + v.y * v.y) + v.z * v.z;
    return d2 <= frame.lod_distance2.x ? 0u : (d2 <= frame.lod_distance2.y ? 1u : 2u);
}

// Index into frame.lods for an object at `c` of mesh `kind`.
uint lod_index(uint kind, vec3 c) {
    return min(kind, MESH_KINDS - 1u) * 3u + lod_of(c);
}

#endif
