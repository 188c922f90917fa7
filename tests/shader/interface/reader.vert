#version 460
// The generated reader: `#include "push.glsl"` is answered from the description being checked,
// and its push_constant block is the tokens' layout, so nothing is reported.
#extension GL_GOOGLE_include_directive : require
#define DRAWS_READER
#include "push.glsl"

void main() {
    DrawsPushObject o = draws_read_object();
    gl_Position = vec4(float(o.object_id + o.material) * o.scale);
}
