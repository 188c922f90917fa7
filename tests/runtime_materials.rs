//! Materials never depend on how they are drawn: with 1, 4 and 16 materials (each its own
//! pipeline, or its own pair of shader objects), every mode and way of changing them — dgc
//! through an execution set of pipelines or of shader objects (`--bind shader-objects`, the
//! `SceneDrawShaders` record), each also sorted first, or binned (one execute per material: the
//! path a device without graphics pipeline binding takes, forced here), mdi binned, the CPU loop
//! in object order and sorted; with one material, every mode with its shader objects bound
//! instead of its pipeline — draws the same pixels frame by frame, with frustum and occlusion
//! culling. The materials differ visibly (16 give another picture than 1), and the
//! execution set, not the shaders, picks what a sequence draws with: swapping two entries
//! changes exactly the pixels of the objects of those two materials, for either kind of set.
//! Bad material options are refused with a clear message.

#[path = "runtime/common.rs"]
mod common;

use dgcc::runtime::ContextOptions;
use dgcc_cli::scene::{
    builtin_manifest, run_on, world, Bind, Culling, DgcMaterials, MaterialDraw, Mode, RunOptions, RunReport,
};

/// A small city: 1,200 objects, 3 frames with a cut at frame 2, 160×96.
fn options(mode: Mode, culling: Culling, materials: u32) -> RunOptions {
    RunOptions {
        mode,
        culling,
        materials,
        objects: 1200,
        frames: 3,
        cut_every: 2,
        width: 160,
        height: 96,
        capture_frames: true,
        ..RunOptions::default()
    }
}

fn run_ok(gpu: &common::Gpu, o: &RunOptions) -> RunReport {
    let what = format!(
        "{} mode, culling {}, {} materials, {:?}, sorted {}",
        o.mode.name(),
        o.culling.name(),
        o.materials,
        o.dgc_materials,
        o.sort_materials
    );
    run_on(gpu, &builtin_manifest(), o).unwrap_or_else(|e| panic!("{what}: {e}"))
}

fn images(r: &RunReport) -> Vec<&[u8]> {
    r.frames.iter().map(|f| f.image.as_ref().expect("captured").rgba.as_slice()).collect()
}

/// Every way of drawing `materials` materials, with what it must report.
/// With `shader_objects` (the device has VK_EXT_shader_object), also through sets of shader
/// objects.
fn ways(culling: Culling, materials: u32, shader_objects: bool) -> Vec<(RunOptions, MaterialDraw)> {
    let several = materials > 1;
    let mut out = vec![];
    let plain = |mode| options(mode, culling, materials);
    let one = MaterialDraw::OnePipeline;
    out.push((plain(Mode::Dgc), if several { MaterialDraw::Set } else { one }));
    out.push((plain(Mode::Mdi), if several { MaterialDraw::Binned } else { one }));
    if several {
        out.push((RunOptions { sort_materials: true, ..plain(Mode::Dgc) }, MaterialDraw::SortedSet));
        out.push((RunOptions { dgc_materials: DgcMaterials::Binned, ..plain(Mode::Dgc) }, MaterialDraw::Binned));
        if shader_objects {
            let objects = || RunOptions { bind: Bind::ShaderObjects, ..plain(Mode::Dgc) };
            out.push((objects(), MaterialDraw::Set));
            out.push((RunOptions { sort_materials: true, ..objects() }, MaterialDraw::SortedSet));
        }
    }
    if culling != Culling::Occlusion {
        out.push((plain(Mode::Cpu), if several { MaterialDraw::BindOnChange } else { one }));
        if several {
            out.push((RunOptions { sort_materials: true, ..plain(Mode::Cpu) }, MaterialDraw::BindOnChange));
        }
    }
    if !several && shader_objects {
        // One material: every mode binds its pair of shader objects instead of its pipeline, a
        // DGC execute naming them (VkGeneratedCommandsShaderInfoEXT), a sequence per draw or
        // the batch.
        let objects = |mode| RunOptions { bind: Bind::ShaderObjects, ..plain(mode) };
        out.push((objects(Mode::Dgc), one));
        out.push((RunOptions { batch: true, ..objects(Mode::Dgc) }, one));
        out.push((objects(Mode::Mdi), one));
        if culling != Culling::Occlusion {
            out.push((objects(Mode::Cpu), one));
        }
    }
    out
}

