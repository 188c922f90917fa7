//! The shader checks: the kernels in `shaders/` pass them, the deliberately broken kernels in
//! `examples/mistakes/` produce each warning on the line marked `// expect: CODE`, and (with the
//! `shaderc` feature) the compiled checks catch a wrong workgroup size, a stale record struct and
//! a kernel that does not compile, while naga's reflection of the generated GLSL reports exactly
//! the manifest's offsets and strides.
//!
//! The draw and dispatch shaders a description names (`shaders:`): the descriptions of
//! `tests/shader/interface/` mark each expected diagnostic where its primary label is, `//~
//! CODE` on a line of the description or `// expect: CODE` on a line of a shader, and must
//! produce exactly those; their rendered diagnostics, human and JSON, are snapshots
//! (`tests/shader/snapshots/`).

#[path = "emit/load.rs"]
mod load;

use dgcc::ast::Pipeline;
use dgcc::diag::{Diagnostic, Severity};
use dgcc::ir::Manifest;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("DGCC_CHECKOUT")).join("tests/emit/fixtures")
}

fn fixture(name: &str) -> (Pipeline, Manifest) {
    load::load(&fixture_dir().join(format!("{name}.ron")))
}

/// The description's own targets, resolved as the driver resolves them (relative to `dir`).
fn targets(p: &Pipeline, dir: &Path) -> Vec<dgcc::device::Profile> {
    p.targets.iter().map(|t| dgcc::device::resolve(&t.node, dir).expect("a target of the fixture")).collect()
}

fn check(name: &str) -> (Pipeline, Vec<Diagnostic>) {
    let (p, m) = fixture(name);
    let diags = dgcc::shader::check_kernels(&fixture_dir(), &p, &m, &targets(&p, &fixture_dir()));
    (p, diags)
}

/// The diagnostics about one kernel: its file or its name in the message, or its name in a label.
fn about<'a>(p: &Pipeline, diags: &'a [Diagnostic], kernel: &str) -> Vec<&'a Diagnostic> {
    let k = p.kernels.iter().find(|k| k.name.node == kernel).expect("kernel in fixture");
    diags
        .iter()
        .filter(|d| {
            d.message.starts_with(&format!("{}:", k.source.node))
                || d.message.contains(&format!("`{kernel}`"))
                || d.labels.iter().any(|l| l.message == format!("in kernel `{kernel}`"))
        })
        .collect()
}

/// The file and 1-based line of a diagnostic's primary label when it points into a shader.
fn shader_line(d: &Diagnostic) -> Option<(String, usize)> {
    let l = d.primary_label()?;
    let f = l.file.as_ref()?;
    Some((f.name.clone(), dgcc::render::line_col(&f.text, l.span.start).0))
}

#[test]
fn the_culling_kernel_and_every_fixture_kernel_pass_every_check() {
    let (_, diags) = check("scene");
    assert!(diags.is_empty(), "tests/emit/fixtures/cull.comp: {diags:#?}");
    for name in ["mesh", "compute"] {
        let (_, diags) = check(name);
        assert!(diags.is_empty(), "{name}: {diags:#?}");
    }
}

/// `(line, code)` of every `// expect: CODE` in a kernel.
fn expectations(path: &Path) -> BTreeSet<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| l.split("// expect: ").nth(1).map(|c| (i + 1, c.trim().to_string())))
        .filter(|(_, c)| c.len() == 5 && c[1..].chars().all(|d| d.is_ascii_digit()))
        .collect()
}

