//! Compile the layouts into OUT_DIR. A description that `dgcc check` rejects fails this build
//! with the same diagnostics; Cargo reruns this script when the description changes.

fn main() -> Result<(), dgcc::build::Failure> {
    dgcc::build::Build::new()
        .file("layouts/sprites.ron")
        .emit(&[dgcc::emit::Output::Rust, dgcc::emit::Output::Glsl, dgcc::emit::Output::Json])
        .deny_warnings(true)
        .compile()?;
    Ok(())
}
