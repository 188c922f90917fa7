//! dgcc — the device-generated-commands compiler.
//!
//! One description of a GPU-driven pipeline (RON or the `.dgc` language) becomes
//! `VK_EXT_device_generated_commands` indirect-commands layouts, validated against device
//! profiles, and every artifact that must agree with them byte for byte.
//!
//! Features: `compiler` (front ends, validation, layout, emitters; no Vulkan), `runtime` (the
//! ash executor; no compiler dependencies), `shaderc` (shader checks), `cli` (the binary).
//! Without any feature the crate holds what both halves share: the manifest types (`ir`),
//! device profiles (`device`), diagnostics as data (`diag`) and the rule registry (`rules`).

/// Validation; the rules that need only compiled layouts and profiles are light (the runtime
/// uses them), the rest is behind `compiler`.
pub mod check;
pub mod device;
pub mod diag;
pub mod ir;
pub mod rules;
pub mod span;
pub mod stages;

#[cfg(feature = "compiler")]
pub mod ast;
#[cfg(feature = "compiler")]
pub mod emit;
#[cfg(feature = "compiler")]
pub mod layout;
#[cfg(feature = "compiler")]
pub mod driver;
#[cfg(feature = "compiler")]
pub mod render;
#[cfg(feature = "compiler")]
pub mod syntax;

#[cfg(feature = "runtime")]
pub mod runtime;

/// `dgcc bench`: the scene in every mode at several object counts, with plots.
#[cfg(feature = "cli")]
pub mod bench;
