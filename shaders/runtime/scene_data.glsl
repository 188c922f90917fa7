// Data shared by the scene's shaders; mirrored byte for byte by crates/cli/src/scene/world.rs.
#ifndef DGCC_SCENE_DATA_GLSL
#define DGCC_SCENE_DATA_GLSL

struct Object {
    vec4 center_radius; // xyz: world-space centre, w: radius (the mesh is a unit sphere)
    uvec4 info;         // x: material id
};

struct Lod {
    uint first_index;
    uint index_count;
    int vertex_offset;
    uint pad;
};

struct Frame {
    mat4 view_proj;
    vec4 planes[6];        // xyz: inward unit normal, w: distance; visible when dot + w >= -radius
    vec4 eye;              // xyz: camera position
    vec4 lod_distance2;    // x: LOD 0 up to this squared distance, y: LOD 1 up to this, else LOD 2
    Lod lods[3];
    uvec4 counts;          // x: object count, y: 1 when a draw's firstInstance is its object id
    uvec4 index_buffer;    // xy: address of the shared index buffer, z: its size in bytes
};

layout(std430, set = 0, binding = 0) readonly buffer Objects { Object objects[]; };
layout(std430, set = 0, binding = 1) readonly buffer FrameData { Frame frame; };

// The visibility test; `precise` keeps the compiler from fusing or reordering, so the host's
// reference culling (crates/cli/src/scene/world.rs: cull) computes bit-identical results.
bool sphere_visible(vec3 c, float r) {
    for (int p = 0; p < 6; p++) {
        vec4 pl = frame.planes[p];
        precise float d = ((pl.x * c.x + pl.y * c.y) + pl.z * c.z) + pl.w;
        if (d < -r) {
            return false;
        }
    }
    return true;
}

uint lod_of(vec3 c) {
    precise vec3 v = c - frame.eye.xyz;
    precise float d2 = (v.x * v.x + v.y * v.y) + v.z * v.z;
    return d2 <= frame.lod_distance2.x ? 0u : (d2 <= frame.lod_distance2.y ? 1u : 2u);
}

#endif
