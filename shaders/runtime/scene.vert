#version 460
// Draws one object: a unit sphere (vertex pulling by gl_VertexIndex, which includes the LOD's
// vertexOffset) scaled and moved by the object. The object id comes through the generated
// reader: push constants under DGC and in the CPU loop, the stream record of gl_DrawID under
// the multi-draw fallback (specialization constant 0).
#extension GL_GOOGLE_include_directive : require

#include "scene_data.glsl"

#define SCENE_DRAW_READER
#define SCENE_DRAW_STREAM_BINDING 3
#include "generated/scene.glsl"

layout(std430, set = 0, binding = 6) readonly buffer Vertices { vec4 vertices[]; };

layout(location = 0) out vec3 normal;
layout(location = 1) flat out uint material;

void main() {
    SceneDrawPushObject o = scene_draw_read_object();
    vec4 cr = objects[o.object_id].center_radius;
    vec3 p = vertices[gl_VertexIndex].xyz;
    gl_Position = frame.view_proj * vec4(cr.xyz + p * cr.w, 1.0);
    normal = p;
    material = o.material_id;
}
