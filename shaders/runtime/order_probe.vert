#version 460
// The order-effect reproducer's vertex shader (crates/runtime/examples/order_probe/): each
// draw is one cube of 36 indices into 8 corners, placed on a grid by its object id. Constant 0
// says where the id comes from, as in the scene's draws: 0 a push constant (dgcc's
// PUSH_CONSTANT token, the CPU loop's vkCmdPushConstants), 1 gl_InstanceIndex (firstInstance),
// 2 gl_DrawID (a multi-draw). Constant 1 reads the cube's place from a storage buffer indexed
// by the id, as the scene reads its objects; 0 computes it from the id.
layout(constant_id = 0) const uint SOURCE = 0u;
layout(constant_id = 1) const bool READ_BUFFER = true;

layout(push_constant) uniform Push { uint object_id; } pc;
layout(std430, set = 0, binding = 0) readonly buffer Places { vec4 places[]; };

layout(location = 0) flat out uint object;

void main() {
    uint id = SOURCE == 0u ? pc.object_id : (SOURCE == 1u ? uint(gl_InstanceIndex) : uint(gl_DrawID));
    vec4 place;
    if (READ_BUFFER) {
        place = places[id];
    } else {
        // The same grid as the buffer the program fills: 1024 columns.
        place = vec4(-1.0 + 2.0 * float(id % 1024u) / 1024.0, -1.0 + 2.0 * float((id / 1024u) % 1024u) / 1024.0,
                     0.5, 1.0 / 1024.0);
    }
    uint v = uint(gl_VertexIndex);
    vec3 corner = vec3(float(v & 1u), float((v >> 1) & 1u), float((v >> 2) & 1u));
    gl_Position = vec4(place.xy + corner.xy * place.w, place.z + 0.25 * corner.z * place.w, 1.0);
    object = id;
}
