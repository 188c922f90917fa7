#version 460
// Draws one object: its mesh (vertex pulling by gl_VertexIndex, which includes the LOD's
// vertexOffset; every position, then every normal from frame.mesh.x on, both of the unit mesh)
// scaled by the object's half extents and moved to its centre. A sphere is scaled by its
// radius and its normal is its position: its draws read what dgcc 0.1's did. The object id comes through the generated
// reader: push constants under DGC and in the CPU loop, the stream record of gl_DrawID under
// the multi-draw fallback (specialization constant 0). With OBJECT_FROM_INSTANCE (constant 1)
// it comes from the draw's firstInstance instead (gl_InstanceIndex, one instance per draw) and
// the material from the object: per-draw data without any per-draw state change, which lets a
// DGC layout drop its PUSH_CONSTANT token (`dgcc run --object-id instance`).
#extension GL_GOOGLE_include_directive : require

#include "scene_data.glsl"

#define SCENE_DRAW_READER
#define SCENE_DRAW_STREAM_BINDING 3
#include "generated/scene.glsl"

layout(std430, set = 0, binding = 6) readonly buffer Vertices { vec4 vertices[]; };

layout(location = 0) out vec3 normal;
layout(location = 1) flat out uint material;
layout(location = 2) flat out uint object;

layout(constant_id = 1) const bool OBJECT_FROM_INSTANCE = false;
// Pass the object id on for the object-id target (runs that count pixel owners).
layout(constant_id = 2) const bool OBJECT_IDS = false;

void main() {
    uint object_id;
    uint material_id;
    if (OBJECT_FROM_INSTANCE) {
        object_id = uint(gl_InstanceIndex);
        material_id = objects[object_id].info.x;
    } else {
        SceneDrawPushObject o = scene_draw_read_object();
        object_id = o.object_id;
        material_id = o.material_id;
    }
    vec3 p = vertices[gl_VertexIndex].xyz;
    // The sphere meshes come first in the vertex buffer (frame.mesh.y vertices): a sphere
    // needs only its centre and radius, as in dgcc 0.1.
    if (uint(gl_VertexIndex) < frame.mesh.y) {
        vec4 cr = objects[object_id].center_radius;
        gl_Position = frame.view_proj * vec4(cr.xyz + p * cr.w, 1.0);
        normal = p;
    } else {
        Object obj = objects[object_id];
        vec3 half_extent = vec3(unpackHalf2x16(obj.info.z), unpackHalf2x16(obj.info.w).x);
        gl_Position = frame.view_proj * vec4(obj.center_radius.xyz + p * half_extent, 1.0);
        normal = vertices[frame.mesh.x + uint(gl_VertexIndex)].xyz;
    }
    material = material_id;
    object = OBJECT_IDS ? object_id : 0u;
}
