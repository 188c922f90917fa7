//! `Profile` → Vulkan Profiles JSON, the format `dgcc probe` writes and `parse` reads back.
//!
//! Why the same shape as `vulkaninfo --json` (one `device` block, Vulkan struct names, flag
//! names instead of integers, a `VP_DGCC_…` profile marked "Exported from dgcc"): one format
//! for every device file means one loader, and the written file is also readable by the
//! Khronos profiles tooling. Only values the profile states are written, so a probe that
//! could not read a value leaves it absent, never zero.
//!
//! Extension values (`Limit::is_extension`) go in the block's `extensions` object, which the
//! loader reads as the device's whole list (absent = false). So the object is written only when
//! the profile states every extension value, listing those that are true; otherwise a `false`
//! could not be told from "not known" and the object is left out (each reads back unstated).
//! Each is written with spec version 1, the first revision, which every version includes.

use serde_json::{json, Map, Value};

use super::flags;
use super::profiles_format::{home_struct, DEVICE_PROPERTIES, LIMITS};
use crate::device::{Limit, LimitKind, Profile};

/// The JSON text of `profile`, for a device reporting `api_version` (`"1.4.305"`).
pub fn to_profiles_json(profile: &Profile, api_version: &str) -> String {
    let mut features = Map::new();
    let mut properties = Map::new();
    let mut limits = Map::new();
    // `VkPhysicalDeviceProperties` itself: its members (`vendorID`), then its `limits`.
    let mut device_properties = Map::new();
    let mut work_group_size = [None; 3];
    let mut extensions = Some(Map::new());
    for (limit, value, _) in profile.entries() {
        if limit.is_extension() {
            match (value, extensions.as_mut()) {
                (None, _) => extensions = None,
                (Some(0), _) | (_, None) => {}
                (Some(_), Some(list)) => {
                    list.insert(limit.vk_name().into(), json!(1));
                }
            }
            continue;
        }
        let Some(value) = value else { continue };
        let written = written_value(limit, value);
        let xyz = [Limit::MaxComputeWorkGroupSizeX, Limit::MaxComputeWorkGroupSizeY, Limit::MaxComputeWorkGroupSizeZ];
        if let Some(i) = xyz.iter().position(|l| *l == limit) {
            work_group_size[i] = Some(value);
        } else if let Some((member, _)) = LIMITS.iter().find(|(_, l)| *l == limit) {
            limits.insert((*member).into(), written);
        } else if let Some((member, _)) = DEVICE_PROPERTIES.iter().find(|(_, l)| *l == limit) {
            device_properties.insert((*member).into(), written);
        } else if let Some((structure, member)) = home_struct(limit) {
            let section = if limit.is_feature() { &mut features } else { &mut properties };
            let entry = section.entry(structure).or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(members) = entry {
                members.insert(member.into(), written);
            }
        }
    }
    // The array only makes sense whole; a probe reads all three or none.
    if let [Some(x), Some(y), Some(z)] = work_group_size {
        limits.insert("maxComputeWorkGroupSize".into(), json!([x, y, z]));
    }
    if !limits.is_empty() {
        device_properties.insert("limits".into(), Value::Object(limits));
    }
    if !device_properties.is_empty() {
        properties.insert("VkPhysicalDeviceProperties".into(), Value::Object(device_properties));
    }
    if let Some(m) = &profile.cooperative_matrix {
        properties.insert(super::coopmat::KEY.into(), super::coopmat::write(m));
    }
    let mut device = Map::new();
    if let Some(list) = extensions.as_mut() {
        // A list read back states descriptorHeap and maxPushDataSize false and 0 when it lacks
        // VK_EXT_descriptor_heap; list it unless the profile states exactly that.
        let heap = [Limit::DescriptorHeap, Limit::MaxPushDataSize].map(|l| profile.value(l));
        if heap != [Some(0), Some(0)] {
            list.insert("VK_EXT_descriptor_heap".into(), json!(1));
        }
    }
    if let Some(list) = extensions {
        device.insert("extensions".into(), Value::Object(list));
    }
    device.insert("features".into(), Value::Object(features));
    device.insert("properties".into(), Value::Object(properties));
    let name = format!("VP_DGCC_{}", sanitize(&profile.name));
    let doc = json!({
        "$schema": "https://schema.khronos.org/vulkan/profiles-0.8-latest.json#",
        "capabilities": { "device": device },
        "profiles": { name: {
            "version": 1,
            "api-version": api_version,
            "label": profile.description,
            "description": "Exported from dgcc",
            "capabilities": ["device"],
        } },
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

fn written_value(limit: Limit, value: u64) -> Value {
    match limit.kind() {
        LimitKind::Bool => Value::Bool(value != 0),
        LimitKind::Stages => json!(flags::stage_names(value as u32)),
        LimitKind::InputModes => json!(flags::input_mode_names(value as u32)),
        LimitKind::Count | LimitKind::Id => json!(value),
    }
}

/// Profile names match `^VP_[A-Z0-9]+_[A-Za-z0-9_]+`.
fn sanitize(name: &str) -> String {
    let s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if s.is_empty() {
        "device".into()
    } else {
        s
    }
}
