#version 460
// cull.comp: frustum culling that fills the indirect stream of layout `SceneDraw` (the `cull`
// kernel of the scene pipeline).
//
// One invocation per object. A visible object gets one record: its material's index in the
// execution set (the pipeline that draws it), its object id (the PUSH_CONSTANT token the vertex
// shader reads), the index buffer of its mesh and an indexed draw. Records are compacted per subgroup: an exclusive prefix sum gives each visible lane its
// slot, one lane reserves the subgroup's records with a single atomic, and a broadcast shares
// the base. Nothing here assumes a subgroup width: it is correct for 4-wide lavapipe subgroups,
// 32-wide NVIDIA and 64-wide AMD ones, which is what `dgcc check` verifies.
//
// Bindings: set 0, binding 0 the stream (SceneDrawRecord[], declared by the generated include);
// binding 1 the objects; binding 2 the sequence count that vkCmdExecuteGeneratedCommandsEXT reads
// through sequenceCountAddress (zero it before the dispatch). Push constants: the six frustum
// planes and the object count.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

#define SCENE_DRAW_WRITER
#include "scene.glsl"

layout(local_size_x = CULL_LOCAL_SIZE_X, local_size_y = CULL_LOCAL_SIZE_Y, local_size_z = CULL_LOCAL_SIZE_Z) in;

struct Object {
    vec4 sphere;          // xyz center, w radius (world space)
    uvec2 index_address;  // VkDeviceAddress of the mesh's 32-bit indices
    uint index_count;
    uint first_index;
    int vertex_offset;
    uint material_id;
    uint pad0;
    uint pad1;
};

layout(std430, set = 0, binding = 1) readonly buffer Objects {
    Object objects[];
};

layout(std430, set = 0, binding = 2) buffer SequenceCount {
    uint sequence_count;
};

layout(push_constant, std430) uniform Cull {
    vec4 planes[6];  // xyz normal pointing inside, w distance
    uint object_count;
} cull;

const uint INDEX_TYPE_UINT32 = 1u;  // VK_INDEX_TYPE_UINT32

bool inside_frustum(vec4 sphere) {
    for (int i = 0; i < 6; ++i) {
        if (dot(cull.planes[i].xyz, sphere.xyz) + cull.planes[i].w < -sphere.w) {
            return false;
        }
    }
    return true;
}

void main() {
    uint id = gl_GlobalInvocationID.x;
    // Invocations past the end stay in the subgroup operations below, as invisible objects.
    bool visible = id < cull.object_count && inside_frustum(objects[id].sphere);
    uint one = visible ? 1u : 0u;

    uint slot = subgroupExclusiveAdd(one);
    uint count = subgroupAdd(one);
    uint base = 0u;
    if (gl_SubgroupInvocationID == subgroupBroadcastFirst(gl_SubgroupInvocationID) && count > 0u) {
        base = atomicAdd(sequence_count, count);
    }
    base = subgroupBroadcastFirst(base);

    if (visible) {
        Object o = objects[id];
        uint seq = base + slot;
        scene_draw_write_material(seq, o.material_id);
        scene_draw_write_object(seq, id);
        scene_draw_write_indices(seq, o.index_address, (o.first_index + o.index_count) * 4u, INDEX_TYPE_UINT32);
        scene_draw_write_draw(seq, o.index_count, 1u, o.first_index, o.vertex_offset, 0u);
    }
}
