#version 460
// draw_pushed_none.vert for a layout with a VERTEX_BUFFER token (see draw_indexed.glsl).
#extension GL_GOOGLE_include_directive : require
#define NOTHING_PUSHED
#define VERTEX_INPUT
#include "draw_pushed.glsl"
