//! Every layout of every example description, on the live device: refused with `dgcc check`'s
//! codes when the device cannot run it, otherwise created and executed, and what ran checked
//! exactly. Dispatch layouts (with or without an execution set) run a counting kernel
//! (`dgcc_cli::layout_check::dispatch`); draw
//! layouts (indexed, multi-draw count, mesh tasks) draw on a 1×1 target whose fragment shader
//! tallies what each sequence's tokens said (`dgcc_cli::layout_check`, the rig of
//! `dgcc run --layout`), against the tally the CPU computes from the records. On lavapipe every
//! example layout must execute.

#[path = "runtime/common.rs"]
mod common;

use dgcc_cli::layout_check::rig::Tally;
use dgcc_cli::layout_check::{dispatch, indexed as draw_indexed, mesh as draw_mesh};

use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::runtime::push::vk_ranges;
use dgcc::runtime::{DgcDevice, EnabledFeatures, GpuContext, RuntimeError};
use std::path::PathBuf;

fn examples() -> Vec<(String, Manifest)> {
    // DGCC_REPO: the checkout, when the binary runs away from its build tree (another machine).
    let repo = std::env::var("DGCC_REPO").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(env!("DGCC_CHECKOUT")));
    let dir = repo.join("examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let (_, c) = dgcc::driver::compile_file(&f, &Default::default()).unwrap();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            (name.clone(), c.manifest.unwrap_or_else(|| panic!("{name} does not compile: {:?}", c.diagnostics)))
        })
        .collect()
}

/// Create `layout` with the manifest's push-constant ranges, then destroy it.
fn create_only(ctx: &GpuContext, dev: &DgcDevice, m: &Manifest, layout: &CompiledLayout, name: &str) {
    let ranges = vk_ranges(&m.push_constants);
    let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
    let pl = unsafe { ctx.device().create_pipeline_layout(&info, None) }.unwrap();
    // SAFETY: `pl` is live and holds the manifest's ranges.
    let mut l = unsafe { dev.create_layout(layout, &m.push_constants, pl) }.unwrap_or_else(|e| panic!("{name}: {e}"));
    unsafe {
        l.destroy(dev);
        ctx.device().destroy_pipeline_layout(pl, None);
    }
}

#[test]
fn every_example_layout_is_refused_created_or_executed_on_the_live_device() {
    let Some(ctx) = common::gpu("every_example_layout_is_refused_created_or_executed_on_the_live_device") else {
        return;
    };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let (mut executed, mut created, mut refused) = (vec![], vec![], vec![]);
    for (file, m) in examples() {
        for layout in &m.layouts {
            let name = format!("{file}:{}", layout.name);
            // Progress on stderr: a driver that crashes on a layout leaves its name behind.
            eprintln!("layout {name}");
            match dev.check_layout(layout, &m.push_constants) {
                Err(RuntimeError::Refused { diagnostics, .. }) => {
                    assert!(diagnostics.iter().all(|d| d.code.starts_with('E') || d.code.starts_with('W')));
                    let codes: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
                    refused.push(format!("{name} ({})", codes.join(", ")));
                    continue;
                }
                Err(e) => panic!("{name}: {e}"),
                Ok(()) => {}
            }
            if layout.action().is_some_and(|a| a.token_type == TokenType::Dispatch) {
                let checked = dispatch::run(&ctx, Some(&dev), &m, layout, dispatch::Path::Dgc, None)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let with_set = dispatch::through_set(Some(&dev), &m, layout);
                let differences = dispatch::differences(layout, &checked, dispatch::Path::Dgc, with_set);
                assert_eq!(differences, Vec::<String>::new(), "{name}");
                // Every example dispatch pushes data, and every word of it was read back.
                assert!(checked.block.is_some() && checked.unread.is_none(), "{name}: pushed words not read");
                executed.push(name);
            } else if let Some((ran, expected)) = execute_draw(&ctx, &dev, &m, layout) {
                assert_eq!(ran, expected, "{name}: the tally of what ran differs from what the records asked for");
                assert!(ran.fragments() > 0, "{name}: nothing was drawn");
                executed.push(name);
            } else {
                // An action this test has no rig for: created only (and not allowed on lavapipe).
                create_only(&ctx, &dev, &m, layout, &name);
                created.push(name);
            }
        }
    }
    common::loud(&format!(
        "examples on {}: executed {executed:?}; created {created:?}; refused {refused:?}",
        ctx.device_name()
    ));
    assert!(executed.iter().any(|n| n.starts_with("compute.ron")), "the compute example did not run: {executed:?}");
    // The draw rig tallies fragments with storage-buffer atomics.
    let draws_run = ctx.caps().fragment_stores_and_atomics;
    if draws_run {
        for draw in ["multi_draw.ron:Batches", "scene.ron:SceneDraw"] {
            assert!(executed.iter().any(|n| n == draw), "{draw} did not execute: {executed:?} {created:?} {refused:?}");
        }
    } else {
        common::loud("draw layouts were created, not executed: the device lacks fragmentStoresAndAtomics");
    }
    if dev.profile().name == "lavapipe" {
        // Every layout of every example runs on lavapipe: none merely created, none refused.
        assert!(created.is_empty() && refused.is_empty(), "not executed: {created:?} {refused:?}");
        for name in [
            "compute.ron:Jobs",
            "execution_set.ron:Kernels",
            "mesh.ron:Meshlets",
            "multi_draw.ron:Batches",
            "scene.ron:SceneDraw",
        ] {
            assert!(executed.iter().any(|n| n == name), "{name} did not execute on lavapipe: {executed:?}");
        }
    }
    // Mesh layouts run only where the context enabled mesh and task shaders; elsewhere they are
    // refused with the mesh-feature code before any Vulkan call.
    let mesh_ran = if draws_run { &executed } else { &created }.iter().any(|n| n.starts_with("mesh.ron"));
    let mesh_refused = refused.iter().any(|n| n.starts_with("mesh.ron") && n.contains("E0211"));
    if ctx.caps().mesh_shader && ctx.caps().task_shader {
        assert!(mesh_ran, "{executed:?} {created:?} {refused:?}");
    } else {
        assert!(mesh_refused, "{executed:?} {refused:?}");
    }
}

