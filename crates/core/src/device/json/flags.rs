//! Vulkan flag names in profile files → bits, and back.
//!
//! Why a parser instead of a lookup table of full names: the same bit is written under several
//! spellings — `VK_SHADER_STAGE_TASK_BIT_EXT` by vulkaninfo, `VK_SHADER_STAGE_TASK_BIT_NV` by
//! gpuinfo.org exports, `SHADER_STAGE_TASK_BIT_EXT` in vulkaninfo's text output, `_KHR`/`_NV`
//! ray-tracing aliases. Splitting a name into prefix, base and vendor tag maps every alias of a
//! bit with one row per bit. Composite names (`VK_SHADER_STAGE_ALL`, `…_ALL_GRAPHICS`) are
//! recognised and dropped: gpuinfo.org exports once added them to any mask they intersected,
//! and real bits are always listed one by one besides them, so dropping them loses nothing.
//! An unknown name is an error, not silently ignored, so a typo in a hand-written profile does
//! not quietly remove a stage.

/// One `VkShaderStageFlagBits` bit by its base name (no prefix, no `_BIT`, no vendor tag).
const STAGE_BITS: [(&str, u32); 16] = [
    ("VERTEX", 0x1),
    ("TESSELLATION_CONTROL", 0x2),
    ("TESSELLATION_EVALUATION", 0x4),
    ("GEOMETRY", 0x8),
    ("FRAGMENT", 0x10),
    ("COMPUTE", 0x20),
    ("TASK", 0x40),
    ("MESH", 0x80),
    ("RAYGEN", 0x100),
    ("ANY_HIT", 0x200),
    ("CLOSEST_HIT", 0x400),
    ("MISS", 0x800),
    ("INTERSECTION", 0x1000),
    ("CALLABLE", 0x2000),
    ("SUBPASS_SHADING", 0x4000),
    ("CLUSTER_CULLING", 0x80000),
];

/// The vendor tag vulkaninfo writes for each stage bit (the spelling `write` uses).
const STAGE_VENDOR: [&str; 16] =
    ["", "", "", "", "", "", "_EXT", "_EXT", "_KHR", "_KHR", "_KHR", "_KHR", "_KHR", "_KHR", "_HUAWEI", "_HUAWEI"];

/// Composite `VkShaderStageFlagBits` names: not bits of their own.
const STAGE_COMPOSITES: [&str; 2] = ["ALL", "ALL_GRAPHICS"];

/// `VkIndirectCommandsInputModeFlagBitsEXT` by base name.
const INPUT_MODE_BITS: [(&str, u32); 2] = [("VULKAN_INDEX_BUFFER", 0x1), ("DXGI_INDEX_BUFFER", 0x2)];

/// Every stage bit a profile file can name (the 14 stages dgcc knows and the two Huawei ones).
pub const KNOWN_STAGE_BITS: u32 = 0x8_7FFF;

/// What a flag name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagName {
    Bit(u32),
    /// A composite such as `VK_SHADER_STAGE_ALL`: ignored.
    Composite,
}

/// A `VkShaderStageFlagBits` name, with or without `VK_`, with any vendor tag.
pub fn stage(name: &str) -> Option<FlagName> {
    let rest = strip_prefix(name, "SHADER_STAGE_")?;
    if STAGE_COMPOSITES.contains(&rest) {
        return Some(FlagName::Composite);
    }
    lookup(&STAGE_BITS, rest).map(FlagName::Bit)
}

/// A `VkIndirectCommandsInputModeFlagBitsEXT` name, with or without `VK_`, `_BIT`, vendor tag.
pub fn input_mode(name: &str) -> Option<u32> {
    lookup(&INPUT_MODE_BITS, strip_prefix(name, "INDIRECT_COMMANDS_INPUT_MODE_")?)
}

/// The names of the bits of a stage mask, as vulkaninfo writes them; bits no name covers are
/// dropped, as vulkaninfo drops them.
pub fn stage_names(mask: u32) -> Vec<String> {
    STAGE_BITS
        .iter()
        .zip(STAGE_VENDOR)
        .filter(|((_, bit), _)| mask & bit != 0)
        .map(|((base, _), vendor)| format!("VK_SHADER_STAGE_{base}_BIT{vendor}"))
        .collect()
}