#[test]
fn every_broken_kernel_warns_on_exactly_the_marked_lines() {
    let (p, diags) = check("kernels");
    let mut seen = BTreeSet::new();
    for k in &p.kernels {
        let path = fixture_dir().join(&k.source.node);
        if !path.exists() {
            continue;
        }
        let expected = expectations(&path);
        let found: BTreeSet<(usize, String)> = about(&p, &diags, &k.name.node)
            .into_iter()
            .filter(|d| d.code.starts_with("W050") && d.code <= "W0504")
            .map(|d| {
                assert_eq!(d.severity, Severity::Warning);
                assert_eq!(d.notes.len(), 1, "a help note: {d:?}");
                // The primary label is in the kernel's file, at the token; the description's
                // `source` is a secondary label.
                let (file, line) = shader_line(d).unwrap_or_else(|| panic!("{d:?} does not point into its kernel"));
                assert_eq!(Path::new(&file), path, "{d:?}");
                assert!(d.description_span() == Some(k.source.span), "{d:?}");
                (line, d.code.to_string())
            })
            .collect();
        assert_eq!(found, expected, "{}", k.source.node);
        seen.extend(found.into_iter().map(|(_, c)| c));
    }
    let all: BTreeSet<String> = ["W0501", "W0502", "W0503", "W0504"].iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, all, "every subgroup warning has a broken kernel");
}

/// The cooperative-matrix kernels of `tests/shader/coopmat.ron`: (kernel, code, line, target) of
/// every W0507, E0584 and W0012 they produce.
fn coopmat_findings() -> BTreeSet<(String, String, Option<usize>, Option<String>)> {
    let dir = Path::new(env!("DGCC_CHECKOUT")).join("tests/shader");
    let (p, m) = load::load(&dir.join("coopmat.ron"));
    let diags = dgcc::shader::check_kernels(&dir, &p, &m, &targets(&p, &dir));
    let mut out = BTreeSet::new();
    for d in diags.iter().filter(|d| ["W0507", "E0584", "W0012"].contains(&d.code)) {
        let kernel = p.kernels.iter().find(|k| {
            d.message.starts_with(&format!("{}:", k.source.node))
                || d.notes.iter().chain([&d.message]).any(|n| n.contains(&format!("`{}`", k.name.node)))
                || d.labels.iter().any(|l| l.message.contains(&format!("`{}`", k.name.node)))
        });
        let line = shader_line(d).map(|(_, l)| l).or_else(|| d.message.split(':').nth(1).and_then(|l| l.parse().ok()));
        out.insert((
            kernel.map(|k| k.name.node.clone()).unwrap_or_default(),
            d.code.to_string(),
            line,
            d.target.clone(),
        ));
    }
    out
}

#[test]
fn cooperative_matrices_are_checked_against_each_targets_shapes() {
    let found = coopmat_findings();
    let s = |k: &str, c: &str, line: Option<usize>, t: Option<&str>| {
        (k.to_string(), c.to_string(), line, t.map(str::to_string))
    };
    let expected: BTreeSet<_> = [
        // The pinned kernel's shape is the device file's and one of the H200's (nvidia states
        // the list `dgcc probe` read there); lavapipe has no cooperative matrices.
        s("tiled", "E0584", Some(11), Some("lavapipe")),
        s("tiled", "E0584", Some(12), Some("lavapipe")),
        s("tiled", "E0584", Some(13), Some("lavapipe")),
        // The unpinned kernel: W0507 once, and its 32×32 tile on no target.
        s("unpinned", "W0507", Some(11), None),
        s("unpinned", "E0584", Some(11), Some("coopmat-device")),
        s("unpinned", "E0584", Some(11), Some("lavapipe")),
        s("unpinned", "E0584", Some(11), Some("nvidia")),
    ]
    .into_iter()
    .collect();
    assert_eq!(found, expected);
}

