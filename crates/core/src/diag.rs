//! Diagnostics as data.
//!
//! Why: the library never prints. Every stage returns `Diagnostic`s (code, message, spans,
//! target) and keeps going, so one run reports every problem; rendering — codespan-reporting
//! for people, JSON lines for machines — happens only at the edge (`dgcc_compiler::render`).
//! The rule registry (`crate::rules`) gives each code its VUID, default severity and
//! explanation.
//!
//! The dependency runs one way: `diag` asks the registry for a code's default severity, and
//! the registry knows nothing of diagnostics; both share [`Severity`] from `crate::severity`
//! (re-exported here, so `diag::Severity` keeps working).
//!
//! Most labels point into the description being compiled, which the renderer is given. A check
//! that reads another file (a draw shader's GLSL) points into that file instead: such a label
//! carries the file ([`SourceText`], shared by every label into it), so a diagnostic can say
//! "this member of the shader" and "this token of the description" at once, and the renderers
//! give the shader's path, line and column.

pub use crate::severity::Severity;
use crate::span::Span;
use std::sync::Arc;

/// A file other than the description that labels point into: its name as shown (the path as
/// the description's folder and the `source` make it) and its text.
#[derive(Debug, PartialEq, Eq)]
pub struct SourceText {
    pub name: String,
    pub text: String,
}

/// A span with what to say about it: in the description, or in another file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
    /// `None`: the span is in the description. `Some`: it is in this file (a shader source).
    pub file: Option<Arc<SourceText>>,
}

/// A fix a tool can apply: replace the text at `span` of the description with `replacement`
/// (the same in both syntaxes: a number, for now). It belongs to the help note `help`, which
/// says it in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub span: Span,
    pub replacement: String,
    /// The help note, as `notes` has it.
    pub help: String,
    /// Whether applying it is sure to fix the diagnostic and change nothing else
    /// (rustc's `MachineApplicable`); otherwise it is one fix among others (`MaybeIncorrect`).
    pub machine_applicable: bool,
}

