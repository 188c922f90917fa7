#version 450
// A fragment shader with a push-constant block, in a pipeline whose ranges give Fragment none.
layout(push_constant) uniform Push {   // expect: E0586
    layout(offset = 4) uint material;
} pc;

layout(location = 0) out vec4 colour;

void main() {
    colour = vec4(float(pc.material));
}
