#version 460
// Deliberately broken (E0583, with the `shaderc` feature): a hand-written copy of the stream
// record from before the description gave the `object` token a `scale` field. The kernel writes
// the draw arguments at byte 4; the device reads them from byte 28.
layout(local_size_x = 64) in;

struct DrawsRecord {
    uint id;
    uint draw_index_count;
    uint draw_instance_count;
    uint draw_first_index;
    int draw_vertex_offset;
    uint draw_first_instance;
};

layout(std430, set = 0, binding = 0) writeonly buffer Stream {
    DrawsRecord records[];
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    records[i].id = i;
    records[i].draw_index_count = 36u;
    records[i].draw_instance_count = 1u;
    records[i].draw_first_index = 0u;
    records[i].draw_vertex_offset = 0;
    records[i].draw_first_instance = 0u;
}
