//! Device files → `Profile`: Vulkan Profiles JSON and VulkanCapsViewer reports.
//!
//! Accepted, told apart by their top-level keys:
//! - Vulkan Profiles JSON (`capabilities`, `profiles`): `vulkaninfo --json` from 1.3.211 on,
//!   gpuinfo.org profile exports, `dgcc probe` (see `write`), the Khronos/LunarG requirement
//!   profiles, and hand-written files in that shape. `profiles_format` says how blocks,
//!   alternatives and requirement profiles are read.
//! - VulkanCapsViewer raw reports (`properties` with `environment`/`extended`/`core1x`).
//!
//! Why `Result<Profile, String>` and not diagnostics: a profile file is not the description the
//! user is editing, so there is no span to point at; the caller (target resolution) wraps the
//! message, which always starts with the file path, in the E0022 diagnostic. Values a file
//! does not state stay `None`, so the rule that needs one reports it (the warning W0012) instead of dgcc
//! guessing. Requirement profiles are accepted: every value is the bound each matching device
//! meets (the lower bound of a "max" limit, the upper bound of `minSubgroupSize`, the bits
//! every device has), which is exactly the conservative value a check against "any device that
//! meets this profile" needs; the profile's description and citations say so.
//!
//! A key given twice in one object is refused with both positions (`duplicates`): serde_json
//! would keep the last one silently.
//!
//! Never panics: the input is untrusted text (serde_json bounds nesting at 128 levels; every
//! access is checked), and the `profile_json` fuzz target and a proptest hold it to that.

mod caps_viewer;
pub mod coopmat;
mod duplicates;
mod flags;
mod profiles_format;
mod values;
mod write;

use std::path::Path;

use serde_json::Value;

use super::{Profile, ProfileSource};
pub use flags::KNOWN_STAGE_BITS;
pub use write::to_profiles_json;

/// Citations for values read from files (a file's values have no finer source than the file,
/// which `Profile::source` names).
pub const CITE_DEVICE_FILE: &str = "[file] the device's value, from its Vulkan Profiles JSON";
pub const CITE_REQUIREMENT_FILE: &str = "[file] a requirement profile's bound, met by every matching device";
pub const CITE_CAPS_VIEWER: &str = "[file] the device's value, from its VulkanCapsViewer report";

/// The largest profile file read: ten times a full `vulkaninfo --json` with every format.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Read and parse a profile file. Only regular files are read, and at most `MAX_FILE_BYTES`:
/// a target written in a description must not be able to make dgcc read `/dev/zero` or wait
/// on a FIFO.
pub fn load_file(path: &Path) -> Result<Profile, String> {
    let cannot = |why: String| format!("{}: cannot read profile: {why}", path.display());
    let text = crate::files::read_regular_text(path, MAX_FILE_BYTES).map_err(cannot)?;
    parse(&text, path)
}

/// Parse a profile file's text; `path` names the profile (its file stem) and the messages.
pub fn parse(text: &str, path: &Path) -> Result<Profile, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let root: Value = serde_json::from_str(text).map_err(|e| syntax_error(path, e))?;
    if let Some(d) = duplicates::first_duplicate(text) {
        let ((l1, c1), (l2, c2)) = (d.first, d.again);
        return Err(format!(
            "{}:{l2}:{c2}: the key \"{}\" is given twice in one object (first at {l1}:{c1}); a JSON reader keeps only one of them, so dgcc refuses the file: remove one",
            path.display(),
            d.key
        ));
    }
    from_value(root, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn from_value(root: Value, path: &Path) -> Result<Profile, String> {
    let Value::Object(root) = root else {
        return Err(format!("not a device profile: {}", shape_hint(&values::describe(&root))));
    };
    let (stated, description, citation) = if root.contains_key("capabilities") {
        let read = profiles_format::read(&root)?;
        let citation = match read.kind {
            profiles_format::Kind::Device => CITE_DEVICE_FILE,
            profiles_format::Kind::Requirement => CITE_REQUIREMENT_FILE,
        };
        (read.stated, read.description, citation)
    } else if caps_viewer::looks_like(&root) {
        let read = caps_viewer::read(&root)?;
        (read.stated, read.description, CITE_CAPS_VIEWER)
    } else {
        let keys: Vec<&str> = root.keys().take(6).map(String::as_str).collect();
        let found = if keys.is_empty() {
            "an empty object".to_owned()
        } else {
            format!("an object with keys {}", keys.join(", "))
        };
        return Err(format!("not a device profile: {}", shape_hint(&found)));
    };
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = if name.is_empty() { "profile".to_owned() } else { name };
    let mut profile = Profile::new(name, description, ProfileSource::File(path.to_path_buf()));
    for (limit, value) in stated.iter() {
        profile.set_cited(limit, value, citation);
    }
    profile.cooperative_matrix = coopmat::read(&root, citation)?;
    Ok(profile)
}

fn shape_hint(found: &str) -> String {
    format!(
        "expected a Vulkan Profiles JSON object with `capabilities` and `profiles` (as `vulkaninfo --json` or \
`dgcc probe` write it) or a VulkanCapsViewer report (`properties`, `extended`, `environment`); found {found}"
    )
}

/// `dev.json:3:17: not valid JSON: expected `,` or `}``: serde_json's message, position first.
fn syntax_error(path: &Path, e: serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let what = match e.classify() {
        serde_json::error::Category::Eof => "not valid JSON (the file ends early)",
        _ => "not valid JSON",
    };
    format!("{}:{}:{}: {what}: {message}", path.display(), e.line(), e.column())
}
