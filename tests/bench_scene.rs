//! The scene options `dgcc bench` adds, on a live device: the fused culling kernel finds the
//! same objects as the host's reference culling and draws the same picture as the ordered
//! path (its records are right, only their order may differ); warm-up frames are not reported;
//! the DGC flag overrides and the bound-index variant run and say what they ran; object ids in
//! firstInstance or vertexOffset (no PUSH_CONSTANT token) draw the same picture, and are refused
//! where the device cannot start an indirect draw at an instance or the scene's vertex indices
//! cannot hold them.

#[path = "runtime/common.rs"]
mod common;

use dgcc::runtime::{ContextOptions, GpuContext};
use dgcc_cli::scene::{
    builtin_manifest, run, run_on, world, Compaction, Culling, Mode, ObjectId, RunOptions, RunReport, SceneKind,
};

fn reference_visible(o: &RunOptions) -> u32 {
    dgcc_cli::scene::reference_in_view(o, &world::objects(o.scene, o.objects, o.seed), 0)
}

/// The bench's throughput scene: spheres under a fixed camera, the same objects in view every frame.
fn field() -> RunOptions {
    RunOptions { scene: SceneKind::Field, ..RunOptions::default() }
}

fn run_ok(o: &RunOptions) -> RunReport {
    run(&builtin_manifest(), o).unwrap_or_else(|e| panic!("{} run failed: {e}", o.mode.name()))
}

#[test]
fn the_fused_kernel_sees_the_reference_objects_and_draws_the_same_picture() {
    let Some(gpu) = common::gpu("the_fused_kernel_sees_the_reference_objects_and_draws_the_same_picture") else {
        return;
    };
    // One context for the twelve runs, as `dgcc bench` does: NVIDIA's driver stops creating
    // instances after about thirty in one process, and this binary's tests together need more.
    let run_here = |o: &RunOptions| {
        run_on(&gpu, &builtin_manifest(), o).unwrap_or_else(|e| panic!("{} run failed: {e}", o.mode.name()))
    };
    // Counts that fill no workgroup round evenly, and one that spans many workgroups.
    for objects in [1, 67, 1000, 3001] {
        let base = RunOptions { objects, frames: 2, ..field() };
        let expected = reference_visible(&base);
        let cpu = run_here(&RunOptions { mode: Mode::Cpu, ..base.clone() });
        for mode in [Mode::Mdi, Mode::Dgc] {
            let fused = run_here(&RunOptions { mode, compaction: Compaction::Fused, ..base.clone() });
            assert_eq!(fused.compaction, Compaction::Fused);
            assert_eq!(fused.frames.len(), 2, "{} fused: every frame reported", mode.name());
            for f in &fused.frames {
                assert_eq!(f.visible, expected, "{} fused, {objects} objects", mode.name());
                assert!(f.passes.compact_ms.is_none(), "the fused kernel has no separate compaction time");
            }
            assert!(fused.subgroup.observed_size.is_some_and(|s| s > 0), "the kernel reports its subgroup size");
            assert!(fused.image == cpu.image, "{} fused and cpu images differ at {objects} objects", mode.name());
        }
    }
}

#[test]
fn warm_up_frames_run_but_are_not_reported_and_cpu_time_includes_the_submit() {
    if common::gpu("warm_up_frames_run_but_are_not_reported_and_cpu_time_includes_the_submit").is_none() {
        return;
    }
    let r = run_ok(&RunOptions {
        mode: Mode::Mdi,
        objects: 500,
        frames: 3,
        warmup: 2,
        compaction: Compaction::Fused,
        ..field()
    });
    assert_eq!(r.frames.len(), 3);
    assert!(r.frames.iter().all(|f| f.cpu_submit_ms > 0.0 && f.cpu_record_ms > 0.0));
    assert!(r.image.rgba.len() == 256 * 256 * 4, "the last frame is read back");
}

#[test]
fn dgc_flag_overrides_and_the_bound_index_buffer_run_and_draw_the_same() {
    if common::gpu("dgc_flag_overrides_and_the_bound_index_buffer_run_and_draw_the_same").is_none() {
        return;
    }
    let base = RunOptions { mode: Mode::Dgc, objects: 800, frames: 1, ..field() };
    let plain = run_ok(&base);
    assert_eq!(
        (plain.explicit_preprocess, plain.unordered_sequences, plain.index_buffer_token),
        (Some(false), Some(true), Some(true))
    );
    let varied = run_ok(&RunOptions {
        explicit_preprocess: Some(true),
        unordered_sequences: Some(false),
        bind_index_buffer: true,
        ..base.clone()
    });
    assert_eq!(
        (varied.explicit_preprocess, varied.unordered_sequences, varied.index_buffer_token),
        (Some(true), Some(false), Some(false))
    );
    assert!(varied.frames[0].passes.preprocess_ms.is_some(), "explicit preprocessing is timed on its own");
    assert_eq!(varied.frames[0].visible, plain.frames[0].visible);
    assert!(varied.image == plain.image, "the overrides changed the picture");
    let mdi = run_ok(&RunOptions { mode: Mode::Mdi, ..base });
    assert_eq!((mdi.explicit_preprocess, mdi.unordered_sequences, mdi.index_buffer_token), (None, None, None));
}

