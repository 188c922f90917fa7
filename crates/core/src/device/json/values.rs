//! Reading one value out of profile JSON, and gathering the values a file states.
//!
//! Why `Stated` combines instead of overwriting: one file can state a value more than once
//! (vulkaninfo 1.3.239 prints the subgroup-size values in both the promoted struct and the
//! `…SubgroupSizeControlProperties` struct; a requirement profile spreads its needs over several
//! capability blocks that must all hold). Combining by the value's limit type — the larger of
//! two lower bounds, the smaller of two upper bounds, the union of two bit sets — is a no-op
//! when a device export repeats itself, and the right reading when a requirement profile does.
//! `weakest` is the dual, for "one of these alternatives" lists: only what every alternative
//! guarantees is guaranteed.
//!
//! Decoders take a JSON path for their messages, so a wrong type names the exact member.

use std::collections::BTreeMap;

use serde_json::Value;

use super::flags::{self, FlagName};
use crate::device::{Limit, LimitKind};

/// What a stated value promises about a device, after vk.xml's `limittype`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// limittype "max": the device value is at least this.
    AtLeast,
    /// limittype "min": the device value is at most this.
    AtMost,
    /// limittype "bitmask": the device has at least these bits.
    Bits,
    /// A feature or boolean property: `true` is a promise, `false` none.
    Flag,
    /// limittype "noauto": no order; a second, different statement is a contradiction.
    Exact,
}

fn bound(limit: Limit) -> Bound {
    match (limit, limit.kind()) {
        (Limit::MinSubgroupSize, _) => Bound::AtMost,
        (Limit::SubgroupSize, _) | (_, LimitKind::Id) => Bound::Exact,
        (_, LimitKind::Stages | LimitKind::InputModes) => Bound::Bits,
        (_, LimitKind::Bool) => Bound::Flag,
        (_, LimitKind::Count) => Bound::AtLeast,
    }
}

/// The values one file states, keyed by limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stated {
    values: BTreeMap<Limit, u64>,
}

impl Stated {
    /// Record a statement; a repeated one must hold too (the stronger of the two wins).
    pub fn state(&mut self, limit: Limit, value: u64) {
        let combined = match self.values.get(&limit) {
            None => value,
            Some(&old) => match bound(limit) {
                Bound::AtLeast => old.max(value),
                Bound::AtMost => old.min(value),
                Bound::Bits | Bound::Flag => old | value,
                Bound::Exact => old,
            },
        };
        self.values.insert(limit, combined);
    }

    /// Everything in `other` must hold as well.
    pub fn strongest(&mut self, other: &Stated) {
        for (&limit, &value) in &other.values {
            self.state(limit, value);
        }
    }

    /// Only one of `self` and `other` is known to hold: keep what both guarantee.
    pub fn weakest(&self, other: &Stated) -> Stated {
        let mut out = Stated::default();
        for (&limit, &a) in &self.values {
            let Some(&b) = other.values.get(&limit) else { continue };
            let met = match bound(limit) {
                Bound::AtLeast => Some(a.min(b)),
                Bound::AtMost => Some(a.max(b)),
                Bound::Bits | Bound::Flag => Some(a & b),
                Bound::Exact => (a == b).then_some(a),
            };
            if let Some(v) = met {
                out.values.insert(limit, v);
            }
        }
        out
    }

    pub fn value(&self, limit: Limit) -> Option<u64> {
        self.values.get(&limit).copied()
    }

    pub fn iter(&self) -> impl Iterator<Item = (Limit, u64)> + '_ {
        self.values.iter().map(|(l, v)| (*l, *v))
    }
}

/// How permissive a decoder is about spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Vulkan Profiles JSON: integers, booleans (0/1 too), flag-name arrays (an integer mask too).
    Profiles,
    /// VulkanCapsViewer reports: also decimal or `0x` strings, as its `extended` lists write them.
    CapsViewer,
}

/// Decode `value` as `limit` requires and state it.
pub fn state(out: &mut Stated, limit: Limit, value: &Value, dialect: Dialect, at: &str) -> Result<(), String> {
    let v = match limit.kind() {
        LimitKind::Count | LimitKind::Id => uint32(value, dialect, at)?,
        LimitKind::Bool => boolean(value, dialect, at)?,
        LimitKind::Stages => mask(value, dialect, at, "shader stage", stage_bit)?,
        LimitKind::InputModes => mask(value, dialect, at, "index input mode", |n| flags::input_mode(n).map(Some))?,
    };
    out.state(limit, v);
    Ok(())
}

fn stage_bit(name: &str) -> Option<Option<u32>> {
    match flags::stage(name)? {
        FlagName::Bit(b) => Some(Some(b)),
        FlagName::Composite => Some(None),
    }
}

/// A `uint32_t`.
pub fn uint32(value: &Value, dialect: Dialect, at: &str) -> Result<u64, String> {
    let n = match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) if dialect == Dialect::CapsViewer => parse_uint(s),
        _ => None,
    };
    match n {
        Some(n) if n <= u64::from(u32::MAX) => Ok(n),
        Some(_) => Err(format!("{at}: {} is out of range for a uint32 value", describe(value))),
        None => Err(expected(at, "an unsigned integer", value)),
    }
}

/// A `VkBool32`: `true`/`false`, or 0/1.
pub fn boolean(value: &Value, dialect: Dialect, at: &str) -> Result<u64, String> {
    let b = match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_u64() {
            Some(0) => Some(false),
            Some(1) => Some(true),
            _ => None,
        },
        Value::String(s) if dialect == Dialect::CapsViewer => match s.trim() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    };
    b.map(u64::from).ok_or_else(|| expected(at, "a boolean (true, false, 0 or 1)", value))
}

