//! Notes about one vendor's driver: what the spec allows but a driver is known to mishandle.
//!
//! Why a rule that reads the vendor rather than a limit: NVIDIA's driver (580.159.04, measured
//! on an H100, the crash first seen on an H200; book/src/measured/h100-execution-sets.md)
//! breaks two things about execution sets of compute pipelines that no device value
//! announces. dgcc's runtime works around both on every device whose `vendorID` is NVIDIA's;
//! an engine that makes its own sets from dgcc's layouts has to do the same, so `dgcc check`
//! says so, once per layout and target (N0002, a note: never a failure). A profile that does
//! not state its vendor gets no note.
//!
//! The same driver draws a set of graphics pipelines far slower when the layout is preprocessed
//! explicitly (W0015: some 22 ms more per frame of the city at 2560 × 1440, measured on an H100
//! and an H200; book/src/measured/h100-explicit-set.md), which implicit preprocessing avoids at
//! no cost: a warning, since the description chose the slow form.

use super::finding::{Finding, Location, TokenPart};
use super::layout_rules::{COMPUTE, GRAPHICS};
use super::query::Query;
use crate::device::{vendor, Limit};
use crate::ir::{CompiledLayout, ExecutionSet};
use crate::requirements::EXPLICIT_PREPROCESS;
use crate::spell;
use crate::stages::StageMask;

/// N0002 and W0015 for `layout`'s execution set (token `i`) on `q`'s target, where the target
/// is an NVIDIA device. None for a set the target cannot bind at all (`unbindable`): it runs
/// binned there (N0001), without the set, or not at all.
pub fn nvidia_set_findings(
    q: &Query,
    layout: &CompiledLayout,
    i: usize,
    set: &ExecutionSet,
    unbindable: bool,
) -> Vec<Finding> {
    if unbindable || !q.profile.is_vendor(vendor::NVIDIA) {
        return vec![];
    }
    nvidia_compute_set(q, layout, i, set).into_iter().chain(nvidia_explicit_pipeline_set(q, layout, i, set)).collect()
}

/// N0002, if the set holds compute pipelines or shaders.
fn nvidia_compute_set(q: &Query, layout: &CompiledLayout, i: usize, set: &ExecutionSet) -> Option<Finding> {
    if set.stages & COMPUTE == 0 {
        return None;
    }
    let target = q.target();
    let pipelines = set.kind == 0;
    let what = if pipelines { "compute pipeline" } else { "compute shader object" };
    let message = if pipelines {
        format!(
            "{target} needs every entry of layout `{}`'s execution set written, and each {what} in one entry only",
            layout.name
        )
    } else {
        format!("{target} needs each {what} of layout `{}`'s execution set in one entry only", layout.name)
    };
    let mut f = Finding::new("N0002", Location::token(i, TokenPart::Stages), message)
        .label_by(|dgc| format!("{} on an NVIDIA device", spell::stages(StageMask(COMPUTE), dgc)))
        .note(q.show(Limit::VendorId, u64::from(vendor::NVIDIA)));
    if pipelines {
        f = f.note("NVIDIA's driver (580.159.04) segfaults while recording an execute through a set of compute pipelines with an entry never written, even one no sequence selects");
    }
    f = f.note(format!("a {what} written into two entries runs only from the entry written last: a sequence that selects the other entry hangs the GPU, and no validation message says so"));
    Some(if pipelines {
        f.note("dgcc's runtime does both: `create_execution_set` writes the initial pipeline into every entry, entry 0 last, and `write_execution_set` refuses a pipeline another entry holds")
            .help("in an engine that writes its own sets, fill every entry before executing (entry 0 last), and create a second pipeline for the same code in a second entry")
    } else {
        f.note("dgcc's runtime does this: `write_execution_set_shader` refuses a shader another entry holds").help(
            "in an engine that writes its own sets, create a second shader object for the same code in a second entry",
        )
    })
}

/// W0015, if the layout is preprocessed explicitly and its set selects graphics pipelines.
fn nvidia_explicit_pipeline_set(q: &Query, layout: &CompiledLayout, i: usize, set: &ExecutionSet) -> Option<Finding> {
    let pipelines = set.kind == 0;
    if layout.flags & EXPLICIT_PREPROCESS == 0 || !pipelines || set.stages & GRAPHICS == 0 {
        return None;
    }
    let target = q.target();
    Some(
        Finding::new(
            "W0015",
            Location::Flag(EXPLICIT_PREPROCESS),
            format!(
                "{target} draws layout `{}` much slower preprocessed explicitly than implicitly where pixels dominate: its execution set selects graphics pipelines",
                layout.name
            ),
        )
        .label_by(|dgc| format!("`{}`", spell::word("ExplicitPreprocess", dgc)))
        .related(Location::token(i, TokenPart::Stages), "graphics pipelines through an execution set")
        .note(q.show(Limit::VendorId, u64::from(vendor::NVIDIA)))
        .note("NVIDIA's driver (580.159.04) drew 100,000 objects of 16 materials at 2560 × 1440 in 49.0 ms explicitly preprocessed against 26.5 ms implicitly, 1.99× and 1.07× of multi-draw; the cost grows with the pixels and their fragment work, and the preprocess command is not it (0.06 ms)")
        .note("sets of shader objects, and each material's records executed through a layout without the set, were not affected")
        .help_by(|dgc| {
            format!(
                "drop `{}`: implicit preprocessing of the same set drew at multi-draw's cost",
                spell::word("ExplicitPreprocess", dgc)
            )
        }),
    )
}
