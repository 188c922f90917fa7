//! The record-time rules as a layout's requirements: what must hold when an engine records a
//! layout, which no description or profile can decide but which follows from the layout.
//!
//! Why a list in the manifest: about twenty VUIDs of `vkCmdExecuteGeneratedCommandsEXT`,
//! `vkCmdPreprocessGeneratedCommandsEXT`, `VkGeneratedCommandsInfoEXT` and the execution-set
//! create infos depend on the pipeline, the render pass and the command buffer the engine
//! records with. dgcc cannot check them offline, but it knows from the layout which of them
//! apply and with which values (a draw layout executes inside a render pass, an execution set's
//! initial pipeline has the token's stages…). [`requirements_of`] derives them once; the
//! manifest carries them (`requirements`), the generated Rust and C expose them as checks an
//! engine can call (debug assertions), and the runtime refuses a recording that breaks one.
//!
//! Families (each one code, E0901–E0909, and its VUIDs):
//! - `render_pass` (10769, 12202): inside a render pass with a draw token, outside without.
//! - `preprocess` (11141, 11047, 11082): `isPreprocessed` exactly when the layout has
//!   `EXPLICIT_PREPROCESS`, and only such a layout preprocessed.
//! - `transform_feedback` (11057, 11058): transform feedback active only where the device's
//!   `deviceGeneratedCommandsTransformFeedback` is true, and never with an execution set.
//! - `vertex_input_binding_stride` (11079): with a VERTEX_BUFFER token and a pipeline, the
//!   pipeline has `VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE`.
//! - `indirect_bindable` (11153, 11154): the execution set's pipelines or shaders were created
//!   indirect-bindable.
//! - `no_dynamic_descriptors` (11019, 11024): the execution set's layouts have no dynamic
//!   descriptors.
//! - `initial_shader_stages` (11002, 11151, 11053, 11084): the execution set's initial
//!   pipeline or shaders have exactly the token's stages, and are bound when recording.
//! - `execution_set_push_constants` (11065, 11066, 11144): the execution set's pipeline layout
//!   holds every push-constant token's range.
//! - `no_multiview` (11062): with an execution set, a render pass with view mask 0.
//!
//! [`RecordState`] is what the engine knows; `None` is "not known", which no requirement is
//! checked against, so an engine states what it can.

pub use crate::ir::Requirement;
use crate::ir::{CompiledLayout, PushConstantRange, TokenType};

/// `VK_INDIRECT_COMMANDS_LAYOUT_USAGE_EXPLICIT_PREPROCESS_BIT_EXT`.
pub(crate) const EXPLICIT_PREPROCESS: u32 = 0x1;

/// What an engine knows when it records a layout. Each `None` is unknown and not checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordState {
    /// The execute is recorded inside a render pass (or dynamic rendering).
    pub inside_render_pass: Option<bool>,
    /// `isPreprocessed`, and whether a preprocess is recorded for it.
    pub is_preprocessed: Option<bool>,
    /// Transform feedback is active at the execute.
    pub transform_feedback_active: Option<bool>,
    /// The device's `deviceGeneratedCommandsTransformFeedback`.
    pub dgc_transform_feedback: Option<bool>,
    /// Shader objects (not a pipeline) are bound.
    pub shader_objects_bound: Option<bool>,
    /// The bound pipeline has `VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE`.
    pub vertex_input_binding_stride_dynamic: Option<bool>,
    /// The execution set's pipelines (or shaders) were created indirect-bindable.
    pub indirect_bindable: Option<bool>,
    /// The execution set's pipeline or set layouts have dynamic descriptors.
    pub dynamic_descriptors: Option<bool>,
    /// The stages of the execution set's initial pipeline or shaders (bound when recording).
    pub initial_stages: Option<u32>,
    /// The push-constant ranges of the execution set's pipeline layout.
    pub execution_set_push_constants: Option<Vec<PushConstantRange>>,
    /// The render pass's view mask.
    pub view_mask: Option<u32>,
}