/// A profile given with `--target` (or `Build::target`) instead of the description's targets
/// gets the same cooperative-matrix check: the kernels' decisions are keyed by its name, and
/// the check used to look the name up among the description's own targets only.
#[test]
fn a_target_given_on_the_command_line_gets_the_cooperative_matrix_check() {
    let dir = Path::new(env!("DGCC_CHECKOUT")).join("tests/shader");
    let path = dir.join("coopmat.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // The device file under a name the description does not mention, in another folder.
    let elsewhere = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shader-coopmat-target");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let device = elsewhere.join("bench-rig.json");
    std::fs::copy(dir.join("coopmat-device.json"), &device).unwrap();
    let targets = vec![device.display().to_string()];
    let options = dgcc::driver::Options { targets, check_kernels: true, ..Default::default() };
    let c = dgcc::driver::compile_source(&path, &text, &options);
    let found: BTreeSet<(&str, Option<&str>)> =
        c.diagnostics.iter().filter(|d| d.code == "E0584").map(|d| (d.code, d.target.as_deref())).collect();
    assert_eq!(found, BTreeSet::from([("E0584", Some("bench-rig"))]), "{:#?}", c.diagnostics);
}

#[test]
fn a_missing_kernel_source_is_an_error_at_its_source() {
    let (p, diags) = check("kernels");
    let missing = about(&p, &diags, "missing");
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert_eq!(missing[0].code, "E0580");
    assert!(missing[0].is_error());
}

#[test]
fn subgroup_warnings_count_subgroups_on_the_narrowest_target() {
    // lavapipe reports 8-wide subgroups: a 256-invocation workgroup has 32 of them.
    let (mut p, m) = fixture("kernels");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shader-narrow");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.comp"), "#version 460\nlayout(local_size_x = 256) in;\nshared uint partial[16];\nvoid main() { partial[gl_SubgroupID] = 1u; }\n").unwrap();
    p.kernels.retain(|k| k.name.node == "per_subgroup");
    p.kernels[0].node.source.node = "k.comp".into();
    let diags = dgcc::shader::check_kernels(&dir, &p, &m, &targets(&p, &dir));
    let w: Vec<&Diagnostic> = diags.iter().filter(|d| d.code == "W0502").collect();
    assert_eq!(w.len(), 1, "{diags:#?}");
    assert_eq!(w[0].target.as_deref(), Some("lavapipe"));
    assert!(w[0].message.contains("32 subgroups of 8"), "{}", w[0].message);
}

#[cfg(not(feature = "shaderc"))]
#[test]
fn without_shaderc_the_compiled_checks_are_named_as_skipped() {
    assert_eq!(dgcc::shader::SKIPPED_CHECKS.len(), 4);
    // The shaders are still read: a missing one is an error in every build.
    let dir = interface_dir();
    let (p, m) = load::load(&dir.join("files.ron"));
    let codes: Vec<&str> =
        dgcc::shader::interface::check_shaders(&dir, &p, &m, &targets(&p, &dir)).iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0587", "E0587"]);
    let (p, diags) = check("kernels");
    for k in ["wrong_size", "stale", "broken"] {
        assert!(about(&p, &diags, k).iter().all(|d| !d.is_error()), "{k} needs shaderc to be caught");
    }
}

fn interface_dir() -> PathBuf {
    Path::new(env!("DGCC_CHECKOUT")).join("tests/shader/interface")
}

#[cfg(feature = "shaderc")]
mod interface {
    use super::*;
    use dgcc::render::{human, json_line, SourceFile};

