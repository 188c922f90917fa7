//! Rules that compare a compiled layout with one device profile: limits, supported stages and
//! input modes, the feature gates of count, mesh and ray-tracing tokens (and the extension the
//! NV mesh tokens need), push-constant space, vertex bindings and execution sets (with, on an
//! NVIDIA target, the findings of `vendor_rules`: N0002 and W0015).
//!
//! Why this module needs neither the AST nor the compiler feature: the runtime reads a profile
//! from the live device and calls [`device_findings`] before creating anything, so a layout is
//! refused with the same code and message `dgcc check` gives for the same profile. Every
//! finding here names the target and the device value it was compared with
//! ("stride 2064 exceeds maxIndirectCommandsIndirectStride = 2048 on radv"). Values are asked
//! for only when a rule needs them, so a profile lacking `meshShader` is fine until a layout
//! uses a mesh token; then it is reported once (W0012, a warning; an error under `--strict`).

use super::finding::{Finding, Location, RangePart, TokenPart};
use super::layout_rules::{show_in, COMPUTE, GRAPHICS, RAY_TRACING};
use super::query::Query;
use crate::device::{Limit, Profile};
use crate::ir::{CompiledLayout, CompiledToken, ExecutionSet, PushConstantRange, SetFallback, TokenType};
use crate::spell;
use crate::stages::StageMask;
use Limit::*;

/// Every rule for one layout on one device, the device-independent ones included: what the
/// runtime calls before creating the layout. `push_constants` are the pipeline layout's ranges.
/// A loaded manifest may break what the layout engine guarantees, so the stream invariants
/// (stride a multiple of 4, tokens inside the stride; shared bytes are the warning W0011) come
/// first.
pub fn device_findings(
    layout: &CompiledLayout,
    push_constants: &[PushConstantRange],
    profile: &Profile,
) -> Vec<Finding> {
    let mut out = super::invariants::stream_findings(layout);
    out.extend(super::layout_findings(layout, push_constants));
    out.extend(super::push_rules::pipeline_range_findings(push_constants));
    out.extend(pipeline_target_findings(push_constants, profile));
    out.extend(target_findings(layout, profile));
    super::dedup_missing(&mut out);
    out
}

/// Rules on the pipeline as a whole for one target: the pipeline's push-constant ranges against
/// `maxPushConstantsSize` (a target without the DGC feature is checked per layout, against
/// the fallback: `target_findings`).
pub fn pipeline_target_findings(ranges: &[PushConstantRange], profile: &Profile) -> Vec<Finding> {
    let mut q = Query::new(profile);
    let mut out = vec![];
    for (i, r) in ranges.iter().enumerate() {
        let at = |part| Location::PushConstantRange { index: i, part };
        push_space(&mut q, r, at(RangePart::Offset), at(RangePart::Size), "this push-constant range", &mut out);
    }
    out.extend(q.missing_findings());
    for f in &mut out {
        f.target.get_or_insert_with(|| profile.name.clone());
    }
    out
}

/// `offset < maxPushConstantsSize` (00294) and `size ≤ maxPushConstantsSize − offset` (00298).
fn push_space(
    q: &mut Query,
    r: &PushConstantRange,
    at_offset: Location,
    at_size: Location,
    what: &str,
    out: &mut Vec<Finding>,
) {
    let Some(max) = q.get(MaxPushConstantsSize, "push-constant ranges") else { return };
    let (off, end) = (r.offset as u64, r.offset as u64 + r.size as u64);
    if off >= max {
        out.push(
            Finding::new(
                "E0305",
                at_offset,
                format!("{what} starts at byte {off}, past {}", q.show(MaxPushConstantsSize, max)),
            )
            .label(format!("offset {off} ≥ {max}"))
            .help(format!("keep push constants within the first {max} bytes")),
        );
    } else if end > max {
        out.push(
            Finding::new(
                "E0306",
                at_size,
                format!("{what} ends at byte {end}, past {}", q.show(MaxPushConstantsSize, max)),
            )
            .label(format!("bytes {off}..{end}"))
            .help(format!(
                "shrink it to at most {} bytes, or move bulk data into a buffer and push its address",
                max - off
            )),
        );
    }
}