#[test]
fn every_mode_and_binding_draws_the_same_pixels_with_1_4_and_16_materials() {
    let Some(gpu) = common::gpu("every_mode_and_binding_draws_the_same_pixels_with_1_4_and_16_materials") else {
        return;
    };
    let shader_objects =
        common::has_shader_objects("every_mode_and_binding_draws_the_same_pixels_with_1_4_and_16_materials", &gpu);
    let mut pictures = vec![];
    for materials in [1, 4, 16] {
        let several = materials > 1;
        for culling in [Culling::Frustum, Culling::Occlusion] {
            let mut reference: Option<RunReport> = None;
            for (o, how) in ways(culling, materials, shader_objects) {
                let r = run_ok(&gpu, &o);
                let what = format!(
                    "{} ({}, {:?}), culling {}, {materials} materials",
                    o.mode.name(),
                    how.name(),
                    o.bind,
                    culling.name()
                );
                assert_eq!(r.material_draw, how, "{what}: drew another way");
                assert_eq!(r.bind, o.bind, "{what}");
                if o.bind == Bind::ShaderObjects && several {
                    assert_eq!(
                        r.layout, "SceneDrawShaders",
                        "{what}: a set of shader objects comes with its own record"
                    );
                } else {
                    assert_eq!(r.layout, "SceneDraw", "{what}");
                }
                if o.bind == Bind::ShaderObjects && !several {
                    assert!(r.to_string().contains("shader object bound"), "{what}: the report says what is bound");
                }
                assert_eq!(r.materials, materials);
                assert_eq!(r.frames.len(), 3, "{what}: every frame reported");
                assert!(r.frames.iter().all(|f| f.draws > 0), "{what}: a frame drew nothing");
                if let Some(m) = r.frames.iter().find_map(|f| f.passes.bin_ms) {
                    assert!(matches!(how, MaterialDraw::Binned | MaterialDraw::SortedSet) && m >= 0.0, "{what}");
                }
                match &reference {
                    None => reference = Some(r),
                    Some(reference) => {
                        for (f, (a, b)) in images(reference).iter().zip(images(&r)).enumerate() {
                            let differ = a.chunks(4).zip(b.chunks(4)).filter(|(x, y)| x != y).count();
                            assert_eq!(differ, 0, "{what}, frame {f}: {differ} pixels differ from dgc's");
                        }
                    }
                }
            }
            if culling == Culling::Frustum {
                pictures.push(images(reference.as_ref().expect("ran")).concat());
            }
        }
    }
    // The materials are real: more of them change what the frames look like.
    assert_ne!(pictures[0], pictures[1], "4 materials look like 1");
    assert_ne!(pictures[1], pictures[2], "16 materials look like 4");
}

#[test]
fn swapping_two_entries_of_the_execution_set_changes_exactly_their_objects() {
    let Some(gpu) = common::gpu("swapping_two_entries_of_the_execution_set_changes_exactly_their_objects") else {
        return;
    };
    let mut binds = vec![Bind::Pipelines];
    if common::has_shader_objects("swapping_two_entries_of_the_execution_set_changes_exactly_their_objects", &gpu) {
        binds.push(Bind::ShaderObjects);
    }
    for bind in binds {
        swap_entries_4_and_7(&gpu, bind);
    }
}

fn swap_entries_4_and_7(gpu: &common::Gpu, bind: Bind) {
    // Materials 4 and 7 (opaque and emissive) shade differently but cover the same pixels, so
    // the object-id image stays and every changed pixel belongs to an object of one of them.
    let base = RunOptions { object_ids: true, bind, ..options(Mode::Dgc, Culling::Frustum, 8) };
    let plain = run_ok(gpu, &base);
    let swapped = run_ok(gpu, &RunOptions { swap_set_entries: Some((4, 7)), ..base.clone() });
    assert_eq!(swapped.material_draw, MaterialDraw::Set);
    let mut objects = world::objects(base.scene, base.objects, base.seed);
    world::assign_materials(&mut objects, base.materials);
    let mut changed = 0;
    for (f, (a, b)) in plain.frames.iter().zip(&swapped.frames).enumerate() {
        let (ia, ib) = (a.image.as_ref().expect("captured"), b.image.as_ref().expect("captured"));
        let (da, db) = (a.ids.as_ref().expect("ids"), b.ids.as_ref().expect("ids"));
        assert_eq!(da, db, "frame {f}: swapping shading pipelines moved an object");
        for (p, (x, y)) in ia.rgba.chunks(4).zip(ib.rgba.chunks(4)).enumerate() {
            if x != y {
                changed += 1;
                let owner = da[p].checked_sub(1).expect("a changed pixel belongs to an object");
                let m = world::material_of(&objects[owner as usize]);
                assert!(m == 4 || m == 7, "frame {f}, pixel {p}: object {owner} of material {m} changed");
            }
        }
    }
    assert!(changed > 100, "{bind:?}: swapping entries 4 and 7 changed only {changed} pixels");
}

