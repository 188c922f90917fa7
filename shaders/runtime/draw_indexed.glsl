// The vertex shader body of the indexed draw tests (multi_draw.ron, scene.ron): no vertex
// buffers; the index value decides everything. Index `3·tag + corner` (plus the draw's
// vertexOffset, which gl_VertexIndex includes) is corner `corner` of a covering triangle tagged
// `tag`. So a misread index buffer address, size or index type, or a wrong firstIndex or
// vertexOffset, changes the tags summed; instanceCount and firstInstance show in the instance
// sum. The includer declares `push` with `slot` (and `extra` when it pushes two words).
#include "draw_tally.glsl"

layout(location = 0) flat out uvec4 tally;

void tally_vertex(uint slot, uint extra) {
    uint v = uint(gl_VertexIndex);
    gl_Position = covering_corner(v % 3u);
    tally = uvec4(slot, v / 3u, uint(gl_InstanceIndex), extra);
}