/// The device-dependent rules for one layout on one target.
///
/// On a target without device-generated commands (`deviceGeneratedCommands = false`) no
/// indirect-commands layout is created, so none of those rules apply: what must hold is that
/// the runtime's multi-draw-indirect fallback runs the layout (E0214 names the token that
/// stops it).
pub fn target_findings(layout: &CompiledLayout, profile: &Profile) -> Vec<Finding> {
    if profile.value(DeviceGeneratedCommands) == Some(0) {
        return super::fallback::fallback_findings(layout, profile);
    }
    let mut q = Query::new(profile);
    let mut out = vec![];
    limits(&mut q, layout, &mut out);
    for (i, t) in layout.tokens.iter().enumerate() {
        token(&mut q, layout, i, t, &mut out);
    }
    // Once per layout: its first set (a second one is an error of its own).
    let first_set = layout.tokens.iter().enumerate().find_map(|(i, t)| t.execution_set.as_ref().map(|s| (i, s)));
    if let Some((i, set)) = first_set {
        let unbindable = out.iter().any(|f| f.code == "N0001" || UNBINDABLE.contains(&f.code));
        out.extend(super::vendor_rules::nvidia_set_findings(&q, layout, i, set, unbindable));
    }
    out.extend(super::preprocess::preprocess_finding(layout, profile));
    out.extend(q.missing_findings());
    for f in &mut out {
        f.target.get_or_insert_with(|| profile.name.clone());
    }
    out
}

/// Stride (11090), token count (11092), stages (11091), sequence count (11067/11009).
fn limits(q: &mut Query, layout: &CompiledLayout, out: &mut Vec<Finding>) {
    if let Some(max) = q.get(MaxIndirectCommandsIndirectStride, "the stride") {
        if layout.stride as u64 > max {
            out.push(
                Finding::new(
                    "E0201",
                    Location::Stride,
                    format!("stride {} exceeds {}", layout.stride, q.show(MaxIndirectCommandsIndirectStride, max)),
                )
                .label(format!("{} > {max}", layout.stride))
                .help("shrink the record: fewer or smaller tokens, fewer push-constant bytes, less padding"),
            );
        }
    }
    if let Some(max) = q.get(MaxIndirectCommandsTokenCount, "the number of tokens") {
        let n = layout.tokens.len() as u64;
        if n > max {
            let at = if max < n { Location::token(max as usize, TokenPart::Kind) } else { Location::Layout };
            out.push(
                Finding::new(
                    "E0202",
                    at,
                    format!(
                        "layout `{}` has {n} tokens, more than {}",
                        layout.name,
                        q.show(MaxIndirectCommandsTokenCount, max)
                    ),
                )
                .label(format!("token {} of {n}", max + 1))
                .help("merge push-constant tokens into one with several fields"),
            );
        }
    }
    if layout.shader_stages != 0 {
        if let Some(supported) = q.get(SupportedIndirectCommandsShaderStages, "the layout's stages") {
            let missing = layout.shader_stages & !(supported as u32);
            if missing != 0 {
                out.push(
                    Finding::new_by("E0203", Location::LayoutStages, |dgc| {
                        format!(
                            "{} cannot run {} from generated commands",
                            q.target(),
                            spell::stages(StageMask(missing), dgc)
                        )
                    })
                    .label_by(|dgc| format!("{} unsupported", spell::stages(StageMask(missing), dgc)))
                    .note(q.show(SupportedIndirectCommandsShaderStages, supported))
                    .help("drop the target, or use a pipeline without these stages"),
                );
            }
        }
    }
    if layout.max_sequences > 0 {
        if let Some(max) = q.get(MaxIndirectSequenceCount, "`max_sequences`") {
            if layout.max_sequences as u64 > max {
                out.push(
                    Finding::new_by("E0204", Location::MaxSequences, |dgc| {
                        format!(
                            "`{}` exceeds {}",
                            spell::setting("max_sequences", layout.max_sequences, dgc),
                            q.show(MaxIndirectSequenceCount, max)
                        )
                    })
                    .label(format!("{} > {}", layout.max_sequences, Limit::MaxIndirectSequenceCount.format(max)))
                    .help(format!("lower `max_sequences` to {max} and execute larger streams in several calls")),
                );
            }
        }
    }
}

