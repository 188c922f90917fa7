//! The differential check: `dgcc check` against VK_LAYER_KHRONOS_validation, layout by layout,
//! on the live device.
//!
//! For every description (the examples and every failing test input), dgcc compiles it with the
//! live device's probed profile as the only target, and the same layouts — built from the layout
//! engine's output, which exists for invalid layouts too — go to `vkCreateIndirectCommandsLayoutEXT`
//! under the layer. Two rules must hold: every layout VUID the layer reports is reported by dgcc
//! too (bar the known divergences of the layer from the spec), and every layout dgcc accepts
//! creates without a message.
//!
//! Why a dry run: a layout dgcc rejects may be one the driver cannot survive, and the layer only
//! stops a call when it finds an error (the messenger answers errors with VK_TRUE). So such a
//! layout never goes to the driver as is. The layer checks a create call in groups and stops
//! after the first group that found an error (seen with 1.4.309): the generated parameter
//! checks, the hand-written stateless checks (skipped when the generated ones failed), object
//! lifetimes, then the core checks. The dry run therefore carries a sentinel error that only
//! the last group reports, and that every layout draws:
//! - a NULL pipeline layout, with the description's ranges chained as `VkPipelineLayoutCreateInfo`
//!   instead (the core checks compare push tokens with those as with a pipeline layout's), on a
//!   device without `dynamicGeneratedPipelineLayout`: each push token then draws
//!   `-pTokens-11101`;
//! - a layout without push tokens gets a SEQUENCE_INDEX token for it, placed where no rule
//!   notices it (before the action token; never in front of an EXECUTION_SET token at index 0).
//!
//! With 11101 among the errors, every earlier group passed and the rest are the core verdict;
//! without it, the call stopped in an earlier group and its errors are that group's verdict
//! (unless only the dry run's own token caused them: then the layout is undetermined). A layout
//! dgcc rejects that draws nothing but the sentinel is "dgcc stricter", classified below. A dry
//! run the layer did not stop would have reached the driver: the test stops at once.

use super::ext_dgc::{
    self as x, ExecutionSetToken, IndexBufferToken, LayoutCreateInfo, LayoutFns, LayoutToken, VertexBufferToken,
};
use super::{Message, Validated};
use ash::vk;
use dgcc::ir::{CompiledLayout, TokenType};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The dry run's sentinel.
pub const CORE_SENTINEL: &str = "VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11101";
const TOKEN_COUNT: &str = "VUID-VkIndirectCommandsLayoutCreateInfoEXT-tokenCount-11092";

/// The VUID prefixes of the calls that create a layout (and its pipeline layout).
const CREATION: [&str; 9] = [
    "VUID-VkIndirectCommandsLayoutCreateInfoEXT-",
    "VUID-VkIndirectCommandsLayoutTokenEXT-",
    "VUID-VkIndirectCommandsPushConstantTokenEXT-",
    "VUID-VkIndirectCommandsIndexBufferTokenEXT-",
    "VUID-VkIndirectCommandsVertexBufferTokenEXT-",
    "VUID-VkIndirectCommandsExecutionSetTokenEXT-",
    "VUID-vkCreateIndirectCommandsLayoutEXT-",
    "VUID-VkPushConstantRange-",
    "VUID-VkPipelineLayoutCreateInfo-",
];

/// Every description to compare: `examples/**/*.ron` and `tests/check/err/*.ron`, sorted.
pub fn inputs(repo: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>, recurse: bool) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() && recurse {
                walk(&p, out, true);
            } else if p.extension().is_some_and(|x| x == "ron") {
                out.push(p);
            }
        }
    }
    let mut out = vec![];
    walk(&repo.join("examples"), &mut out, true);
    walk(&repo.join("tests/check/err"), &mut out, false);
    out.sort();
    out
}

