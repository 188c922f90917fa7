//! `dgcc::build`: what a crate's build script gets. The example crate in `examples/embed/` is
//! built for real by `tests/emit_embed.rs`; these tests cover the API quickly.

use dgcc::build::Build;
use dgcc::emit::{self, Output};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("DGCC_CHECKOUT")).join("tests/emit/fixtures").join(format!("{name}.ron"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn writes_what_the_emitters_print_and_lists_every_input() {
    let out = scratch("build-scene");
    let report = Build::new().file(fixture("scene")).out_dir(&out).run().unwrap();
    let m = &report.manifests[0];
    for output in Output::ALL {
        let path = out.join(output.file_name("scene"));
        assert!(report.files.contains(&path), "{}", path.display());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), emit::emit(m, output).unwrap());
    }
    assert!(report.inputs.contains(&fixture("scene")));
    assert!(
        report.inputs.iter().any(|i| i.ends_with("fixtures/cull.comp")),
        "the kernel source is an input: {:?}",
        report.inputs
    );
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

/// What a kernel or shader `#include`s is watched too: a changed header can change the checks'
/// verdict (E0581, E0583). The pipeline's generated include is answered from the description,
/// so it is not a file to watch.
#[test]
fn the_files_kernels_and_shaders_include_are_inputs() {
    let scene = Path::new(env!("DGCC_CHECKOUT")).join("examples/scene.ron");
    let inputs = match Build::new().file(&scene).out_dir(scratch("build-includes")).run() {
        Ok(report) => report.inputs,
        Err(failure) => failure.inputs,
    };
    let watched = |name: &str| inputs.iter().filter(|i| i.ends_with(name)).count();
    for header in ["runtime/scene_data.glsl", "runtime/materials.glsl", "runtime/pyramid_levels.glsl"] {
        assert_eq!(watched(header), 1, "{header} once among {inputs:?}");
    }
    assert_eq!(watched("scene.glsl"), 0, "the generated include is not read: {inputs:?}");
}

/// A profile given with `Build::target` is read relative to the current directory, as
/// `--target`'s is, so that is the path Cargo is told to watch, wherever the description is.
#[test]
fn a_target_given_to_the_build_is_watched_where_it_is_read() {
    let profile = Path::new(env!("DGCC_CHECKOUT")).join("tests/profiles/lavapipe-capsviewer.json");
    let cwd = std::env::current_dir().unwrap();
    // The profile's path relative to the current directory: up to their common folder, down.
    let common = cwd.ancestors().find(|a| profile.starts_with(a)).unwrap();
    let mut relative: PathBuf = cwd.strip_prefix(common).unwrap().components().map(|_| "..").collect();
    relative.push(profile.strip_prefix(common).unwrap());
    // lavapipe's subgroups are too narrow for the fixture's kernel: the build fails, and a
    // failed build names its inputs too, so that fixing the profile reruns it.
    let built =
        Build::new().file(fixture("scene")).target(relative.to_str().unwrap()).out_dir(scratch("build-target")).run();
    let inputs = match built {
        Ok(report) => report.inputs,
        Err(failure) => failure.inputs,
    };
    assert!(inputs.contains(&relative), "{} is not among {inputs:?}", relative.display());
}

#[test]
fn unchanged_outputs_are_not_rewritten() {
    let out = scratch("build-unchanged");
    let build = Build::new().file(fixture("compute")).out_dir(&out).emit(&[Output::Rust]);
    build.run().unwrap();
    let path = out.join("compute.rs");
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    build.run().unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), before);
    assert!(!out.join("compute.h").exists(), "only the outputs asked for");
}

#[test]
fn a_folder_contributes_every_description_and_is_watched() {
    let dir = scratch("build-dir");
    for name in ["pinned", "raytrace"] {
        std::fs::copy(fixture(name), dir.join(format!("{name}.ron"))).unwrap();
    }
    std::fs::write(dir.join("notes.txt"), "not a description").unwrap();
    let out = dir.join("out");
    let report = Build::new().dir(&dir).out_dir(&out).emit(&[Output::Json]).run().unwrap();
    let mut names: Vec<&str> = report.manifests.iter().map(|m| m.pipeline.as_str()).collect();
    names.sort();
    assert_eq!(names, ["pinned", "raytrace"]);
    assert!(report.inputs.contains(&dir));
}

#[test]
fn errors_fail_with_rendered_diagnostics_and_keep_the_inputs() {
    let dir = scratch("build-errors");
    let desc = dir.join("bad.ron");
    std::fs::write(
        &desc,
        "Pipeline(name: \"bad\", layouts: [(name: \"L\", stages: [Vertex], max_sequences: 16, tokens: [DrawIndexed, PushConstant(stages: [Vertex], offset: 0, size: 4)])])",
    )
    .unwrap();
    let err = Build::new().file(&desc).out_dir(dir.join("out")).run().unwrap_err();
    assert!(err.message.contains("error["), "{err}");
    assert!(err.message.contains("bad.ron"), "{err}");
    assert!(err.inputs.contains(&desc), "Cargo must rerun when the description is fixed");
    assert!(!dir.join("out/bad.rs").exists());
}

