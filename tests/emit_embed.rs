//! The example crate in `examples/embed/` (a build script that calls `dgcc_compiler::build`, a
//! library that includes the generated Rust and names `dgcc` with its default features) builds
//! offline and its binary prints what the description says; its dependencies are an engine's
//! (none of the CLI's or the compiler's in the crate, no Vulkan in the build script); a copy
//! with a broken description fails to build with dgcc's diagnostics. The nested builds use a
//! target dir inside this test's target dir.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.env("CARGO_TARGET_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("embed-target"));
    c
}

fn root() -> PathBuf {
    PathBuf::from(env!("DGCC_CHECKOUT"))
}

#[test]
fn the_embed_example_builds_offline_and_its_layout_is_the_description() {
    let manifest = root().join("examples/embed/Cargo.toml");
    let out = cargo().args(["run", "--offline", "--quiet", "--manifest-path"]).arg(&manifest).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}\n{}", stdout, String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        stdout,
        "stride 48 tokens 2\ntoken 1 at 0\ntoken 6 at 32\nstream 96 bytes\nsecond vertex_count 6\nglsl true\n"
    );

    // The same crate with a description dgcc rejects: the build fails with the diagnostic.
    let copy = Path::new(env!("CARGO_TARGET_TMPDIR")).join("embed-broken");
    let _ = std::fs::remove_dir_all(&copy);
    for sub in ["src", "layouts"] {
        std::fs::create_dir_all(copy.join(sub)).unwrap();
    }
    for file in ["build.rs", "Cargo.lock", "src/lib.rs", "src/main.rs"] {
        std::fs::copy(root().join("examples/embed").join(file), copy.join(file)).unwrap();
    }
    let toml = std::fs::read_to_string(root().join("examples/embed/Cargo.toml"))
        .unwrap()
        .replace("path = \"../..", &format!("path = \"{}", root().display()));
    std::fs::write(copy.join("Cargo.toml"), toml).unwrap();
    let desc = std::fs::read_to_string(root().join("examples/embed/layouts/sprites.ron"))
        .unwrap()
        .replace("Draw(name: \"draw\"),", "Draw(name: \"draw\", at: Some(22)),");
    std::fs::write(copy.join("layouts/sprites.ron"), desc).unwrap();
    let out = cargo()
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(copy.join("Cargo.toml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a rejected description must fail the build");
    assert!(stderr.contains("error[E0132]"), "{stderr}");
}

/// The embed example's dependency tree over normal and build edges, as (depth, crate) pairs.
fn tree() -> Vec<(usize, String)> {
    let manifest = root().join("examples/embed/Cargo.toml");
    let out = cargo()
        .args(["tree", "--offline", "--prefix", "depth", "--format", "{p}", "-e", "normal,build", "--manifest-path"])
        .arg(&manifest)
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .filter_map(|l| {
            let digits = l.chars().take_while(char::is_ascii_digit).count();
            let name = l[digits..].split_whitespace().next()?;
            Some((l[..digits].parse().ok()?, name.to_owned()))
        })
        .collect()
}

/// The crates below the direct dependency `direct` (itself included).
fn below(tree: &[(usize, String)], direct: &str) -> Vec<String> {
    let start =
        tree.iter().position(|(d, n)| *d == 1 && n == direct).unwrap_or_else(|| panic!("no `{direct}` in {tree:?}"));
    let end = tree[start + 1..].iter().position(|(d, _)| *d <= 1).map_or(tree.len(), |i| start + 1 + i);
    tree[start..end].iter().map(|(_, n)| n.clone()).collect()
}

#[test]
fn an_engine_gets_the_runtime_and_its_build_script_the_compiler_without_vulkan() {
    let tree = tree();
    // The crate's own dependency is `dgcc` with its default features; the build script's is `dgcc-compiler`.
    let direct: Vec<&str> = tree.iter().filter(|(d, _)| *d == 1).map(|(_, n)| n.as_str()).collect();
    assert_eq!(direct, ["dgcc", "dgcc-compiler"], "{tree:?}");
    let normal = below(&tree, "dgcc");
    assert!(normal.iter().any(|c| c == "dgcc-runtime") && normal.iter().any(|c| c == "ash"), "{normal:?}");
    for tool in [
        "clap",
        "plotters",
        "png",
        "indicatif",
        "pest",
        "ron",
        "codespan-reporting",
        "shaderc",
        "dgcc-compiler",
        "dgcc-cli",
    ] {
        assert!(!normal.iter().any(|c| c == tool), "the engine's normal dependencies hold `{tool}`: {normal:?}");
    }
    let build = below(&tree, "dgcc-compiler");
    assert!(build.iter().any(|c| c == "pest"), "{build:?}");
    for vulkan in ["ash", "dgcc-runtime"] {
        assert!(!build.iter().any(|c| c == vulkan), "the build script's compiler holds `{vulkan}`: {build:?}");
    }
}

