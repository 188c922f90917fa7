//! Profiles as text for `dgcc profiles [NAME]`.
//!
//! Why here and not in the CLI: the table is built from `Limit::ALL`, `Limit::format` and the
//! citations, which are device-module knowledge; the CLI only prints the string. Every value is
//! shown with where it comes from, and an unstated value is shown as such, because "why does
//! dgcc say my device lacks X" is answered by this table.

use std::fmt::Write as _;

use super::{builtin, Limit, Profile, ProfileSource, BUILTIN_NAMES};

/// The group a value is listed under.
fn section(limit: Limit) -> &'static str {
    use Limit::*;
    match limit {
        MaxIndirectPipelineCount
        | MaxIndirectShaderObjectCount
        | MaxIndirectSequenceCount
        | MaxIndirectCommandsTokenCount
        | MaxIndirectCommandsTokenOffset
        | MaxIndirectCommandsIndirectStride
        | SupportedIndirectCommandsInputModes
        | SupportedIndirectCommandsShaderStages
        | SupportedIndirectCommandsShaderStagesPipelineBinding
        | SupportedIndirectCommandsShaderStagesShaderBinding
        | DeviceGeneratedCommandsTransformFeedback
        | DeviceGeneratedCommandsMultiDrawIndirectCount => "VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT",
        SubgroupSize
        | MinSubgroupSize
        | MaxSubgroupSize
        | MaxComputeWorkgroupSubgroups
        | RequiredSubgroupSizeStages
        | SubgroupSupportedStages => "subgroups (Vulkan 1.1 / 1.3 properties)",
        MaxComputeWorkGroupSizeX
        | MaxComputeWorkGroupSizeY
        | MaxComputeWorkGroupSizeZ
        | MaxComputeWorkGroupInvocations
        | MaxPushConstantsSize
        | MaxVertexInputBindings
        | MaxDrawIndirectCount => "VkPhysicalDeviceLimits",
        NvMeshShader => "device extensions",
        MaxPushDataSize => "VkPhysicalDeviceDescriptorHeapPropertiesEXT",
        VendorId => "VkPhysicalDeviceProperties",
        _ => "features",
    }
}

/// A table of every value of `profile`: Vulkan name, value, source.
pub fn render_profile(profile: &Profile) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", profile.name, profile.description);
    let source = match &profile.source {
        ProfileSource::Builtin => "built in".to_owned(),
        ProfileSource::File(path) => format!("file {}", path.display()),
        ProfileSource::Live => "read from the live device".to_owned(),
    };
    let stated = profile.entries().filter(|(_, v, _)| v.is_some()).count();
    let _ = writeln!(out, "source: {source}; states {stated} of {} values", Limit::ALL.len());
    let rows: Vec<(Limit, String, &str)> = profile
        .entries()
        .map(|(limit, value, cite)| {
            let shown = value.map(|v| limit.format(v)).unwrap_or_else(|| "(not stated)".into());
            (limit, shown, cite.unwrap_or(""))
        })
        .collect();
    let name_width = rows.iter().map(|(l, _, _)| l.vk_name().len()).max().unwrap_or(0);
    let value_width = rows.iter().map(|(_, v, _)| v.chars().count()).max().unwrap_or(0).min(40);
    let mut current = "";
    for (limit, shown, cite) in &rows {
        if section(*limit) != current {
            current = section(*limit);
            let _ = writeln!(out, "\n{current}");
        }
        // A long stage list gets its own line, so the sources stay in one column.
        if shown.chars().count() > value_width && !cite.is_empty() {
            let _ = writeln!(out, "  {:name_width$}  {shown}", limit.vk_name());
            let _ = writeln!(out, "  {:name_width$}  {:value_width$}  {cite}", "", "");
        } else {
            let line = format!("  {:name_width$}  {:value_width$}  {cite}", limit.vk_name(), shown);
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let _ = writeln!(out, "\ncooperative matrices (VkCooperativeMatrixPropertiesKHR, M×N×K A×B+C=result)");
    match &profile.cooperative_matrix {
        None => {
            let _ = writeln!(out, "  (not stated)");
        }
        Some(m) => {
            let _ = writeln!(out, "  {} shape(s)  {}", m.shapes.len(), m.citation);
            for s in &m.shapes {
                let _ = writeln!(
                    out,
                    "  {}  {}",
                    crate::device::coopmat::scope_name(s.scope).to_lowercase(),
                    crate::device::coopmat::describe_shape(s)
                );
            }
        }
    }
    out
}

/// The built-in profiles, one per line, with their descriptions.
pub fn render_list() -> String {
    let width = BUILTIN_NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
    let mut out = String::from("built-in profiles:\n");
    for name in BUILTIN_NAMES {
        let description = builtin(name).map(|p| p.description).unwrap_or_default();
        let _ = writeln!(out, "  {name:width$}  {description}");
    }
    out.push_str(
        "\nA target may also be a path to a device file: Vulkan Profiles JSON (`vulkaninfo --json`, \
`dgcc probe`, a gpuinfo.org export) or a VulkanCapsViewer report.\n`dgcc profiles NAME` shows every value of one profile with its source.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_is_listed_once_with_its_source() {
        let p = builtin("nvidia").unwrap();
        let text = render_profile(&p);
        let lines: Vec<&str> = text.lines().collect();
        for limit in Limit::ALL {
            let at: Vec<usize> =
                (0..lines.len()).filter(|i| lines[*i].split_whitespace().next() == Some(limit.vk_name())).collect();
            assert_eq!(at.len(), 1, "{limit}");
            // The source is on the value's line, or on the next one after a long stage list.
            let row = format!("{}{}", lines[at[0]], lines.get(at[0] + 1).copied().unwrap_or(""));
            assert!(row.contains("[measured]"), "{row}");
        }
        let stages = lines.iter().position(|l| l.trim_start().starts_with("requiredSubgroupSizeStages")).unwrap();
        assert!(lines[stages].contains("Vertex | TessControl") && !lines[stages].contains("[measured]"));
        assert!(lines[stages + 1].trim_start().starts_with("[measured]"));
        assert!(text.contains("maxIndirectCommandsTokenOffset") && text.contains("0xFFFFFFFF"));
        assert!(text.contains("states 37 of 37 values"));
        assert!(text.contains("\nVkPhysicalDeviceProperties\n  vendorID "), "{text}");
        assert!(text.contains("0x10DE (NVIDIA)"), "{text}");
    }

    #[test]
    fn unstated_values_say_so() {
        let text = render_profile(&builtin("radv").unwrap());
        let line = text.lines().find(|l| l.trim_start().starts_with("shaderObject")).unwrap();
        assert!(line.contains("(not stated)"), "{line}");
    }

    #[test]
    fn the_list_names_every_builtin_with_its_description() {
        let text = render_list();
        for name in BUILTIN_NAMES {
            let p = builtin(name).unwrap();
            assert!(text.lines().any(|l| l.trim_start().starts_with(name) && l.contains(&p.description)), "{name}");
        }
    }
}
