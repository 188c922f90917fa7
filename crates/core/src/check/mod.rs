//! The light rules: every rule a compiled layout and a device profile decide, applied by `dgcc
//! check` and again by the runtime against the live device.
//!
//! # Shape
//!
//! Rules are split by what they need, because two callers need them:
//!
//! - **Light rules** (this module, in `dgcc-core`) read only a compiled layout (`ir::CompiledLayout`),
//!   the pipeline's push-constant ranges, a kernel's subgroup decision and a `device::Profile`:
//!   [`structure_findings`](layout_rules::structure_findings) (device-independent), [`target_findings`] and
//!   [`pipeline_target_findings`] (one profile), [`kernel_findings`]. They return
//!   [`Finding`]s, which say *where in the layout* a problem is (`Location`) instead of a byte
//!   span. The runtime calls [`device_findings`] with the live device's profile and refuses a
//!   layout with the same codes and words as `dgcc check`.
//! - **Source rules** (`dgcc_compiler::check`) need the AST: names, typed push-constant fields,
//!   portability across the target list, kernels and what they write. `dgcc_compiler::check::check` runs
//!   everything, resolves each location to the exact span written in the description, and
//!   collects every diagnostic (it never stops at the first).
//!
//! Codes and explanations live in the rule registry (`crate::rules`, `validation/` files);
//! what the layout engine already reports (shared bytes W0011, past the stride E0404, …) is not
//! reported again by `layout_findings`. Those are the layout invariants
//! ([`invariants`]): the layout engine re-checks its result with them,
//! the emitters refuse a manifest that breaks them, and [`device_findings`] adds the ones about
//! the stream's bytes, so the runtime refuses an edited manifest with `dgcc check`'s code.

pub mod device_rules;
pub mod fallback;
pub mod finding;
pub mod invariants;
pub mod kernel_rules;
pub mod layout_rules;
pub mod preprocess;
pub mod push_rules;
pub mod query;
pub mod vendor_rules;

pub use device_rules::{device_findings, pipeline_target_findings, target_findings};
pub use fallback::{fallback_blocker, fallback_findings};
pub use finding::{has_errors, Finding, KernelPart, Location, RangePart, TokenPart};
pub use invariants::{invariant_findings, stream_findings};
pub use kernel_rules::{kernel_findings, kernel_shape_findings};
pub use push_rules::pipeline_range_findings;

use crate::ir::{CompiledLayout, PushConstantRange};

/// Every device-independent rule for one layout: token order and counts, stages, offsets,
/// numbers, and the push-constant ranges its tokens update (against the pipeline's `ranges`).
pub fn layout_findings(layout: &CompiledLayout, ranges: &[PushConstantRange]) -> Vec<Finding> {
    let mut out = layout_rules::structure_findings(layout);
    out.extend(push_rules::token_range_findings(layout, ranges));
    out
}

/// Keep the first `W0012` or `W0013` per (target, message): one report per missing value and target,
/// however many rules and layouts asked for it.
pub fn dedup_missing(findings: &mut Vec<Finding>) {
    let mut seen: Vec<(Option<String>, String)> = vec![];
    findings.retain(|f| {
        if f.code != "W0012" && f.code != "W0013" {
            return true;
        }
        let key = (f.target.clone(), f.message.clone());
        if seen.contains(&key) {
            false
        } else {
            seen.push(key);
            true
        }
    });
}
