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
#include "draw_tally.glsl"

layout(location = 0) flat out uvec4 tally;

#ifdef VERTEX_INPUT
layout(location = 0) in uint vertex_value;
#endif

void tally_vertex(uint slot, uint extra) {
    uint v = uint(gl_VertexIndex);
    gl_Position = covering_corner(v % 3u);
#ifdef VERTEX_INPUT
    extra += vertex_value;
#endif
    tally = uvec4(slot, v / 3u, uint(gl_InstanceIndex), extra);
}
