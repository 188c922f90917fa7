#version 450
// Every member where the tokens write it, under its own names; `unused` is declared past the
// tokens' bytes but never read, which is nobody's concern.
layout(push_constant) uniform Push {
    uint id;
    uint material;
    float scale;
    uint sequence;
    vec4 unused;
} pc;

void main() {
    gl_Position = vec4(float(pc.id + pc.material + pc.sequence) * pc.scale);
}
