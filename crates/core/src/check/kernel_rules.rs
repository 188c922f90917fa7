//! Rules on a compute kernel's workgroup and subgroup decision for one target.
//!
//! Why they take the *decision* (`ir::KernelTarget`: required size and stage flags) and not
//! the description's `subgroup:`: the decision is what the pipeline is created with, it is what
//! the manifest stores, and the runtime can check it against the live device before creating
//! the culling pipeline. The description's `Min`/`Max` are resolved per target first
//! (`check::kernel_target`), so "required size 64 is above maxSubgroupSize = 8 on lavapipe"
//! is said about the number the pipeline would really use.
//!
//! Arithmetic on workgroup sizes is wide: AMD reports `maxComputeWorkgroupSubgroups` as
//! 0xFFFFFFFF (so `requiredSubgroupSize × maxComputeWorkgroupSubgroups` needs 64 bits), and
//! `x*y*z` of three u32s needs 96 (`invocations` uses u128).

use super::finding::{Finding, KernelPart, Location};
use super::query::Query;
use crate::device::{Limit, Profile};
use crate::ir::KernelTarget;
use Limit::*;

/// `VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT`.
pub const ALLOW_VARYING: u32 = 0x1;
/// `VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT`.
pub const REQUIRE_FULL: u32 = 0x2;
const COMPUTE: u64 = 0x20;

/// x·y·z without overflow.
pub fn invocations(local_size: [u32; 3]) -> u128 {
    local_size.iter().map(|&v| v as u128).product()
}

fn at(part: KernelPart) -> Location {
    Location::Kernel(part)
}

/// Target-independent: a workgroup dimension of zero.
pub fn kernel_shape_findings(name: &str, local_size: [u32; 3]) -> Vec<Finding> {
    let mut out = vec![];
    for (axis, v) in ["x", "y", "z"].iter().zip(local_size) {
        if v == 0 {
            out.push(
                Finding::new("E0515", at(KernelPart::LocalSize), format!("kernel `{name}` has local_size {axis} = 0"))
                    .label(format!("{axis} = 0"))
                    .note("a workgroup with no invocations cannot run; SPIR-V requires every LocalSize dimension to be at least 1")
                    .help("use 1 for unused dimensions"),
            );
        }
    }
    out
}

/// The rules for one kernel on one target, given the subgroup decision for that target.
pub fn kernel_findings(name: &str, local_size: [u32; 3], decision: &KernelTarget, profile: &Profile) -> Vec<Finding> {
    let mut q = Query::new(profile);
    let mut out = vec![];
    workgroup(&mut q, name, local_size, &mut out);
    subgroup(&mut q, name, local_size, decision, &mut out);
    out.extend(q.missing_findings());
    for f in &mut out {
        f.target.get_or_insert_with(|| profile.name.clone());
    }
    out
}

/// 06429–06431 per dimension, 06432 for the product.
fn workgroup(q: &mut Query, name: &str, local_size: [u32; 3], out: &mut Vec<Finding>) {
    let dims = [
        ("E0511", "x", MaxComputeWorkGroupSizeX),
        ("E0512", "y", MaxComputeWorkGroupSizeY),
        ("E0513", "z", MaxComputeWorkGroupSizeZ),
    ];
    for ((code, axis, limit), v) in dims.into_iter().zip(local_size) {
        if let Some(max) = q.get(limit, "workgroup sizes") {
            if v as u64 > max {
                out.push(
                    Finding::new(
                        code,
                        at(KernelPart::LocalSize),
                        format!("kernel `{name}`: local_size {axis} = {v} exceeds {}", q.show(limit, max)),
                    )
                    .label(format!("{axis} = {v} > {max}"))
                    .help(format!("use at most {max} along {axis}")),
                );
            }
        }
    }
    let product = invocations(local_size);
    if let Some(max) = q.get(MaxComputeWorkGroupInvocations, "workgroup sizes") {
        if product > max as u128 {
            out.push(
                Finding::new(
                    "E0514",
                    at(KernelPart::LocalSize),
                    format!(
                        "kernel `{name}` has {product} invocations per workgroup, more than {}",
                        q.show(MaxComputeWorkGroupInvocations, max)
                    ),
                )
                .label(format!("{} × {} × {} = {product}", local_size[0], local_size[1], local_size[2]))
                .help(format!("use at most {max} invocations, e.g. local_size ({}, 1, 1)", max)),
            );
        }
    }
}

