//! Refusing a layout the live device cannot run, in `dgcc check`'s words.
//!
//! Why a thin adapter: the rules live in `dgcc_core::check` (light, no compiler) so that the
//! runtime and `dgcc check` cannot disagree. What the runtime adds is a place to point: it has
//! no source text, so each finding's `Location` becomes a note naming the layout and token
//! (`layout SceneDraw, token 2 "draw": offset`) and the label span is empty.

use super::error::{Result, RuntimeError};
use dgcc_core::check::{device_findings, stream_findings, Finding, Location, TokenPart};
use dgcc_core::device::Profile;
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::{CompiledLayout, PushConstantRange};
use dgcc_core::span::Span;

/// `Some(diagnostics)` when any finding is an error (warnings ride along), `None` otherwise.
pub fn refusal(
    layout: &CompiledLayout,
    push_constants: &[PushConstantRange],
    profile: &Profile,
) -> Option<Vec<Diagnostic>> {
    refusing(layout, device_findings(layout, push_constants, profile))
}

/// `Err(Refused)` when the layout's stream breaks a layout invariant (a stride that is not a
/// multiple of 4, tokens that run past the stride: E0405, E0404; tokens that share bytes are only
/// the warning W0011, which the spec allows). The
/// fallback and the stream validator call it before touching the device, as `DgcDevice` does
/// through `device_findings`: a hand-edited manifest would otherwise read its draws from the
/// next record.
pub fn check_stream(layout: &CompiledLayout) -> Result<()> {
    match refusing(layout, stream_findings(layout)) {
        Some(diagnostics) => Err(RuntimeError::Refused { layout: layout.name.clone(), diagnostics }),
        None => Ok(()),
    }
}

/// The findings as diagnostics when any is an error.
fn refusing(layout: &CompiledLayout, findings: Vec<Finding>) -> Option<Vec<Diagnostic>> {
    if !findings.iter().any(Finding::is_error) {
        return None;
    }
    Some(findings.into_iter().map(|f| to_diagnostic(layout, f)).collect())
}

fn to_diagnostic(layout: &CompiledLayout, f: Finding) -> Diagnostic {
    let place = describe(layout, f.location);
    let label = f.label.clone();
    let mut d = f.into_diagnostic(|_| Span::default());
    d.notes.insert(0, if label.is_empty() { format!("at {place}") } else { format!("at {place}: {label}") });
    d
}

/// Words for a location in a layout that has no source text.
pub fn describe(layout: &CompiledLayout, at: Location) -> String {
    let l = format!("layout `{}`", layout.name);
    match at {
        Location::Layout => l,
        Location::LayoutStages => format!("{l}, shader stages"),
        Location::Stride => format!("{l}, stride {}", layout.stride),
        Location::MaxSequences => format!("{l}, max_sequences {}", layout.max_sequences),
        Location::Flag(bit) => format!("{l}, usage flag {bit:#x}"),
        Location::Token { index, part } => {
            let name = layout.tokens.get(index).map(|t| t.name.as_str()).unwrap_or("?");
            let part = match part {
                TokenPart::Kind | TokenPart::Name => String::new(),
                TokenPart::Offset => ": offset".into(),
                TokenPart::Stages => ": stages".into(),
                TokenPart::PushOffset => ": push-constant offset".into(),
                TokenPart::PushSize => ": push-constant size".into(),
                TokenPart::Field(i) => format!(": field {i}"),
                TokenPart::Mode => ": mode".into(),
                TokenPart::Binding => ": binding".into(),
                TokenPart::SetKind => ": execution-set kind".into(),
                TokenPart::MaxEntries => ": max_entries".into(),
            };
            format!("{l}, token {index} `{name}`{part}")
        }
        Location::PushConstantRange { index, .. } => format!("push-constant range {index}"),
        Location::Kernel(_) => "a kernel".into(),
        Location::Target => "the live device".into(),
    }
}
