//! The rule registry: every diagnostic code, its VUID, default severity, title and explanation.
//!
//! Why one registry: `dgcc explain`, the book's diagnostics index (generated from it, with a
//! test that fails when the book is stale) and the tests that expect codes all read these
//! tables, so a code cannot exist in one place and not another. Codes are stable: never reuse
//! or delete one; retire it by saying so in its explanation.
//!
//! Ranges: E00xx input and syntax, E002x profiles, E01xx token order and kinds, E02xx device
//! limits and features, E03xx push constants, E04xx stream layout, E05xx kernels and subgroups,
//! E06xx execution sets, E07xx names and references, E08xx stream contents (found on the GPU
//! by the runtime's stream validator, never in a description), E09xx record-time requirements
//! (refused by the runtime and the generated checks, never in a description); W0xxx warnings;
//! N0xxx notes (said for information, never failing a check), numbered by the same areas.
//!
//! The registry imports only [`Severity`] (from `crate::severity`), never `crate::diag`:
//! diagnostics look their default severity up here, so the dependency runs one way.

use crate::severity::Severity;

mod also;
mod input;
mod interface;
mod layout;
mod profiles;
mod requirements;
mod shader;
mod stream;
mod validation;

/// Every table of the registry; a new area adds its file here.
fn tables() -> [&'static [Rule]; 8] {
    [
        input::RULES,
        profiles::RULES,
        layout::RULES,
        shader::RULES,
        interface::RULES,
        validation::RULES,
        stream::RULES,
        requirements::RULES,
    ]
}

/// One rule of the registry.
#[derive(Debug)]
pub struct Rule {
    pub code: &'static str,
    /// The Vulkan valid-usage ID the rule enforces, if any.
    pub vuid: Option<&'static str>,
    pub severity: Severity,
    /// One line: what is wrong.
    pub title: &'static str,
    /// Markdown: why it matters, an example, the fix.
    pub explanation: &'static str,
}

/// Every rule, in code order.
pub fn all() -> Vec<&'static Rule> {
    let mut v: Vec<&'static Rule> = tables().into_iter().flatten().collect();
    v.sort_by_key(|r| r.code);
    v
}

pub fn lookup(code: &str) -> Option<&'static Rule> {
    tables().into_iter().flatten().find(|r| r.code.eq_ignore_ascii_case(code))
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_unique_and_well_formed() {
        let all = super::all();
        for w in all.windows(2) {
            assert_ne!(w[0].code, w[1].code, "duplicate code");
        }
        for r in &all {
            assert!(r.code.len() == 5 && ['E', 'W', 'N'].iter().any(|&c| r.code.starts_with(c)), "{}", r.code);
            assert_eq!(r.code.starts_with('W'), r.severity == super::Severity::Warning, "{}", r.code);
            assert_eq!(r.code.starts_with('N'), r.severity == super::Severity::Note, "{}", r.code);
            assert!(!r.title.is_empty() && r.explanation.len() > 40, "{} needs an explanation", r.code);
            if let Some(v) = r.vuid {
                assert!(v.starts_with("VUID-"), "{}", r.code);
            }
        }
    }
}
