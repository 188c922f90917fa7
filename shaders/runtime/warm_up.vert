#version 460
// The warm-up pipeline's vertex shader (crates/runtime/src/warm_up.rs). What matters is that
// it reads gl_InstanceIndex (on NVIDIA's driver, binding a pipeline that reads the draw's
// base instance takes per-draw push constants off their slow path) and no push constant;
// the pipeline discards what it would rasterize and is never drawn with.
layout(location = 0) flat out uint instance;

void main() {
    instance = uint(gl_InstanceIndex);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