fn token(q: &mut Query, layout: &CompiledLayout, i: usize, t: &CompiledToken, out: &mut Vec<Finding>) {
    let at = |part| Location::token(i, part);
    if let Some(max) = q.get(MaxIndirectCommandsTokenOffset, "token offsets") {
        if t.offset as u64 > max {
            out.push(
                Finding::new(
                    "E0131",
                    at(TokenPart::Offset),
                    format!(
                        "offset {} of `{}` exceeds {}",
                        t.offset,
                        t.name,
                        q.show(MaxIndirectCommandsTokenOffset, max)
                    ),
                )
                .label(format!("{} > {max}", t.offset))
                .help("move large tokens to the end of the record, or shrink the tokens before it"),
            );
        }
    }
    if let Some(mode) = t.index_mode {
        if let Some(modes) = q.get(SupportedIndirectCommandsInputModes, "index-buffer input modes") {
            if mode as u64 & modes == 0 {
                out.push(
                    Finding::new_by("E0206", at(TokenPart::Mode), |dgc| {
                        format!(
                            "{} does not support index-buffer input mode {}",
                            q.target(),
                            spell::text(&SupportedIndirectCommandsInputModes.format(mode as u64), dgc)
                        )
                    })
                    .label("unsupported mode")
                    .note(q.show(SupportedIndirectCommandsInputModes, modes))
                    .help_spelled(
                        "use `mode: Vulkan`, which every device supports",
                        "use `vulkan`, which every device supports",
                    ),
                );
            }
        }
    }
    if let Some(b) = t.vertex_binding {
        if let Some(max) = q.get(MaxVertexInputBindings, "vertex buffer bindings") {
            if b as u64 >= max {
                out.push(
                    Finding::new(
                        "E0207",
                        at(TokenPart::Binding),
                        format!("vertex binding {b} is not below {}", q.show(MaxVertexInputBindings, max)),
                    )
                    .label(format!("binding {b}"))
                    .note("no pipeline can declare this binding, so the token can never match the bound vertex input")
                    .help(format!("use a binding below {max}")),
                );
            }
        }
    }
    gates(q, i, t, out);
    if t.token_type.is_push_data() {
        push_data(q, i, t, out);
    } else if let Some(r) = &t.push_constant {
        let what = format!("the push-constant range of `{}`", t.name);
        push_space(q, r, at(TokenPart::PushOffset), at(TokenPart::PushSize), &what, out);
    }
    if let Some(set) = &t.execution_set {
        execution_set_findings(q, layout, i, set, out);
    }
}

