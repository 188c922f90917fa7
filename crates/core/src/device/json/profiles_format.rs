//! Vulkan Profiles JSON: `vulkaninfo --json`, gpuinfo.org exports, `dgcc probe`, VP files.
//!
//! Why the file is read through its `profiles` section: a Profiles file is a set of named
//! capability blocks plus profiles that list which blocks they need. A device export has one
//! profile listing one block (`device`); a requirement profile such as
//! `VP_LUNARG_desktop_baseline_2024` lists several blocks that must all hold, may list
//! "one of" alternatives (a nested array), and may require other profiles of the same file.
//! Reading exactly what the first profile lists — all blocks combined as "all must hold",
//! alternatives as "only what every alternative guarantees" — gives a device's own values for an
//! export and the guaranteed bounds for a requirement profile, with one code path (see
//! `values::Stated`). A hand-written file without a `profiles` section merges every block.
//!
//! Struct members are read by Vulkan type name (core-promoted and extension aliases alike), so
//! both the pre-1.3.294 vulkaninfo layout (separate `VkPhysicalDeviceSubgroupProperties`,
//! `…SubgroupSizeControlProperties`) and the promoted-only layout load the same values.
//! `VkPhysicalDeviceProperties` (or `…Properties2`'s `properties`) gives its `limits` and the
//! device's `vendorID` (`DEVICE_PROPERTIES`).
//!
//! Extension values (`Limit::is_extension`) come from a block's `extensions` object. A listed
//! extension is `true` in any file. An unlisted one is `false` only where the list is the whole
//! of one device's extensions — a device file (export or hand-written one-device file) with an
//! `extensions` object; vulkaninfo, gpuinfo.org and `dgcc probe` write every extension the
//! device has. A requirement profile lists what it requires, so there an unlisted extension
//! stays unstated, like an unlisted feature.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::values::{self, describe, expected, Dialect, Stated};
use crate::device::Limit::{self, *};

/// What the file is, which decides how its values are cited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One device's values (vulkaninfo, gpuinfo.org, dgcc probe, a hand-written device file).
    Device,
    /// A requirement profile: each value is a bound every matching device meets.
    Requirement,
}

pub struct Read {
    pub stated: Stated,
    pub kind: Kind,
    /// A line for `Profile::description`.
    pub description: String,
}

/// Every name of one Vulkan struct (core, promoted, extension aliases), and the members dgcc
/// reads from it with the value each one gives.
type StructTable = (&'static [&'static str], &'static [(&'static str, Limit)]);

