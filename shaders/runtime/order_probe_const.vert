#version 460
// A warm-up shape of the order-effect reproducer (crates/runtime/examples/order_probe/)
// that does not work: a vertex shader that writes a constant and reads nothing.
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
