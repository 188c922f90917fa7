#version 460
// Tallies every fragment of the draw-execution tests (see draw_tally.glsl) with atomics.
#extension GL_GOOGLE_include_directive : require
#include "draw_tally_fragment.glsl"
