//! E01xx: token order and kinds, which tokens a layout's stages allow, token offsets.

use crate::rules::Rule;
use crate::severity::Severity::*;

macro_rules! vuid {
    ($s:literal) => {
        Some(concat!("VUID-VkIndirectCommandsLayoutCreateInfoEXT-", $s))
    };
}

pub const RULES: &[Rule] = &[
    Rule {
        code: "E0101",
        vuid: vuid!("pTokens-11100"),
        severity: Error,
        title: "the layout has no action token",
        explanation: r#"Every sequence ends with exactly one *action* command: `Draw`, `DrawIndexed`, `Dispatch`, `DrawMeshTasks`, `TraceRays2` or a `*Count` draw. A layout made only of state tokens (push constants, buffers, an execution set) changes state and then does nothing.

```ron
tokens: [
    PushConstant(name: "object", stages: [Vertex], offset: 0, size: 4),
    IndexBuffer(mode: Vulkan),
    // no draw
],
```

Fix: end `tokens` with the command each sequence runs, here `DrawIndexed`."#,
    },
    Rule {
        code: "E0102",
        vuid: vuid!("pTokens-11100"),
        severity: Error,
        title: "the action token is not the last token, or there are two",
        explanation: r#"The action command must be the *last* token of a layout, and there is only one. All state changes of a sequence come before its action; a token after the action would change state for nothing. A second action means two commands per sequence, which a layout cannot express.

```ron
tokens: [
    DrawIndexed(name: "draw"),
    PushConstant(name: "object", stages: [Vertex], offset: 0, size: 4), // after the draw
],
```

Fix: move the action to the end. For two commands per sequence, use two layouts."#,
    },
    Rule {
        code: "E0103",
        vuid: vuid!("pTokens-11093"),
        severity: Error,
        title: "more than one execution set token",
        explanation: r#"An `ExecutionSet` token binds one pipeline (or one shader per stage) from an indirect execution set. A sequence binds its shaders once, so a layout has at most one such token.

```ron
tokens: [
    ExecutionSet(kind: Pipelines, stages: [Compute], max_entries: 8),
    ExecutionSet(name: "again", kind: Pipelines, stages: [Compute], max_entries: 8),
    Dispatch,
],
```

Fix: keep one `ExecutionSet` token."#,
    },
    Rule {
        code: "E0104",
        vuid: vuid!("pTokens-11139"),
        severity: Error,
        title: "the execution set token is not the first token",
        explanation: r#"Binding a pipeline invalidates state set before it, so the `ExecutionSet` token must come first: push constants and buffers are set for the pipeline it binds.

```ron
tokens: [
    PushConstant(stages: [Compute], offset: 0, size: 4),
    ExecutionSet(kind: Pipelines, stages: [Compute], max_entries: 8),  // must be first
    Dispatch,
],
```

Fix: move the `ExecutionSet` token to the start of `tokens`."#,
    },
    Rule {
        code: "E0105",
        vuid: vuid!("pTokens-11145"),
        severity: Error,
        title: "more than one sequence index token",
        explanation: r#"A `SequenceIndex` token pushes the index of the sequence into push-constant space. A layout may have at most one. The same duplicate also breaks `VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11094`, which since Vulkan 1.4.340 allows at most one token that is `SEQUENCE_INDEX` or `PUSH_DATA_SEQUENCE_INDEX`: one mistake, reported once, under this code. A `SequenceIndex` beside a `PushDataSequenceIndex`, or two of the latter, break only 11094 (E0124). (Before 1.4.340, 11094 limited INDEX_BUFFER tokens; see W0001.)

```ron
tokens: [
    SequenceIndex(stages: [Compute], offset: 0),
    SequenceIndex(name: "again", stages: [Compute], offset: 4),
    Dispatch,
],
```

Fix: keep one `SequenceIndex` token; every copy would push the same value."#,
    },
    Rule {
        code: "E0106",
        vuid: vuid!("pTokens-11095"),
        severity: Error,
        title: "an index buffer token without an indexed draw",
        explanation: r#"An `IndexBuffer` token binds the index buffer, which only `DrawIndexed` and `DrawIndexedCount` read. With any other action it is an error, not just wasted bytes.

```ron
tokens: [
    IndexBuffer(mode: Vulkan),
    Draw,               // non-indexed
],
```

Fix: use `DrawIndexed` as the action, or remove the `IndexBuffer` token."#,
    },
    Rule {
        code: "E0107",
        vuid: vuid!("pTokens-11096"),
        severity: Error,
        title: "a vertex buffer token without a vertex draw",
        explanation: r#"A `VertexBuffer` token binds a vertex buffer, which only the vertex-pipeline draws read (`Draw`, `DrawIndexed` and their `Count` forms). Mesh shaders, dispatches and ray tracing have no vertex input.

```ron
tokens: [
    VertexBuffer(binding: 0),
    DrawMeshTasks,
],
```

Fix: remove the `VertexBuffer` token (mesh shaders fetch their own data through buffer addresses)."#,
    },
    Rule {
        code: "E0108",
        vuid: vuid!("pTokens-11097"),
        severity: Error,
        title: "two vertex buffer tokens bind the same binding",
        explanation: r#"Each `VertexBuffer` token binds one vertex input binding; two tokens for the same binding would overwrite each other.

```ron
tokens: [
    VertexBuffer(name: "positions", binding: 0),
    VertexBuffer(name: "normals", binding: 0),   // should be 1
    Draw,
],
```

Fix: give each token its own binding."#,
    },
    Rule {
        code: "E0109",
        vuid: vuid!("tokenCount-arraylength"),
        severity: Error,
        title: "the layout has no tokens",
        explanation: r#"`tokenCount` must be greater than 0: a layout is a list of tokens, and an empty list is not a layout at all (`VUID-VkIndirectCommandsLayoutCreateInfoEXT-tokenCount-arraylength`). It is reported instead of E0101 (no action token), which an empty list also breaks, because the fix is not to add a draw to something else but to write the sequence.

```ron
(name: "Nothing", stages: [Vertex, Fragment], max_sequences: 64, tokens: []),
```

Fix: list the tokens of one sequence, ending with its action, e.g. `tokens: [Draw]`."#,
    },
    Rule {
        code: "E0110",
        vuid: vuid!("pTokens-11104"),
        severity: Error,
        title: "a graphics token in a layout without graphics stages",
        explanation: r#"`IndexBuffer`, `VertexBuffer`, the draws and the mesh draws need graphics stages in the layout's `stages` (the vertex pipeline, or task/mesh).

```ron
(name: "Oops", stages: [Compute], max_sequences: 64, tokens: [DrawIndexed]),
```

Fix: use graphics stages, e.g. `stages: [Vertex, Fragment]`."#,
    },
    Rule {
        code: "E0111",
        vuid: vuid!("pTokens-11105"),
        severity: Error,
        title: "a dispatch in a layout whose stages are not exactly [Compute]",
        explanation: r#"A `Dispatch` runs a compute pipeline, so the layout's `stages` must be exactly `[Compute]`.

```ron
(name: "Work", stages: [Vertex, Fragment], max_sequences: 64, tokens: [Dispatch]),
```

Fix: `stages: [Compute]`."#,
    },
    Rule {
        code: "E0112",
        vuid: vuid!("pTokens-11106"),
        severity: Error,
        title: "a mesh draw in a layout without the Mesh stage",
        explanation: r#"`DrawMeshTasks` and `DrawMeshTasksCount` launch mesh shading, so the layout's `stages` must contain `Mesh`.

```ron
(name: "Meshlets", stages: [Vertex, Fragment], max_sequences: 64, tokens: [DrawMeshTasks]),
```

Fix: `stages: [Task, Mesh, Fragment]` (or `[Mesh, Fragment]`)."#,
    },
    Rule {
        code: "E0113",
        vuid: vuid!("pTokens-11107"),
        severity: Error,
        title: "an NV mesh draw in a layout without the Mesh stage",
        explanation: r#"`DrawMeshTasksNv` and `DrawMeshTasksCountNv` (the VK_NV_mesh_shader commands) need `Mesh` in the layout's stages, like their EXT forms.

```ron
(name: "Meshlets", stages: [Vertex, Fragment], max_sequences: 64, tokens: [DrawMeshTasksNv]),
```

Fix: `stages: [Task, Mesh, Fragment]`."#,
    },
    Rule {
        code: "E0114",
        vuid: vuid!("pTokens-11108"),
        severity: Error,
        title: "a ray-tracing token in a layout without ray tracing stages",
        explanation: r#"`TraceRays2` traces rays, so the layout's `stages` must contain ray tracing stages (`RayGen`, `Miss`, `ClosestHit`, …).

```ron
(name: "Rays", stages: [Compute], max_sequences: 64, tokens: [TraceRays2]),
```

Fix: `stages: [RayGen, Miss, ClosestHit]`."#,
    },
    Rule {
        code: "E0115",
        vuid: vuid!("shaderStages-11109"),
        severity: Error,
        title: "a dispatch or ray trace in a layout with graphics stages",
        explanation: r#"A layout with graphics stages runs graphics pipelines; it cannot contain `Dispatch` or `TraceRays2`. A `Dispatch` with graphics stages is reported as E0111 too (its stages must be exactly `[Compute]`), as the validation layers report both; a `TraceRays2` in a layout that mixes ray tracing and graphics stages gets this code alone.

```ron
(name: "Mixed", stages: [Vertex, RayGen], max_sequences: 64, tokens: [TraceRays2]),
```

Fix: one layout per kind of pipeline."#,
    },
    Rule {
        code: "E0116",
        vuid: vuid!("shaderStages-11110"),
        severity: Error,
        title: "a token that compute layouts do not allow",
        explanation: r#"A layout with the `Compute` stage allows only `ExecutionSet`, `PushConstant`, `SequenceIndex`, the push-data tokens (`PushData`, `PushDataSequenceIndex`) and `Dispatch`. A token that needs graphics stages is reported as E0110 too, as the validation layers report both, when the layout's stages are `[Compute]` alone; with compute and graphics stages mixed, this code comes with the layout's E0118.

```ron
(name: "Mixed", stages: [Compute, Vertex], max_sequences: 64, tokens: [IndexBuffer(mode: Vulkan), Dispatch]),
```

Fix: remove the token, or split the layout."#,
    },
    Rule {
        code: "E0117",
        vuid: vuid!("shaderStages-11111"),
        severity: Error,
        title: "a token that ray-tracing layouts do not allow",
        explanation: r#"A layout with ray tracing stages allows only `ExecutionSet`, `PushConstant`, `SequenceIndex`, the push-data tokens (`PushData`, `PushDataSequenceIndex`) and `TraceRays2`.

```ron
(name: "Mixed", stages: [RayGen, Vertex], max_sequences: 64, tokens: [IndexBuffer(mode: Vulkan), TraceRays2]),
```

Fix: remove the token, or split the layout."#,
    },
    Rule {
        code: "E0118",
        vuid: vuid!("shaderStages-11112"),
        severity: Error,
        title: "the layout's stages mix stage groups",
        explanation: r#"A layout's `stages` come from one group: graphics (`Vertex`, `TessControl`, `TessEval`, `Geometry`, `Fragment`), `Compute`, mesh (`Task`, `Mesh` with `Fragment`) or ray tracing. A layout drives one kind of pipeline.

```ron
(name: "Mixed", stages: [Vertex, Mesh, Fragment], max_sequences: 64, tokens: [DrawMeshTasks]),
```

Fix: keep the stages of one group, here `[Mesh, Fragment]`."#,
    },
    Rule {
        code: "E0119",
        vuid: vuid!("shaderStages-11113"),
        severity: Error,
        title: "Fragment without Vertex or Mesh",
        explanation: r#"A layout with `Fragment` must also have `Vertex` (vertex pipeline) or `Mesh` (mesh pipeline): something has to produce the primitives.

```ron
(name: "Draw", stages: [Fragment], max_sequences: 64, tokens: [Draw]),
```

Fix: `stages: [Vertex, Fragment]`."#,
    },
    Rule {
        code: "E0120",
        vuid: vuid!("shaderStages-requiredbitmask"),
        severity: Error,
        title: "the layout has no stages",
        explanation: r#"`shaderStages` of an indirect-commands layout must not be empty: it says which kind of pipeline the layout runs with.

```ron
(name: "Draw", stages: [], max_sequences: 64, tokens: [Draw]),
```

Fix: list the stages of the pipelines, e.g. `[Vertex, Fragment]`."#,
    },
    Rule {
        code: "E0121",
        vuid: Some("VUID-VkPushConstantRange-stageFlags-requiredbitmask"),
        severity: Error,
        title: "a push-constant range with no stages",
        explanation: r#"Every `VkPushConstantRange` needs at least one stage, both the pipeline's `push_constants` ranges and the ranges of `PushConstant` and `SequenceIndex` tokens. (The spec ignores a token's stages when it updates push constants, but the range must still be valid.)

```ron
PushConstant(name: "object", stages: [], offset: 0, size: 4),
```

Fix: list the stages that read the values, e.g. `[Vertex]`."#,
    },
    Rule {
        code: "E0122",
        vuid: Some("VUID-VkIndirectCommandsExecutionSetTokenEXT-shaderStages-requiredbitmask"),
        severity: Error,
        title: "an execution set with no stages",
        explanation: r#"An `ExecutionSet` token says which stages it binds; an empty list binds nothing.

```ron
ExecutionSet(kind: Pipelines, stages: [], max_entries: 8),
```

Fix: list the stages of the pipelines in the set, e.g. `[Compute]`."#,
    },
    Rule {
        code: "E0123",
        vuid: Some("VUID-VkIndirectCommandsIndexBufferTokenEXT-mode-11135"),
        severity: Error,
        title: "an index buffer's input mode is not exactly one mode",
        explanation: r#"An index buffer token reads either a Vulkan `VkBindIndexBufferIndirectCommandEXT` (`mode: Vulkan`, 0x1) or a D3D12 index buffer view (`mode: Dxgi`, 0x2), never none or both. A description always names one mode, so this appears only for a manifest whose `index_mode` was edited to 0 or 3.

```json
{"name": "indices", "type": "INDEX_BUFFER", "offset": 8, "size": 16, "index_mode": 3}
```

Fix: set `index_mode` to 1 (Vulkan) or 2 (Dxgi)."#,
    },
    Rule {
        code: "E0130",
        vuid: vuid!("pTokens-11103"),
        severity: Error,
        title: "token offsets decrease",
        explanation: r#"Token offsets in the stream record must not decrease in token order. Only pinned offsets (`at: Some(N)`) can break this; dgcc places the others in order. The validation layers skip `SequenceIndex` tokens here because its data is not read; the spec makes no such exception, and neither does dgcc.

```ron
tokens: [
    PushConstant(name: "a", stages: [Vertex], offset: 0, size: 4, at: Some(8)),
    PushConstant(name: "b", stages: [Vertex], offset: 4, size: 4, at: Some(0)), // before a
    Draw(at: Some(12)),
],
```

Fix: order the tokens by offset, or leave `at` out."#,
    },
    Rule {
        code: "E0131",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-offset-11124"),
        severity: Error,
        title: "a token offset exceeds maxIndirectCommandsTokenOffset",
        explanation: r#"A token's offset in the record must be at most `maxIndirectCommandsTokenOffset`: 2047 on most devices and the spec's guaranteed minimum (NVIDIA allows any 32-bit offset). Large push-constant blocks or pinned offsets push later tokens past it.

```ron
PushConstant(name: "big", stages: [Vertex], offset: 0, size: 128),
DrawIndexed(at: Some(2052)),
```

Fix: shrink the tokens before it, or move bulk data into a buffer and push its address."#,
    },
    Rule {
        code: "E0132",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-offset-11125"),
        severity: Error,
        title: "a token offset is not a multiple of 4",
        explanation: r#"Every token's data starts at a multiple of 4 bytes in the record (the alignment the spec requires of every token, whatever its data type). Only pinned offsets can break this.

```ron
DrawIndexed(at: Some(6)),
```

Fix: pin it at a multiple of 4 (here 8), or leave `at` out."#,
    },
    Rule {
        code: "E0124",
        vuid: vuid!("pTokens-11094"),
        severity: Error,
        title: "more than one token pushes the sequence index",
        explanation: r#"Since Vulkan 1.4.340 a layout has at most one token that pushes the sequence index, of either kind: `SequenceIndex` (into push constants) or `PushDataSequenceIndex` (into push data, VK_EXT_descriptor_heap). Two `SequenceIndex` tokens are E0105, which names this VUID too; this code is for the pairs that involve a `PushDataSequenceIndex`.

```ron
tokens: [
    SequenceIndex(stages: [Compute], offset: 0),
    PushDataSequenceIndex(offset: 16),   // a second sequence index
    Dispatch,
],
```

Fix: keep one; both would push the same value."#,
    },
];