/// Execute a draw layout through the rig for its action; `None` when there is none for it or
/// the device cannot run the rig's tally shader.
fn execute_draw(ctx: &GpuContext, dev: &DgcDevice, m: &Manifest, layout: &CompiledLayout) -> Option<(Tally, Tally)> {
    if !ctx.caps().fragment_stores_and_atomics {
        return None;
    }
    let name = &layout.name;
    let (ran, expected, _) = match layout.action()?.token_type {
        TokenType::DrawIndexed | TokenType::DrawIndexedCount => draw_indexed::run(ctx, dev, m, layout, None),
        TokenType::DrawMeshTasks => draw_mesh::run(ctx, dev, m, layout, None),
        _ => return None,
    }
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    Some((ran, expected))
}

#[test]
fn a_context_without_mesh_shaders_refuses_mesh_layouts_with_the_feature_code() {
    let test = "a_context_without_mesh_shaders_refuses_mesh_layouts_with_the_feature_code";
    let Some(ctx) = common::gpu(test) else { return };
    let (_, mesh) = examples().into_iter().find(|(f, _)| f == "mesh.ron").expect("examples/mesh.ron");
    let layout = &mesh.layouts[0];
    let dev = DgcDevice::from_context(&ctx).unwrap();
    // The engine path: the same device, told that mesh shading was not enabled.
    // SAFETY: the context's device, made with the extension from its physical device; claiming
    // no optional feature is true of any device; the context outlives `off`.
    let off =
        unsafe { DgcDevice::new(ctx.instance(), ctx.physical(), ctx.device(), EnabledFeatures::default()) }.unwrap();
    match off.check_layout(layout, &mesh.push_constants) {
        Err(RuntimeError::Refused { diagnostics, .. }) => {
            let e = diagnostics.iter().find(|d| d.code == "E0211").unwrap_or_else(|| panic!("{diagnostics:?}"));
            assert!(e.message.contains("meshShader"), "{}", e.message);
            if ctx.caps().mesh_shader {
                assert!(
                    e.notes.iter().any(|n| n.contains("was not enabled when the device was created")),
                    "{:?}",
                    e.notes
                );
            }
        }
        other => panic!("expected a refusal, got {:?}", other.err()),
    }
    assert_eq!(
        dev.check_layout(layout, &mesh.push_constants).is_ok(),
        ctx.caps().mesh_shader && ctx.caps().task_shader
    );
}