    /// `(file name, line, code)` of every expected diagnostic of a description of
    /// `tests/shader/interface/`: its `//~ CODE` markers and those of its shaders' `// expect: CODE`.
    fn shader_markers(description: &Path, p: &Pipeline) -> Vec<(String, usize, String)> {
        let dir = description.parent().unwrap();
        let mut files = vec![(description.to_path_buf(), "//~")];
        for s in &p.shaders {
            let path = dir.join(&s.source.node);
            if path.exists() && !s.is_spirv() && !files.iter().any(|(f, _)| *f == path) {
                files.push((path, "// expect:"));
            }
        }
        let mut out = vec![];
        for (path, marker) in files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            for (i, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
                if let Some((_, codes)) = line.split_once(marker) {
                    let is_code = |c: &&str| c.len() == 5 && c[1..].chars().all(|d| d.is_ascii_digit());
                    out.extend(codes.split_whitespace().filter(is_code).map(|c| (name.clone(), i + 1, c.to_string())));
                }
            }
        }
        out.sort();
        out
    }

    /// `(file name, line, code)` of each diagnostic's primary label: in the shader file it points
    /// into, or in the description.
    fn shader_findings(description: &Path, diags: &[Diagnostic]) -> Vec<(String, usize, String)> {
        let text = std::fs::read_to_string(description).unwrap();
        let mut out: Vec<(String, usize, String)> = diags
            .iter()
            .map(|d| {
                let l = d.primary_label().unwrap_or_else(|| panic!("{} has no primary label", d.code));
                let (name, text) = match &l.file {
                    Some(f) => {
                        (Path::new(&f.name).file_name().unwrap().to_string_lossy().into_owned(), f.text.as_str())
                    }
                    None => (description.file_name().unwrap().to_string_lossy().into_owned(), text.as_str()),
                };
                (name, dgcc::render::line_col(text, l.span.start).0, d.code.to_string())
            })
            .collect();
        out.sort();
        out
    }

    fn check(description: &Path) -> (Pipeline, Vec<Diagnostic>) {
        let (p, m) = load::load(description);
        let dir = description.parent().unwrap();
        let diags = dgcc::shader::interface::check_shaders(dir, &p, &m, &targets(&p, dir));
        (p, diags)
    }

    #[test]
    fn every_description_reports_exactly_its_markers() {
        let mut seen = BTreeSet::new();
        for name in ["push.ron", "bindings.ron", "files.ron", "specialized.ron", "instance.ron", "draw_id.ron"] {
            let path = interface_dir().join(name);
            let (p, diags) = check(&path);
            assert_eq!(
                shader_findings(&path, &diags),
                shader_markers(&path, &p),
                "{name}: found (left) and marked (right)"
            );
            seen.extend(diags.iter().map(|d| d.code));
        }
        let all: BTreeSet<&str> =
            ["E0585", "E0586", "E0587", "E0588", "W0508", "W0509", "W0511", "W0512", "N0501", "N0502"].into();
        assert_eq!(seen, all, "every rule of the shader files has a case");
    }

    #[test]
    fn gl_instance_index_is_said_only_where_a_target_is_nvidia() {
        let dir = interface_dir();
        let (p, m) = load::load(&dir.join("instance.ron"));
        let lavapipe = [dgcc::device::resolve("lavapipe", &dir).unwrap()];
        let diags = dgcc::shader::interface::check_shaders(&dir, &p, &m, &lavapipe);
        assert!(diags.is_empty(), "{diags:#?}");
        let both = dgcc::shader::interface::check_shaders(&dir, &p, &m, &targets(&p, &dir));
        let named: Vec<&str> =
            both.iter().flat_map(|d| d.labels.iter().filter(|l| !l.primary)).map(|l| l.message.as_str()).collect();
        assert_eq!(
            named,
            [
                "one draw per sequence, executed on nvidia",
                "one draw per sequence, executed on nvidia",
                "a count token's draws, executed on nvidia"
            ],
            "{both:#?}"
        );
        // gl_DrawID alone: only the count token's layout, where the draws' index is the draw's.
        let (p, m) = load::load(&dir.join("draw_id.ron"));
        assert!(dgcc::shader::interface::check_shaders(&dir, &p, &m, &lavapipe).is_empty());
        let said = dgcc::shader::interface::check_shaders(&dir, &p, &m, &targets(&p, &dir));
        let codes: Vec<(&str, bool)> = said.iter().map(|d| (d.code, d.message.contains("`Counted`'s"))).collect();
        assert_eq!(codes, [("N0502", true)], "{said:#?}");
    }

    #[test]
    fn rendered_shader_diagnostics_point_into_the_shader_files() {
        insta::with_settings!({ snapshot_path => "shader/snapshots", prepend_module_to_snapshot => false }, {
            insta::glob!("shader/interface", "*.ron", |path| {
                let (_, diags) = check(path);
                let text = std::fs::read_to_string(path).unwrap();
                let root = format!("{}/", env!("DGCC_CHECKOUT"));
                let name = path.strip_prefix(&root).unwrap().display().to_string();
                let file = SourceFile { name: &name, text: &text };
                let mut shown = human(&file, &diags);
                for d in &diags {
                    shown.push_str(&json_line(&file, d));
                    shown.push('\n');
                }
                insta::assert_snapshot!(shown.replace(&root, ""));
            });
        });
    }

    #[test]
    fn a_spirv_file_is_read_as_it_is_and_its_diagnostics_point_at_its_source() {
        let glsl = std::fs::read_to_string(interface_dir().join("push_misplaced.vert")).unwrap();
        let compiler = shaderc::Compiler::new().unwrap();
        let mut options = shaderc::CompileOptions::new().unwrap();
        options.set_target_env(shaderc::TargetEnv::Vulkan, shaderc::EnvVersion::Vulkan1_2 as u32);
        let spv = compiler
            .compile_into_spirv(&glsl, shaderc::ShaderKind::Vertex, "push_misplaced.vert", "main", Some(&options))
            .unwrap();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shader-spirv");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("misplaced.spv"), spv.as_binary_u8()).unwrap();
        let push = std::fs::read_to_string(interface_dir().join("push.ron")).unwrap();
        let (layouts, _) = push.split_once("    shaders: [").unwrap();
        let description = format!(
            "{layouts}    shaders: [\n        (stage: Vertex, source: \"misplaced.spv\"),\n        (stage: Fragment, source: \"misplaced.spv\"),\n    ],\n)\n"
        );
        std::fs::write(dir.join("push.ron"), &description).unwrap();
        let (_, diags) = check(&dir.join("push.ron"));
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        // The same findings as from the GLSL, and a module that has no fragment entry point.
        assert_eq!(codes, ["E0585", "E0585", "E0585", "W0508", "E0588"]);
        for d in &diags {
            let l = d.primary_label().unwrap();
            assert!(l.file.is_none(), "{}: a SPIR-V file has no text to point into", d.code);
            assert_eq!(&description[l.span.range()], "\"misplaced.spv\"");
        }
    }

    /// The scene's shaders use specialization constants in expressions (`materials.glsl`), which
    /// naga reads only once they are frozen to their defaults.
    #[test]
    fn the_example_shaders_match_their_layouts() {
        for name in ["draw_shaders.ron", "scene.ron"] {
            let path = Path::new(env!("DGCC_CHECKOUT")).join("examples").join(name);
            let (p, diags) = check(&path);
            assert_eq!(p.shaders.len(), 2, "{name}");
            // scene.ron's SceneBatch writes no push constant, and the batch's pipelines are
            // specialized not to read one, which the check cannot see: the layout allows W0508
            // for itself (its `lints`), and `dgcc check` reports nothing (example_warnings).
            // Likewise scene.vert reads gl_InstanceIndex only under the specialization of
            // `--object-id instance`: SceneDraw and SceneDrawShaders allow W0512. And SceneBatch's
            // draws read gl_DrawID by default (`--object-id vertex` reads none): it allows N0502.
            let allowed_in_scene = |d: &&Diagnostic| {
                name == "scene.ron"
                    && ((d.code == "W0508" && d.message.contains("`SceneBatch`"))
                        || (d.code == "N0502" && d.message.contains("`SceneBatch`'s"))
                        || (d.code == "W0512"
                            && (d.message.contains("`SceneDraw`'s") || d.message.contains("`SceneDrawShaders`'s"))))
            };
            let (allowed, rest): (Vec<&Diagnostic>, Vec<&Diagnostic>) = diags.iter().partition(allowed_in_scene);
            assert!(rest.is_empty(), "{name}: {rest:#?}");
            assert_eq!(allowed.len(), if name == "scene.ron" { 4 } else { 0 }, "{name}: {allowed:#?}");
        }
    }
}

