//! Record-time requirements (E09xx): what must hold when an engine records a layout, which
//! the runtime refuses when broken (`crate::requirements`); never found in a description.

use super::Rule;
use crate::severity::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0901",
        vuid: Some("VUID-vkCmdExecuteGeneratedCommandsEXT-indirectCommandsLayout-10769"),
        severity: Error,
        title: "a layout executed on the wrong side of a render pass",
        explanation: "A layout with a draw token must be executed inside a render pass (or dynamic \
rendering), and one without must be executed outside (`…-indirectCommandsLayout-12202`). The \
manifest states it as the requirement `render_pass` (`inside: true` for draw layouts); the \
generated `check_record` and the runtime refuse a recording on the wrong side.\n\nFix: record \
the execute of a draw layout between `vkCmdBeginRendering` and `vkCmdEndRendering`, and any \
other outside.",
    },
    Rule {
        code: "E0902",
        vuid: Some("VUID-vkCmdExecuteGeneratedCommandsEXT-indirectCommandsLayout-11141"),
        severity: Error,
        title: "isPreprocessed does not match the layout's EXPLICIT_PREPROCESS flag",
        explanation: "A layout with `ExplicitPreprocess` must be preprocessed \
(`vkCmdPreprocessGeneratedCommandsEXT`) and then executed with `isPreprocessed = VK_TRUE`; one \
without it must be executed with `VK_FALSE` (`…-isPreprocessed-11047`) and never preprocessed \
(`VUID-vkCmdPreprocessGeneratedCommandsEXT-pGeneratedCommandsInfo-11082`). The manifest's \
requirement `preprocess` says which.\n\nFix: pass `isPreprocessed` as the layout's flag says, or \
change the layout's flags.",
    },
    Rule {
        code: "E0903",
        vuid: Some("VUID-vkCmdExecuteGeneratedCommandsEXT-deviceGeneratedCommandsTransformFeedback-11057"),
        severity: Error,
        title: "transform feedback active where the layout may not run with it",
        explanation: "Transform feedback may be active during an execute only when the device's \
`deviceGeneratedCommandsTransformFeedback` is true, and never with an indirect execution set \
(`…-indirectExecutionSet-11058`). The manifest's requirement `transform_feedback` records whether \
the layout has an execution set.\n\nFix: end transform feedback before the execute, or use a \
layout without an execution set on a device that supports it.",
    },
    Rule {
        code: "E0904",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11079"),
        severity: Error,
        title: "a VERTEX_BUFFER layout with a pipeline that lacks the dynamic binding stride",
        explanation: "A layout with a `VertexBuffer` token sets each binding's stride per \
sequence, so a bound graphics pipeline (not shader objects) must be created with \
`VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE`. The manifest states it as \
`vertex_input_binding_stride`.\n\nFix: add the dynamic state to the pipeline's \
`VkPipelineDynamicStateCreateInfo`.",
    },
    Rule {
        code: "E0905",
        vuid: Some("VUID-VkIndirectExecutionSetPipelineInfoEXT-initialPipeline-11153"),
        severity: Error,
        title: "an execution set whose pipelines or shaders are not indirect-bindable",
        explanation: "The pipelines of a pipeline execution set must be created with \
`VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT`, and the shaders of a shader-object set with \
`VK_SHADER_CREATE_INDIRECT_BINDABLE_BIT_EXT` \
(`VUID-VkIndirectExecutionSetShaderInfoEXT-pInitialShaders-11154`). The manifest's requirement \
`indirect_bindable` says which.\n\nFix: add the flag when creating them.",
    },
    Rule {
        code: "E0906",
        vuid: Some("VUID-VkIndirectExecutionSetPipelineInfoEXT-initialPipeline-11019"),
        severity: Error,
        title: "an execution set with dynamic descriptors",
        explanation: "The initial pipeline of an execution set must not use \
`VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC` or `STORAGE_BUFFER_DYNAMIC` descriptors, nor the set \
layouts of a shader-object set (`VUID-VkIndirectExecutionSetShaderLayoutInfoEXT-pSetLayouts-11024`): \
a sequence cannot supply dynamic offsets. The manifest states it as \
`no_dynamic_descriptors`.\n\nFix: use plain uniform or storage buffers (or buffer device \
addresses).",
    },
    Rule {
        code: "E0907",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11002"),
        severity: Error,
        title: "an execution set's initial stages differ from the token's",
        explanation: "The initial pipeline or shaders of the execution set must have exactly the \
stages of the layout's `ExecutionSet` token (also \
`VUID-VkGeneratedCommandsMemoryRequirementsInfoEXT-indirectCommandsLayout-11151`), and that \
initial state must be bound when executing (`VUID-vkCmdExecuteGeneratedCommandsEXT-indirectCommandsLayout-11053`) \
and preprocessing (`VUID-vkCmdPreprocessGeneratedCommandsEXT-indirectCommandsLayout-11084`). The \
manifest's requirement `initial_shader_stages` gives the stage mask.\n\nFix: create the set from a \
pipeline with the token's stages, or give the token the pipeline's.",
    },
    Rule {
        code: "E0908",
        vuid: Some("VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11065"),
        severity: Error,
        title: "an execution set's pipeline layout lacks a push-constant token's range",
        explanation: "With an execution set, the pipeline layout of its pipelines must hold the \
`updateRange` of every `PushConstant` token and of the `SequenceIndex` token \
(`…-indirectCommandsLayout-11066`), and be compatible with the layout's \
(`…-indirectCommandsLayout-11144`). The manifest's requirement `execution_set_push_constants` lists \
the byte ranges.\n\nFix: create the set's pipelines with the pipeline layout the description's \
push-constant ranges describe.",
    },
    Rule {
        code: "E0909",
        vuid: Some("VUID-vkCmdExecuteGeneratedCommandsEXT-None-11062"),
        severity: Error,
        title: "a layout with an execution set executed in a multiview render pass",
        explanation: "Inside a render pass whose view mask is not 0, an execute must not use an \
indirect execution set. The manifest states it as `no_multiview` for draw layouts with an \
execution set.\n\nFix: use a layout without an execution set for multiview rendering, or render \
the views one by one.",
    },
];
