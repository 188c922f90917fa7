//! Which layout of a description the scene can draw, and how its kernel's subgroups are pinned.
//!
//! Why a compatibility check instead of trusting the name: the scene's shaders were compiled
//! against the record of `SceneDraw` in `shaders/runtime/generated/scene.dgc.json`; a layout
//! whose tokens sit at other offsets would be written by the culling kernel at one place and
//! read by the driver at another. So the chosen layout must match that record byte for byte
//! (stride, token kinds, offsets, sizes, push ranges, index mode), and the message says what
//! differs. The subgroup decision is the manifest's for the live device's profile name, applied
//! only where the device allows it (size within min..max, compute in
//! `requiredSubgroupSizeStages`, full subgroups only with `computeFullSubgroups` and a local
//! size that is a multiple); otherwise the kernel runs unpinned, which it is written to survive.

use dgcc::device::{Limit, Profile};
use dgcc::ir::{CompiledKernel, CompiledLayout, Manifest};
use dgcc::runtime::context::Capabilities;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::shaders::SubgroupPin;

const BUILTIN: &str = include_str!("../../../../shaders/runtime/generated/scene.dgc.json");

/// The manifest the scene's shaders were compiled against.
pub fn builtin_manifest() -> Manifest {
    Manifest::from_json(BUILTIN).expect("the committed scene manifest parses (tested)")
}

/// The draw layout of `builtin_manifest`.
pub fn scene_layout() -> CompiledLayout {
    builtin_manifest().layouts.into_iter().next().expect("the scene manifest has its layout")
}

/// The name of the builtin manifest's shader-object layout (`--bind shader-objects`).
pub const SHADER_OBJECT_LAYOUT: &str = "SceneDrawShaders";

/// The layout whose execution set holds the materials as shader objects.
pub fn scene_shader_layout() -> CompiledLayout {
    builtin_manifest().layout(SHADER_OBJECT_LAYOUT).cloned().expect("the scene manifest has its shader-object layout")
}

/// The name of the builtin manifest's batch layout (`--batch`).
pub const BATCH_LAYOUT: &str = "SceneBatch";

/// The layout that draws a pass's records as one sequence (`--batch`): `SceneBatch`, or the
/// first layout of its shape, one DRAW_INDEXED_COUNT token at offset 0 (what the counts
/// buffer's first 16 bytes hold, `shaders/runtime/scene_counts.glsl`).
pub(super) fn pick_batch(manifest: &Manifest) -> Result<&CompiledLayout> {
    let batch = |l: &&CompiledLayout| matches!(l.tokens.as_slice(), [t] if t.token_type == dgcc::ir::TokenType::DrawIndexedCount && t.offset == 0);
    let layout = manifest.layout(BATCH_LAYOUT).or_else(|| manifest.layouts.iter().find(batch)).ok_or_else(|| {
        RuntimeError::Invalid(format!(
            "--batch draws through a layout shaped as `{BATCH_LAYOUT}` in examples/scene.ron (one DrawIndexedCount token); the description has none"
        ))
    })?;
    if !batch(&layout) {
        return Err(RuntimeError::Invalid(format!(
            "--batch reads the pass's counts buffer as one sequence of a single DrawIndexedCount token at offset 0, as `{BATCH_LAYOUT}` in examples/scene.ron has; layout `{}` differs",
            layout.name
        )));
    }
    Ok(layout)
}

