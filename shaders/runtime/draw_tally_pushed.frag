#version 460
// draw_tally_carried.frag with a push block of its own over the layout's fragment-stage bytes
// (see draw_tally_fragment.glsl).
#extension GL_GOOGLE_include_directive : require
#define CARRIED_WORDS
#define FRAGMENT_PUSH
#include "draw_tally_fragment.glsl"
