//! Diagnostics as data.
//!
//! Why: the library never prints. Every stage returns `Diagnostic`s (code, message, spans,
//! target) and keeps going, so one run reports every problem; rendering — codespan-reporting
//! for people, JSON lines for machines — happens only at the edge (`crate::render`). The rule
//! registry (`crate::rules`) gives each code its VUID, default severity and explanation.
//!
//! The dependency runs one way: `diag` asks the registry for a code's default severity, and
//! the registry knows nothing of diagnostics; both share [`Severity`] from `crate::severity`
//! (re-exported here, so `diag::Severity` keeps working).

pub use crate::severity::Severity;
use crate::span::Span;

/// A span in the description with what to say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A code from the rule registry: `E0104`.
    pub code: &'static str,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    /// The profile a limit-dependent diagnostic is about.
    pub target: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the registry's default severity for `code`.
    pub fn new(code: &'static str, message: impl Into<String>) -> Diagnostic {
        let severity = crate::rules::lookup(code).map(|r| r.severity).unwrap_or(Severity::Error);
        debug_assert!(crate::rules::lookup(code).is_some(), "diagnostic code {code} is not in the registry");
        Diagnostic { severity, code, message: message.into(), labels: vec![], notes: vec![], target: None }
    }
    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: true });
        self
    }
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: false });
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn target(mut self, target: impl Into<String>) -> Self {
        self.target = Some(target.into());
        self
    }
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
    /// The VUID the rule enforces, if it has one.
    pub fn vuid(&self) -> Option<&'static str> {
        crate::rules::lookup(self.code).and_then(|r| r.vuid)
    }
    /// The VUIDs the rule enforces besides [`Diagnostic::vuid`] (`rules::Rule::also`).
    pub fn also_vuids(&self) -> &'static [&'static str] {
        crate::rules::lookup(self.code).map(|r| r.also()).unwrap_or(&[])
    }
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Whether any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
