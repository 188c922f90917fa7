//! `check`: every rule over a whole description and its targets, as diagnostics with spans.
//!
//! Why it is only glue: each rule lives with the data it needs (`layout_rules`, `push_rules`,
//! `device_rules`, `kernel_rules` on compiled numbers; `names`, `source_rules` on the AST).
//! This file runs them in a fixed order — pipeline, then each layout, then each kernel, each
//! target in the order given — resolves locations to spans, tags target-dependent diagnostics
//! with their target, reports a missing profile value once per target, and sorts the result by
//! position so that output reads top to bottom like the file.

use super::finding::{Finding, KernelPart, Location};
use super::spans::Resolver;
use super::{kernel_rules, names, push_rules, source_rules};
use crate::ast::{Kernel, Pipeline, SubgroupReq, SubgroupSize};
use crate::layout::LaidOut;
use dgcc_core::device::{Limit, MissingValue, Profile};
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::{KernelTarget, PushConstantRange};

/// The subgroup decision for one kernel on one target: the required size (with `Min`/`Max`
/// resolved to the target's values) and the `VkPipelineShaderStageCreateFlags`
/// (0x1 allow varying, 0x2 require full). Errors when the target lacks `minSubgroupSize` or
/// `maxSubgroupSize` and the kernel asks for it (W0012, pointing at the kernel's `subgroup`).
pub fn kernel_target(kernel: &Kernel, profile: &Profile) -> Result<KernelTarget, Box<Diagnostic>> {
    decide(kernel, profile).map_err(|m| {
        Box::new(
            super::query::unknown_value(profile, m.limit, "the kernel's subgroup size")
                .into_diagnostic(|_| kernel.subgroup.span),
        )
    })
}

fn decide(kernel: &Kernel, profile: &Profile) -> Result<KernelTarget, MissingValue> {
    use kernel_rules::{ALLOW_VARYING, REQUIRE_FULL};
    // A requirement profile's subgroup sizes are bounds (its minimum at most, its maximum at
    // least what any matching device has), not a device's size to require.
    let resolve = |limit: Limit| match profile.citation(limit) {
        Some(dgcc_core::device::json::CITE_REQUIREMENT_FILE) => {
            Err(MissingValue { profile: profile.name.clone(), limit })
        }
        _ => profile.get(limit).map(|v| v.min(u32::MAX as u64) as u32),
    };
    Ok(match kernel.subgroup.node {
        SubgroupReq::Any => KernelTarget { required_subgroup_size: None, flags: 0 },
        SubgroupReq::Varying => KernelTarget { required_subgroup_size: None, flags: ALLOW_VARYING },
        SubgroupReq::Full => KernelTarget { required_subgroup_size: None, flags: REQUIRE_FULL },
        SubgroupReq::Required { size, full } => KernelTarget {
            required_subgroup_size: Some(match size {
                SubgroupSize::Fixed(n) => n,
                SubgroupSize::Min => resolve(Limit::MinSubgroupSize)?,
                SubgroupSize::Max => resolve(Limit::MaxSubgroupSize)?,
            }),
            flags: if full { REQUIRE_FULL } else { 0 },
        },
    })
}

/// A record past 4 GiB (E0409) is laid out with the offsets and the stride it cannot express
/// held at `u32::MAX`: findings about those stand-in numbers (E0132 "offset 4294967295 is not
/// a multiple of 4", a stride "4294967295") would describe no byte the user wrote, so they go.
fn drop_clamped(layout: &dgcc_core::ir::CompiledLayout, findings: &mut Vec<Finding>) {
    findings.retain(|f| match f.location {
        Location::Token { index, .. } => layout.tokens.get(index).is_none_or(|t| t.offset != u32::MAX),
        Location::Stride => layout.stride != u32::MAX,
        _ => true,
    });
}

/// The pipeline layout's push-constant ranges as Vulkan sees them.
fn pipeline_ranges(pipeline: &Pipeline) -> Vec<PushConstantRange> {
    pipeline
        .push_constants
        .iter()
        .map(|r| PushConstantRange {
            stages: r.node.stages.mask().0,
            offset: r.node.offset.node,
            size: r.node.size.node,
        })
        .collect()
}

fn emit(findings: Vec<Finding>, r: &Resolver, out: &mut Vec<Diagnostic>) {
    for f in findings {
        let target = f.target.clone();
        let resolver = Resolver { target: target.as_deref(), ..*r };
        out.push(f.into_diagnostic(|l| resolver.span(l)));
    }
}

/// Check a description against its target profiles. `laid` holds the layout engine's result
/// for each of `pipeline.layouts`, in order. Never panics; returns every diagnostic found,
/// sorted by position.
pub fn check(pipeline: &Pipeline, laid: &[LaidOut], profiles: &[Profile]) -> Vec<Diagnostic> {
    let mut out = vec![];
    let ranges = pipeline_ranges(pipeline);
    let top = Resolver::new(pipeline);

    let mut findings = push_rules::pipeline_range_findings(&ranges);
    for p in profiles {
        findings.extend(super::pipeline_target_findings(&ranges, p));
    }
    emit(findings, &top, &mut out);

    for (layout, lo) in pipeline.layouts.iter().zip(laid) {
        let r = Resolver::for_layout(pipeline, layout);
        let mut findings = super::layout_findings(&lo.layout, &ranges);
        source_rules::drop_empty_ranges_of_rejected_fields(&layout.node, &mut findings);
        findings.extend(source_rules::push_field_findings(&layout.node));
        if lo.valid {
            findings.extend(source_rules::stride_findings(&layout.node, &lo.layout));
        }
        findings.extend(source_rules::portability_findings(profiles, &lo.layout));
        for p in profiles {
            findings.extend(super::target_findings(&lo.layout, p));
        }
        drop_clamped(&lo.layout, &mut findings);
        emit(findings, &r, &mut out);
        out.extend(source_rules::unordered_diagnostics(pipeline, layout, &lo.layout));
    }

    for kernel in &pipeline.kernels {
        let r = Resolver::for_kernel(pipeline, kernel);
        let k = &kernel.node;
        let mut findings = kernel_rules::kernel_shape_findings(&k.name.node, k.local_size.node);
        for p in profiles {
            match decide(k, p) {
                Ok(decision) => findings.extend(super::kernel_findings(&k.name.node, k.local_size.node, &decision, p)),
                Err(m) => {
                    // At the kernel's `subgroup`, what needs the value: reported here, once per
                    // value and target (`dedup_missing`), and not again by the manifest.
                    let mut f = super::query::unknown_value(p, m.limit, "the kernel's subgroup size");
                    f.location = Location::Kernel(KernelPart::Subgroup);
                    findings.push(f);
                }
            }
        }
        emit(findings, &r, &mut out);
    }

    out.extend(names::name_diagnostics(pipeline));
    out.extend(names::platform_macro_diagnostics(pipeline, laid));
    out.extend(super::shaders::diagnostics(pipeline));

    dedup_missing(&mut out);
    out.sort_by_key(|d| d.primary_span().map(|s| (s.start, s.end)).unwrap_or((usize::MAX, 0)));
    out
}

/// One W0012 or W0013 per (target, message), wherever it came from.
fn dedup_missing(out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(Option<String>, String)> = vec![];
    out.retain(|d| {
        if d.code != "W0012" && d.code != "W0013" {
            return true;
        }
        let key = (d.target.clone(), d.message.clone());
        let fresh = !seen.contains(&key);
        if fresh {
            seen.push(key);
        }
        fresh
    });
}