/// 02754–02762, 02784, 02785, and the full-subgroups-under-varying-size warning.
fn subgroup(q: &mut Query, name: &str, local_size: [u32; 3], d: &KernelTarget, out: &mut Vec<Finding>) {
    let x = local_size[0] as u64;
    let varying = d.flags & ALLOW_VARYING != 0;
    let full = d.flags & REQUIRE_FULL != 0;
    let sub = at(KernelPart::Subgroup);
    let t = q.target().to_string();
    if varying && q.flag(SubgroupSizeControl, "varying subgroup sizes") == Some(false) {
        out.push(
            Finding::new(
                "E0510",
                sub,
                format!("kernel `{name}` allows a varying subgroup size, but subgroupSizeControl is false on {t}"),
            )
            .label("ALLOW_VARYING_SUBGROUP_SIZE")
            .help_spelled("use `subgroup: Any` on this target", "use `subgroup any;` on this target"),
        );
    }
    if full && q.flag(ComputeFullSubgroups, "full subgroups") == Some(false) {
        out.push(
            Finding::new("E0509", sub, format!("kernel `{name}` requires full subgroups, but computeFullSubgroups is false on {t}"))
                .label("REQUIRE_FULL_SUBGROUPS")
                .note("kernels are compute shaders, the one stage besides task and mesh where full subgroups may be required (VUID-VkPipelineShaderStageCreateInfo-flags-08988 holds by construction)")
                .help("drop `full`, and do not derive lane indices from gl_LocalInvocationIndex"),
        );
    }
    if let Some(r) = d.required_subgroup_size {
        required(q, name, local_size, r, varying, full, out);
    } else if full {
        if varying {
            if let Some(max) = q.get(MaxSubgroupSize, "full subgroups with a varying size") {
                if max > 0 && !x.is_multiple_of(max) {
                    out.push(
                        Finding::new(
                            "E0507",
                            at(KernelPart::LocalSize),
                            format!(
                                "kernel `{name}`: local_size x = {x} is not a multiple of {}",
                                q.show(MaxSubgroupSize, max)
                            ),
                        )
                        .label(format!("x = {x}"))
                        .related(sub, "full subgroups of varying size")
                        .help(format!("use a multiple of {max} for x")),
                    );
                }
            }
        } else if let Some(size) = q.get(SubgroupSize, "full subgroups") {
            if size > 0 && !x.is_multiple_of(size) {
                out.push(
                    Finding::new(
                        "E0508",
                        at(KernelPart::LocalSize),
                        format!(
                            "kernel `{name}`: local_size x = {x} is not a multiple of the default {}",
                            q.show(SubgroupSize, size)
                        ),
                    )
                    .label(format!("x = {x}"))
                    .related(sub, "full subgroups")
                    .help(format!("use a multiple of {size} for x")),
                );
            } else if let Some(max) = q.get(MaxSubgroupSize, "full subgroups") {
                if max > 0 && !x.is_multiple_of(max) {
                    out.push(
                        Finding::new("W0009", at(KernelPart::LocalSize), format!("kernel `{name}`: full subgroups are guaranteed only if local_size x = {x} is a multiple of {}", q.show(MaxSubgroupSize, max)))
                            .label(format!("x = {x}"))
                            .related(sub, "full subgroups")
                            .note("SPIR-V 1.6 (what Vulkan 1.3 compilers emit) lets the subgroup size vary between minSubgroupSize and maxSubgroupSize; only a multiple of the largest size is full for every choice")
                            .help_spelled(format!("use a multiple of {max} for x, or pin the size with `Required(size: …, full: true)`"), format!("use a multiple of {max} for x, or pin the size with `subgroup required … full;`")),
                    );
                }
            }
        }
    }
}