/// What the layer made of one layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layer {
    /// dgcc accepted it; created on the device without a message.
    Created,
    /// The layer rejected it (with these error VUIDs), for real or in the dry run.
    Rejected(BTreeSet<String>),
    /// dgcc rejected it and the dry run drew nothing but the sentinel: not sent to the driver.
    Silent,
    /// The dry run could not show the layer's verdict (why).
    Undetermined(String),
    /// No create info can be built from the layout engine's output (why).
    NotBuilt(String),
}

/// One layout's comparison.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub file: String,
    pub layout: String,
    /// dgcc's error codes for this layout (its own and the pipeline's).
    pub dgcc_errors: Vec<&'static str>,
    pub layer: Layer,
    /// Layer VUIDs dgcc did not report, not explained by a known divergence (and, for a layout
    /// both accepted, any message at all).
    pub missed: Vec<String>,
    /// Misses listed in `tests/vvl/open.txt` (moved out of `missed` by the test).
    pub open: Vec<String>,
    /// Whether any dgcc error has a VUID of the layout-creation calls (the part of dgcc's
    /// verdict the layer can judge).
    pub dgcc_rejects_creation: bool,
    /// Layer VUIDs dgcc did not report, explained by a known divergence: (VUID, which).
    pub divergences: Vec<(String, &'static str)>,
    /// dgcc findings whose VUID the layer did not report: (code, category).
    pub dgcc_only: Vec<(&'static str, &'static str)>,
}

impl Outcome {
    pub fn dgcc_rejects(&self) -> bool {
        !self.dgcc_errors.is_empty()
    }
    /// Compared: both verdicts are known.
    pub fn compared(&self) -> bool {
        !matches!(self.layer, Layer::Undetermined(_) | Layer::NotBuilt(_))
    }
    /// Same verdict and nothing missed.
    pub fn agrees(&self) -> bool {
        self.agrees_on(self.dgcc_rejects())
    }
    /// The same, counting only dgcc's errors whose VUID the layer checks at layout creation.
    pub fn agrees_on_creation(&self) -> bool {
        self.agrees_on(self.dgcc_rejects_creation)
    }
    fn agrees_on(&self, dgcc_rejects: bool) -> bool {
        let layer_rejects = matches!(self.layer, Layer::Rejected(_));
        self.compared() && dgcc_rejects == layer_rejects && self.missed.is_empty() && self.open.is_empty()
    }
}

/// The create info's token data, kept alive for the calls.
struct Built {
    ranges: Vec<vk::PushConstantRange>,
    vertex: Vec<VertexBufferToken>,
    index: Vec<IndexBufferToken>,
    sets: Vec<ExecutionSetToken>,
    sentinel_range: vk::PushConstantRange,
}

impl Built {
    fn new(l: &CompiledLayout) -> Result<Built, String> {
        let stages = if l.shader_stages == 0 {
            vk::ShaderStageFlags::VERTEX
        } else {
            vk::ShaderStageFlags::from_raw(l.shader_stages)
        };
        let mut b = Built {
            ranges: vec![],
            vertex: vec![],
            index: vec![],
            sets: vec![],
            sentinel_range: vk::PushConstantRange { stage_flags: stages, offset: 0, size: 4 },
        };
        for t in &l.tokens {
            let missing = |what: &str| format!("token `{}` has no {what}", t.name);
            match t.token_type {
                TokenType::PushConstant | TokenType::SequenceIndex => {
                    let r = t.push_constant.ok_or_else(|| missing("push-constant range"))?;
                    b.ranges.push(vk::PushConstantRange {
                        stage_flags: vk::ShaderStageFlags::from_raw(r.stages),
                        offset: r.offset,
                        size: r.size,
                    });
                }
                TokenType::VertexBuffer => b.vertex.push(VertexBufferToken {
                    vertex_binding_unit: t.vertex_binding.ok_or_else(|| missing("binding"))?,
                }),
                TokenType::IndexBuffer => {
                    b.index.push(IndexBufferToken { mode: t.index_mode.ok_or_else(|| missing("index mode"))? })
                }
                TokenType::ExecutionSet => {
                    let s = t.execution_set.ok_or_else(|| missing("execution set"))?;
                    b.sets.push(ExecutionSetToken {
                        ty: s.kind as i32,
                        shader_stages: vk::ShaderStageFlags::from_raw(s.stages),
                    });
                }
                _ => {}
            }
        }
        Ok(b)
    }