#[cfg(feature = "shaderc")]
mod compiled {
    use super::*;
    use dgcc::emit::names;

    #[test]
    fn nothing_is_skipped() {
        assert!(dgcc::shader::SKIPPED_CHECKS.is_empty());
    }

    #[test]
    fn a_wrong_workgroup_size_a_stale_record_and_a_compile_error_are_errors() {
        let (p, diags) = check("kernels");
        let codes = |k: &str| -> Vec<&str> { about(&p, &diags, k).iter().map(|d| d.code).collect() };
        assert_eq!(codes("wrong_size"), ["E0582"]);
        assert_eq!(codes("stale"), ["E0583"]);
        assert_eq!(codes("broken"), ["E0581"]);
        let stale = about(&p, &diags, "stale")[0];
        assert!(stale.notes.iter().any(|n| n.contains("no member `scale`")), "{stale:#?}");
        assert!(
            stale.notes.iter().any(|n| n.contains("`draw_index_count` is at byte 4 in the kernel, at byte 28")),
            "{stale:#?}"
        );
        let broken = about(&p, &diags, "broken")[0];
        assert!(broken.notes.iter().any(|n| n.contains("syntax_error.comp:7")), "{broken:#?}");
        assert!(!diags.iter().any(|d| d.code == "W0506"), "naga reads every kernel: {diags:#?}");
    }

