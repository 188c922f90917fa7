//! A description's `lints`: the per-code levels it sets, checked against the registry.
//!
//! Why a check and not the parser: the front ends read any word as a code (both syntaxes the
//! same way: RON refuses a string that is not a word, which `.dgc` could not spell); whether it is a code, and whether its level may be set, is the registry's to say
//! (`dgcc_core::levels`), and the answer is a diagnostic at the code as written, so a typo in
//! `lints` is reported like any other mistake instead of silencing nothing.

use crate::ast::Pipeline;
use dgcc_core::diag::Diagnostic;
use dgcc_core::levels::{LevelError, Levels};
use dgcc_core::span::Span;

/// The description's levels, and E0008 for every code that cannot be set.
pub fn levels(pipeline: &Pipeline) -> (Levels, Vec<Diagnostic>) {
    let mut levels = Levels::default();
    let mut diags = vec![];
    for lint in &pipeline.lints {
        if let Err(e) = levels.set(&lint.code.node, lint.level.node) {
            diags.push(level_error(&e, lint.code.span, lint.level.span));
        }
    }
    (levels, diags)
}

/// E0008 for a `lints` entry that cannot be set, at its code (and its level, for an error code):
/// here, and in the RON reader for a code that is not even a word.
pub(crate) fn level_error(e: &LevelError, code: Span, level: Span) -> Diagnostic {
    let label = match e {
        LevelError::Unknown(_) => "not a diagnostic code",
        LevelError::Error { .. } => "an error code",
    };
    let d = Diagnostic::new("E0008", format!("`lints`: {e}")).primary(code, label);
    match e {
        LevelError::Error { .. } => d.secondary(level, "only `deny` can be given for an error"),
        LevelError::Unknown(_) => d,
    }
}