impl Requirement {
    /// The registry code a broken requirement is refused with.
    pub fn code(&self) -> &'static str {
        match self {
            Requirement::RenderPass { .. } => "E0901",
            Requirement::Preprocess { .. } => "E0902",
            Requirement::TransformFeedback { .. } => "E0903",
            Requirement::VertexInputBindingStride => "E0904",
            Requirement::IndirectBindable { .. } => "E0905",
            Requirement::NoDynamicDescriptors { .. } => "E0906",
            Requirement::InitialShaderStages { .. } => "E0907",
            Requirement::ExecutionSetPushConstants { .. } => "E0908",
            Requirement::NoMultiview => "E0909",
        }
    }

    /// The manifest's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Requirement::RenderPass { .. } => "render_pass",
            Requirement::Preprocess { .. } => "preprocess",
            Requirement::TransformFeedback { .. } => "transform_feedback",
            Requirement::VertexInputBindingStride => "vertex_input_binding_stride",
            Requirement::IndirectBindable { .. } => "indirect_bindable",
            Requirement::NoDynamicDescriptors { .. } => "no_dynamic_descriptors",
            Requirement::InitialShaderStages { .. } => "initial_shader_stages",
            Requirement::ExecutionSetPushConstants { .. } => "execution_set_push_constants",
            Requirement::NoMultiview => "no_multiview",
        }
    }

    /// The VUIDs the requirement stands for.
    pub fn vuids(&self) -> &'static [&'static str] {
        match self {
            Requirement::RenderPass { inside: true } => {
                &["VUID-vkCmdExecuteGeneratedCommandsEXT-indirectCommandsLayout-10769"]
            }
            Requirement::RenderPass { inside: false } => {
                &["VUID-vkCmdExecuteGeneratedCommandsEXT-indirectCommandsLayout-12202"]
            }
            Requirement::Preprocess { .. } => &[
                "VUID-vkCmdExecuteGeneratedCommandsEXT-indirectCommandsLayout-11141",
                "VUID-vkCmdExecuteGeneratedCommandsEXT-isPreprocessed-11047",
                "VUID-vkCmdPreprocessGeneratedCommandsEXT-pGeneratedCommandsInfo-11082",
            ],
            Requirement::TransformFeedback { .. } => &[
                "VUID-vkCmdExecuteGeneratedCommandsEXT-deviceGeneratedCommandsTransformFeedback-11057",
                "VUID-vkCmdExecuteGeneratedCommandsEXT-indirectExecutionSet-11058",
            ],
            Requirement::VertexInputBindingStride => &["VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11079"],
            Requirement::IndirectBindable { shader_objects: false } => {
                &["VUID-VkIndirectExecutionSetPipelineInfoEXT-initialPipeline-11153"]
            }
            Requirement::IndirectBindable { shader_objects: true } => {
                &["VUID-VkIndirectExecutionSetShaderInfoEXT-pInitialShaders-11154"]
            }
            Requirement::NoDynamicDescriptors { shader_objects: false } => {
                &["VUID-VkIndirectExecutionSetPipelineInfoEXT-initialPipeline-11019"]
            }
            Requirement::NoDynamicDescriptors { shader_objects: true } => {
                &["VUID-VkIndirectExecutionSetShaderLayoutInfoEXT-pSetLayouts-11024"]
            }
            Requirement::InitialShaderStages { .. } => &[
                "VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11002",
                "VUID-VkGeneratedCommandsMemoryRequirementsInfoEXT-indirectCommandsLayout-11151",
                "VUID-vkCmdExecuteGeneratedCommandsEXT-indirectCommandsLayout-11053",
                "VUID-vkCmdPreprocessGeneratedCommandsEXT-indirectCommandsLayout-11084",
            ],
            Requirement::ExecutionSetPushConstants { .. } => &[
                "VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11065",
                "VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11066",
                "VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11144",
            ],
            Requirement::NoMultiview => &["VUID-vkCmdExecuteGeneratedCommandsEXT-None-11062"],
        }
    }

    /// What must hold, in words.
    pub fn describe(&self) -> String {
        match self {
            Requirement::RenderPass { inside: true } => "execute inside a render pass (the layout draws)".into(),
            Requirement::RenderPass { inside: false } => "execute outside a render pass (the layout does not draw)".into(),
            Requirement::Preprocess { explicit: true } => {
                "preprocess first and execute with isPreprocessed = VK_TRUE (the layout has EXPLICIT_PREPROCESS)".into()
            }
            Requirement::Preprocess { explicit: false } => {
                "execute with isPreprocessed = VK_FALSE and never preprocess (the layout has no EXPLICIT_PREPROCESS)".into()
            }
            Requirement::TransformFeedback { execution_set: true } => {
                "transform feedback is not active (the layout has an execution set)".into()
            }
            Requirement::TransformFeedback { execution_set: false } => {
                "transform feedback is active only where deviceGeneratedCommandsTransformFeedback is true".into()
            }
            Requirement::VertexInputBindingStride => {
                "a bound pipeline has VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE (the layout has a VERTEX_BUFFER token)".into()
            }
            Requirement::IndirectBindable { shader_objects: false } => {
                "the execution set's pipelines are created with VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT".into()
            }
            Requirement::IndirectBindable { shader_objects: true } => {
                "the execution set's shaders are created with VK_SHADER_CREATE_INDIRECT_BINDABLE_BIT_EXT".into()
            }
            Requirement::NoDynamicDescriptors { shader_objects: false } => {
                "the execution set's initial pipeline uses no dynamic uniform or storage buffer descriptors".into()
            }
            Requirement::NoDynamicDescriptors { shader_objects: true } => {
                "the execution set's descriptor set layouts have no dynamic uniform or storage buffer descriptors".into()
            }
            Requirement::InitialShaderStages { stages } => format!(
                "the execution set's initial pipeline or shaders have exactly the stages {} and are bound when recording",
                crate::stages::StageMask(*stages).describe()
            ),
            Requirement::ExecutionSetPushConstants { ranges } => format!(
                "the execution set's pipeline layout holds the push-constant bytes {}",
                ranges.iter().map(|r| format!("{}..{}", r.offset, r.offset as u64 + r.size as u64)).collect::<Vec<_>>().join(", ")
            ),
            Requirement::NoMultiview => "the render pass has view mask 0 (the layout has an execution set)".into(),
        }
    }

    /// `Err(why)` when `state` breaks the requirement; `Ok` when it holds or is not known.
    pub fn check(&self, state: &RecordState) -> Result<(), String> {
        let broken = |why: String| Err(format!("{}: {why}", self.describe()));
        match self {
            Requirement::RenderPass { inside } => match state.inside_render_pass {
                Some(v) if v != *inside => broken(if v {
                    "recorded inside a render pass".into()
                } else {
                    "recorded outside a render pass".into()
                }),
                _ => Ok(()),
            },
            Requirement::Preprocess { explicit } => match state.is_preprocessed {
                Some(v) if v != *explicit => {
                    broken(format!("isPreprocessed is {}", if v { "VK_TRUE" } else { "VK_FALSE" }))
                }
                _ => Ok(()),
            },
            Requirement::TransformFeedback { execution_set } => {
                if state.transform_feedback_active != Some(true) {
                    return Ok(());
                }
                if *execution_set {
                    broken("transform feedback is active".into())
                } else if state.dgc_transform_feedback == Some(false) {
                    broken("transform feedback is active and deviceGeneratedCommandsTransformFeedback is false".into())
                } else {
                    Ok(())
                }
            }
            Requirement::VertexInputBindingStride => {
                match (state.shader_objects_bound, state.vertex_input_binding_stride_dynamic) {
                    (Some(true), _) => Ok(()),
                    (_, Some(false)) => broken("the pipeline does not have that dynamic state".into()),
                    _ => Ok(()),
                }
            }
            Requirement::IndirectBindable { .. } => match state.indirect_bindable {
                Some(false) => broken("they are not".into()),
                _ => Ok(()),
            },
            Requirement::NoDynamicDescriptors { .. } => match state.dynamic_descriptors {
                Some(true) => broken("it has some".into()),
                _ => Ok(()),
            },
            Requirement::InitialShaderStages { stages } => match state.initial_stages {
                Some(s) if s != *stages => broken(format!("they are {}", crate::stages::StageMask(s).describe())),
                _ => Ok(()),
            },
            Requirement::ExecutionSetPushConstants { ranges } => {
                let Some(have) = &state.execution_set_push_constants else { return Ok(()) };
                let held = |r: &PushConstantRange| {
                    (r.offset..r.offset.saturating_add(r.size))
                        .all(|b| have.iter().any(|h| h.offset <= b && (b as u64) < h.offset as u64 + h.size as u64))
                };
                match ranges.iter().find(|r| !held(r)) {
                    Some(r) => broken(format!(
                        "bytes {}..{} are in none of its ranges",
                        r.offset,
                        r.offset as u64 + r.size as u64
                    )),
                    None => Ok(()),
                }
            }
            Requirement::NoMultiview => match (state.inside_render_pass, state.view_mask) {
                (Some(false), _) => Ok(()),
                (_, Some(m)) if m != 0 => broken(format!("the view mask is {m:#x}")),
                _ => Ok(()),
            },
        }
    }
}

