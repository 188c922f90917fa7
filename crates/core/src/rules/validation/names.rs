//! E07xx: names and references.

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[
    Rule {
        code: "E0701",
        vuid: None,
        severity: Error,
        title: "two layouts have the same name",
        explanation: r#"Layout names become type and constant names in the generated code and keys in the manifest, so they are unique within a pipeline.

```ron
layouts: [
    (name: "Draw", stages: [Vertex, Fragment], max_sequences: 64, tokens: [Draw]),
    (name: "Draw", stages: [Vertex, Fragment], max_sequences: 64, tokens: [DrawIndexed]),
],
```

Fix: rename one."#,
    },
    Rule {
        code: "E0702",
        vuid: None,
        severity: Error,
        title: "two kernels have the same name",
        explanation: r#"Kernel names identify kernels in the manifest and the generated code, so they are unique within a pipeline.

```ron
kernels: [
    (name: "cull", source: "shaders/cull.comp", local_size: (64, 1, 1)),
    (name: "cull", source: "shaders/cull_shadows.comp", local_size: (64, 1, 1)),
],
```

Fix: rename one."#,
    },
    Rule {
        code: "E0703",
        vuid: None,
        severity: Error,
        title: "two tokens of a layout have the same name",
        explanation: r#"Token names become member names of the generated record struct. A token without `name` is named after its kind in snake_case (`push_constant`, `draw_indexed`), so two unnamed tokens of one kind collide too.

```ron
tokens: [
    PushConstant(stages: [Vertex], offset: 0, size: 4),
    PushConstant(stages: [Vertex], offset: 4, size: 4),   // also `push_constant`
    Draw,
],
```

Fix: give the tokens distinct `name`s."#,
    },
    Rule {
        code: "E0704",
        vuid: None,
        severity: Error,
        title: "two fields of a push-constant token have the same name",
        explanation: r#"Fields become struct members in GLSL, C and Rust.

```ron
PushConstant(name: "object", stages: [Vertex], offset: 0, fields: [
    (name: "id", ty: U32),
    (name: "id", ty: U32),
]),
```

Fix: rename one."#,
    },
    Rule {
        code: "E0705",
        vuid: None,
        severity: Error,
        title: "a name is not a valid identifier",
        explanation: r#"Pipeline, layout, kernel, token and field names become identifiers in Rust, C, GLSL, HLSL and Slang: ASCII letters, digits and `_`, not starting with a digit, and not `_` alone.

```ron
PushConstant(name: "object-data", stages: [Vertex], offset: 0, size: 4),
```

Fix: `object_data`."#,
    },
    Rule {
        code: "E0706",
        vuid: None,
        severity: Error,
        title: "a name is reserved in an output language",
        explanation: r#"A name that is a keyword or reserved word in one of the output languages breaks that output: `type` in Rust, `class`, `and` or `char8_t` in C++ (every keyword up to C++20, the alternative tokens included), `uniform`, `sample`, `mat4x4`, `isampler2D` or `filter` in GLSL (every type in every dimensionality and with every prefix, Vulkan GLSL's `texture2D`, `sampler` and `subpassInput`, and the words glslang makes keywords for an extension, such as `accelerationStructureEXT` and `float16_t`), `cbuffer`, `float4` or `groupshared` in HLSL, `This` or `import` in Slang, and `main`, the name of every shader's entry point. The emitters read the same list and never rename a name this check lets through. GLSL also reserves names starting with `gl_` or `GL_` (every extension a shader enables defines a macro of its name) and names containing `__`, and compiling for Vulkan defines the macro `VULKAN`; C reserves names starting with `_` and a capital letter. In the C and C++ headers a member may not take a name that a header they include may define as a macro, which would replace it (a field `EOF` became `(-1)` in the C++ header, which g++ refused): names starting with `VK_`, `VKAPI_`, `VULKAN_`, `STD_VIDEO_` or `vulkan_video_codec` (`VK_TRUE`, `VK_NULL_HANDLE`, vulkan.hpp's `VULKAN_HPP_…`) and vulkan.hpp's `GCC_VERSION`; every macro of the C standard library (`NULL`, `offsetof`, `assert`, `errno`, `EOF`, `stdout`, `SEEK_SET`, `EXIT_SUCCESS`, `CHAR_BIT`, `HUGE_VAL`), whose headers C++'s standard headers may include; the names C reserves for those headers' macros: `E` and a capital letter or digit for `errno.h` (`EDOM`, `E2BIG`), `LC_`, `SIG`, `SIG_`, `TIME_`, `FE_` or `ATOMIC_` and a capital letter, `PRI` or `SCN` and a small letter or `X`, and the `stdint.h` limits (`UINT32_MAX`, `INT64_C`, `SIZE_MAX`); and the POSIX and glibc macros that libstdc++ and vulkan.hpp bring into the C++ header on Linux (`CLOCK_REALTIME`, `PTHREAD_…`, `SCHED_…`, `RTLD_NOW`, `LITTLE_ENDIAN`, `WNOHANG`). A family of capitals takes only names in capitals: `ENABLED` is refused, `Enabled` is not; and a layout, kernel or pipeline named `EOF` passes, since the headers spell it otherwise (`SceneEofRecord`, `SCENE_EOF_STRIDE`). Nor may a name be one that gcc and clang predefine as a macro in their default GNU modes: `linux`, `unix`, and `i386` on 32-bit x86.

```ron
fields: [(name: "type", ty: U32)],
```

Fix: another name, e.g. `kind` or `type_`."#,
    },
    Rule {
        code: "E0707",
        vuid: None,
        severity: Error,
        title: "two names are spelled the same in generated code",
        explanation: r#"dgcc prints every name of a description into Rust, C, GLSL, HLSL and Slang after casing it (`SceneDraw`, `scene_draw`, `SCENE_DRAW`) and joining it with others (`<LAYOUT>_<TOKEN>_OFFSET`, `<layout>_write_<token>`). Two names that differ as written can then meet in one scope: a layout `A` with a token `b_c` and a layout `A_B` with a token `c` both give the C macro `A_B_C_OFFSET`, and the value a program sees would belong to one of them. A C macro also replaces a struct member of the same name. (Two layouts, kernels or tokens that differ only in case are E0701, E0702 and E0703.)

```ron
layouts: [
    (name: "A", stages: [Vertex], max_sequences: 64, tokens: [VertexBuffer(name: "b_c", binding: 0), Draw]),
    (name: "A_B", stages: [Vertex], max_sequences: 64, tokens: [VertexBuffer(name: "c", binding: 0), Draw]),
],
```

The names of record members are dgcc's own choice and never refused: a push-constant field named like another member (each of two tokens' fields called `v`, or a field `draw_index_count` beside a `DrawIndexed` token named `draw`) is qualified with its token's name (`a_v`, `b_v`, `object_draw_index_count`), and a join that still meets another is numbered (`_2`). The manifest, and so every output, has the final names.

Fix: rename one of the two."#,
    },
    Rule {
        code: "E0708",
        vuid: None,
        severity: Error,
        title: "a kernel writes a layout that does not exist",
        explanation: r#"`writes: Some("…")` names the layout whose stream the kernel fills; it must be a layout of this pipeline. (A compute kernel writing a graphics layout is the normal case: culling kernels fill draw streams.)

```ron
kernels: [(name: "cull", source: "cull.comp", local_size: (64, 1, 1), writes: Some("SceenDraw"))],
```

Fix: the layout's exact name."#,
    },
    Rule {
        code: "E0709",
        vuid: None,
        severity: Error,
        title: "a name is too long for generated code",
        explanation: r#"glslang reads identifiers of at most 1,024 characters and most file systems file names of at most 255 bytes. A name from which dgcc prints a longer GLSL identifier (the longest are joins such as `<layout>_write_<token>` and `<Layout>Push<Token>`), or a pipeline name that makes the output file names longer, would give output that does not compile or cannot be written, so `dgcc check` refuses it.

```ron
PushConstant(name: "aaaa…(1,020 characters)…", stages: [Vertex], offset: 0, size: 4),
```

Fix: a shorter name."#,
    },
];