/// Struct members dgcc reads, by every name of the struct that holds them.
const STRUCTS: &[StructTable] = &[
    (
        &["VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT"],
        &[
            ("maxIndirectPipelineCount", MaxIndirectPipelineCount),
            ("maxIndirectShaderObjectCount", MaxIndirectShaderObjectCount),
            ("maxIndirectSequenceCount", MaxIndirectSequenceCount),
            ("maxIndirectCommandsTokenCount", MaxIndirectCommandsTokenCount),
            ("maxIndirectCommandsTokenOffset", MaxIndirectCommandsTokenOffset),
            ("maxIndirectCommandsIndirectStride", MaxIndirectCommandsIndirectStride),
            ("supportedIndirectCommandsInputModes", SupportedIndirectCommandsInputModes),
            ("supportedIndirectCommandsShaderStages", SupportedIndirectCommandsShaderStages),
            (
                "supportedIndirectCommandsShaderStagesPipelineBinding",
                SupportedIndirectCommandsShaderStagesPipelineBinding,
            ),
            ("supportedIndirectCommandsShaderStagesShaderBinding", SupportedIndirectCommandsShaderStagesShaderBinding),
            ("deviceGeneratedCommandsTransformFeedback", DeviceGeneratedCommandsTransformFeedback),
            ("deviceGeneratedCommandsMultiDrawIndirectCount", DeviceGeneratedCommandsMultiDrawIndirectCount),
        ],
    ),
    (
        &["VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT"],
        &[
            ("deviceGeneratedCommands", DeviceGeneratedCommands),
            ("dynamicGeneratedPipelineLayout", DynamicGeneratedPipelineLayout),
        ],
    ),
    (&["VkPhysicalDeviceMeshShaderFeaturesEXT"], &[("meshShader", MeshShader), ("taskShader", TaskShader)]),
    (&["VkPhysicalDeviceShaderObjectFeaturesEXT"], &[("shaderObject", ShaderObject)]),
    (&["VkPhysicalDeviceDescriptorHeapFeaturesEXT"], &[("descriptorHeap", DescriptorHeap)]),
    (&["VkPhysicalDeviceDescriptorHeapPropertiesEXT"], &[("maxPushDataSize", MaxPushDataSize)]),
    (&["VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR"], &[("rayTracingMaintenance1", RayTracingMaintenance1)]),
    (
        &[
            "VkPhysicalDeviceVulkan13Features",
            "VkPhysicalDeviceSubgroupSizeControlFeatures",
            "VkPhysicalDeviceSubgroupSizeControlFeaturesEXT",
        ],
        &[("subgroupSizeControl", SubgroupSizeControl), ("computeFullSubgroups", ComputeFullSubgroups)],
    ),
    (
        &["VkPhysicalDeviceVulkan11Properties"],
        &[("subgroupSize", SubgroupSize), ("subgroupSupportedStages", SubgroupSupportedStages)],
    ),
    (
        &["VkPhysicalDeviceSubgroupProperties"],
        &[("subgroupSize", SubgroupSize), ("supportedStages", SubgroupSupportedStages)],
    ),
    (
        &[
            "VkPhysicalDeviceVulkan13Properties",
            "VkPhysicalDeviceSubgroupSizeControlProperties",
            "VkPhysicalDeviceSubgroupSizeControlPropertiesEXT",
        ],
        &[
            ("minSubgroupSize", MinSubgroupSize),
            ("maxSubgroupSize", MaxSubgroupSize),
            ("maxComputeWorkgroupSubgroups", MaxComputeWorkgroupSubgroups),
            ("requiredSubgroupSizeStages", RequiredSubgroupSizeStages),
        ],
    ),
];

/// `VkPhysicalDeviceLimits` members dgcc reads (besides `maxComputeWorkGroupSize`).
pub const LIMITS: [(&str, Limit); 4] = [
    ("maxComputeWorkGroupInvocations", MaxComputeWorkGroupInvocations),
    ("maxPushConstantsSize", MaxPushConstantsSize),
    ("maxVertexInputBindings", MaxVertexInputBindings),
    ("maxDrawIndirectCount", MaxDrawIndirectCount),
];

/// `VkPhysicalDeviceProperties` members dgcc reads besides its `limits`: who made the device.
pub const DEVICE_PROPERTIES: [(&str, Limit); 1] = [("vendorID", VendorId)];

/// The struct a limit is written in by `write` (the first struct that holds it).
pub fn home_struct(limit: Limit) -> Option<(&'static str, &'static str)> {
    STRUCTS
        .iter()
        .find_map(|(names, members)| members.iter().find(|(_, l)| *l == limit).map(|(member, _)| (names[0], *member)))
}

/// Profile names of device exports: vulkaninfo, gpuinfo.org and `dgcc probe`.
const EXPORT_PREFIXES: [&str; 3] = ["VP_VULKANINFO_", "VP_GPUINFO_", "VP_DGCC_"];