/// The requirements that follow from `layout`, in a fixed order (the families of the module
/// doc that apply).
pub fn requirements_of(layout: &CompiledLayout) -> Vec<Requirement> {
    let draws = layout.action().is_some_and(|a| a.token_type.is_vertex_draw() || a.token_type.is_mesh());
    let set = layout.tokens.iter().find_map(|t| t.execution_set);
    let mut out = vec![
        Requirement::RenderPass { inside: draws },
        Requirement::Preprocess { explicit: layout.flags & EXPLICIT_PREPROCESS != 0 },
        Requirement::TransformFeedback { execution_set: set.is_some() },
    ];
    if layout.tokens.iter().any(|t| t.token_type == TokenType::VertexBuffer) {
        out.push(Requirement::VertexInputBindingStride);
    }
    if let Some(es) = set {
        let shader_objects = es.kind == 1;
        out.push(Requirement::IndirectBindable { shader_objects });
        out.push(Requirement::NoDynamicDescriptors { shader_objects });
        out.push(Requirement::InitialShaderStages { stages: es.stages });
        let ranges: Vec<PushConstantRange> = layout
            .tokens
            .iter()
            .filter(|t| matches!(t.token_type, TokenType::PushConstant | TokenType::SequenceIndex))
            .filter_map(|t| t.push_constant)
            .collect();
        if !ranges.is_empty() {
            out.push(Requirement::ExecutionSetPushConstants { ranges });
        }
        if draws {
            out.push(Requirement::NoMultiview);
        }
    }
    out
}