/// An engine with its own ash: the generated Rust names `::ash` (`--rust-ash-path ::ash`) and
/// derives bytemuck's `Pod` (`--rust-bytemuck`), and a crate that depends on ash 0.38 and
/// bytemuck itself, with `dgcc` for the extension's types only, builds it offline and its
/// records cast with bytemuck to the bytes the stream holds.
#[test]
fn an_engine_with_its_own_ash_and_bytemuck_builds_the_generated_rust() {
    use dgcc::emit::rust::{emit_with, Options};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine-own-ash");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let options = Options { ash_path: "::ash".into(), bytemuck: true };
    let pipelines = ["scene", "mesh", "pinned", "compute", "raytrace", "overlap"];
    for name in pipelines {
        let json = std::fs::read_to_string(root().join(format!("tests/emit/generated/{name}.dgc.json"))).unwrap();
        let m: dgcc::ir::Manifest = serde_json::from_str(&json).unwrap();
        let text = emit_with(&m, &options).unwrap();
        assert!(!text.contains("::dgcc::ash"), "{name}: the engine's own ash only");
        assert!(text.contains("use ::ash::vk;") && text.contains("::bytemuck::Pod"), "{name}");
        std::fs::write(dir.join(format!("src/{name}.rs")), text).unwrap();
    }
    // A record holding arrays of lengths bytemuck has no `Pod` for without `min_const_generics`:
    // a 33-word field and 44 words of padding before a pinned draw.
    let odd = r#"Pipeline(name: "odd", targets: ["lavapipe"], push_constants: [(stages: [Vertex], offset: 0, size: 132)],
        layouts: [(name: "Odd", stages: [Vertex], max_sequences: 8, align: Some(4),
        tokens: [PushConstant(name: "words", stages: [Vertex], offset: 0, fields: [(name: "w", ty: Array(U32, 33))]),
                 Draw(name: "draw", at: Some(308))])])"#;
    let c = dgcc::driver::compile_source(Path::new("odd.ron"), odd, &Default::default());
    let m = c.manifest.unwrap_or_else(|| panic!("{:?}", c.diagnostics));
    std::fs::write(dir.join("src/odd.rs"), emit_with(&m, &options).unwrap()).unwrap();
    let pipelines = [&pipelines[..], &["odd"]].concat();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"engine-own-ash\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\ndgcc = {{ path = {:?} }}\nash = \"0.38\"\nbytemuck = \"1\"\n\n\
             [workspace]\n",
            root().display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(root().join("examples/embed/Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "#![deny(warnings)]\n".to_string()
            + &pipelines.iter().map(|p| format!("include!(\"{p}.rs\");\n")).collect::<String>()
            + r#"use ash::vk;

fn main() {
    let mut r = scene::SceneDrawRecord { indices_address: 0x1122_3344_AABB_CCDD, ..bytemuck::Zeroable::zeroed() };
    r.set_draw_command(vk::DrawIndexedIndirectCommand { index_count: 3, instance_count: 1, ..Default::default() });
    let bytes: &[u8] = bytemuck::bytes_of(&r);
    assert_eq!(bytes, r.as_bytes());
    let stages: vk::ShaderStageFlags = scene::layouts::scene_draw::SHADER_STAGES;
    let tokens = scene::layouts::scene_draw::tokens();
    let info = scene::layouts::scene_draw::create_info(vk::PipelineLayout::null(), &tokens);
    let mut c = mesh::MeshDrawCountRecord::default();
    c.set_tasks_address(7);
    let records = [c, c];
    let odd = odd::OddRecord { w: [7; 33], ..bytemuck::Zeroable::zeroed() };
    assert_eq!(bytemuck::bytes_of(&odd).len(), 324);
    println!(
        "{} {} {:?} {} {} {}",
        bytes.len(),
        bytes[8],
        stages,
        info.indirect_stride,
        bytemuck::cast_slice::<_, u8>(&records).len(),
        c.tasks_address()
    );
}
"#,
    )
    .unwrap();
    let out =
        cargo().args(["run", "--offline", "--quiet", "--manifest-path"]).arg(dir.join("Cargo.toml")).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout, "48 221 VERTEX | FRAGMENT 48 40 7\n");
}
