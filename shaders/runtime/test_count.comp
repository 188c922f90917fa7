#version 460
// Test kernel for any dispatch layout: adds `increment` per invocation, whatever the sequence
// pushed, so a test can tell which pipeline of an execution set ran and how often.
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint increment = 1u;
layout(set = 0, binding = 0) buffer Invocations { uint count; } invocations;
void main() {
    atomicAdd(invocations.count, increment);
}
