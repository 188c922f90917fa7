//! E06xx: indirect execution sets — how many entries, and which stages a target can bind.

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[
    Rule {
        code: "E0601",
        vuid: Some("VUID-VkIndirectExecutionSetPipelineInfoEXT-maxPipelineCount-11018"),
        severity: Error,
        title: "a pipeline execution set with max_entries 0",
        explanation: r#"A pipeline execution set holds at least one pipeline (`maxPipelineCount ≥ 1`): index 0 is the initial pipeline that every other one is validated against.

```ron
ExecutionSet(kind: Pipelines, stages: [Compute], max_entries: 0),
```

Fix: the number of pipelines the stream chooses from."#,
    },
    Rule {
        code: "E0602",
        vuid: Some("VUID-VkIndirectExecutionSetPipelineInfoEXT-maxPipelineCount-11018"),
        severity: Error,
        title: "max_entries exceeds maxIndirectPipelineCount",
        explanation: r#"A pipeline execution set holds at most `maxIndirectPipelineCount` pipelines: 4096 is guaranteed (and what lavapipe and radv offer), 16384 on NVIDIA.

```ron
ExecutionSet(kind: Pipelines, stages: [Compute], max_entries: 5000),
```

Fix: at most 4096 for portable sets; group materials so fewer pipelines are needed."#,
    },
    Rule {
        code: "E0603",
        vuid: Some("VUID-VkIndirectExecutionSetShaderInfoEXT-maxShaderCount-11022"),
        severity: Error,
        title: "max_entries exceeds maxIndirectShaderObjectCount",
        explanation: r#"A shader-object execution set holds at most `maxIndirectShaderObjectCount` shaders (4096 when shader objects are supported at all).

```ron
ExecutionSet(kind: ShaderObjects, stages: [Compute], max_entries: 5000),
```

Fix: fewer shaders per set."#,
    },
    Rule {
        code: "E0604",
        vuid: Some("VUID-VkIndirectExecutionSetCreateInfoEXT-maxIndirectShaderObjectCount-11014"),
        severity: Error,
        title: "shader-object execution sets on a target without them",
        explanation: r#"`kind: ShaderObjects` needs the `shaderObject` feature and a non-zero `maxIndirectShaderObjectCount`. The spec allows a device to offer neither (the `minimum` profile).

```ron
// targets: ["minimum"]
ExecutionSet(kind: ShaderObjects, stages: [Compute], max_entries: 8),
```

Fix: `kind: Pipelines` on such targets."#,
    },
    Rule {
        code: "E0605",
        vuid: Some("VUID-VkIndirectCommandsExecutionSetTokenEXT-shaderStages-11137"),
        severity: Error,
        title: "the target cannot bind these stages through an execution set",
        explanation: r#"Each stage of an `ExecutionSet` token must be in the target's `supportedIndirectCommandsShaderStagesPipelineBinding` or `…ShaderBinding`. Both may be empty by the spec; radv binds only `Compute`. dgcc checks every stage bit, as the spec states; the validation layers are weaker and only report a token none of whose stages is supported.

```ron
// targets: ["radv"]
ExecutionSet(kind: Pipelines, stages: [Vertex, Fragment], max_entries: 8),
```

Fix: on such targets, drop the `ExecutionSet` and use one layout (and one execute) per pipeline."#,
    },
    Rule {
        code: "E0606",
        vuid: Some(
            "VUID-VkIndirectExecutionSetPipelineInfoEXT-supportedIndirectCommandsShaderStagesPipelineBinding-11015",
        ),
        severity: Error,
        title: "the target cannot put compute pipelines in an execution set",
        explanation: r#"A pipeline execution set for a compute layout holds compute pipelines, which needs `Compute` in the target's `supportedIndirectCommandsShaderStagesPipelineBinding`. The spec guarantees nothing there: the `minimum` profile has no pipeline binding at all.

```ron
// targets: ["minimum"]
ExecutionSet(kind: Pipelines, stages: [Compute], max_entries: 8),
```

Fix: one layout per pipeline on such targets."#,
    },
    Rule {
        code: "E0607",
        vuid: Some(
            "VUID-VkIndirectExecutionSetPipelineInfoEXT-supportedIndirectCommandsShaderStagesPipelineBinding-11016",
        ),
        severity: Error,
        title: "the target cannot put graphics pipelines in an execution set",
        explanation: r#"A pipeline execution set for a graphics (or mesh) layout holds graphics pipelines, which needs `Fragment` in the target's `supportedIndirectCommandsShaderStagesPipelineBinding`. radv binds only compute pipelines this way, so switching materials per draw with an execution set fails there.

```ron
// targets: ["radv"]
(name: "Materials", stages: [Vertex, Fragment], max_sequences: 1024, tokens: [
    ExecutionSet(kind: Pipelines, stages: [Vertex, Fragment], max_entries: 16),
    Draw,
]),
```

Fix: sort draws by pipeline and execute one layout per pipeline; where the target binds the stages through shader objects, `kind: ShaderObjects` works."#,
    },
    Rule {
        code: "E0608",
        vuid: Some(
            "VUID-VkIndirectExecutionSetPipelineInfoEXT-supportedIndirectCommandsShaderStagesPipelineBinding-11017",
        ),
        severity: Error,
        title: "the target cannot put ray-tracing pipelines in an execution set",
        explanation: r#"A pipeline execution set for a ray-tracing layout needs ray tracing stages in the target's `supportedIndirectCommandsShaderStagesPipelineBinding`.

```ron
// a target whose supportedIndirectCommandsShaderStagesPipelineBinding lacks ray tracing stages
ExecutionSet(kind: Pipelines, stages: [RayGen, Miss, ClosestHit], max_entries: 8),
```

Fix: one layout per ray-tracing pipeline on such targets."#,
    },
    Rule {
        code: "E0609",
        vuid: Some("VUID-VkIndirectExecutionSetShaderInfoEXT-pInitialShaders-11020"),
        severity: Error,
        title: "the target binds these stages through pipelines only, not shader objects",
        explanation: r#"Every shader of a shader-object execution set must have a stage in the target's `supportedIndirectCommandsShaderStagesShaderBinding`. When a stage is only in the pipeline binding stages, the set must hold pipelines.

```ron
// a target whose ShaderBinding stages lack Compute but whose PipelineBinding stages have it
ExecutionSet(kind: ShaderObjects, stages: [Compute], max_entries: 8),
```

Fix: `kind: Pipelines` on such targets."#,
    },
    Rule {
        code: "E0610",
        vuid: Some("VUID-VkWriteIndirectExecutionSetPipelineEXT-pipeline-11030"),
        severity: Error,
        title: "the target binds these stages through shader objects only, not pipelines",
        explanation: r#"Every pipeline written into a pipeline execution set must have only stages in the target's `supportedIndirectCommandsShaderStagesPipelineBinding`. When some stages of the set are only in the shader binding stages, pipelines with them cannot be written.

```ron
// a target that binds Fragment through pipelines but Vertex only through shader objects
ExecutionSet(kind: Pipelines, stages: [Vertex, Fragment], max_entries: 16),
```

Fix: `kind: ShaderObjects` on such targets."#,
    },
    Rule {
        code: "E0611",
        vuid: Some("VUID-VkIndirectExecutionSetShaderInfoEXT-maxShaderCount-11021"),
        severity: Error,
        title: "a shader-object execution set with max_entries 0",
        explanation: r#"A shader-object execution set holds at least one shader (`maxShaderCount ≠ 0`).

```ron
ExecutionSet(kind: ShaderObjects, stages: [Compute], max_entries: 0),
```

Fix: the number of shaders the stream chooses from."#,
    },
    Rule {
        code: "E0612",
        vuid: Some("VUID-VkIndirectExecutionSetShaderInfoEXT-maxShaderCount-11036"),
        severity: Error,
        title: "a shader-object execution set holds fewer shaders than it has stages",
        explanation: r#"A shader-object execution set is created with one initial shader per stage of its token (`shaderCount`, one per bit of `stages`, each stage once: `VUID-VkIndirectExecutionSetShaderInfoEXT-stage-11023`), and `maxShaderCount` must be at least `shaderCount`. So `max_entries` of a set with `stages: [Vertex, Fragment]` is at least 2: the set holds a vertex and a fragment shader before the stream chooses among them. Zero is E0611.

```ron
ExecutionSet(kind: ShaderObjects, stages: [Vertex, Fragment], max_entries: 1),
```

Fix: `max_entries` of at least the number of stages (here 2), counting every shader the stream may pick."#,
    },
    Rule {
        code: "E0613",
        vuid: None,
        severity: Error,
        title: "an execution set binds a stage its layout does not run",
        explanation: r#"A layout's `stages` are the stages its sequences run (`VkIndirectCommandsLayoutCreateInfoEXT::shaderStages`), and an `ExecutionSet` token's `stages` are the stages each entry replaces. The set's initial pipeline or shaders have exactly the token's stages (`VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11002`) and are bound at every execute (`…-11053`), so a set with a stage outside its layout's can never execute: a compute layout whose set holds graphics pipelines binds them before a dispatch. No creation-time rule names this, and the layout is created without complaint; dgcc reports it where it is written.

```ron
// layout stages: [Compute]
ExecutionSet(kind: Pipelines, stages: [Vertex, Fragment], max_entries: 8),
```

Fix: the set's stages within the layout's (a compute layout's set is `[Compute]`), or the missing stages added to the layout."#,
    },
    Rule {
        code: "E0614",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11002"),
        severity: Error,
        title: "a pipeline execution set of a graphics layout without a Vertex or Mesh stage",
        explanation: r#"The set's initial pipeline must have exactly the stages of the `ExecutionSet` token, and every graphics pipeline has a vertex or a mesh shader (`VUID-VkGraphicsPipelineCreateInfo-stage-02096`). So a pipeline set listing only `[Fragment]` can hold no pipeline at all. A set that changes only the fragment shader between sequences is what shader objects are for: a shader-object set replaces exactly the stages it lists.

```ron
// layout stages: [Vertex, Fragment]
ExecutionSet(kind: Pipelines, stages: [Fragment], max_entries: 8),
```

Fix: list every stage of the set's pipelines (`[Vertex, Fragment]`), or `kind: ShaderObjects` to swap only the fragment shader."#,
    },
    Rule {
        code: "E0615",
        vuid: Some("VUID-vkCmdBindShadersEXT-None-08462"),
        severity: Error,
        title: "a binned shader-object execution set on a target without shader objects",
        explanation: r#"`fallback: Binned` runs a layout whose execution set a target cannot bind as one execute per set entry, with that entry's shaders bound (N0001). For a shader-object set that binding is `vkCmdBindShadersEXT`, which needs the `shaderObject` feature: a target without it can run the set neither way. (A target whose `maxIndirectShaderObjectCount` is 0 but that has shader objects runs it binned.)

```ron
// targets: ["minimum"] (shaderObject false)
ExecutionSet(kind: ShaderObjects, stages: [Vertex, Fragment], max_entries: 8, fallback: Binned),
```

Fix: `kind: Pipelines` on such targets (pipelines run binned everywhere), or drop the target."#,
    },
];
