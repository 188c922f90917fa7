#version 460
// draw_pushed.vert for a layout with a VERTEX_BUFFER token (see draw_indexed.glsl).
#extension GL_GOOGLE_include_directive : require
#define VERTEX_INPUT
#include "draw_pushed.glsl"
