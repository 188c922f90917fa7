//! Vulkan Profiles JSON (what `vulkaninfo --json` and `dgcc probe` write) → `Profile`.
//! PLACEHOLDER: replaced by the profiles work.

use super::Profile;

pub fn load_file(path: &std::path::Path) -> Result<Profile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read profile {}: {e}", path.display()))?;
    parse(&text, path)
}

pub fn parse(_text: &str, path: &std::path::Path) -> Result<Profile, String> {
    Err(format!("{}: profile JSON loading is not built yet", path.display()))
}
