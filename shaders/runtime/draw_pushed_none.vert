#version 460
// draw_pushed.vert for a layout that pushes to the fragment stage alone: no push block, the
// carried words zero (draw_tally_pushed.frag reads the pushed words itself).
#extension GL_GOOGLE_include_directive : require
#define NOTHING_PUSHED
#include "draw_pushed.glsl"
