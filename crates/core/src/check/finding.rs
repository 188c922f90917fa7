//! A finding: a diagnostic that knows *which part of a layout* it is about, but not where that
//! part was written.
//!
//! Why not a `Diagnostic` with spans: the rules that need only a compiled layout, push-constant
//! ranges and a device profile also run inside the runtime, which loads a manifest and has no
//! source text at all. So those rules say *what* is wrong and *where in the layout*
//! (`Location`), and each caller turns that into what it can show: the compiler resolves the
//! location to the exact span the user wrote (`check::spans`), the runtime prints the layout
//! and token names. Codes, severities and messages stay identical on both sides, which is the
//! point: `dgcc check` and the executor refuse a layout for the same reason, in the same words.

use crate::diag::{Diagnostic, Severity};
use crate::span::Span;

/// A part of a token that a rule can point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenPart {
    /// The token's kind (`DrawIndexed`): for rules about the token itself.
    Kind,
    /// The token's `name`, or its kind when the name is the default.
    Name,
    /// The token's byte offset in the record (`at`, or computed).
    Offset,
    /// The token's `stages` list (push constants, sequence index, execution set).
    Stages,
    /// `offset:` into push-constant space.
    PushOffset,
    /// The push-constant data: `size:` or the list of fields.
    PushSize,
    /// The n-th typed push-constant field.
    Field(usize),
    /// An index buffer's `mode`.
    Mode,
    /// A vertex buffer's `binding`.
    Binding,
    /// An execution set's `kind` (pipelines or shader objects).
    SetKind,
    /// An execution set's `max_entries`.
    MaxEntries,
    /// An execution set's `fallback` (the whole token where none is written).
    Fallback,
}

/// A part of one of the pipeline's push-constant ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangePart {
    Whole,
    Stages,
    Offset,
    Size,
}

/// A part of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelPart {
    Name,
    LocalSize,
    Subgroup,
    Writes,
}

/// Where in the description a finding points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// The layout as a whole (its name).
    Layout,
    /// The layout's `stages`.
    LayoutStages,
    /// `indirectStride`: the pinned `stride`, or the layout when it is computed.
    Stride,
    /// `max_sequences`.
    MaxSequences,
    /// One of the layout's usage flags, by its Vulkan bit.
    Flag(u32),
    /// A token, by index in stream order.
    Token { index: usize, part: TokenPart },
    /// One of the pipeline's push-constant ranges, by index.
    PushConstantRange { index: usize, part: RangePart },
    /// The kernel a kernel rule is about.
    Kernel(KernelPart),
    /// The target profile itself (a value it does not state).
    Target,
}

impl Location {
    pub const fn token(index: usize, part: TokenPart) -> Location {
        Location::Token { index, part }
    }
}

/// What a rule found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The short text shown under the primary location.
    pub label: String,
    pub location: Location,
    /// Other places worth showing, each with its own short text.
    pub related: Vec<(Location, String)>,
    /// Longer explanations; the fix is written as a note starting with `help: `.
    pub notes: Vec<String>,
    /// The message, labels and notes the `.dgc` language spells differently
    /// (`diag::Extra::dgc_spelling`).
    pub dgc_spelling: Vec<(String, String)>,
    /// A fix for the last help: replace what is written at the location with this text
    /// (`diag::Suggestion`), and whether it is machine-applicable.
    pub suggestion: Option<(Location, crate::diag::Suggestion)>,
    /// The profile the finding depends on, when it depends on one.
    pub target: Option<String>,
}

