#version 460
// The draw tally's tessellation evaluation stage (see draw_tally.tesc): levels of 1 make each
// patch one triangle with the patch's own corners, and every vertex of it hands on the first
// control point's tally and carried words, which are those of all three (see
// draw_between.glsl; build.sh compiles it plain, with CARRIED_WORDS and with PUSHED_WORDS).
#extension GL_GOOGLE_include_directive : require
#include "draw_between.glsl"

layout(triangles, equal_spacing, ccw) in;

layout(location = 0) flat in uvec4 tally_in[];
layout(location = 0) flat out uvec4 tally;
#ifdef CARRIED_WORDS
layout(location = 1) flat in uvec4 carried_in[][CARRIED_VEC4S];
layout(location = 1) flat out uvec4 carried[CARRIED_VEC4S];
#endif

void main() {
    vec3 c = gl_TessCoord;
    gl_Position = c.x * gl_in[0].gl_Position + c.y * gl_in[1].gl_Position + c.z * gl_in[2].gl_Position;
    tally = tally_in[0];
#ifdef CARRIED_WORDS
    uvec4 words[CARRIED_VEC4S] = carried_in[0];
    add_pushed(words);
    carried = words;
#endif
}
