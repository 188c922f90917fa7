//! `dgcc run`'s scene on a live device: the three modes agree with each other and with the
//! host's reference culling, both compactions are right at subgroup sizes 4 and 8 and at object counts
//! that fill no workgroup or subgroup evenly, chunked execution changes nothing, and lavapipe's
//! implausible preprocess size is caught.

#[path = "runtime/common.rs"]
mod common;

use dgcc_cli::scene::{
    builtin_manifest, run, world, Bind, Compaction, Culling, DgcMaterials, MaterialDraw, Mode, RunOptions, RunReport,
};

fn options(mode: Mode, objects: u32) -> RunOptions {
    RunOptions { mode, objects, frames: 1, ..RunOptions::default() }
}

/// Objects the reference culling sees for these options.
fn reference_visible(o: &RunOptions) -> u32 {
    dgcc_cli::scene::reference_in_view(o, &world::objects(o.scene, o.objects, o.seed), 0)
}

/// Run and, under `DGCC_VALIDATION=1` (where `RunOptions::default` gives every run a layer log),
/// insist the layer reported nothing, teardown included.
fn run_ok(o: &RunOptions) -> RunReport {
    let report = run(&builtin_manifest(), o).unwrap_or_else(|e| panic!("{} run failed: {e}", o.mode.name()));
    match &o.layer_log {
        Some(log) => common::assert_no_layer_errors(&format!("{} mode, {} objects", o.mode.name(), o.objects), log),
        None => assert!(!common::validation_required(), "DGCC_VALIDATION=1 but the run had no layer log"),
    }
    report
}

#[test]
fn the_three_modes_agree_pixel_for_pixel_and_with_the_reference_culling() {
    if common::gpu("the_three_modes_agree_pixel_for_pixel_and_with_the_reference_culling").is_none() {
        return;
    }
    let objects = 3000;
    let expected = reference_visible(&options(Mode::Cpu, objects));
    let reports: Vec<RunReport> =
        [Mode::Dgc, Mode::Mdi, Mode::Cpu].into_iter().map(|m| run_ok(&options(m, objects))).collect();
    for r in &reports {
        assert_eq!(r.frames[0].visible, expected, "{} mode's visible count", r.mode.name());
        assert_eq!(r.frames[0].draws, expected);
        assert_eq!(r.image.rgba.len(), 256 * 256 * 4);
    }
    let background = &reports[2].image.rgba[..4];
    let drawn = reports[2].image.rgba.chunks(4).filter(|px| px != &background).count();
    assert!(drawn > 1000, "the image shows too little: {drawn} pixels");
    assert!(reports[0].image == reports[2].image, "dgc and cpu images differ");
    assert!(reports[1].image == reports[2].image, "mdi and cpu images differ");
    // The report says what the bench needs.
    let json = serde_json::to_value(&reports[0]).unwrap();
    assert_eq!(json["mode"], "dgc");
    assert!(json["frames"][0]["passes"].get("execute_ms").is_some());
    assert!(reports[0].preprocess.as_ref().is_some_and(|p| p.preprocess_bytes > 0));
    assert!(reports[0].to_string().contains("in view"));
}

#[test]
fn the_cubes_scene_draws_every_cube_and_the_same_pixels_in_each_mode() {
    if common::gpu("the_cubes_scene_draws_every_cube_and_the_same_pixels_in_each_mode").is_none() {
        return;
    }
    let cubes =
        |mode| RunOptions { scene: world::SceneKind::Cubes, culling: Culling::None, frames: 2, ..options(mode, 2500) };
    let reports: Vec<RunReport> = [Mode::Dgc, Mode::Mdi, Mode::Cpu].into_iter().map(|m| run_ok(&cubes(m))).collect();
    for r in &reports {
        assert_eq!(r.frames.len(), 2, "{}: every frame reported", r.mode.name());
        assert!(r.frames.iter().all(|f| f.draws == 2500), "{}: every cube is drawn", r.mode.name());
    }
    let background = &reports[2].image.rgba[..4];
    let drawn = reports[2].image.rgba.chunks(4).filter(|px| px != &background).count();
    assert!(drawn > 256 * 256 / 4, "the grid fills the view: {drawn} pixels");
    assert!(reports[0].image == reports[2].image, "dgc and cpu images differ");
    assert!(reports[1].image == reports[2].image, "mdi and cpu images differ");
}

