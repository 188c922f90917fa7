//! What naga reads out of a kernel's SPIR-V: its workgroup size and the record struct it writes.
//!
//! Why naga and why by name: naga's SPIR-V front end keeps glslang's `Offset` and `ArrayStride`
//! decorations (the authoritative layout of a block) and the `OpName`s of types, so the struct
//! the generated include declares is found by its name, `<Layout>Record`, and its members are
//! compared with the manifest's record by name (a hand-written copy may leave padding
//! implicit); a runtime array of it gives the stride.

use dgcc_core::ir::CompiledLayout;
use naga::{ArraySize, Module, ShaderStage, TypeInner};

/// The module as naga reads it, its specialization constants frozen to their defaults first
/// (`super::freeze`). `Err` says which of the two stopped.
pub(crate) fn parse(words: &[u32]) -> Result<Module, String> {
    let words = super::freeze::freeze(words).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    naga::front::spv::parse_u8_slice(&bytes, &naga::front::spv::Options::default()).map_err(|e| format!("naga: {e}"))
}

/// The workgroup size of the compute entry point `main`.
pub(crate) fn workgroup_size(m: &Module) -> Option<[u32; 3]> {
    m.entry_points.iter().find(|e| e.stage == ShaderStage::Compute && e.name == "main").map(|e| e.workgroup_size)
}

/// How the struct named `record` differs from the layout's record; `None` when the module has
/// no such struct. An empty list means it matches.
pub(crate) fn record_mismatches(m: &Module, record: &str, layout: &CompiledLayout) -> Option<Vec<String>> {
    let (handle, members) = m.types.iter().find_map(|(h, t)| match &t.inner {
        TypeInner::Struct { members, .. } if t.name.as_deref() == Some(record) => Some((h, members)),
        _ => None,
    })?;
    let mut problems = vec![];
    // Compared by name: a hand-written struct may leave the padding implicit.
    for want in layout.record.iter().filter(|m| m.token.is_some()) {
        let name = crate::emit::names::member(&want.name);
        let Some(got) = members.iter().find(|m| m.name.as_deref() == Some(name.as_str())) else {
            problems.push(format!(
                "it has no member `{name}`, which the stream holds at bytes {}..{}",
                want.offset,
                want.offset + want.size
            ));
            continue;
        };
        if got.offset != want.offset {
            problems.push(format!(
                "`{name}` is at byte {} in the kernel, at byte {} in the stream",
                got.offset, want.offset
            ));
        }
        if want.array > 0 {
            if let TypeInner::Array { stride, .. } = m.types[got.ty].inner {
                if stride != want.array_stride {
                    problems.push(format!(
                        "`{name}` has array stride {stride} in the kernel, {} in the stream",
                        want.array_stride
                    ));
                }
            }
        }
    }
    for got in members {
        let name = got.name.as_deref().unwrap_or("");
        let known = layout.record.iter().any(|r| crate::emit::names::member(&r.name) == name);
        if !known && !name.starts_with("_pad") {
            problems.push(format!("its member `{name}` (byte {}) is not in the record", got.offset));
        }
    }
    let runtime_stride = m.types.iter().find_map(|(_, t)| match t.inner {
        TypeInner::Array { base, size: ArraySize::Dynamic, stride } if base == handle => Some(stride),
        _ => None,
    });
    // The array stride is glslang's decoration; naga's own struct span may round differently.
    if let Some(s) = runtime_stride.filter(|&s| s != layout.stride) {
        problems.push(format!("`{record}[]` has stride {s} in the kernel, the layout's stride is {}", layout.stride));
    }
    Some(problems)
}