pub fn read(root: &Map<String, Value>) -> Result<Read, String> {
    let capabilities = match root.get("capabilities") {
        Some(Value::Object(c)) => c,
        Some(other) => return Err(expected("capabilities", "an object of capability blocks", other)),
        None => return Err("no `capabilities` object".into()),
    };
    let profiles = match root.get("profiles") {
        None => None,
        Some(Value::Object(p)) if p.is_empty() => None,
        Some(Value::Object(p)) => Some(p),
        Some(other) => return Err(expected("profiles", "an object of profiles", other)),
    };
    let Some(profiles) = profiles else {
        let mut stated = Stated::default();
        for name in capabilities.keys() {
            stated.strongest(&block(capabilities, name)?);
        }
        if capabilities.values().any(lists_extensions) {
            unlisted_extensions_are_absent(&mut stated);
        }
        let description = "hand-written profile without a `profiles` section: every capability block merged".into();
        return Ok(Read { stated, kind: Kind::Device, description });
    };
    let Some((name, profile)) = profiles.iter().next() else {
        return Err("`profiles` is empty".into());
    };
    let mut resolver = Resolver {
        capabilities,
        profiles,
        visiting: vec![],
        profiles_done: HashMap::new(),
        blocks_done: HashMap::new(),
        saw_extension_list: false,
    };
    let mut stated = resolver.profile(name)?;
    let field = |key: &str| profile.get(key).and_then(Value::as_str).unwrap_or("");
    let exported =
        EXPORT_PREFIXES.iter().any(|p| name.starts_with(p)) || field("description").starts_with("Exported from");
    let label = if field("label").is_empty() { name.as_str() } else { field("label") };
    let api = field("api-version");
    let (kind, description) = if exported {
        if resolver.saw_extension_list {
            unlisted_extensions_are_absent(&mut stated);
        }
        (Kind::Device, format!("{label} (profile {name}, Vulkan {api})"))
    } else {
        let d = format!(
            "{label} (profile {name}, Vulkan {api}): a requirement profile; every value is a bound each matching device meets, not one device's value"
        );
        (Kind::Requirement, d)
    };
    Ok(Read { stated, kind, description })
}

/// How deep profiles may require one another: far beyond any real file (the Khronos profiles
/// nest three deep), and shallow enough that a crafted chain cannot exhaust the stack.
const MAX_REQUIRE_DEPTH: usize = 32;

/// Resolves a profile's blocks, alternatives and required profiles, each once: a file that
/// lists one block or profile many times, or requires profiles in a diamond, costs no more
/// than one that lists each once.
struct Resolver<'a> {
    capabilities: &'a Map<String, Value>,
    profiles: &'a Map<String, Value>,
    visiting: Vec<String>,
    profiles_done: HashMap<String, Stated>,
    blocks_done: HashMap<String, Stated>,
    /// Whether a block read has an `extensions` object (see the module header).
    saw_extension_list: bool,
}

