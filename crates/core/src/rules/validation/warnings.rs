//! W0xxx: legal descriptions that are likely wrong, slow, or not portable.

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[
    Rule {
        code: "W0001",
        vuid: None,
        severity: Warning,
        title: "the index buffer is bound twice",
        explanation: r#"Two `IndexBuffer` tokens in one layout are legal since Vulkan 1.4.340 (until then, `VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11094` forbade it), but only the last binding is used, and the validation layers still report 11094 for it.

```ron
tokens: [
    IndexBuffer(mode: Vulkan),
    IndexBuffer(name: "again", mode: Vulkan),
    DrawIndexed,
],
```

Fix: keep one `IndexBuffer` token."#,
    },
    Rule {
        code: "W0002",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-maxDrawCount-11078"),
        severity: Warning,
        title: "a count token limits maxDrawCount",
        explanation: r#"With a `*Count` token, `maxDrawCount × maxSequenceCount` must stay below 2^24 at execute time. `maxDrawCount` is a runtime value, so dgcc states the largest one `max_sequences` allows: with 65536 sequences, at most 255 draws per sequence.

```ron
(name: "Batches", stages: [Vertex, Fragment], max_sequences: 65536, tokens: [DrawIndexedCount]),
```

Fix: clamp `maxDrawCount` to that bound when executing, or lower `max_sequences` for more draws per sequence."#,
    },
    Rule {
        code: "W0003",
        vuid: None,
        severity: Warning,
        title: "the stride is not a multiple of 16",
        explanation: r#"Records that start at arbitrary 4-byte boundaries straddle 16-byte lines, so the driver's stream reads take more transactions on some hardware. Legal, and sometimes the smallest stream is worth it.

```ron
(name: "Work", stages: [Compute], max_sequences: 1024, tokens: [
    PushConstant(stages: [Compute], offset: 0, size: 8),
    Dispatch,                                   // stride 20
]),
```

Fix: `align: Some(16)` rounds the stride up; `align: Some(4)` keeps the tight stride and says so (dgcc then stays quiet)."#,
    },
    Rule {
        code: "W0004",
        vuid: None,
        severity: Warning,
        title: "UnorderedSequences has no effect on a compute layout",
        explanation: r#"Dispatch sequences never run in a defined order; the spec says `UNORDERED_SEQUENCES` is ignored when `shaderStages` is `COMPUTE`.

```ron
(name: "Work", stages: [Compute], flags: [UnorderedSequences], max_sequences: 1024, tokens: [Dispatch]),
```

Fix: remove the flag."#,
    },
    Rule {
        code: "W0005",
        vuid: None,
        severity: Warning,
        title: "the target needs a large preprocess buffer for max_sequences",
        explanation: r#"Preprocess memory is implementation-defined and differs by orders of magnitude. Measured with a push constant and a draw or dispatch: NVIDIA (H200) needs about 80 bytes per draw sequence but 6.7 KB per dispatch sequence (65536 dispatches: 438 MB); lavapipe needs 144·n² bytes for n draw sequences (4000: 2.3 GB) and, past 5460 sequences, reports that size modulo 2^32 — a wrong, too small number. dgcc warns above 256 MiB or when the reported size wraps.

```ron
// targets: ["lavapipe"]
(name: "Draws", stages: [Vertex, Fragment], max_sequences: 4096, tokens: [Draw]),
```

Fix: nothing to change if one execution rarely runs that many sequences: the dgcc runtime splits large streams into chunks that fit its preprocess budget. Otherwise lower `max_sequences`."#,
    },
    Rule {
        code: "W0006",
        vuid: None,
        severity: Warning,
        title: "a draw layout written in parallel keeps its sequences in order",
        explanation: r#"A kernel with many invocations appends sequences in whatever order its invocations run, so the stream has no order worth keeping, and without `UnorderedSequences` the driver must still execute sequences in stream order.

```ron
layouts: [(name: "SceneDraw", stages: [Vertex, Fragment], max_sequences: 1024, tokens: [DrawIndexed])],
kernels: [(name: "cull", source: "cull.comp", local_size: (64, 1, 1), writes: Some("SceneDraw"))],
```

Fix: `flags: [UnorderedSequences]` — unless the kernel writes sequences at fixed, sorted positions (e.g. for blending order)."#,
    },
    Rule {
        code: "W0007",
        vuid: None,
        severity: Warning,
        title: "scalar-packed push-constant fields need a scalar push_constant block",
        explanation: r#"With `glsl_layout: Scalar`, typed fields are packed by scalar rules in the stream, and the token copies those bytes into push-constant space unchanged. A shader declaring a default (std430) `push_constant` block would read a `Vec4` after a `U32` at byte 16, where the token wrote it at byte 4.

```ron
(name: "Draws", stages: [Vertex, Fragment], glsl_layout: Scalar, max_sequences: 64, tokens: [
    PushConstant(name: "object", stages: [Vertex], offset: 0, fields: [
        (name: "id", ty: U32),
        (name: "color", ty: Vec4),   // byte 4 here, 16 in a std430 block
    ]),
    Draw,
]),
```

Fix: declare the block `layout(push_constant, scalar) uniform …` (GL_EXT_scalar_block_layout), or order the fields from widest to narrowest so both layouts agree."#,
    },
    Rule {
        code: "W0008",
        vuid: None,
        severity: Warning,
        title: "a value passes the spec's guaranteed minimum",
        explanation: r#"Every device guarantees at least 16 tokens per layout, token offsets up to 2047 and strides up to 2048. Your targets allow more (NVIDIA allows far more), but a device offering only the minimum refuses the layout. dgcc says so when `minimum` is not among the targets; with it, these are errors (E0202, E0131, E0201).

```ron
// targets: ["nvidia"]
tokens: [Draw(at: Some(4096))],   // NVIDIA allows it; the spec guarantees 2047
```

Fix: stay within the minimum, or add `"minimum"` to `targets` to be told where you are not."#,
    },
    Rule {
        code: "W0009",
        vuid: None,
        severity: Warning,
        title: "full subgroups are not guaranteed if the subgroup size varies",
        explanation: r#"`subgroup: Full` checks `local_size` x against the target's *default* subgroup size. Shaders compiled as SPIR-V 1.6 (what Vulkan 1.3 compilers emit) may run with any size from `minSubgroupSize` to `maxSubgroupSize`, and subgroups are then full only if x is a multiple of `maxSubgroupSize`.

```ron
// a target with subgroupSize 32 and maxSubgroupSize 64
local_size: (32, 1, 1),
subgroup: Full,
```

Fix: a multiple of `maxSubgroupSize`, or pin the size with `Required(size: …, full: true)`."#,
    },
    Rule {
        code: "W0010",
        vuid: Some("VUID-VkIndirectCommandsPushConstantTokenEXT-updateRange-11132"),
        severity: Warning,
        title: "the validation layers will not find a push-constant range with the token's stages",
        explanation: r#"The spec ignores a token's stages and asks only that its bytes lie inside the pipeline's push-constant ranges, which they do. The validation layers instead look for a pipeline range sharing a stage with the token, and report 11132 when none holds the token's bytes.

```ron
push_constants: [(stages: [Fragment], offset: 0, size: 8)],
// …
PushConstant(name: "object", stages: [Vertex], offset: 0, size: 8),
```

Fix: give the token the stages of the range that holds it."#,
    },
    Rule {
        code: "W0011",
        vuid: None,
        severity: Warning,
        title: "tokens read the same stream bytes",
        explanation: r#"A token pinned with `at` starts inside the bytes of an earlier token. The specification allows it (no valid-usage rule forbids it, and the validation layers' own tests create such layouts): each token reads the shared bytes with its own meaning. It is usually a mistake, since whatever the culling shader writes for one token is read as the other, so dgcc says which bytes are shared and what each token reads there. The record struct declares shared bytes once, as the earlier token's members.

```ron
VertexBuffer(name: "vb", binding: 0, at: Some(8)),   // bytes 8..24
Draw(name: "draw", at: Some(16)),                   // bytes 16..32: vb_size and vb_stride are vertex_count and instance_count
```

A `SequenceIndex` or `PushDataSequenceIndex` token is never reported: its stream data is a placeholder no one reads (the value pushed is the sequence's index), and clients such as vkd3d-proton and Granite pin it on bytes another token uses. Pin it with `at` where your stream puts it.

Fix: if each token should read its own data, pin the later token at or after the end of the earlier one, or leave `at` out and let dgcc place it. To refuse shared bytes, pass `--deny W0011` (or `--deny-warnings`) to `dgcc check` and `dgcc compile`."#,
    },
    Rule {
        code: "W0012",
        vuid: None,
        severity: Warning,
        title: "a target does not state a value a check needs",
        explanation: r#"A check compares the description with a device value (for example `meshShader`, or `maxIndirectCommandsTokenOffset`) and the target profile does not state it, or states only a requirement profile's bound where a rule needs one device's value (`Required(size: Min)` against a multi-device requirement profile's `minSubgroupSize`). dgcc never guesses: the check is skipped for that target and this warning names the value, the target and the check, once per value and target however many layouts asked. `--strict` makes it an error, for a build that must prove every rule on every target.

```ron
// radv's built-in profile does not state shaderObject
targets: ["radv"],
// …
ExecutionSet(kind: ShaderObjects, stages: [Compute], max_entries: 8),
```

Fix: use a profile that states the value (a built-in one such as `radv-mesh` for mesh shading on RADV, or one written on the device with `dgcc probe`), or add the value to your profile file."#,
    },
    Rule {
        code: "W0013",
        vuid: None,
        severity: Warning,
        title: "a target profile predates VK_EXT_device_generated_commands",
        explanation: r#"The target profile states none of VK_EXT_device_generated_commands' own values (its feature and properties structs) although a check needs them. Such a file was written by a tool older than the extension (`vulkaninfo --json` before 1.3.296, which does not know `VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT`) or by one that drops it (gpuinfo.org exports). One warning says so instead of one per missing value, and every device-generated-commands limit check is skipped for the target; values outside the extension (subgroups, push constants) are still checked, and still reported one by one when missing (W0012). `--strict` makes it an error.

```ron
targets: ["old-vulkaninfo.json"],   // vulkaninfo 1.3.239 --json
```

Fix: write the profile on the device with `dgcc probe > device.json`, which reads every value dgcc checks, or with a `vulkaninfo` of 1.3.296 or later."#,
    },
    Rule {
        code: "W0014",
        vuid: None,
        severity: Warning,
        title: "a generated C name is a macro of windows.h or X11's Xlib.h",
        explanation: r#"Engines include platform headers before dgcc's C and C++ headers (vulkan.h itself includes windows.h under `VK_USE_PLATFORM_WIN32_KHR` and X11's `Xlib.h` under `VK_USE_PLATFORM_XLIB_KHR`), and an object-like macro of theirs replaces every later word of its name. A push-constant field `near` (a camera's near plane) compiles on Linux, but windows.h's `minwindef.h` defines `near` and `far` as nothing, so there `float near;` becomes `float ;` and the engine's build stops in the generated header. dgcc cannot know which headers an engine includes, so this is a warning, not an error like [E0706](E0706.md), which covers the headers the generated ones include themselves.

```ron
PushConstant(name: "camera", stages: [Vertex], offset: 0, fields: [
    (name: "near", ty: F32),   // minwindef.h: #define near
    (name: "far", ty: F32),    // minwindef.h: #define far
]),
```

Which names: every record member as the C and C++ headers print it, and the C++ header's namespaces, which are the pipeline's, layouts' and kernels' names in CamelCase (a layout `none` is `namespace None`, and X11 defines `None` as `0L`). The C header's other names join a description's names with dgcc's own words (`SceneSceneDrawRecord`, `scene_scene_draw_tokens`), which no listed macro is. Only object-like macros matter: the headers never print a member or a namespace before `(`, so windows.h's `min` and `max` are never expanded there.

Which macros, each with the header that defines it and its expansion, held to the real headers by the test suite:
- X11: every object-like macro `#include <X11/Xlib.h>` defines (`X.h`, `Xlib.h`, `Xfuncproto.h`): `None`, `Bool`, `Status`, `True`, `False`, `Success`, `Always`, the event names (`Expose`, `KeyPress`), the masks and the `XN…` strings.
- windows.h: the object-like macros that the Windows headers windows.h includes, with or without `WIN32_LEAN_AND_MEAN`, define in any branch (as mingw-w64's copy of them writes them; not the C runtime's headers, which mingw-w64 and MSVC each bring their own of) under a name a member could take: snake_case and camelCase (`near`, `far`, `pascal`, `cdecl`, `small` and `hyper` of `rpcndr.h`, winsock's `s_addr` and `h_errno`, `dlgs.h`'s `psh1`) and single words in capitals (`IN`, `OUT`, `OPTIONAL`, `CONST`, `VOID`, `TRUE`, `DELETE`, `OPAQUE`, `INFINITE`). Left out are capitals joined by `_` (the Windows headers define tens of thousands, `WM_PAINT`, `MAX_PATH`, `GENERIC_READ`, each with its API's prefix, and in C a name in capitals is a macro's anyway) and PascalCase (all but a few of those macros rename a function to its ANSI or wide version, `CreateWindow` to `CreateWindowW`, which leaves a member valid). `interface` (`#define interface struct`) and `ERROR` are E0706 already.

Fix: rename the member (`near_plane`, or qualified with its token's name, `camera_near`), the layout, kernel or pipeline. If no file of the engine that includes the generated headers includes that platform header, or (for the macros the warning says `WIN32_LEAN_AND_MEAN` removes: `small`, `hyper`, winsock's, `dlgs.h`'s) every such file defines `WIN32_LEAN_AND_MEAN` first, allow it: `lints: [Allow("W0014")]`, or `-A W0014`. `WIN32_LEAN_AND_MEAN` does not remove `near` and `far`."#,
    },
    Rule {
        code: "W0015",
        vuid: None,
        severity: Warning,
        title: "NVIDIA's driver draws an explicitly preprocessed execution set of pipelines slowly",
        explanation: r#"The layout has `ExplicitPreprocess` and an `ExecutionSet` token that selects graphics pipelines, and a target is an NVIDIA device (its profile states `vendorID` = 0x10DE; Mesa's NVK reports the same id and gets the warning too, though only NVIDIA's own driver was measured). The specification makes explicit preprocessing a choice of where the work happens, not of what the draws cost; on NVIDIA's driver the draws of such an execute cost far more than the same layout preprocessed implicitly, and more the more pixels and fragment work they have. The preprocess command itself is short: the cost is in the execute after it.

Measured with driver 580.159.04 (book: `measured/h100-explicit-set.md`), `dgcc bench`'s city scene with one pipeline per material through the set, the stream sorted by material, every object drawn, against multi-draw over the same records:

| | 256 × 256 | 1280 × 720 | 2560 × 1440 |
|:---|---:|---:|---:|
| 100,000 objects, 16 materials, implicit | 16.3 ms (1.01×) | 18.6 ms (1.02×) | 26.5 ms (1.07×) |
| the same, explicit | 16.6 ms (1.02×) | 24.5 ms (1.34×) | 49.0 ms (1.99×) |

On an H100, 2026-12-07; an H200 measured the same 2560 × 1440 rows on 2026-12-01 (46.9 against 26.0 ms). The preprocess command took 0.06 ms of the explicit row. With 2 materials (opaque and cut-out) the explicit execute cost 1.15× of multi-draw at 2560 × 1440 instead of 1.03×; with 1,000,000 objects, 182.0 against 160.4 ms; with frustum culling, 36.4 against 11.3 ms. Sets of shader objects are not affected (28.0 against 27.5 ms), nor a binned execute of each material's records through a layout without the set (`dgc-explicit-binned`, 1.01×), nor implicit preprocessing. Only sets of vertex and fragment pipelines were measured; sets of mesh-shading pipelines get the warning too, on the assumption that the driver executes them the same way.

```ron
// targets: ["nvidia"]
(name: "Materials", stages: [Vertex, Fragment], flags: [ExplicitPreprocess], max_sequences: 65536, tokens: [
    ExecutionSet(name: "material", kind: Pipelines, stages: [Vertex, Fragment], max_entries: 16),
    DrawIndexed,
]),
```

Fix: drop `ExplicitPreprocess` (implicit preprocessing draws at multi-draw's cost: 1.00× at 1,000,000 sorted objects), or keep it and execute each material's records through a layout without the set, with that material's pipeline bound. Where explicit preprocessing of a set is what the engine needs, and it was measured on the engine's own scenes, `lints: [Allow("W0015")]` or `-A W0015`."#,
    },
];
