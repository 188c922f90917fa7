#version 460
// A draw layout whose pushed words (any PUSH_CONSTANT and SEQUENCE_INDEX tokens, at any
// offset) are read back: see draw_pushed.glsl.
#extension GL_GOOGLE_include_directive : require
#include "draw_pushed.glsl"