/// The vertex shader reads each vertex's normal where the vertex buffer keeps the normals (the
/// frame uniforms say where): a cube's faces are flat, so each face is lit in one colour. Read
/// from anywhere else (the positions, say), a face shades like a curved surface, in dozens of
/// colours, and every mode still agrees with every other.
#[test]
fn each_face_of_a_cube_is_lit_in_one_colour() {
    if common::gpu("each_face_of_a_cube_is_lit_in_one_colour").is_none() {
        return;
    }
    for mode in [Mode::Dgc, Mode::Mdi, Mode::Cpu] {
        let o = RunOptions { scene: world::SceneKind::Cubes, culling: Culling::None, ..options(mode, 4) };
        let r = run_ok(&o);
        let background = &r.image.rgba[..4];
        let mut colours = std::collections::BTreeMap::<&[u8], u32>::new();
        for px in r.image.rgba.chunks(4).filter(|px| px != &background) {
            *colours.entry(px).or_default() += 1;
        }
        let drawn: u32 = colours.values().sum();
        assert!(drawn > 4 * 1000, "{}: four cubes fill the view: {drawn} pixels", mode.name());
        // Four cubes, of which the fixed camera sees at most three faces each.
        assert!(
            colours.len() <= 12,
            "{}: {} colours on four flat-lit cubes (the most common: {:?})",
            mode.name(),
            colours.len(),
            colours.iter().max_by_key(|(_, n)| **n)
        );
    }
}

#[test]
fn a_preprocess_budget_smaller_than_the_stream_runs_in_chunks_and_draws_the_same() {
    if common::gpu("a_preprocess_budget_smaller_than_the_stream_runs_in_chunks_and_draws_the_same").is_none() {
        return;
    }
    let whole = run_ok(&RunOptions { preprocess_budget: 1 << 30, ..options(Mode::Dgc, 600) });
    let plan = whole.preprocess.clone().unwrap();
    assert_eq!(plan.chunks, 1, "{plan:?}");
    // Half of what one execute needs: two or more chunks on any driver (a fixed part makes an
    // eighth too small for even one sequence on the H200).
    let small = RunOptions { preprocess_budget: plan.preprocess_bytes / 2, ..options(Mode::Dgc, 600) };
    let chunked = run_ok(&small);
    let cplan = chunked.preprocess.clone().unwrap();
    assert!(cplan.chunks > 1, "{cplan:?}");
    assert!(cplan.preprocess_bytes <= small.preprocess_budget);
    assert_eq!(chunked.frames[0].visible, whole.frames[0].visible);
    assert!(chunked.image == whole.image, "chunked execution changed the image");
}

#[test]
fn lavapipes_wrapped_preprocess_size_at_ten_thousand_sequences_is_caught() {
    if common::gpu("lavapipes_wrapped_preprocess_size_at_ten_thousand_sequences_is_caught").is_none()
        || !common::is_lavapipe("lavapipes_wrapped_preprocess_size_at_ten_thousand_sequences_is_caught")
    {
        return;
    }
    // A budget the wrapped answer for 10,000 sequences (1.5 GB) would fit: trusting it would
    // mean one execute over memory far smaller than the driver really writes.
    let o = RunOptions { preprocess_budget: 1600 << 20, ..options(Mode::Dgc, 10_000) };
    let r = run_ok(&o);
    let plan = r.preprocess.clone().unwrap();
    common::loud(&r.to_string());
    if let Ok(path) = std::env::var("DGCC_SCENE_DUMP") {
        std::fs::write(path, &r.image.rgba).unwrap();
    }
    assert!(plan.anomaly.is_some(), "the wrap went unnoticed: {plan:?}");
    assert!(plan.chunks > 1 && plan.sequences_per_chunk <= 5461, "{plan:?}");
    assert_eq!(r.frames[0].visible, reference_visible(&o));
}

