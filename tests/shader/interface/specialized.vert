#version 460
// Specialization constants in expressions of every kind glslang writes as OpSpecConstantOp:
// integer arithmetic, signed shifts, comparisons, a bool's conversion, a 64-bit constant.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(constant_id = 0) const uint MATERIAL = 5u;
layout(constant_id = 1) const int OFFSET = -3;
layout(constant_id = 2) const bool SWAY = false;
layout(constant_id = 3) const uint64_t SEED = 0x123456789ul;

const uint KIND = MATERIAL % 4u;
const uint LEVEL = MATERIAL / 4u;
const int HALF = OFFSET >> 1;
const uint STEPS = 4u * (LEVEL + 1u) + uint(SWAY);
const uint SEED_HIGH = uint(SEED >> 32);

layout(push_constant) uniform Push {
    uint object_id;
    uint material;
} pc;

void main() {
    float s = 0.0;
    for (uint k = 0u; k < STEPS; k++) {
        s += float(k ^ SEED_HIGH);
    }
    uint m = KIND != 2u ? pc.material : uint(int(pc.material) + HALF);
    gl_Position = vec4(float(pc.object_id + m), s, 0.0, 1.0);
}
