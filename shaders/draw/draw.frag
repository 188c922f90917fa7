#version 450
// The fragment shader of examples/draw_shaders.ron: the material id from the same push
// constants, at the byte the layout's `object` token writes it.

layout(location = 0) in vec3 v_normal;

layout(push_constant) uniform Push {
    layout(offset = 4) uint material_id;   // object.material_id, bytes 4..8
} pc;

layout(location = 0) out vec4 colour;

void main() {
    float shade = 0.5 + 0.5 * normalize(v_normal).y;
    colour = vec4(vec3(shade) * (1.0 + float(pc.material_id % 4u)) / 4.0, 1.0);
}