/// The push-data tokens: the descriptorHeap feature (11332), then the bytes they write
/// against maxPushDataSize (no VUID; E0313).
fn push_data(q: &mut Query, i: usize, t: &CompiledToken, out: &mut Vec<Finding>) {
    match q.flag(DescriptorHeap, "push-data tokens") {
        Some(false) => {
            out.push(
                Finding::new_by("E0216", Location::token(i, TokenPart::Kind), |dgc| {
                    format!("{} needs descriptorHeap, which is false on {}", show_in(t, dgc), q.target())
                })
                .label(format!("descriptorHeap = false on {}", q.target()))
                .note("PUSH_DATA and PUSH_DATA_SEQUENCE_INDEX update the push data of VK_EXT_descriptor_heap")
                .help_spelled(
                "drop the target, or push through `PushConstant` / `SequenceIndex` and a pipeline layout's push-constant ranges there",
                "drop the target, or push through `push_constant` / `sequence_index` and a pipeline layout's push-constant ranges there",
            ),
            );
        }
        Some(true) => {
            let Some(r) = t.push_constant else { return };
            let Some(max) = q.get(MaxPushDataSize, "push-data tokens") else { return };
            let end = r.offset as u64 + r.size as u64;
            if end > max {
                out.push(
                    Finding::new(
                        "E0313",
                        Location::token(i, TokenPart::PushSize),
                        format!(
                            "`{}` writes push-data bytes {}..{end}, past {}",
                            t.name,
                            r.offset,
                            q.show(MaxPushDataSize, max)
                        ),
                    )
                    .label(format!("ends at byte {end}"))
                    .help(format!("keep push data within the first {max} bytes, or push a buffer address instead")),
                );
            }
        }
        None => {}
    }
}

/// Count tokens (11129–11131), mesh tokens (11126), the NV mesh token values (type-parameter),
/// TRACE_RAYS2 (11128).
fn gates(q: &mut Query, i: usize, t: &CompiledToken, out: &mut Vec<Finding>) {
    let at = Location::token(i, TokenPart::Kind);
    let tt = t.token_type;
    let off = |q: &Query, code, limit: Limit, help: &str| {
        Finding::new_by(code, at, |dgc| {
            format!("{} needs {}, which is false on {}", show_in(t, dgc), limit.vk_name(), q.target())
        })
        .label(format!("{} = false on {}", limit.vk_name(), q.target()))
        .help(help)
    };
    let mdi = "multi-draw count tokens";
    if let Some(ext) = ext_form_of_nv_mesh(tt) {
        // Independent of the feature checks below: the layers report each rule a token breaks.
        if q.flag(NvMeshShader, "the NV mesh tokens") == Some(false) {
            out.push(
                Finding::new_by("E0215", at, |dgc| {
                    format!("{} needs VK_NV_mesh_shader, which {} does not have", show_in(t, dgc), q.target())
                })
                .label(format!("VK_NV_mesh_shader = false on {}", q.target()))
                .note("VK_NV_mesh_shader adds the *_NV_EXT token types; the meshShader feature (of VK_EXT_mesh_shader) does not make them valid")
                .help_by(|dgc| format!(
                    "use `{}` (VK_EXT_mesh_shader): its record is three group counts (12 bytes) instead of a task count and first task",
                    spell::word(ext, dgc)
                )),
            );
        }
    }
    if tt.is_mesh() {
        let mesh = q.flag(MeshShader, "mesh-shading tokens");
        let task = q.flag(TaskShader, "mesh-shading tokens");
        if mesh == Some(false) || task == Some(false) {
            let which = if mesh == Some(false) { MeshShader } else { TaskShader };
            out.push(
                off(q, "E0211", which, "drop the target, or draw through the vertex pipeline there")
                    .note("every mesh token needs both the meshShader and the taskShader features"),
            );
            return;
        }
        let code = match tt {
            TokenType::DrawMeshTasksCount => "E0209",
            TokenType::DrawMeshTasksCountNv => "E0210",
            _ => return,
        };
        if q.flag(DeviceGeneratedCommandsMultiDrawIndirectCount, mdi) == Some(false) {
            out.push(
                off(
                    q,
                    code,
                    DeviceGeneratedCommandsMultiDrawIndirectCount,
                    "use `DrawMeshTasks` with one sequence per draw",
                )
                .spelled_for_dgc("use `draw_mesh_tasks` with one sequence per draw"),
            );
        }
    } else if matches!(tt, TokenType::DrawCount | TokenType::DrawIndexedCount) {
        if q.flag(DeviceGeneratedCommandsMultiDrawIndirectCount, mdi) == Some(false) {
            let (plain, dgc) =
                if tt == TokenType::DrawCount { ("Draw", "draw") } else { ("DrawIndexed", "draw_indexed") };
            out.push(
                off(
                    q,
                    "E0208",
                    DeviceGeneratedCommandsMultiDrawIndirectCount,
                    &format!("use `{plain}` with one sequence per draw"),
                )
                .spelled_for_dgc(format!("use `{dgc}` with one sequence per draw")),
            );
        }
    } else if tt == TokenType::TraceRays2 && q.flag(RayTracingMaintenance1, "TraceRays2 tokens") == Some(false) {
        out.push(off(q, "E0212", RayTracingMaintenance1, "drop the target"));
    }
}

