#version 460
// Draws one object: its mesh (vertex pulling by gl_VertexIndex, which includes the LOD's
// vertexOffset; every position, then every normal from frame.mesh.x on, both of the unit mesh)
// scaled by the object's half extents and moved to its centre. A sphere is scaled by its
// radius and its normal is its position: its draws read what dgcc 0.1's did. The object id comes through the generated
// reader: push constants under DGC and in the CPU loop, the stream record of gl_DrawID under
// the multi-draw fallback (specialization constant 0). With OBJECT_FROM_INSTANCE (constant 1)
// it comes from the draw's firstInstance instead (gl_InstanceIndex, one instance per draw):
// per-draw data without any per-draw state change, which lets a DGC layout drop its
// PUSH_CONSTANT token (`dgcc run --object-id instance`). With OBJECT_FROM_VERTEX (constant 5) it
// comes from the draw's vertexOffset, which the culling kernel raised by object << frame.mesh.z:
// gl_VertexIndex then holds the object above bit frame.mesh.z and the vertex's distance from
// frame.mesh.w below it (`--object-id vertex`). Under an execute on NVIDIA's driver a vertex
// shader that reads gl_DrawID or gl_InstanceIndex costs each draw 2.2–2.6 ns that multi-draw does
// not pay (book/src/measured/h100-instance-index.md); gl_VertexIndex, which every draw reads
// anyway, costs nothing more (book/src/measured/h100-vertex-offset.md).
//
// Materials (constant 3, `materials.glsl`): each is its own pipeline. The wind material sways
// the mesh here, inside the object's bounds, so culling stays exact. Under the binned
// multi-draw fallback (constant 4) each material's draws are one multi-draw over its region of
// the binned stream, where gl_DrawID counts from the region's start (`bins.region`).
#extension GL_GOOGLE_include_directive : require

#include "scene_data.glsl"
#include "materials.glsl"

// Binned multi-draw: records are read at the material's region start + gl_DrawID.
layout(constant_id = 4) const bool BINNED = false;
layout(std430, set = 0, binding = 9) readonly buffer Bins { uint count[16]; uint cursor[16]; uint region[16]; } bins;

#define SCENE_DRAW_READER
#define SCENE_DRAW_STREAM_BINDING 3
#define SCENE_DRAW_RECORD_INDEX (BINNED ? bins.region[MATERIAL] + uint(gl_DrawID) : uint(gl_DrawID))
#include "generated/scene.glsl"

layout(std430, set = 0, binding = 6) readonly buffer Vertices { vec4 vertices[]; };

layout(location = 0) out vec3 normal;
layout(location = 1) flat out uint colour;
layout(location = 2) flat out uint object;
layout(location = 3) out vec3 world;

layout(constant_id = 1) const bool OBJECT_FROM_INSTANCE = false;
// Pass the object id on for the object-id target (runs that count pixel owners).
layout(constant_id = 2) const bool OBJECT_IDS = false;
layout(constant_id = 5) const bool OBJECT_FROM_VERTEX = false;

void main() {
    uint object_id;
    uint vertex = uint(gl_VertexIndex);
    if (OBJECT_FROM_VERTEX) {
        uint from_base = vertex - frame.mesh.w;
        object_id = from_base >> frame.mesh.z;
        vertex = frame.mesh.w + (from_base & ((1u << frame.mesh.z) - 1u));
    } else if (OBJECT_FROM_INSTANCE) {
        object_id = uint(gl_InstanceIndex);
    } else {
        SceneDrawPushObject o = scene_draw_read_object();
        object_id = o.object_id;
    }
    Object obj = objects[object_id];
    vec3 p = material_sway(vertices[vertex].xyz, obj.center_radius.xyz);
    // The sphere meshes come first in the vertex buffer (frame.mesh.y vertices): a sphere
    // needs only its centre and radius, as in dgcc 0.1.
    vec3 w;
    if (vertex < frame.mesh.y) {
        w = obj.center_radius.xyz + p * obj.center_radius.w;
        normal = vertices[vertex].xyz;
    } else {
        vec3 half_extent = vec3(unpackHalf2x16(obj.info.z), unpackHalf2x16(obj.info.w).x);
        w = obj.center_radius.xyz + p * half_extent;
        normal = vertices[frame.mesh.x + vertex].xyz;
    }
    gl_Position = frame.view_proj * vec4(w, 1.0);
    world = w;
    colour = object_colour(obj);
    object = OBJECT_IDS ? object_id : 0u;
}