/// A flags value: an array of names (composites dropped), or an integer mask.
fn mask(
    value: &Value,
    dialect: Dialect,
    at: &str,
    what: &str,
    bit_of: impl Fn(&str) -> Option<Option<u32>>,
) -> Result<u64, String> {
    match value {
        Value::Array(items) => {
            let mut m = 0u64;
            for (i, item) in items.iter().enumerate() {
                let Value::String(name) = item else {
                    return Err(expected(&format!("{at}[{i}]"), "a flag name", item));
                };
                match bit_of(name) {
                    Some(bit) => m |= u64::from(bit.unwrap_or(0)),
                    None => {
                        let short: String = name.chars().take(60).collect();
                        return Err(format!("{at}[{i}]: unknown {what} name {short:?}"));
                    }
                }
            }
            Ok(m)
        }
        Value::Number(_) | Value::String(_) => {
            uint32(value, dialect, at).map_err(|_| expected(at, "an array of flag names or an integer mask", value))
        }
        _ => Err(expected(at, "an array of flag names", value)),
    }
}

fn parse_uint(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

pub fn expected(at: &str, what: &str, found: &Value) -> String {
    format!("{at}: expected {what}, found {}", describe(found))
}

/// `a string ("8")`, `an array`…: short, whatever the value's size.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("a boolean ({b})"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let short: String = s.chars().take(60).collect();
            let more = if short.len() < s.len() { "…" } else { "" };
            format!("the string {short:?}{more}")
        }
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repeated_statements_keep_the_stronger_promise() {
        let mut s = Stated::default();
        s.state(Limit::MaxIndirectSequenceCount, 1 << 20);
        s.state(Limit::MaxIndirectSequenceCount, 1 << 22);
        s.state(Limit::MinSubgroupSize, 64);
        s.state(Limit::MinSubgroupSize, 32);
        s.state(Limit::RequiredSubgroupSizeStages, 0x20);
        s.state(Limit::RequiredSubgroupSizeStages, 0x10);
        let got: Vec<_> = s.iter().collect();
        assert!(got.contains(&(Limit::MaxIndirectSequenceCount, 1 << 22)));
        assert!(got.contains(&(Limit::MinSubgroupSize, 32)));
        assert!(got.contains(&(Limit::RequiredSubgroupSizeStages, 0x30)));
    }

    #[test]
    fn alternatives_keep_only_what_both_promise() {
        let (mut a, mut b) = (Stated::default(), Stated::default());
        a.state(Limit::MaxPushConstantsSize, 256);
        b.state(Limit::MaxPushConstantsSize, 128);
        a.state(Limit::MaxSubgroupSize, 64);
        a.state(Limit::SubgroupSize, 32);
        b.state(Limit::SubgroupSize, 64);
        a.state(Limit::MeshShader, 1);
        b.state(Limit::MeshShader, 0);
        let w: Vec<_> = a.weakest(&b).iter().collect();
        assert_eq!(w, vec![(Limit::MeshShader, 0), (Limit::MaxPushConstantsSize, 128)]);
    }

    #[test]
    fn decoders_accept_the_documented_spellings_only() {
        let p = Dialect::Profiles;
        let c = Dialect::CapsViewer;
        assert_eq!(uint32(&json!(2047), p, "x"), Ok(2047));
        assert!(uint32(&json!("2047"), p, "x").is_err());
        assert_eq!(uint32(&json!("4294967295"), c, "x"), Ok(0xFFFF_FFFF));
        assert_eq!(uint32(&json!("0x40"), c, "x"), Ok(64));
        assert!(uint32(&json!(4294967296u64), p, "x").unwrap_err().contains("out of range"));
        assert!(uint32(&json!(-1), p, "x").is_err());
        assert!(uint32(&json!(1.5), p, "x").is_err());
        assert_eq!(boolean(&json!(true), p, "x"), Ok(1));
        assert_eq!(boolean(&json!(0), p, "x"), Ok(0));
        assert!(boolean(&json!(2), p, "x").is_err());
        assert!(boolean(&json!("true"), p, "x").is_err());
        assert_eq!(boolean(&json!("true"), c, "x"), Ok(1));
    }

    #[test]
    fn stage_arrays_drop_composites_and_reject_unknown_names() {
        let mut s = Stated::default();
        let v = json!([
            "VK_SHADER_STAGE_FRAGMENT_BIT",
            "VK_SHADER_STAGE_ALL_GRAPHICS",
            "VK_SHADER_STAGE_ALL",
            "VK_SHADER_STAGE_MESH_BIT_NV"
        ]);
        state(&mut s, Limit::RequiredSubgroupSizeStages, &v, Dialect::Profiles, "x").unwrap();
        assert_eq!(s.iter().next(), Some((Limit::RequiredSubgroupSizeStages, 0x90)));
        let err = state(
            &mut s,
            Limit::SubgroupSupportedStages,
            &json!(["VK_SHADER_STAGE_VERTX_BIT"]),
            Dialect::Profiles,
            "p.q",
        )
        .unwrap_err();
        assert!(err.starts_with("p.q[0]: unknown shader stage name"), "{err}");
    }

    #[test]
    fn descriptions_stay_short_on_huge_or_multibyte_strings() {
        let long = "é".repeat(10_000);
        let d = describe(&Value::String(long));
        assert!(d.chars().count() < 80 && d.ends_with('…'), "{d}");
    }
}
