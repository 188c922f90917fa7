//! The raw report JSON of VulkanCapsViewer (what it uploads to gpuinfo.org, "Save JSON").
//!
//! Why a reader of its own: the report is not a Profiles file. Core values sit in fixed places
//! with integer bitmasks (`properties.limits`, `properties.subgroupProperties`,
//! `core11.properties`, `core13.properties`/`features`), and extension values come as flat
//! lists — `extended.deviceproperties2: [{name, extension, value}]` with the value as a string
//! ("4294967295", "true"), `extended.devicefeatures2: [{name, extension, supported}]`. Member
//! names repeat across extensions (`maxIndirectSequenceCount` belongs to both the NV and the
//! EXT device-generated-commands extensions, `meshShader` to NV and EXT mesh shading), so a
//! list entry counts only when its `extension` is the one dgcc reads it from. The top-level
//! `extensions` list (`[{extensionName, specVersion}]`) is the device's whole list, so an
//! extension value (`Limit::is_extension`) is true when listed and false when not; a report
//! without the list leaves them unstated.

use serde_json::{Map, Value};

use super::profiles_format::{read_limits, unlisted_extensions_are_absent, without_extension_structs};
use super::values::{self, expected, Dialect, Stated};
use crate::device::Limit::{self, *};

/// Whether `root` looks like a CapsViewer report rather than some other JSON object.
pub fn looks_like(root: &Map<String, Value>) -> bool {
    root.contains_key("properties")
        && ["environment", "extended", "core11", "core13"].iter().any(|k| root.contains_key(*k))
}

/// Core members: (path of the object, member, limit).
const CORE: &[(&str, &str, Limit)] = &[
    ("properties", "vendorID", VendorId),
    ("properties.subgroupProperties", "subgroupSize", SubgroupSize),
    ("properties.subgroupProperties", "supportedStages", SubgroupSupportedStages),
    ("core11.properties", "subgroupSize", SubgroupSize),
    ("core11.properties", "subgroupSupportedStages", SubgroupSupportedStages),
    ("core13.properties", "minSubgroupSize", MinSubgroupSize),
    ("core13.properties", "maxSubgroupSize", MaxSubgroupSize),
    ("core13.properties", "maxComputeWorkgroupSubgroups", MaxComputeWorkgroupSubgroups),
    ("core13.properties", "requiredSubgroupSizeStages", RequiredSubgroupSizeStages),
    ("core13.features", "subgroupSizeControl", SubgroupSizeControl),
    ("core13.features", "computeFullSubgroups", ComputeFullSubgroups),
];

/// Extension members: (extension, member, limit); properties and features alike.
const EXTENDED: &[(&str, &str, Limit)] = &[
    ("VK_EXT_device_generated_commands", "maxIndirectPipelineCount", MaxIndirectPipelineCount),
    ("VK_EXT_device_generated_commands", "maxIndirectShaderObjectCount", MaxIndirectShaderObjectCount),
    ("VK_EXT_device_generated_commands", "maxIndirectSequenceCount", MaxIndirectSequenceCount),
    ("VK_EXT_device_generated_commands", "maxIndirectCommandsTokenCount", MaxIndirectCommandsTokenCount),
    ("VK_EXT_device_generated_commands", "maxIndirectCommandsTokenOffset", MaxIndirectCommandsTokenOffset),
    ("VK_EXT_device_generated_commands", "maxIndirectCommandsIndirectStride", MaxIndirectCommandsIndirectStride),
    ("VK_EXT_device_generated_commands", "supportedIndirectCommandsInputModes", SupportedIndirectCommandsInputModes),
    (
        "VK_EXT_device_generated_commands",
        "supportedIndirectCommandsShaderStages",
        SupportedIndirectCommandsShaderStages,
    ),
    (
        "VK_EXT_device_generated_commands",
        "supportedIndirectCommandsShaderStagesPipelineBinding",
        SupportedIndirectCommandsShaderStagesPipelineBinding,
    ),
    (
        "VK_EXT_device_generated_commands",
        "supportedIndirectCommandsShaderStagesShaderBinding",
        SupportedIndirectCommandsShaderStagesShaderBinding,
    ),
    (
        "VK_EXT_device_generated_commands",
        "deviceGeneratedCommandsTransformFeedback",
        DeviceGeneratedCommandsTransformFeedback,
    ),
    (
        "VK_EXT_device_generated_commands",
        "deviceGeneratedCommandsMultiDrawIndirectCount",
        DeviceGeneratedCommandsMultiDrawIndirectCount,
    ),
    ("VK_EXT_device_generated_commands", "deviceGeneratedCommands", DeviceGeneratedCommands),
    ("VK_EXT_device_generated_commands", "dynamicGeneratedPipelineLayout", DynamicGeneratedPipelineLayout),
    ("VK_EXT_mesh_shader", "meshShader", MeshShader),
    ("VK_EXT_mesh_shader", "taskShader", TaskShader),
    ("VK_EXT_shader_object", "shaderObject", ShaderObject),
    ("VK_KHR_ray_tracing_maintenance1", "rayTracingMaintenance1", RayTracingMaintenance1),
    ("VK_EXT_subgroup_size_control", "minSubgroupSize", MinSubgroupSize),
    ("VK_EXT_subgroup_size_control", "maxSubgroupSize", MaxSubgroupSize),
    ("VK_EXT_subgroup_size_control", "maxComputeWorkgroupSubgroups", MaxComputeWorkgroupSubgroups),
    ("VK_EXT_subgroup_size_control", "requiredSubgroupSizeStages", RequiredSubgroupSizeStages),
    ("VK_EXT_subgroup_size_control", "subgroupSizeControl", SubgroupSizeControl),
    ("VK_EXT_subgroup_size_control", "computeFullSubgroups", ComputeFullSubgroups),
];