impl Resolver<'_> {
    /// The values a profile guarantees: its blocks, its alternatives and the profiles it requires.
    fn profile(&mut self, name: &str) -> Result<Stated, String> {
        if let Some(done) = self.profiles_done.get(name) {
            return Ok(done.clone());
        }
        if self.visiting.iter().any(|v| v == name) {
            return Err(format!("profile `{name}` requires itself (through {})", self.visiting.join(" → ")));
        }
        if self.visiting.len() >= MAX_REQUIRE_DEPTH {
            return Err(format!("profiles require one another more than {MAX_REQUIRE_DEPTH} deep"));
        }
        let at = format!("profiles.{name}");
        let profile = match self.profiles.get(name) {
            Some(Value::Object(p)) => p,
            Some(other) => return Err(expected(&at, "an object", other)),
            None => return Err(format!("{at}: no such profile in this file")),
        };
        self.visiting.push(name.to_owned());
        let mut stated = Stated::default();
        // Required profiles that this file defines; others are not known here, and whatever they
        // would have stated stays unstated (a rule that needs it then names the value).
        if let Some(required) = profile.get("profiles") {
            let Value::Array(required) = required else {
                return Err(expected(&format!("{at}.profiles"), "an array of profile names", required));
            };
            for (i, r) in required.iter().enumerate() {
                let Value::String(r) = r else {
                    return Err(expected(&format!("{at}.profiles[{i}]"), "a profile name", r));
                };
                if self.profiles.contains_key(r) {
                    let values = self.profile(r)?;
                    stated.strongest(&values);
                }
            }
        }
        let list = match profile.get("capabilities") {
            Some(Value::Array(list)) => list,
            Some(other) => {
                return Err(expected(&format!("{at}.capabilities"), "an array of capability block names", other))
            }
            None => return Err(format!("{at}: lists no `capabilities`")),
        };
        for (i, entry) in list.iter().enumerate() {
            let at = format!("{at}.capabilities[{i}]");
            match entry {
                Value::String(b) => stated.strongest(&self.block(b, &at)?),
                Value::Array(alternatives) if !alternatives.is_empty() => {
                    let mut met: Option<Stated> = None;
                    for (j, alt) in alternatives.iter().enumerate() {
                        let Value::String(b) = alt else {
                            return Err(expected(&format!("{at}[{j}]"), "a capability block name", alt));
                        };
                        let values = self.block(b, &format!("{at}[{j}]"))?;
                        met = Some(match met {
                            None => values,
                            Some(m) => m.weakest(&values),
                        });
                    }
                    stated.strongest(&met.unwrap_or_default());
                }
                other => return Err(expected(&at, "a capability block name or a list of alternatives", other)),
            }
        }
        self.visiting.pop();
        self.profiles_done.insert(name.to_owned(), stated.clone());
        Ok(stated)
    }

    fn block(&mut self, name: &str, at: &str) -> Result<Stated, String> {
        if let Some(done) = self.blocks_done.get(name) {
            return Ok(done.clone());
        }
        let Some(found) = self.capabilities.get(name) else {
            return Err(format!("{at}: lists capability block `{name}`, which `capabilities` does not define"));
        };
        self.saw_extension_list |= lists_extensions(found);
        let stated = block(self.capabilities, name)?;
        self.blocks_done.insert(name.to_owned(), stated.clone());
        Ok(stated)
    }
}

/// One capability block: its `features` and `properties` structs.
fn block(capabilities: &Map<String, Value>, name: &str) -> Result<Stated, String> {
    let at = format!("capabilities.{name}");
    let Some(Value::Object(block)) = capabilities.get(name) else {
        let found = capabilities.get(name).map(describe).unwrap_or_else(|| "nothing".into());
        return Err(format!("{at}: expected a capability block object, found {found}"));
    };
    let mut stated = Stated::default();
    for section in ["features", "properties"] {
        let at = format!("{at}.{section}");
        let structs = match block.get(section) {
            None => continue,
            Some(Value::Object(s)) => s,
            Some(other) => return Err(expected(&at, "an object of Vulkan structs", other)),
        };
        for (struct_name, members) in structs {
            read_struct(&mut stated, struct_name, members, &format!("{at}.{struct_name}"))?;
        }
    }
    if let Some(list) = block.get("extensions") {
        let at = format!("{at}.extensions");
        let Value::Object(list) = list else {
            return Err(expected(&at, "an object of extension names and spec versions", list));
        };
        for limit in Limit::ALL.into_iter().filter(|l| l.is_extension()) {
            if let Some(version) = list.get(limit.vk_name()) {
                values::uint32(version, Dialect::Profiles, &format!("{at}.{}", limit.vk_name()))?;
                stated.state(limit, 1);
            }
        }
        without_extension_structs(&mut stated, |name| list.contains_key(name));
    }
    Ok(stated)
}

/// Whether a capability block has an `extensions` object.
fn lists_extensions(block: &Value) -> bool {
    matches!(block.get("extensions"), Some(Value::Object(_)))
}