/// The wind material sways with the frame clock (`Frame::materials.y`): under a fixed camera,
/// with four materials (the third is wind), frames ten apart differ, and only in pixels of
/// wind objects; with one material (no wind) every frame is the same picture.
#[test]
fn the_wind_material_moves_with_the_frame_clock_and_nothing_else_does() {
    let Some(gpu) = common::gpu("the_wind_material_moves_with_the_frame_clock_and_nothing_else_does") else {
        return;
    };
    // The street camera's first view, held still.
    let still = |materials| {
        let o = RunOptions { object_ids: true, frames: 21, ..options(Mode::Dgc, Culling::Frustum, materials) };
        RunOptions { camera: Some(dgcc_cli::scene::camera_path(&o).camera(0)), ..o }
    };
    let plain = run_ok(&gpu, &still(1));
    let frames = images(&plain);
    assert!(frames.windows(2).all(|w| w[0] == w[1]), "one material: the frames differ under a fixed camera");

    let windy = run_ok(&gpu, &still(4));
    let frames = images(&windy);
    let mut objects = world::objects(world::SceneKind::City, 1200, 1);
    world::assign_materials(&mut objects, 4);
    let wind = |id: u32| id != 0 && world::material_of(&objects[id as usize - 1]) % 4 == 2;
    let mut moved = 0;
    for f in [0, 10] {
        let ids = windy.frames[f].ids.as_ref().expect("object ids captured");
        let next = windy.frames[f + 10].ids.as_ref().expect("object ids captured");
        for (px, (a, b)) in frames[f].chunks(4).zip(frames[f + 10].chunks(4)).enumerate() {
            if a != b {
                moved += 1;
                // A wind object covered the pixel in one of the two frames.
                assert!(
                    wind(ids[px]) || wind(next[px]),
                    "frames {f} and {}: pixel {px} changed outside a wind object",
                    f + 10
                );
            }
        }
    }
    assert!(moved > 0, "four materials: no wind object moved between frames");
}

#[test]
fn material_options_the_run_cannot_honour_are_refused() {
    let Some(gpu) = common::gpu("material_options_the_run_cannot_honour_are_refused") else {
        return;
    };
    let refused = |o: RunOptions, says: &str| {
        let e = run_on(&gpu, &builtin_manifest(), &o).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(says), "expected a refusal saying `{says}`, got `{e}`");
    };
    let o = |mode, materials| options(mode, Culling::Frustum, materials);
    refused(o(Mode::Dgc, 17), "--materials 17 is outside 1..=16");
    refused(o(Mode::Dgc, 0), "--materials 0 is outside 1..=16");
    refused(RunOptions { sort_materials: true, ..o(Mode::Mdi, 4) }, "bins the stream by material anyway");
    refused(RunOptions { sort_materials: true, ..o(Mode::Dgc, 1) }, "give --materials 2 or more");
    refused(RunOptions { dgc_materials: DgcMaterials::Set, ..o(Mode::Mdi, 4) }, "it needs --mode dgc");
    refused(RunOptions { bind: Bind::ShaderObjects, ..o(Mode::Cpu, 4) }, "it needs --mode dgc");
    refused(RunOptions { bind: Bind::ShaderObjects, ..o(Mode::Mdi, 4) }, "it needs --mode dgc");
    refused(
        RunOptions { bind: Bind::ShaderObjects, dgc_materials: DgcMaterials::Binned, ..o(Mode::Dgc, 4) },
        "--material-draw binned draws without a set",
    );
    // Without the extension (a context told not to enable it is what a device without it
    // gives) shader objects are refused, never drawn as pipelines in their place: through a set
    // with several materials, and bound in every mode with one.
    let test = "material_options_the_run_cannot_honour_are_refused (no shader objects)";
    let no_objects = ContextOptions { shader_object: false, ..ContextOptions::default() };
    let Some(plain) = common::gpu_with(test, &no_objects) else { return };
    assert!(!plain.caps().shader_object, "the context was asked not to enable shader objects");
    let objects = |o: RunOptions| RunOptions { bind: Bind::ShaderObjects, ..o };
    for o in [
        objects(o(Mode::Dgc, 4)),
        objects(o(Mode::Dgc, 1)),
        objects(RunOptions { batch: true, ..o(Mode::Dgc, 1) }),
        objects(o(Mode::Mdi, 1)),
        objects(o(Mode::Cpu, 1)),
    ] {
        let e = run_on(&plain, &builtin_manifest(), &o).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("VK_EXT_shader_object"), "{} mode, {} materials: `{e}`", o.mode.name(), o.materials);
    }
    // A description without the shader-object layout cannot run them.
    let mut pipelines_only = builtin_manifest();
    pipelines_only.layouts.retain(|l| l.name != "SceneDrawShaders");
    let e = run_on(&gpu, &pipelines_only, &RunOptions { bind: Bind::ShaderObjects, ..o(Mode::Dgc, 4) });
    let e = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("shaped as `SceneDrawShaders`"), "{e}");
}