    /// The tokens, pointing into `self`.
    fn tokens(&self, l: &CompiledLayout) -> Vec<LayoutToken> {
        let (mut p, mut v, mut i, mut s) = (0, 0, 0, 0);
        let next = |n: &mut usize| {
            *n += 1;
            *n - 1
        };
        l.tokens
            .iter()
            .map(|t| {
                let data: *const std::ffi::c_void = match t.token_type {
                    TokenType::PushConstant | TokenType::SequenceIndex => {
                        (&self.ranges[next(&mut p)] as *const vk::PushConstantRange).cast()
                    }
                    TokenType::VertexBuffer => (&self.vertex[next(&mut v)] as *const VertexBufferToken).cast(),
                    TokenType::IndexBuffer => (&self.index[next(&mut i)] as *const IndexBufferToken).cast(),
                    TokenType::ExecutionSet => (&self.sets[next(&mut s)] as *const ExecutionSetToken).cast(),
                    _ => std::ptr::null(),
                };
                LayoutToken::new(t.type_value as i32, data, t.offset)
            })
            .collect()
    }

    /// The dry run's tokens: a SEQUENCE_INDEX token added when none draws 11101 by itself, before
    /// the last token (the action-last rule looks at the last one) unless that would move an
    /// EXECUTION_SET token off index 0 (the execution-set-first rule).
    fn dry_run_tokens(&self, l: &CompiledLayout) -> Vec<LayoutToken> {
        let mut tokens = self.tokens(l);
        let pushes =
            l.tokens.iter().any(|t| matches!(t.token_type, TokenType::PushConstant | TokenType::SequenceIndex));
        if !pushes {
            let sentinel = LayoutToken::new(
                x::TOKEN_SEQUENCE_INDEX,
                (&self.sentinel_range as *const vk::PushConstantRange).cast(),
                0,
            );
            let n = tokens.len();
            let at = if n == 1 && tokens[0].token_type == x::TOKEN_EXECUTION_SET { 1 } else { n.saturating_sub(1) };
            tokens.insert(at, sentinel);
        }
        tokens
    }
}

/// Errors only, as VUIDs.
fn error_ids(messages: &[Message]) -> BTreeSet<String> {
    messages
        .iter()
        .filter(|m| m.severity == vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        .map(|m| m.id_name.clone())
        .collect()
}

/// The device under the layer, and its layout entry points.
pub struct Device<'a> {
    pub ctx: &'a Validated,
    pub fns: LayoutFns,
    /// `maxIndirectCommandsTokenCount` (the dry run's added token may cross it).
    pub max_tokens: u64,
}

