//! Every layout of every example description, on the live device: refused with `dgcc check`'s
//! codes when the device cannot run it, otherwise created and executed, and what ran checked
//! exactly. Dispatch layouts (with or without an execution set) run a counting kernel; draw
//! layouts (indexed, multi-draw count, mesh tasks) draw on a 1×1 target whose fragment shader
//! tallies what each sequence's tokens said (`runtime/draw_rig.rs`), against the tally the CPU
//! computes from the records. On lavapipe every example layout must execute.

#[path = "runtime/common.rs"]
mod common;
#[path = "runtime/draw_indexed.rs"]
mod draw_indexed;
#[path = "runtime/draw_mesh.rs"]
mod draw_mesh;
#[path = "runtime/draw_rig.rs"]
mod draw_rig;

use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::memory::{Buffer, Location};
use dgcc::runtime::push::vk_ranges;
use dgcc::runtime::shaders::compute_pipeline_with;
use dgcc::runtime::{Bound, DgcDevice, EnabledFeatures, Execution, GpuContext, NoPass, RuntimeError, Stream};
use std::path::PathBuf;

const COUNT_SPV: &[u8] = include_bytes!("../shaders/runtime/spv/test_count.comp.spv");
const SEQUENCES: u32 = 4;
/// What entry 1 of an execution set adds per invocation (entry 0 adds 1).
const SECOND_ENTRY: u32 = 1000;

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

/// Records: execution-set index `i % 2`, zero push data, a 1×1×1 dispatch.
fn records(layout: &CompiledLayout) -> Vec<u8> {
    let mut bytes = vec![0u8; (layout.stride * SEQUENCES) as usize];
    for i in 0..SEQUENCES {
        let base = (i * layout.stride) as usize;
        for t in &layout.tokens {
            let at = base + t.offset as usize;
            match t.token_type {
                TokenType::ExecutionSet => bytes[at..at + 4].copy_from_slice(&(i % 2).to_le_bytes()),
                TokenType::Dispatch => {
                    for k in 0..3 {
                        bytes[at + 4 * k..at + 4 * k + 4].copy_from_slice(&1u32.to_le_bytes());
                    }
                }
                _ => {}
            }
        }
    }
    bytes
}

/// Execute a dispatch layout; returns the counter.
fn execute_dispatch(ctx: &GpuContext, dev: &DgcDevice, m: &Manifest, layout: &CompiledLayout) -> u32 {
    let d = &ctx.device;
    let mut counter = Buffer::new(ctx, 4, vk::BufferUsageFlags::STORAGE_BUFFER, Location::Host).unwrap();
    counter.write(0, &[0; 4]).unwrap();
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::INDIRECT_BUFFER;
    let mut stream = Buffer::new(ctx, (layout.stride * SEQUENCES) as u64, usage, Location::Host).unwrap();
    stream.write(0, &records(layout)).unwrap();
    // SAFETY: a live storage buffer, destroyed after the set.
    let mut set = unsafe { StorageSet::new(d, vk::ShaderStageFlags::COMPUTE, &[counter.buffer]) }.unwrap();
    let ranges = vk_ranges(&m.push_constants);
    let set_layouts = [set.layout];
    let pl = unsafe {
        d.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges),
            None,
        )
    }
    .unwrap();
    // SAFETY: `pl` is live and holds the manifest's ranges.
    let mut l = unsafe { dev.create_layout(layout, &m.push_constants, pl) }.unwrap();
    let with_set = l.has_execution_set();
    // SAFETY: the committed kernel for `pl` (one set, the manifest's push ranges).
    let first = unsafe { compute_pipeline_with(d, pl, COUNT_SPV, &[(0, 1)], None, with_set) }.unwrap();
    // SAFETY: as above.
    let second = unsafe { compute_pipeline_with(d, pl, COUNT_SPV, &[(0, SECOND_ENTRY)], None, with_set) }.unwrap();
    let mut ies = with_set.then(|| {
        // SAFETY: `first` and `second` are indirect-bindable compute pipelines of one layout,
        // alive until after the set; nothing has used the set yet.
        unsafe {
            let s = dev.create_execution_set(&l, first).unwrap();
            dev.write_execution_set(&s, 1, second).unwrap();
            s
        }
    });
    let bound = match &ies {
        Some(s) => Bound::ExecutionSet(s.handle, first),
        None => Bound::Pipeline(first),
    };
    // SAFETY: `l` is `dev`'s; the pipeline (or the set) was made for it.
    let mut exec = unsafe { Execution::new(dev, &l, bound, SEQUENCES, 0, 64 << 20) }.unwrap();
    let s = Stream { buffer: stream.buffer, offset: 0, address: stream.address, max_sequences: SEQUENCES, count: None };
    ctx.one_shot(|cmd| unsafe {
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, first);
        d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, pl, 0, &[set.set], &[]);
        exec.record(dev, &l, cmd, &s, &mut NoPass(|_, _| {}))
    })
    .unwrap();
    let count = u32::from_le_bytes(counter.bytes().unwrap()[..4].try_into().unwrap());
    unsafe {
        exec.destroy(dev);
        if let Some(s) = &mut ies {
            s.destroy(dev);
        }
        l.destroy(dev);
        d.destroy_pipeline(first, None);
        d.destroy_pipeline(second, None);
        d.destroy_pipeline_layout(pl, None);
        set.destroy(d);
        counter.destroy(d);
        stream.destroy(d);
    }
    count
}