/// The layout to draw and the kernel that writes it. With `shader_objects`, the layout is the
/// one shaped as `SceneDrawShaders` (its name, or the first of that shape), and the kernel that
/// writes the pipelines' layout decides the subgroups when none writes it: the scene's kernels
/// are the same for both records.
pub(super) fn pick<'m>(
    manifest: &'m Manifest,
    name: Option<&str>,
    shader_objects: bool,
) -> Result<(&'m CompiledLayout, Option<&'m CompiledKernel>)> {
    if shader_objects {
        let expected = scene_shader_layout();
        let layout = match name {
            Some(n) => manifest
                .layout(n)
                .ok_or_else(|| RuntimeError::Invalid(format!("the description has no layout `{n}`")))?,
            None => manifest
                .layout(SHADER_OBJECT_LAYOUT)
                .or_else(|| manifest.layouts.iter().find(|l| difference(l, &expected).is_none()))
                .ok_or_else(|| {
                    RuntimeError::Invalid(format!(
                        "--bind shader-objects draws through a layout shaped as `{SHADER_OBJECT_LAYOUT}` in examples/scene.ron (an execution set of vertex and fragment shader objects); the description has none"
                    ))
                })?,
        };
        if let Some(diff) = difference(layout, &expected) {
            return Err(RuntimeError::Invalid(format!(
                "--bind shader-objects draws the built-in scene, whose kernels write the record of `{SHADER_OBJECT_LAYOUT}` in examples/scene.ron; layout `{}` differs: {diff}",
                layout.name
            )));
        }
        let writes = |l: &str| manifest.kernels.iter().find(|k| k.writes.as_deref() == Some(l));
        let kernel = writes(&layout.name).or_else(|| {
            manifest.layouts.iter().filter(|l| difference(l, &scene_layout()).is_none()).find_map(|l| writes(&l.name))
        });
        return Ok((layout, kernel));
    }
    let layout = match name {
        Some(n) => {
            manifest.layout(n).ok_or_else(|| RuntimeError::Invalid(format!("the description has no layout `{n}`")))?
        }
        None => manifest
            .kernels
            .iter()
            .find_map(|k| k.writes.as_deref().and_then(|w| manifest.layout(w)))
            .or(manifest.layouts.first())
            .ok_or_else(|| RuntimeError::Invalid("the description has no layout".into()))?,
    };
    if let Some(diff) = difference(layout, &scene_layout()) {
        return Err(RuntimeError::Invalid(format!(
            "dgcc run draws its built-in scene, whose shaders read the record of `SceneDraw` in examples/scene.ron; layout `{}` differs: {diff}",
            layout.name
        )));
    }
    let kernel = manifest.kernels.iter().find(|k| k.writes.as_deref() == Some(layout.name.as_str()));
    Ok((layout, kernel))
}

/// What differs in the bytes the scene's shaders depend on, if anything.
pub fn difference(a: &CompiledLayout, b: &CompiledLayout) -> Option<String> {
    if a.stride != b.stride {
        return Some(format!("stride {} instead of {}", a.stride, b.stride));
    }
    if a.tokens.len() != b.tokens.len() {
        return Some(format!("{} tokens instead of {}", a.tokens.len(), b.tokens.len()));
    }
    for (x, y) in a.tokens.iter().zip(&b.tokens) {
        let same = x.token_type == y.token_type
            && x.offset == y.offset
            && x.size == y.size
            && x.index_mode == y.index_mode
            && x.push_constant.map(|r| (r.offset, r.size)) == y.push_constant.map(|r| (r.offset, r.size));
        if !same {
            return Some(format!(
                "token `{}` is {} at offset {} ({} bytes), the scene expects {} at offset {} ({} bytes)",
                x.name,
                x.token_type.manifest_name(),
                x.offset,
                x.size,
                y.token_type.manifest_name(),
                y.offset,
                y.size
            ));
        }
    }
    None
}