/// The EXT token that replaces an NV mesh token, as the description writes it.
fn ext_form_of_nv_mesh(tt: TokenType) -> Option<&'static str> {
    match tt {
        TokenType::DrawMeshTasksNv => Some("DrawMeshTasks"),
        TokenType::DrawMeshTasksCountNv => Some("DrawMeshTasksCount"),
        _ => None,
    }
}

/// The set's rules; with `fallback: Binned`, what the target cannot bind becomes one N0001:
/// the layout runs binned there (the runtime reads the same finding to choose that path).
fn execution_set_findings(
    q: &mut Query,
    layout: &CompiledLayout,
    i: usize,
    set: &ExecutionSet,
    out: &mut Vec<Finding>,
) {
    let mut found = vec![];
    execution_set(q, layout, i, set, &mut found);
    if set.fallback != SetFallback::Binned {
        out.extend(found);
        return;
    }
    let (unbindable, rest): (Vec<Finding>, Vec<Finding>) =
        found.into_iter().partition(|f| UNBINDABLE.contains(&f.code));
    let Some(first) = unbindable.first() else {
        out.extend(rest);
        return;
    };
    // Run binned, the target creates no set, so the set's own size limits do not apply there.
    out.extend(rest.into_iter().filter(|f| !SET_SIZE_LIMITS.contains(&f.code)));
    let mut w = Finding::new(
        "N0001",
        first.location,
        format!(
            "{} cannot bind this execution set: layout `{}` runs binned there, one execute per entry",
            q.target(),
            layout.name
        ),
    )
    .label(first.label.clone())
    .related_by(Location::token(i, TokenPart::Fallback), |dgc| {
        if dgc { "`fallback binned`" } else { "`fallback: Binned`" }.to_string()
    });
    // The label is the first finding's, and so is its `.dgc` spelling.
    w.dgc_spelling.extend(first.dgc_spelling.iter().filter(|(ron, _)| *ron == first.label).cloned());
    for f in &unbindable {
        w = w.note_by(|dgc| format!("{}: {}", f.code, f.text_for(&f.message, dgc)));
    }
    let bound = if set.kind == 0 { "that entry's pipeline" } else { "that entry's shaders" };
    out.push(w.note(format!(
        "the engine bins the stream by its set index and executes the layout without its EXECUTION_SET token once per entry, with {bound} bound"
    )));
}

/// The limits on a set's number of entries (maxIndirectPipelineCount,
/// maxIndirectShaderObjectCount): a target that runs the layout binned has no set to limit.
const SET_SIZE_LIMITS: [&str; 2] = ["E0602", "E0603"];

/// The findings that say a target cannot bind a set's stages at all (not limits).
pub const UNBINDABLE: [&str; 7] = ["E0604", "E0605", "E0606", "E0607", "E0608", "E0609", "E0610"];

