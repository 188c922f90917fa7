//! Property: every output `dgcc compile` would write for a random valid description compiles
//! without error or redefinition warning under rustc, gcc -std=c11, g++ -std=c++17, glslang
//! (issue 16) and the Slang compiler, reading the HLSL and the Slang includes (issue 17).
//!
//! The descriptions are built from names in case and separator variants (`vb`, `VB`, `b_c`,
//! `bC`, `_x`…) and push-constant fields that share names, so that most of them meet the naming
//! authority's rules: those the check refuses are counted, never compiled, and those it accepts
//! must compile. Every case's names start with `p<i>q`, so that the outputs of many cases can
//! share one translation unit, one crate and one shader: a compiler runs once per batch, which
//! keeps a thousand cases to seconds.

#[path = "emit/tools.rs"]
mod tools;

use dgcc::emit::{self, Output};
use proptest::prelude::*;
use proptest::strategy::ValueTree as _;
use proptest::test_runner::{Config, TestRunner};
use std::path::{Path, PathBuf};
use std::process::Command;

const PARTS: &[&str] = &["a", "A", "b_c", "bC", "B_C", "vb", "VB", "x", "v", "draw", "Draw_", "t2", "T2"];
const FIELDS: &[&str] = &["v", "w", "draw_index_count", "_pad0", "a_v", "V", "v2"];

fn name(prefix: &str, parts: &[usize]) -> String {
    let mut s = prefix.to_string();
    for &p in parts {
        s.push_str(PARTS[p % PARTS.len()]);
    }
    s
}

/// A token: its kind (push constant, vertex buffer, sequence index), name parts and fields.
type TokenCase = (u8, Vec<usize>, Vec<usize>);

#[derive(Clone, Debug)]
struct Case {
    /// Per layout: name parts, tokens, and whether it draws indexed.
    layouts: Vec<(Vec<usize>, Vec<TokenCase>, bool)>,
    kernels: Vec<Vec<usize>>,
}

fn case() -> impl Strategy<Value = Case> {
    let token =
        (0u8..3, prop::collection::vec(0usize..PARTS.len(), 1..3), prop::collection::vec(0usize..FIELDS.len(), 1..3));
    let layout = (prop::collection::vec(0usize..PARTS.len(), 1..3), prop::collection::vec(token, 0..4), any::<bool>());
    (prop::collection::vec(layout, 1..4), prop::collection::vec(prop::collection::vec(0usize..PARTS.len(), 1..3), 0..3))
        .prop_map(|(layouts, kernels)| Case { layouts, kernels })
}

/// The RON text of case `i`.
fn ron(i: usize, c: &Case) -> String {
    let p = format!("p{i}q");
    let mut s = format!("Pipeline(name: \"{p}\", targets: [\"lavapipe\"], push_constants: [(stages: [Vertex], offset: 0, size: 128)], layouts: [\n");
    for (ln, tokens, indexed) in &c.layouts {
        let mut t = vec![];
        let mut push_at = 0;
        let mut binding = 0;
        for (kind, tn, fields) in tokens {
            let tname = name("", tn);
            match kind {
                0 if push_at < 96 => {
                    let fs: Vec<String> =
                        fields.iter().map(|&f| format!("(name: \"{}\", ty: U32)", FIELDS[f])).collect();
                    t.push(format!(
                        "PushConstant(name: \"{tname}\", stages: [Vertex], offset: {push_at}, fields: [{}])",
                        fs.join(", ")
                    ));
                    push_at += 4 * fields.len() as u32;
                }
                1 => {
                    t.push(format!("VertexBuffer(name: \"{tname}\", binding: {binding})"));
                    binding += 1;
                }
                _ => t.push(format!("SequenceIndex(name: \"{tname}\", stages: [Vertex], offset: 124)")),
            }
        }
        if *indexed {
            t.push("IndexBuffer(name: \"ib\", mode: Vulkan)".into());
            t.push("DrawIndexed(name: \"draw\")".into());
        } else {
            t.push("Draw(name: \"draw\")".into());
        }
        s.push_str(&format!(
            "    (name: \"{}\", stages: [Vertex], max_sequences: 64, align: Some(4), tokens: [{}]),\n",
            name(&p, ln),
            t.join(", ")
        ));
    }
    s.push_str("], kernels: [\n");
    for k in &c.kernels {
        s.push_str(&format!("    (name: \"{}\", source: \"k.comp\", local_size: (64, 1, 1)),\n", name(&p, k)));
    }
    s.push_str("])\n");
    s
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let all = format!("{stdout}{stderr}");
    let redefined = all
        .lines()
        .find(|l| l.contains("redefin") || l.contains("defined multiple times") || l.contains("previous definition"));
    assert!(out.status.success() && redefined.is_none(), "{what} failed:\n{}", &all[..all.len().min(6000)]);
}

