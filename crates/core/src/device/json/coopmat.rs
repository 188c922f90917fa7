//! `VkCooperativeMatrixPropertiesKHR` in a profile file: the list `dgcc probe` writes under a
//! capability block's `properties` (one object per entry, members as the Vulkan struct names
//! them, component types and scopes by their enum names), read back into
//! `Profile::cooperative_matrix`.
//!
//! Why beside the Profiles format rather than in it: the Vulkan Profiles schema has no place
//! for a list of structs, so this key is dgcc's (other tools skip a struct they do not know).
//! A file without it leaves the list unstated (an extension list is not read for it: dgcc's
//! own exports list only the extensions it reads as values); `dgcc probe` writes it always,
//! empty on a device without `VK_KHR_cooperative_matrix`.

use serde_json::{json, Map, Value};

use crate::device::coopmat::{component_from_name, scope_name, CoopMatShape, CoopMatrices};

pub const KEY: &str = "VkCooperativeMatrixPropertiesKHR";

/// A component type by its enum name, or by number where dgcc knows no name for it (a newer
/// type, as `VK_EXT_shader_float8`'s), which `component` reads back.
fn component_value(v: u32) -> Value {
    match crate::device::coopmat::COMPONENTS.iter().find(|c| c.0 == v) {
        Some(c) => Value::from(format!("VK_COMPONENT_TYPE_{}_KHR", c.1)),
        None => Value::from(v),
    }
}

/// A scope by its enum name, or by number where it has none.
fn scope_value(v: u32) -> Value {
    match scope_name(v) {
        "?" => Value::from(v),
        name => Value::from(format!("VK_SCOPE_{name}_KHR")),
    }
}

/// A 32-bit enum value given as a number.
fn enum_number(n: &serde_json::Number, at: &str, what: &str) -> Result<u32, String> {
    n.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| format!("{at}: {n} is not a {what} (a 32-bit unsigned value)"))
}

/// The JSON list of `m`.
pub fn write(m: &CoopMatrices) -> Value {
    Value::Array(
        m.shapes
            .iter()
            .map(|s| {
                json!({
                    "MSize": s.m, "NSize": s.n, "KSize": s.k,
                    "AType": component_value(s.a),
                    "BType": component_value(s.b),
                    "CType": component_value(s.c),
                    "ResultType": component_value(s.result),
                    "saturatingAccumulation": s.saturating,
                    "scope": scope_value(s.scope),
                })
            })
            .collect(),
    )
}

fn component(v: Option<&Value>, at: &str) -> Result<u32, String> {
    match v {
        Some(Value::String(s)) => s
            .strip_prefix("VK_COMPONENT_TYPE_")
            .and_then(|s| s.strip_suffix("_KHR").or_else(|| s.strip_suffix("_NV")))
            .and_then(component_from_name)
            .ok_or_else(|| format!("{at}: `{s}` is not a VkComponentTypeKHR dgcc knows")),
        Some(Value::Number(n)) => enum_number(n, at, "VkComponentTypeKHR"),
        _ => Err(format!("{at}: expected a VkComponentTypeKHR name")),
    }
}

fn scope(v: Option<&Value>, at: &str) -> Result<u32, String> {
    match v {
        Some(Value::String(s)) => match s.as_str() {
            "VK_SCOPE_DEVICE_KHR" => Ok(1),
            "VK_SCOPE_WORKGROUP_KHR" => Ok(2),
            "VK_SCOPE_SUBGROUP_KHR" => Ok(3),
            "VK_SCOPE_QUEUE_FAMILY_KHR" => Ok(5),
            _ => Err(format!("{at}: `{s}` is not a VkScopeKHR")),
        },
        Some(Value::Number(n)) => enum_number(n, at, "VkScopeKHR"),
        _ => Err(format!("{at}: expected a VkScopeKHR name")),
    }
}

fn size(m: &Map<String, Value>, key: &str, at: &str) -> Result<u32, String> {
    m.get(key)
        .and_then(Value::as_u64)
        .filter(|v| *v <= u32::MAX as u64)
        .map(|v| v as u32)
        .ok_or_else(|| format!("{at}.{key}: expected a 32-bit unsigned integer"))
}

/// The list in a Profiles document, if a capability block states it.
pub fn read(root: &Map<String, Value>, citation: &str) -> Result<Option<CoopMatrices>, String> {
    let Some(Value::Object(capabilities)) = root.get("capabilities") else { return Ok(None) };
    let mut shapes: Option<Vec<CoopMatShape>> = None;
    for (block_name, block) in capabilities {
        let Some(list) = block.get("properties").and_then(|p| p.get(KEY)) else { continue };
        let at = format!("capabilities.{block_name}.properties.{KEY}");
        let Value::Array(list) = list else { return Err(format!("{at}: expected a list of entries")) };
        let mut out = shapes.take().unwrap_or_default();
        for (i, e) in list.iter().enumerate() {
            let at = format!("{at}[{i}]");
            let Value::Object(m) = e else { return Err(format!("{at}: expected an object")) };
            out.push(CoopMatShape {
                m: size(m, "MSize", &at)?,
                n: size(m, "NSize", &at)?,
                k: size(m, "KSize", &at)?,
                a: component(m.get("AType"), &format!("{at}.AType"))?,
                b: component(m.get("BType"), &format!("{at}.BType"))?,
                c: component(m.get("CType"), &format!("{at}.CType"))?,
                result: component(m.get("ResultType"), &format!("{at}.ResultType"))?,
                // A VkBool32, as the file's other booleans: true/false or 1/0; required, as the
                // struct always has it (`dgcc probe` writes it).
                saturating: match m.get("saturatingAccumulation").and_then(|v| match v {
                    Value::Bool(b) => Some(*b),
                    Value::Number(n) => n.as_u64().filter(|n| *n <= 1).map(|n| n == 1),
                    _ => None,
                }) {
                    Some(b) => b,
                    None => return Err(format!("{at}.saturatingAccumulation: expected true or false (or 1 or 0)")),
                },
                scope: scope(m.get("scope"), &format!("{at}.scope"))?,
            });
        }
        shapes = Some(out);
    }
    Ok(shapes.map(|shapes| CoopMatrices { shapes, citation: citation.to_string() }))
}
