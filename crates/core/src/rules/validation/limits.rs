//! E02xx: device limits and features a layout is compared with, per target.

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[
    Rule {
        code: "E0201",
        vuid: Some("VUID-VkIndirectCommandsLayoutCreateInfoEXT-indirectStride-11090"),
        severity: Error,
        title: "the stride exceeds maxIndirectCommandsIndirectStride",
        explanation: r#"`indirectStride`, the size of one record of the stream, must be at most the target's `maxIndirectCommandsIndirectStride`: 2048 on lavapipe and radv and as the spec's minimum, 4096 on NVK, any 32-bit value on NVIDIA.

```ron
// targets: ["radv"]
(name: "Big", stages: [Vertex, Fragment], max_sequences: 64, stride: Some(4096), tokens: [Draw]),
```

Fix: shrink the record (fewer or smaller tokens, less padding), or drop the pinned stride."#,
    },
    Rule {
        code: "E0202",
        vuid: Some("VUID-VkIndirectCommandsLayoutCreateInfoEXT-tokenCount-11092"),
        severity: Error,
        title: "more tokens than maxIndirectCommandsTokenCount",
        explanation: r#"A layout may have at most `maxIndirectCommandsTokenCount` tokens: 16 on lavapipe, NVK and as the spec's minimum, 32 on NVIDIA, 128 on radv. Many small push-constant tokens are the usual cause.

```ron
// targets: ["lavapipe"]  (16 tokens at most)
tokens: [
    PushConstant(name: "p0", stages: [Vertex], offset: 0, size: 4),
    // … 15 more one-word push constants …
    Draw,
],
```

Fix: merge push-constant tokens into one token with several fields (one token, one contiguous range)."#,
    },
    Rule {
        code: "E0203",
        vuid: Some("VUID-VkIndirectCommandsLayoutCreateInfoEXT-shaderStages-11091"),
        severity: Error,
        title: "the target cannot run these stages from generated commands",
        explanation: r#"Every stage in a layout's `stages` must be in the target's `supportedIndirectCommandsShaderStages`. The spec guarantees only `Vertex`, `Fragment` and `Compute`; NVK, for example, has no task, mesh or ray tracing stages there.

```ron
// targets: ["nvk"]
(name: "Meshlets", stages: [Task, Mesh, Fragment], max_sequences: 64, tokens: [DrawMeshTasks]),
```

Fix: drop the target, or draw through the vertex pipeline on it."#,
    },
    Rule {
        code: "E0204",
        vuid: Some("VUID-VkGeneratedCommandsMemoryRequirementsInfoEXT-maxSequencesCount-11009"),
        severity: Error,
        title: "max_sequences exceeds maxIndirectSequenceCount",
        explanation: r#"`max_sequences` is the `maxSequenceCount` the runtime executes with and sizes buffers for; it must be at most the target's `maxIndirectSequenceCount` (2^20 on most drivers, 4194303 on NVIDIA). The first call that breaks it is the memory-requirements query the runtime sizes the preprocess buffer with (`VUID-VkGeneratedCommandsMemoryRequirementsInfoEXT-maxSequencesCount-11009`, this rule's own); executing with it breaks `VUID-VkGeneratedCommandsInfoEXT-maxSequenceCount-11067` too.

```ron
(name: "Draws", stages: [Vertex, Fragment], max_sequences: 2000000, tokens: [Draw]),
```

Fix: lower `max_sequences` and execute larger streams in several calls."#,
    },
    Rule {
        code: "E0205",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-maxSequenceCount-10246"),
        severity: Error,
        title: "max_sequences is zero",
        explanation: r#"`maxSequenceCount` must not be zero. A layout that may run zero sequences still declares the largest count it may run; the actual count comes from the sequence-count buffer.

```ron
(name: "Draws", stages: [Vertex, Fragment], max_sequences: 0, tokens: [Draw]),
```

Fix: set the largest number of sequences one execution runs."#,
    },
    Rule {
        code: "E0206",
        vuid: Some("VUID-VkIndirectCommandsIndexBufferTokenEXT-mode-11136"),
        severity: Error,
        title: "the target does not support this index-buffer input mode",
        explanation: r#"An index buffer token's `mode` must be in the target's `supportedIndirectCommandsInputModes`. `Vulkan` is always supported; `Dxgi` (D3D12 index buffer views, for translation layers) is optional — the spec's minimum profile lacks it.

```ron
// targets: ["minimum"]
IndexBuffer(mode: Dxgi),
```

Fix: use `mode: Vulkan`."#,
    },
    Rule {
        code: "E0207",
        vuid: Some("VUID-VkIndirectCommandsVertexBufferTokenEXT-vertexBindingUnit-11134"),
        severity: Error,
        title: "a vertex binding at or above maxVertexInputBindings",
        explanation: r#"A `VertexBuffer` token's `binding` must be a binding the bound pipeline uses (11134, which the validation layers cannot check). No pipeline can declare a binding at or above `maxVertexInputBindings` (`VUID-VkVertexInputBindingDescription-binding-00618`), so such a token can never be valid: 16 is the spec's minimum, 32 on most desktop drivers.

```ron
VertexBuffer(binding: 40),
```

Fix: use a binding below the limit."#,
    },
    Rule {
        code: "E0208",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-deviceGeneratedCommandsMultiDrawIndirectCount-11129"),
        severity: Error,
        title: "a draw count token on a target without multi-draw count support",
        explanation: r#"`DrawCount` and `DrawIndexedCount` issue several draws per sequence; they need the target's `deviceGeneratedCommandsMultiDrawIndirectCount`, which the spec does not require (the `minimum` profile lacks it).

```ron
// targets: ["minimum"]
(name: "Batches", stages: [Vertex, Fragment], max_sequences: 64, tokens: [DrawIndexedCount]),
```

Fix: use `DrawIndexed` with one sequence per draw on such targets."#,
    },
    Rule {
        code: "E0209",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-deviceGeneratedCommandsMultiDrawIndirectCount-11130"),
        severity: Error,
        title: "a mesh draw count token on a target without multi-draw count support",
        explanation: r#"`DrawMeshTasksCount` needs `deviceGeneratedCommandsMultiDrawIndirectCount`, like the other count tokens.

```ron
// a target with meshShader but without deviceGeneratedCommandsMultiDrawIndirectCount
(name: "Meshlets", stages: [Mesh, Fragment], max_sequences: 64, tokens: [DrawMeshTasksCount]),
```

Fix: use `DrawMeshTasks` with one sequence per draw on such targets."#,
    },
    Rule {
        code: "E0210",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-deviceGeneratedCommandsMultiDrawIndirectCount-11131"),
        severity: Error,
        title: "an NV mesh draw count token on a target without multi-draw count support",
        explanation: r#"`DrawMeshTasksCountNv` needs `deviceGeneratedCommandsMultiDrawIndirectCount`, like the other count tokens.

```ron
// a target with meshShader but without deviceGeneratedCommandsMultiDrawIndirectCount
(name: "Meshlets", stages: [Mesh, Fragment], max_sequences: 64, tokens: [DrawMeshTasksCountNv]),
```

Fix: use `DrawMeshTasksNv` with one sequence per draw on such targets."#,
    },
    Rule {
        code: "E0211",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-meshShader-11126"),
        severity: Error,
        title: "a mesh token on a target without meshShader and taskShader",
        explanation: r#"Every mesh draw token (`DrawMeshTasks`, `DrawMeshTasksCount` and the NV forms) needs both the `meshShader` and the `taskShader` features on the target, even when the pipeline has no task shader.

```ron
// targets: ["minimum"]
(name: "Meshlets", stages: [Mesh, Fragment], max_sequences: 64, tokens: [DrawMeshTasks]),
```

Fix: drop the target, or draw through the vertex pipeline on it."#,
    },
    Rule {
        code: "E0212",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-rayTracingMaintenance1-11128"),
        severity: Error,
        title: "a ray-tracing token on a target without rayTracingMaintenance1",
        explanation: r#"`TraceRays2` reads a `VkTraceRaysIndirectCommand2KHR`, which comes with VK_KHR_ray_tracing_maintenance1; the target must enable `rayTracingMaintenance1`.

```ron
// targets: ["minimum"]
(name: "Rays", stages: [RayGen], max_sequences: 64, tokens: [TraceRays2]),
```

Fix: drop the target."#,
    },
    Rule {
        code: "E0213",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-maxDrawCount-11078"),
        severity: Error,
        title: "max_sequences leaves no room for draws of a count token",
        explanation: r#"With a `*Count` token, `maxDrawCount × maxSequenceCount` must stay below 2^24 (also `VUID-VkGeneratedCommandsMemoryRequirementsInfoEXT-maxDrawCount-11146`). `maxDrawCount` is chosen at execute time, but it is at least 1, so `max_sequences` of 2^24 (16777216) or more can never be executed.

```ron
(name: "Batches", stages: [Vertex, Fragment], max_sequences: 16777216, tokens: [DrawIndexedCount]),
```

Fix: lower `max_sequences`. W0002 says which `maxDrawCount` a valid `max_sequences` allows."#,
    },
    Rule {
        code: "E0214",
        vuid: Some("VUID-vkCreateIndirectCommandsLayoutEXT-deviceGeneratedCommands-11089"),
        severity: Error,
        title: "a layout the fallback cannot run, on a target without device-generated commands",
        explanation: r#"On a target whose `deviceGeneratedCommands` feature is false (the built-in `anv`, or a profile written on a device without VK_EXT_device_generated_commands) no indirect-commands layout can be created, so the runtime runs each layout through its multi-draw-indirect fallback instead, and the device-generated-commands limits do not apply there. `dgcc check` proves per layout that the fallback can run it: push constants (the shader reads them from the record), a sequence index, an index buffer under an indexed draw (one buffer bound for every record), and a `Draw`, `DrawIndexed` or `Dispatch` action; a dispatch whose push constants the shader reads needs a `SequenceIndex` to find its record. Any other token changes state per sequence, which one multi-draw call or a dispatch loop cannot, and this error names it. The runtime's fallback refuses the layout in the same words.

```ron
// targets: ["anv"]
tokens: [
    VertexBuffer(binding: 0),   // a vertex buffer per sequence: the fallback stops here
    Draw,
],
```

Fix: remove the target, or give that target a layout without the token (bind the vertex buffer once, for every draw)."#,
    },
    Rule {
        code: "E0215",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-type-parameter"),
        severity: Error,
        title: "an NV mesh token on a target without VK_NV_mesh_shader",
        explanation: r#"`DrawMeshTasksNv` and `DrawMeshTasksCountNv` are the token types `VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_NV_EXT` and `…_DRAW_MESH_TASKS_COUNT_NV_EXT`, which the extension VK_NV_mesh_shader adds to the enum. On a device without that extension they are not token types at all, even when the device has mesh shaders through VK_EXT_mesh_shader (`meshShader` and `taskShader` are that extension's features, and say nothing about the NV one). NVIDIA's driver has VK_NV_mesh_shader; lavapipe does not, and neither does `minimum` (an optional extension is no guarantee). A profile file states it by listing the extension (`dgcc profiles NAME` shows it under "device extensions").

```ron
// targets: ["lavapipe"]
(name: "Meshlets", stages: [Task, Mesh, Fragment], max_sequences: 64, tokens: [DrawMeshTasksNv]),
```

Fix: use the EXT tokens, `DrawMeshTasks` for `DrawMeshTasksNv` and `DrawMeshTasksCount` for `DrawMeshTasksCountNv`. Their record is a `VkDrawMeshTasksIndirectCommandEXT` (three group counts, 12 bytes) instead of NV's task count and first task (8 bytes), so whatever writes the stream changes with them, and the shaders must be EXT mesh shaders."#,
    },
    Rule {
        code: "E0216",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-descriptorHeap-11332"),
        severity: Error,
        title: "a push-data token on a target without descriptor heaps",
        explanation: r#"`PushData` and `PushDataSequenceIndex` (the token types `VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_DATA_EXT` and `…_PUSH_DATA_SEQUENCE_INDEX_EXT`) update the push data of VK_EXT_descriptor_heap (Vulkan 1.4.340), and need its `descriptorHeap` feature. vkd3d-proton translates D3D12 root constants into them on drivers with descriptor heaps. No built-in target has the feature today: lavapipe (Mesa 25.0) and NVIDIA's 580 driver do not expose the extension, and `minimum` makes no promise of an optional extension.

```ron
// targets: ["lavapipe"]
PushData(name: "root", offset: 0, size: 16),
```

Fix: drop the target, or use `PushConstant` (and `SequenceIndex`) with a pipeline layout's push-constant ranges there."#,
    },
];