/// The `libdgcc-*.rlib` beside this test binary that generated Rust can use, for rustc's
/// `--extern dgcc=`: the deps folder holds one per feature set the workspace built `dgcc` with
/// (the compiler crates' builds leave out `runtime`), so the newest is not necessarily one with
/// `dgcc::runtime` and `dgcc::ash`. Each, newest first, is asked to compile the imports the
/// Rust output starts with; this binary itself links one that has them, so there always is one.
fn dgcc_rlib(dir: &Path) -> (PathBuf, PathBuf) {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let mut rlibs: Vec<_> = std::fs::read_dir(&deps)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with("libdgcc-") && n.ends_with(".rlib")
        })
        .map(|e| (e.metadata().and_then(|m| m.modified()).ok(), e.path()))
        .collect();
    rlibs.sort_by_key(|r| std::cmp::Reverse(r.0));
    let probe = dir.join("probe.rs");
    std::fs::write(&probe, "#[allow(unused_imports)]\nuse ::dgcc::{ash::vk, runtime::ext_dgc};\n").unwrap();
    for (_, rlib) in &rlibs {
        if rustc_metadata(&deps, rlib, dir, &probe, "probe").output().is_ok_and(|o| o.status.success()) {
            return (deps, rlib.clone());
        }
    }
    panic!("no libdgcc rlib in {} has dgcc::runtime and dgcc::ash (tried {})", deps.display(), rlibs.len());
}

/// rustc checking `file` as a library crate `name` against the dgcc rlib `rlib`.
fn rustc_metadata(deps: &Path, rlib: &Path, out_dir: &Path, file: &Path, name: &str) -> Command {
    let mut cmd = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()));
    cmd.args(["--edition", "2021", "--crate-type", "lib", "--emit=metadata", "--crate-name", name])
        .arg("-L")
        .arg(format!("dependency={}", deps.display()))
        .arg("--extern")
        .arg(format!("dgcc={}", rlib.display()))
        .arg("--out-dir")
        .arg(out_dir)
        .arg(file);
    cmd
}

