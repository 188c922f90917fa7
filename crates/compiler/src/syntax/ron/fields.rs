//! The fields of one RON struct, checked against the names it may have.
//!
//! Why here and not serde's `deny_unknown_fields`: serde stops at the first unknown field and
//! cannot say where it was. Reading all entries first lets one pass report every unknown
//! field (with the closest known name), every duplicate (pointing at both), and every missing
//! required field (pointing at the struct that lacks it) — and a misspelt required field is
//! reported once, as the misspelling, not again as missing.

use super::reader::{Raw, Reader, Struct};
use crate::syntax::names::{all_of, did_you_mean};
use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;

/// The known entries of one struct.
pub struct Fields<'s> {
    pub head: Span,
    what: &'static str,
    known: Vec<(&'static str, Raw<'s>)>,
    suggested: Vec<&'static str>,
}

impl<'s> Fields<'s> {
    /// Sorts the entries of `s` into known ones (first occurrence) and reports the rest.
    pub fn check(r: &mut Reader<'s>, s: Struct<'s>, names: &'static [&'static str], what: &'static str) -> Fields<'s> {
        let mut fields = Fields { head: s.head, what, known: Vec::new(), suggested: Vec::new() };
        let mut first_spans: Vec<(&'static str, Span)> = Vec::new();
        for entry in s.entries {
            let Some(&name) = names.iter().find(|n| **n == entry.key) else {
                let mut diag = Diagnostic::new("E0002", format!("unknown field `{}` in {what}", entry.key))
                    .primary(entry.key_span, "unknown field");
                if let Some(close) = did_you_mean(entry.key, names.iter().copied()) {
                    diag = diag.note(format!("help: did you mean `{close}`?"));
                    fields.suggested.push(close);
                }
                r.report(diag.note(format!("the fields of {what} are {}", all_of(names))));
                continue;
            };
            if let Some((_, first)) = first_spans.iter().find(|(n, _)| *n == name) {
                r.report(
                    Diagnostic::new("E0004", format!("field `{name}` is given twice in {what}"))
                        .primary(entry.key_span, "given again here")
                        .secondary(*first, "first given here"),
                );
                continue;
            }
            first_spans.push((name, entry.key_span));
            fields.known.push((name, entry.value));
        }
        fields
    }

    pub fn get(&self, name: &str) -> Option<Raw<'s>> {
        self.known.iter().find(|(n, _)| *n == name).map(|(_, raw)| *raw)
    }

    /// The value of a required field; E0003 at the struct's head when it is missing (unless a
    /// misspelling of it was already reported).
    pub fn required(&self, r: &mut Reader<'s>, name: &'static str) -> Option<Raw<'s>> {
        let value = self.get(name);
        if value.is_none() && !self.suggested.contains(&name) {
            r.report(
                Diagnostic::new("E0003", format!("{} needs the field `{name}`", self.what))
                    .primary(self.head, format!("`{name}` is missing here")),
            );
        }
        value
    }
}
