#version 460
// draw_pushed.vert under the runtime's multi-draw fallback (`dgcc run --layout`): the fallback
// pushes nothing per draw, so each word is read from the draw's record in the stream,
// `records[gl_DrawID]`, as the generated GLSL reader does, and a SEQUENCE_INDEX word is
// gl_DrawID itself (the reader's record index). Where each carried word comes from is a table
// the rig writes (`sources`): a word of the record, FROM_DRAW_ID, or NOWHERE (a word no token
// pushes, carried as zero and never read). The tally slot is gl_InstanceIndex / 16, as under
// device-generated commands.
#extension GL_GOOGLE_include_directive : require
#include "draw_indexed.glsl"
#include "draw_carried.glsl"

layout(constant_id = 0) const uint STRIDE_WORDS = 1u;
// How many words are carried (at most CARRIED_VEC4S * 4).
layout(constant_id = 1) const uint CARRIED = 0u;
const uint FROM_DRAW_ID = 0xffffffffu;
const uint NOWHERE = 0xfffffffeu;

layout(location = 1) flat out uvec4 carried[CARRIED_VEC4S];
layout(std430, set = 0, binding = 1) readonly buffer Records { uint words[]; } records;
layout(std430, set = 0, binding = 2) readonly buffer Sources { uint word[]; } sources;

void main() {
    tally_vertex(uint(gl_InstanceIndex) / 16u, 0u);
    for (uint i = 0u; i < CARRIED_VEC4S; ++i) {
        carried[i] = uvec4(0u);
    }
    uint base = uint(gl_DrawID) * STRIDE_WORDS;
    for (uint j = 0u; j < CARRIED; ++j) {
        uint source = sources.word[j];
        uint value = source == FROM_DRAW_ID ? uint(gl_DrawID) : (source == NOWHERE ? 0u : records.words[base + source]);
        carried[j / 4u][j % 4u] = value;
    }
}