/// Execution-set limits (11018, 11022, 11014) and which stages a set can bind (11137,
/// 11015–11017, 11020, 11030).
fn execution_set(q: &mut Query, layout: &CompiledLayout, i: usize, set: &ExecutionSet, out: &mut Vec<Finding>) {
    let at = |part| Location::token(i, part);
    let why = "execution sets";
    let pb = q.get(SupportedIndirectCommandsShaderStagesPipelineBinding, why).map(|v| v as u32);
    let sb = q.get(SupportedIndirectCommandsShaderStagesShaderBinding, why).map(|v| v as u32);
    let spelled = |m: u32, dgc: bool| spell::stages(StageMask(m), dgc);
    if let (Some(pb), Some(sb)) = (pb, sb) {
        let neither = set.stages & !(pb | sb);
        if neither != 0 {
            out.push(
                Finding::new_by("E0605", at(TokenPart::Stages), |dgc| format!("{} cannot bind {} through an execution set", q.target(), spelled(neither, dgc)))
                    .label_by(|dgc| format!("{} not bindable", spelled(neither, dgc)))
                    .note(format!("{}; {}", q.show(SupportedIndirectCommandsShaderStagesPipelineBinding, pb as u64), q.show(SupportedIndirectCommandsShaderStagesShaderBinding, sb as u64)))
                    .note("dgcc checks every stage bit as the spec says; the validation layers only report this when no stage at all is supported")
                    .help_by(|dgc| format!("drop the {} token and bind one pipeline per layout on this target", spell::token(TokenType::ExecutionSet, dgc))),
            );
        }
    }
    if set.kind == 0 {
        if let Some(max) = q.get(MaxIndirectPipelineCount, why) {
            if set.max_entries as u64 > max {
                out.push(
                    Finding::new_by("E0602", at(TokenPart::MaxEntries), |dgc| {
                        format!(
                            "`{}` exceeds {}",
                            spell::parameter("max_entries", set.max_entries, dgc),
                            q.show(MaxIndirectPipelineCount, max)
                        )
                    })
                    .label(format!("{} > {max}", set.max_entries))
                    .help(format!("use at most {max} pipelines per set")),
                );
            }
        }
        let Some(pb) = pb else { return };
        let s = layout.shader_stages;
        let (key, code, point) = if s == COMPUTE {
            (COMPUTE, "E0606", "compute")
        } else if s & RAY_TRACING != 0 {
            (RAY_TRACING, "E0608", "ray tracing")
        } else if s & GRAPHICS != 0 {
            (0x10, "E0607", "graphics")
        } else {
            return;
        };
        let via_shaders = sb.is_some_and(|sb| set.stages & !sb == 0 && set.stages != 0);
        let target = q.target().to_string();
        let help = |dgc: bool| {
            if via_shaders {
                let kind = if dgc { "shader_objects" } else { "kind: ShaderObjects" };
                format!("{target} binds {} through shader objects: use `{kind}`", spelled(set.stages, dgc))
            } else {
                format!(
                    "drop the {} token and bind one pipeline per layout on this target",
                    spell::token(TokenType::ExecutionSet, dgc)
                )
            }
        };
        if pb & key == 0 {
            let needs = |dgc: bool| if key == 0x10 { spell::word("Fragment", dgc) } else { spelled(key, dgc) };
            out.push(
                Finding::new(
                    code,
                    at(TokenPart::SetKind),
                    format!("{} cannot put {point} pipelines in an execution set", q.target()),
                )
                .label_by(|dgc| format!("{point} pipelines need {} in the pipeline binding stages", needs(dgc)))
                .related(at(TokenPart::Stages), "stages of the set")
                .note(q.show(SupportedIndirectCommandsShaderStagesPipelineBinding, pb as u64))
                .help_by(help),
            );
        } else if let Some(sb) = sb {
            let only_shaders = set.stages & !pb & sb;
            if only_shaders != 0 {
                out.push(
                    Finding::new_by("E0610", at(TokenPart::Stages), |dgc| {
                        format!(
                            "{} binds {} only through shader objects, not pipelines",
                            q.target(),
                            spelled(only_shaders, dgc)
                        )
                    })
                    .label_by(|dgc| format!("{} not in the pipeline binding stages", spelled(only_shaders, dgc)))
                    .note(q.show(SupportedIndirectCommandsShaderStagesPipelineBinding, pb as u64))
                    .help_by(help),
                );
            }
        }
    } else {
        let count = q.get(MaxIndirectShaderObjectCount, "shader-object execution sets");
        // The feature is asked for only where the profile states the extension's count (a
        // profile older than the extension gets its one W0013, not a W0012 for shaderObject
        // too) and where the set is used: a set with `fallback: Binned` whose stages the target
        // cannot bind through shaders runs binned there (N0001), without a set (but still with
        // shader objects, E0615).
        let runs_binned = set.fallback == SetFallback::Binned && sb.is_some_and(|sb| set.stages & !sb != 0);
        let feature = match count {
            Some(_) if !runs_binned => q.flag(ShaderObject, "shader-object execution sets"),
            _ => None,
        };
        // Binned, each entry's shaders are bound with vkCmdBindShadersEXT, which needs the
        // shaderObject feature whatever the set's limits say; a device without the feature
        // reports a count of 0, so only there is it asked.
        if runs_binned
            && count == Some(0)
            && q.flag(ShaderObject, "binding a binned set's shader objects") == Some(false)
        {
            out.push(
                Finding::new(
                    "E0615",
                    at(TokenPart::SetKind),
                    format!("{} has no shader objects to bind, in a set or binned", q.target()),
                )
                .label(format!("shaderObject = false on {}", q.target()))
                .related_by(at(TokenPart::Fallback), |dgc| {
                    if dgc { "`fallback binned`" } else { "`fallback: Binned`" }.to_string()
                })
                .note("run binned, the layout binds each entry's shaders with vkCmdBindShadersEXT, which needs the shaderObject feature")
                .help_spelled(
                    "use `kind: Pipelines` on this target (its pipelines can run binned too), or drop the target",
                    "use `pipelines` on this target (its pipelines can run binned too), or drop the target",
                ),
            );
        }
        if feature == Some(false) || count == Some(0) {
            let why = if feature == Some(false) {
                "the shaderObject feature is off".to_string()
            } else {
                q.show(MaxIndirectShaderObjectCount, 0)
            };
            out.push(
                Finding::new(
                    "E0604",
                    at(TokenPart::SetKind),
                    format!("{} has no shader-object execution sets", q.target()),
                )
                .label(why)
                .help_spelled("use `kind: Pipelines` on this target", "use `pipelines` on this target"),
            );
        } else if let Some(max) = count {
            if set.max_entries as u64 > max {
                out.push(
                    Finding::new_by("E0603", at(TokenPart::MaxEntries), |dgc| {
                        format!(
                            "`{}` exceeds {}",
                            spell::parameter("max_entries", set.max_entries, dgc),
                            q.show(MaxIndirectShaderObjectCount, max)
                        )
                    })
                    .label(format!("{} > {max}", set.max_entries))
                    .help(format!("use at most {max} shaders per set")),
                );
            }
        }
        if let (Some(pb), Some(sb)) = (pb, sb) {
            let only_pipelines = set.stages & !sb & pb;
            if only_pipelines != 0 {
                out.push(
                    Finding::new_by("E0609", at(TokenPart::Stages), |dgc| {
                        format!(
                            "{} binds {} only through pipelines, not shader objects",
                            q.target(),
                            spelled(only_pipelines, dgc)
                        )
                    })
                    .label_by(|dgc| format!("{} not in the shader binding stages", spelled(only_pipelines, dgc)))
                    .note(q.show(SupportedIndirectCommandsShaderStagesShaderBinding, sb as u64))
                    .help_spelled("use `kind: Pipelines` on this target", "use `pipelines` on this target"),
                );
            }
        }
    }
}