impl Device<'_> {
    fn call(&self, info: &LayoutCreateInfo) -> (vk::Result, Vec<Message>) {
        self.ctx.take_messages();
        let r = self.fns.create_and_destroy(info);
        (r, self.ctx.take_messages())
    }

    /// The dry run: the layer's verdict without the driver, or `Err` when only the dry run's own
    /// token made the layer stop before the core checks.
    fn dry_run(
        &self,
        l: &CompiledLayout,
        b: &Built,
        ranges: &[vk::PushConstantRange],
    ) -> Result<BTreeSet<String>, String> {
        let tokens = b.dry_run_tokens(l);
        let chained = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(ranges);
        let mut info = LayoutCreateInfo::new(
            vk::ShaderStageFlags::from_raw(l.shader_stages),
            l.stride,
            vk::PipelineLayout::null(),
            &tokens,
        );
        info.flags = l.flags;
        info.p_next = (&chained as *const vk::PipelineLayoutCreateInfo).cast();
        let (r, messages) = self.call(&info);
        let mut ids = error_ids(&messages);
        // A dry run the layer did not stop reached the driver: stop everything.
        assert!(
            r == vk::Result::ERROR_VALIDATION_FAILED_EXT,
            "layout `{}`: the dry run reached the driver ({r:?}, {ids:?}); nothing more is sent",
            l.name
        );
        if ids.remove(CORE_SENTINEL) {
            return Ok(ids);
        }
        // Stopped before the core checks. The added token can only matter through the token
        // count; a chained range the generated checks reject was rejected at vkCreatePipelineLayout.
        let added = tokens.len() > l.tokens.len();
        if added && l.tokens.len() as u64 >= self.max_tokens && ids.contains(TOKEN_COUNT) {
            return Err(format!("the dry run's SEQUENCE_INDEX token put the layout over the token limit ({ids:?})"));
        }
        Ok(ids)
    }

    /// The real call, for a layout dgcc accepts: created and destroyed when the layer is silent.
    fn create(&self, l: &CompiledLayout, b: &Built, pl: vk::PipelineLayout) -> (vk::Result, Vec<Message>) {
        let tokens = b.tokens(l);
        let mut info = LayoutCreateInfo::new(vk::ShaderStageFlags::from_raw(l.shader_stages), l.stride, pl, &tokens);
        info.flags = l.flags;
        self.call(&info)
    }

    /// Check that the sentinel stops valid layouts (with and without push tokens) in the layer
    /// and that the real call creates them silently; else say why nothing can be compared safely.
    pub fn self_check(&self) -> Result<(), String> {
        let compute = vk::ShaderStageFlags::COMPUTE;
        let range = [vk::PushConstantRange { stage_flags: compute, offset: 0, size: 4 }];
        let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&range);
        // SAFETY: valid device and create info.
        let pl = unsafe { self.ctx.device.create_pipeline_layout(&info, None) }
            .map_err(|e| format!("vkCreatePipelineLayout: {e}"))?;
        let layout = dispatch_layout();
        let result = (|| {
            let b = Built::new(&layout)?;
            let dry = self.dry_run(&layout, &b, &range)?;
            let (r, m) = self.create(&layout, &b, pl);
            if !dry.is_empty() || r != vk::Result::SUCCESS || !m.is_empty() {
                return Err(format!("a valid layout drew {dry:?} in the dry run, then {r:?} {m:?}"));
            }
            let mut bare = layout.clone();
            bare.tokens.remove(0);
            let bb = Built::new(&bare)?;
            match self.dry_run(&bare, &bb, &[]) {
                Ok(ids) if ids.is_empty() => Ok(()),
                other => Err(format!("the SEQUENCE_INDEX sentinel on a bare dispatch gave {other:?}")),
            }
        })();
        // SAFETY: not in use.
        unsafe { self.ctx.device.destroy_pipeline_layout(pl, None) };
        result
    }
}

/// `[PUSH_CONSTANT u32 @0][DISPATCH @4]`, stride 16, compute: valid on every device.
fn dispatch_layout() -> CompiledLayout {
    let text = "Pipeline(name: \"s\", push_constants: [(stages: [Compute], offset: 0, size: 4)], layouts: [(name: \"L\", stages: [Compute], max_sequences: 16, stride: Some(16), tokens: [PushConstant(name: \"v\", stages: [Compute], offset: 0, fields: [(name: \"x\", ty: U32)]), Dispatch(name: \"d\")])])";
    let c = dgcc::driver::compile_source(Path::new("self_check.ron"), text, &Default::default());
    c.laid.into_iter().next().expect("the self-check layout parses").layout
}

