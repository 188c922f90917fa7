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
// With VERTEX_INPUTS defined (a layout with two to four VERTEX_BUFFER tokens,
// `draw_*_bindings.vert`), input i reads one uint from the binding of the layout's i-th
// VERTEX_BUFFER token and w sums it times WEIGHT_i, a specialization constant: 1, 3, 5, 7, so
// that two tokens whose buffers changed places change w too; 0 for an input the layout has no
// token for, which the rig feeds from its first binding.
#include "draw_tally.glsl"

layout(location = 0) flat out uvec4 tally;

#ifdef VERTEX_INPUT
layout(location = 0) in uint vertex_value;
#endif

#ifdef VERTEX_INPUTS
layout(constant_id = 10) const uint WEIGHT_0 = 1u;
layout(constant_id = 11) const uint WEIGHT_1 = 3u;
layout(constant_id = 12) const uint WEIGHT_2 = 5u;
layout(constant_id = 13) const uint WEIGHT_3 = 7u;
layout(location = 0) in uint vertex_value_0;
layout(location = 1) in uint vertex_value_1;
layout(location = 2) in uint vertex_value_2;
layout(location = 3) in uint vertex_value_3;
#endif

void tally_vertex(uint slot, uint extra) {
    uint v = uint(gl_VertexIndex);
    gl_Position = covering_corner(v % 3u);
#ifdef VERTEX_INPUT
    extra += vertex_value;
#endif
#ifdef VERTEX_INPUTS
    extra += WEIGHT_0 * vertex_value_0 + WEIGHT_1 * vertex_value_1 + WEIGHT_2 * vertex_value_2 + WEIGHT_3 * vertex_value_3;
#endif
    tally = uvec4(slot, v / 3u, uint(gl_InstanceIndex), extra);
}
