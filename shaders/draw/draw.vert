#version 450
// The vertex shader of examples/draw_shaders.ron: positions and normals from the buffers the
// application binds (bindings 0 and 1, as the description's `attributes` say), the object's id
// from the push constants the layout's `object` token writes per sequence.

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

layout(push_constant) uniform Push {
    uint object_id;   // object.object_id, bytes 0..4
} pc;

layout(location = 0) out vec3 v_normal;

void main() {
    v_normal = normal;
    // A stand-in for a per-object transform: objects side by side along x.
    gl_Position = vec4(position + vec3(float(pc.object_id), 0.0, 0.0), 1.0);
}
