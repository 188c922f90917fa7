//! Asking a profile for values, and remembering which ones it did not state.
//!
//! Why a wrapper around `Profile::value`: a rule that needs a value the profile lacks must not
//! guess, and must not stop the other rules either. Each rule asks through a `Query`; a missing
//! value answers `None` (the rule is skipped) and is remembered, so that the caller reports one
//! `E0021` per missing value, naming the value, the target and what needed it, instead of one
//! per rule or per token.

use super::finding::{Finding, Location};
use crate::device::{Limit, Profile};

pub struct Query<'a> {
    pub profile: &'a Profile,
    /// Missing values, in the order first asked, with what asked for them.
    missing: Vec<(Limit, &'static str)>,
}

impl<'a> Query<'a> {
    pub fn new(profile: &'a Profile) -> Query<'a> {
        Query { profile, missing: vec![] }
    }

    pub fn target(&self) -> &str {
        &self.profile.name
    }

    /// The value, or `None` (remembered) when the profile does not state it. `needed_for` says
    /// which check wanted it, for the E0021 note.
    pub fn get(&mut self, limit: Limit, needed_for: &'static str) -> Option<u64> {
        let v = self.profile.value(limit);
        if v.is_none() && !self.missing.iter().any(|(l, _)| *l == limit) {
            self.missing.push((limit, needed_for));
        }
        v
    }

    pub fn flag(&mut self, limit: Limit, needed_for: &'static str) -> Option<bool> {
        self.get(limit, needed_for).map(|v| v != 0)
    }

    /// `limit = value on target`, as messages write it.
    pub fn show(&self, limit: Limit, value: u64) -> String {
        format!("{} = {} on {}", limit.vk_name(), limit.format(value), self.profile.name)
    }

    /// One E0021 finding per value that was asked for and missing.
    pub fn missing_findings(&self) -> Vec<Finding> {
        self.missing.iter().map(|(limit, why)| missing_value(&self.profile.name, *limit, why)).collect()
    }
}

/// The E0021 finding for one value a profile does not state.
pub fn missing_value(target: &str, limit: Limit, needed_for: &str) -> Finding {
    Finding::new("E0021", Location::Target, format!("target `{target}` does not state `{}`", limit.vk_name()))
        .label(format!("`{target}` lacks {}", limit.vk_name()))
        .note(format!("dgcc needs it to check {needed_for}"))
        .help(if limit.is_extension() {
            format!(
                "list the device's extensions in the profile (`{}` among them if the device has it), or write the profile on the device with `dgcc probe`",
                limit.vk_name()
            )
        } else {
            format!("add `{}` to the profile, or write the profile on the device with `dgcc probe`", limit.vk_name())
        })
        .target(target)
}