impl Finding {
    /// A finding with the registry's default severity for `code`.
    pub fn new(code: &'static str, location: Location, message: impl Into<String>) -> Finding {
        let rule = crate::rules::lookup(code);
        debug_assert!(rule.is_some(), "finding code {code} is not in the registry");
        let severity = rule.map(|r| r.severity).unwrap_or(Severity::Error);
        Finding {
            code,
            severity,
            message: message.into(),
            label: String::new(),
            location,
            related: vec![],
            notes: vec![],
            dgc_spelling: vec![],
            suggestion: None,
            target: None,
        }
    }
    /// A finding whose message is written as a function of the syntax ([`Finding::message_by`]).
    pub fn new_by(code: &'static str, location: Location, text: impl Fn(bool) -> String) -> Finding {
        Finding::new(code, location, text(false)).message_by(text)
    }
    /// The message, written as a function of the syntax (`dgc`: whether for the `.dgc`
    /// language) with the words of [`crate::spell`]: `text(false)` becomes the message,
    /// `text(true)` its `.dgc` spelling. It replaces the message given to [`Finding::new`].
    pub fn message_by(self, text: impl Fn(bool) -> String) -> Self {
        let ron = text(false);
        let mut f = self.spelled(&ron, text(true));
        f.message = ron;
        f
    }
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn related(mut self, location: Location, text: impl Into<String>) -> Self {
        self.related.push((location, text.into()));
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    /// The label, written as a function of the syntax (`dgc`: whether for the `.dgc`
    /// language), with the words of [`crate::spell`].
    pub fn label_by(self, text: impl Fn(bool) -> String) -> Self {
        let ron = text(false);
        self.spelled(&ron, text(true)).label(ron)
    }
    /// Another place, its text written as a function of the syntax ([`Finding::label_by`]).
    pub fn related_by(self, location: Location, text: impl Fn(bool) -> String) -> Self {
        let ron = text(false);
        self.spelled(&ron, text(true)).related(location, ron)
    }
    /// A note as RON writes it and as the `.dgc` language does.
    pub fn note_spelled(self, ron: impl Into<String>, dgc: impl Into<String>) -> Self {
        let ron = ron.into();
        self.spelled(&ron, dgc.into()).note(ron)
    }
    /// A note written as a function of the syntax ([`Finding::label_by`]).
    pub fn note_by(self, text: impl Fn(bool) -> String) -> Self {
        let ron = text(false);
        self.spelled(&ron, text(true)).note(ron)
    }
    /// `help: …`, written as a function of the syntax ([`Finding::label_by`]).
    pub fn help_by(self, text: impl Fn(bool) -> String) -> Self {
        self.note_by(|dgc| format!("help: {}", text(dgc)))
    }
    /// The message as the `.dgc` language spells it ([`Finding::message_by`] writes both at
    /// once). The renderers show it for a `.dgc` description (`Diagnostic::message_for`), and
    /// so does a note that quotes the finding (N0001 quotes the findings it replaces).
    pub fn message_for_dgc(self, dgc: impl Into<String>) -> Self {
        let ron = self.message.clone();
        self.spelled(&ron, dgc.into())
    }
    /// A text of this finding (its message, label or a note) as RON (`dgc: false`) or the
    /// `.dgc` language spells it.
    pub fn text_for<'a>(&'a self, text: &'a str, dgc: bool) -> &'a str {
        match self.dgc_spelling.iter().find(|(ron, _)| ron == text).filter(|_| dgc) {
            Some((_, spelled)) => spelled,
            None => text,
        }
    }
    /// Records the `.dgc` spelling of a message, label or note text, where it differs.
    fn spelled(mut self, ron: &str, dgc: String) -> Self {
        if ron != dgc {
            self.dgc_spelling.push((ron.to_string(), dgc));
        }
        self
    }
    pub fn help(self, help: impl AsRef<str>) -> Self {
        let text = format!("help: {}", help.as_ref());
        self.note(text)
    }
    /// A help that names settings: as RON writes them and as the `.dgc` language does.
    pub fn help_spelled(mut self, ron: impl AsRef<str>, dgc: impl AsRef<str>) -> Self {
        let ron = format!("help: {}", ron.as_ref());
        self.dgc_spelling.push((ron.clone(), format!("help: {}", dgc.as_ref())));
        self.note(ron)
    }
    /// A fix for the last help given: write `replacement` at `location` instead.
    pub fn suggest(mut self, location: Location, replacement: impl Into<String>, machine_applicable: bool) -> Self {
        let help = self.notes.iter().rev().find(|n| n.starts_with("help: ")).cloned().unwrap_or_default();
        let s = crate::diag::Suggestion {
            span: Span::default(),
            replacement: replacement.into(),
            help,
            machine_applicable,
        };
        self.suggestion = Some((location, s));
        self
    }
    /// The `.dgc` spelling of the last help given ([`Finding::help`]).
    pub fn spelled_for_dgc(mut self, help: impl AsRef<str>) -> Self {
        if let Some(last) = self.notes.iter().rev().find(|n| n.starts_with("help: ")).cloned() {
            self.dgc_spelling.push((last, format!("help: {}", help.as_ref())));
        }
        self
    }
    pub fn target(mut self, target: impl Into<String>) -> Self {
        self.target = Some(target.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The finding as a diagnostic, with `resolve` mapping each location to a span.
    pub fn into_diagnostic(self, resolve: impl Fn(Location) -> Span) -> Diagnostic {
        let mut d = Diagnostic::new(self.code, self.message).with_severity(self.severity);
        d = d.primary(resolve(self.location), self.label);
        for (loc, text) in self.related {
            d = d.secondary(resolve(loc), text);
        }
        for n in self.notes {
            d = d.note(n);
        }
        if !self.dgc_spelling.is_empty() {
            d.extra.get_or_insert_default().dgc_spelling = self.dgc_spelling;
        }
        if let Some((location, s)) = self.suggestion {
            d.extra.get_or_insert_default().suggestions.push(crate::diag::Suggestion { span: resolve(location), ..s });
        }
        if let Some(t) = self.target {
            d = d.target(t);
        }
        d
    }
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(Finding::is_error)
}
