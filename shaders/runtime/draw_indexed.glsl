// The vertex shader body of the indexed draw tests (multi_draw.ron, scene.ron): no vertex
// buffers; the index value decides everything. Index `3·tag + corner` (plus the draw's
// vertexOffset, which gl_VertexIndex includes) is corner `corner` of a covering triangle tagged
// `tag`. So a misread index buffer address, size or index type, or a wrong firstIndex or
// vertexOffset, changes the tags summed; instanceCount and firstInstance show in the instance
// sum. The includer declares `push` with `slot` (and `extra` when it pushes two words), or
// takes the slot from gl_InstanceIndex (`draw_instanced.vert`).
//
// With VERTEX_INPUT defined (a layout with a VERTEX_BUFFER token, `draw_*_vertices.vert`), each
// vertex also reads one uint from the vertex buffer the sequence bound, which w sums: the rig
// gives every sequence its own buffer, stride and values, so an ignored or misread binding
// (address, stride) changes w. Flat shading keeps the first vertex's value of each triangle.
//
// With VERTEX_INPUTS defined (a layout with two to sixteen VERTEX_BUFFER tokens,
// `draw_*_bindings.vert`), input i of BINDING_INPUTS reads one uint from the binding of the
// layout's i-th VERTEX_BUFFER token and w sums it times WEIGHT_i, a specialization constant
// (constant_id 10 + i): 1, 3, 5, … 31, all different, so that two tokens whose buffers changed
// places change w too (BINDING_WEIGHTS in crates/cli/src/layout_check/rig.rs says why no sum
// can hide it); 0 for an input the layout has no token for, which the rig feeds from its first
// binding. Sixteen inputs, Vulkan's guaranteed maxVertexInputAttributes, so one shader serves
// every count.
#include "draw_tally.glsl"

layout(location = 0) flat out uvec4 tally;

#ifdef VERTEX_INPUT
layout(location = 0) in uint vertex_value;
#endif

#ifdef VERTEX_INPUTS
const uint BINDING_INPUTS = 16u;
layout(constant_id = 10) const uint WEIGHT_0 = 1u;
layout(constant_id = 11) const uint WEIGHT_1 = 3u;
layout(constant_id = 12) const uint WEIGHT_2 = 5u;
layout(constant_id = 13) const uint WEIGHT_3 = 7u;
layout(constant_id = 14) const uint WEIGHT_4 = 9u;
layout(constant_id = 15) const uint WEIGHT_5 = 11u;
layout(constant_id = 16) const uint WEIGHT_6 = 13u;
layout(constant_id = 17) const uint WEIGHT_7 = 15u;
layout(constant_id = 18) const uint WEIGHT_8 = 17u;
layout(constant_id = 19) const uint WEIGHT_9 = 19u;
layout(constant_id = 20) const uint WEIGHT_10 = 21u;
layout(constant_id = 21) const uint WEIGHT_11 = 23u;
layout(constant_id = 22) const uint WEIGHT_12 = 25u;
layout(constant_id = 23) const uint WEIGHT_13 = 27u;
layout(constant_id = 24) const uint WEIGHT_14 = 29u;
layout(constant_id = 25) const uint WEIGHT_15 = 31u;
layout(location = 0) in uint vertex_values[BINDING_INPUTS];
#endif

void tally_vertex(uint slot, uint extra) {
    uint v = uint(gl_VertexIndex);
    gl_Position = covering_corner(v % 3u);
#ifdef VERTEX_INPUT
    extra += vertex_value;
#endif
#ifdef VERTEX_INPUTS
    uint weights[BINDING_INPUTS] = uint[](WEIGHT_0, WEIGHT_1, WEIGHT_2, WEIGHT_3, WEIGHT_4, WEIGHT_5, WEIGHT_6,
        WEIGHT_7, WEIGHT_8, WEIGHT_9, WEIGHT_10, WEIGHT_11, WEIGHT_12, WEIGHT_13, WEIGHT_14, WEIGHT_15);
    for (uint i = 0u; i < BINDING_INPUTS; ++i) {
        extra += weights[i] * vertex_values[i];
    }
#endif
    tally = uvec4(slot, v / 3u, uint(gl_InstanceIndex), extra);
}
