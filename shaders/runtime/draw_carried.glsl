// The pushed words a draw tally carries from its vertex shader to its fragment shader, through
// any tessellation and geometry shaders (`dgcc run --layout`; draw_words.rs and between.rs in
// crates/cli/src/layout_check/ say why): flat uvec4s from location 1 (location 0 is the
// tally), CARRIED_VEC4S of them. With the tally that is 15 locations, 60 components: inside the
// 64 every device has (maxVertexOutputComponents, the tessellation and geometry stages' input
// and output components, and maxFragmentInputComponents are at least 64). Word j is component
// j % 4 of vector j / 4.
const uint CARRIED_VEC4S = 14u;
