#version 460
// draw_pushed.vert for a layout with two to sixteen VERTEX_BUFFER tokens (see draw_indexed.glsl).
#extension GL_GOOGLE_include_directive : require
#define VERTEX_INPUTS
#include "draw_pushed.glsl"