/// The values of an extension dgcc reads through its structs, which a device without the
/// extension does not have: VK_EXT_descriptor_heap's `descriptorHeap` and `maxPushDataSize`.
/// An extension list that lacks it states them false and 0 (a list that has it leaves them to
/// the structs, which an exporter older than the extension does not write).
pub fn without_extension_structs(stated: &mut Stated, listed: impl Fn(&str) -> bool) {
    if !listed("VK_EXT_descriptor_heap") {
        for limit in [Limit::DescriptorHeap, Limit::MaxPushDataSize] {
            if stated.value(limit).is_none() {
                stated.state(limit, 0);
            }
        }
    }
}

/// A device's whole extension list was read: every extension value it did not list is false.
pub fn unlisted_extensions_are_absent(stated: &mut Stated) {
    for limit in Limit::ALL.into_iter().filter(|l| l.is_extension()) {
        if stated.value(limit).is_none() {
            stated.state(limit, 0);
        }
    }
}

fn read_struct(stated: &mut Stated, struct_name: &str, members: &Value, at: &str) -> Result<(), String> {
    // The path from the struct to its `VkPhysicalDeviceProperties` members.
    let properties = match struct_name {
        "VkPhysicalDeviceProperties" => Some(""),
        "VkPhysicalDeviceProperties2" | "VkPhysicalDeviceProperties2KHR" => Some("properties"),
        _ => None,
    };
    let table = STRUCTS.iter().find(|(names, _)| names.contains(&struct_name)).map(|(_, m)| *m);
    if properties.is_none() && table.is_none() {
        return Ok(());
    }
    let Value::Object(map) = members else {
        return Err(expected(at, "an object of struct members", members));
    };
    if let Some(path) = properties {
        let limits_path = if path.is_empty() { "limits".to_owned() } else { format!("{path}.limits") };
        let wrong = |other| Err(expected(&format!("{at}.{limits_path}"), "an object", other));
        let current = match path {
            "" => map,
            _ => match map.get(path) {
                None => return Ok(()),
                Some(Value::Object(next)) => next,
                Some(other) => return wrong(other),
            },
        };
        for (member, limit) in DEVICE_PROPERTIES {
            if let Some(v) = current.get(member) {
                let here = if path.is_empty() { format!("{at}.{member}") } else { format!("{at}.{path}.{member}") };
                values::state(stated, limit, v, Dialect::Profiles, &here)?;
            }
        }
        return match current.get("limits") {
            None => Ok(()),
            Some(Value::Object(limits)) => {
                read_limits(stated, limits, &format!("{at}.{limits_path}"), Dialect::Profiles)
            }
            Some(other) => wrong(other),
        };
    }
    for (member, limit) in table.unwrap_or_default() {
        if let Some(v) = map.get(*member) {
            values::state(stated, *limit, v, Dialect::Profiles, &format!("{at}.{member}"))?;
        }
    }
    Ok(())
}

/// `VkPhysicalDeviceLimits`, in either format (CapsViewer writes it the same way).
pub fn read_limits(stated: &mut Stated, limits: &Map<String, Value>, at: &str, dialect: Dialect) -> Result<(), String> {
    for (member, limit) in LIMITS {
        if let Some(v) = limits.get(member) {
            values::state(stated, limit, v, dialect, &format!("{at}.{member}"))?;
        }
    }
    if let Some(size) = limits.get("maxComputeWorkGroupSize") {
        let at = format!("{at}.maxComputeWorkGroupSize");
        match size {
            Value::Array(xyz) if xyz.len() == 3 => {
                for (i, limit) in [MaxComputeWorkGroupSizeX, MaxComputeWorkGroupSizeY, MaxComputeWorkGroupSizeZ]
                    .into_iter()
                    .enumerate()
                {
                    values::state(stated, limit, &xyz[i], dialect, &format!("{at}[{i}]"))?;
                }
            }
            other => return Err(expected(&at, "an array of 3 unsigned integers", other)),
        }
    }
    Ok(())
}