#[test]
fn object_ids_outside_the_record_draw_the_same_picture_without_push_constants() {
    let test = "object_ids_outside_the_record_draw_the_same_picture_without_push_constants";
    if common::gpu(test).is_none() {
        return;
    }
    let base = RunOptions { objects: 1500, frames: 2, ..field() };
    let expected = reference_visible(&base);
    let cpu = run_ok(&RunOptions { mode: Mode::Cpu, ..base.clone() });
    assert_eq!(cpu.object_id, ObjectId::Record);
    for (id, said) in [(ObjectId::Instance, "firstInstance"), (ObjectId::Vertex, "vertexOffset")] {
        for compaction in [Compaction::Ordered, Compaction::Fused] {
            for (mode, batch) in [(Mode::Dgc, false), (Mode::Dgc, true), (Mode::Mdi, false)] {
                let what = format!("{id:?} {}{} {}", mode.name(), if batch { " batch" } else { "" }, compaction.name());
                let r = run_ok(&RunOptions { mode, batch, compaction, object_id: id, ..base.clone() });
                assert_eq!(r.object_id, id, "{what}");
                assert!(r.to_string().contains(said), "{what}: the report says where ids come from");
                for f in &r.frames {
                    assert_eq!(f.visible, expected, "{what}");
                }
                // A wrong id would move or recolour objects; none may change.
                assert!(r.image == cpu.image, "{what}: the ids changed the picture");
            }
        }
        // The CPU loop draws directly: there is no draw command to carry an id.
        let err = run(&builtin_manifest(), &RunOptions { mode: Mode::Cpu, object_id: id, ..base.clone() })
            .expect_err("cpu mode with ids outside the record must be refused");
        assert!(err.to_string().contains(said), "{err}");
    }
    // The city: every mesh kind, its LODs at their own vertex offsets, and both passes of
    // occlusion culling, whose late pass writes its records with the same kernels.
    let city = RunOptions { scene: SceneKind::City, culling: Culling::Occlusion, objects: 1500, frames: 3, ..base };
    for mode in [Mode::Dgc, Mode::Mdi] {
        let record = run_ok(&RunOptions { mode, ..city.clone() });
        let vertex = run_ok(&RunOptions { mode, object_id: ObjectId::Vertex, ..city.clone() });
        assert!(vertex.image == record.image, "{}: vertexOffset ids changed the city", mode.name());
        let drawn = |r: &RunReport| r.frames.iter().map(|f| f.draws).collect::<Vec<_>>();
        assert_eq!(drawn(&vertex), drawn(&record), "{}", mode.name());
    }
    // Object n's vertices start n · 2^14 past the city's: 131,072 objects fit a 32-bit index.
    let err = run(&builtin_manifest(), &RunOptions { objects: 131_073, object_id: ObjectId::Vertex, ..city })
        .expect_err("more city objects than vertex indices can hold");
    let msg = err.to_string();
    assert!(msg.contains("at most 131072 objects") && msg.contains("--object-id record or instance"), "{msg}");
}

#[test]
fn run_on_a_context_without_dgc_refuses_dgc_mode_and_runs_the_others() {
    let test = "run_on_a_context_without_dgc_refuses_dgc_mode_and_runs_the_others";
    if common::gpu(test).is_none() {
        return;
    }
    let ctx = GpuContext::new(&ContextOptions { enable_dgc: false, ..ContextOptions::default() }).unwrap();
    assert!(ctx.dgc().is_none(), "the context was asked not to enable the extension");
    let base = RunOptions { objects: 300, frames: 1, ..field() };
    let err = run_on(&ctx, &builtin_manifest(), &RunOptions { mode: Mode::Dgc, ..base.clone() })
        .expect_err("dgc mode on a context without the extension");
    assert!(err.to_string().contains("VK_EXT_device_generated_commands"), "{err}");
    // The same context keeps serving the modes that do not need it, as `dgcc bench` uses it.
    let mdi = run_on(&ctx, &builtin_manifest(), &RunOptions { mode: Mode::Mdi, ..base.clone() }).unwrap();
    assert_eq!(mdi.frames[0].visible, reference_visible(&base));
}

