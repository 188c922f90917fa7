//! The runtime's committed shader artefacts are what their sources produce:
//! `shaders/runtime/generated/` is what dgcc emits from `examples/scene.ron`, and every
//! `shaders/runtime/spv/*.spv` is what `shaders/runtime/build.sh` compiles. Run with
//! `DGCC_BLESS=1` to rewrite the generated files (then run build.sh).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("DGCC_CHECKOUT")).join("shaders/runtime")
}

fn bless() -> bool {
    std::env::var("DGCC_BLESS").is_ok_and(|v| v == "1")
}

#[test]
fn the_generated_scene_files_are_up_to_date() {
    use dgcc::emit::{emit, Output};
    let source = PathBuf::from(env!("DGCC_CHECKOUT")).join("examples/scene.ron");
    let (_, compilation) = dgcc::driver::compile_file(&source, &Default::default()).expect("scene.ron is readable");
    assert!(!compilation.has_errors(), "scene.ron does not compile: {:?}", compilation.diagnostics);
    let manifest = compilation.manifest.expect("a manifest");
    for (output, file) in [(Output::Glsl, "scene.glsl"), (Output::Json, "scene.dgc.json")] {
        let text = emit(&manifest, output).expect("emits");
        let path = root().join("generated").join(file);
        if bless() {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{} is stale: run `DGCC_BLESS=1 cargo test --test runtime_shaders`, then shaders/runtime/build.sh",
            path.display()
        );
    }
}

fn glslang_available() -> bool {
    Command::new("glslangValidator").arg("--version").output().is_ok_and(|o| o.status.success())
}

#[test]
fn every_committed_spirv_matches_its_source() {
    if !glslang_available() {
        // CI installs glslang-tools; locally, say so loudly.
        assert!(std::env::var("CI").is_err(), "glslangValidator is missing on CI");
        use std::io::Write;
        let _ =
            writeln!(std::io::stderr(), "SKIP every_committed_spirv_matches_its_source: glslangValidator not found");
        return;
    }
    let out = std::env::temp_dir().join(format!("dgcc-spv-check-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("comp" | "vert" | "tesc" | "tese" | "geom" | "frag" | "task" | "mesh")
            )
        })
        .collect();
    sources.sort();
    assert!(sources.len() >= 6, "expected the runtime's shaders, found {sources:?}");
    for src in &sources {
        let name = src.file_name().unwrap().to_str().unwrap();
        let fresh = out.join(format!("{name}.spv"));
        let status = Command::new("glslangValidator")
            .current_dir(root())
            .args(["--quiet", "--target-env", "vulkan1.2", "-V", name, "-o"])
            .arg(&fresh)
            .status()
            .unwrap();
        assert!(status.success(), "{name} does not compile");
        let committed = root().join("spv").join(format!("{name}.spv"));
        assert_eq!(read(&committed), read(&fresh), "{} is stale: run shaders/runtime/build.sh", committed.display());
    }
    // The variants build.sh compiles once more with a define.
    for (name, define, spv) in variants() {
        let fresh = out.join(&spv);
        let status = Command::new("glslangValidator")
            .current_dir(root())
            .args(["--quiet", "--target-env", "vulkan1.2", "-V", &format!("-D{define}"), name, "-o"])
            .arg(&fresh)
            .status()
            .unwrap();
        assert!(status.success(), "{name} does not compile with {define}");
        let committed = root().join("spv").join(&spv);
        assert_eq!(read(&committed), read(&fresh), "{} is stale: run shaders/runtime/build.sh", committed.display());
    }
    // Nothing in spv/ that no source makes.
    let made: Vec<String> = sources
        .iter()
        .map(|s| format!("{}.spv", s.file_name().unwrap().to_str().unwrap()))
        .chain(variants().map(|(_, _, spv)| spv))
        .collect();
    for entry in std::fs::read_dir(root().join("spv")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(made.contains(&name), "spv/{name} is made by no source (stale?): remove it or add its source");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The kernels `build.sh` compiles a second time with `-DSHADER_OBJECT_RECORDS`.
const SHADER_OBJECT_VARIANTS: [&str; 4] = ["cull.comp", "compact.comp", "cull_compact.comp", "bin_materials.comp"];

/// Every variant `build.sh` makes with a define: (source, define, file in spv/).
fn variants() -> impl Iterator<Item = (&'static str, &'static str, String)> {
    let records = SHADER_OBJECT_VARIANTS
        .iter()
        .map(|&n| (n, "SHADER_OBJECT_RECORDS", format!("{}.shaders.comp.spv", n.trim_end_matches(".comp"))));
    records
        .chain([
            ("depth_pyramid.comp", "DEPTH_FROM_COPY", "depth_pyramid.copy.comp.spv".to_string()),
            ("dispatch_tally.comp", "NOTHING_PUSHED", "dispatch_tally.unpushed.comp.spv".to_string()),
        ])
        .chain(BETWEEN_VARIANTS.iter().flat_map(|&n| {
            let (name, stage) = n.split_once('.').expect("a stage extension");
            [
                (n, "CARRIED_WORDS", format!("{name}.carried.{stage}.spv")),
                (n, "PUSHED_WORDS", format!("{name}.pushed.{stage}.spv")),
            ]
        }))
}

/// The draw tally's stages between vertex and fragment, which `build.sh` compiles twice more,
/// with `-DCARRIED_WORDS` and `-DPUSHED_WORDS`.
const BETWEEN_VARIANTS: [&str; 3] = ["draw_tally.tesc", "draw_tally.tese", "draw_tally.geom"];

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}
