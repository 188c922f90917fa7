//! Tells the test suite (the top-level `tests/` folder, this crate's tests) where the checkout
//! is: its fixtures, examples and scripts are found from there, as `DGCC_CHECKOUT`.

fn main() {
    let manifest = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let checkout = manifest.join("../..").canonicalize().expect("crates/cli sits two folders below the checkout");
    println!("cargo:rustc-env=DGCC_CHECKOUT={}", checkout.display());
    println!("cargo:rerun-if-changed=build.rs");
}