pub struct Read {
    pub stated: Stated,
    pub description: String,
}

pub fn read(root: &Map<String, Value>) -> Result<Read, String> {
    let mut stated = Stated::default();
    if let Some(limits) = object_at(root, "properties.limits")? {
        read_limits(&mut stated, limits, "properties.limits", Dialect::CapsViewer)?;
    }
    for (path, member, limit) in CORE {
        if let Some(v) = object_at(root, path)?.and_then(|o| o.get(*member)) {
            values::state(&mut stated, *limit, v, Dialect::CapsViewer, &format!("{path}.{member}"))?;
        }
    }
    for (list, value_key) in [("deviceproperties2", "value"), ("devicefeatures2", "supported")] {
        let path = format!("extended.{list}");
        let entries = match object_at(root, "extended")?.and_then(|e| e.get(list)) {
            None => continue,
            Some(Value::Array(entries)) => entries,
            Some(other) => return Err(expected(&path, "an array of entries", other)),
        };
        for (i, entry) in entries.iter().enumerate() {
            let at = format!("{path}[{i}]");
            let Value::Object(entry) = entry else {
                return Err(expected(&at, "an object with `name` and `extension`", entry));
            };
            let text = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or("");
            let (name, extension) = (text("name"), text("extension"));
            let Some((_, _, limit)) = EXTENDED.iter().find(|(e, n, _)| *e == extension && *n == name) else {
                continue;
            };
            let Some(v) = entry.get(value_key) else {
                return Err(format!("{at}: `{name}` has no `{value_key}`"));
            };
            values::state(&mut stated, *limit, v, Dialect::CapsViewer, &format!("{at}.{value_key}"))?;
        }
    }
    if let Some(list) = root.get("extensions") {
        read_extensions(&mut stated, list)?;
    }
    let device = object_at(root, "properties")?.and_then(|p| p.get("deviceName")).and_then(Value::as_str);
    let driver = object_at(root, "properties")?.and_then(|p| p.get("driverVersionText")).and_then(Value::as_str);
    let mut description = device.unwrap_or("unnamed device").to_owned();
    if let Some(d) = driver {
        description.push_str(&format!(", driver {d}"));
    }
    description.push_str(" (VulkanCapsViewer report)");
    Ok(Read { stated, description })
}

/// `extensions: [{extensionName, specVersion}]`: the extensions dgcc reads, listed or not.
fn read_extensions(stated: &mut Stated, list: &Value) -> Result<(), String> {
    let Value::Array(entries) = list else {
        return Err(expected("extensions", "an array of extensions", list));
    };
    for (i, entry) in entries.iter().enumerate() {
        let name = match entry {
            Value::Object(e) => e.get("extensionName").and_then(Value::as_str),
            _ => None,
        };
        let Some(name) = name else {
            return Err(expected(&format!("extensions[{i}]"), "an object with an `extensionName` string", entry));
        };
        if let Some(limit) = Limit::ALL.into_iter().find(|l| l.is_extension() && l.vk_name() == name) {
            stated.state(limit, 1);
        }
    }
    unlisted_extensions_are_absent(stated);
    let listed = |name: &str| entries.iter().any(|e| e.get("extensionName").and_then(Value::as_str) == Some(name));
    without_extension_structs(stated, listed);
    Ok(())
}

/// The object at a dotted path, `None` where the path ends early; an error where a step is
/// not an object.
fn object_at<'a>(root: &'a Map<String, Value>, path: &str) -> Result<Option<&'a Map<String, Value>>, String> {
    let mut current = root;
    let mut walked = String::new();
    for key in path.split('.') {
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(key);
        match current.get(key) {
            None => return Ok(None),
            Some(Value::Object(next)) => current = next,
            Some(other) => return Err(expected(&walked, "an object", other)),
        }
    }
    Ok(Some(current))
}