#[test]
fn instance_ids_are_refused_where_indirect_draws_cannot_start_at_an_instance() {
    let test = "instance_ids_are_refused_where_indirect_draws_cannot_start_at_an_instance";
    if common::gpu(test).is_none() {
        return;
    }
    // The device under test has the feature; a context told not to enable it (the options' test
    // switch) is what a device without it gives, and says so in its capabilities, which is all
    // the scene consults.
    let ctx =
        GpuContext::new(&ContextOptions { draw_indirect_first_instance: false, ..ContextOptions::default() }).unwrap();
    assert!(!ctx.caps().draw_indirect_first_instance, "the context was asked not to enable the feature");
    let base = RunOptions { objects: 300, frames: 1, object_id: ObjectId::Instance, ..field() };
    for mode in [Mode::Mdi, Mode::Dgc] {
        if mode == Mode::Dgc && ctx.dgc().is_none() {
            continue;
        }
        let err = run_on(&ctx, &builtin_manifest(), &RunOptions { mode, ..base.clone() })
            .expect_err("instance ids without drawIndirectFirstInstance");
        let msg = err.to_string();
        assert!(msg.contains("drawIndirectFirstInstance") && msg.contains("--object-id instance"), "{msg}");
    }
    // Object ids from the record still run there.
    let mdi = run_on(&ctx, &builtin_manifest(), &RunOptions { mode: Mode::Mdi, object_id: ObjectId::Record, ..base })
        .unwrap();
    assert_eq!(mdi.frames[0].visible, reference_visible(&RunOptions { objects: 300, ..field() }));
}

#[test]
fn a_fused_kernel_too_big_for_shared_memory_is_refused_and_the_ordered_path_still_runs() {
    let test = "a_fused_kernel_too_big_for_shared_memory_is_refused_and_the_ordered_path_still_runs";
    if common::gpu(test).is_none() {
        return;
    }
    let ctx = GpuContext::new(&ContextOptions::default()).unwrap();
    let limits = ctx.properties().limits;
    let max_local = limits.max_compute_work_group_size[0].min(limits.max_compute_work_group_invocations);
    let mut manifest = builtin_manifest();
    let stride = manifest.layouts[0].stride;
    // The fused kernel stages one record per invocation: find a workgroup the device allows
    // whose records do not fit its shared memory.
    let Some(local_size) = (64..=max_local).step_by(64).find(|&l| l * stride > limits.max_compute_shared_memory_size)
    else {
        // Not a missing device: this one stages a whole workgroup's records (lavapipe does not).
        eprintln!("SKIP {test}: {} fits a whole workgroup's records in shared memory", ctx.device_name());
        return;
    };
    manifest.kernels[0].local_size[0] = local_size;
    let base = RunOptions { objects: 300, frames: 1, mode: Mode::Mdi, ..field() };
    let err = run_on(&ctx, &manifest, &RunOptions { compaction: Compaction::Fused, ..base.clone() })
        .expect_err("a fused kernel whose records do not fit shared memory");
    let msg = err.to_string();
    assert!(msg.contains("shared memory") && msg.contains("use the ordered compaction"), "{msg}");
    let ordered = run_on(&ctx, &manifest, &RunOptions { compaction: Compaction::Ordered, ..base.clone() }).unwrap();
    assert_eq!(ordered.frames[0].visible, reference_visible(&base));
}

#[test]
fn the_bench_reports_every_step_it_counted_skipped_ones_too() {
    // `dgcc bench`'s progress bar is `steps` long: the copy probe, every row of every repeat
    // (the CPU loop's occlusion row is skipped, a failed variant's later repeats too), the
    // pixel-owner run and the copies of each pass's size.
    let test = "the_bench_reports_every_step_it_counted_skipped_ones_too";
    if common::gpu(test).is_none() {
        return;
    }
    use dgcc_cli::bench::{self, variant::Variant, BenchOptions};
    use dgcc_cli::scene::Culling;
    let options = BenchOptions {
        objects: vec![50],
        variants: ["cpu", "mdi"].iter().map(|v| Variant::parse(v).unwrap()).collect(),
        cullings: vec![Culling::None, Culling::Occlusion],
        materials: vec![1],
        count_owners: true,
        frames: 1,
        warmup: 0,
        scene: RunOptions { width: 32, height: 32, ..field() },
        copy_bytes: 1 << 20,
        copy_repeats: 1,
        repeat: 2,
    };
    let mut steps = 0;
    let report = bench::run(&builtin_manifest(), "scene.ron", &options, &mut |_| steps += 1).unwrap();
    assert!(report.rows.iter().any(|r| r.skipped.is_some()), "the cpu occlusion row is skipped");
    assert_eq!(steps, bench::steps(&options));
}
