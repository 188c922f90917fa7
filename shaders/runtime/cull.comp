#version 460
// Culling pass: one invocation per object (cull_common.glsl decides per pass: frustum, or the
// early or late half of two-pass occlusion culling) and distance LOD. An object drawn in this
// pass gets its draw record written at its own index with the generated writers (the candidate
// stream); the compaction pass then packs the flagged records in object order.
// With compact.comp this is the ordered compaction's fallback, for a device whose shared memory
// cannot hold cull_compact.comp's staging area (crates/cli/src/scene/gpu.rs: one_pass).
#extension GL_GOOGLE_include_directive : require

layout(local_size_x_id = 0) in;

#include "cull_common.glsl"

#define RECORD_WRITER
#define RECORD_STREAM_BINDING 4
#include "scene_record.glsl"

layout(std430, set = 0, binding = 2) writeonly buffer Visibility { uint visible[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= frame.counts.x) {
        return;
    }
    Object o = objects[i];
    bool draw = drawn_in_pass(i, o.center_radius, PASS);
    visible[i] = draw ? 1u : 0u;
    if (draw) {
        Lod lod = frame.lods[lod_index(o.info.y, o.center_radius.xyz)];
        record_write_material(i, object_material(o));
        record_write_object(i, i);
        record_write_indices(i, frame.index_buffer.xy, frame.index_buffer.z, 1u /* VK_INDEX_TYPE_UINT32 */);
        // firstInstance or vertexOffset carries the object id when the frame asks for it
        // (counts.y: see scene.vert).
        int vertex_offset = lod.vertex_offset + int(frame.counts.y == OBJECT_IN_VERTEX ? i << frame.mesh.z : 0u);
        record_write_draw(i, lod.index_count, 1u, lod.first_index, vertex_offset, frame.counts.y == OBJECT_IN_INSTANCE ? i : 0u);
    }
}
