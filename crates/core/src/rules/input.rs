//! Rules of the front ends and of loading (E00xx input and syntax, E002x profiles).

use super::Rule;
use crate::severity::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0001",
        vuid: None,
        severity: Error,
        title: "syntax error",
        explanation: "The description could not be parsed. The message says what was expected \
where; the label points at the first character that did not fit.",
    },
    Rule {
        code: "E0002",
        vuid: None,
        severity: Error,
        title: "unknown field or setting",
        explanation: "A RON struct has a field dgcc does not know, or a `.dgc` block has a setting \
it does not know. dgcc never ignores a field: a misspelt optional field (`strid: Some(48)`) would \
otherwise silently take its default.\n\n```ron\n(name: \"SceneDraw\", stages: [Vertex], \
max_sequences: 1024, strid: Some(48), tokens: [Draw])\n//                                                  ^^^^^ unknown field\n```\n\n\
Fix: correct the spelling (the message suggests the closest known name), or remove the field. \
Token parameters belong to their token: `Draw(mode: Vulkan)` is unknown because only \
`IndexBuffer` takes a `mode`.",
    },
    Rule {
        code: "E0003",
        vuid: None,
        severity: Error,
        title: "a required field or setting is missing",
        explanation: "Some values have no sensible default and must be written: the pipeline's \
`name` and `layouts`; each layout's `name`, `stages`, `max_sequences` and `tokens`; each kernel's \
`name`, `source` and `local_size`; each push-constant range's `stages`, `offset` and `size`; and \
the parameters of the token kinds that take any (`IndexBuffer(mode: …)`, `VertexBuffer(binding: \
…)`, …). The label points at the struct or item that lacks the value.\n\nIn `.dgc`, a layout \
needs a `max_sequences N;` setting.",
    },
    Rule {
        code: "E0004",
        vuid: None,
        severity: Error,
        title: "a field or setting is given twice",
        explanation: "The same field appears twice in one RON struct, or the same setting twice \
in one `.dgc` block (`stride 48;` … `stride 64;`). dgcc does not guess which one you meant.\n\n\
Fix: keep one of them; the secondary label shows the first.",
    },
    Rule {
        code: "E0005",
        vuid: None,
        severity: Error,
        title: "unknown token kind",
        explanation: "A token of a layout names a kind that is not one of \
`VkIndirectCommandsTokenTypeEXT`: in RON `ExecutionSet`, `PushConstant`, `SequenceIndex`, \
`IndexBuffer`, `VertexBuffer`, `Draw`, `DrawIndexed`, `DrawCount`, `DrawIndexedCount`, `Dispatch`, \
`DrawMeshTasks`, `DrawMeshTasksCount`, `DrawMeshTasksNv`, `DrawMeshTasksCountNv`, `TraceRays2`; \
in `.dgc` the same names in snake_case (`draw_indexed`).\n\nThe message suggests the closest \
kind when the name looks like a typo (`Dispach` → `Dispatch`).",
    },
    Rule {
        code: "E0006",
        vuid: None,
        severity: Error,
        title: "unknown shader stage",
        explanation: "A stage list names a stage dgcc does not know. Stages are `Vertex`, \
`TessControl`, `TessEval`, `Geometry`, `Fragment`, `Compute`, `Task`, `Mesh`, `RayGen`, `AnyHit`, \
`ClosestHit`, `Miss`, `Intersection`, `Callable` in RON and `vertex`, `tess_control`, … \
`ray_gen`, `any_hit`, … in `.dgc`.",
    },
    Rule {
        code: "E0007",
        vuid: None,
        severity: Error,
        title: "unknown field type",
        explanation: "A push-constant field has a type dgcc cannot lay out. Types are `U32`, \
`I32`, `F32`, `U64`, `Address` (a `VkDeviceAddress`), `Vec2`–`Vec4`, `UVec2`–`UVec4`, \
`IVec2`–`IVec4`, `Mat4` and arrays `Array(TYPE, N)` in RON; in `.dgc` the lowercase names \
(`u32`, `vec4`, `address`) and arrays `f32[4]` (`T[A][B]` is A arrays of `T[B]`, as in GLSL).",
    },
    Rule {
        code: "E0008",
        vuid: None,
        severity: Error,
        title: "unknown value for a setting",
        explanation: "A setting that takes one of a few fixed values got another: layout `flags` \
(`UnorderedSequences`, `ExplicitPreprocess`), `glsl_layout` (`Std430`, `Scalar`), an index \
buffer's `mode` (`Vulkan`, `Dxgi`), an execution set's `kind` (`Pipelines`, `ShaderObjects`), a \
kernel's `subgroup` (`Any`, `Varying`, `Full`, `Required(…)`) and a required subgroup size \
(`Fixed(N)`, `Min`, `Max`). In `.dgc` the same values are written in snake_case. A `lints` \
entry, the pipeline's or a layout's, is E0008 too when its level is not `Allow`, `Warn` or \
`Deny`, when its code is not in the registry, or when it allows or warns an error code.",
    },
    Rule {
        code: "E0009",
        vuid: None,
        severity: Error,
        title: "a value has the wrong type",
        explanation: "A field holds a value of the wrong shape: a string where a number is \
expected (`max_sequences: \"1024\"`), a bare number where an option is expected (`stride: 48` \
instead of `stride: Some(48)`), a single stage instead of a list (`stages: Vertex` instead of \
`stages: [Vertex]`), a fraction where a whole number is expected. The message says what was \
expected; the label covers the value.",
    },
    Rule {
        code: "E0010",
        vuid: None,
        severity: Error,
        title: "a number does not fit in 32 bits",
        explanation: "Every number of a description (offsets, sizes, counts, strides, \
`local_size`) is a Vulkan `uint32_t`: a whole number from 0 to 4294967295. A negative number or \
a larger one cannot be expressed in the Vulkan structures dgcc fills.",
    },
    Rule {
        code: "E0011",
        vuid: None,
        severity: Error,
        title: "a push-constant token needs exactly one of `fields` and `size`",
        explanation: "A `PushConstant` token describes its data either as typed fields (which \
dgcc lays out and emits as a struct) or as a raw byte size, never both and never neither.\n\n\
```ron\nPushConstant(stages: [Vertex], offset: 0, fields: [(name: \"id\", ty: U32)])\n\
PushConstant(stages: [Vertex], offset: 0, size: 8)\n```\n\nIn `.dgc`: \
`push_constant [vertex] offset 0 { id: u32; }` or `push_constant [vertex] offset 0 size 8;`.",
    },
    Rule {
        code: "E0012",
        vuid: None,
        severity: Error,
        title: "the description is larger than 4 MiB",
        explanation: "dgcc reads descriptions of at most 4 MiB (4194304 bytes). A real pipeline \
description is a few kilobytes; a larger file is almost certainly generated by mistake or \
hostile, and the limit keeps every pass of the compiler bounded in time and memory.",
    },
    Rule {
        code: "E0013",
        vuid: None,
        severity: Error,
        title: "the description nests too deeply",
        explanation: "Brackets (`(`, `[`, `{`) nest at most 64 levels deep, and a field type has \
at most 8 array dimensions. A real description nests about eight levels; the limit is checked \
before parsing so that deeply nested input cannot overflow the parser's stack.",
    },
    Rule {
        code: "E0014",
        vuid: None,
        severity: Error,
        title: "too many layouts",
        explanation: "A pipeline describes at most 16384 indirect-commands layouts. Each layout \
becomes a `VkIndirectCommandsLayoutEXT`, generated types and a manifest entry; the limit leaves \
room for generated descriptions (the compiler benchmark goes to 10,000) and keeps every pass \
bounded.",
    },
    Rule {
        code: "E0015",
        vuid: None,
        severity: Error,
        title: "too many tokens in one layout",
        explanation: "A layout has at most 256 tokens in dgcc. Devices allow far fewer \
(`maxIndirectCommandsTokenCount` is 16 on lavapipe; the validation reports that per target), so \
a layout this long is generated input gone wrong.",
    },
    Rule {
        code: "E0016",
        vuid: None,
        severity: Error,
        title: "too many fields in one push constant",
        explanation: "A push-constant token has at most 256 fields. Push-constant space is \
`maxPushConstantsSize` bytes (128 or 256 on most devices), so 256 four-byte fields already \
exceed every device.",
    },
    Rule {
        code: "E0017",
        vuid: None,
        severity: Error,
        title: "too many kernels",
        explanation: "A pipeline describes at most 256 compute kernels that write indirect \
streams.",
    },
    Rule {
        code: "E0018",
        vuid: None,
        severity: Error,
        title: "the description is not UTF-8",
        explanation: "Descriptions are UTF-8 text. The diagnostic points at the line and column \
of the first byte that is not valid UTF-8 (often a file saved as Latin-1 or UTF-16 by an \
editor) and the message gives its byte offset too. Save the file as UTF-8. (A UTF-8 byte order \
mark at the start of the file is fine: it is read as whitespace.)",
    },
    Rule {
        code: "E0019",
        vuid: None,
        severity: Error,
        title: "too many shaders",
        explanation: "A pipeline names at most 256 draw and dispatch shaders (`shaders:`); each is read, compiled and compared with every layout of its stage, so the cap keeps `dgcc check` fast on any input. A real pipeline has a handful, or one per pipeline of an execution set.",
    },
    Rule {
        code: "E0024",
        vuid: None,
        severity: Error,
        title: "the layouts' stream data is too large to emit",
        explanation: "The tokens of all layouts together read at most 512 KiB of stream data. \
Every output spells a record out member by member (the HLSL and Slang readers and writers load \
and store each word, the SVG draws each byte), so this keeps each file at tens of megabytes. \
Real records are a few KiB at most (`maxIndirectCommandsIndirectStride` is 2048 or 4096 on most \
devices, `maxPushConstantsSize` 128 or 256); a description reaches the limit only through a \
push constant or a field array far past every device, which a target profile that states no \
push-constant limit does not catch, or through thousands of large layouts.",
    },
    Rule {
        code: "E0021",
        vuid: None,
        severity: Error,
        title: "retired: a profile does not state a value a rule needs (now the warning W0012)",
        explanation: "Retired. A value a target profile does not state was an error, so a mesh \
layout on a built-in profile that does not state `meshShader` could only pass by editing the \
profile. It is now the warning [W0012](W0012.md), which names the value and says which check was \
skipped, and `--strict` makes it an error; a profile that states none of \
VK_EXT_device_generated_commands' values gets the one warning [W0013](W0013.md). No input \
produces E0021 any more; the code stays reserved.",
    },
];