    /// Compile `src` (which includes the generated `include_name`) and reflect it with naga.
    fn reflect(src: &str, include_name: &str, include: &str) -> naga::Module {
        let compiler = shaderc::Compiler::new().unwrap();
        let mut options = shaderc::CompileOptions::new().unwrap();
        options.set_target_env(shaderc::TargetEnv::Vulkan, shaderc::EnvVersion::Vulkan1_2 as u32);
        options.set_target_spirv(shaderc::SpirvVersion::V1_3);
        let (name, text) = (include_name.to_string(), include.to_string());
        options.set_include_callback(move |requested, _, _, _| {
            assert_eq!(requested, name);
            Ok(shaderc::ResolvedInclude { resolved_name: name.clone(), content: text.clone() })
        });
        let spv = compiler
            .compile_into_spirv(src, shaderc::ShaderKind::Compute, "probe.comp", "main", Some(&options))
            .unwrap_or_else(|e| panic!("{e}\n{src}"));
        naga::front::spv::parse_u8_slice(spv.as_binary_u8(), &Default::default()).unwrap()
    }

    #[test]
    fn naga_reflects_the_manifest_offsets_and_stride_from_every_generated_include() {
        for name in ["scene", "mesh", "pinned", "compute", "raytrace"] {
            let (_, m) = fixture(name);
            let include_name = dgcc::emit::Output::Glsl.file_name(&m.pipeline);
            let include = dgcc::emit::glsl::emit(&m).unwrap();
            for l in &m.layouts {
                let u = names::screaming(&l.name);
                let s = names::snake(&l.name);
                let first = &l.record[0];
                let dims = if first.array > 0 { format!("[{}]", first.array) } else { String::new() };
                let src = format!(
                    "#version 460\n#extension GL_GOOGLE_include_directive : require\nlayout(local_size_x = 1) in;\n#define {u}_WRITER\n#include \"{include_name}\"\nvoid main() {{ {} v{dims}; {s}_stream.records[gl_GlobalInvocationID.x].{} = v; }}\n",
                    first.glsl_type,
                    names::member(&first.name)
                );
                let module = reflect(&src, &include_name, &include);
                let record = format!("{}Record", names::camel(&l.name));
                let (handle, members) = module
                    .types
                    .iter()
                    .find_map(|(h, t)| match &t.inner {
                        naga::TypeInner::Struct { members, .. } if t.name.as_deref() == Some(record.as_str()) => {
                            Some((h, members.clone()))
                        }
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("{name}: naga finds no {record}"));
                let offsets: Vec<u32> = members.iter().map(|m| m.offset).collect();
                let expected: Vec<u32> = l.record.iter().map(|r| r.offset).collect();
                assert_eq!(offsets, expected, "{name}/{}: member offsets", l.name);
                for (got, want) in members.iter().zip(&l.record) {
                    if want.array > 0 {
                        match module.types[got.ty].inner {
                            naga::TypeInner::Array { stride, .. } => {
                                assert_eq!(stride, want.array_stride, "{}", want.name)
                            }
                            ref other => panic!("{}: {other:?} is not an array", want.name),
                        }
                    }
                }
                let runtime = module.types.iter().find_map(|(_, t)| match t.inner {
                    naga::TypeInner::Array { base, size: naga::ArraySize::Dynamic, stride } if base == handle => {
                        Some(stride)
                    }
                    _ => None,
                });
                assert_eq!(runtime, Some(l.stride), "{name}/{}: stride of {record}[]", l.name);
            }
        }
    }
}