#[test]
fn warnings_are_reported_and_can_be_denied() {
    let dir = scratch("build-warnings");
    std::fs::write(
        dir.join("k.comp"),
        "#version 460\n#extension GL_KHR_shader_subgroup_ballot : require\nlayout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer B { uint n; };\nvoid main() { uvec4 b = subgroupBallot(true); atomicAdd(n, bitCount(b.x)); }\n",
    )
    .unwrap();
    let desc = dir.join("w.ron");
    std::fs::write(
        &desc,
        "Pipeline(name: \"w\", targets: [\"lavapipe\"], push_constants: [(stages: [Compute], offset: 0, size: 4)], layouts: [(name: \"L\", stages: [Compute], max_sequences: 16, tokens: [PushConstant(stages: [Compute], offset: 0, size: 4), Dispatch])], kernels: [(name: \"k\", source: \"k.comp\", local_size: (64, 1, 1))])",
    )
    .unwrap();
    let report = Build::new().file(&desc).out_dir(dir.join("out")).run().unwrap();
    assert_eq!(report.warnings.len(), 1);
    assert!(report.warnings[0].contains("W0503"), "{}", report.warnings[0]);
    assert!(report.inputs.contains(&dir.join("k.comp")));
    let err = Build::new().file(&desc).out_dir(dir.join("out2")).deny_warnings(true).run().unwrap_err();
    assert!(err.message.contains("W0503"), "{err}");
    let quiet = Build::new().file(&desc).out_dir(dir.join("out3")).check_kernels(false).run().unwrap();
    assert!(quiet.warnings.is_empty());
    // Per-code levels, as on the command line: an allowed code neither warns nor fails a
    // build that denies warnings; the last setting of a code wins; errors cannot be allowed.
    let allowed = Build::new().file(&desc).out_dir(dir.join("out4")).deny_warnings(true).allow("W0503").run().unwrap();
    assert!(allowed.warnings.is_empty());
    let denied = Build::new().file(&desc).out_dir(dir.join("out5")).allow("W0503").deny("W0503").run().unwrap_err();
    assert!(denied.message.contains("error[W0503]"), "{denied}");
    let refused = Build::new().file(&desc).out_dir(dir.join("out6")).allow("E0404").run().unwrap_err();
    assert!(refused.message.contains("E0404 is an error and cannot be allowed"), "{refused}");
}

#[test]
fn without_out_dir_it_says_where_to_call_it_from() {
    if std::env::var_os("OUT_DIR").is_some() {
        return; // only meaningful outside a build script
    }
    let err = Build::new().file(fixture("scene")).run().unwrap_err();
    assert!(err.message.contains("OUT_DIR"), "{err}");
}

#[test]
fn two_descriptions_of_one_pipeline_collide() {
    let dir = scratch("build-collide");
    std::fs::copy(fixture("raytrace"), dir.join("a.ron")).unwrap();
    std::fs::copy(fixture("raytrace"), dir.join("b.ron")).unwrap();
    let err = Build::new().dir(&dir).out_dir(dir.join("out")).run().unwrap_err();
    assert!(err.message.contains("raytrace"), "{err}");
    // Names that differ in case write the same files, whatever sorts between them.
    let text = std::fs::read_to_string(fixture("raytrace")).unwrap();
    std::fs::write(dir.join("b.ron"), text.replacen("\"raytrace\"", "\"Raytrace\"", 1)).unwrap();
    std::fs::write(dir.join("c.ron"), text.replacen("\"raytrace\"", "\"Zebra\"", 1)).unwrap();
    let out = dir.join("out-case");
    let err = Build::new().dir(&dir).out_dir(&out).run().unwrap_err();
    assert!(
        err.message.contains("`Raytrace` and `raytrace`") || err.message.contains("`raytrace` and `Raytrace`"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn spelling_options_reach_the_files_and_change_no_record() {
    let out = scratch("build-spelling");
    let report = Build::new()
        .file(fixture("scene"))
        .out_dir(&out)
        .emit(&[Output::Rust, Output::C])
        .rust_ash_path("::ash")
        .rust_bytemuck(true)
        .c_vulkan_include("volk.h")
        .run()
        .unwrap();
    let options = emit::Options {
        rust: emit::rust::Options { ash_path: "::ash".into(), bytemuck: true },
        c: emit::c::Options { vulkan_include: "volk.h".into() },
    };
    for output in [Output::Rust, Output::C] {
        let text = std::fs::read_to_string(out.join(output.file_name("scene"))).unwrap();
        assert_eq!(text, emit::emit_with(&report.manifests[0], output, &options).unwrap());
    }
    let rust = std::fs::read_to_string(out.join("scene.rs")).unwrap();
    assert!(rust.contains("use ::ash::vk;") && rust.contains("::bytemuck::Pod") && !rust.contains("::dgcc::ash"));
    assert!(std::fs::read_to_string(out.join("scene.h")).unwrap().contains("#include <volk.h>"));
    // A path that is not a Rust path fails the build instead of writing a broken module.
    let bad = Build::new().file(fixture("scene")).out_dir(scratch("build-bad-path")).rust_ash_path("ash; fn x()");
    assert!(bad.run().is_err());
}
