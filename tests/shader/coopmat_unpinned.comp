#version 450
// A subgroup-scope matrix in a kernel without a required subgroup size (W0507 at line 11), and
// a 32×32 A tile that no target lists (E0584 at line 11 on the device file and lavapipe).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { float16_t a[1024]; };

void main() {
    coopmat<float16_t, gl_ScopeSubgroup, 32, 32, gl_MatrixUseA> ma;
    coopMatLoad(ma, a, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(ma, a, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
}