/// Create `layout` with the manifest's push-constant ranges, then destroy it.
fn create_only(ctx: &GpuContext, dev: &DgcDevice, m: &Manifest, layout: &CompiledLayout, name: &str) {
    let ranges = vk_ranges(&m.push_constants);
    let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
    let pl = unsafe { ctx.device.create_pipeline_layout(&info, None) }.unwrap();
    // SAFETY: `pl` is live and holds the manifest's ranges.
    let mut l = unsafe { dev.create_layout(layout, &m.push_constants, pl) }.unwrap_or_else(|e| panic!("{name}: {e}"));
    unsafe {
        l.destroy(dev);
        ctx.device.destroy_pipeline_layout(pl, None);
    }
}

/// Layouts a driver is known to crash on when executed (a segfault inside the driver, so the
/// test process would die): they are created, and the test says so loudly. Each entry names
/// what was observed; VALIDATION.md has the details.
fn known_driver_crash(ctx: &GpuContext, layout: &CompiledLayout) -> Option<&'static str> {
    let nvidia = ctx.properties.vendor_id == 0x10DE;
    let compute_set = layout.tokens.first().is_some_and(|t| t.token_type == TokenType::ExecutionSet)
        && layout.action().is_some_and(|a| a.token_type == TokenType::Dispatch);
    (nvidia && compute_set).then_some(
        "executing a compute layout with an execution set segfaults inside NVIDIA's driver \
         (580.159.04 on an H200; no validation-layer message, with implicit or explicit preprocessing)",
    )
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
            if let Some(why) = known_driver_crash(&ctx, layout) {
                common::loud(&format!("{name}: created, not executed: {why}"));
                create_only(&ctx, &dev, &m, layout, &name);
                created.push(name);
            } else if layout.action().is_some_and(|a| a.token_type == TokenType::Dispatch) {
                let count = execute_dispatch(&ctx, &dev, &m, layout);
                let expected = if layout.tokens[0].token_type == TokenType::ExecutionSet {
                    2 + 2 * SECOND_ENTRY
                } else {
                    SEQUENCES
                };
                assert_eq!(count, expected, "{name}");
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
        ctx.device_name
    ));
    assert!(executed.iter().any(|n| n.starts_with("compute.ron")), "the compute example did not run: {executed:?}");
    // The draw rig tallies fragments with storage-buffer atomics.
    let draws_run = ctx.caps.fragment_stores_and_atomics;
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
    if ctx.caps.mesh_shader && ctx.caps.task_shader {
        assert!(mesh_ran, "{executed:?} {created:?} {refused:?}");
    } else {
        assert!(mesh_refused, "{executed:?} {refused:?}");
    }
}

/// Execute a draw layout through the rig for its action; `None` when there is none for it or
/// the device cannot run the rig's tally shader.
fn execute_draw(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
) -> Option<(draw_rig::Tally, draw_rig::Tally)> {
    if !ctx.caps.fragment_stores_and_atomics {
        return None;
    }
    match layout.action()?.token_type {
        TokenType::DrawIndexed | TokenType::DrawIndexedCount => Some(draw_indexed::run(ctx, dev, m, layout)),
        TokenType::DrawMeshTasks => Some(draw_mesh::run(ctx, dev, m, layout)),
        _ => None,
    }
}

#[test]
fn the_expected_draw_tallies_tell_misread_tokens_apart() {
    draw_indexed::misreadings_change_the_expected_tally();
    draw_mesh::misreadings_change_the_expected_tally();
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
    let off = unsafe { DgcDevice::new(&ctx.instance, ctx.physical, &ctx.device, EnabledFeatures::default()) }.unwrap();
    match off.check_layout(layout, &mesh.push_constants) {
        Err(RuntimeError::Refused { diagnostics, .. }) => {
            let e = diagnostics.iter().find(|d| d.code == "E0211").unwrap_or_else(|| panic!("{diagnostics:?}"));
            assert!(e.message.contains("meshShader"), "{}", e.message);
            if ctx.caps.mesh_shader {
                assert!(e.notes.iter().any(|n| n.contains("created without it enabled")), "{:?}", e.notes);
            }
        }
        other => panic!("expected a refusal, got {:?}", other.err()),
    }
    assert_eq!(dev.check_layout(layout, &mesh.push_constants).is_ok(), ctx.caps.mesh_shader && ctx.caps.task_shader);
}