/// Compare every layout of one description; `None` when it does not parse. `target` is the
/// probe JSON's path.
pub fn compare_file(dev: &Device<'_>, path: &Path, target: &Path, repo: &Path) -> Option<Vec<Outcome>> {
    let text = std::fs::read_to_string(path).ok()?;
    // Kernel sources are not read (`check_kernels` off): their findings concern pipeline
    // creation, which this comparison does not make, and would only mask layout verdicts.
    let options = dgcc::driver::Options { targets: vec![target.display().to_string()], ..Default::default() };
    let c = dgcc::driver::compile_source(path, &text, &options);
    let pipeline = c.pipeline.as_ref()?;
    let file = path.strip_prefix(repo).unwrap_or(path).display().to_string();
    // Each diagnostic belongs to the layout whose text holds its primary span; the rest
    // (push-constant ranges, kernels, the pipeline) belong to every layout.
    let owner = |d: &dgcc::diag::Diagnostic| {
        let s = d.primary_span()?;
        pipeline.layouts.iter().position(|l| l.span.start <= s.start && s.end <= l.span.end)
    };
    let ranges: Vec<vk::PushConstantRange> = pipeline
        .push_constants
        .iter()
        .map(|r| vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::from_raw(r.node.stages.mask().0),
            offset: r.node.offset.node,
            size: r.node.size.node,
        })
        .collect();
    // The pipeline layout, as an application creates it first.
    dev.ctx.take_messages();
    let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
    // SAFETY: valid device; invalid ranges are stopped by the layer (the messenger answers VK_TRUE).
    let pl = unsafe { dev.ctx.device.create_pipeline_layout(&info, None) }.ok();
    let pl_messages = dev.ctx.take_messages();
    let pl_errors = error_ids(&pl_messages);
    let mut out = vec![];
    for (i, laid) in c.laid.iter().enumerate() {
        let l = &laid.layout;
        let mine: Vec<&dgcc::diag::Diagnostic> =
            c.diagnostics.iter().filter(|d| owner(d).is_none_or(|o| o == i)).collect();
        let dgcc_errors: Vec<&'static str> = mine.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
        // A rule's every VUID counts: its own and those it also enforces (`Rule::also`).
        let vuids_of = |code: &str| dgcc::rules::lookup(code).map(|r| r.vuids()).unwrap_or_default();
        let dgcc_vuids: BTreeSet<&str> = mine.iter().flat_map(|d| vuids_of(d.code)).collect();
        let dgcc_rejects_creation = mine
            .iter()
            .filter(|d| d.is_error())
            .flat_map(|d| vuids_of(d.code))
            .any(|v| CREATION.iter().any(|p| v.starts_with(p)));
        let mut messages = pl_messages.clone();
        // A record past 4 GiB (E0409) has no 32-bit offsets or stride: the layout engine holds
        // them at u32::MAX, and what the layer says of those stand-ins is about no layout the
        // description wrote.
        let past_4_gib = laid.ends.iter().any(|&end| end > u32::MAX as u64);
        let built = if past_4_gib {
            Err("the record runs past 4 GiB (E0409): no create info holds its offsets".to_string())
        } else {
            Built::new(l)
        };
        let layer = match built {
            Err(why) => Layer::NotBuilt(why),
            Ok(b) => match pl {
                Some(pl) if dgcc_errors.is_empty() => {
                    let (r, m) = dev.create(l, &b, pl);
                    let ids = error_ids(&m);
                    messages.extend(m);
                    if r == vk::Result::SUCCESS && ids.is_empty() {
                        Layer::Created
                    } else {
                        Layer::Rejected(ids)
                    }
                }
                _ => match dev.dry_run(l, &b, &ranges) {
                    Err(why) => Layer::Undetermined(why),
                    Ok(ids) if ids.is_empty() && pl_errors.is_empty() => Layer::Silent,
                    Ok(ids) => Layer::Rejected(ids.into_iter().chain(pl_errors.iter().cloned()).collect()),
                },
            },
        };
        let layer_ids: BTreeSet<String> = match &layer {
            Layer::Rejected(ids) => ids.clone(),
            _ => pl_errors.clone(),
        };
        let mut missed = vec![];
        let mut divergences = vec![];
        for id in layer_ids.iter().filter(|id| !dgcc_vuids.contains(id.as_str())) {
            match known_divergence(id, l) {
                Some(why) => divergences.push((id.clone(), why)),
                None => missed.push(id.clone()),
            }
        }
        if layer == Layer::Created {
            // Accepted by both: a warning is a disagreement too.
            missed.extend(messages.iter().map(|m| format!("{} ({:?})", m.id_name, m.severity)));
        }
        let layer_rejected = matches!(layer, Layer::Rejected(_));
        let dgcc_only = mine
            .iter()
            .filter(|d| d.is_error())
            .filter(|d| !vuids_of(d.code).iter().any(|v| layer_ids.contains(*v)))
            .map(|d| (d.code, category(d.code, l, layer_rejected)))
            .collect();
        out.push(Outcome {
            file: file.clone(),
            layout: l.name.clone(),
            dgcc_errors,
            layer,
            missed,
            open: vec![],
            dgcc_rejects_creation,
            divergences,
            dgcc_only,
        });
    }
    if let Some(pl) = pl {
        // SAFETY: no layout uses it any more.
        unsafe { dev.ctx.device.destroy_pipeline_layout(pl, None) };
    }
    Some(out)
}