/// The pin for the compaction kernel on this device, and why it is not pinned when it is not.
pub(super) fn subgroup_pin(
    kernel: Option<&CompiledKernel>,
    live: &Profile,
    local_size: u32,
    caps: &Capabilities,
) -> (Option<SubgroupPin>, Option<String>) {
    let Some(kernel) = kernel else { return (None, Some("no kernel in the description writes this layout".into())) };
    let Some(decision) = kernel.targets.get(&live.name) else {
        let known: Vec<&str> = kernel.targets.keys().map(String::as_str).collect();
        return (
            None,
            Some(format!(
                "kernel `{}` has no decision for `{}` (targets: {})",
                kernel.name,
                live.name,
                known.join(", ")
            )),
        );
    };
    let get = |l: Limit| live.value(l).unwrap_or(0) as u32;
    let full = decision.flags & 0x2 != 0;
    if let Some(size) = decision.required_subgroup_size {
        let (min, max) = (get(Limit::MinSubgroupSize), get(Limit::MaxSubgroupSize));
        if !caps.subgroup_size_control || get(Limit::RequiredSubgroupSizeStages) & 0x20 == 0 {
            return (None, Some("this device cannot require a compute subgroup size".into()));
        }
        if !size.is_power_of_two() || size < min || size > max {
            return (None, Some(format!("required size {size} is outside this device's {min}..={max}")));
        }
        if full && (!caps.compute_full_subgroups || !local_size.is_multiple_of(size)) {
            return (
                Some(SubgroupPin { required_size: Some(size), flags: decision.flags & !0x2 }),
                Some("full subgroups not available; size pinned only".into()),
            );
        }
        return (Some(SubgroupPin { required_size: Some(size), flags: decision.flags }), None);
    }
    if decision.flags == 0 {
        return (None, None);
    }
    let max = get(Limit::MaxSubgroupSize).max(1);
    let varying_ok = decision.flags & 0x1 == 0 || caps.subgroup_size_control;
    let full_ok = !full || (caps.compute_full_subgroups && local_size.is_multiple_of(max));
    if varying_ok && full_ok {
        (Some(SubgroupPin { required_size: None, flags: decision.flags }), None)
    } else {
        (None, Some("the kernel's subgroup flags are not supported here".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgcc::ir::KernelTarget;

    #[test]
    fn the_builtin_manifest_parses_and_matches_itself() {
        let m = builtin_manifest();
        let l = scene_layout();
        assert_eq!(difference(&l, &l), None);
        assert_eq!(pick(&m, None, false).unwrap().0.name, l.name);
        assert!(pick(&m, Some("nope"), false).is_err());
        let (shaders, kernel) = pick(&m, None, true).unwrap();
        assert_eq!(shaders.name, SHADER_OBJECT_LAYOUT);
        assert_eq!(kernel.map(|k| k.name.as_str()), Some("cull"), "the pipelines' kernel decides the subgroups");
        assert!(pick(&m, Some(&l.name), true).unwrap_err().to_string().contains("differs"));
        assert_eq!(pick_batch(&m).unwrap().name, BATCH_LAYOUT);
        let mut other = m.clone();
        other.layouts.retain(|l| l.name != BATCH_LAYOUT);
        assert!(pick_batch(&other).unwrap_err().to_string().contains("has none"));
    }

    #[test]
    fn a_moved_token_is_named() {
        let mut other = scene_layout();
        other.tokens[2].offset += 4;
        other.stride += 8;
        assert!(difference(&other, &scene_layout()).unwrap().contains("stride"));
        other.stride -= 8;
        let d = difference(&other, &scene_layout()).unwrap();
        assert!(d.contains(&other.tokens[2].name) && d.contains("offset"), "{d}");
    }

    fn live(min: u64, max: u64) -> Profile {
        let mut p = Profile::new("lavapipe", "", dgcc::device::ProfileSource::Live);
        p.set(Limit::MinSubgroupSize, min)
            .set(Limit::MaxSubgroupSize, max)
            .set(Limit::RequiredSubgroupSizeStages, 0x20);
        p
    }

    #[test]
    fn a_required_size_is_pinned_only_where_the_device_allows_it() {
        let caps = Capabilities { subgroup_size_control: true, compute_full_subgroups: true, ..Default::default() };
        let mut k = builtin_manifest().kernels[0].clone();
        k.targets.insert("lavapipe".into(), KernelTarget { required_subgroup_size: Some(8), flags: 0x2 });
        assert_eq!(
            subgroup_pin(Some(&k), &live(8, 8), 64, &caps),
            (Some(SubgroupPin { required_size: Some(8), flags: 0x2 }), None)
        );
        let (pin, note) = subgroup_pin(Some(&k), &live(4, 4), 64, &caps);
        assert_eq!(pin, None);
        assert!(note.unwrap().contains("outside"));
        let (pin, _) = subgroup_pin(Some(&k), &live(8, 8), 60, &caps);
        assert_eq!(pin, Some(SubgroupPin { required_size: Some(8), flags: 0 }));
        let (pin, note) =
            subgroup_pin(Some(&k), &Profile::new("other", "", dgcc::device::ProfileSource::Live), 64, &caps);
        assert_eq!(pin, None);
        assert!(note.unwrap().contains("no decision"));
    }
}
