//! Refusing a layout the live device cannot run, in `dgcc check`'s words.
//!
//! Why a thin adapter: the rules live in `dgcc_core::check` (light, no compiler) so that the
//! runtime and `dgcc check` cannot disagree. What the runtime adds is a place to point: it has
//! no source text, so each finding's `Location` becomes a note naming the layout and token
//! (``at layout `SceneDraw`, token 2 `draw`: offset``) and the label span is empty.

use super::error::{Result, RuntimeError};
use dgcc_core::check::{device_findings, stream_findings, Finding, Location, TokenPart};
use dgcc_core::device::Profile;
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::{CompiledLayout, PushConstantRange};
use dgcc_core::requirements::{broken, requirements_of, RecordState};
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

/// `Err(Refused)` when `state` breaks a record-time requirement of `layout` (E0901–E0909,
/// `dgcc_core::requirements`): one diagnostic per broken requirement, naming it, what the
/// state says and the VUIDs. The requirements are derived from the layout (a manifest of an
/// older dgcc does not state them; an edited list is E0410 before this is reached).
pub fn check_record(layout: &CompiledLayout, state: &RecordState) -> Result<()> {
    let requirements = requirements_of(layout);
    let broken = broken(&requirements, state);
    if broken.is_empty() {
        return Ok(());
    }
    let diagnostics = broken
        .into_iter()
        .map(|(r, why)| {
            let mut d = Diagnostic::new(r.code(), format!("layout `{}` must {why}", layout.name))
                .note(format!("the manifest's requirement `{}`", r.kind()));
            for v in r.vuids() {
                d = d.note(format!("vuid: {v}"));
            }
            d
        })
        .collect();
    Err(RuntimeError::Refused { layout: layout.name.clone(), diagnostics })
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
                TokenPart::Fallback => ": fallback".into(),
            };
            format!("{l}, token {index} `{name}`{part}")
        }
        Location::PushConstantRange { index, .. } => format!("push-constant range {index}"),
        Location::Kernel(_) => "a kernel".into(),
        Location::Target => "the live device".into(),
    }
}

#[cfg(test)]
mod record_tests {
    //! A test per requirement family, through the runtime's refusal: the layout of each is
    //! the fixture (push constant, index buffer, indexed draw) or the fixture with an
    //! execution set and a vertex buffer, as an engine would load them.
    use super::*;
    use dgcc_core::ir::{ExecutionSet, TokenType};

    fn codes(r: Result<()>) -> Vec<&'static str> {
        match r {
            Ok(()) => vec![],
            Err(RuntimeError::Refused { diagnostics, .. }) => diagnostics.iter().map(|d| d.code).collect(),
            Err(e) => panic!("not a refusal: {e}"),
        }
    }

    /// The fixture with an execution set of pipelines first and a vertex buffer for the index
    /// buffer (stream bytes are not read by these rules).
    fn with_set() -> CompiledLayout {
        let mut l = crate::fixtures::push_index_draw();
        let mut set = l.tokens[0].clone();
        set.token_type = TokenType::ExecutionSet;
        set.push_constant = None;
        set.execution_set =
            Some(ExecutionSet { kind: 0, stages: l.shader_stages, max_entries: 4, fallback: Default::default() });
        l.tokens.insert(0, set);
        let vb = &mut l.tokens[2];
        vb.token_type = TokenType::VertexBuffer;
        vb.index_mode = None;
        vb.vertex_binding = Some(0);
        l
    }

    fn state() -> RecordState {
        RecordState::default()
    }

    #[test]
    fn render_pass() {
        let l = crate::fixtures::push_index_draw();
        assert_eq!(codes(check_record(&l, &RecordState { inside_render_pass: Some(false), ..state() })), ["E0901"]);
        assert_eq!(
            codes(check_record(&l, &RecordState { inside_render_pass: Some(true), ..state() })),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn preprocess() {
        let l = crate::fixtures::push_index_draw();
        let explicit = l.flags & 1 != 0;
        let wrong = RecordState { is_preprocessed: Some(!explicit), ..state() };
        assert_eq!(codes(check_record(&l, &wrong)), ["E0902"]);
    }

    #[test]
    fn transform_feedback() {
        let tf = RecordState { transform_feedback_active: Some(true), dgc_transform_feedback: Some(true), ..state() };
        assert_eq!(codes(check_record(&crate::fixtures::push_index_draw(), &tf)), Vec::<&str>::new());
        assert_eq!(codes(check_record(&with_set(), &tf)), ["E0903"]);
    }

    #[test]
    fn vertex_input_binding_stride() {
        let s = RecordState { vertex_input_binding_stride_dynamic: Some(false), ..state() };
        assert_eq!(codes(check_record(&with_set(), &s)), ["E0904"]);
        assert_eq!(codes(check_record(&crate::fixtures::push_index_draw(), &s)), Vec::<&str>::new());
    }

    #[test]
    fn indirect_bindable() {
        assert_eq!(
            codes(check_record(&with_set(), &RecordState { indirect_bindable: Some(false), ..state() })),
            ["E0905"]
        );
    }

    #[test]
    fn no_dynamic_descriptors() {
        assert_eq!(
            codes(check_record(&with_set(), &RecordState { dynamic_descriptors: Some(true), ..state() })),
            ["E0906"]
        );
    }

    #[test]
    fn initial_shader_stages() {
        let l = with_set();
        let s = |stages| RecordState { initial_stages: Some(stages), ..state() };
        assert_eq!(codes(check_record(&l, &s(0x20))), ["E0907"]);
        assert_eq!(codes(check_record(&l, &s(l.shader_stages))), Vec::<&str>::new());
    }

    #[test]
    fn execution_set_push_constants() {
        let none = RecordState { execution_set_push_constants: Some(vec![]), ..state() };
        let refused = check_record(&with_set(), &none);
        let Err(RuntimeError::Refused { diagnostics, .. }) = &refused else { panic!("{refused:?}") };
        assert_eq!(diagnostics[0].code, "E0908");
        assert!(diagnostics[0].notes.iter().any(|n| n.contains("11065")), "{:?}", diagnostics[0].notes);
    }

    #[test]
    fn no_multiview() {
        let s = RecordState { inside_render_pass: Some(true), view_mask: Some(0b11), ..state() };
        assert_eq!(codes(check_record(&with_set(), &s)), ["E0909"]);
        assert_eq!(codes(check_record(&crate::fixtures::push_index_draw(), &s)), Vec::<&str>::new());
    }
}
