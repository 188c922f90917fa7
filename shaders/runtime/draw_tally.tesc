#version 460
// The draw tally's tessellation control stage (`dgcc run --layout`, a layout whose stages
// include TessControl or TessEval): each triangle is a patch of its 3 vertices, every level 1,
// so the evaluation stage (draw_tally.tese) makes it one triangle again and each triangle
// instance is still one fragment. Each vertex's tally and carried words are handed on (see
// draw_between.glsl; build.sh compiles it plain, with CARRIED_WORDS and with PUSHED_WORDS).
#extension GL_GOOGLE_include_directive : require
#include "draw_between.glsl"

layout(vertices = 3) out;

layout(location = 0) flat in uvec4 tally_in[];
layout(location = 0) flat out uvec4 tally_out[];
#ifdef CARRIED_WORDS
layout(location = 1) flat in uvec4 carried_in[][CARRIED_VEC4S];
layout(location = 1) flat out uvec4 carried_out[][CARRIED_VEC4S];
#endif

void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    tally_out[gl_InvocationID] = tally_in[gl_InvocationID];
#ifdef CARRIED_WORDS
    uvec4 words[CARRIED_VEC4S] = carried_in[gl_InvocationID];
    add_pushed(words);
    carried_out[gl_InvocationID] = words;
#endif
    if (gl_InvocationID == 0) {
        gl_TessLevelOuter[0] = 1.0;
        gl_TessLevelOuter[1] = 1.0;
        gl_TessLevelOuter[2] = 1.0;
        gl_TessLevelInner[0] = 1.0;
    }
}
