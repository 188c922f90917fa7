// Shared by the draw-execution test shaders (tests/runtime_examples.rs): how a fragment is
// tallied, and the full-viewport triangle every draw covers its 1×1 target with.
//
// Every triangle the tests draw covers the single pixel exactly once, so each triangle instance
// (or mesh primitive) that really ran adds exactly one fragment. What it carries to the fragment
// shader, `flat uvec4 tally`, says which sequence it belongs to (x, taken from the sequence's
// pushed data, so a sequence that got the wrong push lands in the wrong slot; without pushed
// data, from gl_InstanceIndex, which counts from the draw's firstInstance, or for a count layout
// alone from gl_DrawID) and three values summed per slot (y, z, w) that depend on the token data
// the draw was issued with.

// Slots per tally array; the test's pushed slot numbers stay below it.
const uint TALLY_SLOTS = 16u;

// The counter buffer: [0] fragments whose slot was out of range, then four arrays of
// TALLY_SLOTS: fragments, sum of y, sum of z, sum of w.
const uint TALLY_WORDS = 1u + 4u * TALLY_SLOTS;

// Corner `c` (0, 1, 2) of a triangle that covers the whole viewport.
vec4 covering_corner(uint c) {
    vec2 p = c == 0u ? vec2(-1.0, -1.0) : (c == 1u ? vec2(3.0, -1.0) : vec2(-1.0, 3.0));
    return vec4(p, 0.0, 1.0);
}
