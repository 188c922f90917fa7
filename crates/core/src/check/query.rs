//! Asking a profile for values, and remembering which ones it did not state.
//!
//! Why a wrapper around `Profile::value`: a rule that needs a value the profile lacks must not
//! guess, and must not stop the other rules either. Each rule asks through a `Query`; a missing
//! value answers `None` (the rule is skipped) and is remembered, so that the caller reports one
//! warning `W0012` per missing value, naming the value, the target and what needed it, instead
//! of one per rule or per token (`--strict` makes it an error). A profile that states none of
//! VK_EXT_device_generated_commands' own values (a `vulkaninfo --json` older than the
//! extension) gets one `W0013` for all of them instead, pointing at `dgcc probe`.

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
    /// which check wanted it, for the W0012 note.
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

    /// One W0012 finding per value that was asked for and missing; the extension's own values
    /// as one W0013 when the profile states none of them.
    pub fn missing_findings(&self) -> Vec<Finding> {
        let predates = predates_dgc(self.profile);
        let mut out: Vec<Finding> = self
            .missing
            .iter()
            .filter(|(limit, _)| !(predates && limit.is_dgc_value()))
            .map(|(limit, why)| missing_value(&self.profile.name, *limit, why))
            .collect();
        if predates && self.missing.iter().any(|(limit, _)| limit.is_dgc_value()) {
            out.insert(0, predates_extension(&self.profile.name));
        }
        out
    }
}

/// Whether the profile states none of VK_EXT_device_generated_commands' own values.
pub fn predates_dgc(profile: &Profile) -> bool {
    Limit::ALL.iter().filter(|l| l.is_dgc_value()).all(|l| profile.value(*l).is_none())
}

/// The one W0013 finding for a profile that states none of the extension's values.
pub fn predates_extension(target: &str) -> Finding {
    Finding::new(
        "W0013",
        Location::Target,
        format!("target `{target}` states none of VK_EXT_device_generated_commands' values"),
    )
    .label(format!("`{target}` has no device-generated-commands properties or features"))
    .note("the file was written by a tool older than the extension (`vulkaninfo --json` before 1.3.296) or by one that drops it (gpuinfo.org exports), so every check of a device-generated-commands limit was skipped for this target")
    .help(format!("write the profile on the device with `dgcc probe --out {target}.json`, which reads every value dgcc checks"))
    .target(target)
}

/// W0012 for a value `profile` cannot give a rule: not stated at all, or, in a requirement
/// profile, stated as a bound every matching device meets, which is no one device's value
/// (the subgroup size `Required(size: Min)` resolves to).
pub fn unknown_value(profile: &Profile, limit: Limit, needed_for: &str) -> Finding {
    let target = &profile.name;
    if profile.citation(limit) != Some(crate::device::json::CITE_REQUIREMENT_FILE) {
        return missing_value(target, limit, needed_for);
    }
    let vk = limit.vk_name();
    Finding::new("W0012", Location::Target, format!("target `{target}` states only a bound on `{vk}`, not a device's value"))
        .label(format!("`{target}` is a requirement profile: its `{vk}` is a bound"))
        .note(format!("dgcc needs a device's own value to check {needed_for}; that check was skipped for this target (`--strict` makes this an error)"))
        .help("check against each device's own profile too (written on the device with `dgcc probe`)")
        .target(target)
}

/// The W0012 finding for one value a profile does not state.
pub fn missing_value(target: &str, limit: Limit, needed_for: &str) -> Finding {
    Finding::new("W0012", Location::Target, format!("target `{target}` does not state `{}`", limit.vk_name()))
        .label(format!("`{target}` does not state {}", limit.vk_name()))
        .note(format!("dgcc needs it to check {needed_for}; that check was skipped for this target (`--strict` makes this an error)"))
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