/// A layer VUID dgcc does not report that vk-ext-dgc.md §3 lists as the layer diverging from
/// the spec; `None` for a real miss.
fn known_divergence(id: &str, l: &CompiledLayout) -> Option<&'static str> {
    let count = |tt: TokenType| l.tokens.iter().filter(|t| t.token_type == tt).count();
    match id {
        "VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11094" if count(TokenType::IndexBuffer) > 1 => {
            Some("11094 for a second INDEX_BUFFER token: the layer keeps the rule's old meaning")
        }
        "VUID-VkIndirectCommandsExecutionSetTokenEXT-shaderStages-11137"
            if l.tokens.iter().any(|t| t.execution_set.is_some_and(|s| s.stages == 0)) =>
        {
            Some("11137 on an empty stage mask: the layer fails when no stage is supported, which an empty mask satisfies vacuously in the spec")
        }
        "VUID-VkIndirectCommandsPushConstantTokenEXT-updateRange-11132" => {
            Some("11132: the layer matches the token's range with the pipeline layout's ranges by stage and order, which the spec does not")
        }
        _ => None,
    }
}

/// Why dgcc reports `code` while the layer (whose verdict on the layout is `layer_rejected`)
/// did not report its VUID.
pub fn category(code: &str, l: &CompiledLayout, layer_rejected: bool) -> &'static str {
    let Some(vuid) = dgcc::rules::lookup(code).and_then(|r| r.vuid) else {
        return "dgcc rule with no VUID (layout engine, names, input)";
    };
    let has_sequence_index = l.tokens.iter().any(|t| t.token_type == TokenType::SequenceIndex);
    let ends = |n: &str| vuid.ends_with(n);
    if !CREATION.iter().any(|p| vuid.starts_with(p)) {
        "VUID of another call (execute, execution sets, pipelines): not checked at layout creation"
    } else if ends("-11137") {
        "layer gap (§3): 11137 fails only when no stage is supported"
    } else if has_sequence_index && (ends("-11103") || ends("-11124") || ends("-11125")) {
        "layer gap (§3): SEQUENCE_INDEX offsets are exempt from 11103/11124/11125"
    } else if ends("-11132") {
        "layer gap (§3): 11132 matched by stage and order"
    } else if vuid.starts_with("VUID-VkPushConstantRange-") && !layer_rejected {
        "layer gap: VkPushConstantRange's own rules are checked at vkCreatePipelineLayout, not on a token's updateRange"
    } else if ends("-11134") {
        "layer gap: 11134 is unimplementable at layout creation"
    } else if layer_rejected {
        "hidden or weaker: the layer rejected the layout for other VUIDs (it stops at its first failing check group)"
    } else {
        "unexplained: a layout-creation VUID the layer did not report"
    }
}