#[test]
fn random_valid_descriptions_compile_under_rustc_gcc_gxx_and_glslang() {
    let cases: usize = std::env::var("DGCC_EMIT_PROP_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let mut runner = TestRunner::new(Config { cases: cases as u32, ..Config::default() });
    let mut generated = vec![];
    let strategy = case();
    for _ in 0..cases {
        generated.push(strategy.new_tree(&mut runner).unwrap().current());
    }
    let dir = std::env::temp_dir().join(format!("dgcc-emit-props-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut accepted = vec![];
    let mut refused = 0;
    for (i, c) in generated.iter().enumerate() {
        let text = ron(i, c);
        let comp = dgcc::driver::compile_source(Path::new("case.ron"), &text, &Default::default());
        let Some(m) = comp.manifest else {
            assert!(comp.has_errors(), "case {i}: no manifest and no error:\n{text}");
            refused += 1;
            continue;
        };
        let files = emit::emit_all(&m, &Output::ALL)
            .unwrap_or_else(|e| panic!("case {i}: check passed, emit failed: {e}\n{text}"));
        for (f, body) in &files {
            std::fs::write(dir.join(f), body).unwrap();
        }
        accepted.push((i, m));
    }
    eprintln!("{} cases: {} accepted, {refused} refused by the check", cases, accepted.len());
    assert!(accepted.len() * 4 >= cases, "too few valid cases ({}) to mean anything", accepted.len());
    let batches: Vec<&[(usize, dgcc::ir::Manifest)]> = accepted.chunks(125).collect();

    // C11 and C++17: one translation unit per batch, every header of it included.
    if tool("gcc") && tool("g++") {
        for (b, batch) in batches.iter().enumerate() {
            let mut src = String::new();
            for (_, m) in batch.iter() {
                src.push_str(&format!("#include \"{}\"\n", Output::C.file_name(&m.pipeline)));
            }
            src.push_str("int main(void) { return 0; }\n");
            for (cc, std, ext) in [("gcc", "-std=c11", "c"), ("g++", "-std=c++17", "cpp")] {
                let f = dir.join(format!("batch{b}.{ext}"));
                std::fs::write(&f, &src).unwrap();
                run(
                    Command::new(cc)
                        .args([std, "-fsyntax-only", "-Wall", "-Wextra", "-pedantic", "-Wno-unused"])
                        .arg("-I")
                        .arg(&dir)
                        .arg(&f),
                    &format!("{cc} {std} batch {b}"),
                );
            }
            // The C++17 headers of the batch, over their C headers, in one translation unit.
            let mut cpp = String::new();
            for (_, m) in batch.iter() {
                cpp.push_str(&format!("#include \"{}\"\n", Output::Cpp.file_name(&m.pipeline)));
            }
            cpp.push_str("int main() { return 0; }\n");
            let f = dir.join(format!("batch{b}-hpp.cpp"));
            std::fs::write(&f, &cpp).unwrap();
            run(
                Command::new("g++")
                    .args(["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-pedantic", "-Wno-unused"])
                    .arg("-I")
                    .arg(&dir)
                    .arg(&f),
                &format!("g++ -std=c++17 hpp batch {b}"),
            );
        }
    } else {
        eprintln!("note: gcc or g++ missing; the C header part was skipped");
    }

    // GLSL: one compute shader per batch with every layout's writers.
    if tool("glslangValidator") {
        for (b, batch) in batches.iter().enumerate() {
            let mut src = String::from("#version 460\n#extension GL_GOOGLE_include_directive : require\n");
            for (_, m) in batch.iter() {
                for l in &m.layouts {
                    src.push_str(&format!("#define {}_WRITER\n", dgcc::names::screaming(&l.name)));
                }
                src.push_str(&format!("#include \"{}\"\n", Output::Glsl.file_name(&m.pipeline)));
            }
            src.push_str("layout(local_size_x = 64) in;\nvoid main() {}\n");
            let f = dir.join(format!("batch{b}.comp"));
            std::fs::write(&f, &src).unwrap();
            let spv = dir.join(format!("batch{b}.spv"));
            run(
                Command::new("glslangValidator").args(["--target-env", "vulkan1.2", "-V"]).arg(&f).arg("-o").arg(&spv),
                &format!("glslang batch {b}"),
            );
        }
        // The readers, in vertex shaders: one layout with push data per shader (a shader has
        // one push-constant block), for the first cases that have one.
        let mut readers = 0;
        for (i, m) in accepted.iter().take(200) {
            let Some(l) = m.layouts.iter().find(|l| (0..l.tokens.len()).any(|t| dgcc::names::plan::reads_push(l, t)))
            else {
                continue;
            };
            let u = dgcc::names::screaming(&l.name);
            let src = format!(
                "#version 460\n#extension GL_GOOGLE_include_directive : require\n#define {u}_READER\n#include \"{}\"\nvoid main() {{ gl_Position = vec4(0.0); }}\n",
                Output::Glsl.file_name(&m.pipeline)
            );
            let f = dir.join(format!("reader{i}.vert"));
            std::fs::write(&f, &src).unwrap();
            run(
                Command::new("glslangValidator")
                    .args(["--target-env", "vulkan1.2", "-V"])
                    .arg(&f)
                    .arg("-o")
                    .arg(dir.join(format!("reader{i}.spv"))),
                &format!("glslang reader of case {i}"),
            );
            readers += 1;
            if readers == 20 {
                break;
            }
        }
    } else {
        eprintln!("note: glslangValidator missing; the GLSL part was skipped");
    }

    // HLSL and Slang: one compute shader per batch and language with every layout's writers,
    // then the readers of the first cases that have them, one layout per shader.
    if tools::slang("emit_props").is_some() {
        for (lang, output) in [("hlsl", Output::Hlsl), ("slang", Output::Slang)] {
            let mut shaders = vec![];
            for (b, batch) in batches.iter().enumerate() {
                let mut src = String::new();
                for (_, m) in batch.iter() {
                    for l in &m.layouts {
                        src.push_str(&format!("#define {}_WRITER\n", dgcc::names::screaming(&l.name)));
                    }
                    src.push_str(&format!("#include \"{}\"\n", output.file_name(&m.pipeline)));
                }
                shaders.push((format!("batch{b}"), src));
            }
            for (i, m) in accepted.iter().take(200) {
                let Some(l) =
                    m.layouts.iter().find(|l| (0..l.tokens.len()).any(|t| dgcc::names::plan::reads_push(l, t)))
                else {
                    continue;
                };
                let u = dgcc::names::screaming(&l.name);
                shaders.push((
                    format!("reader{i}"),
                    format!("#define {u}_READER\n#include \"{}\"\n", output.file_name(&m.pipeline)),
                ));
                if shaders.len() == batches.len() + 20 {
                    break;
                }
            }
            for (name, src) in shaders {
                let f = dir.join(format!("{name}.{lang}"));
                std::fs::write(&f, format!("{src}[shader(\"compute\")]\n[numthreads(64, 1, 1)]\nvoid main() {{}}\n"))
                    .unwrap();
                run(
                    tools::slang("emit_props")
                        .unwrap()
                        .arg("compile")
                        .arg(&f)
                        .args(["-lang", lang, "-target", "spirv", "-entry", "main", "-stage", "compute", "-I"])
                        .arg(&dir)
                        .arg("-o")
                        .arg(dir.join(format!("{name}.{lang}.spv"))),
                    &format!("slangc {lang} {name}"),
                );
            }
        }
    }

    // Rust: one crate with every case's module.
    let (deps, rlib) = dgcc_rlib(&dir);
    let mut lib = String::new();
    for (i, m) in &accepted {
        lib.push_str(&format!("mod c{i} {{ include!(\"{}\"); }}\n", Output::Rust.file_name(&m.pipeline)));
    }
    let f = dir.join("lib.rs");
    std::fs::write(&f, lib).unwrap();
    run(&mut rustc_metadata(&deps, &rlib, &dir, &f, "props"), "rustc");
    let _ = std::fs::remove_dir_all(&dir);
}
