//! Rules of the checks on the draw and dispatch shaders a description names (`shaders:`): what
//! the shaders that *read* a layout declare, held against the tokens that write it.
//!
//! Why their own table: the kernels' rules (`shader`) are about the program that writes a
//! stream; these are about the programs the device runs from it, whose push-constant blocks and
//! vertex inputs must agree with the tokens. E0587–E0588 and W0511 report a shader dgcc could
//! not read; E0585, E0586, W0508, W0509, W0512, N0501 and N0502 need it compiled and reflected (feature
//! `shaderc`); W0510 needs only the description and runs in every build.

use super::Rule;
use crate::severity::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0585",
        vuid: None,
        severity: Error,
        title: "a shader's push-constant member is not where the token writes its field",
        explanation: "A PUSH_CONSTANT token writes its fields at the token's `offset` into \
push-constant space plus each field's offset, and a SEQUENCE_INDEX token writes 4 bytes at its \
`offset`. A shader reads its `layout(push_constant)` block at the offsets glslang gives its \
members. When a member overlaps a field but does not start and end where the field does, or \
reads a float where the token writes an integer (or the other way round), the shader reads \
parts of two values or reinterprets their bits: no validation error, wrong draws.\n\n\
```glsl\nlayout(push_constant) uniform Push {\n    uint material_id;   // at byte 0; the token \
writes object_id there, material_id at 4\n} pc;\n```\n\nThe diagnostic points at the member in \
the shader file and names the token's field and its bytes. Fix: declare the block as the \
tokens lay it out (`layout(offset = N)` on a member moves it), or `#define <L>_READER` and \
include the generated GLSL, which declares the block as the tokens write it.",
    },
    Rule {
        code: "E0586",
        vuid: Some("VUID-VkGraphicsPipelineCreateInfo-layout-10069"),
        severity: Error,
        title: "a shader's push-constant block is outside the pipeline's range for its stage",
        explanation: "A pipeline can be created only if each shader's push-constant block lies \
inside the pipeline layout's push-constant range that includes the shader's stage \
(`VUID-VkGraphicsPipelineCreateInfo-layout-07987`, `-10069`, and the same pair for compute \
pipelines). The description's `push_constants` are that pipeline layout, so a block that \
reaches past them, or a stage that no range includes, is a pipeline that cannot be created \
with the layout the indirect commands are created with.\n\n```ron,ignore\npush_constants: \
[(stages: [Vertex], offset: 0, size: 8)],\n// the fragment shader declares a block: no range \
includes Fragment\n```\n\nFix: grow the range, add the stage to it, or shrink the block.",
    },
    Rule {
        code: "E0587",
        vuid: None,
        severity: Error,
        title: "a shader's source file cannot be read",
        explanation: "A shader's `source` is a path relative to the description file: GLSL \
(compiled by dgcc, the stage from the description) or SPIR-V (a file ending in `.spv`, read \
as it is). dgcc could not read it, or a `.spv` file is not a SPIR-V module (no magic number, \
a length that is not whole words), so none of the checks on that shader ran.\n\nFix: correct \
the path (relative to the description, not to the working directory), or write the file.",
    },
    Rule {
        code: "E0588",
        vuid: None,
        severity: Error,
        title: "a shader does not compile, or has no entry point of its stage",
        explanation: "dgcc compiles each GLSL shader with shaderc (for Vulkan 1.2, SPIR-V 1.3; 1.4 for task, \
mesh and ray-tracing stages) as \
the stage the description names, and the compiler reported errors; the diagnostic points at \
the first error's line in the shader and the notes carry every message. For a SPIR-V file, the \
module has no `main` entry point of the stage the description names. A shader that does not \
build for its stage is not the shader the pipeline runs.\n\nFix: the errors the notes name, or \
the `stage` of the entry.",
    },
    Rule {
        code: "W0508",
        vuid: Some("VUID-vkCmdExecuteGeneratedCommandsEXT-maintenance4-08602"),
        severity: Warning,
        title: "a shader reads push-constant bytes that no token of the layout writes",
        explanation: "A shader that statically uses a push-constant member reads whatever was \
last pushed there. Bytes a token writes are fresh for every sequence; bytes no token writes are \
the application's to push with `vkCmdPushConstants` before `vkCmdExecuteGeneratedCommandsEXT` \
(without `maintenance4` the draw is invalid if they were never pushed, \
`VUID-vkCmdExecuteGeneratedCommandsEXT-maintenance4-08602`; with it they are undefined). That \
is legal and sometimes meant (a per-frame value shared by every sequence), so this is a \
warning: it is also the mark of a token that was dropped or moved.\n\nFix: add a field to a \
token for the member, or push those bytes before executing. Where the read is meant for one \
layout (its pipelines never reach it, or push the bytes themselves), allow the code in that \
layout's own `lints` rather than the pipeline's, so that it still marks the others.",
    },
    Rule {
        code: "W0509",
        vuid: Some("VUID-VkIndirectCommandsVertexBufferTokenEXT-vertexBindingUnit-11134"),
        severity: Warning,
        title: "a VERTEX_BUFFER token binds a binding the vertex shader does not read",
        explanation: "A VERTEX_BUFFER token's `binding` (`vertexBindingUnit`) must be a vertex \
input binding the bound graphics state uses \
(`VUID-VkIndirectCommandsVertexBufferTokenEXT-vertexBindingUnit-11134`, which the validation \
layers cannot check). The vertex shader's inputs say which bindings are read: each \
`layout(location = N) in` reads the binding the description's `attributes` map location N to \
(`VkVertexInputAttributeDescription`). A token for a binding no input reads binds a buffer \
nothing reads, past the bindings in use when the pipeline has none there; a vertex shader with \
no inputs at all reads no binding. Usually the token and the attributes disagree about the \
binding number.\n\n```ron,ignore\nshaders: [(stage: Vertex, source: \"draw.vert\", attributes: \
[(location: 0, binding: 0)])],\n// … VertexBuffer(binding: 1): no attribute reads binding 1\n```\n\n\
Fix: bind the binding the attributes read, or drop the token. Without `attributes` only a \
shader with no inputs is checked.",
    },
    Rule {
        code: "W0510",
        vuid: None,
        severity: Warning,
        title: "a push-constant token names a stage the pipeline's shaders do not have",
        explanation: "When a description names its pipeline's shaders, a PUSH_CONSTANT or \
SEQUENCE_INDEX token whose `stages` include a stage none of those shaders has pushes to a \
stage that does not run: the spec ignores a token's stages and writes the bytes anyway, so \
the mistake shows only as a shader of another stage reading values it does not expect. The \
validation layers do not report it (Vulkan-ValidationLayers issue 12290). dgcc checks a layout \
only when the description names a shader of one of its stages.\n\n```ron,ignore\nshaders: \
[(stage: Vertex, source: \"draw.vert\")],\n// … PushConstant(stages: [Fragment], …): no \
fragment shader\n```\n\nFix: give the token the stage of the shader that reads it, or name the \
missing shader.",
    },
    Rule {
        code: "W0511",
        vuid: None,
        severity: Warning,
        title: "dgcc could not reflect a shader's SPIR-V",
        explanation: "The shader compiled (or the `.spv` file is SPIR-V), but naga's SPIR-V \
reader rejected the module, so its push-constant block and vertex inputs were not compared \
with the layouts. The shader may be correct; dgcc just cannot tell. The note names what naga \
stopped at.\n\nSpecialization constants are frozen to their defaults before naga reads the \
module, and an `OpSpecConstantOp` (an expression of them, which naga does not read) is evaluated \
at those defaults; where that is not possible (`QuantizeToF16`, a division by zero, a shift past \
the width) the note says that the specialization constants could not be frozen and names the \
opcode.",
    },
    Rule {
        code: "W0512",
        vuid: None,
        severity: Warning,
        title:
            "a draw layout's vertex shader reads gl_InstanceIndex, which NVIDIA's driver makes slow under an execute",
        explanation: "On an NVIDIA target, a vertex shader that reads `gl_InstanceIndex` (SPIR-V \
`BuiltIn InstanceIndex`) costs every draw of an execute more than the same shader reading a \
push constant, though multi-draw pays nothing for it. Measured on an H100 with driver \
580.159.04 (book: `measured/h100-instance-index.md`), one million cubes, one sequence per \
cube, each draw's object id in its `firstInstance`: the execute took 17.5 ms where the vertex \
shader read the id from `gl_InstanceIndex` and the layout had no PUSH_CONSTANT token, 20.6 ms \
where it read `gl_InstanceIndex` under a layout with one, and 15.4 ms where it read the id from \
the PUSH_CONSTANT token (with `firstInstance` the same), so 2.2 to 5.2 ns more per draw. \
`vkCmdDrawIndexedIndirectCount` over the same records with the same `gl_InstanceIndex` shader \
took 15.0 ms. Per-draw data through `firstInstance` is the usual way to feed multi-draw, so \
this is the form a port from multi-draw brings along.\n\nThe warning is for layouts whose \
action is DRAW or DRAW_INDEXED, where a PUSH_CONSTANT or SEQUENCE_INDEX token can carry the \
value instead. A `*Count` token's draws cannot take a push constant each: at one million draws \
under one DRAW_INDEXED_COUNT sequence, 17.3 ms reading `gl_InstanceIndex` and 18.1 ms reading \
`gl_DrawID`, against 15.0 and 15.5 ms under multi-draw. Where the value and the meshes fit a \
32-bit vertex index, they can carry it in `vertexOffset` instead and take it back from \
`gl_VertexIndex` (vertex pulling), which costs nothing more: 15.1 ms, as multi-draw \
(`measured/h100-vertex-offset.md`, the embedding chapter says how). Whether it fits depends on \
the meshes and the value's range, which a description does not state, so W0512 is not said \
for count tokens; the note N0502 is. \
It is said once per layout of one draw per sequence and shader, naming the NVIDIA targets. \
Like the push-constant checks, it reads the shader as compiled, with no specialization: a read \
under a specialization constant that turns it off still counts.\n\n```ron,ignore\n\
targets: [\"nvidia\"],\n// … tokens: [IndexBuffer(mode: Vulkan), DrawIndexed]\n\
// draw.vert: Object obj = objects[gl_InstanceIndex];\n```\n\nFix: give the layout a \
PUSH_CONSTANT token with the value (or a SEQUENCE_INDEX token and index the data by it) and \
read that. Where the shader reads `gl_InstanceIndex` for instancing (draws of several \
instances) or only under a specialization the layout never runs with, allow it in that \
layout's `lints`.",
    },
    Rule {
        code: "N0501",
        vuid: None,
        severity: Note,
        title: "the vertex shader reads a binding that no VERTEX_BUFFER token binds",
        explanation: "In a layout with VERTEX_BUFFER tokens, the vertex shader reads a binding \
(through an input whose location the description's `attributes` map to it) that no token of \
the layout binds. That binding keeps the buffer the application bound before executing \
(`vkCmdBindVertexBuffers2`), the same for every sequence, and the draw commands require one to \
be bound for every binding the shader reads. That is often meant (per-sequence positions \
beside a shared buffer), so this is a note: it says which binding the application must bind.\n\n\
Fix, if it was not meant: add a `VertexBuffer(binding: N)` token.",
    },
    Rule {
        code: "N0502",
        vuid: None,
        severity: Note,
        title: "a count token's vertex shader reads gl_DrawID or gl_InstanceIndex, which NVIDIA's driver makes slow under an execute",
        explanation: "On an NVIDIA target, the draws of a DRAW_COUNT or DRAW_INDEXED_COUNT \
token whose vertex shader reads `gl_DrawID` or `gl_InstanceIndex` (SPIR-V `BuiltIn DrawIndex` \
or `InstanceIndex`) each cost more under an execute than the same draws that read no such \
built-in. Measured on an H100 with driver 580.159.04 (book: `measured/h100-vertex-offset.md`), \
one million cubes under one DRAW_INDEXED_COUNT sequence, each draw's object id read by the \
vertex shader: the execute took 18.0–18.1 ms through `gl_DrawID`, 17.2 ms through \
`gl_InstanceIndex` (the id in `firstInstance`) and 15.1 ms with the id in each draw's \
`vertexOffset`, read back from `gl_VertexIndex`, which is what multi-draw took with that \
shader: about 3.0 and 2.2 ns a draw.\n\n\
A count token's draws cannot take a push constant each (W0512's remedy for a draw per \
sequence), but they can carry a value in `vertexOffset`, which `gl_VertexIndex` includes, where \
the vertex shader fetches its vertices from a buffer by `gl_VertexIndex` (vertex pulling): \
write `vertexOffset = mesh offset + (value << shift)`, with `2^shift` vertices covering every \
mesh the draws use from their lowest vertex `base`, and take `gl_VertexIndex - base` apart in \
the shader: shifted right by `shift` it is the value, and `base` plus its low `shift` bits is \
the mesh vertex. That fits while the largest value times `2^shift`, plus `base`, stays below \
2^31, and a fixed-function vertex fetch (vertex input bindings) would read at the raised \
offset. A description states neither, so this is a note, said once per count-token layout \
and shader, naming the NVIDIA targets. `dgcc run --object-id vertex` draws the demo scene this \
way. Like W0512, it reads the shader as compiled, with no specialization.\n\n```ron,ignore\n\
targets: [\"nvidia\"],\n// … tokens: [DrawIndexedCount]\n\
// draw.vert: uint object = records[gl_DrawID].object;\n```\n\nFix: carry the value in \
`vertexOffset` as above, where it fits. Where it does not, `gl_InstanceIndex` (the value in \
`firstInstance`) is the cheaper of the two built-ins; there, and where the read is for \
instancing (draws of several instances), allow N0502 in the layout's `lints`.",
    },
];
