//! Compile the layouts into OUT_DIR. A description that `dgcc check` rejects fails this build
//! with the same diagnostics; Cargo reruns this script when the description changes.

fn main() -> Result<(), dgcc_compiler::build::Failure> {
    dgcc_compiler::build::Build::new()
        .file("layouts/sprites.ron")
        .emit(&[dgcc_compiler::emit::Output::Rust, dgcc_compiler::emit::Output::Glsl, dgcc_compiler::emit::Output::Json])
        .deny_warnings(true)
        .compile()?;
    Ok(())
}
