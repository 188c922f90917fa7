#version 460
// draw_tally.frag that also keeps the pushed words the vertex shader carried, per slot (see
// draw_tally_fragment.glsl).
#extension GL_GOOGLE_include_directive : require
#define CARRIED_WORDS
#include "draw_tally_fragment.glsl"