/// Every requirement `state` breaks, as (requirement, why).
pub fn broken<'a>(requirements: &'a [Requirement], state: &RecordState) -> Vec<(&'a Requirement, String)> {
    requirements.iter().filter_map(|r| r.check(state).err().map(|why| (r, why))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Manifest;

    /// A push constant, an execution set of pipelines, a vertex buffer and a draw; flags 0.
    fn layout(tokens: &str, flags: u32) -> CompiledLayout {
        let json = format!(
            r#"{{"schema_version": 1, "pipeline": "p", "push_constants": [], "layouts": [{{"name": "L",
            "stride": 64, "shader_stages": 17, "flags": {flags}, "max_sequences": 1, "glsl_layout": "std430",
            "record_align": 4, "tokens": [{tokens}], "record": []}}]}}"#
        );
        Manifest::from_json(&json).expect("the test manifest parses").layouts.remove(0)
    }
    const SET: &str = r#"{"name": "set", "type": "EXECUTION_SET", "type_value": 0, "offset": 0, "size": 4,
        "execution_set": {"kind": 0, "stages": 17, "max_entries": 4}}"#;
    const PC: &str = r#"{"name": "o", "type": "PUSH_CONSTANT", "type_value": 1, "offset": 4, "size": 8,
        "push_constant": {"stages": 1, "offset": 0, "size": 8}}"#;
    const VB: &str =
        r#"{"name": "vb", "type": "VERTEX_BUFFER", "type_value": 4, "offset": 12, "size": 16, "vertex_binding": 0}"#;
    const DRAW: &str = r#"{"name": "d", "type": "DRAW", "type_value": 6, "offset": 28, "size": 16}"#;
    const DISPATCH: &str = r#"{"name": "d", "type": "DISPATCH", "type_value": 9, "offset": 0, "size": 12}"#;

    fn full() -> Vec<Requirement> {
        requirements_of(&layout(&format!("{SET}, {PC}, {VB}, {DRAW}"), 0))
    }

    fn one(state: RecordState) -> Vec<&'static str> {
        broken(&full(), &state).iter().map(|(r, _)| r.code()).collect()
    }

    #[test]
    fn a_full_layout_has_every_family_and_an_unknown_state_breaks_none() {
        let kinds: Vec<&str> = full().iter().map(Requirement::kind).collect();
        assert_eq!(
            kinds,
            [
                "render_pass",
                "preprocess",
                "transform_feedback",
                "vertex_input_binding_stride",
                "indirect_bindable",
                "no_dynamic_descriptors",
                "initial_shader_stages",
                "execution_set_push_constants",
                "no_multiview"
            ]
        );
        assert_eq!(one(RecordState::default()), Vec::<&str>::new());
        // A dispatch layout without an execution set: outside a render pass, and nothing else.
        let d = requirements_of(&layout(DISPATCH, 0x1));
        assert_eq!(
            d,
            [
                Requirement::RenderPass { inside: false },
                Requirement::Preprocess { explicit: true },
                Requirement::TransformFeedback { execution_set: false }
            ]
        );
    }

    #[test]
    fn render_pass() {
        assert_eq!(one(RecordState { inside_render_pass: Some(false), ..Default::default() }), ["E0901"]);
        assert_eq!(one(RecordState { inside_render_pass: Some(true), ..Default::default() }), Vec::<&str>::new());
    }

    #[test]
    fn preprocess() {
        assert_eq!(one(RecordState { is_preprocessed: Some(true), ..Default::default() }), ["E0902"]);
        let explicit = requirements_of(&layout(DISPATCH, 0x1));
        assert_eq!(broken(&explicit, &RecordState { is_preprocessed: Some(false), ..Default::default() }).len(), 1);
    }

    #[test]
    fn transform_feedback() {
        // With an execution set never; without one only where the device allows it.
        assert_eq!(one(RecordState { transform_feedback_active: Some(true), ..Default::default() }), ["E0903"]);
        let plain = requirements_of(&layout(DISPATCH, 0));
        let tf = |dev| RecordState {
            transform_feedback_active: Some(true),
            dgc_transform_feedback: dev,
            ..Default::default()
        };
        assert_eq!(broken(&plain, &tf(Some(false))).len(), 1);
        assert_eq!(broken(&plain, &tf(Some(true))).len(), 0);
    }

    #[test]
    fn vertex_input_binding_stride() {
        let s = |bound| RecordState {
            vertex_input_binding_stride_dynamic: Some(false),
            shader_objects_bound: bound,
            ..Default::default()
        };
        assert_eq!(one(s(None)), ["E0904"]);
        assert_eq!(one(s(Some(true))), Vec::<&str>::new(), "11079 is for pipelines, not shader objects");
    }

    #[test]
    fn indirect_bindable_and_dynamic_descriptors() {
        assert_eq!(one(RecordState { indirect_bindable: Some(false), ..Default::default() }), ["E0905"]);
        assert_eq!(one(RecordState { dynamic_descriptors: Some(true), ..Default::default() }), ["E0906"]);
    }

    #[test]
    fn initial_shader_stages() {
        assert_eq!(one(RecordState { initial_stages: Some(0x11), ..Default::default() }), Vec::<&str>::new());
        let all = full();
        let (_, why) = &broken(&all, &RecordState { initial_stages: Some(0x1), ..Default::default() })[0];
        assert!(why.contains("Vertex | Fragment") && why.contains("they are Vertex"), "{why}");
    }

    #[test]
    fn execution_set_push_constants() {
        let have = |ranges: Vec<PushConstantRange>| RecordState {
            execution_set_push_constants: Some(ranges),
            ..Default::default()
        };
        assert_eq!(one(have(vec![PushConstantRange { stages: 1, offset: 0, size: 4 }])), ["E0908"]);
        assert_eq!(
            one(have(vec![
                PushConstantRange { stages: 1, offset: 0, size: 4 },
                PushConstantRange { stages: 16, offset: 4, size: 4 }
            ])),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn no_multiview() {
        assert_eq!(one(RecordState { view_mask: Some(0b11), ..Default::default() }), ["E0909"]);
        assert_eq!(one(RecordState { view_mask: Some(0), ..Default::default() }), Vec::<&str>::new());
    }

    #[test]
    fn requirements_round_trip_through_json() {
        let r = full();
        let text = serde_json::to_string(&r).expect("serializes");
        assert!(text.contains(r#"{"kind":"render_pass","inside":true}"#), "{text}");
        assert_eq!(serde_json::from_str::<Vec<Requirement>>(&text).expect("parses"), r);
    }
}