/// What most diagnostics do not have, boxed to keep [`Diagnostic`] small (it is the error type
/// of several functions).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extra {
    /// Messages, notes and labels that name description elements, as the `.dgc` language
    /// spells them: (the text as `message`, `notes` or a [`Label`] has it, in RON, the spelling
    /// the runtime and the manifest share; its `.dgc` spelling). The renderers pick by the
    /// description's syntax ([`Diagnostic::message_for`], [`Diagnostic::notes_for`],
    /// [`Diagnostic::label_for`]), so a help on a `.dgc` file says `align 16;`, not
    /// `align: Some(16)`, a label `[vertex, fragment]`, not `Vertex | Fragment`, and a message
    /// `` `draws` (draw_indexed_count) ``, not `` `draws` (DrawIndexedCount) ``.
    pub dgc_spelling: Vec<(String, String)>,
    /// Fixes a tool can apply (`--message-format rustc`'s `suggested_replacement`, SARIF's
    /// `fixes`).
    pub suggestions: Vec<Suggestion>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A code from the rule registry: `E0104`.
    pub code: &'static str,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    /// Spellings and fixes ([`Extra`]); `None` for most diagnostics.
    pub extra: Option<Box<Extra>>,
    /// The profile a limit-dependent diagnostic is about.
    pub target: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the registry's default severity for `code`.
    pub fn new(code: &'static str, message: impl Into<String>) -> Diagnostic {
        let severity = crate::rules::lookup(code).map(|r| r.severity).unwrap_or(Severity::Error);
        debug_assert!(crate::rules::lookup(code).is_some(), "diagnostic code {code} is not in the registry");
        Diagnostic { severity, code, message: message.into(), labels: vec![], notes: vec![], extra: None, target: None }
    }
    /// A diagnostic whose message is written as a function of the syntax
    /// ([`Diagnostic::message_by`]).
    pub fn new_by(code: &'static str, text: impl Fn(bool) -> String) -> Diagnostic {
        Diagnostic::new(code, text(false)).message_by(text)
    }
    /// The message, written as a function of the syntax (`dgc`: whether for the `.dgc`
    /// language) with the words of [`crate::spell`], as [`Diagnostic::note_by`] writes a note:
    /// `text(false)` becomes the message, `text(true)` its `.dgc` spelling. It replaces the
    /// message given to [`Diagnostic::new`].
    pub fn message_by(self, text: impl Fn(bool) -> String) -> Self {
        let ron = text(false);
        let mut d = self.spelled(&ron, text(true));
        d.message = ron;
        d
    }
    /// The `.dgc` spelling of the message given to [`Diagnostic::new`].
    pub fn message_spelled(self, dgc: impl Into<String>) -> Self {
        let ron = self.message.clone();
        self.spelled(&ron, dgc.into())
    }
    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: true, file: None });
        self
    }
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: false, file: None });
        self
    }
    /// The primary label, in another file than the description.
    pub fn primary_in(mut self, file: &Arc<SourceText>, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: true, file: Some(file.clone()) });
        self
    }
    /// A secondary label in another file than the description.
    pub fn secondary_in(mut self, file: &Arc<SourceText>, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: false, file: Some(file.clone()) });
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    /// A note spelled one way in RON and another in the `.dgc` language.
    pub fn note_spelled(mut self, ron: impl Into<String>, dgc: impl Into<String>) -> Self {
        let ron = ron.into();
        self.extra.get_or_insert_default().dgc_spelling.push((ron.clone(), dgc.into()));
        self.notes.push(ron);
        self
    }
    /// `help: …`, spelled for each syntax ([`Diagnostic::note_spelled`]).
    pub fn help_spelled(self, ron: impl AsRef<str>, dgc: impl AsRef<str>) -> Self {
        self.note_spelled(format!("help: {}", ron.as_ref()), format!("help: {}", dgc.as_ref()))
    }
    /// A note written as a function of the syntax (`dgc`: whether for the `.dgc` language),
    /// with the words of [`crate::spell`].
    pub fn note_by(self, text: impl Fn(bool) -> String) -> Self {
        let (ron, dgc) = (text(false), text(true));
        if ron == dgc {
            self.note(ron)
        } else {
            self.note_spelled(ron, dgc)
        }
    }
    /// `help: …`, written as a function of the syntax ([`Diagnostic::note_by`]).
    pub fn help_by(self, text: impl Fn(bool) -> String) -> Self {
        self.note_by(|dgc| format!("help: {}", text(dgc)))
    }
    /// The primary label, written as a function of the syntax ([`Diagnostic::note_by`]).
    pub fn primary_by(self, span: Span, text: impl Fn(bool) -> String) -> Self {
        let (ron, dgc) = (text(false), text(true));
        self.spelled(&ron, dgc).primary(span, ron)
    }
    /// A secondary label, written as a function of the syntax ([`Diagnostic::note_by`]).
    pub fn secondary_by(self, span: Span, text: impl Fn(bool) -> String) -> Self {
        let (ron, dgc) = (text(false), text(true));
        self.spelled(&ron, dgc).secondary(span, ron)
    }
    /// Records the `.dgc` spelling of a message, label or note text, where it differs.
    fn spelled(mut self, ron: &str, dgc: String) -> Self {
        if ron != dgc {
            self.extra.get_or_insert_default().dgc_spelling.push((ron.to_string(), dgc));
        }
        self
    }
    /// A text as a description in RON (`dgc: false`) or in the `.dgc` language reads it.
    fn text_for<'a>(&'a self, text: &'a str, dgc: bool) -> &'a str {
        if !dgc {
            return text;
        }
        match self.extra.iter().flat_map(|e| &e.dgc_spelling).find(|(ron, _)| ron == text) {
            Some((_, spelled)) => spelled.as_str(),
            None => text,
        }
    }
    /// The message as a description in RON (`dgc: false`) or in the `.dgc` language reads it:
    /// what every renderer shows ([`Diagnostic::message_by`]).
    pub fn message_for(&self, dgc: bool) -> &str {
        self.text_for(&self.message, dgc)
    }
    /// The notes as a description in RON (`dgc: false`) or in the `.dgc` language reads them.
    pub fn notes_for(&self, dgc: bool) -> Vec<&str> {
        self.notes.iter().map(|n| self.text_for(n, dgc)).collect()
    }
    /// A label's text as a description in RON (`dgc: false`) or in the `.dgc` language reads it.
    pub fn label_for<'a>(&'a self, label: &'a Label, dgc: bool) -> &'a str {
        self.text_for(&label.message, dgc)
    }
    /// A fix for the last help note: replace `span` (in the description) with `replacement`.
    pub fn suggest(mut self, span: Span, replacement: impl Into<String>, machine_applicable: bool) -> Self {
        let help = self.notes.iter().rev().find(|n| n.starts_with("help: ")).cloned().unwrap_or_default();
        self.extra.get_or_insert_default().suggestions.push(Suggestion {
            span,
            replacement: replacement.into(),
            help,
            machine_applicable,
        });
        self
    }
    /// The fixes a tool can apply.
    pub fn suggestions(&self) -> &[Suggestion] {
        self.extra.as_deref().map_or(&[], |e| &e.suggestions)
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
    /// The primary label's span, in whichever file it is ([`Label::file`]).
    pub fn primary_span(&self) -> Option<Span> {
        self.primary_label().map(|l| l.span)
    }
    pub fn primary_label(&self) -> Option<&Label> {
        self.labels.iter().find(|l| l.primary)
    }
    /// Where in the description the diagnostic is: its primary label when that is in the
    /// description, else its first label there (a shader diagnostic's token or `source`).
    pub fn description_span(&self) -> Option<Span> {
        let in_description = |l: &&Label| l.file.is_none();
        self.labels
            .iter()
            .filter(|l| l.primary)
            .find(in_description)
            .or_else(|| self.labels.iter().find(in_description))
            .map(|l| l.span)
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Whether any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_read_in_the_syntax_of_the_description() {
        let d = Diagnostic::new_by("E0205", |dgc| {
            format!("layout `L` has `{}`", crate::spell::setting("max_sequences", 0, dgc))
        });
        assert_eq!(d.message, "layout `L` has `max_sequences: 0`");
        assert_eq!(d.message_for(false), d.message);
        assert_eq!(d.message_for(true), "layout `L` has `max_sequences 0;`");
        let spelled = Diagnostic::new("E0119", "layout `L` has Fragment").message_spelled("layout `L` has fragment");
        assert_eq!(
            (spelled.message_for(false), spelled.message_for(true)),
            ("layout `L` has Fragment", "layout `L` has fragment")
        );
        // A message both syntaxes spell alike records nothing.
        assert_eq!(Diagnostic::new_by("E0205", |_| "the same".to_string()).extra, None);
    }
}
