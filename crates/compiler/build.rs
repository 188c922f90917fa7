//! Build script: link lines for the `shaderc` feature, nothing else.
//!
//! Why: Debian's `libshaderc.so` (and its `libshaderc_combined.a`) leaves glslang and
//! SPIRV-Tools symbols undefined, so linking a crate that uses shaderc-sys against the system
//! library fails. Adding the static glslang and SPIRV-Tools archives the distribution ships
//! (`glslang-dev`, `spirv-tools`) resolves them. Without the feature this script does nothing.
//! `DGCC_SHADERC_STATIC_DIR` points at another directory holding those archives; set it to an
//! empty value to add no link lines (for a shaderc built from source).

use std::path::PathBuf;

const STATIC_LIBS: [&str; 9] = [
    "glslang",
    "MachineIndependent",
    "GenericCodeGen",
    "OSDependent",
    "OGLCompiler",
    "HLSL",
    "SPIRV",
    "SPIRV-Tools-opt",
    "SPIRV-Tools",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DGCC_SHADERC_STATIC_DIR");
    if std::env::var_os("CARGO_FEATURE_SHADERC").is_none() {
        return;
    }
    let dir = match std::env::var("DGCC_SHADERC_STATIC_DIR") {
        Ok(d) if d.is_empty() => return,
        Ok(d) => PathBuf::from(d),
        Err(_) => {
            let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
            let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
            if os != "linux" {
                return;
            }
            PathBuf::from(format!("/usr/lib/{arch}-linux-gnu"))
        }
    };
    let missing: Vec<&str> = STATIC_LIBS.iter().copied().filter(|l| !dir.join(format!("lib{l}.a")).is_file()).collect();
    if !missing.is_empty() {
        println!(
            "cargo:warning=dgcc: the shaderc feature links the static glslang/SPIRV-Tools archives, but {} lacks {}; \
             install glslang-dev and spirv-tools, or set DGCC_SHADERC_STATIC_DIR",
            dir.display(),
            missing.join(", ")
        );
        return;
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
    for lib in STATIC_LIBS {
        println!("cargo:rustc-link-lib=static={lib}");
    }
}