/// Run in a child process: the subgroup size is fixed when lavapipe creates its instance.
#[test]
#[ignore = "run by compaction_is_correct_at_subgroup_sizes_4_and_8 in a child process"]
fn child_compaction_at_this_vector_width() {
    let expect: u32 = std::env::var("DGCC_EXPECT_SUBGROUP").expect("set by the parent").parse().unwrap();
    // Counts that fill no workgroup (128) nor subgroup (4, 8) evenly, and one that does.
    for objects in [1, 5, 67, 1237, 2048] {
        let want = reference_visible(&options(Mode::Cpu, objects));
        let dgc = run_ok(&options(Mode::Dgc, objects));
        let mdi = run_ok(&options(Mode::Mdi, objects));
        let cpu = run_ok(&options(Mode::Cpu, objects));
        assert_eq!(dgc.subgroup.observed_size, Some(expect), "{:?}", dgc.subgroup);
        assert_eq!((dgc.frames[0].visible, mdi.frames[0].visible), (want, want), "{objects} objects");
        assert!(dgc.image == cpu.image && mdi.image == cpu.image, "{objects} objects: images differ");
        // The fused kernel (the bench's default): a workgroup's subgroups add their counts in
        // shared memory and the workgroup claims its slots with one atomic.
        for mode in [Mode::Dgc, Mode::Mdi] {
            let fused = run_ok(&RunOptions { compaction: Compaction::Fused, ..options(mode, objects) });
            assert_eq!(fused.subgroup.observed_size, Some(expect), "fused: {:?}", fused.subgroup);
            assert_eq!(fused.frames[0].visible, want, "fused {} mode, {objects} objects", mode.name());
            assert!(fused.image == cpu.image, "fused {} mode, {objects} objects: images differ", mode.name());
        }
    }
    // The ordered compaction's one kernel keeps object order across its tiles (a workgroup's
    // 512 objects) through the look-back, here over many more tiles than one step of it reads
    // (a row of the subgroup's width: 4 or 8 tiles), with frustum and occlusion culling.
    for objects in [67, 2048, 20_000] {
        for (mode, culling) in [(Mode::Dgc, Culling::Frustum), (Mode::Mdi, Culling::Occlusion)] {
            let o = RunOptions { culling, frames: 3, object_ids: true, capture_frames: true, ..options(mode, objects) };
            let r = run_ok(&o);
            assert!(r.one_pass, "the ordered compaction ran in two kernels");
            for (f, frame) in r.frames.iter().enumerate() {
                assert_eq!(
                    frame.in_object_order,
                    Some(true),
                    "{} {} culling, {objects} objects, frame {f}",
                    mode.name(),
                    culling.name()
                );
                assert!(frame.draws > 0 || objects < 100, "frame {f} drew nothing");
            }
        }
    }
    println!("compaction ok at subgroup size {expect}");
}

#[test]
fn compaction_is_correct_at_subgroup_sizes_4_and_8() {
    if common::gpu("compaction_is_correct_at_subgroup_sizes_4_and_8").is_none()
        || !common::is_lavapipe("compaction_is_correct_at_subgroup_sizes_4_and_8")
    {
        return;
    }
    for (width, size) in [("128", 4), ("256", 8)] {
        let mut env = common::lavapipe_width_env(width);
        env.push(("DGCC_EXPECT_SUBGROUP", size.to_string()));
        let (status, text) = common::run_child("child_compaction_at_this_vector_width", &env);
        assert!(status.success(), "LP_NATIVE_VECTOR_WIDTH={width}:\n{text}");
        assert!(text.contains(&format!("compaction ok at subgroup size {size}")), "the child did not run:\n{text}");
    }
}

