#version 460
// The compute-shader copy of `dgcc bench`'s bandwidth probe: 16 bytes per invocation per
// step, consecutive invocations on consecutive addresses, a grid-stride loop so any buffer size
// fits the dispatch limit. Some drivers move far fewer bytes with vkCmdCopyBuffer than the
// memory can (about 850 GB/s read+write on an H200), so the bench measures both and compares
// the culling passes against the better one.
layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Source { uvec4 src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Destination { uvec4 dst[]; };

layout(push_constant) uniform Size { uint count; } pc; // in 16-byte elements

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) {
        dst[i] = src[i];
    }
}
