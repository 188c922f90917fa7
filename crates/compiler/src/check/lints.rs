//! A description's `lints`: the per-code levels it sets, checked against the registry.
//!
//! Why a check and not the parser: the front ends read any word as a code (both syntaxes the
//! same way); whether it is a code, and whether its level may be set, is the registry's to say
//! (`dgcc_core::levels`), and the answer is a diagnostic at the code as written, so a typo in
//! `lints` is reported like any other mistake instead of silencing nothing.

use crate::ast::Pipeline;
use dgcc_core::diag::Diagnostic;
use dgcc_core::levels::{LevelError, Levels};

/// The description's levels, and E0008 for every code that cannot be set.
pub fn levels(pipeline: &Pipeline) -> (Levels, Vec<Diagnostic>) {
    let mut levels = Levels::default();
    let mut diags = vec![];
    for lint in &pipeline.lints {
        if let Err(e) = levels.set(&lint.code.node, lint.level.node) {
            let label = match e {
                LevelError::Unknown(_) => "not a diagnostic code",
                LevelError::Error { .. } => "an error code",
            };
            let mut d = Diagnostic::new("E0008", format!("`lints`: {e}")).primary(lint.code.span, label);
            if let LevelError::Error { .. } = e {
                d = d.secondary(lint.level.span, "only `deny` can be given for an error");
            }
            diags.push(d);
        }
    }
    (levels, diags)
}