/// The names of the bits of an input-mode mask.
pub fn input_mode_names(mask: u32) -> Vec<String> {
    INPUT_MODE_BITS
        .iter()
        .filter(|(_, bit)| mask & bit != 0)
        .map(|(base, _)| format!("VK_INDIRECT_COMMANDS_INPUT_MODE_{base}_EXT"))
        .collect()
}

fn strip_prefix<'a>(name: &'a str, family: &str) -> Option<&'a str> {
    name.strip_prefix("VK_").unwrap_or(name).strip_prefix(family)
}

/// Find `rest` in `table` after removing an optional vendor tag and an optional `_BIT`.
fn lookup(table: &[(&str, u32)], rest: &str) -> Option<u32> {
    let find = |base: &str| table.iter().find(|(b, _)| *b == base).map(|(_, bit)| *bit);
    let without_bit = |s: &'_ str| s.strip_suffix("_BIT").map(str::to_owned).unwrap_or_else(|| s.to_owned());
    if let Some(bit) = find(&without_bit(rest)) {
        return Some(bit);
    }
    let (base, tag) = rest.rsplit_once('_')?;
    if !is_vendor_tag(tag) {
        return None;
    }
    find(&without_bit(base))
}

/// `EXT`, `KHR`, `NV`, `HUAWEI`, `AMDX`…: the author tags of vk.xml, all upper-case letters.
fn is_vendor_tag(tag: &str) -> bool {
    (2..=8).contains(&tag.len()) && tag.bytes().all(|b| b.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_of_a_stage_maps_to_its_bit() {
        assert_eq!(stage("VK_SHADER_STAGE_VERTEX_BIT"), Some(FlagName::Bit(0x1)));
        assert_eq!(stage("SHADER_STAGE_MESH_BIT_EXT"), Some(FlagName::Bit(0x80)));
        assert_eq!(stage("VK_SHADER_STAGE_MESH_BIT_NV"), Some(FlagName::Bit(0x80)));
        assert_eq!(stage("VK_SHADER_STAGE_TASK_BIT_NV"), Some(FlagName::Bit(0x40)));
        assert_eq!(stage("VK_SHADER_STAGE_RAYGEN_BIT_NV"), Some(FlagName::Bit(0x100)));
        assert_eq!(stage("VK_SHADER_STAGE_CALLABLE_BIT_KHR"), Some(FlagName::Bit(0x2000)));
        assert_eq!(stage("VK_SHADER_STAGE_CLUSTER_CULLING_BIT_HUAWEI"), Some(FlagName::Bit(0x80000)));
        assert_eq!(stage("VK_SHADER_STAGE_ALL"), Some(FlagName::Composite));
        assert_eq!(stage("VK_SHADER_STAGE_ALL_GRAPHICS"), Some(FlagName::Composite));
    }

    #[test]
    fn misspelt_or_foreign_names_are_not_stages() {
        for bad in [
            "VK_SHADER_STAGE_VERTX_BIT",
            "VK_SHADER_STAGE_",
            "VK_SHADER_STAGE_COMPUTE_BIT_ext",
            "VK_SUBGROUP_FEATURE_BASIC_BIT",
            "COMPUTE",
            "",
            "VK_SHADER_STAGE_COMPUTE_BIT_EXTRAVAGANT",
        ] {
            assert_eq!(stage(bad), None, "{bad}");
        }
    }

    #[test]
    fn input_modes_with_and_without_tags() {
        assert_eq!(input_mode("VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT"), Some(1));
        assert_eq!(input_mode("VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT"), Some(2));
        assert_eq!(input_mode("INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_BIT_EXT"), Some(2));
        assert_eq!(input_mode("VK_INDIRECT_COMMANDS_INPUT_MODE_OPENGL_INDEX_BUFFER_EXT"), None);
    }

    #[test]
    fn written_names_read_back_to_the_same_bits() {
        let mut mask = 0;
        for name in stage_names(u32::MAX) {
            match stage(&name) {
                Some(FlagName::Bit(b)) => mask |= b,
                other => panic!("{name}: {other:?}"),
            }
        }
        assert_eq!(mask, KNOWN_STAGE_BITS);
        let modes: u32 = input_mode_names(3).iter().filter_map(|n| input_mode(n)).sum();
        assert_eq!(modes, 3);
    }
}
