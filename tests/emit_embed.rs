//! The example crate in `examples/embed/` (a build script that calls `dgcc::build`, a library
//! that includes the generated Rust, with dgcc's `runtime` feature only) builds offline and its
//! binary prints what the description says; a copy with a broken description fails to build
//! with dgcc's diagnostics. The nested builds use a target dir inside this test's target dir.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.env("CARGO_TARGET_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("embed-target"));
    c
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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
        .replace("path = \"../..\"", &format!("path = {:?}", root().display().to_string()));
    std::fs::write(copy.join("Cargo.toml"), toml).unwrap();
    let desc = std::fs::read_to_string(root().join("examples/embed/layouts/sprites.ron"))
        .unwrap()
        .replace("Draw(name: \"draw\"),", "Draw(name: \"draw\", at: Some(20)),");
    std::fs::write(copy.join("layouts/sprites.ron"), desc).unwrap();
    let out = cargo()
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(copy.join("Cargo.toml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a rejected description must fail the build");
    assert!(stderr.contains("error[E0401]"), "{stderr}");
}
