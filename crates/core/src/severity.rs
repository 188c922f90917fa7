//! How serious a diagnostic is.
//!
//! Why a module of its own: both the rule registry (`crate::rules`, which gives every code its
//! default severity) and diagnostics (`crate::diag`, which look that default up) need the type.
//! Living here, it lets the registry depend on nothing but this file, and `diag` depend on
//! the registry, without an import circle. `crate::diag::Severity` re-exports it.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}