#[test]
fn a_layout_other_than_the_scenes_is_refused_with_what_differs() {
    let mut m = builtin_manifest();
    m.layouts[0].stride += 16;
    let e = run(&m, &options(Mode::Mdi, 10)).expect_err("must refuse");
    assert!(e.to_string().contains("stride"), "{e}");
    let e = run(&builtin_manifest(), &RunOptions { objects: 0, ..options(Mode::Cpu, 0) }).err().unwrap();
    assert!(e.to_string().contains("--objects"), "{e}");
}

/// `--max-draws`: a pass reads at most that many records (DGC's maxSequenceCount, the
/// multi-draw's maxDrawCount), so the first N of what culling kept are drawn. With the
/// object-ordered compaction both modes draw the same N objects: the same picture, and a
/// different one from the uncapped run's; the report counts what was not drawn.
#[test]
fn max_draws_draws_the_first_records_in_both_gpu_modes_and_says_what_it_dropped() {
    if common::gpu("max_draws_draws_the_first_records_in_both_gpu_modes_and_says_what_it_dropped").is_none() {
        return;
    }
    let cap = 150;
    let o = |mode, max_draws| RunOptions {
        compaction: dgcc_cli::scene::Compaction::Ordered,
        max_draws,
        ..options(mode, 2000)
    };
    let full = run_ok(&o(Mode::Mdi, None));
    let kept = full.frames[0].visible;
    assert!(kept > cap, "the test needs culling to keep more than {cap} objects, it kept {kept}");
    assert_eq!(full.frames[0].dropped_draws, 0);
    let capped: Vec<RunReport> = [Mode::Dgc, Mode::Mdi].into_iter().map(|m| run_ok(&o(m, Some(cap)))).collect();
    for r in &capped {
        let f = &r.frames[0];
        assert_eq!((f.visible, f.draws, f.dropped_draws), (kept, cap, kept - cap), "{} mode", r.mode.name());
        assert!(r.to_string().contains("more than --max-draws"), "{r}");
    }
    assert!(capped[0].image == capped[1].image, "dgc and mdi drew different first {cap} records");
    assert!(capped[1].image != full.image, "capping at {cap} of {kept} draws changed nothing");
    let e = run(&builtin_manifest(), &o(Mode::Cpu, Some(cap))).unwrap_err();
    assert!(e.to_string().contains("--max-draws"), "{e}");
    let e = run(&builtin_manifest(), &RunOptions { materials: 4, ..o(Mode::Dgc, Some(cap)) }).unwrap_err();
    assert!(e.to_string().contains("--materials"), "{e}");
}

