#version 460
// The draw tally's geometry stage (`dgcc run --layout`, a layout whose stages include
// Geometry): each triangle emitted as it came, so each triangle instance is still one
// fragment, its tally and carried words handed on (see draw_between.glsl; build.sh compiles it
// plain, with CARRIED_WORDS and with PUSHED_WORDS).
#extension GL_GOOGLE_include_directive : require
#include "draw_between.glsl"

layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

layout(location = 0) flat in uvec4 tally_in[];
layout(location = 0) flat out uvec4 tally;
#ifdef CARRIED_WORDS
layout(location = 1) flat in uvec4 carried_in[][CARRIED_VEC4S];
layout(location = 1) flat out uvec4 carried[CARRIED_VEC4S];
#endif

void main() {
    for (int i = 0; i < 3; ++i) {
        gl_Position = gl_in[i].gl_Position;
        tally = tally_in[i];
#ifdef CARRIED_WORDS
        uvec4 words[CARRIED_VEC4S] = carried_in[i];
        add_pushed(words);
        carried = words;
#endif
        EmitVertex();
    }
    EndPrimitive();
}
