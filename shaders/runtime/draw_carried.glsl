// The pushed words a draw tally carries from its vertex shader to its fragment shader, through
// any tessellation and geometry shaders (`dgcc run --layout`; draw_words.rs and between.rs in
// crates/cli/src/layout_check/ say why): flat uvec4s from location 1 (location 0 is the
// tally), CARRIED_VEC4S of them. With the tally that is 14 locations, 56 components, and the
// validation layer counts a stage's built-in components beside them against the same limit
// (glslang declares gl_PerVertex whole: a position, a point size, a clip and a cull distance,
// 7 components): 63, inside the 64 every device has (maxVertexOutputComponents, the
// tessellation and geometry stages' input and output components, and
// maxFragmentInputComponents are at least 64; with 15 locations lavapipe's layer refused the
// geometry stage's 60 + 7). Word j is component j % 4 of vector j / 4.
const uint CARRIED_VEC4S = 13u;