#[test]
fn a_batch_draws_each_pass_as_one_sequence_and_the_same_pixels_as_multi_draw() {
    if common::gpu("a_batch_draws_each_pass_as_one_sequence_and_the_same_pixels_as_multi_draw").is_none() {
        return;
    }
    // Both passes of occlusion culling (each its own counts buffer, so its own batch sequence),
    // both compactions, and a cap: the batch's maxDrawCount clamps the count culling wrote.
    for (culling, compaction, max_draws) in [
        (Culling::Occlusion, Compaction::Ordered, None),
        (Culling::Frustum, Compaction::Fused, None),
        (Culling::Frustum, Compaction::Ordered, Some(150)),
    ] {
        let o = |mode, batch| RunOptions { culling, compaction, max_draws, batch, frames: 3, ..options(mode, 2000) };
        let mdi = run_ok(&o(Mode::Mdi, false));
        let batch = run_ok(&o(Mode::Dgc, true));
        let what = format!("{} culling, {} compaction, max draws {max_draws:?}", culling.name(), compaction.name());
        assert_eq!((batch.layout.as_str(), batch.batch_layout.as_deref()), ("SceneDraw", Some("SceneBatch")), "{what}");
        assert!(batch.to_string().contains("one sequence of layout `SceneBatch`"), "{what}");
        assert_eq!(batch.preprocess.as_ref().map(|p| p.chunks), Some(1), "{what}: one sequence, one execute");
        for (b, m) in batch.frames.iter().zip(&mdi.frames) {
            assert_eq!((b.draws, b.early_draws, b.late_draws), (m.draws, m.early_draws, m.late_draws), "{what}");
        }
        assert!(batch.frames.iter().all(|f| f.draws > 0), "{what}: something is drawn");
        if max_draws.is_some() {
            assert!(batch.frames[0].dropped_draws > 0, "{what}: the cap drops draws");
        }
        assert!(batch.image == mdi.image, "{what}: the batch and multi-draw images differ");
    }
    // With materials, the stream is binned and each material's region is one sequence,
    // executed with the material's pipeline bound: multi-draw's binned pictures, in both
    // passes of occlusion culling too (each pass has its own bins).
    for culling in [Culling::Frustum, Culling::Occlusion] {
        let o = |mode, batch| RunOptions { culling, batch, materials: 4, frames: 3, ..options(mode, 2000) };
        let mdi = run_ok(&o(Mode::Mdi, false));
        let batch = run_ok(&o(Mode::Dgc, true));
        let what = format!("{} culling, 4 materials", culling.name());
        assert_eq!(batch.material_draw, MaterialDraw::Binned, "{what}");
        assert!(batch.to_string().contains("one sequence of layout `SceneBatch` per material"), "{what}");
        for (b, m) in batch.frames.iter().zip(&mdi.frames) {
            assert_eq!((b.draws, b.early_draws, b.late_draws), (m.draws, m.early_draws, m.late_draws), "{what}");
        }
        assert!(batch.frames.iter().all(|f| f.draws > 0), "{what}: something is drawn");
        assert!(batch.image == mdi.image, "{what}: the batch and multi-draw images differ");
    }
    let refused = |o: RunOptions| run(&builtin_manifest(), &o).unwrap_err().to_string();
    assert!(refused(RunOptions { batch: true, ..options(Mode::Mdi, 100) }).contains("--mode dgc"));
    let set = RunOptions { batch: true, materials: 4, dgc_materials: DgcMaterials::Set, ..options(Mode::Dgc, 100) };
    assert!(refused(set).contains("--material-draw set"));
    let sorted = RunOptions { batch: true, materials: 4, sort_materials: true, ..options(Mode::Dgc, 100) };
    assert!(refused(sorted).contains("--sort-materials"));
    let objects = RunOptions { batch: true, materials: 4, bind: Bind::ShaderObjects, ..options(Mode::Dgc, 100) };
    assert!(refused(objects).contains("--bind shader-objects"));
}

#[test]
fn a_culling_dispatch_past_the_devices_workgroup_count_is_refused() {
    // lavapipe allows 65,535 workgroups per dispatch: 600,000 objects at local_size 2, eight
    // objects a workgroup in the one-pass kernel, take 75,000. Refused before anything runs
    // (VUID-vkCmdDispatch-groupCountX-00386), naming the limit; at 2,000 objects it runs.
    let test = "a_culling_dispatch_past_the_devices_workgroup_count_is_refused";
    if !common::is_lavapipe(test) {
        return;
    }
    let mut manifest = builtin_manifest();
    manifest.kernels.iter_mut().find(|k| k.name == "cull").expect("the cull kernel").local_size = [2, 1, 1];
    let o = RunOptions { objects: 600_000, ..options(Mode::Mdi, 600_000) };
    let e = run(&manifest, &o).expect_err("75,000 workgroups on lavapipe").to_string();
    assert!(e.contains("75000 workgroups") && e.contains("maxComputeWorkGroupCount[0] = 65535"), "{e}");
    // The refusal comes after the scene made its buffers, descriptor sets, targets and depth
    // pyramid: under the layer, anything of them left to the device's destruction is an error
    // (VUID-vkDestroyDevice-device-05137), so this also holds the scene's setup to cleaning up
    // after a failure.
    match &o.layer_log {
        Some(log) => common::assert_no_layer_errors(test, log),
        None => assert!(!common::validation_required(), "DGCC_VALIDATION=1 but the run had no layer log"),
    }
    run(&manifest, &options(Mode::Mdi, 2000)).expect("2,000 objects at local_size 2 fit");
}