fn required(
    q: &mut Query,
    name: &str,
    local_size: [u32; 3],
    r: u32,
    varying: bool,
    full: bool,
    out: &mut Vec<Finding>,
) {
    let sub = at(KernelPart::Subgroup);
    let t = q.target().to_string();
    let r64 = r as u64;
    if varying {
        out.push(
            Finding::new(
                "E0516",
                sub,
                format!("kernel `{name}` requires subgroup size {r} and also allows a varying size"),
            )
            .label("required size with ALLOW_VARYING_SUBGROUP_SIZE")
            .help("drop ALLOW_VARYING_SUBGROUP_SIZE: a required size is already fixed"),
        );
    }
    if !r.is_power_of_two() {
        out.push(
            Finding::new("E0501", sub, format!("kernel `{name}`: required subgroup size {r} is not a power of two"))
                .label(format!("{r}"))
                .help_spelled(
                    match r.checked_next_power_of_two() {
                        Some(p) if r > 0 => format!("use {p}, or `size: Min`/`size: Max`"),
                        _ => "use a power of two, or `size: Min`/`size: Max`".to_string(),
                    },
                    match r.checked_next_power_of_two() {
                        Some(p) if r > 0 => format!("use {p}, or `required min`/`required max`"),
                        _ => "use a power of two, or `required min`/`required max`".to_string(),
                    },
                ),
        );
    }
    let min = q.get(MinSubgroupSize, "required subgroup sizes");
    let max = q.get(MaxSubgroupSize, "required subgroup sizes");
    let range = |dgc: bool| match (min, max) {
        (Some(a), Some(b)) => {
            let pick = if dgc { "`required min` or `required max`" } else { "`size: Min` or `size: Max`" };
            format!(" (it supports {a}..={b}; {pick} pick per target)")
        }
        _ => String::new(),
    };
    if let Some(min) = min {
        if r64 < min {
            out.push(
                Finding::new(
                    "E0502",
                    sub,
                    format!("kernel `{name}`: required subgroup size {r} is below {}", q.show(MinSubgroupSize, min)),
                )
                .label(format!("{r} < {min}"))
                .help_by(|dgc| format!("{t} cannot run subgroups of {r}{}", range(dgc))),
            );
        }
    }
    if let Some(max) = max {
        if r64 > max {
            out.push(
                Finding::new(
                    "E0503",
                    sub,
                    format!("kernel `{name}`: required subgroup size {r} exceeds {}", q.show(MaxSubgroupSize, max)),
                )
                .label(format!("{r} > {max}"))
                .help_by(|dgc| format!("{t} cannot run subgroups of {r}{}", range(dgc))),
            );
        }
    }
    let control = q.flag(SubgroupSizeControl, "required subgroup sizes");
    let stages = q.get(RequiredSubgroupSizeStages, "required subgroup sizes");
    if control == Some(false) || stages.is_some_and(|s| s & COMPUTE == 0) {
        let why = if control == Some(false) {
            format!("subgroupSizeControl = false on {t}")
        } else {
            q.show(RequiredSubgroupSizeStages, stages.unwrap_or(0))
        };
        out.push(
            Finding::new("E0504", sub, format!("{t} cannot require a subgroup size for compute shaders"))
                .label(why)
                .help_spelled(
                    "use `subgroup: Any` or `Full` on this target, and read gl_SubgroupSize in the shader",
                    "use `subgroup any;` or `subgroup full;` on this target, and read gl_SubgroupSize in the shader",
                ),
        );
    }
    let product = invocations(local_size);
    if let Some(most) = q.get(MaxComputeWorkgroupSubgroups, "required subgroup sizes") {
        let cap = r64 as u128 * most as u128;
        if product > cap {
            out.push(
                Finding::new(
                    "E0505",
                    at(KernelPart::LocalSize),
                    format!(
                        "kernel `{name}` has {product} invocations, more than subgroup size {r} × {}",
                        q.show(MaxComputeWorkgroupSubgroups, most)
                    ),
                )
                .label(format!("{product} > {cap}"))
                .related(sub, format!("subgroup size {r}"))
                .help(format!("use at most {cap} invocations per workgroup with subgroups of {r}")),
            );
        }
    }
    let x = local_size[0];
    if full && r > 0 && !x.is_multiple_of(r) {
        out.push(
            Finding::new(
                "E0506",
                at(KernelPart::LocalSize),
                format!("kernel `{name}`: local_size x = {x} is not a multiple of the required subgroup size {r}"),
            )
            .label(format!("x = {x}"))
            .related(sub, format!("full subgroups of {r}"))
            .help(format!("use a multiple of {r} for x, e.g. {}", (x as u64).div_ceil(r as u64).max(1) * r as u64)),
        );
    }
}
